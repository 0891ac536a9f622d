// Import: CSV products, always a dry run first (preview of creations/updates, or every bad row with its line),
// then the real import; a <progress> bar while the file uploads and the server works.
import { el, showProblem, clearErrors, fieldError, announce, toast } from "/static/js/app.js";
import { upload, table, downloadText } from "/static/js/admin-common.js";

const $ = (id) => document.getElementById(id);
const form = $("import-form");
const textarea = $("import-text");
const importButton = $("do-import");
const progress = $("import-progress");
const resultCard = $("import-result");
const resultBody = $("result-body");
let checked = null; // the text the last clean dry run accepted

const COLUMNS = ["name", "sku", "barcode", "category", "unit", "sale_price", "minimum_sale_price", "tax_rate", "low_stock_threshold",
  "track_stock", "allow_negative_stock", "icon", "archived"];

function invalidate() {
  checked = null;
  importButton.disabled = true;
  $("import-actions").hidden = true;
  importButton.textContent = "Import";
}

$("import-file").addEventListener("change", async (event) => {
  const file = event.target.files?.[0];
  if (!file) return;
  clearErrors(form);
  if (file.size > 20 * 1024 * 1024) { fieldError(form, "file", "the file is larger than 20 MB; split it"); return; }
  const text = await file.text();
  if (text.includes("\uFFFD")) {
    // Not UTF-8 (e.g. a spreadsheet's default "CSV" in a legacy encoding): accents would be garbled.
    fieldError(form, "file", "this file is not UTF-8 text; in the spreadsheet, save it as “CSV UTF-8” and choose it again");
    event.target.value = "";
    return;
  }
  textarea.value = text.replace(/^\uFEFF/, "");
  invalidate();
  const lines = textarea.value.split(/\r?\n/).filter((line) => line.trim() !== "").length;
  announce(`Loaded ${file.name}: ${lines} lines. Check it before importing; you can also fix rows in the text box.`);
  toast(`Loaded ${file.name} (${lines} lines)`);
});
textarea.addEventListener("input", invalidate);

function stat(label, value, id) {
  return el("div", { class: "stat", id }, el("div", { class: "label" }, label), el("div", { class: "value" }, String(value)));
}

function showPlan(result) {
  const rows = result.rows;
  const parts = [
    el("p", { class: "banner banner-info", id: "import-status" },
      result.dryRun
        ? (rows.length ? "Dry run: nothing has been saved yet. Check the rows below, then press “Import” under them." : "Dry run: every product already matches — nothing to import.")
        : `Imported: ${result.created} created, ${result.updated} updated.`),
    el("div", { class: "import-summary" },
      stat(result.dryRun ? "Would create" : "Created", result.created, "count-created"),
      stat(result.dryRun ? "Would update" : "Updated", result.updated, "count-updated"),
      stat("Unchanged", result.unchanged, "count-unchanged")),
  ];
  if (result.newCategories.length) parts.push(el("p", {}, "New categories: ", el("strong", {}, result.newCategories.join(", "))));
  if (rows.length) {
    parts.push(table([
      { label: "Line", value: (r) => String(r.line), num: true, nowrap: true },
      { label: "Action", value: (r) => el("span", { class: `badge ${r.action === "create" ? "badge-ok" : "badge-warn"}` }, r.action === "create" ? "Create" : "Update"), header: false },
      { label: "Product", value: (r) => r.productId ? el("a", { href: `/app/products/${r.productId}` }, r.name) : r.name },
      { label: "Changes", value: (r) => el("span", { class: "changed" }, r.action === "create" ? "new product" : r.changedFields.join(", ")), wrap: true },
    ], rows, { caption: "Rows to import", id: "plan-table" }));
  }
  if (!result.dryRun) parts.push(el("p", {}, el("a", { class: "btn", href: "/app/products" }, "Go to products")));
  resultBody.replaceChildren(...parts);
}

function showRefusal(problem) {
  const errors = problem.errors ?? [];
  resultBody.replaceChildren(
    el("p", { class: "banner banner-error", role: "alert", id: "import-refused" },
      `${errors.length} problem${errors.length === 1 ? "" : "s"} found — nothing was saved. Fix ${errors.length === 1 ? "this row" : "these rows"} and check again.`),
    table([
      { label: "Line", value: (e) => String(e.line), num: true, nowrap: true },
      { label: "Column", value: (e) => e.field ?? "—", header: false },
      { label: "Reason", value: (e) => e.message, wrap: true },
    ], errors, { caption: "Bad rows", id: "error-table" }));
}

async function send(dryRun) {
  clearErrors(form);
  const text = textarea.value;
  if (!text.trim()) { fieldError(form, "text", "choose a CSV file or paste CSV text first"); textarea.focus(); return; }
  if (!dryRun && text !== checked) { invalidate(); return; }
  const buttons = [$("dry-run"), importButton];
  for (const button of buttons) button.disabled = true;
  resultCard.hidden = false;
  resultBody.replaceChildren(el("p", { class: "muted" }, dryRun ? "Checking every row…" : "Importing…"));
  try {
    const result = await upload(`/api/v1/import/products${dryRun ? "?dryRun=true" : ""}`, text, { contentType: "text/csv; charset=utf-8", progress });
    showPlan(result);
    if (dryRun && result.rows.length) {
      checked = text;
      importButton.disabled = false;
      $("import-actions").hidden = false;
      importButton.textContent = `Import ${result.rows.length} product${result.rows.length === 1 ? "" : "s"}`;
      announce(`Dry run: ${result.created} to create, ${result.updated} to update. Press Import to save.`);
    } else if (dryRun) {
      invalidate();
      announce("Nothing to import");
    } else {
      invalidate();
      toast(`Imported: ${result.created} created, ${result.updated} updated`);
      announce(`Imported: ${result.created} created, ${result.updated} updated`);
    }
  } catch (error) {
    invalidate();
    if (error.problem?.code === "invalidImport" || Array.isArray(error.problem?.errors)) {
      showRefusal(error.problem); // its banner is role=alert: read out at once
    } else {
      resultCard.hidden = true;
      showProblem(form, error);
    }
  } finally {
    $("dry-run").disabled = false;
    importButton.disabled = checked === null;
  }
  if (!resultCard.hidden) {
    resultCard.scrollIntoView({ block: "start" });
    $("result-heading").focus({ preventScroll: true });
  }
}

form.addEventListener("submit", (event) => { event.preventDefault(); send(true); });
importButton.addEventListener("click", () => send(false));
$("template-blank").addEventListener("click", () => {
  downloadText("stockroom-import-template.csv",
    COLUMNS.join(",") + "\r\n" + "Flat white,CAFE-020,,Coffee,pcs,3.40,2.80,7,10,true,false,☕,false\r\n");
});
