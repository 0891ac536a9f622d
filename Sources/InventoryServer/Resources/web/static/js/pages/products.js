// Products: the list (search as you type, filters, sort, paged from the API), the add/edit form (inline
// validation, the server's barcode check and duplicate barcodes, pictures: several, one of them the main one, with
// previews) and the detail screen with the stock history.
import { api, el, icon, debounce, confirmDialog, toast, announce, page, clearErrors, fieldError, showProblem, ApiError, onLiveEvents } from "/static/js/app.js";
import {
  statusBadge, loadCategories, fillCategorySelect, pageError, errorText, flash, STATUS,
} from "/static/js/catalogue-common.js";
import { looksLikeBarcode, productByBarcode, typedBarcode } from "/static/js/shared/barcode.js";
import { dateTime } from "/static/js/shared/dates.js";
import { isZero, money, quantity } from "/static/js/shared/format.js";
import { productThumb } from "/static/js/shared/thumbs.js";
import { showOptions } from "/static/js/pages/product-options.js";
import { showRecipe } from "/static/js/pages/product-recipe.js";

const root = document.getElementById("products-root");
const can = {
  edit: root.dataset.canEdit === "true",
  purchase: root.dataset.canPurchase === "true",
  sell: root.dataset.canSell === "true",
  adjust: root.dataset.canAdjust === "true",
};
const PAGE_SIZE = 50;

const id = page.id;
const action = page.action;
if (!id) showList();
else if (id === "new") showForm(null);
else if (/^\d+$/.test(id) && action === "edit") showForm(Number(id));
else if (/^\d+$/.test(id) && !action) showDetail(Number(id));
else pageError("There is no such product screen.");

function setTitle(text) {
  const title = document.getElementById("page-title");
  if (title) title.textContent = text;
  document.title = `${text} · ${document.title.split(" · ").slice(-1)[0]}`;
}

// =====================================================================================================
// List
// =====================================================================================================
function showList() {
  const view = document.getElementById("product-list-view");
  view.hidden = false;
  const message = flash();
  if (message) {
    const box = document.getElementById("catalogue-flash");
    box.textContent = message;
    box.hidden = false;
    announce(message);
  }
  const form = document.getElementById("product-filters");
  const search = document.getElementById("product-search");
  const category = document.getElementById("product-category");
  const sort = document.getElementById("product-sort");
  const list = document.getElementById("product-list");
  const count = document.getElementById("product-count");
  const more = document.getElementById("product-more");
  const sentinel = document.getElementById("product-sentinel");
  const chips = [...view.querySelectorAll(".status-chips [data-status]")];
  const archivedChip = view.querySelector(".status-chips [data-archived]");

  // Filters live in the address so Back returns to the same list.
  const params = new URLSearchParams(location.search);
  const state = {
    search: params.get("search") ?? "",
    categoryId: params.get("categoryId") ?? "",
    status: params.get("status") ?? "",
    sort: params.get("sort") ?? "name",
    archived: params.get("archived") === "true",
    offset: 0,
    total: 0,
    loading: false,
    generation: 0,
  };
  search.value = state.search;
  sort.value = state.sort;
  for (const chip of chips) chip.setAttribute("aria-pressed", String(chip.dataset.status === state.status));
  archivedChip.setAttribute("aria-pressed", String(state.archived));
  const categoryNames = new Map();
  fillCategorySelect(category, state.categoryId).then((categories) => {
    for (const c of categories) categoryNames.set(c.id, c);
  }).catch(() => {});

  function query(offset) {
    const q = new URLSearchParams();
    if (state.search) q.set("search", state.search);
    if (state.categoryId) q.set("categoryId", state.categoryId);
    if (state.status) q.set("status", state.status);
    if (state.sort && state.sort !== "name") q.set("sort", state.sort);
    if (state.archived) q.set("archived", "true");
    // The server reads "+" literally, so spaces travel as %20 (URLSearchParams writes "+").
    const address = q.toString().replace(/\+/g, "%20");
    history.replaceState(null, "", location.pathname + (address ? "?" + address : ""));
    q.set("sort", state.sort || "name");
    q.set("limit", PAGE_SIZE);
    q.set("offset", offset);
    return q.toString().replace(/\+/g, "%20");
  }

  async function load(reset) {
    if (reset) {
      state.generation += 1;
      state.offset = 0;
    } else if (state.loading || state.offset >= state.total) {
      return;
    }
    const generation = state.generation;
    state.loading = true;
    list.setAttribute("aria-busy", "true");
    try {
      const result = await api("GET", "/api/v1/products?" + query(state.offset));
      if (generation !== state.generation) return; // a newer search started meanwhile
      const rows = result.items.map(productRow);
      if (reset) list.replaceChildren(...rows);
      else list.append(...rows);
      state.offset += result.items.length;
      state.total = result.total;
      if (result.total === 0) list.replaceChildren(emptyState());
      count.textContent = result.total === 0 ? "No products found"
        : `${result.total} product${result.total === 1 ? "" : "s"}` + (state.offset < result.total ? ` · showing ${state.offset}` : "");
      more.hidden = state.offset >= state.total;
      pageError(null);
    } catch (error) {
      if (generation === state.generation) pageError(errorText(error));
    } finally {
      if (generation === state.generation) {
        state.loading = false;
        list.removeAttribute("aria-busy");
      }
    }
  }

  function emptyState() {
    const filtered = state.search || state.categoryId || state.status;
    return el("li", { class: "empty" },
      filtered ? "No product matches. Try fewer letters or another filter." : "No products yet.",
      can.edit && state.search && !state.categoryId && !state.status
        ? el("div", {}, el("a", { class: "btn", href: `/app/products/new?${looksLikeBarcode(state.search) ? `barcode=${encodeURIComponent(typedBarcode(state.search))}` : `name=${encodeURIComponent(state.search)}`}` }, icon("plus"), `Add “${state.search}”`))
        : can.edit && !filtered ? el("div", {}, el("a", { class: "btn primary", href: "/app/products/new" }, icon("plus"), "Add the first product")) : null);
  }

  function figure(label, value, cls = "") {
    return el("span", { class: `fig ${cls}` }, el("span", { class: "fig-label" }, label), el("span", { class: "fig-value num" }, value));
  }

  function productRow(product) {
    const category = categoryNames.get(product.categoryId);
    const unit = product.unit && product.unit !== "pcs" ? ` ${product.unit}` : "";
    const sub = [product.sku, product.barcode, category?.name].filter(Boolean).join(" · ");
    return el("li", { class: "product-row" + (product.archived ? " archived" : ""), dataset: { id: product.id } },
      productThumb(product),
      el("div", { class: "pr-main" },
        el("a", { class: "pr-name", href: `/app/products/${product.id}` }, product.name),
        sub ? el("div", { class: "pr-sub" }, sub) : null),
      // Costs are in the answer only for a role that may see them (the server decides): what is not there is not shown.
      el("div", { class: "pr-figs" },
        "averageCost" in product ? figure("Avg cost", product.tracksStock ? money(product.averageCost) : "—", "fig-cost") : null,
        figure("Price", money(product.salePrice), "fig-price"),
        figure("Stock", product.tracksStock ? quantity(product.quantity) + unit : "—", "fig-qty"),
        "stockValue" in product ? figure("Value", product.tracksStock ? money(product.stockValue) : "—", "fig-value") : null),
      el("span", { class: "pr-status" }, statusBadge(product.status), product.archived ? el("span", { class: "badge badge-muted" }, "Archived") : null));
  }

  const reload = () => load(true);
  search.addEventListener("input", debounce(() => { state.search = search.value.trim(); reload(); }, 250));
  form.addEventListener("submit", (event) => { event.preventDefault(); state.search = search.value.trim(); reload(); });
  category.addEventListener("change", () => { state.categoryId = category.value; reload(); });
  sort.addEventListener("change", () => { state.sort = sort.value; reload(); });
  for (const chip of chips) {
    chip.addEventListener("click", () => {
      state.status = chip.dataset.status;
      for (const other of chips) other.setAttribute("aria-pressed", String(other === chip));
      reload();
    });
  }
  archivedChip.addEventListener("click", () => {
    state.archived = !state.archived;
    archivedChip.setAttribute("aria-pressed", String(state.archived));
    reload();
  });
  more.addEventListener("click", () => load(false));
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && state.offset > 0 && state.offset < state.total) load(false);
    }, { rootMargin: "400px" }).observe(sentinel);
  }
  // "/" focuses the search, as in many web apps.
  document.addEventListener("keydown", (event) => {
    if (event.key === "/" && !event.target.closest("input, textarea, select")) { event.preventDefault(); search.focus(); }
  });
  load(true);
}

// =====================================================================================================
// Add / edit form
// =====================================================================================================
async function showForm(productId) {
  if (!can.edit) { pageError("Your role may not change the catalogue."); return; }
  const view = document.getElementById("product-form-view");
  view.hidden = false;
  const form = document.getElementById("product-form");
  const title = document.getElementById("product-form-title");
  const picture = document.getElementById("pf-picture");
  const preview = document.getElementById("pf-preview");
  const pictureList = document.getElementById("pf-pictures");
  const suggest = document.getElementById("pf-suggest");
  let product = null;
  // The pictures as they will be once saved, the main one first: stored ones ({ name }) and chosen files
  // ({ file, url, note }); `removed` holds the stored ones taken off. Nothing changes on the server before Save.
  let pictures = [];
  const removed = new Set();

  const categoriesReady = fillCategorySelect(form.categoryId).catch(() => []);
  const suppliersReady = fillSupplierSelect(form.preferredSupplierId);
  // The shelves in use, offered as the shelf is typed (any other name makes a new shelf).
  api("GET", "/api/v1/products/shelves", null, { quiet: true }).then((shelves) => {
    document.getElementById("pf-shelves").replaceChildren(...shelves.map((shelf) => el("option", { value: shelf.name })));
  }).catch(() => {});
  if (productId) {
    title.textContent = "Edit product";
    setTitle("Edit product");
    document.getElementById("product-form-back").href = `/app/products/${productId}`;
    document.getElementById("pf-cancel").href = `/app/products/${productId}`;
    try {
      product = await api("GET", `/api/v1/products/${productId}`);
    } catch (error) {
      pageError(errorText(error));
      form.hidden = true;
      return;
    }
    await categoriesReady;
    for (const name of ["name", "sku", "barcode", "unit", "iconEmoji", "salePrice", "minimumSalePrice", "taxRate", "lowStockThreshold", "description", "shelf"]) {
      form.elements[name].value = product[name] ?? "";
    }
    form.categoryId.value = product.categoryId ?? "";
    await suppliersReady;
    if (product.preferredSupplierId && !form.preferredSupplierId.querySelector(`option[value="${product.preferredSupplierId}"]`)) {
      form.preferredSupplierId.append(el("option", { value: product.preferredSupplierId }, `Supplier #${product.preferredSupplierId}`));
    }
    form.preferredSupplierId.value = product.preferredSupplierId ?? "";
    form.supplierCode.value = product.supplierCode ?? "";
    form.packSize.value = product.packSize ?? "1";
    form.tracksStock.checked = product.tracksStock;
    form.allowsNegativeStock.checked = product.allowsNegativeStock;
    pictures = (product.pictures ?? []).map((p) => ({ name: p.imageRef }));
    title.textContent = `Edit ${product.name}`;
  } else {
    setTitle("New product");
    // A new product may start with stock (booked as its opening stock), and the next one can follow at once.
    document.getElementById("pf-opening").hidden = false;
    document.getElementById("pf-save-another").hidden = false;
    const message = flash();
    if (message) {
      const box = document.getElementById("pf-flash");
      box.textContent = message;
      box.hidden = false;
      announce(message);
    }
    const params = new URLSearchParams(location.search);
    form.barcode.value = params.get("barcode") ?? "";
    form.name.value = params.get("name") ?? "";
    form.taxRate.value = root.dataset.defaultTax || document.body.dataset.defaultTax || "";
    form.unit.value = "pcs";
    await categoriesReady;
    if (params.get("categoryId")) form.categoryId.value = params.get("categoryId");
  }
  showPictures();
  updateSuggestion();
  updatePreview();
  (form.name.value ? form.salePrice : form.name).focus();

  // ----- pictures -----
  const MAX_PICTURES = 12;
  const pictureError = document.getElementById("pf-picture-error");
  /** A picture's thumbnail: a chosen file's preview, else the stored picture (the icon should it fail to load). */
  function pictureThumb(item, cls) {
    if (item.file) return el("img", { class: `thumb ${cls}`, src: item.url, alt: `Preview of ${item.file.name}` });
    return productThumb({ imageRef: item.name, iconEmoji: form.iconEmoji.value }, cls);
  }
  function showPictures() {
    const main = pictures[0];
    let node;
    if (!main) {
      node = productThumb({ iconEmoji: form.iconEmoji.value }, "thumb-lg");
    } else {
      node = pictureThumb(main, "thumb-lg");
      if (main.file) node.id = "pf-preview-image";
      else node.alt = "Main picture";
    }
    preview.replaceChildren(node,
      main?.file ? el("div", { class: "hint" }, `${main.file.name} · ${Math.ceil(main.file.size / 1024)} KB · uploaded when you save`) : "",
      main?.note ? el("div", { class: "hint", id: "pf-preview-shape" }, main.note) : "");
    pictureList.hidden = pictures.length === 0;
    pictureList.replaceChildren(...pictures.map((item, index) => {
      const label = `picture ${index + 1}${item.file ? ` (${item.file.name})` : ""}`;
      return el("li", { class: "picture-item" + (index === 0 ? " is-main" : ""), dataset: item.file ? { new: "true" } : { name: item.name } },
        pictureThumb(item, ""),
        index === 0 ? el("span", { class: "badge", "data-main": "true" }, "Main picture") : null,
        item.note && index > 0 ? el("span", { class: "picture-note" }, item.note) : null,
        el("span", { class: "picture-actions" },
          index > 0 ? el("button", { type: "button", class: "btn-small picture-make-main", "aria-label": `Make ${label} the main one`,
            onclick: () => { pictures.unshift(...pictures.splice(index, 1)); showPictures(); announce(`The ${label} is now the main picture.`); } }, "Make main") : null,
          el("button", { type: "button", class: "btn-small picture-remove", "aria-label": `Remove ${label}`,
            onclick: () => removePictureAt(index) }, "Remove")));
    }));
  }
  function removePictureAt(index) {
    const [item] = pictures.splice(index, 1);
    if (item.file) URL.revokeObjectURL(item.url);
    else removed.add(item.name);
    showPictures();
    announce(pictures.length ? "Picture removed; it goes when you save." : "Picture removed; the product shows its icon.");
  }
  picture.addEventListener("change", () => {
    pictureError.textContent = "";
    const problems = [];
    for (const file of picture.files ?? []) {
      if (!["image/jpeg", "image/png"].includes(file.type) && !/\.(jpe?g|png)$/i.test(file.name)) {
        problems.push(`${file.name}: choose a JPEG or PNG picture.`);
      } else if (file.size > 5 * 1024 * 1024) {
        problems.push(`${file.name}: the picture is larger than 5 MB; choose a smaller one.`);
      } else if (pictures.length >= MAX_PICTURES) {
        problems.push(`${file.name}: a product keeps at most ${MAX_PICTURES} pictures; remove one first.`);
      } else {
        const item = { file, url: URL.createObjectURL(file), note: "" };
        pictures.push(item);
        // Tell the user now whether it will be centre-cropped.
        const probe = new Image();
        probe.addEventListener("load", () => {
          item.note = probe.naturalWidth === probe.naturalHeight ? "Square picture."
            : `${probe.naturalWidth} × ${probe.naturalHeight}: it will be shown centre-cropped to a square.`;
          if (pictures.includes(item)) showPictures();
        });
        probe.src = item.url;
      }
    }
    picture.value = "";
    showPictures();
    if (problems.length) {
      pictureError.textContent = problems.join(" ");
      announce(pictureError.textContent, { assertive: true });
    } else {
      announce("Pictures chosen; they are uploaded when you save.");
    }
  });
  form.iconEmoji.addEventListener("input", () => showPictures());

  /** Brings the saved product's pictures to what the form shows: removals, uploads in order, then the main one. Each
   *  step done is recorded here, so after a refusal Save again does only what is left. Returns what to tell the user. */
  async function savePictures(id) {
    const messages = [];
    const path = `/api/v1/products/${id}/pictures`;
    let main = product?.imageRef ?? null;
    let removedCount = 0;
    for (const name of [...removed]) {
      try {
        main = (await api("DELETE", `${path}/${encodeURIComponent(name)}`)).imageRef ?? null;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;  // already gone
      }
      removed.delete(name);
      removedCount += 1;
    }
    if (removedCount) messages.push(removedCount === 1 ? "Picture removed." : `${removedCount} pictures removed.`);
    const uploaded = [];
    for (const item of pictures.filter((p) => p.file)) {
      const answer = await api("POST", path, item.file, { headers: { "Content-Type": item.file.type || "application/octet-stream" } });
      URL.revokeObjectURL(item.url);
      Object.assign(item, { name: answer.added.imageRef, file: null, url: null, note: "" });
      main = answer.imageRef ?? null;
      uploaded.push(answer.added);
    }
    if (uploaded.length === 1) {
      const [one] = uploaded;
      messages.push(one.square ? "Picture uploaded." : `Picture uploaded (${one.width} × ${one.height}): shown centre-cropped to a square.`);
    } else if (uploaded.length > 1) {
      const cropped = uploaded.filter((u) => !u.square).length;
      messages.push(`${uploaded.length} pictures uploaded${cropped ? ` (${cropped} shown centre-cropped to a square)` : ""}.`);
    }
    const wanted = pictures[0]?.name;
    if (wanted && wanted !== main) {
      await api("PUT", `${path}/${encodeURIComponent(wanted)}/main`);
      messages.push("Main picture changed.");
    }
    return messages;
  }

  // ----- suggested price from the category's markup -----
  async function updateSuggestion() {
    suggest.hidden = true;
    if (!product || !product.tracksStock || !form.categoryId.value) return;
    const asked = form.categoryId.value;
    // The server applies the category's markup to the cost price (the domain's rule, rounded once).
    const s = await api("GET", `/api/v1/products/${product.id}/price-suggestion?categoryId=${encodeURIComponent(asked)}`, null, { quiet: true })
      .catch(() => null);
    if (!s || !s.salePrice || form.categoryId.value !== asked) return;
    suggest.replaceChildren(`Avg cost ${money(s.costPrice)} + ${quantity(s.markup)} % markup = ${money(s.salePrice)} `,
      el("button", { type: "button", class: "btn-small link-button", onclick: () => { form.salePrice.value = s.salePrice; form.salePrice.focus(); } }, "Use it"));
    suggest.hidden = false;
  }
  form.categoryId.addEventListener("change", updateSuggestion);

  // ----- what the customer pays, and (for a new product) the price the markup suggests for the opening cost -----
  // The server prices the form as typed (GET /api/v1/products/price-preview: the domain's tax and markup rules);
  // this only shows its answer, and shows nothing while a figure is not a number yet.
  const finalBox = document.getElementById("pf-final");
  let previewAsked = 0;
  async function updatePreview() {
    const asked = ++previewAsked;
    const q = new URLSearchParams();
    const value = (name) => form.elements[name].value.trim().replace(",", ".").replace(/%$/, "");
    if (value("salePrice")) q.set("salePrice", value("salePrice"));
    if (value("taxRate")) q.set("taxRate", value("taxRate"));
    if (form.categoryId.value) q.set("categoryId", form.categoryId.value);
    if (!product && value("openingStock.unitCost")) q.set("cost", value("openingStock.unitCost"));
    let figures = null;
    if (q.has("salePrice") || q.has("cost")) {
      figures = await api("GET", "/api/v1/products/price-preview?" + q.toString().replace(/\+/g, "%20"), null, { quiet: true }).catch(() => null);
    }
    if (asked !== previewAsked) return;  // a newer answer is on its way
    finalBox.hidden = !figures?.finalPrice;
    if (figures?.finalPrice) {
      finalBox.replaceChildren("Customer pays ", el("strong", { id: "pf-final-price", class: "num" }, money(figures.finalPrice)),
        figures.pricesIncludeTax ? ` (tax ${money(figures.tax)} included)` : ` (${money(figures.netPrice)} + ${money(figures.tax)} tax)`);
    }
    if (!product) {
      suggest.hidden = !figures?.suggestedSalePrice;
      if (figures?.suggestedSalePrice) {
        const s = figures.suggestedSalePrice;
        suggest.replaceChildren(`Unit cost ${money(q.get("cost"))} + ${quantity(figures.markup)} % markup = `, el("span", { id: "pf-suggested-price" }, money(s)), " ",
          el("button", { type: "button", class: "btn-small link-button", id: "pf-use-suggestion",
            onclick: () => { form.salePrice.value = s; form.salePrice.focus(); updatePreview(); } }, "Use it"));
      }
    }
  }
  const previewSoon = debounce(updatePreview, 250);
  for (const name of ["salePrice", "taxRate", "openingStock.unitCost"]) form.elements[name].addEventListener("input", previewSoon);
  form.categoryId.addEventListener("change", updatePreview);
  // The threshold hint says what an empty field means (the server's rule: the category's threshold, else the
  // shop default) and what 0 means; the badge itself always shows the status the server computed.
  async function updateThresholdHint() {
    const hint = document.getElementById("pf-threshold-hint");
    const shopDefault = quantity(hint.dataset.shopDefault ?? "0");
    const categories = await loadCategories().catch(() => []);
    const category = categories.find((c) => String(c.id) === form.categoryId.value);
    const empty = category?.lowStockThreshold
      ? `Empty: ${category.name}'s threshold, ${quantity(category.lowStockThreshold)}.`
      : category
        ? `Empty: the shop default, ${shopDefault} (${category.name} sets no threshold).`
        : `Empty: the category's threshold, else the shop default, ${shopDefault}.`;
    hint.textContent = `${empty} 0: warn only when out of stock.`;
  }
  form.categoryId.addEventListener("change", updateThresholdHint);
  updateThresholdHint();

  // ----- inline validation -----
  // Only what needs no rule: a name must be given. Whether a price, rate, threshold or opening stock is acceptable
  // (how many decimals the currency has, that a tax rate is at most 100 %, that "12,50" and "7.5 %" are read, that an
  // opening quantity needs its unit cost) is the domain's: the server's refusal names the field and is shown on it.
  function clearFieldError(input) {
    input.removeAttribute("aria-invalid");
    const box = input.closest(".field")?.querySelector(".field-error");
    if (box) box.textContent = "";
  }
  /** Says on the field when the name is empty; answers the name field then, else null. */
  function checkName() {
    const input = form.elements.name;
    if (input.value.trim()) {
      if (input.getAttribute("aria-invalid") === "true" && !input.dataset.serverError) clearFieldError(input);
      return null;
    }
    fieldError(form, "name", "Give the product a name.");
    return input;
  }
  // Check the name when the user leaves it; clear a field's error as soon as it is changed (the server says again,
  // on saving, whether the new text will do).
  form.elements.name.addEventListener("blur", () => { if (form.elements.name.dataset.touched) checkName(); });
  for (const name of ["name", "salePrice", "minimumSalePrice", "taxRate", "lowStockThreshold", "barcode",
    ...(product ? [] : ["openingStock.quantity", "openingStock.unitCost"])]) {
    const input = form.elements[name];
    input.addEventListener("input", () => {
      input.dataset.touched = "true";
      delete input.dataset.serverError;
      if (input.getAttribute("aria-invalid") !== "true") return;
      if (name === "name") checkName();
      else clearFieldError(input);
    });
  }
  // The server looks the barcode up as soon as the field is left: a code that cannot be a barcode (a wrong check
  // digit) is named with its reason, one another product already has with that product.
  form.barcode.addEventListener("change", async () => {
    const code = typedBarcode(form.barcode.value);
    if (!code) return;
    const still = () => typedBarcode(form.barcode.value) === code;
    let owner;
    try {
      owner = await productByBarcode(code, { quiet: true });
    } catch (error) {
      if (error instanceof ApiError && error.status > 0 && still()) {
        fieldError(form, "barcode", error.message);
        form.barcode.dataset.serverError = "true";
        announce(error.message, { assertive: true });
      }
      return;
    }
    if (owner && owner.id !== product?.id && still()) {
      duplicateBarcode(`Barcode ${code} already belongs to '${owner.name}'.`, owner.id, owner.name);
    }
  });
  // A barcode handed over by the scanner is checked at once.
  if (!productId && form.barcode.value) form.barcode.dispatchEvent(new Event("change"));
  function duplicateBarcode(message, ownerId, ownerName) {
    fieldError(form, "barcode", message);
    form.barcode.dataset.serverError = "true";
    const box = form.barcode.closest(".field").querySelector(".field-error");
    if (ownerId) box.append(" ", el("a", { href: `/app/products/${ownerId}` }, `Open ${ownerName ?? "it"}`));
    announce(message, { assertive: true });
  }

  // ----- save -----
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    for (const input of form.querySelectorAll("[data-server-error]")) delete input.dataset.serverError;
    const bad = checkName();
    if (bad) { bad.focus(); announce("Check the highlighted fields.", { assertive: true }); return; }
    const body = {};
    // Amounts go as typed: the server reads a decimal comma and a trailing "%" (and refuses, naming the field, what
    // it cannot read).
    for (const name of ["name", "sku", "barcode", "unit", "iconEmoji", "salePrice", "minimumSalePrice", "taxRate", "lowStockThreshold"]) {
      let value = form.elements[name].value.trim();
      if (name === "barcode") value = typedBarcode(value);
      if (value !== "") body[name] = value;
    }
    if (form.categoryId.value) body.categoryId = Number(form.categoryId.value);
    if (form.preferredSupplierId.value) body.preferredSupplierId = Number(form.preferredSupplierId.value);
    if (form.supplierCode.value.trim()) body.supplierCode = form.supplierCode.value.trim();
    if (form.packSize.value.trim()) body.packSize = form.packSize.value.trim();
    body.description = form.elements.description.value.trim();  // always sent, so emptying the field clears it
    body.shelf = form.elements.shelf.value.trim();  // likewise
    body.tracksStock = form.tracksStock.checked;
    body.allowsNegativeStock = form.allowsNegativeStock.checked;
    if (!product) {
      const quantity = form.elements["openingStock.quantity"].value.trim();
      const unitCost = form.elements["openingStock.unitCost"].value.trim();
      if (quantity || unitCost) {
        body.openingStock = {};
        if (quantity) body.openingStock.quantity = quantity;
        if (unitCost) body.openingStock.unitCost = unitCost;
      }
    }
    const another = event.submitter?.id === "pf-save-another";
    const save = event.submitter?.id === "pf-save-another" ? event.submitter : document.getElementById("pf-save");
    save.disabled = true;
    let saved;
    try {
      saved = product
        ? await api("PUT", `/api/v1/products/${product.id}`, body)
        : await api("POST", "/api/v1/products", body);
    } catch (error) {
      save.disabled = false;
      if (error instanceof ApiError && error.problem.code === "duplicate" && error.problem.field === "barcode") {
        const match = /'(.+)' \(product (\d+)\)/.exec(error.problem.detail ?? "");
        duplicateBarcode(error.problem.detail, match?.[2], match?.[1]);
        form.barcode.focus();
      } else {
        showProblem(form, error);
        for (const input of form.querySelectorAll('[aria-invalid="true"]')) input.dataset.serverError = "true";
      }
      return;
    }
    product = saved;
    const messages = [`Saved ${saved.name}.`];
    try {
      messages.push(...await savePictures(saved.id));
    } catch (error) {
      // The product is saved; only a picture failed. Stay here, now editing the saved product.
      save.disabled = false;
      history.replaceState(null, "", `/app/products/${saved.id}/edit`);
      document.getElementById("pf-opening").hidden = true;   // booked with the product: nothing more to send
      document.getElementById("pf-save-another").hidden = true;
      title.textContent = `Edit ${saved.name}`;
      showPictures();
      pictureError.textContent = `The product was saved, but a picture was refused: ${errorText(error)}`;
      announce(pictureError.textContent, { assertive: true });
      return;
    }
    if (body.openingStock) messages.push(`Opening stock ${quantity(saved.quantity)} ${saved.unit} booked.`);
    flash(messages.join(" "));
    if (another) {
      // The same form again, empty but for the category, the cursor in the name.
      location.assign("/app/products/new" + (saved.categoryId ? `?categoryId=${saved.categoryId}` : ""));
    } else {
      location.assign(`/app/products/${saved.id}`);
    }
  });
}

// =====================================================================================================
// Detail with the stock history
// =====================================================================================================
async function showDetail(productId) {
  const view = document.getElementById("product-detail-view");
  view.hidden = false;
  const message = flash();
  const flashBox = document.getElementById("pd-flash");
  if (message) { flashBox.textContent = message; flashBox.hidden = false; announce(message); }
  let product;
  try {
    product = await api("GET", `/api/v1/products/${productId}`);
  } catch (error) {
    view.querySelector(".product-detail").hidden = true;
    view.querySelector(".pd-history").hidden = true;
    pageError(error instanceof ApiError && error.status === 404 ? "This product does not exist (any more)." : errorText(error));
    return;
  }
  setTitle(product.name);
  renderProduct(product);
  loadHistory(product);
  showOptions(document.getElementById("pd-options"), productId, can.edit).catch(() => { /* the banner says when the server is gone */ });
  showRecipe(document.getElementById("pd-recipe"), product, can.edit).catch(() => { /* the banner says when the server is gone */ });
  // A sale at the till or a delivery elsewhere changes the figures: refresh them live (only when they changed).
  onLiveEvents(debounce(async () => {
    try {
      const fresh = await api("GET", `/api/v1/products/${productId}`, null, { quiet: true });
      if (JSON.stringify(fresh) === rendered.product) return;
      renderProduct(fresh);
      const count = (await api("GET", `/api/v1/products/${productId}/movements`, null, { quiet: true })).length;
      if (count !== rendered.movements) loadHistory(fresh);
    } catch { /* the banner says when the server is gone */ }
  }, 800), ["product"]);
}

const rendered = { product: null, movements: null };

function renderProduct(product) {
  rendered.product = JSON.stringify(product);
  document.getElementById("pd-picture").replaceChildren(productThumb(product, "thumb-lg"));
  // The other pictures, after the main one.
  const gallery = document.getElementById("pd-gallery");
  const more = (product.pictures ?? []).slice(1);
  gallery.hidden = more.length === 0;
  gallery.replaceChildren(...more.map((p) => el("li", {}, productThumb({ imageRef: p.imageRef, iconEmoji: product.iconEmoji }))));
  document.getElementById("pd-name").textContent = product.name;
  const description = document.getElementById("pd-description");
  description.textContent = product.description ?? "";
  description.hidden = !product.description;
  document.getElementById("pd-badges").replaceChildren(statusBadge(product.status),
    product.archived ? el("span", { class: "badge badge-muted" }, "Archived") : "");
  loadCategories().then((categories) => {
    const category = categories.find((c) => c.id === product.categoryId);
    const meta = [category ? category.name : "No category", product.sku && `SKU ${product.sku}`, product.barcode && `Barcode ${product.barcode}`,
      product.shelf && `Shelf ${product.shelf}`].filter(Boolean);
    document.getElementById("pd-meta").textContent = meta.join(" · ");
  }).catch(() => {});
  const unit = product.unit || "pcs";
  const figures = [
    ["In stock", product.tracksStock ? `${quantity(product.quantity)} ${unit}` : "Not tracked"],
    "stockValue" in product ? ["Stock value", product.tracksStock ? money(product.stockValue) : "—"] : null,
    "averageCost" in product ? ["Average cost", product.tracksStock ? money(product.averageCost) : "—"] : null,
    ["Sale price", money(product.salePrice)],
    ["Minimum sale price", product.minimumSalePrice ? money(product.minimumSalePrice) : "—"],
    ["Tax", `${quantity(product.taxRate)} %`],
    ["Low-stock threshold", !product.tracksStock ? "—"
      : `${quantity(product.effectiveLowStockThreshold)} ${unit}${product.lowStockThreshold ? "" : " (category or shop default)"}`],
    ["Below zero", product.allowsNegativeStock ? "Allowed" : "Not allowed"],
    ["Pack size", `${quantity(product.packSize ?? "1")} ${unit}${product.supplierCode ? ` · supplier's code ${product.supplierCode}` : ""}`],
  ];
  document.getElementById("pd-figures").replaceChildren(...figures.filter(Boolean).map(([label, value]) =>
    el("div", { class: "figure" }, el("dt", {}, label), el("dd", { class: "num" }, value))));

  const actions = [];
  if (can.purchase) actions.push(el("a", { class: "btn primary", href: `/app/purchases/new?product=${product.id}` }, icon("truck"), "Add stock"));
  if (can.sell) actions.push(el("a", { class: "btn", href: `/app/sales/new?product=${product.id}` }, icon("receipt"), "Sell"));
  if (can.adjust) actions.push(el("a", { class: "btn", href: `/app/stock?product=${product.id}` }, icon("clipboard"), "Count"));
  actions.push(el("button", { type: "button", id: "pd-share", onclick: () => share(product) }, icon("share"), "Share"));
  if (can.edit) {
    actions.push(el("a", { class: "btn", href: `/app/products/${product.id}/edit`, id: "pd-edit" }, icon("edit"), "Edit"));
    actions.push(el("span", { class: "pd-manage" },
      product.archived
        ? el("button", { type: "button", id: "pd-restore", onclick: () => archive(product, false) }, "Restore")
        : el("button", { type: "button", id: "pd-archive", onclick: () => archive(product, true) }, "Archive"),
      el("button", { type: "button", class: "danger", id: "pd-delete", onclick: () => remove(product) }, icon("trash"), "Delete")));
  }
  document.getElementById("pd-actions").replaceChildren(...actions);
}

/** Shares a link to the product: the system's share sheet where there is one (phones), else the link is copied. */
async function share(product) {
  const url = new URL(`/app/products/${product.id}`, location.origin).href;
  if (navigator.share) {
    try {
      await navigator.share({ title: product.name, url });
      return;
    } catch (error) {
      if (error?.name === "AbortError") return;  // the person closed the share sheet
    }
  }
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // No clipboard API (plain HTTP from another device): copy through a selected field.
    const field = el("input", { value: url, readonly: true, class: "sr-only", "aria-hidden": "true" });
    document.body.append(field);
    field.select();
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    field.remove();
  }
  const status = document.getElementById("pd-share-status");
  status.replaceChildren(copied ? "Link copied" : "Copy this link: ", copied ? "" : el("a", { href: url }, url));
  status.hidden = false;
  toast(copied ? "Link copied" : "Could not copy the link");
  clearTimeout(share.timer);
  if (copied) share.timer = setTimeout(() => { status.hidden = true; }, 4000);
}

async function archive(product, archiving) {
  if (archiving && !(await confirmDialog(`Archive ${product.name}? It disappears from lists and the till; its history stays and you can restore it.`, { confirm: "Archive", danger: false }))) return;
  try {
    const updated = await api("POST", `/api/v1/products/${product.id}/${archiving ? "archive" : "restore"}`);
    renderProduct(updated);
    pageError(null);
    toast(archiving ? `${product.name} archived` : `${product.name} restored`);
  } catch (error) {
    pageError(errorText(error));
  }
}

async function remove(product) {
  if (!(await confirmDialog(`Delete ${product.name} for good? Only a product no document uses can be deleted.`))) return;
  try {
    await api("DELETE", `/api/v1/products/${product.id}`);
    flash(`${product.name} deleted.`);
    location.assign("/app/products");
  } catch (error) {
    pageError(`Not deleted: ${errorText(error)}`);
  }
}

const KINDS = {
  purchase: "Purchase",
  sale: "Sale",
  adjustment: "Adjustment",
  customerReturn: "Customer return",
  supplierReturn: "Return to supplier",
  consumption: "Used in a recipe sold",
};
const REASONS = { initial: "opening stock", count: "stock count", damage: "damaged", expired: "expired", return: "return", correction: "correction", transfer: "transfer" };

async function loadHistory(product) {
  const box = document.getElementById("pd-history");
  let movements;
  try {
    movements = await api("GET", `/api/v1/products/${product.id}/movements`);
  } catch (error) {
    box.replaceChildren(el("p", { class: "banner banner-error", role: "alert" }, errorText(error)));
    return;
  }
  rendered.movements = movements.length;
  if (!movements.length) {
    box.replaceChildren(el("p", { class: "empty card" }, product.tracksStock ? "No stock movements yet. “Add stock” records the first delivery." : "This product does not track stock."));
    return;
  }
  const newestFirst = [...movements].reverse();
  // The books' values are in the answer only for a role that may see costs.
  const costs = "valueAfter" in movements[0];
  const headings = costs ? ["Date", "What", "Change", "Unit cost", "Balance", "Value", "Avg cost"] : ["Date", "What", "Change", "Balance"];
  let shown = 0;
  const body = el("tbody");
  const table = el("table", { class: "table history-table", id: "pd-history-table" },
    el("caption", { class: "sr-only" }, `Stock history of ${product.name}, newest first`),
    el("thead", {}, el("tr", {},
      ...headings.map((h, i) => el("th", { scope: "col", class: i >= 2 ? "num" : "" }, h)))),
    body);
  const more = el("button", { type: "button", class: "btn-small", id: "pd-history-more" }, "Show older");
  function row(m) {
    const what = KINDS[m.kind] ?? m.kind;
    const reason = m.reason ? ` · ${REASONS[m.reason] ?? m.reason}` : "";
    const link = m.kind === "purchase" ? `/app/purchases/${m.documentId}` : m.kind === "sale" || m.kind === "consumption" ? `/app/sales/${m.documentId}` : null;
    const change = quantity(m.quantity);
    const direction = m.quantity.startsWith("-") ? "down" : isZero(m.quantity) ? "" : "up";
    return el("tr", { class: `mv mv-${m.kind}` },
      el("td", { "data-label": "Date" }, el("time", { datetime: m.effectiveAt }, dateTime(m.effectiveAt))),
      el("td", { "data-label": "What" }, link ? el("a", { href: link }, what) : what, reason),
      el("td", { "data-label": "Change", class: `num ${direction}` }, (direction === "up" ? "+" : "") + change),
      costs ? el("td", { "data-label": "Unit cost", class: "num" }, m.unitCost ? money(m.unitCost) : "—") : null,
      el("td", { "data-label": "Balance", class: "num" }, quantity(m.quantityAfter)),
      costs ? el("td", { "data-label": "Value", class: "num" }, money(m.valueAfter)) : null,
      costs ? el("td", { "data-label": "Avg cost", class: "num" }, money(m.averageCostAfter)) : null);
  }
  function showMore() {
    const next = newestFirst.slice(shown, shown + 50);
    body.append(...next.map(row));
    shown += next.length;
    more.hidden = shown >= newestFirst.length;
  }
  more.addEventListener("click", showMore);
  showMore();
  box.replaceChildren(el("p", { class: "muted" }, `${movements.length} movement${movements.length === 1 ? "" : "s"}, newest first`),
    el("div", { class: "table-wrap history-wrap" }, table), el("div", { class: "load-more" }, more));
}

export { STATUS };

/** Fills the preferred-supplier select with the suppliers (left with "No supplier" when they cannot be listed). */
async function fillSupplierSelect(select) {
  try {
    const suppliers = await api("GET", "/api/v1/suppliers", undefined, { quiet: true });
    for (const supplier of suppliers) select.append(el("option", { value: supplier.id }, supplier.name));
  } catch { /* a role that may not list suppliers keeps the product's own, added by id */ }
}
