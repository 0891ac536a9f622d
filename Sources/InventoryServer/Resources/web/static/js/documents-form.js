// The document form shared by purchases and sales: a contact (supplier or customer) from a sheet, lines picked by
// search or scan, live line totals and — on purchases — the final cost price (moving average) per line, the
// effective date (default now, may be back-dated), a note; sales add discount, tip and payment method.
// Every figure shown (line totals, the average cost after each purchase line, tax and totals) is the server's own:
// a dry run of the document (`?dryRun=true`) books it and rolls back, so the preview is what saving will book.
// Inputs are checked in the browser first (exact decimals), then the API's refusal lands on the named field.
import { api, el, icon, announce, toast, clearErrors, fieldError, showProblem, ApiError, goToLock, debounce } from "/static/js/app.js";
import { flag, query } from "/static/js/documents-common.js";
import { productSearch, pickContact } from "/static/js/documents-pickers.js";
import { looksLikeBarcode, typedBarcode } from "/static/js/shared/barcode.js";
import { localInput } from "/static/js/shared/dates.js";
import { isZero, minorUnits, money, moneyValue, parseMoney, parseQuantity, quantityValue } from "/static/js/shared/format.js";
import { productThumb } from "/static/js/shared/thumbs.js";

const KINDS = {
  purchase: { path: "purchases", contacts: "suppliers", contactKey: "supplierId", contactName: "supplierName", noun: "purchase", party: "Supplier" },
  sale: { path: "sales", contacts: "customers", contactKey: "customerId", contactName: "customerName", noun: "sale", party: "Customer" },
};

let lineCounter = 0;

/** Builds the new/edit form for `kind` ("purchase" or "sale") into `container`; `id` is the document to edit, or null. */
export async function documentForm(kind, container, id) {
  const k = KINDS[kind];
  const isPurchase = kind === "purchase";
  const editing = id !== null;
  const canEditCatalogue = flag("canEditCatalogue");
  const canBelowMinimum = flag("canBelowMinimum");
  const draftKey = `stockroom-draft:${location.pathname}${location.search}`;
  /** @type {{key:number, product:any, isNew:boolean, node:HTMLElement, original?:any}[]} */
  const lines = [];
  let contact = null;
  let original = null;

  // ---------- the frame of the form ----------
  const form = el("form", { id: "doc-form", class: "doc-form", novalidate: true, "aria-label": `${editing ? "Edit" : "New"} ${k.noun}` });
  const contactName = el("span", { class: "contact-name", id: "contact-name" }, `No ${k.party.toLowerCase()}`);
  const contactButton = el("button", { type: "button", id: "contact-choose", "aria-describedby": "contact-name" }, icon(isPurchase ? "factory" : "people"), `Choose ${k.party.toLowerCase()}`);
  const contactClear = el("button", { type: "button", class: "btn-small", id: "contact-clear", hidden: true, "aria-label": `Remove the ${k.party.toLowerCase()}` }, icon("close"));
  const searchInput = el("input", { type: "search", id: "product-search", name: "product-search", placeholder: "Name, SKU or barcode — scan or type + Enter", enterkeyhint: "search" });
  const linesBox = el("div", { class: "doc-lines", id: "doc-lines" });
  const emptyLines = el("p", { class: "empty doc-lines-empty", id: "lines-empty" }, "No lines yet. Search or scan a product to add it.");
  const dateInput = el("input", { type: "datetime-local", id: "effective-at", name: "effectiveAt", value: localInput(), step: 60 });
  let dateTouched = false;
  dateInput.addEventListener("input", () => { dateTouched = true; });
  const noteInput = el("textarea", { id: "note", name: "note", rows: 2, maxlength: 1000 });
  const totals = el("dl", { class: "doc-totals", id: "doc-totals", "aria-live": "polite" });
  const submit = el("button", { type: "submit", class: "primary", id: "doc-save" }, editing ? "Save changes" : `Save ${k.noun}`);

  const newProductButton = isPurchase && canEditCatalogue
    ? el("button", { type: "button", id: "new-product", onclick: () => { addLine(null, { isNew: true }).node.querySelector("[data-role=name]").focus(); } }, icon("plus"), "New product") : null;

  form.append(
    el("div", { class: "form-error banner banner-error", role: "alert" }),
    el("section", { class: "card doc-party", "aria-labelledby": "party-heading" },
      el("h2", { id: "party-heading" }, k.party, isPurchase ? null : el("span", { class: "muted small" }, " (optional)")),
      el("div", { class: "row" }, contactName, el("span", { class: "spacer" }), contactButton, contactClear)),
    el("section", { class: "card doc-lines-card", "aria-labelledby": "lines-heading" },
      el("h2", { id: "lines-heading" }, "Lines"),
      el("div", { class: "product-add" },
        el("div", { class: "field search grow" }, el("label", { for: "product-search" }, "Add a product"), icon("search"), searchInput),
        newProductButton),
      emptyLines, linesBox),
    el("section", { class: "card doc-details", "aria-labelledby": "details-heading" },
      el("h2", { id: "details-heading" }, "Details"),
      el("div", { class: "form-grid" }, ...(isPurchase ? [] : saleExtras()),
        el("div", { class: "field" }, el("label", { for: "effective-at" }, "Date and time"), dateInput,
          el("div", { class: "hint" }, "Now by default; pick an earlier day to back-date.")),
        el("div", { class: "field wide" }, el("label", { for: "note" }, "Note"), noteInput))),
    el("section", { class: "card doc-summary", "aria-label": "Totals" }, totals,
      el("div", { class: "form-actions" },
        el("a", { class: "btn", href: editing ? `/app/${k.path}/${id}` : `/app/${k.path}` }, "Cancel"), submit)),
  );
  container.replaceChildren(form);

  function saleExtras() {
    const methods = [["cash", "Cash"], ["card", "Card"], ["other", "Other"]];
    return [
      el("div", { class: "field" }, el("label", { for: "tip" }, "Tip"), el("input", { id: "tip", name: "tip", inputmode: "decimal", placeholder: "0.00", autocomplete: "off" })),
      el("fieldset", { class: "field payment" }, el("legend", {}, "Payment"),
        el("div", { class: "segmented" }, ...methods.map(([value, label], index) => el("label", { class: "segment" },
          el("input", { type: "radio", name: "paymentMethod", value, id: `pay-${value}`, checked: index === 0 }), el("span", {}, label))))),
    ];
  }

  // ---------- contact ----------
  function setContact(value) {
    contact = value;
    contactName.textContent = value ? value.name : `No ${k.party.toLowerCase()}`;
    contactName.classList.toggle("muted", !value);
    contactClear.hidden = !value;
    contactButton.lastChild.textContent = value ? "Change" : `Choose ${k.party.toLowerCase()}`;
  }
  contactButton.addEventListener("click", async () => {
    const chosen = await pickContact(k.contacts, { canAdd: canEditCatalogue });
    if (chosen) { setContact(chosen); announce(`${k.party}: ${chosen.name}`); }
    contactButton.focus();
  });
  contactClear.addEventListener("click", () => { setContact(null); contactButton.focus(); });
  setContact(null);

  // ---------- lines ----------
  productSearch(searchInput, {
    keepFocus: !isPurchase,   // a sale goes on scanning; a purchase line wants its quantity and cost next
    onPick: (product) => {
      // On a sale, scanning the same product again adds one to its line; a purchase gets a new line (another lot).
      const same = isPurchase ? null : lines.find((line) => line.product?.id === product.id);
      if (!same) return addLine(product);
      const input = same.node.querySelector("[data-role=quantity]");
      const q = parseQuantity(input.value) ?? 0n;
      input.value = quantityValue(q + 1000n);
      recompute();
      announce(`${product.name}: ${input.value}`);
      return same;
    },
    onUnknownBarcode: (code) => {
      if (isPurchase && canEditCatalogue) {
        const line = addLine(null, { isNew: true, barcode: code });
        toast(`No product has the barcode ${code}: fill in the new product`);
        line.node.querySelector("[data-role=name]")?.focus();
      } else {
        fieldError(form, "product-search", `No product has the barcode ${code}.`);
      }
    },
    extra: (text) => (isPurchase && canEditCatalogue && text ? [{ label: `New product “${text}”`, run: () => {
      const code = looksLikeBarcode(text);
      const line = addLine(null, { isNew: true, name: code ? "" : text, barcode: code ? typedBarcode(text) : "" });
      line.node.querySelector("[data-role=quantity]")?.focus();
    } }] : []),
  });

  function field(line, role, label, attributes = {}, { wide = false, hint = null } = {}) {
    const id = `line-${line.key}-${role}`;
    const input = el(attributes.tag ?? "input", { id, "data-role": role, autocomplete: "off", ...attributes, tag: undefined });
    return el("div", { class: `field${wide ? " wide" : ""}`, "data-field": role }, el("label", { for: id }, label), input, hint ? el("div", { class: "hint" }, hint) : null);
  }

  function addLine(product, { isNew = false, name = "", barcode = "", values = {}, originalLine = null } = {}) {
    clearErrors(form);
    const line = { key: ++lineCounter, product, isNew, original: originalLine };
    const unit = product?.unit ?? "pcs";
    const title = el("span", { class: "title" }, isNew ? "New product" : product.name);
    const sub = el("span", { class: "sub line-stock" });
    const remove = el("button", { type: "button", class: "btn-icon btn-small line-remove", "aria-label": `Remove ${isNew ? "the new product" : product.name}` }, icon("trash"));
    const node = el("fieldset", { class: "doc-line", "data-key": line.key, "data-product-id": product?.id ?? "" },
      el("legend", { class: "sr-only" }, isNew ? "New product" : product.name),
      el("div", { class: "line-head" }, productThumb(product), el("div", { class: "main" }, title, sub), remove));
    const grid = el("div", { class: "line-grid" });
    if (isNew) {
      grid.append(
        field(line, "name", "Product name", { value: name, required: true, maxlength: 200 }, { wide: true }),
        field(line, "barcode", "Barcode (optional)", { value: barcode, inputmode: "numeric" }),
        field(line, "sku", "SKU (optional)", { maxlength: 64 }),
        field(line, "unit", "Unit", { value: "pcs", maxlength: 20 }));
    }
    grid.append(field(line, "quantity", isNew ? "Quantity" : `Quantity (${unit})`, { inputmode: "decimal", value: values.quantity ?? (isPurchase ? "" : "1"), required: true }));
    if (isPurchase) {
      grid.append(
        field(line, "unitCost", "Cost price", { inputmode: "decimal", value: values.unitCost ?? "", required: true }),
        field(line, "salePrice", "Sale price", { inputmode: "decimal", value: values.salePrice ?? product?.salePrice ?? "", readonly: !isNew && !canEditCatalogue },
          { hint: !isNew && !canEditCatalogue ? "Only a manager changes prices." : null }));
      const cogsId = `line-${line.key}-cogs`;
      grid.append(el("div", { class: "field", "data-field": "cogs" }, el("label", { for: cogsId }, "Final cost"),
        el("output", { id: cogsId, class: "line-cogs", "aria-live": "polite" }, "—"),
        el("div", { class: "hint" }, "Average cost (COGS) after this purchase")));
      grid.append(
        field(line, "lotCode", "Lot code", { value: values.lotCode ?? "", maxlength: 64 }),
        field(line, "expiryDate", "Expiry date", { type: "date", value: values.expiryDate ?? "" }));
    } else {
      grid.append(
        field(line, "unitPrice", "Price (each)", { inputmode: "decimal", value: values.unitPrice ?? product.salePrice, required: true },
          { hint: product.minimumSalePrice ? `Minimum ${money(product.minimumSalePrice)}` : null }),
        field(line, "discount", "Line discount", { inputmode: "decimal", value: values.discount && !isZero(values.discount) ? values.discount : "", placeholder: "0.00" }));
    }
    const lineTotal = el("output", { class: "line-total num", id: `line-${line.key}-total` }, "—");
    node.append(grid, el("div", { class: "line-foot" }, el("span", { class: "muted" }, "Line total"), lineTotal));
    line.node = node;
    line.sub = sub;
    line.lineTotal = lineTotal;
    remove.addEventListener("click", () => {
      lines.splice(lines.indexOf(line), 1);
      node.remove();
      renumber(); recompute();
      announce(`Removed ${isNew ? "the new product" : product.name}`);
      searchInput.focus();
    });
    node.addEventListener("input", (event) => {
      if (event.target.getAttribute("aria-invalid") === "true") {
        event.target.removeAttribute("aria-invalid");
        const box = event.target.closest(".field")?.querySelector(".field-error");
        if (box) box.textContent = "";
      }
      if (event.target.dataset.role === "name") title.textContent = event.target.value.trim() || "New product";
      recompute();
    });
    lines.push(line);
    linesBox.append(node);
    renumber(); recompute();
    if (!isNew && product) announce(`Added ${product.name}`);
    if (isPurchase && !values.quantity && lineCounter > 0 && document.activeElement === searchInput) {
      node.querySelector(`[data-role=${isNew ? "name" : "quantity"}]`)?.focus();
    }
    return line;
  }

  /** Names the controls after the API's fields (lines[2].quantity …) so refusals land on them. */
  function renumber() {
    lines.forEach((line, index) => {
      for (const input of line.node.querySelectorAll("[data-role]")) {
        const role = input.dataset.role;
        const name = ["name", "barcode", "sku", "unit"].includes(role) ? `lines[${index}].newProduct.${role}` : `lines[${index}].${role}`;
        input.setAttribute("name", name);
      }
      line.node.querySelector("legend").textContent = `Line ${index + 1}: ${line.isNew ? "new product" : line.product.name}`;
    });
    emptyLines.hidden = lines.length > 0;
  }

  const value = (line, role) => line.node.querySelector(`[data-role=${role}]`)?.value.trim() ?? "";

  /** Stock a product holds before this document (when editing, this document's own lines are taken back out). */
  function baseFor(product) {
    const base = { quantity: parseQuantity(product?.quantity ?? "0") ?? 0n };
    if (editing && original) {
      for (const old of original.lines) {
        if (old.productId !== product.id) continue;
        const q = parseQuantity(old.quantity) ?? 0n;
        base.quantity += isPurchase ? -q : q;
      }
    }
    return base;
  }

  // ---------- live figures: the server's dry run ----------
  /** Shows what can be known without the server (stock notes), then asks the server for the figures. */
  function recompute() {
    const running = new Map();   // product id → stock the sale lines so far leave
    for (const line of lines) {
      if (line.isNew) continue;
      const base = baseFor(line.product);
      if (isPurchase) {
        line.sub.textContent = line.product.tracksStock
          ? `In stock ${quantityValue(base.quantity)} ${line.product.unit} · average cost ${money(line.product.costPrice)}`
          : `Stock not tracked · average cost ${money(line.product.costPrice)}`;
        continue;
      }
      const q = parseQuantity(value(line, "quantity"));
      const left = running.has(line.product.id) ? running.get(line.product.id) : base.quantity;
      running.set(line.product.id, left - (q ?? 0n));
      line.available = left;
      line.sub.textContent = line.product.tracksStock
        ? `In stock ${quantityValue(base.quantity)} ${line.product.unit}${line.product.allowsNegativeStock ? " · may go below zero" : ""}`
        : "Stock not tracked";
      line.sub.classList.toggle("line-stock-low", line.product.tracksStock && q !== null && q > left && !line.product.allowsNegativeStock);
    }
    totals.setAttribute("aria-busy", "true");
    schedulePreview();
    saveDraft();
  }

  /** The lines whose inputs are complete, as a dry-run body, with the form line each stands for. */
  function previewRequest() {
    const request = body();
    const sent = [], entries = [];
    request.lines.forEach((entry, index) => {
      const line = lines[index];
      const q = parseQuantity(entry.quantity);
      const amount = parseMoney(isPurchase ? entry.unitCost : entry.unitPrice);
      const discount = parseMoney(entry.discount ?? "0");
      if (q === null || q <= 0n || amount === null || amount < 0n || discount === null || discount < 0n) return;
      if (entry.newProduct) {
        // Only the figures matter here: a name still being typed, or a barcode, must not refuse the preview.
        entry.newProduct = { name: entry.newProduct.name || "New product", unit: entry.newProduct.unit };
      }
      sent.push(line);
      entries.push(entry);
    });
    request.lines = entries;
    if (!isPurchase && request.tip !== undefined && (parseMoney(request.tip) ?? -1n) < 0n) delete request.tip;
    return { request, sent };
  }

  let previewSequence = 0;
  const schedulePreview = debounce(runPreview, 200);

  async function runPreview() {
    const sequence = ++previewSequence;
    const { request, sent } = previewRequest();
    let figures = null;
    if (sent.length) {
      try {
        figures = await api(editing ? "PUT" : "POST", `/api/v1/${k.path}${editing ? `/${id}` : ""}?dryRun=true`, request, { quiet: true });
      } catch {
        figures = null;   // a refusal is shown when saving; the preview just has no figures
      }
    }
    if (sequence !== previewSequence) return;   // an older answer arriving late
    showFigures(figures, sent);
  }

  /** Puts the server's figures on the lines and in the totals ("—" where there are none). */
  function showFigures(figures, sent) {
    for (const line of lines) {
      const index = figures ? sent.indexOf(line) : -1;
      const booked = index >= 0 ? figures.lines[index] : null;
      const amount = booked ? (isPurchase ? booked.amount : booked.revenue) : null;
      line.lineTotal.textContent = amount !== null ? money(amount) : "—";
      if (isPurchase) {
        const output = line.node.querySelector(".line-cogs");
        output.textContent = booked ? money(booked.averageCostAfter) : "—";
        output.dataset.value = booked ? booked.averageCostAfter : "";
      }
    }
    const rows = [];
    const dash = (text) => (figures ? money(text) : "—");
    if (isPurchase) {
      rows.push(["Total", dash(figures?.total), "doc-total"]);
    } else {
      rows.push(["Subtotal", dash(figures?.revenue), "doc-subtotal"], ["Tax", dash(figures?.tax), "doc-tax"]);
      if (figures && (parseMoney(figures.tip) ?? 0n) > 0n) rows.push(["Tip", money(figures.tip), "doc-tip"]);
      rows.push(["Total", dash(figures?.total), "doc-total"]);
    }
    totals.replaceChildren(...rows.flatMap(([label, amount, id]) => {
      const grand = id === "doc-total" ? "grand" : "";
      return [el("dt", { class: grand }, label), el("dd", { class: `num ${grand}`, id }, amount)];
    }));
    totals.removeAttribute("aria-busy");
  }
  form.elements.tip?.addEventListener("input", recompute);

  // ---------- checking and saving ----------
  function check() {
    clearErrors(form);
    let ok = true;
    const bad = (name, message) => { fieldError(form, name, message); ok = false; };
    if (!lines.length) bad("product-search", "Add at least one product.");
    lines.forEach((line, index) => {
      const n = (role) => line.isNew && ["name", "barcode", "sku", "unit"].includes(role) ? `lines[${index}].newProduct.${role}` : `lines[${index}].${role}`;
      if (line.isNew && !value(line, "name")) bad(n("name"), "Enter the product's name.");
      const q = parseQuantity(value(line, "quantity"));
      if (q === null || q <= 0n) bad(n("quantity"), "Enter a quantity above zero (at most 3 decimals).");
      if (isPurchase) {
        const h = parseMoney(value(line, "unitCost"));
        if (h === null || h < 0n) bad(n("unitCost"), `Enter the cost price, e.g. 2.50 (at most ${minorUnits()} decimals).`);
        const sale = value(line, "salePrice");
        if (sale && (parseMoney(sale) === null || parseMoney(sale) < 0n)) bad(n("salePrice"), "Enter a price such as 3.20.");
        else if (sale && !line.isNew && line.product.minimumSalePrice && parseMoney(sale) < parseMoney(line.product.minimumSalePrice)) {
          bad(n("salePrice"), `Not below the minimum sale price ${money(line.product.minimumSalePrice)}.`);
        }
      } else {
        const p = parseMoney(value(line, "unitPrice"));
        const d = parseMoney(value(line, "discount") || "0");
        if (p === null || p < 0n) bad(n("unitPrice"), "Enter a price such as 3.20.");
        else if (!canBelowMinimum && line.product.minimumSalePrice && p < parseMoney(line.product.minimumSalePrice)) {
          bad(n("unitPrice"), `Below the minimum price ${money(line.product.minimumSalePrice)}: a manager must approve it.`);
          offerManager(line);
        }
        // Whether the discount is more than the line is the server's to say (it rounds price × quantity).
        if (d === null || d < 0n) bad(n("discount"), "Enter a discount such as 0.50, or leave it empty.");
        if (q !== null && line.product.tracksStock && !line.product.allowsNegativeStock && q > line.available) {
          bad(n("quantity"), `Not enough in stock: only ${quantityValue(line.available < 0n ? 0n : line.available)} ${line.product.unit} left.`);
        }
      }
    });
    if (!isPurchase) {
      const tip = form.elements.tip.value.trim();
      if (tip && (parseMoney(tip) === null || parseMoney(tip) < 0n)) bad("tip", "Enter a tip such as 1.00, or leave it empty.");
    }
    if (!ok) {
      announce("Please correct the marked fields.", { assertive: true });
      form.querySelector('[aria-invalid="true"]')?.focus();
    }
    return ok;
  }

  function offerManager(line) {
    const holder = line.node.querySelector('[data-field="unitPrice"]');
    if (holder.querySelector(".manager-offer")) return;
    holder.append(el("button", { type: "button", class: "btn-small manager-offer", onclick: async () => {
      saveDraft(true);
      try { await api("POST", "/api/v1/auth/lock"); } catch { /* go anyway */ }
      goToLock();
    } }, icon("lock"), "Lock till and switch to a manager"));
  }

  function body() {
    const result = { lines: [] };
    if (contact) result[k.contactKey] = contact.id;
    const note = noteInput.value.trim();
    if (note || editing) result.note = note;
    // Untouched, a new document is dated by the server (now, to the second) and an edited one keeps its exact time.
    if (dateTouched && dateInput.value) result.effectiveAt = dateInput.value;
    else if (editing) result.effectiveAt = original.effectiveAt;
    for (const line of lines) {
      const entry = { quantity: value(line, "quantity") };
      if (isPurchase) {
        if (line.isNew) {
          const product = { name: value(line, "name"), unit: value(line, "unit") || "pcs" };
          for (const role of ["barcode", "sku", "salePrice"]) if (value(line, role)) product[role] = value(line, role);
          entry.newProduct = product;
        } else entry.productId = line.product.id;
        entry.unitCost = value(line, "unitCost");
        if (value(line, "lotCode")) entry.lotCode = value(line, "lotCode");
        if (value(line, "expiryDate")) entry.expiryDate = value(line, "expiryDate");
      } else {
        entry.productId = line.product.id;
        entry.unitPrice = value(line, "unitPrice");
        if (value(line, "discount")) entry.discount = value(line, "discount");
      }
      result.lines.push(entry);
    }
    if (!isPurchase) {
      const tip = form.elements.tip.value.trim();
      if (tip) result.tip = tip;
      result.paymentMethod = form.querySelector('[name="paymentMethod"]:checked')?.value ?? "cash";
    }
    return result;
  }

  let saving = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (saving || !check()) return;
    saving = true; submit.disabled = true;
    try {
      const saved = await api(editing ? "PUT" : "POST", editing ? `/api/v1/${k.path}/${id}` : `/api/v1/${k.path}`, body());
      if (isPurchase && canEditCatalogue) await updateSalePrices();
      clearDraft();
      toast(`${k.noun[0].toUpperCase() + k.noun.slice(1)} saved`);
      location.assign(`/app/${k.path}/${saved.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) { showProblem(form, error); }
      else {
        showProblem(form, error);
        const line = lines[Number(/^lines\[(\d+)\]\.unitPrice$/.exec(error.field ?? "")?.[1] ?? -1)];
        if (line && !canBelowMinimum && error.status !== 0) offerManager(line);
      }
    } finally {
      saving = false; submit.disabled = false;
    }
  });

  /** A sale price typed on a purchase line that differs from the product's becomes the product's new price. */
  async function updateSalePrices() {
    const done = new Set();
    for (const line of lines) {
      if (line.isNew || done.has(line.product.id)) continue;
      const typed = parseMoney(value(line, "salePrice"));
      if (typed === null || typed === parseMoney(line.product.salePrice)) continue;
      done.add(line.product.id);
      try {
        // A merge patch: only the price changes; the barcode, SKU, category and the rest stay as they are.
        await api("PATCH", `/api/v1/products/${line.product.id}`, { salePrice: moneyValue(typed) },
          { headers: { "Content-Type": "application/merge-patch+json" } });
      } catch (error) {
        toast(`The purchase is saved, but ${line.product.name}'s sale price was not changed: ${error.message}`);
      }
    }
  }

  // ---------- a draft survives switching to a manager (the lock screen comes back to this page) ----------
  function saveDraft(force = false) {
    if (!force && !sessionStorage.getItem(draftKey)) return;
    const state = {
      contact, note: noteInput.value, date: dateTouched ? dateInput.value : null,
      tip: form.elements.tip?.value ?? "", payment: form.querySelector('[name="paymentMethod"]:checked')?.value,
      lines: lines.map((line) => ({ product: line.product, isNew: line.isNew, values: Object.fromEntries(
        [...line.node.querySelectorAll("[data-role]")].map((input) => [input.dataset.role, input.value])) })),
    };
    try { sessionStorage.setItem(draftKey, JSON.stringify(state)); } catch { /* private mode */ }
  }
  function clearDraft() { try { sessionStorage.removeItem(draftKey); } catch { /* ignore */ } }
  function restoreDraft() {
    let state = null;
    try { state = JSON.parse(sessionStorage.getItem(draftKey) ?? "null"); } catch { state = null; }
    if (!state) return false;
    clearDraft();
    if (state.contact) setContact(state.contact);
    noteInput.value = state.note ?? "";
    if (state.date) { dateInput.value = state.date; dateTouched = true; }
    if (form.elements.tip) form.elements.tip.value = state.tip ?? "";
    if (state.payment) form.querySelector(`[name="paymentMethod"][value="${state.payment}"]`)?.click();
    for (const saved of state.lines) {
      const line = addLine(saved.product, { isNew: saved.isNew, name: saved.values.name ?? "", barcode: saved.values.barcode ?? "", values: saved.values });
      for (const [role, text] of Object.entries(saved.values)) { const input = line.node.querySelector(`[data-role=${role}]`); if (input) input.value = text; }
    }
    recompute();
    toast("Your unsaved lines are back.");
    return true;
  }

  // ---------- a draft from the reorder screen: the server's suggestion for one supplier, to review and save ----------
  async function fillFromReorder() {
    const wanted = query("reorder");
    const terms = new URLSearchParams({ window: query("window") ?? "", cover: query("cover") ?? "" });
    if (/^\d+$/.test(wanted)) terms.set("supplierId", wanted);
    let suggestion;
    try { suggestion = await api("GET", `/api/v1/reorder?${terms}`); }
    catch (error) { toast(error.message); return; }
    const group = suggestion.groups.find((g) => String(g.supplierId ?? "none") === wanted);
    if (!group) { toast("Nothing to reorder from this supplier now."); return; }
    if (group.supplierId) setContact({ id: group.supplierId, name: group.supplierName });
    noteInput.value = `Reorder: ${suggestion.window} days of sales, ${suggestion.cover} days of cover`;
    const products = await Promise.all(group.lines.map((line) => api("GET", `/api/v1/products/${line.productId}`).catch(() => null)));
    group.lines.forEach((line, index) => {
      if (!products[index]) return;
      // The average cost is only there for those who may see costs; otherwise the cost is left for them to type.
      addLine(products[index], { values: { quantity: line.quantity, unitCost: line.averageCost && !isZero(line.averageCost) ? line.averageCost : "" } });
    });
    announce(`Draft purchase with ${group.lines.length} line${group.lines.length === 1 ? "" : "s"}: check it and save.`);
  }

  // ---------- load ----------
  if (editing) {
    try {
      original = await api("GET", `/api/v1/${k.path}/${id}`);
    } catch (error) {
      container.replaceChildren(el("p", { class: "banner banner-error", role: "alert" }, error.message),
        el("a", { class: "btn", href: `/app/${k.path}` }, `Back to ${k.path}`));
      return;
    }
  }
  if (restoreDraft()) { searchInput.focus(); return; }
  if (editing) {
    if (original[k.contactKey]) setContact({ id: original[k.contactKey], name: original[k.contactName] ?? `#${original[k.contactKey]}` });
    noteInput.value = original.note ?? "";
    dateInput.value = localInput(original.effectiveAt);
    if (!isPurchase) {
      if (original.tip && !isZero(original.tip)) form.elements.tip.value = original.tip;
      form.querySelector(`[name="paymentMethod"][value="${original.paymentMethod}"]`)?.click();
    }
    const products = new Map();
    await Promise.all([...new Set(original.lines.map((line) => line.productId))].map(async (productId) => {
      try { products.set(productId, await api("GET", `/api/v1/products/${productId}`)); } catch { /* shown below */ }
    }));
    for (const old of original.lines) {
      const product = products.get(old.productId);
      if (!product) continue;
      addLine(product, { values: isPurchase
        ? { quantity: old.quantity, unitCost: old.unitCost, lotCode: old.lotCode, expiryDate: old.expiryDate }
        : { quantity: old.quantity, unitPrice: old.unitPrice, discount: old.discount } });
    }
  } else if (isPurchase && query("reorder")) {
    await fillFromReorder();
  } else if (query("product")) {
    try { addLine(await api("GET", `/api/v1/products/${encodeURIComponent(query("product"))}`)); }
    catch (error) { toast(error.message); }
  }
  recompute();
  (lines.length ? lines[0].node.querySelector("[data-role=quantity]") : searchInput)?.focus();
}
