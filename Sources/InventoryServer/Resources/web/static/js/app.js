// Stockroom's shared browser module: the JSON API client (CSRF, progress, lock and offline handling), form
// errors from RFC 9457 problems, small DOM helpers, the idle lock and the live event stream. Screens import what
// they need:
//   import { api, el, showProblem } from "/static/js/app.js";
// The web app's shared rules live once each in static/js/shared/: money and quantities (format.js), shop-time dates
// (dates.js), barcodes (barcode.js) and product thumbnails (thumbs.js).

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";

// ---------- progress indicator and "server unreachable" banner ----------
let busy = 0;
function setBusy(delta) {
  busy = Math.max(0, busy + delta);
  const bar = document.getElementById("progress");
  if (bar) bar.hidden = busy === 0;
  document.body?.setAttribute("aria-busy", busy > 0 ? "true" : "false");
}

let offline = false;
function setOffline(value) {
  offline = value;
  const banner = document.getElementById("offline");
  if (banner) banner.hidden = !value;
  if (value) scheduleProbe();
}
let probeTimer = null;
function scheduleProbe() {
  if (probeTimer) return;
  probeTimer = setTimeout(async () => {
    probeTimer = null;
    try {
      const reply = await fetch("/health", { cache: "no-store" });
      if (reply.ok) { setOffline(false); return; }
    } catch { /* still offline */ }
    scheduleProbe();
  }, 3000);
}
window.addEventListener("offline", () => setOffline(true));
window.addEventListener("online", () => scheduleProbe());

/** An API refusal: `status` and the RFC 9457 `problem` ({title, detail, field, code}). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem ?? {};
    this.field = this.problem.field ?? null;
  }
}

/**
 * Calls the JSON API. `body` is sent as JSON unless it is FormData, a Blob or an ArrayBuffer. Resolves to the
 * parsed JSON (or text for CSV, null for 204). Throws ApiError for 4xx/5xx; a network failure shows the banner
 * and throws ApiError(0). A locked till goes to the PIN screen, an expired session to the sign-in screen.
 */
export async function api(method, path, body, { headers = {}, quiet = false, raw = false } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers }, credentials: "same-origin" };
  if (method !== "GET" && method !== "HEAD" && !init.headers["X-CSRF-Token"]) init.headers["X-CSRF-Token"] = csrf();
  if (body !== undefined && body !== null) {
    if (body instanceof FormData || body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
      init.body = body;
    } else {
      init.headers["Content-Type"] ??= "application/json";
      init.body = JSON.stringify(body);
    }
  }
  if (!quiet) setBusy(1);
  let reply;
  try {
    reply = await fetch(path, init);
  } catch (error) {
    setOffline(true);
    throw new ApiError(0, { title: "Server unreachable", detail: "cannot reach the Stockroom server; check the connection and try again" });
  } finally {
    if (!quiet) setBusy(-1);
  }
  if (offline) setOffline(false);
  if (reply.status === 423) { goToLock(); throw new ApiError(423, { title: "Till locked", detail: "the till is locked" }); }
  if (reply.status === 401 && !path.startsWith("/api/v1/auth/")) {
    location.assign("/login?next=" + encodeURIComponent(location.pathname + location.search));
    throw new ApiError(401, { title: "Sign in", detail: "your session has ended; sign in again" });
  }
  if (raw) {
    if (!reply.ok) throw new ApiError(reply.status, await problemOf(reply));
    return reply;
  }
  if (reply.status === 204) return null;
  const type = reply.headers.get("Content-Type") ?? "";
  if (!reply.ok) throw new ApiError(reply.status, await problemOf(reply));
  if (type.includes("json")) return reply.json();
  return reply.text();
}

async function problemOf(reply) {
  try {
    const json = await reply.json();
    return json;
  } catch {
    return { title: `HTTP ${reply.status}`, detail: reply.statusText || "the server refused the request" };
  }
}

export function goToLock() {
  if (location.pathname !== "/lock") location.assign("/lock?next=" + encodeURIComponent(location.pathname + location.search));
}

// ---------- announcements, toasts, errors ----------
/** Reads a message to screen readers (and shows nothing). */
export function announce(message, { assertive = false } = {}) {
  const region = document.getElementById(assertive ? "alert" : "status");
  if (!region) return;
  region.textContent = "";
  setTimeout(() => { region.textContent = message; }, 30);
}

let toastTimer = null;
/** A short message at the bottom of the screen, also announced. */
export function toast(message) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = message;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), 3500);
}

/** Removes every inline error from a form. */
export function clearErrors(form) {
  for (const input of form.querySelectorAll('[aria-invalid="true"]')) input.removeAttribute("aria-invalid");
  for (const box of form.querySelectorAll(".field-error")) box.textContent = "";
  const general = form.querySelector(".form-error");
  if (general) general.textContent = "";
}

/**
 * Shows one field's error inline: the control gets aria-invalid and aria-describedby, the message goes into the
 * field's `.field-error` (made if missing) and is announced.
 */
export function fieldError(form, name, message) {
  const input = form.querySelector(`[name="${CSS.escape(name)}"]`);
  if (!input) return false;
  input.setAttribute("aria-invalid", "true");
  const holder = input.closest(".field") ?? input.parentElement;
  let box = holder.querySelector(".field-error");
  if (!box) {
    box = el("div", { class: "field-error" });
    holder.append(box);
  }
  if (!box.id) box.id = (input.id || name.replace(/[^\w-]/g, "_")) + "-error";
  const described = new Set((input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean));
  described.add(box.id);
  input.setAttribute("aria-describedby", [...described].join(" "));
  box.textContent = message;
  return true;
}

/**
 * Shows an API refusal on a form: on the field it names when the form has it (`lines[2].quantity` finds
 * `[name="lines[2].quantity"]`), else in the form's `.form-error` box. Focuses the first bad control.
 */
export function showProblem(form, error) {
  const problem = error instanceof ApiError ? error.problem
    : error && typeof error === "object" && !(error instanceof Error) && ("detail" in error || "field" in error) ? error
    : { detail: String(error?.message ?? error) };
  const message = problem.detail || problem.title || "something went wrong";
  let shown = false;
  if (form && problem.field) shown = fieldError(form, problem.field, message);
  if (!shown) {
    let box = form?.querySelector(".form-error");
    if (form && !box) {
      box = el("div", { class: "form-error banner banner-error", role: "alert" });
      form.prepend(box);
    }
    if (box) box.textContent = (problem.field ? problem.field + ": " : "") + message;
    else toast(message);
  }
  announce((problem.field ? problem.field + ": " : "") + message, { assertive: true });
  form?.querySelector('[aria-invalid="true"]')?.focus();
}

// ---------- DOM ----------
/** Builds an element: el("a", {href: "/x", class: "btn"}, "text", child). Strings are text, never HTML. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    // Through the CSSOM: the Content-Security-Policy refuses style attributes (style-src 'self').
    else if (key === "style") node.style.cssText = String(value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An icon from the sprite. */
export function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "icon");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `/static/icons/sprite.svg#${name}`);
  svg.append(use);
  return svg;
}

export function debounce(fn, ms = 200) {
  let timer = null;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

/** Asks a yes/no question in a dialog; resolves true or false. */
export function confirmDialog(message, { confirm = "Delete", danger = true } = {}) {
  return new Promise((resolve) => {
    const dialog = el("dialog", { "aria-labelledby": "confirm-title" },
      el("div", { class: "sheet-head" }, el("h2", { id: "confirm-title" }, "Are you sure?")),
      el("div", { class: "sheet-body" }, el("p", {}, message)),
      el("div", { class: "sheet-foot" },
        el("button", { type: "button", value: "cancel", onclick: () => dialog.close("cancel") }, "Cancel"),
        el("button", { type: "button", class: danger ? "danger" : "primary", "data-confirm": true, onclick: () => dialog.close("ok") }, confirm)));
    dialog.addEventListener("close", () => { resolve(dialog.returnValue === "ok"); dialog.remove(); });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** Reads a form into an object of trimmed strings (checkboxes as booleans; empty strings dropped). */
export function formValues(form) {
  const values = {};
  for (const control of form.elements) {
    if (!control.name || control.disabled) continue;
    if (control.type === "checkbox") values[control.name] = control.checked;
    else if (control.type === "radio") { if (control.checked) values[control.name] = control.value; }
    else if (control.type !== "file" && control.type !== "submit" && control.type !== "button") {
      const text = control.value.trim();
      if (text !== "") values[control.name] = text;
    }
  }
  return values;
}

/** The signed-in user and the screen's id and action, from the page. (The shop's currency and time zone: shared/format.js, shared/dates.js.) */
export const page = {
  get role() { return document.body.dataset.role ?? "staff"; },
  get user() { return document.body.dataset.user ?? ""; },
  get id() { return document.getElementById("main")?.dataset.id ?? ""; },
  get action() { return document.getElementById("main")?.dataset.action ?? ""; },
};

// ---------- idle lock ----------
function startIdleLock() {
  const minutes = Number(document.body.dataset.lockMinutes ?? 0);
  if (!minutes || document.body.dataset.page === "none") return;
  let last = Date.now();
  let lastPing = Date.now();
  const touch = () => {
    last = Date.now();
    // Tell the server the till is in use at most once a minute, so it does not lock a busy till.
    if (last - lastPing > 60_000) { lastPing = last; api("GET", "/api/v1/auth/me", null, { quiet: true }).catch(() => {}); }
  };
  for (const type of ["pointerdown", "keydown", "touchstart", "scroll"]) window.addEventListener(type, touch, { passive: true });
  setInterval(async () => {
    if (Date.now() - last > minutes * 60_000) {
      try { await api("POST", "/api/v1/auth/lock", null, { quiet: true }); } catch { /* locked anyway */ }
      goToLock();
    }
  }, 10_000);
}

// ---------- live events (Server-Sent Events) ----------
// One stream for all the tabs of this app in a browser, whoever listens on it (screens, alerts). A browser opens at
// most six HTTP/1.1 connections to one server across all its tabs, and a stream holds one for as long as it is open:
// a stream a tab would leave six open tabs with no connection for anything else, and every tab would hang.
// So the tabs elect one of them (a Web Lock, held while the tab listens) to open the stream; it hands every event to
// the others over a BroadcastChannel. When that tab closes or stops listening, its lock passes to another tab that
// listens, which opens the stream again; the screens then read again what they show (as after any reconnect).
// A browser without Web Locks or BroadcastChannel opens a stream in each tab, as before.
const LIVE_CHANNEL = "stockroom-live";
const live = {
  source: null, subscribers: new Set(), types: new Set(), dropped: false, open: false,
  channel: null, leading: false, release: null, ticket: null, retryDelay: 3_000,
};
const shareLive = typeof BroadcastChannel === "function" && typeof navigator.locks?.request === "function";

function deliver(type, text) {
  let data = null;
  try { data = JSON.parse(text); } catch { data = text; }
  for (const subscriber of [...live.subscribers]) if (subscriber.types.includes(type)) subscriber.handler(type, data);
}

function tell(message) {
  if (live.leading) live.channel?.postMessage(message);
}

function listenFor(source, type) {
  source.addEventListener(type, (event) => {
    if (live.source !== source) return;
    tell({ kind: "event", type, data: event.data });
    deliver(type, event.data);
  });
}

function resyncSubscribers() {
  for (const subscriber of [...live.subscribers]) if (subscriber.resync) subscriber.handler("resync", null);
}

/** The stream dropped (here or in the tab that holds it). */
function streamDropped() {
  live.dropped = true;
  live.open = false;
  document.body.dataset.live = "dropped";
}

/** The stream opened (here or in the tab that holds it); after a drop, every screen reads again what it shows. */
function streamOpened(event) {
  document.body.dataset.live = "open";
  const reconnected = live.dropped;
  live.dropped = false;
  live.open = true;
  if (reconnected) resyncSubscribers();
  for (const subscriber of [...live.subscribers]) subscriber.onOpen?.(event);
}

function openLiveStream() {
  const source = new EventSource("/api/v1/events");
  live.source = source;
  source.addEventListener("error", () => {
    if (live.source !== source) return;
    tell({ kind: "dropped" });
    streamDropped();
    // A browser connects again by itself after a network error, but gives up for good when the server answers
    // anything but a stream (a 401 after signing out, a 423 while the till is locked, a proxy's 502 or 503 while the
    // server restarts): then try again, a little later each time, as long as this tab holds the stream.
    if (source.readyState !== EventSource.CLOSED) return;
    const delay = live.retryDelay;
    live.retryDelay = Math.min(delay * 2, 60_000);
    setTimeout(() => { if (live.source === source && live.leading) openLiveStream(); }, delay);
  });
  source.addEventListener("open", (event) => {
    if (live.source !== source) return;
    live.retryDelay = 3_000;
    tell({ kind: "open" });
    streamOpened(event);
  });
  source.addEventListener("resync", () => {
    if (live.source !== source) return;
    tell({ kind: "resync" });
    resyncSubscribers();
  });
  for (const type of live.types) listenFor(source, type);
}

/** Opens the stream again: the server decides when a stream opens whether it carries alerts. */
function reopenLiveStream() {
  if (!live.leading) {
    live.channel?.postMessage({ kind: "reopen" });
    return;
  }
  if (!live.source) return;
  live.source.close();
  tell({ kind: "dropped" });
  streamDropped();   // what happened between the two streams is read again when the new one opens
  openLiveStream();
}

/** This tab now holds the stream for every tab: it opens it, and asks the others what they listen for. */
function lead() {
  live.leading = true;
  // A tab that was listening through another tab missed what happened while the stream passed over.
  if (live.open) streamDropped();
  live.channel?.postMessage({ kind: "leader" });
  openLiveStream();
}

function listenHere(types) {
  for (const type of types) {
    if (live.types.has(type)) continue;
    live.types.add(type);
    if (live.source) listenFor(live.source, type);
  }
}

function onChannelMessage({ data: message }) {
  switch (message?.kind) {
    // To the tab that holds the stream: another tab listens for these types (again, when a new tab took over).
    case "want":
      if (!live.leading) return;
      listenHere(message.types);
      if (live.open) live.channel.postMessage({ kind: "open" });
      // Refused a while ago (a locked till, say), waiting to try again: a new screen is a reason to try now.
      else if (live.source?.readyState === EventSource.CLOSED) openLiveStream();
      return;
    case "reopen":
      if (live.leading) reopenLiveStream();
      return;
    // To the other tabs, from the tab that holds the stream.
    case "leader":
      live.channel.postMessage({ kind: "want", types: [...live.types] });
      if (live.open) streamDropped();
      return;
    case "event":
      if (!live.leading) deliver(message.type, message.data);
      return;
    case "open":
      if (!live.leading && !live.open) streamOpened(null);
      return;
    case "dropped":
      if (!live.leading) streamDropped();
      return;
    case "resync":
      if (!live.leading) resyncSubscribers();
  }
}

function startLive() {
  if (!shareLive) {
    live.leading = true;
    openLiveStream();
    return;
  }
  live.channel = new BroadcastChannel(LIVE_CHANNEL);
  live.channel.onmessage = onChannelMessage;
  // The lock is held until `release` is called; `ticket` tells this request from one made after listening stopped
  // and started again while it waited.
  const ticket = {};
  const held = new Promise((resolve) => { live.release = resolve; });
  live.ticket = ticket;
  const take = () => {
    if (live.ticket !== ticket || live.leading) return undefined;   // this tab stopped listening while it waited
    lead();
    return held;
  };
  navigator.locks.request(LIVE_CHANNEL, take).catch(take);   // no lock to be had: hold a stream of this tab's own
  live.channel.postMessage({ kind: "want", types: [...live.types] });
}

function stopLive() {
  tell({ kind: "dropped" });
  live.source?.close();
  live.channel?.close();
  live.release?.();
  Object.assign(live, { source: null, dropped: false, open: false, channel: null, leading: false, release: null, ticket: null, retryDelay: 3_000 });
  live.types.clear();
}

/**
 * Calls `handler(type, data)` for each live event ("sale", "product", "low-stock"), on the one stream of this
 * browser's tabs.
 *
 * The server does not replay what a dropped stream missed (a restart, a reconnect to another instance, a phone
 * changing networks, the stream passing from a closed tab to another), so when the stream opens again the handler is
 * called once with type "resync" and no data: the screen reads again what it shows. The server sends a `resync`
 * event itself when it may have missed other instances' changes (its PostgreSQL listener reconnected). `resync:
 * false` for streams whose events are not state (alerts). `onOpen` is called when the stream opens (at once when it
 * is open already). `data-live` on the body says whether the stream opened or dropped last. Returns what stops
 * listening; the tab lets go of the stream when nothing in it listens any more.
 */
export function onLiveEvents(handler, types = ["sale", "product", "low-stock"], { onOpen, resync = true } = {}) {
  if (!("EventSource" in window)) return () => {};
  const subscriber = { handler, types, onOpen, resync };
  const first = live.subscribers.size === 0;
  live.subscribers.add(subscriber);
  listenHere(types);
  if (first) startLive();
  else if (!live.leading) live.channel?.postMessage({ kind: "want", types });
  if (live.open && onOpen) queueMicrotask(() => { if (live.open && live.subscribers.has(subscriber)) onOpen(null); });
  return () => {
    live.subscribers.delete(subscriber);
    if (!live.subscribers.size) stopLive();
  };
}

// ---------- frame: lock and sign-out buttons ----------
function wireFrame() {
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-frame-action]");
    if (!button) return;
    const action = button.dataset.frameAction;
    if (action === "lock") {
      try { await api("POST", "/api/v1/auth/lock"); } catch { /* go anyway */ }
      goToLock();
    } else if (action === "logout") {
      try { await api("POST", "/api/v1/auth/logout"); } catch { /* go anyway */ }
      location.assign("/login");
    }
  });
}

// ---------- alerts: system notifications through the service worker ----------
/** The service worker's registration (`/sw.js`, scope the whole app), or null where there is none. */
export async function serviceWorker() {
  if (!("serviceWorker" in navigator)) return null;
  try {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    return await navigator.serviceWorker.ready;
  } catch {
    return null;
  }
}

/** The active registration that shows alerts: the one the page registered at start (`init`), registered now only
 *  when there is none. Registering again for every alert would ask the server for `/sw.js` each time, and that update
 *  check can fail (the network, a busy server) and lose the alert. */
async function alertRegistration() {
  if (!("serviceWorker" in navigator)) return null;
  try {
    if (!(await navigator.serviceWorker.getRegistration("/"))) await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    return await navigator.serviceWorker.ready;
  } catch {
    return null;
  }
}

/** Shows one alert the server sent (title, body, the screen to open, a tag that makes two pages show it once).
 *  `data-last-alert` says what became of the last one (shown, or why not), for whoever looks at the page. */
async function showAlert(alert) {
  if (!("Notification" in window) || Notification.permission !== "granted") {
    document.body.dataset.lastAlert = `${alert.tag}: notifications not allowed`;
    return;
  }
  const registration = await alertRegistration();
  if (!registration) {
    document.body.dataset.lastAlert = `${alert.tag}: no service worker`;
    return;
  }
  try {
    await registration.showNotification(alert.title, { body: alert.body, tag: alert.tag, data: { url: alert.url } });
    document.body.dataset.lastAlert = `${alert.tag}: shown`;
  } catch (error) {
    document.body.dataset.lastAlert = `${alert.tag}: ${error}`;
    console.error("Stockroom: an alert could not be shown", error);
  }
}

let stopAlerts = null;
/** Listens for `alert` live events on this page while the signed-in manager has opted in (`data-alerts`). */
export function followAlerts(on = document.body.dataset.alerts === "true") {
  const following = stopAlerts !== null, streaming = live.subscribers.size > 0;
  stopAlerts?.();
  stopAlerts = null;
  delete document.body.dataset.alertsListening;
  if (on && document.body.dataset.page !== "none") {
    // `data-alerts-listening` says the stream is open (the server then sends this page every alert).
    stopAlerts = onLiveEvents((_, alert) => { showAlert(alert); }, ["alert"],
      { onOpen: () => { document.body.dataset.alertsListening = "true"; }, resync: false });
    // Opting in while the page's stream is open: the server reads the choice when a stream opens, so open it again.
    if (!following && streaming) reopenLiveStream();
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
else init();
function init() {
  wireFrame();
  startIdleLock();
  serviceWorker();
  followAlerts();
}
