// Backup: download the whole shop (database and pictures) as one .zip; restore one behind a typed confirmation.
import { el, showProblem, clearErrors, fieldError, announce, toast } from "/static/js/app.js";
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
  $("restore-name").textContent = `“${file.name}” (${size(file.size)}, ${dateTime(new Date(file.lastModified).toISOString())})`;
  word.value = "";
  $("restore-go").disabled = true;
  dialog.showModal();
  word.focus();
});

word.addEventListener("input", () => { $("restore-go").disabled = word.value.trim().toUpperCase() !== "REPLACE"; });
$("restore-cancel").addEventListener("click", () => dialog.close());

$("restore-confirm").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (word.value.trim().toUpperCase() !== "REPLACE") return;
  dialog.close();
  const file = form.file.files[0];
  const button = $("restore-button");
  button.disabled = true;
  result.replaceChildren(el("p", { class: "muted" }, "Uploading and checking the backup…"));
  try {
    const reply = await upload("/api/v1/restore", file, { contentType: "application/octet-stream", progress: $("restore-progress") });
    form.reset();
    result.replaceChildren(el("div", { class: "banner banner-info", id: "restore-done" },
      el("p", {}, el("strong", {}, "Restored."), ` The shop now holds the backup's data: ${reply.products} product${reply.products === 1 ? "" : "s"}.`),
      el("p", { style: "margin:0" }, el("a", { class: "btn", href: "/app/home" }, "Go to the dashboard"))));
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
