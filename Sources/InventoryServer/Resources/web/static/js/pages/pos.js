// The till: a product grid with category tabs and search, a scan field for USB/Bluetooth scanners (they type the
// digits and press Enter), a cart, tip and payment, "Charge". Every figure on the cart (line amounts, tax, total, the
// Charge amount, change due, a line's discount) is the server's: a dry run of the sale Charge would post
// (`?dryRun=true`), re-run ~200 ms after each change; while one is outstanding the figures are marked busy and Charge
// waits for it. No sale arithmetic here: a percentage discount goes to the server as a percentage. The cart survives
// a reload or the PIN lock (sessionStorage) and is kept when the server refuses.
import { api, ApiError, announce, clearErrors, confirmDialog, debounce, el, fieldError, icon, onLiveEvents, showProblem, toast } from "/static/js/app.js";
import { looksLikeBarcode, productByBarcode, typedBarcode } from "/static/js/shared/barcode.js";
import { Decimal, isZero, minorUnits, money, quantity as qtyText, quantityValue, QTY_SCALE, signedMoney } from "/static/js/shared/format.js";
import { productThumb } from "/static/js/shared/thumbs.js";

const STORE = "stockroom.till.cart";
// Whether the shop's prices include tax (Settings): the labels of the totals follow it; the figures are the server's.
const PRICES_INCLUDE_TAX = document.body.dataset.pricesIncludeTax === "true";
const $ = (id) => document.getElementById(id);
const grid = $("product-grid"), tabs = $("category-tabs"), search = $("product-search");
const scanForm = $("scan-form"), scanInput = $("scan-code"), scanError = $("scan-code-error");
const saleForm = $("sale-form"), linesBox = $("cart-lines"), cartPanel = $("cart");
const tipInput = $("tip"), tenderedInput = $("tendered"), chargeButton = $("charge");

let products = new Map();   // id → product
let optionGroups = new Map();   // product id → its option groups (size, milk, extras), as the server keeps them
let categories = [];
let category = "";          // selected category id ("" = all)
// [{key, productId, options, optionText, name, unitPrice, taxRate, quantity, iconEmoji, imageRef, unit, discount | discountPercent}]: one line
// per product and choice of options (`key`); a line with options leaves its price to the server (product + options).
let cart = loadCart();
let charging = false;

// ---------- cart storage ----------
function loadCart() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORE) ?? "null");
    if (saved && Array.isArray(saved.lines)) {
      queueMicrotask(() => {
        tipInput.value = saved.tip ?? "";
        tenderedInput.value = saved.tendered ?? "";
        if (Array.isArray(saved.split) && saved.split.length) split = saved.split;
        if (saved.customer?.customerId) { customer = saved.customer; showCustomer(); }
        const method = saleForm.querySelector(`input[name=paymentMethod][value="${CSS.escape(String(saved.method ?? ""))}"]`);
        if (method) method.checked = true;
        render();
      });
      return saved.lines.map((line) => ({ ...line, options: line.options ?? [], key: line.key ?? lineKey(line.productId, line.options) }));
    }
  } catch { /* start empty */ }
  return [];
}
/** A cart line's identity: the product and the options chosen (in any order). */
function lineKey(productId, options = []) {
  return options?.length ? `${productId}:${[...options].sort((a, b) => a - b).join("-")}` : String(productId);
}
function saveCart() {
  try {
    sessionStorage.setItem(STORE, JSON.stringify({ lines: cart, tip: tipInput.value, tendered: tenderedInput.value, method: method(), split, customer }));
  } catch { /* private mode: fine */ }
}
const method = () => saleForm.querySelector("input[name=paymentMethod]:checked")?.value ?? "cash";

/** Whether none of a product is on record: the server says so (`soldOut`: tracked, none left, no negative stock). It
 *  can still go in the cart — the count may be wrong — and the server then asks for a manager's approval to sell it. */
const soldOut = (product) => product.soldOut === true;

/** Adds a product; one with none on record goes in too, saying a manager must approve selling it. A product with options
 *  opens the options sheet first when `choose` (a tap); a scan adds it with the server's defaults. */
function addOrExplain(p, { choose = false } = {}) {
  if (soldOut(p)) toast(`${p.name}: none on record — a manager can approve selling it`);
  if (choose && optionGroups.get(p.id)?.length) return openOptions(p);
  addProduct(p);
}

// ---------- catalogue ----------
async function loadProducts({ quiet = false } = {}) {
  try {
    const [list, cats, options] = await Promise.all([
      api("GET", "/api/v1/products?limit=500&sort=name", null, { quiet }),
      categories.length ? Promise.resolve(categories) : api("GET", "/api/v1/categories", null, { quiet }),
      api("GET", "/api/v1/product-options", null, { quiet }),
    ]);
    products = new Map(list.items.map((p) => [p.id, p]));
    optionGroups = new Map(options.map((entry) => [entry.productId, entry.groups]));
    categories = cats;
    renderTabs();
    // A search shown is asked again: its products' figures (stock, price) may have changed with the catalogue.
    if (search.value.trim()) runSearch(); else renderGrid();
    // Prices and names in the cart follow the catalogue (a price changed since the cart was filled).
    let changed = false;
    for (const line of cart) {
      const p = products.get(line.productId);
      if (p && (p.salePrice !== line.unitPrice || p.taxRate !== line.taxRate || p.name !== line.name)) {
        Object.assign(line, { unitPrice: p.salePrice, taxRate: p.taxRate, name: p.name });
        changed = true;
      }
    }
    if (changed) { saveCart(); render(); }
  } catch (error) {
    grid.replaceChildren(el("p", { class: "empty" }, "Could not load the products: " + error.message));
  } finally {
    if (!searching) grid.setAttribute("aria-busy", "false");
  }
}

function renderTabs() {
  const used = new Set([...products.values()].map((p) => p.categoryId).filter(Boolean));
  const buttons = [["", "All"], ...categories.filter((c) => used.has(c.id)).map((c) => [String(c.id), c.name])];
  tabs.replaceChildren(...buttons.map(([id, name]) => el("button", {
    type: "button", role: "tab", id: `tab-${id || "all"}`, "data-category": id, "aria-controls": "product-grid",
    "aria-selected": String(id === category), tabindex: id === category ? "0" : "-1",
  }, name)));
  grid.setAttribute("aria-labelledby", `tab-${category || "all"}`);
}

function selectCategory(id, focus = false) {
  category = id;
  for (const tab of tabs.querySelectorAll("[role=tab]")) {
    const on = tab.dataset.category === id;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
  }
  grid.setAttribute("aria-labelledby", `tab-${id || "all"}`);
  renderGrid();
}

tabs.addEventListener("click", (event) => {
  const tab = event.target.closest("[role=tab]");
  if (tab) selectCategory(tab.dataset.category);
});
tabs.addEventListener("keydown", (event) => {
  const list = [...tabs.querySelectorAll("[role=tab]")];
  const index = list.indexOf(document.activeElement);
  if (index < 0) return;
  const moves = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: list.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const next = list[(moves[event.key] + list.length) % list.length];
  selectCategory(next.dataset.category, true);
});

// ---------- search: the server's answer, in its order ----------
// What a search finds, and in which order (the exact barcode or SKU, then names starting with it, then a word starting
// with it, then the rest), is the server's rule (SearchText, ProductSearchIndex): the grid shows its answer and never
// filters the catalogue by a second, local copy of that rule. Only the category tab is applied here.
let found = null;         // { text, items, total, error }: the server's answer for the search `text`
let searching = null;     // the search on its way (a promise), or null

function renderGrid() {
  const text = search.value.trim();
  if (text && found?.text !== text) return;   // the answer for this text is on its way (the grid is marked busy)
  if (text && found.error) {
    grid.replaceChildren(el("p", { class: "empty", role: "alert" }, `The search did not run: ${found.error}`));
    return;
  }
  const pool = text ? found.items : [...products.values()];
  const shown = pool.filter((p) => !category || String(p.categoryId ?? "") === category);
  if (!shown.length) {
    grid.replaceChildren(el("p", { class: "empty" }, text || products.size ? "No product matches." : "No products yet. Add them under Products or with a purchase."));
    return;
  }
  const more = text && found.total > found.items.length
    ? el("p", { class: "empty till-more" }, `The best ${found.items.length} of ${found.total} matches: type more to narrow them down.`) : null;
  grid.replaceChildren(...shown.map(tile), ...(more ? [more] : []));
}

/** Asks the server for the products matching the search field (none when it is empty) and shows its answer. */
function runSearch() {
  const text = search.value.trim();
  if (!text) {
    found = null;
    searching = null;
    grid.setAttribute("aria-busy", "false");
    renderGrid();
    return Promise.resolve();
  }
  grid.setAttribute("aria-busy", "true");
  const query = api("GET", `/api/v1/products?search=${encodeURIComponent(text)}&limit=100`, null, { quiet: true })
    .then((answer) => {
      if (searching !== query) return;   // a newer search was asked
      for (const p of answer.items) products.set(p.id, p);
      found = { text, items: answer.items, total: answer.total };
    }, (error) => {
      if (searching !== query) return;
      found = { text, items: [], total: 0, error: error.message };
    })
    .finally(() => {
      if (searching !== query) return;
      searching = null;
      grid.setAttribute("aria-busy", "false");
      renderGrid();
    });
  searching = query;
  return query;
}

function tile(p) {
  const out = soldOut(p);
  const lines = cart.filter((l) => l.productId === p.id);
  const inCart = lines.length
    ? { quantity: Decimal.format(lines.reduce((sum, l) => sum + (Decimal.parse(l.quantity, QTY_SCALE) ?? 0n), 0n), QTY_SCALE) } : null;
  const status = out ? el("span", { class: "badge badge-out" }, "Out of stock")
    : p.status === "low" ? el("span", { class: "badge badge-low" }, `${qtyText(p.quantity)} left`) : null;
  return el("button", {
    type: "button", class: `till-product${out ? " is-out" : ""}`, "data-product": p.id,
    "aria-label": `${p.name}, ${money(p.salePrice)}${out ? ", out of stock on record" : ""}${inCart ? `, ${qtyText(inCart.quantity)} in cart` : ""}`,
  },
    productThumb(p, "till-thumb"),
    el("span", { class: "till-product-name" }, p.name),
    el("span", { class: "till-product-price num" }, money(p.salePrice)),
    status,
    inCart ? el("span", { class: "till-product-qty", "aria-hidden": "true" }, qtyText(inCart.quantity)) : null);
}

grid.addEventListener("click", (event) => {
  const button = event.target.closest("[data-product]");
  if (!button) return;
  const p = products.get(Number(button.dataset.product));
  if (!p) return;
  addOrExplain(p, { choose: true });
});

const searchSoon = debounce(runSearch, 150);
search.addEventListener("input", () => {
  if (!search.value.trim()) runSearch(); else searchSoon();
});
search.addEventListener("keydown", async (event) => {
  if (event.key !== "Enter") return;
  event.preventDefault();
  const text = search.value.trim();
  // A scanner typing into the search field: a code goes to the barcode look-up.
  if (looksLikeBarcode(text)) {
    search.value = "";
    runSearch();
    lookUp(text);
    return;
  }
  // Enter before the answer for this text came: ask now (an answer on its way may be for an older text) and wait.
  if (text && found?.text !== text) await runSearch();
  if (search.value.trim() !== text) return;
  const first = grid.querySelector("[data-product]:not([aria-disabled=true])");
  if (first && grid.querySelectorAll("[data-product]").length === 1) first.click();
});

// ---------- scanner input ----------
scanForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const code = typedBarcode(scanInput.value);
  if (!code) return;
  lookUp(code);
});

async function lookUp(raw) {
  scanError.textContent = "";
  scanInput.removeAttribute("aria-invalid");
  const code = typedBarcode(raw);
  try {
    // The server checks the code (a wrong check digit is refused with its reason) and finds the product.
    const product = await productByBarcode(code);
    if (!product) {
      if (await customerByCard(raw)) { scanInput.value = ""; return; }
      return scanFailed(code, `No product has the barcode ${code}`);
    }
    products.set(product.id, { ...products.get(product.id), ...product });
    scanInput.value = "";
    addOrExplain(product);
  } catch (error) {
    // Not a product code (a card number with letters, say): perhaps a customer's loyalty card.
    if (await customerByCard(raw).catch(() => false)) { scanInput.value = ""; return; }
    scanFailed(code, error.message);
  } finally {
    scanInput.focus();
  }
}

function scanFailed(code, message) {
  scanInput.value = code;
  scanInput.select();
  scanInput.setAttribute("aria-invalid", "true");
  scanError.textContent = message;
  announce(message, { assertive: true });
  navigator.vibrate?.(200);
}
scanInput.addEventListener("input", () => { scanError.textContent = ""; scanInput.removeAttribute("aria-invalid"); });

// A scanner types fast and ends with Enter. When nothing editable has the focus, digits go to the scan field.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  if (!/^[0-9]$/.test(event.key)) return;
  const active = document.activeElement;
  if (active && (active.matches("input, textarea, select, [contenteditable=''], [contenteditable=true]") || active.closest("dialog"))) return;
  event.preventDefault();
  if (document.activeElement !== scanInput) {
    // A new code starts: forget an old failed one still in the field.
    if (scanInput.getAttribute("aria-invalid") === "true") scanInput.value = "";
    scanInput.focus({ preventScroll: true });
  }
  scanInput.value += event.key;
  scanInput.dispatchEvent(new Event("input"));
});

// A scanner that types into another field (the tip, cash or a quantity the cashier touched last): a burst of 6+
// digits, each within a few milliseconds, ended by Enter, is a scan — the field gets its old value back.
let burst = null;
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target === scanInput || !(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) { burst = null; return; }
  const now = event.timeStamp;
  if (/^[0-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
    if (!burst || burst.target !== target || now - burst.last > 50) burst = { target, before: target.value, digits: "", last: now };
    burst.digits += event.key;
    burst.last = now;
    return;
  }
  if (event.key === "Enter" && burst && burst.target === target && burst.digits.length >= 6 && now - burst.last < 100) {
    event.preventDefault();
    event.stopImmediatePropagation();
    const code = burst.digits;
    target.value = burst.before;
    target.dispatchEvent(new Event("input", { bubbles: true }));
    burst = null;
    lookUp(code);
    return;
  }
  burst = null;
}, true);

// ---------- cart ----------
function addProduct(p, quantity = "1", options = []) {
  const key = lineKey(p.id, options);
  let line = cart.find((l) => l.key === key);
  if (line) {
    line.quantity = Decimal.format((Decimal.parse(line.quantity, QTY_SCALE) ?? 0n) + (Decimal.parse(quantity, QTY_SCALE) ?? 1000n), QTY_SCALE);
  } else {
    line = { key, productId: p.id, options, optionText: optionText(p.id, options), name: p.name, unitPrice: p.salePrice, taxRate: p.taxRate,
             quantity: Decimal.format(Decimal.parse(quantity, QTY_SCALE), QTY_SCALE), iconEmoji: p.iconEmoji, imageRef: p.imageRef ?? null, unit: p.unit };
    cart.push(line);
  }
  saveCart();
  render();
  afterFigures = `${p.name}${line.optionText ? ` (${line.optionText})` : ""} added, ${qtyText(line.quantity)} in the cart.`;
  const row = linesBox.querySelector(`[data-line="${CSS.escape(key)}"]`);
  row?.classList.remove("till-flash");
  void row?.offsetWidth;
  row?.classList.add("till-flash");
  cartPanel.classList.remove("till-bump");
  void cartPanel.offsetWidth;
  cartPanel.classList.add("till-bump");
}

function setQuantity(key, text) {
  const line = cart.find((l) => l.key === key);
  if (!line) return;
  const value = Decimal.parse(text, QTY_SCALE);
  if (value === null || value <= 0n) return false;
  line.quantity = Decimal.format(value, QTY_SCALE);
  saveCart();
  render();
  return true;
}

function removeLine(key) {
  const line = cart.find((l) => l.key === key);
  cart = cart.filter((l) => l.key !== key);
  saveCart();
  render();
  if (line) announce(`${line.name} removed`);
}

linesBox.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-act]");
  if (!button) return;
  const id = button.closest("[data-line]").dataset.line;
  const line = cart.find((l) => l.key === id);
  if (!line) return;
  const qty = Decimal.parse(line.quantity, QTY_SCALE);
  const one = 10n ** BigInt(QTY_SCALE);
  if (button.dataset.act === "plus") setQuantity(id, Decimal.format(qty + one, QTY_SCALE));
  else if (button.dataset.act === "minus") {
    if (qty - one <= 0n) removeLine(id);
    else setQuantity(id, Decimal.format(qty - one, QTY_SCALE));
  } else if (button.dataset.act === "remove") removeLine(id);
  else if (button.dataset.act === "discount") { openDiscount(line, button); return; }
  // Keep the focus on the same button of the re-rendered line.
  linesBox.querySelector(`[data-line="${CSS.escape(id)}"] button[data-act="${button.dataset.act}"]`)?.focus();
  if (!linesBox.querySelector(`[data-line="${CSS.escape(id)}"]`)) (linesBox.querySelector("button[data-act]") ?? search).focus();
});

linesBox.addEventListener("change", (event) => {
  const input = event.target.closest("input[data-qty]");
  if (!input) return;
  const id = input.closest("[data-line]").dataset.line;
  if (!setQuantity(id, input.value.trim())) {
    const box = input.closest("[data-line]").querySelector(".field-error");
    input.setAttribute("aria-invalid", "true");
    box.textContent = "Enter a quantity above 0 (at most 3 decimals)";
    announce(box.textContent, { assertive: true });
  }
});

/** "2 × €4.60": a line with options is priced by the server (the product's price + the options'), so its unit price is
 *  the one the last dry run booked ("…" until it answers); a plain line shows the price on its tile. */
function lineUnit(index) {
  const line = cart[index];
  const unit = line.options?.length ? bookedLine(index)?.unitPrice : line.unitPrice;
  return `${qtyText(line.quantity)} × ${unit === undefined ? "…" : money(unit)}`;
}

function render() {
  linesBox.replaceChildren(...cart.map((line, index) => {
    const qid = `qty-${line.key}`;
    return el("li", { class: "till-line", "data-line": line.key, "data-index": index },
      productThumb(line, "till-line-thumb"),
      el("div", { class: "till-line-main" },
        el("div", { class: "till-line-name" }, line.name),
        line.optionText ? el("div", { class: "till-line-options muted" }, line.optionText) : null,
        el("div", { class: "till-line-sub muted num" }, lineUnit(index)),
        hasDiscount(line) ? el("div", { class: "till-line-discount num" }, lineDiscount(index)) : null,
        el("div", { class: "field-error", id: `line-${line.key}-error` })),
      el("div", { class: "till-stepper" },
        el("button", { type: "button", class: "btn-icon", "data-act": "minus", "aria-label": `One less ${line.name}` }, icon("minus")),
        el("label", { for: qid, class: "sr-only" }, `Quantity of ${line.name}`),
        el("input", { id: qid, "data-qty": "", name: `lines[${index}].quantity`, value: qtyText(line.quantity), inputmode: "decimal", autocomplete: "off",
                      class: "num", "aria-describedby": `line-${line.key}-error` }),
        el("button", { type: "button", class: "btn-icon", "data-act": "plus", "aria-label": `One more ${line.name}` }, icon("plus"))),
      el("div", { class: "till-line-total num" }, lineAmount(index)),
      el("div", { class: "till-line-actions" },
        el("button", { type: "button", class: "btn-icon till-discount-btn", "data-act": "discount", "aria-label": `Discount on ${line.name}`,
                       "aria-pressed": String(hasDiscount(line)) }, "%"),
        el("button", { type: "button", class: "btn-icon till-remove", "data-act": "remove", "aria-label": `Remove ${line.name}` }, icon("trash"))));
  }));
  $("cart-empty").hidden = cart.length > 0;
  $("cart-clear").disabled = cart.length === 0;
  $("cart-park").disabled = cart.length === 0;
  schedulePreview();
  // Keep the grid's "in cart" counters right (and the focus on the tile that had it).
  const focused = document.activeElement?.closest?.("[data-product]")?.dataset.product;
  for (const button of grid.querySelectorAll("[data-product]")) {
    const p = products.get(Number(button.dataset.product));
    if (!p) continue;
    const fresh = tile(p);
    if (fresh.getAttribute("aria-label") === button.getAttribute("aria-label")) continue;
    button.replaceWith(fresh);
    if (focused === button.dataset.product) fresh.focus({ preventScroll: true });
  }
}

// ---------- the server's figures: a dry run of the sale Charge would post ----------
let figures = null;          // the last dry run's answer (the sale the server would book), or null
let previewState = "empty";  // "empty" | "pending" | "ok" | "short" (too little cash) | "refused" | "offline"
let refusal = null;          // what the server refused ({message, index, detail}), for "refused" and "short"
let approval = null;         // {username, pin, beyondStock} of the manager who approved this sale (in memory only, never stored)
let afterFigures = "";       // an announcement that waits for the server's total
let previewTimer = null, previewRun = null, previewSequence = 0, shownRefusal = "";

/** The body Charge posts; `problem` names the field ("tip", "tendered", "split") that is not an amount. With
 *  `restRow`, that split row goes without an amount (the server gives it what the total leaves after the others) and
 *  `restAt` is its place in `payments`. */
function saleBody({ restRow = null } = {}) {
  const scale = minorUnits();
  const body = { lines: cart.map(saleLine) };
  if (customer) body.customerId = customer.customerId;
  let problem = null, restAt = null;
  if (method() === "split") {
    // Split payment: the rows with an amount; the server checks that they add up to the total and says what is left.
    body.payments = [];
    for (const [index, row] of split.entries()) {
      const payment = { method: row.method };
      if (index === restRow) {
        // Without its cash tendered too: the amount is asked for first, the preview then checks the tendered cash.
        restAt = body.payments.push(payment) - 1;
        continue;
      }
      if (!row.amount.trim()) continue;
      const amount = Decimal.parse(row.amount.trim(), scale);
      if (amount === null || amount <= 0n) { problem ??= "split"; continue; }
      payment.amount = Decimal.format(amount, scale);
      const tendered = row.method === "cash" && row.tendered.trim() ? Decimal.parse(row.tendered.trim(), scale) : undefined;
      if (tendered === null) problem ??= "split";
      else if (tendered !== undefined) payment.tendered = Decimal.format(tendered, scale);
      body.payments.push(payment);
    }
    if (!body.payments.length) delete body.payments;
  } else {
    body.paymentMethod = method();
  }
  if (approval) {
    body.approval = { username: approval.username, pin: approval.pin };
    if (approval.beyondStock) body.sellBeyondStock = true;
  }
  const tip = Decimal.parse(tipInput.value.trim() || "0", scale);
  if (tip === null || tip < 0n) problem = "tip";
  else if (tip > 0n) body.tip = Decimal.format(tip, scale);
  // The books keep the cash handed over, so a reprinted receipt shows the change too.
  const text = tenderedInput.value.trim();
  if (method() === "cash" && text) {
    const tendered = Decimal.parse(text, scale);
    if (tendered === null || tendered < 0n) problem ??= "tendered";
    else body.cashTendered = Decimal.format(tendered, scale);
  }
  return { body, problem, restAt };
}

const dryRun = (body) => api("POST", "/api/v1/sales?dryRun=true", body, { quiet: true });

// One Idempotency-Key per sale being charged: a Charge sent again after a lost answer (the server booked it, the
// network dropped the reply) is answered with the sale booked the first time, never booked twice. A changed cart is
// a new sale with a new key. (crypto.getRandomValues works on plain-HTTP shop networks too, randomUUID does not.)
let charge = { key: null, body: null };
function chargeKey(body) {
  const text = JSON.stringify(body);
  if (charge.body !== text) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    charge = { key: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""), body: text };
  }
  return charge.key;
}

/** The cart changed: its figures are stale until the dry run ~200 ms after the last change answers. */
function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = null;
  if (!cart.length) {
    previewSequence++;
    figures = null;
    refusal = null;
    previewState = "empty";
  } else {
    previewState = "pending";
    previewTimer = setTimeout(() => { previewTimer = null; previewRun = runPreview(); }, 200);
  }
  showFigures();
}

/** Asks the server what it would book; a tip or cash amount still being typed (not an amount yet) is left out. */
async function runPreview() {
  const sequence = ++previewSequence;
  const outcome = await ask(saleBody().body);
  if (sequence !== previewSequence) return;   // an older answer arriving late
  ({ figures, state: previewState, refusal } = outcome);
  showFigures();
}

async function ask(body) {
  try {
    return { figures: await dryRun(body), state: "ok", refusal: null };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500 || error.status === 401 || error.status === 423) {
      return { figures: null, state: "offline", refusal: null };
    }
    if (error.field === "cashTendered" && body.cashTendered !== undefined) {
      // Too little cash: the figures of the same sale without it, and the server's words on the change line.
      const { cashTendered, ...rest } = body;
      const without = await ask(rest);
      return without.state === "ok" ? { figures: without.figures, state: "short", refusal: refusalOf(error) } : without;
    }
    if (error.field?.startsWith("payments") && body.payments !== undefined) {
      // A split that does not add up yet: the figures of the same sale without it, and the server's words on the split.
      const { payments, ...rest } = body;
      const without = await ask({ ...rest, paymentMethod: "card" });
      return without.state === "ok" ? { figures: without.figures, state: "short", refusal: refusalOf(error) } : without;
    }
    if (error.field?.startsWith("approval")) approval = null;   // a wrong or withdrawn approval: ask again
    return { figures: null, state: "refused", refusal: { ...refusalOf(error), needsManager: needsManager(error), beyondStock: beyondStock(error) } };
  }
}

/** Whether the server says a manager's approval lifts the refusal: a price or a discount below a product's minimum,
 *  or a line beyond the stock on record. */
const needsManager = (error) => error instanceof ApiError && error.problem.managerMayApprove === true;
/** Whether the refusal is a line beyond the stock on record (the approval then also asks to sell beyond stock). */
const beyondStock = (error) => needsManager(error) && error.problem.code === "insufficientStock";

/** Waits until the figures on the screen are those of the cart as it is now. */
async function settle() {
  while (previewTimer || previewState === "pending") {
    if (previewTimer) {
      clearTimeout(previewTimer);
      previewTimer = null;
      previewRun = runPreview();
    }
    const run = previewRun;
    if (!run) break;
    await run;
    if (run === previewRun && !previewTimer) break;
  }
}

/** The server's answer for cart line `index`, or null. */
function bookedLine(index) {
  const booked = figures?.lines?.[index];
  return booked && booked.productId === cart[index]?.productId ? booked : null;
}

/** The server's amount of cart line `index` (what it charges: with its tax where prices include tax, else before
 *  tax), "…" while it is being asked, else "—". */
function lineAmount(index) {
  const booked = bookedLine(index);
  if (booked) return money(booked.lineTotal);
  return previewState === "pending" ? "…" : "—";
}

/** The discount of cart line `index` as the server books it ("Discount 10 % −€0.50"); "…" while it is being asked. */
function lineDiscount(index) {
  const line = cart[index], booked = bookedLine(index);
  const label = line.discountPercent ? `Discount ${line.discountPercent.replace(/\s*%$/, "")} %` : "Discount";
  if (booked) return `${label} −${money(booked.discount)}`;
  if (previewState === "pending") return `${label} …`;
  return line.discountPercent ? `${label} —` : `${label} −${money(line.discount)}`;
}

/** Puts the server's figures (or "—") on the cart, the Charge button and the change line; shows a refusal. */
function showFigures() {
  const busy = previewState === "pending";
  const known = figures !== null && ["ok", "short", "pending"].includes(previewState);
  const amount = (text) => (known ? money(text) : "—");
  linesBox.querySelectorAll("[data-index]").forEach((row) => {
    const index = Number(row.dataset.index);
    row.querySelector(".till-line-total").textContent = lineAmount(index);
    row.querySelector(".till-line-sub").textContent = lineUnit(index);
    const discount = row.querySelector(".till-line-discount");
    if (discount) discount.textContent = lineDiscount(index);
  });
  $("total-subtotal").textContent = amount(figures?.revenue);
  $("total-tax").textContent = amount(figures?.tax);
  // Where prices include tax, the lines already hold it: the subtotal is the net and the tax is "included".
  $("total-subtotal-label").textContent = PRICES_INCLUDE_TAX ? "Net" : "Subtotal";
  $("total-tax-label").textContent = PRICES_INCLUDE_TAX ? "Tax included" : "Tax";
  $("total-total").textContent = amount(figures?.total);
  $("cart-bar-total").textContent = cart.length ? amount(figures?.total) : money("0");
  $("totals").setAttribute("aria-busy", String(busy));
  linesBox.setAttribute("aria-busy", String(busy));
  const count = cart.reduce((sum, l) => sum + (Decimal.parse(l.quantity, QTY_SCALE) ?? 0n), 0n);
  const countText = quantityValue(count);
  $("cart-count").textContent = `${countText} item${countText === "1" ? "" : "s"}`;
  $("cart-bar-cta").textContent = cartPanel.dataset.open === "true" ? "Hide" : cart.length ? "Charge" : "Cart";
  // Not while the figures are being asked (the amount on the button would be stale); when the server cannot be
  // reached, Charge still posts — the server decides.
  chargeButton.disabled = cart.length === 0 || charging || busy;
  chargeButton.setAttribute("aria-busy", String(busy || charging));
  chargeButton.textContent = charging ? "Charging…" : cart.length && known ? `Charge ${money(figures.total)}` : "Charge";
  renderCash(known ? figures : null);
  if (busy) return;
  $("approval-ask").hidden = !(previewState === "refused" && refusal?.needsManager);
  $("approval-note").textContent = approval
    ? `Approved by ${approval.username}${approval.beyondStock ? ", selling beyond the stock on record" : ""}` : "";
  if (previewState === "refused") {
    showSaleError(refusal.message, refusal.index, refusal.detail, { preview: true });
  } else if (shownRefusal) {
    clearSaleError();
  }
  if (afterFigures) {
    announce(`${afterFigures} ${known ? `Total ${money(figures.total)}` : ""}`.trim());
    afterFigures = "";
  }
}

function renderCash(known) {
  const cash = method() === "cash";
  $("cash-box").hidden = !cash;
  renderSplit(known);
  // Quick amounts, as the server's dry run offers them: the exact total, then round amounts above it.
  const amounts = known?.quickCash ?? [];
  $("quick-cash").replaceChildren(...amounts.map((a, i) => el("button", { type: "button", class: "btn-small chip", "data-amount": a },
    i === 0 ? `Exact ${money(a)}` : money(a))));
  const line = $("change-line");
  const text = tenderedInput.value.trim();
  const say = (kind, ...content) => { line.className = `till-change${kind ? ` till-change-${kind}` : ""}`; line.replaceChildren(...content); };
  if (!cash || !text) return say("");
  if (Decimal.parse(text, minorUnits()) === null) return say("bad", `Write the amount like 20 or 20.50 (at most ${minorUnits()} decimals).`);
  if (previewState === "pending") { line.setAttribute("aria-busy", "true"); return; }
  line.removeAttribute("aria-busy");
  if (previewState === "short") return say("bad", known ? `Not enough: short of the total ${money(known.total)}.` : refusal.detail);
  if (known?.change !== undefined && known?.change !== null) {
    return say("ok", "Change due ", el("strong", { id: "change-due", class: "num" }, money(known.change)));
  }
  say("", "Change due —");
}

// ---------- split payment: part cash, part card or other ----------
let split = [{ method: "cash", amount: "", tendered: "" }, { method: "card", amount: "", tendered: "" }];
const METHOD_NAMES = { cash: "Cash", card: "Card", other: "Other" };

function renderSplit(known) {
  const on = method() === "split";
  $("split-box").hidden = !on;
  if (!on) return;
  const rows = $("split-rows");
  // Rebuild only when the number of rows changed, so typing keeps its focus and caret.
  if (rows.children.length !== split.length) {
    rows.replaceChildren(...split.map((row, index) => {
      const n = index + 1;
      return el("li", { "data-split": index },
        el("select", { "aria-label": `Payment ${n} method`, "data-field": "method" },
          ...Object.entries(METHOD_NAMES).map(([value, label]) => el("option", { value, selected: row.method === value }, label))),
        el("input", { class: "num", inputmode: "decimal", autocomplete: "off", placeholder: "Amount", "aria-label": `Payment ${n} amount`, "data-field": "amount", value: row.amount }),
        el("input", { class: "num", inputmode: "decimal", autocomplete: "off", placeholder: "Tendered", "aria-label": `Payment ${n} cash tendered`, "data-field": "tendered", value: row.tendered }),
        el("button", { type: "button", class: "btn-small", "data-rest": index, "aria-label": `Payment ${n}: the rest` }, "Rest"));
    }));
  }
  for (const item of rows.children) {
    const row = split[Number(item.dataset.split)];
    const tendered = item.querySelector('[data-field="tendered"]');
    tendered.disabled = row.method !== "cash";
    if (tendered.disabled) tendered.value = "";
  }
  // The server's word: what is left to pay (its refusal on `payments`), or paid in full with the change.
  const status = $("split-status");
  const say = (kind, ...content) => { status.className = `till-change${kind ? ` till-change-${kind}` : ""}`; status.replaceChildren(...content); };
  if (previewState === "pending") return;
  if (refusal?.field?.startsWith("payments") && ["short", "refused"].includes(previewState)) return say("bad", refusal.detail);
  if (known && previewState === "ok" && known.payments?.length > 1) {
    return say("ok", "Paid in full", ...(known.change ? [" · change due ", el("strong", { id: "change-due", class: "num" }, money(known.change))] : []));
  }
  say("", "Enter what each payment pays.");
}

$("split-rows").addEventListener("input", (event) => {
  const item = event.target.closest("[data-split]");
  if (!item) return;
  split[Number(item.dataset.split)][event.target.dataset.field] = event.target.value;
  saveCart();
  schedulePreview();
});
$("split-rows").addEventListener("change", (event) => {
  if (event.target.dataset.field !== "method") return;
  split[Number(event.target.closest("[data-split]").dataset.split)].method = event.target.value;
  saveCart();
  schedulePreview();
});
$("split-rows").addEventListener("click", async (event) => {
  const button = event.target.closest("[data-rest]");
  if (!button || !cart.length) return;
  // The rest is the server's: a dry run with this row's amount left out says what the total leaves after the others.
  const index = Number(button.dataset.rest), { body, restAt } = saleBody({ restRow: index });
  const status = $("split-status");
  let answer;
  try {
    answer = await dryRun(body);
  } catch (error) {
    if (error instanceof ApiError && error.field?.startsWith("payments")) {
      status.className = "till-change till-change-bad";
      status.textContent = refusalOf(error).detail;
    }
    return;
  }
  const amount = answer.payments?.[restAt]?.amount;
  if (amount === undefined) return;
  split[index].amount = amount;
  button.closest("li").querySelector('[data-field="amount"]').value = amount;
  saveCart();
  schedulePreview();
});
$("split-add").addEventListener("click", () => {
  if (split.length >= 20) return;
  split.push({ method: "card", amount: "", tendered: "" });
  saveCart();
  showFigures();
  $("split-rows").lastElementChild?.querySelector('[data-field="amount"]')?.focus();
});

$("quick-cash").addEventListener("click", (event) => {
  const button = event.target.closest("[data-amount]");
  if (!button) return;
  tenderedInput.value = button.dataset.amount;
  saveCart();
  schedulePreview();
});
tipInput.addEventListener("input", () => {
  const ok = Decimal.parse(tipInput.value.trim() || "0", minorUnits());
  $("tip-error").textContent = ok === null || ok < 0n ? `Write the tip like 1.50 (at most ${minorUnits()} decimals)` : "";
  tipInput.toggleAttribute("aria-invalid", ok === null || ok < 0n);
  saveCart();
  schedulePreview();
});
tenderedInput.addEventListener("input", () => { tenderedInput.removeAttribute("aria-invalid"); saveCart(); schedulePreview(); });
saleForm.addEventListener("change", (event) => {
  if (event.target.name === "paymentMethod") { saveCart(); schedulePreview(); }
});
$("cart-clear").addEventListener("click", async () => {
  if (!cart.length) return;
  const count = cart.length;
  if (!(await confirmDialog(`Remove all ${count} line${count === 1 ? "" : "s"} from this sale?`, { confirm: "Clear the cart" }))) return;
  cart = [];
  tipInput.value = "";
  tenderedInput.value = "";
  saveCart();
  render();
  announce("Cart cleared");
  (grid.querySelector("[data-product]") ?? search).focus({ preventScroll: true });
});

// ---------- a manager's approval: a price or discount below the minimum, approved with a manager's PIN ----------
// The server checks the manager's username and PIN on the dry run and again on the charge (throttled like the PIN
// lock); the till keeps them in memory for this sale only.
const approvalDialog = $("approval-dialog"), approvalForm = $("approval-form");
approvalDialog.addEventListener("click", (event) => { if (event.target.closest("[data-close]")) approvalDialog.close(); });
$("discount-approval").addEventListener("click", () => $("approval-ask").click());
$("approval-ask").addEventListener("click", () => {
  clearErrors(approvalForm);
  approvalForm.reset();
  $("approval-why").textContent = previewState === "refused" && refusal?.beyondStock
    ? `${refusal.message} Selling more than the stock on record needs a manager; the sale is listed for review.`
    : "A price or discount below the product's minimum needs a manager.";
  approvalDialog.showModal();
  approvalForm.username.focus();
});
approvalForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(approvalForm);
  // Approving a line beyond the stock on record also asks to sell beyond it; a price approval keeps what was approved.
  const asked = { username: approvalForm.username.value.trim(), pin: approvalForm.pin.value.trim(),
    beyondStock: Boolean(approval?.beyondStock || (previewState === "refused" && refusal?.beyondStock)) };
  if (!asked.username) { fieldError(approvalForm, "username", "the manager's username"); return; }
  // A malformed PIN is the server's to refuse (on approval.pin, shown below), before it counts as a wrong try.
  $("approval-submit").disabled = true;
  try {
    const { body } = saleBody();
    await dryRun({ ...body, approval: { username: asked.username, pin: asked.pin }, ...(asked.beyondStock ? { sellBeyondStock: true } : {}) });
    approval = asked;
    approvalDialog.close();
    announce(`Approved by ${asked.username}.`);
    schedulePreview();
    if (discountDialog.open) { clearErrors(discountForm); previewDiscount(); }
  } catch (error) {
    if (error instanceof ApiError && error.field?.startsWith("approval.")) {
      fieldError(approvalForm, error.field === "approval.username" ? "username" : "pin", error.message);
    } else if (error instanceof ApiError && error.status === 429) {
      showProblem(approvalForm, error);
    } else {
      // The approval was accepted but the sale is refused for another reason: keep it, and show the refusal on the cart.
      approval = asked;
      approvalDialog.close();
      schedulePreview();
    }
  } finally {
    $("approval-submit").disabled = false;
  }
});

// ---------- options (size, milk, extras): one tap per choice, then Add ----------
// The groups and price changes are the server's (GET /api/v1/product-options); the line's price is the server's too
// (the dry run prices product + options). A one-of group is a row of radio buttons, an any-of group of checkboxes; the
// server's default is chosen to start with.
const optionsDialog = $("options-dialog"), optionsForm = $("options-form");
let optionsProduct = null;
optionsDialog.addEventListener("click", (event) => { if (event.target.closest("[data-close]")) optionsDialog.close(); });

/** The names of the options chosen, in the groups' order ("Large, Oat, Extra shot"). */
function optionText(productId, options = []) {
  const chosen = new Set(options);
  return (optionGroups.get(productId) ?? []).flatMap((group) => group.options.filter((o) => chosen.has(o.id)).map((o) => o.name)).join(", ");
}

function openOptions(p) {
  optionsProduct = p;
  $("options-title").textContent = p.name;
  $("options-groups").replaceChildren(...optionGroups.get(p.id).map((group) => el("fieldset", { class: "till-option-group" },
    el("legend", {}, group.name, el("span", { class: "muted" }, group.multiple ? " · any" : group.required ? "" : " · optional")),
    el("div", { class: "till-option-choices" }, ...group.options.map((option) => {
      const id = `option-${option.id}`;
      return el("label", { class: "till-option", for: id },
        el("input", { type: group.multiple || !group.required ? "checkbox" : "radio", id, name: `group-${group.id}`, value: String(option.id),
                      "data-group": String(group.id), "data-one": String(!group.multiple), ...(option.isDefault ? { checked: "" } : {}) }),
        el("span", {}, option.name),
        isZero(option.priceChange) ? null : el("span", { class: "muted num" }, signedMoney(option.priceChange)));
    })))));
  optionsDialog.showModal();
  optionsForm.querySelector("input:checked, input")?.focus();
}

// An optional one-of group is a row of checkboxes that holds at most one: ticking one unticks the others.
optionsForm.addEventListener("change", (event) => {
  const input = event.target;
  if (input.type !== "checkbox" || input.dataset.one !== "true" || !input.checked) return;
  for (const other of optionsForm.querySelectorAll(`input[data-group="${input.dataset.group}"]`)) if (other !== input) other.checked = false;
});

optionsForm.addEventListener("submit", (event) => {
  event.preventDefault();
  const chosen = [...optionsForm.querySelectorAll("input:checked")].map((input) => Number(input.value));
  const p = optionsProduct;
  optionsDialog.close();
  if (p) addProduct(p, "1", chosen);
});

// ---------- open tabs: park the cart under a table or a name; pick a tab up on any till ----------
// The server keeps parked sales (they book nothing); picking one up takes it off the list in one step, so two tills
// cannot both charge it.
const parkDialog = $("park-dialog"), parkForm = $("park-form"), tabsDialog = $("tabs-dialog"), tabsList = $("tabs-list");
for (const dialog of [parkDialog, tabsDialog]) {
  dialog.addEventListener("click", (event) => { if (event.target.closest("[data-close]")) dialog.close(); });
}
function emptyCart() {
  approval = null;
  cart = [];
  tipInput.value = "";
  tenderedInput.value = "";
  saveCart();
  render();
}
$("cart-park").addEventListener("click", () => {
  if (!cart.length) return;
  clearErrors(parkForm);
  parkForm.label.value = "";
  parkDialog.showModal();
  parkForm.label.focus();
});
parkForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(parkForm);
  const label = parkForm.label.value.trim();
  if (!label) { fieldError(parkForm, "label", "name the tab: a table or the customer's name"); parkForm.label.focus(); return; }
  $("park-submit").disabled = true;
  try {
    const tab = await api("POST", "/api/v1/tabs", { label, lines: cart.map(saleLine) });
    parkDialog.close();
    emptyCart();
    toast(`Parked: ${tab.label}`);
    announce(`Sale parked as ${tab.label}. The cart is empty.`);
  } catch (error) {
    showProblem(parkForm, error);
  } finally {
    $("park-submit").disabled = false;
  }
});
async function showTabs() {
  $("tabs-error").textContent = "";
  tabsList.replaceChildren(el("li", { class: "muted" }, "Loading…"));
  if (!tabsDialog.open) tabsDialog.showModal();
  try {
    const tabs = await api("GET", "/api/v1/tabs");
    tabsList.replaceChildren(...(tabs.length ? tabs.map((tab) => el("li", {},
      el("button", { type: "button", class: "till-tab", "data-tab": tab.id, onclick: () => pickUp(tab) },
        el("strong", {}, tab.label),
        el("span", { class: "muted" }, ` · ${tab.lines.length} line${tab.lines.length === 1 ? "" : "s"} · ${timeOf(tab.parkedAt)}${tab.parkedBy ? ` · ${tab.parkedBy}` : ""}`))))
      : [el("li", { class: "empty" }, "No open tabs.")]));
  } catch (error) {
    tabsList.replaceChildren();
    $("tabs-error").textContent = error.message;
  }
}
const timeOf = (iso) => { try { return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); } catch { return ""; } };
async function pickUp(tab) {
  if (cart.length) {
    $("tabs-error").textContent = "Charge or park the current sale first.";
    return;
  }
  try {
    const picked = await api("POST", `/api/v1/tabs/${tab.id}/pickup`);
    const lines = [];
    for (const line of picked.lines) {
      const p = products.get(line.productId) ?? await api("GET", `/api/v1/products/${line.productId}`);
      const options = line.options ?? [];
      const entry = { key: lineKey(p.id, options), productId: p.id, options, optionText: optionText(p.id, options), name: p.name,
                      unitPrice: line.unitPrice ?? p.salePrice, taxRate: p.taxRate, quantity: line.quantity,
                      iconEmoji: p.iconEmoji, imageRef: p.imageRef ?? null, unit: p.unit };
      if (line.discountPercent) entry.discountPercent = line.discountPercent;
      else if (line.discount) entry.discount = line.discount;
      lines.push(entry);
    }
    cart = lines;
    saveCart();
    render();
    tabsDialog.close();
    announce(`Tab ${picked.label} picked up: ${lines.length} line${lines.length === 1 ? "" : "s"} in the cart.`);
  } catch (error) {
    $("tabs-error").textContent = error.status === 404 ? "Another till has picked this tab up." : error.message;
    showTabs();
  }
}
$("tabs-open").addEventListener("click", showTabs);

// ---------- the customer: by name or phone, by scanning their loyalty card, or an NFC card's serial ----------
// The till shows the server's standing (visits, spend, the next milestone); the sale carries the customer's id.
let customer = null;   // the server's standing of the customer on this sale, or null
const customerDialog = $("customer-dialog");
customerDialog.addEventListener("click", (event) => { if (event.target.closest("[data-close]")) customerDialog.close(); });
function showCustomer() {
  const name = $("cart-customer");
  $("customer-clear").hidden = !customer;
  $("customer-open").setAttribute("aria-label", customer ? `Customer: ${customer.name} (change)` : "Customer");
  if (!customer) { name.replaceChildren(); return; }
  const next = customer.nextMilestone ? ` · ${customer.nextMilestone - customer.visits} to visit ${customer.nextMilestone}` : "";
  name.replaceChildren(el("strong", {}, customer.name),
    el("span", { class: "muted", id: "cart-customer-standing" }, ` · ${customer.visits} visit${customer.visits === 1 ? "" : "s"} · ${money(customer.spend)} spent${next}`));
}
async function chooseCustomer(id, { announceIt = true } = {}) {
  customer = await api("GET", `/api/v1/customers/${id}/standing`);
  saveCart();
  showCustomer();
  if (customerDialog.open) customerDialog.close();
  if (announceIt) announce(`Customer ${customer.name}: ${customer.visits} visits`);
}
/** A code that is no product may be a loyalty card: true when it found a customer. */
async function customerByCard(code) {
  try {
    customer = await api("GET", `/api/v1/customers/card/${encodeURIComponent(code.trim())}`, null, { quiet: true });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 422)) return false;
    throw error;
  }
  saveCart();
  showCustomer();
  if (customerDialog.open) customerDialog.close();
  announce(`Customer ${customer.name}: ${customer.visits} visits`);
  return true;
}
$("customer-open").addEventListener("click", () => {
  $("customer-card-error").textContent = "";
  $("customer-results").replaceChildren();
  customerDialog.showModal();
  $("customer-card").focus();
});
$("customer-clear").addEventListener("click", () => {
  customer = null;
  saveCart();
  showCustomer();
  customerDialog.close();
  announce("No customer on this sale");
});
$("customer-card-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const code = $("customer-card").value.trim();
  if (!code) return;
  try {
    if (!(await customerByCard(code))) $("customer-card-error").textContent = `No customer has card ${code}.`;
  } catch (error) { $("customer-card-error").textContent = error.message; }
});
$("customer-search").addEventListener("input", debounce(async () => {
  const text = $("customer-search").value.trim();
  if (!text) { $("customer-results").replaceChildren(); return; }
  try {
    const found = await api("GET", `/api/v1/customers?${new URLSearchParams({ search: text })}`, null, { quiet: true });
    $("customer-results").replaceChildren(...(found.length ? found.slice(0, 20).map((c) => el("li", {},
      el("button", { type: "button", class: "till-tab", "data-customer": c.id, onclick: () => chooseCustomer(c.id) },
        el("strong", {}, c.name), c.phone ? el("span", { class: "muted" }, ` · ${c.phone}`) : null)))
      : [el("li", { class: "empty" }, "No customer found.")]));
  } catch (error) { $("customer-card-error").textContent = error.message; }
}, 200));
// Web NFC (Android Chrome): an NFC loyalty card's serial number is its card number.
if ("NDEFReader" in window) {
  const nfc = $("customer-nfc");
  nfc.hidden = false;
  nfc.addEventListener("click", async () => {
    try {
      const reader = new window.NDEFReader();
      await reader.scan();
      $("customer-card-error").textContent = "Hold the card to the back of the phone…";
      reader.addEventListener("reading", async ({ serialNumber }) => {
        const code = String(serialNumber ?? "").replaceAll(":", "").toUpperCase();
        $("customer-card").value = code;
        if (!(await customerByCard(code))) $("customer-card-error").textContent = `No customer has card ${code}.`;
      }, { once: true });
    } catch (error) { $("customer-card-error").textContent = error.message; }
  });
}

// ---------- line discount (an amount, or a percentage of the line that the server turns into money) ----------
// The dialog shows the server's figures: a dry run of a sale of that line alone, with the discount as typed, gives the
// line's amount, the discount it books and what is left — or the server's refusal (more than the line, over 100 %).
const discountDialog = $("discount-dialog"), discountForm = $("discount-form"), discountInput = $("discount-value");
let discountLine = null, discountOpener = null, discountSequence = 0, discountRun = null;

/** Whether a cart line has a discount. */
const hasDiscount = (line) => Boolean(line.discountPercent || (line.discount && !isZero(line.discount)));

/** A cart line as the sale's API line: a percentage discount travels as a percentage. */
function saleLine(line) {
  const entry = { productId: line.productId, quantity: qtyText(line.quantity) };
  // With options the server prices the line (the product's price + the options'); otherwise the price shown on the tile.
  if (line.options?.length) entry.options = line.options;
  else entry.unitPrice = line.unitPrice;
  if (line.discountPercent) entry.discountPercent = line.discountPercent;
  else if (hasDiscount(line)) entry.discount = line.discount;
  return entry;
}

/** The discount typed in the dialog, as the cart keeps it: {discount} or {discountPercent}, {} for none. */
function typedDiscount() {
  const text = discountInput.value.trim();
  if (!text) return {};
  return discountForm.elements.kind.value === "percent" ? { discountPercent: text } : { discount: text };
}

/** Asks the server for the line with `discount`: {line} (the booked line) or {error} in the cashier's words. */
async function askLine(line, discount) {
  const { discount: _, discountPercent: __, ...plain } = line;
  try {
    const sale = await dryRun({ paymentMethod: "card", lines: [saleLine({ ...plain, ...discount })],
      ...(approval ? { approval: { username: approval.username, pin: approval.pin }, ...(approval.beyondStock ? { sellBeyondStock: true } : {}) } : {}) });
    return { line: sale.lines[0] };
  } catch (error) {
    const known = error instanceof ApiError && error.status > 0 && error.status < 500;
    return { error: known ? refusalOf(error, [line]).detail : `The server cannot be reached: ${error.message}`, needsManager: needsManager(error) };
  }
}

/** The dialog's figures for what is typed now (a dry run ~200 ms after the last key); resolves to askLine's answer. */
const previewDiscount = debounce(() => {
  if (!discountLine) return;   // the dialog closed meanwhile
  const sequence = ++discountSequence;
  const line = discountLine, discount = typedDiscount();
  discountRun = askLine(line, discount).then((answer) => {
    if (sequence !== discountSequence || discountLine !== line) return answer;
    const preview = $("discount-preview");
    preview.removeAttribute("aria-busy");
    $("discount-approval").hidden = !answer.needsManager;
    if (answer.line) {
      $("discount-line").textContent = `${line.name}: ${qtyText(line.quantity)} × ${money(line.unitPrice)} = ${money(answer.line.amount)}`;
      preview.textContent = `${money(answer.line.amount)} − ${money(answer.line.discount)} = ${money(answer.line.lineTotal)}${PRICES_INCLUDE_TAX ? " incl. tax" : " before tax"}`;
    } else {
      preview.textContent = "";
      fieldError(discountForm, "discount", answer.error);
    }
    return answer;
  });
}, 200);

let discountAsked = "";
function discountChanged() {
  // The "change" a text field fires when it loses focus repeats its last "input": asking again would clear the
  // refusal and move what the cashier is about to tap (Manager approval…) from under the pointer.
  const asked = JSON.stringify(typedDiscount());
  if (asked === discountAsked && discountRun) return;
  discountAsked = asked;
  clearDiscountError();
  discountRun = null;
  $("discount-preview").setAttribute("aria-busy", "true");
  previewDiscount();
}
function clearDiscountError() {
  discountInput.removeAttribute("aria-invalid");
  const box = discountForm.querySelector(".field-error");
  if (box) box.textContent = "";
}

function openDiscount(line, opener) {
  discountLine = line;
  discountOpener = opener;
  $("discount-line").textContent = `${line.name}: ${qtyText(line.quantity)} × ${money(line.unitPrice)} = …`;
  discountForm.elements.kind.value = line.discountPercent ? "percent" : "amount";
  discountInput.value = line.discountPercent ?? (hasDiscount(line) ? line.discount : "");
  $("discount-preview").textContent = "";
  clearDiscountError();
  $("discount-approval").hidden = true;
  discountDialog.showModal();
  discountInput.focus();
  discountAsked = "";
  discountRun = null;
  discountChanged();
}

function closeDiscount() {
  discountDialog.close();
  const id = discountLine?.key ?? "";
  discountLine = null;
  discountSequence++;
  (linesBox.querySelector(`[data-line="${CSS.escape(id)}"] button[data-act="discount"]`) ?? discountOpener)?.focus();
}

discountInput.addEventListener("input", discountChanged);
discountForm.addEventListener("change", discountChanged);
for (const button of discountForm.querySelectorAll("[data-close]")) button.addEventListener("click", closeDiscount);
discountDialog.addEventListener("cancel", (event) => { event.preventDefault(); closeDiscount(); });
$("discount-remove").addEventListener("click", () => {
  if (discountLine) {
    delete discountLine.discount;
    delete discountLine.discountPercent;
    saveCart(); render(); afterFigures = `No discount on ${discountLine.name}.`;
  }
  closeDiscount();
});
discountForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const line = discountLine;
  if (!line) return;
  // What the server says about the discount as typed now: the dry run under way, or one asked for at once.
  const discount = typedDiscount();
  const answer = await (discountRun ?? askLine(line, discount));
  if (discountLine !== line) return;
  if (answer.error) {
    $("discount-approval").hidden = !answer.needsManager;
    fieldError(discountForm, "discount", answer.error);
    discountInput.focus();
    return;
  }
  delete line.discount;
  delete line.discountPercent;
  if (!isZero(answer.line.discount)) Object.assign(line, discount);
  saveCart();
  render();
  afterFigures = isZero(answer.line.discount) ? `No discount on ${line.name}.` : `Discount of ${money(answer.line.discount)} on ${line.name}.`;
  closeDiscount();
});

// ---------- charge ----------
/** A refusal in the cashier's words: {message naming the product, index of the line, detail for the line}. */
function refusalOf(error, lines = cart) {
  const field = error instanceof ApiError ? error.field ?? "" : "";
  const match = /^lines\[(\d+)\](?:\.(\w+))?/.exec(field);
  const index = match ? Number(match[1]) : null;
  const name = index !== null ? lines[index]?.name : null;
  let detail = (error.message || "the sale was refused").trim();
  const subject = { unitPrice: "the price", discount: "the discount", discountPercent: "the discount", quantity: "the quantity" }[match?.[2]]
    ?? { cashTendered: "the cash tendered", tip: "the tip" }[field];
  if (subject && /^(is|must) /.test(detail)) detail = `${subject} ${detail}`;
  detail = detail.charAt(0).toUpperCase() + detail.slice(1);
  if (!/[.!?]$/.test(detail)) detail += ".";
  const message = name && !detail.includes(name) ? `${name}: ${detail}` : detail;
  return { message, index: lines === cart ? index : null, detail, field };
}

function clearSaleError() {
  saleForm.querySelector(".form-error").textContent = "";
  for (const box of linesBox.querySelectorAll(".field-error")) box.textContent = "";
  for (const input of linesBox.querySelectorAll("input[aria-invalid]")) input.removeAttribute("aria-invalid");
  shownRefusal = "";
}

/** Shows a refusal on the cart (the banner, and on the line it names). A dry run's refusal neither scrolls nor opens the sheet. */
function showSaleError(message, index = null, lineMessage = message, { preview = false } = {}) {
  clearSaleError();
  const banner = saleForm.querySelector(".form-error");
  banner.textContent = message;
  if (index !== null) {
    const row = linesBox.querySelector(`[data-index="${index}"]`);
    const box = row?.querySelector(".field-error");
    if (box) box.textContent = lineMessage;
    row?.querySelector("input[data-qty]")?.setAttribute("aria-invalid", "true");
  }
  if (preview) {
    // The banner is role=alert; say a refusal once, not again on every dry run that repeats it.
    if (shownRefusal === message) return;
    shownRefusal = message;
    return;
  }
  shownRefusal = message;
  announce(message, { assertive: true });
  openCart(true);
  banner.scrollIntoView({ block: "nearest" });
}

saleForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (charging || !cart.length) return;
  charging = true;
  showFigures();
  await settle();   // what the screen shows is the dry run of this very cart
  const { body, problem } = saleBody();
  if (problem) {
    charging = false;
    showFigures();
    const input = { tip: tipInput, tendered: tenderedInput }[problem] ?? $("split-rows").querySelector("input");
    input?.setAttribute("aria-invalid", "true");
    input?.focus();
    return showSaleError({ tip: "The tip is not an amount.", tendered: "The cash tendered is not an amount." }[problem]
      ?? "A payment's amount or cash tendered is not an amount.");
  }
  try {
    const sale = await api("POST", "/api/v1/sales", body, { headers: { "Idempotency-Key": chargeKey(body) } });
    charge = { key: null, body: null };
    approval = null;
    cart = [];
    split = [{ method: "cash", amount: "", tendered: "" }, { method: "card", amount: "", tendered: "" }];
    customer = null;
    tipInput.value = "";
    tenderedInput.value = "";
    sessionStorage.removeItem(STORE);
    location.assign(`/app/receipt/${sale.id}?${new URLSearchParams({ done: "1" })}`);
  } catch (error) {
    charging = false;
    showFigures();
    if (error instanceof ApiError && error.status === 0) return showSaleError("The server cannot be reached. The cart is kept — charge again when it is back.");
    const { message, index, detail } = refusalOf(error);
    if (error instanceof ApiError && error.field === "cashTendered") tenderedInput.setAttribute("aria-invalid", "true");
    showSaleError(`${message} Nothing was charged; the cart is kept.`, index, detail);
    loadProducts({ quiet: true });
  }
});

// ---------- phone: the cart as a bottom sheet ----------
const phone = window.matchMedia("(max-width: 1023px)");   // the cart is a bottom sheet below 1024 px
function openCart(open) {
  if (!phone.matches) return;
  cartPanel.dataset.open = String(open);
  $("cart-toggle").setAttribute("aria-expanded", String(open));
  $("cart-backdrop").hidden = !open;
  $("cart-bar-cta").textContent = open ? "Hide" : cart.length ? "Charge" : "Cart";
  if (open) $("cart-body").scrollTop = 0;
  document.body.classList.toggle("till-sheet-open", open);
}
$("cart-toggle").addEventListener("click", () => {
  const open = cartPanel.dataset.open !== "true";
  openCart(open);
  if (open) $("cart-close").focus({ preventScroll: true });
});
$("cart-close").addEventListener("click", () => { openCart(false); $("cart-toggle").focus(); });
$("cart-backdrop").addEventListener("click", () => openCart(false));
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && cartPanel.dataset.open === "true") { openCart(false); $("cart-toggle").focus(); }
});
phone.addEventListener("change", () => openCart(false));

// ---------- start ----------
render();
await loadProducts();
const asked = new URLSearchParams(location.search);
const wanted = Number(asked.get("product"));
if (asked.get("scan")) {
  // A code scanned on the receipt screen after the last sale: this sale starts with it (or says why it cannot).
  history.replaceState(null, "", location.pathname);
  await lookUp(asked.get("scan"));
} else if (wanted) {
  let p = products.get(wanted);
  try { p ??= await api("GET", `/api/v1/products/${wanted}`); } catch { p = null; }
  if (!p) toast("That product was not found");
  else addOrExplain(p);
  history.replaceState(null, "", location.pathname);
}
// Stock or prices changed elsewhere: the catalogue, and the server's figures for this cart, again.
const refresh = debounce(() => loadProducts({ quiet: true }).finally(() => { if (cart.length && !charging) schedulePreview(); }), 800);
onLiveEvents(() => refresh(), ["sale", "product"]);
if (!matchMedia("(pointer: coarse)").matches) scanInput.focus({ preventScroll: true });
