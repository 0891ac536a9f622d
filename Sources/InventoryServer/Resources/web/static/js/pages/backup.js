// Backup: download the whole shop (database and pictures) as one .zip; the backups kept on this machine (taken daily
// by the server, checked, pruned by its retention rule: all figures and verdicts are the server's); restore an
// uploaded or a kept backup behind a typed confirmation.
import { el, api, icon, showProblem, clearErrors, fieldError, announce, toast } from "/static/js/app.js";
import { upload } from "/static/js/admin-common.js";
import { dateTime } from "/static/js/shared/dates.js";

const $ = (id) => document.getElementById(id);
const form = $("restore-form");
const dialog = $("restore-dialog");
const word = $("restore-word");
const result = $("restore-result");

const size = (bytes) => bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  result.replaceChildren();
  const file = form.file.files?.[0];
  if (!file) { fieldError(form, "file", "choose a backup file first"); form.file.focus(); return; }
  // A quick look before asking to confirm (the server checks the whole file): a backup is a ZIP ("PK\3\4"), or an
  // SQLite database ("SQLite format 3") from before pictures were included.
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const zip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4;
  if (!zip && new TextDecoder().decode(head.slice(0, 15)) !== "SQLite format 3") {
    fieldError(form, "file", "this is not a Stockroom backup (neither the .zip that Download backup gives nor an SQLite database)");
    form.file.focus();
    return;
  }
  confirmRestore({ file }, `“${file.name}” (${size(file.size)}, ${dateTime(new Date(file.lastModified).toISOString())})`);
});

/** What the confirmation dialog will restore: an uploaded `file` or a kept backup's `name`. */
let pending = null;

function confirmRestore(what, label) {
  pending = what;
  $("restore-name").textContent = label;
  word.value = "";
  $("restore-go").disabled = true;
  dialog.showModal();
  word.focus();
}

word.addEventListener("input", () => { $("restore-go").disabled = word.value.trim().toUpperCase() !== "REPLACE"; });
$("restore-cancel").addEventListener("click", () => dialog.close());

$("restore-confirm").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (word.value.trim().toUpperCase() !== "REPLACE") return;
  dialog.close();
  const chosen = pending;
  pending = null;
  if (!chosen) return;
  const button = $("restore-button");
  button.disabled = true;
  result.replaceChildren(el("p", { class: "muted" }, chosen.file ? "Uploading and checking the backup…" : "Checking and restoring the backup…"));
  if (chosen.name) result.scrollIntoView({ block: "nearest" });
  try {
    const reply = chosen.file
      ? await upload("/api/v1/restore", chosen.file, { contentType: "application/octet-stream", progress: $("restore-progress") })
      : await api("POST", `/api/v1/backups/${encodeURIComponent(chosen.name)}/restore`);
    form.reset();
    result.replaceChildren(el("div", { class: "banner banner-info", id: "restore-done" },
      el("p", {}, el("strong", {}, "Restored."), ` The shop now holds the backup's data: ${reply.products} product${reply.products === 1 ? "" : "s"}.`),
      el("p", { style: "margin:0" }, el("a", { class: "btn", href: "/app/home" }, "Go to the dashboard"))));
    $("restore-done").scrollIntoView({ block: "nearest" });
    toast("Backup restored");
    announce(`Backup restored: ${reply.products} products`);
  } catch (error) {
    result.replaceChildren();
    // The server names no field for a bad file; show it on the file input.
    if (!error.field && error.status >= 400 && error.status < 500) error.problem = { ...error.problem, field: "file" };
    showProblem(form, error);
  } finally {
    button.disabled = false;
  }
});

// Backups on this machine.
const keptList = $("kept-list");
const keptError = $("kept-error");
const REASONS = { daily: "daily", weekly: "weekly", newestFailure: "kept to look at" };

async function loadKept() {
  try {
    const reply = await api("GET", "/api/v1/backups", undefined, { quiet: true });
    const policy = reply.policy;
    const hour = `${String(policy.hour).padStart(2, "0")}:00`;
    $("kept-rule").textContent = reply.automatic
      ? `The server takes a backup every day from ${hour} (shop time), checks it as a restore would, and keeps the newest of each of the last ${policy.keepDaily} days and ${policy.keepWeekly} weeks. Next: ${dateTime(reply.nextDueAt)}.`
      : `Automatic backups are off (the server was started with --no-backups). Backups taken here are kept by the same rule: the newest of each of the last ${policy.keepDaily} days and ${policy.keepWeekly} weeks.`;
    keptError.hidden = true;
    keptList.replaceChildren(...reply.backups.map(keptItem));
    if (!reply.backups.length) keptList.replaceChildren(el("li", { class: "empty" }, "No backup on this machine yet."));
  } catch (error) {
    keptError.hidden = false;
    keptError.textContent = error.problem?.detail ?? String(error);
  }
}

function keptItem(backup) {
  const passed = backup.check === "passed";
  const when = dateTime(backup.takenAt);
  return el("li", { "data-name": backup.name, "data-check": backup.check },
    el("div", { class: "main" },
      el("div", { class: "title" }, el("time", { datetime: backup.takenAt }, when), " ",
        el("span", { class: `badge ${passed ? "badge-ok" : "badge-out"}`, "data-role": "check" }, passed ? "Checked" : "Check failed")),
      el("div", { class: "sub" }, el("span", { "data-role": "size" }, size(backup.bytes)),
        " · ", backup.automatic ? "daily backup" : "taken on request",
        backup.kept.length ? ` · kept: ${backup.kept.map((reason) => REASONS[reason] ?? reason).join(", ")}` : ""),
      el("div", { class: "sub detail", "data-role": "detail" }, backup.detail)),
    el("div", { class: "actions" },
      backup.bytes > 0 ? el("a", { class: "btn btn-small", href: backup.download, download: backup.name, "aria-label": `Download the backup of ${when}` }, icon("download"), "Download") : null,
      passed ? el("button", { type: "button", class: "btn-small danger", "aria-label": `Restore the backup of ${when}`,
        onclick: () => confirmRestore({ name: backup.name }, `of ${when} (${size(backup.bytes)}, on this machine)`) }, "Restore…") : null));
}

$("backup-now").addEventListener("click", async () => {
  const button = $("backup-now");
  button.disabled = true;
  try {
    const taken = await api("POST", "/api/v1/backups");
    toast(taken.check === "passed" ? "Backup taken and checked" : "The backup failed its check");
    announce(taken.check === "passed" ? "Backup taken and checked" : `The backup failed its check: ${taken.detail}`);
    await loadKept();
  } catch (error) {
    keptError.hidden = false;
    keptError.textContent = error.problem?.detail ?? String(error);
  } finally {
    button.disabled = false;
  }
});

loadKept();
