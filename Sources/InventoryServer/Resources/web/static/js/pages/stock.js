// Stock count and adjustments: pick a product (search or scan), see its stock; either enter the counted quantity
// (the difference is posted as a `count` adjustment) or a change with a reason. The product's recent movements
// are listed (the API has no list of adjustments across products).
import { api, el, announce, toast, clearErrors, fieldError, showProblem, confirmDialog } from "/static/js/app.js";
import { flag, query } from "/static/js/documents-common.js";
import { productSearch } from "/static/js/documents-pickers.js";
import { dateTime, localInput } from "/static/js/shared/dates.js";
import { money, parseQuantity, quantity, quantityValue } from "/static/js/shared/format.js";
import { productThumb } from "/static/js/shared/thumbs.js";

const form = document.getElementById("stock-form");
const none = document.getElementById("stock-none");
const search = document.getElementById("stock-search");
const history = document.getElementById("stock-history");
const preview = document.getElementById("stock-preview");
const dateInput = document.getElementById("stock-date");
const tabs = [document.getElementById("mode-count"), document.getElementById("mode-change")];
let product = null;
let mode = "count";
let dateTouched = false;
dateInput.addEventListener("input", () => { dateTouched = true; });

const REASON = { initial: "Initial stock", count: "Count", damage: "Damage", expired: "Expired", return: "Return", correction: "Correction", transfer: "Transfer" };
const KIND = { purchase: "Purchase", sale: "Sale", adjustment: "Adjustment", customerReturn: "Customer return", supplierReturn: "Supplier return",
  consumption: "Used in a recipe sold" };

function setMode(next) {
  mode = next;
  for (const tab of tabs) {
    const on = tab.id === `mode-${next}`;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    document.getElementById(tab.getAttribute("aria-controls")).hidden = !on;
  }
  clearErrors(form);
  updatePreview();
}
tabs.forEach((tab, index) => {
  tab.addEventListener("click", () => setMode(tab.id.slice(5)));
  tab.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const other = tabs[(index + 1) % 2];
    setMode(other.id.slice(5)); other.focus();
  });
});

/** What saving will do, in the server's terms: a count is booked as the difference to the stock on record when it is
 *  saved (worked out by the server, so a sale rung up meanwhile is not counted twice); a change is booked as typed. */
function updatePreview() {
  if (!product) { preview.textContent = ""; return; }
  if (mode === "count") {
    const counted = parseQuantity(form.elements.counted.value);
    preview.textContent = counted !== null
      ? `Counted ${quantityValue(counted)} ${product.unit} · on record ${quantity(product.quantity)} ${product.unit}: the difference is booked as a count.`
      : "";
    return;
  }
  const typed = parseQuantity(form.elements.quantityChange.value);
  preview.textContent = typed !== null ? `${typed > 0n ? "+" : ""}${quantityValue(typed)} ${product.unit} · on record now ${quantity(product.quantity)} ${product.unit}.` : "";
}
form.addEventListener("input", updatePreview);

async function choose(chosen) {
  product = await api("GET", `/api/v1/products/${chosen.id}`);
  none.hidden = true;
  form.hidden = false;
  document.getElementById("stock-product").replaceChildren(productThumb(product),
    el("div", { class: "main" }, el("div", { class: "title" }, product.name),
      el("div", { class: "muted" }, [product.sku, product.barcode].filter(Boolean).join(" · "),
        product.tracksStock ? "" : " · stock not tracked")),
    el("div", { class: "num" }, el("div", { class: "stock-now", id: "stock-now" }, quantity(product.quantity)),
      el("div", { class: "muted" }, `${product.unit} · ${money(product.stockValue)}`)));
  document.getElementById("stock-product-link").href = `/app/products/${product.id}`;
  form.elements.counted.value = "";
  form.elements.quantityChange.value = "";
  form.elements.unitCost.value = "";
  form.elements.note.value = "";
  dateInput.value = localInput(); dateTouched = false;
  clearErrors(form);
  updatePreview();
  announce(`${product.name}: ${quantity(product.quantity)} ${product.unit} in stock`);
  (mode === "count" ? form.elements.counted : form.elements.quantityChange).focus();
  loadHistory();
}

async function loadHistory() {
  if (!product) return;
  try {
    const movements = await api("GET", `/api/v1/products/${product.id}/movements`, null, { quiet: true });
    const recent = movements.slice(-15).reverse();
    history.replaceChildren(...(recent.length ? recent.map((movement) => {
      const q = parseQuantity(movement.quantity) ?? 0n;
      const label = movement.kind === "adjustment" ? REASON[movement.reason] ?? "Adjustment" : KIND[movement.kind] ?? movement.kind;
      const remove = movement.kind === "adjustment" && flag("canDelete")
        ? el("button", { type: "button", class: "btn-small danger", "aria-label": `Delete this ${movement.reason ?? ""} adjustment`, onclick: async () => {
            if (!(await confirmDialog("Delete this adjustment? The stock after it is recomputed."))) return;
            try { await api("DELETE", `/api/v1/adjustments/${movement.documentId}`); toast("Adjustment deleted"); choose(product); }
            catch (error) { toast(error.message); }
          } }, "Delete") : null;
      return el("li", { class: "movement" },
        el("div", { class: "main" }, el("div", { class: "title" }, label),
          el("div", { class: "sub" }, `${movement.kind === "adjustment" ? "Adjustment · " : ""}${dateTime(movement.effectiveAt)} · ${quantity(movement.quantityAfter)} after`)),
        el("span", { class: `num movement-change ${q < 0n ? "minus" : "plus"}` }, `${q > 0n ? "+" : ""}${quantity(movement.quantity)}`), remove);
    }) : [el("li", { class: "empty" }, "No stock movements yet.")]));
  } catch { /* banner */ }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  if (!product) return;
  const body = { productId: product.id };
  // What a count, a change or a cost may be is the domain's rule: a quantity typed with a decimal comma is sent with a
  // point, anything else as typed, and the server's refusal lands on the field it names.
  const typedQuantity = (text) => {
    const value = parseQuantity(text);
    return value === null ? text.trim() : quantityValue(value);
  };
  if (mode === "count") {
    // The server books the difference to the stock on record (and says when the count matches it).
    body.countedQuantity = typedQuantity(form.elements.counted.value);
  } else {
    body.quantityChange = typedQuantity(form.elements.quantityChange.value);
    body.reason = form.elements.reason.value;
    const cost = form.elements.unitCost.value.trim();
    if (cost) body.unitCost = cost;
  }
  const note = form.elements.note.value.trim();
  if (note) body.note = note;
  if (dateTouched && dateInput.value) body.effectiveAt = dateInput.value;
  const save = document.getElementById("stock-save");
  save.disabled = true;
  try {
    await api("POST", "/api/v1/adjustments", body);
    toast(body.countedQuantity ? `Counted: ${product.name} ${body.countedQuantity}`
      : `Saved: ${product.name} ${body.quantityChange.startsWith("-") ? "" : "+"}${body.quantityChange}`);
    await choose(product);
    announce(`${product.name} now has ${quantity(product.quantity)} ${product.unit}`);
  } catch (error) {
    if (error.field === "countedQuantity") error.problem.field = "counted";
    showProblem(form, error);
  } finally { save.disabled = false; }
});

productSearch(search, {
  onPick: (chosen) => choose(chosen),
  onUnknownBarcode: (code) => fieldError(search.closest(".card"), "product-search", `No product has the barcode ${code}.`),
});

if (query("product")) {
  api("GET", `/api/v1/products/${encodeURIComponent(query("product"))}`).then(choose).catch((error) => toast(error.message));
}
