// Users & roles: accounts (create and edit in a sheet), API tokens (shown once, revocable), the audit log (paged)
// and shifts.
import { api, el, icon, showProblem, clearErrors, fieldError, toast, confirmDialog } from "/static/js/app.js";
import { setupTabs, table, loading } from "/static/js/admin-common.js";
import { dateTime } from "/static/js/shared/dates.js";
import { hoursAndMinutes as hours } from "/static/js/shared/format.js";

const $ = (id) => document.getElementById(id);
const me = Number(document.querySelector("[data-me]")?.dataset.me ?? 0);
const ROLES = { staff: "Staff", manager: "Manager", admin: "Admin" };
let users = [];
const userName = (id) => { const user = users.find((u) => u.id === id); return user ? (user.displayName || user.username) : `#${id}`; };
const failed = (box, error) => box.replaceChildren(el("p", { class: "banner banner-error", role: "alert" }, error?.problem?.detail || error.message));

// ---------- users ----------
async function loadUsers() {
  const list = $("user-list");
  try {
    users = await api("GET", "/api/v1/users");
  } catch (error) { failed(list, error); return; }
  list.replaceChildren(...users.map((user) => el("li", { "data-user": user.username },
    el("span", { class: "initials", "aria-hidden": "true" }, user.initials),
    el("div", { class: "main" },
      el("div", { class: "title" }, user.displayName || user.username, user.id === me ? el("span", { class: "muted" }, " (you)") : null),
      el("div", { class: "sub" }, "@" + user.username, user.jobTitle ? ` · ${user.jobTitle}` : "", user.hasPIN ? " · PIN set" : " · no PIN")),
    el("span", { class: `badge ${user.role === "admin" ? "badge-warn" : user.role === "manager" ? "badge-ok" : "badge-muted"}` }, ROLES[user.role] ?? user.role),
    user.active ? null : el("span", { class: "badge badge-out" }, "Inactive"),
    el("button", { type: "button", class: "btn-small", "aria-label": `Edit ${user.displayName || user.username}`, onclick: () => openUser(user) }, icon("edit"), "Edit"))));
  if (!users.length) list.replaceChildren(el("li", { class: "empty" }, "No users yet."));
  const owner = $("token-user");
  if (owner) {
    const chosen = owner.value || String(me);
    owner.replaceChildren(...users.filter((u) => u.active).map((u) => el("option", { value: String(u.id) }, `${u.displayName || u.username} (${u.role})`)));
    owner.value = chosen;
  }
}

/** An admin resets a forgotten PIN (from the user's sheet): the user has none until they choose a new one (typed
 * twice) under More. */
async function resetPIN(user) {
  const name = user.displayName || user.username;
  if (!(await confirmDialog(`Reset the PIN of ${name}? They are signed out everywhere and choose a new PIN under More after signing in with their password.`,
    { confirm: "Reset PIN" }))) return;
  try {
    await api("POST", `/api/v1/users/${user.id}/pin-reset`);
    dialog.close();
    toast(`${name} has no PIN now`);
    await loadUsers();
  } catch (error) { showProblem(form, error); }
}

const dialog = $("user-dialog");
const form = $("user-form");
let editing = null;

function openUser(user) {
  editing = user;
  form.reset();
  clearErrors(form);
  const creating = !user;
  $("user-dialog-title").textContent = creating ? "New user" : `Edit ${user.displayName || user.username}`;
  $("user-save").textContent = creating ? "Create user" : "Save changes";
  $("u-password-label").textContent = creating ? "Password" : "New password (optional)";
  $("u-password-hint").textContent = creating ? "At least 8 characters." : "Leave empty to keep the current password.";
  $("u-pin-label").textContent = creating ? "PIN (optional)" : "New PIN (optional)";
  $("u-pin-hint").textContent = creating ? "4–8 digits, to unlock the till." : (user.hasPIN ? "Leave empty to keep the current PIN." : "This user has no PIN yet.");
  $("u-remove-pin-row").hidden = creating || !user.hasPIN;
  $("u-reset-pin").hidden = creating || !user.hasPIN;
  $("u-password").required = creating;
  form.username.value = user?.username ?? "";
  form.displayName.value = user?.displayName ?? "";
  form.jobTitle.value = user?.jobTitle ?? "";
  form.role.value = user?.role ?? "staff";
  form.active.checked = user?.active ?? true;
  // Nobody can lock themselves out from here.
  form.active.disabled = user?.id === me;
  form.role.disabled = user?.id === me;
  $("u-self-note").hidden = user?.id !== me;
  dialog.showModal();
  (creating ? form.username : form.displayName).focus();
}

/** The request body the form asks for. */
function userBody() {
  const username = form.username.value.trim(), password = form.password.value, pin = form.pin.value.trim();
  // What makes a username, password or PIN acceptable, and that a new user needs a password, is the server's rule
  // (StaffAccount): its refusal names the field and is shown there.
  const body = { username, displayName: form.displayName.value.trim(), jobTitle: form.jobTitle.value.trim() };
  if (!form.role.disabled) body.role = form.role.value;
  if (!form.active.disabled) body.active = form.active.checked;
  if (password) body.password = password;
  // A PIN is typed twice; whether the two match is the server's to say (on pinAgain).
  if (pin) { body.pin = pin; body.pinAgain = form.pinAgain.value.trim(); }
  else if (editing && form.removePin.checked) body.pin = "";
  return body;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  const body = userBody();
  const button = $("user-save");
  button.disabled = true;
  try {
    const user = editing ? await api("PUT", `/api/v1/users/${editing.id}`, body) : await api("POST", "/api/v1/users", body);
    dialog.close();
    toast(editing ? `Saved ${user.username}` : `Created ${user.username}`);
    await loadUsers();
  } catch (error) {
    showProblem(form, error);
  } finally {
    button.disabled = false;
  }
});
for (const button of dialog.querySelectorAll("[data-close]")) button.addEventListener("click", () => dialog.close());
$("new-user").addEventListener("click", () => openUser(null));
$("u-reset-pin").addEventListener("click", () => { if (editing) resetPIN(editing); });

// ---------- API tokens ----------
async function loadTokens() {
  const box = $("token-list");
  if (!box) return;
  loading(box);
  try {
    const tokens = await api("GET", "/api/v1/tokens");
    box.replaceChildren(table([
      { label: "Name", value: (t) => [t.name, el("span", { class: "sub" }, `acts as ${userName(t.userId)}`)] },
      { label: "Created", value: (t) => dateTime(t.createdAt), phone: false },
      { label: "Last used", value: (t) => dateTime(t.lastSeenAt) },
      { label: "", value: (t) => el("button", { type: "button", class: "btn-small danger", "aria-label": `Revoke token ${t.name}`, onclick: () => revoke(t) }, "Revoke") },
    ], tokens, { caption: "API tokens", id: "token-table", empty: "No API tokens." }));
  } catch (error) { failed(box, error); }
}

async function revoke(token) {
  if (!await confirmDialog(`Revoke the token “${token.name}”? Scripts using it stop working at once.`, { confirm: "Revoke" })) return;
  try {
    await api("DELETE", `/api/v1/tokens/${token.id}`);
    toast(`Revoked ${token.name}`);
    loadTokens();
  } catch (error) { showProblem(null, error); }
}

$("token-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const tokenForm = event.target;
  clearErrors(tokenForm);
  const name = tokenForm.name.value.trim();
  if (!name) { fieldError(tokenForm, "name", "give the token a name, e.g. what uses it"); tokenForm.name.focus(); return; }
  try {
    const created = await api("POST", "/api/v1/tokens", { name, userId: Number(tokenForm.userId.value) || undefined });
    tokenForm.reset();
    tokenForm.userId.value = String(me);
    $("token-secret").value = created.token;
    $("token-owner").textContent = userName(created.userId);
    $("token-dialog").showModal();
    $("token-secret").select();
    loadTokens();
  } catch (error) { showProblem(tokenForm, error); }
});
$("token-copy")?.addEventListener("click", async () => {
  const input = $("token-secret");
  try { await navigator.clipboard.writeText(input.value); }
  catch { input.select(); document.execCommand?.("copy"); }
  toast("Token copied");
});
$("token-done")?.addEventListener("click", () => { $("token-secret").value = ""; $("token-dialog").close(); });
$("token-dialog")?.addEventListener("close", () => { $("token-secret").value = ""; });

// ---------- audit log ----------
const AUDIT_PAGE = 50;
let auditOffset = 0;
async function loadAudit() {
  const box = $("audit-list");
  if (!box) return;
  loading(box);
  try {
    const entries = await api("GET", `/api/v1/audit?limit=${AUDIT_PAGE + 1}&offset=${auditOffset}`);
    const more = entries.length > AUDIT_PAGE;
    const shown = entries.slice(0, AUDIT_PAGE);
    box.replaceChildren(shown.length
      // Each entry reads as the sentence the server wrote for it; who and when (shop time) beneath.
      ? el("ul", { class: "list audit-list", id: "audit-table", "aria-label": "Audit log entries" }, shown.map((entry) => el("li", { "data-kind": entry.kind ?? "" },
        el("div", { class: "main" },
          el("div", { class: "title" }, entry.sentence),
          el("div", { class: "sub" }, el("strong", {}, entry.username || "—"), " · ", el("time", { datetime: entry.at }, dateTime(entry.at)))))))
      : el("p", { class: "empty" }, "Nothing logged yet."));
    $("audit-page").textContent = shown.length ? `${auditOffset + 1}–${auditOffset + shown.length}` : "";
    $("audit-newer").disabled = auditOffset === 0;
    $("audit-older").disabled = !more;
  } catch (error) { failed(box, error); }
}
$("audit-newer")?.addEventListener("click", () => { auditOffset = Math.max(0, auditOffset - AUDIT_PAGE); loadAudit(); });
$("audit-older")?.addEventListener("click", () => { auditOffset += AUDIT_PAGE; loadAudit(); });

// ---------- shifts ----------
/** The end of a shift: only the time when it ends the day it started. */
const endTime = (start, end) => {
  const [a, b] = [dateTime(start), dateTime(end)];
  const day = (text) => text.split(",")[0];
  return day(a) === day(b) ? b.slice(b.indexOf(",") + 2) : b;
};
async function loadShifts() {
  const box = $("shift-list");
  loading(box);
  try {
    const shifts = await api("GET", `/api/v1/shifts?days=${$("shift-days").value}`);
    const total = shifts.reduce((n, s) => n + s.minutes, 0);
    const perPerson = new Map();
    for (const shift of shifts) perPerson.set(shift.username, (perPerson.get(shift.username) ?? 0) + shift.minutes);
    box.replaceChildren(perPerson.size > 1
      ? el("div", { class: "stats", "aria-label": "Hours per person" }, [...perPerson].map(([name, minutes]) =>
        el("div", { class: "stat" }, el("div", { class: "label" }, name), el("div", { class: "value" }, hours(minutes)))))
      : "",
    table([
      { label: "Who", value: (s) => s.username },
      { label: "When", value: (s) => [dateTime(s.startedAt), " – ",
        s.endedAt ? endTime(s.startedAt, s.endedAt) : el("span", { class: "badge badge-ok" }, "on shift")], wrap: true },
      { label: "Worked", value: (s) => hours(s.minutes), num: true },
    ], shifts, { caption: "Shifts", id: "shift-table", empty: "No shifts in this period. Staff clock in and out on the More screen.", foot: shifts.length ? ["Total", "", hours(total)] : null }));
  } catch (error) { failed(box, error); }
}
$("shift-days").addEventListener("change", loadShifts);

// ---------- start ----------
const loaded = new Set();
loadUsers().then(() => {
  setupTabs(document.querySelector('[role="tablist"]'), (tab) => {
    if (loaded.has(tab)) return;
    loaded.add(tab);
    ({ tokens: loadTokens, audit: loadAudit, shifts: loadShifts }[tab])?.();
  });
});
