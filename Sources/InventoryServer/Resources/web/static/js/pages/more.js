// More: clock in and out, the shift summaries (sales, revenue, tips, time) as the server worked them out, and changing
// your own password and PIN (the server checks the current ones and that a new PIN was typed twice alike).
import { api, clearErrors, el, followAlerts, page, serviceWorker, toast, showProblem } from "/static/js/app.js";
import { dateTime } from "/static/js/shared/dates.js";
import { hoursAndMinutes as hours, money } from "/static/js/shared/format.js";

const summary = (shift) => `${hours(shift.minutes)}, ${shift.salesCount} sale${shift.salesCount === 1 ? "" : "s"}, ${money(shift.revenue)} revenue, ${money(shift.tips)} tips`;

async function loadShifts() {
  const list = document.getElementById("shifts");
  if (!list) return;
  try {
    const shifts = await api("GET", "/api/v1/shifts?days=7", undefined, { quiet: true });
    list.replaceChildren(...shifts.slice(0, 20).map((shift) => el("li", { "data-shift": shift.id },
      el("strong", {}, `${shift.username === page.user ? "" : `${shift.username} · `}${dateTime(shift.startedAt)}${shift.endedAt ? "" : " (clocked in)"}`),
      el("span", { class: "muted" }, ` — ${summary(shift)}`))));
    document.getElementById("shifts-card").hidden = shifts.length === 0;
  } catch { /* the list is a convenience */ }
}

for (const [id, path, message] of [["clock-in", "/api/v1/auth/clock-in", "Clocked in"], ["clock-out", "/api/v1/auth/clock-out", "Clocked out"]]) {
  document.getElementById(id)?.addEventListener("click", async () => {
    try {
      const shift = await api("POST", path);
      toast(shift.endedAt ? `${message}: ${summary(shift)}` : message);
      loadShifts();
    } catch (error) { showProblem(null, error); }
  });
}
loadShifts();

// ---------- your password and PIN ----------
const pinForm = document.getElementById("pin-form");
const passwordForm = document.getElementById("password-form");

/** Shows the PIN form for an account with or without a PIN (then the first one is chosen, with no current one). */
function showPIN(hasPIN) {
  document.getElementById("current-pin-field").hidden = !hasPIN;
  document.getElementById("no-pin-note").hidden = hasPIN;
  document.getElementById("pin-save").textContent = hasPIN ? "Change PIN" : "Set PIN";
}

async function loadAccount() {
  try {
    const me = await api("GET", "/api/v1/auth/me", undefined, { quiet: true });
    showPIN(me.user.hasPIN);
  } catch { /* the form still works: the server says what is missing */ }
}

passwordForm?.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(passwordForm);
  const body = { currentPassword: passwordForm.elements.currentPassword.value, newPassword: passwordForm.elements.newPassword.value };
  try {
    const answer = await api("PUT", "/api/v1/auth/me/password", body);
    passwordForm.reset();
    const ended = answer.sessionsEnded;
    toast(`Password changed${ended ? `; ${ended} other session${ended === 1 ? "" : "s"} signed out` : ""}`);
  } catch (error) { showProblem(passwordForm, error); }
});

pinForm?.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(pinForm);
  const body = { newPin: pinForm.elements.newPin.value, newPinAgain: pinForm.elements.newPinAgain.value };
  if (!document.getElementById("current-pin-field").hidden) body.currentPin = pinForm.elements.currentPin.value;
  try {
    const user = await api("PUT", "/api/v1/auth/me/pin", body);
    pinForm.reset();
    showPIN(user.hasPIN);
    toast("PIN changed");
  } catch (error) { showProblem(pinForm, error); }
});
loadAccount();

// Alerts (managers and admins): the browser's permission is asked on this tap, then the choice is stored on the
// server (PUT /api/v1/auth/me/alerts), which sends this account's pages the alerts from then on.
const alertsToggle = document.getElementById("alerts-toggle");
const alertsState = document.getElementById("alerts-state");
function showAlertsState(enabled) {
  alertsToggle.setAttribute("aria-pressed", enabled ? "true" : "false");
  alertsToggle.textContent = enabled ? "Turn alerts off" : "Turn alerts on";
  const blocked = "Notification" in window && Notification.permission === "denied";
  alertsState.textContent = !enabled ? "Off." : blocked ? "On, but this browser blocks notifications from this site." : "On.";
}
alertsToggle?.addEventListener("click", async () => {
  const enable = alertsToggle.getAttribute("aria-pressed") !== "true";
  if (enable && "Notification" in window && Notification.permission === "default") {
    try { await Notification.requestPermission(); } catch { /* answered below */ }
  }
  try {
    const answer = await api("PUT", "/api/v1/auth/me/alerts", { enabled: enable });
    document.body.dataset.alerts = answer.enabled ? "true" : "false";
    showAlertsState(answer.enabled);
    if (answer.enabled) await serviceWorker();
    followAlerts(answer.enabled);
    toast(answer.enabled ? "Alerts on" : "Alerts off");
  } catch (error) { showProblem(null, error); }
});
if (alertsToggle) showAlertsState(alertsToggle.getAttribute("aria-pressed") === "true");
