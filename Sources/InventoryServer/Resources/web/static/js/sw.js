// Stockroom's service worker: it only shows alerts. A page of a manager who opted in receives `alert` live events and
// shows each as a system notification through this worker's registration (registration.showNotification), so the
// notification outlives the page; a click opens (or focuses) the screen the server named. Nothing is cached.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = event.notification.data?.url || "/app/home";
  const target = new URL(path, self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (client.url === target && "focus" in client) return client.focus();
    }
    if (open[0] && "navigate" in open[0]) {
      const client = await open[0].navigate(target);
      return client?.focus();
    }
    return self.clients.openWindow(target);
  })());
});

// A page may hand an alert over (when it has no registration of its own yet).
self.addEventListener("message", (event) => {
  const alert = event.data?.alert;
  if (!alert) return;
  event.waitUntil(self.registration.showNotification(alert.title, { body: alert.body, tag: alert.tag, data: { url: alert.url } }));
});
