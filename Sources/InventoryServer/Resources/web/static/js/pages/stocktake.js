// Stocktake: count sheets for all products, a category or a shelf. Staff scan (each scan adds one) or type counts; managers
// start, post and cancel sheets. Every figure shown — stock at the counted instant, variance, its value, the totals —
// is the server's (GET /api/v1/stocktakes/{id}); this page only displays it.
import { api, el, announce, toast, clearErrors, showProblem, confirmDialog, onLiveEvents } from "/static/js/app.js";
import { productSearch } from "/static/js/documents-pickers.js";
import { dateTime } from "/static/js/shared/dates.js";
import { money, quantity } from "/static/js/shared/format.js";

const root = document.getElementById("stocktake");
const canManage = root.dataset.canManage === "1";
const canCosts = root.dataset.canCosts === "1";
const sheetID = root.dataset.id;
const STATUS = { open: "Open", posted: "Posted", cancelled: "Cancelled" };
let sheet = null;

function signed(text) { return text && !text.startsWith("-") && text !== "0" ? `+${quantity(text)}` : quantity(text); }

// ---------- the list of sheets ----------
async function showIndex() {
  document.getElementById("stocktake-index").hidden = false;
  const form = document.getElementById("stocktake-new");
  if (form) {
    try {
      const [categories, shelves] = await Promise.all([api("GET", "/api/v1/categories", null, { quiet: true }),
        api("GET", "/api/v1/products/shelves", null, { quiet: true })]);
      const group = (label, options) => options.length ? el("optgroup", { label }, ...options) : "";
      form.elements.scope.append(
        group("Category", categories.map((category) => el("option", { value: `category:${category.id}` }, category.name))),
        group("Shelf", shelves.map((shelf) => el("option", { value: `shelf:${shelf.name}` },
          `Shelf ${shelf.name} (${shelf.products} ${shelf.products === 1 ? "product" : "products"})`))));
    } catch { /* the banner says when the server is gone */ }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors(form);
      const [scope, ...rest] = form.elements.scope.value.split(":");
      const value = rest.join(":");
      const body = scope === "category" ? { scope, categoryId: Number(value) } : scope === "shelf" ? { scope, shelf: value } : { scope: "all" };
      const note = form.elements.note.value.trim();
      if (note) body.note = note;
      try {
        const opened = await api("POST", "/api/v1/stocktakes", body);
        location.assign(`/app/stocktake/${opened.id}`);
      } catch (error) {
        if (error.field === "categoryId" || error.field === "shelf") error.problem.field = "scope";
        showProblem(form, error);
      }
    });
  }
  const list = document.getElementById("stocktake-list");
  const sheets = await api("GET", "/api/v1/stocktakes");
  list.replaceChildren(...(sheets.length ? sheets.map((item) => el("li", {},
    el("div", { class: "main" },
      el("a", { class: "title", href: `/app/stocktake/${item.id}` }, `#${item.id} · ${item.scopeName}`),
      el("div", { class: "sub" }, `${dateTime(item.createdAt)} · ${item.totals.counted} counted, ${item.totals.uncounted} not counted`
        + (item.note ? ` · ${item.note}` : ""))),
    canCosts && item.totals.varianceValue !== undefined ? el("span", { class: "num" }, money(item.totals.varianceValue)) : null,
    el("span", { class: `badge badge-${item.status === "open" ? "warn" : item.status === "posted" ? "ok" : "out"}` }, STATUS[item.status])))
    : [el("li", { class: "empty" }, canManage ? "No count sheets yet: start one above." : "No count sheets yet: a manager starts one.")]));
}

// ---------- one sheet ----------
function render() {
  const open = sheet.status === "open";
  document.getElementById("sheet-title").textContent = `Count #${sheet.id} · ${sheet.scopeName}`;
  document.getElementById("sheet-status").textContent = open
    ? `Open since ${dateTime(sheet.createdAt)}${sheet.note ? " · " + sheet.note : ""}. Each product's variance is against the stock at the moment it was counted.`
    : `${STATUS[sheet.status]} ${dateTime(sheet.closedAt)} by ${sheet.closedBy || "?"}${sheet.adjustmentId ? ` · adjustment ${sheet.adjustmentId}` : ""}${sheet.note ? " · " + sheet.note : ""}`;
  document.getElementById("sheet-scan").hidden = !open;
  document.getElementById("sheet-actions").hidden = !(open && canManage);
  const totals = sheet.totals;
  const facts = [["Counted", String(totals.counted)], ["Not counted", String(totals.uncounted)], ["Differing", String(totals.differing)]];
  if (canCosts && totals.varianceValue !== undefined) {
    facts.push(["Surplus", money(totals.surplusValue)], ["Shortage", money(totals.shortageValue)], ["Variance value", money(totals.varianceValue)]);
  }
  document.getElementById("sheet-totals").replaceChildren(...facts.flatMap(([term, value]) =>
    [el("dt", {}, term), el("dd", { class: "num", "data-total": term }, value)]));
  document.getElementById("sheet-lines").replaceChildren(...(sheet.lines.length ? sheet.lines.map(lineItem)
    : [el("li", { class: "empty" }, "No products in this scope.")]));
}

function lineItem(line) {
  const counted = line.counted !== undefined;
  const sub = counted
    ? `On record ${quantity(line.stockAtCount)} ${line.unit} when counted, ${dateTime(line.countedAt)}`
    : "Not counted: not adjusted";
  const input = el("input", { class: "num stocktake-count", inputmode: "decimal", autocomplete: "off", name: `count-${line.productId}`,
    "aria-label": `Count of ${line.name}`, value: counted ? line.counted : "", disabled: sheet.status !== "open" });
  input.addEventListener("change", () => typeCount(line, input));
  const variance = counted
    ? el("span", { class: `num stocktake-variance ${line.variance.startsWith("-") ? "minus" : line.variance === "0" ? "" : "plus"}`,
      "data-variance": String(line.productId) },
      signed(line.variance) + (canCosts && line.varianceValue !== undefined ? ` · ${money(line.varianceValue)}` : ""))
    : el("span", { class: "badge" }, "Not counted");
  return el("li", { "data-product": String(line.productId) },
    el("div", { class: "main" }, el("div", { class: "title" }, line.name), el("div", { class: "sub" }, sub),
      el("div", { class: "field-error", role: "alert", id: `count-error-${line.productId}` })),
    input, variance);
}

async function count(body, label) {
  try {
    sheet = await api("POST", `/api/v1/stocktakes/${sheet.id}/counts`, body);
    render();
    const line = sheet.lines.find((item) => item.productId === body.productId);
    announce(line ? `${line.name}: ${quantity(line.counted)} counted` : label);
    return true;
  } catch (error) {
    const target = document.getElementById(`count-error-${body.productId}`);
    if (target) target.textContent = error.message; else toast(error.message);
    announce(error.message, { assertive: true });
    return false;
  }
}

async function typeCount(line, input) {
  const text = input.value.trim();
  if (!text) return;
  await count({ productId: line.productId, quantity: text }, `${line.name} counted`);
}

async function showSheet() {
  document.getElementById("stocktake-sheet").hidden = false;
  sheet = await api("GET", `/api/v1/stocktakes/${encodeURIComponent(sheetID)}`);
  render();
  productSearch(document.getElementById("sheet-search"), {
    onPick: (product) => count({ productId: product.id }, `${product.name} scanned`),
    onUnknownBarcode: (code) => toast(`No product has the barcode ${code}.`),
  });
  document.getElementById("sheet-post").addEventListener("click", async () => {
    const value = canCosts && sheet.totals.varianceValue !== undefined ? ` worth ${money(sheet.totals.varianceValue)}` : "";
    const message = `Post this count? ${sheet.totals.differing} product${sheet.totals.differing === 1 ? "" : "s"} will be adjusted${value}, `
      + `each at the moment it was counted; ${sheet.totals.uncounted} not counted stay as they are.`;
    if (!(await confirmDialog(message, { confirm: "Post", danger: false }))) return;
    try {
      sheet = await api("POST", `/api/v1/stocktakes/${sheet.id}/post`);
      render();
      toast("Count posted");
    } catch (error) { toast(error.message); announce(error.message, { assertive: true }); }
  });
  document.getElementById("sheet-cancel").addEventListener("click", async () => {
    if (!(await confirmDialog("Cancel this count? Nothing is booked; the sheet stays readable.", { confirm: "Cancel the count" }))) return;
    try {
      sheet = await api("POST", `/api/v1/stocktakes/${sheet.id}/cancel`);
      render();
      toast("Count cancelled");
    } catch (error) { toast(error.message); }
  });
  // Another counter's entries, or a sale, change the figures: read the sheet again.
  onLiveEvents(async () => {
    if (sheet?.status !== "open") return;
    try { sheet = await api("GET", `/api/v1/stocktakes/${sheet.id}`, null, { quiet: true }); render(); } catch { /* banner */ }
  }, ["sale", "product"]);
}

(sheetID ? showSheet() : showIndex()).catch((error) => toast(error.message));
