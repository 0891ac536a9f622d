// Pickers shared by purchases, sales and the stock count: a product search box (name, SKU or barcode; a typed or
// scanner-typed barcode + Enter looks the code up) and a contact sheet (search suppliers or customers, or add one).
import { api, el, icon, debounce, announce, ApiError, showProblem, clearErrors, fieldError } from "/static/js/app.js";
import { sheet } from "/static/js/documents-common.js";
import { looksLikeBarcode, productByBarcode, typedBarcode } from "/static/js/shared/barcode.js";
import { money, quantity } from "/static/js/shared/format.js";
import { productThumb } from "/static/js/shared/thumbs.js";

/**
 * Makes `input` a product search (a combobox): results appear under it, arrows move, Enter or a tap picks.
 * A barcode + Enter picks the product with that code at once; an unknown code calls `onUnknownBarcode(code)`.
 * `extra(text)` may return more options shown after the results (e.g. "New product 'text'").
 */
export function productSearch(input, { onPick, onUnknownBarcode, extra, keepFocus = true } = {}) {
  const listId = `${input.id}-results`;
  const list = el("ul", { id: listId, class: "picker-results", role: "listbox", "aria-label": "Matching products", hidden: true });
  input.after(list);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", listId);
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("autocomplete", "off");
  let items = [];
  let active = -1;
  let seq = 0;

  const close = () => {
    list.hidden = true; list.replaceChildren(); items = []; active = -1;
    input.setAttribute("aria-expanded", "false"); input.removeAttribute("aria-activedescendant");
  };
  const choose = async (item) => {
    close();
    input.value = "";
    await item.run();
    if (keepFocus) input.focus();
  };
  const highlight = (index) => {
    active = index;
    list.querySelectorAll("[role=option]").forEach((node, i) => node.setAttribute("aria-selected", i === index ? "true" : "false"));
    const node = list.children[index];
    if (node) { input.setAttribute("aria-activedescendant", node.id); node.scrollIntoView({ block: "nearest" }); }
  };
  const show = (products, text) => {
    items = products.map((product) => ({ label: product.name, product, run: () => onPick(product) }));
    for (const option of extra?.(text) ?? []) items.push(option);
    list.replaceChildren(...items.map((item, index) => el("li", {
      id: `${listId}-${index}`, role: "option", "aria-selected": "false",
      onmousedown: (event) => event.preventDefault(), onclick: () => choose(item),
    }, item.product ? productThumb(item.product) : el("span", { class: "thumb", "aria-hidden": "true" }, icon("plus")),
      el("span", { class: "main" }, el("span", { class: "title" }, item.label),
        item.product ? el("span", { class: "sub" }, [item.product.sku, item.product.barcode].filter(Boolean).join(" · ") || " ") : null),
      item.product ? el("span", { class: "num sub" }, `${item.product.tracksStock ? quantity(item.product.quantity) + " " + item.product.unit : "not tracked"} · ${money(item.product.salePrice)}`) : null)));
    if (!items.length) list.append(el("li", { class: "picker-empty" }, "No product matches."));
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    announce(`${products.length} product${products.length === 1 ? "" : "s"} found`);
  };
  const search = debounce(async () => {
    const text = input.value.trim();
    const mine = ++seq;
    if (!text) { close(); return; }
    try {
      const page = await api("GET", `/api/v1/products?search=${encodeURIComponent(text)}&limit=8`, null, { quiet: true });
      if (mine === seq && input.value.trim() === text) show(page.items, text);
    } catch { /* the banner says when the server is gone */ }
  }, 180);

  input.addEventListener("input", search);
  input.addEventListener("blur", () => setTimeout(close, 150));
  input.addEventListener("keydown", async (event) => {
    if (event.key === "ArrowDown" && items.length) { event.preventDefault(); highlight(Math.min(items.length - 1, active + 1)); }
    else if (event.key === "ArrowUp" && items.length) { event.preventDefault(); highlight(Math.max(0, active - 1)); }
    else if (event.key === "Escape") { if (!list.hidden) { event.preventDefault(); event.stopPropagation(); close(); } }
    else if (event.key === "Enter") {
      event.preventDefault();
      const text = input.value.trim();
      if (active >= 0 && items[active]) { choose(items[active]); return; }
      if (!text) return;
      seq++;
      if (looksLikeBarcode(text)) {
        const code = typedBarcode(text);
        let product;
        try {
          product = await productByBarcode(code);
        } catch (error) {
          // Not a barcode (a wrong check digit): the server's reason, on the search field.
          if (error instanceof ApiError && error.status > 0) {
            fieldError(input.closest("form, .card") ?? input.parentElement, input.name, error.message);
            announce(error.message, { assertive: true });
          }
          return;
        }
        close(); input.value = "";
        if (!product) {
          announce(`No product has the barcode ${code}`, { assertive: true });
          onUnknownBarcode?.(code);
          return;
        }
        announce(`Found ${product.name}`);
        await onPick(product);
        if (keepFocus) input.focus();
        return;
      }
      try {
        const page = await api("GET", `/api/v1/products?search=${encodeURIComponent(text)}&limit=8`);
        if (page.items.length === 1) { close(); input.value = ""; await onPick(page.items[0]); if (keepFocus) input.focus(); }
        else show(page.items, text);
      } catch { /* shown by the banner */ }
    }
  });
  return { close };
}

/**
 * A sheet to choose a supplier or customer: search as you type, tap to choose, or add a new one right there.
 * `kind` is "suppliers" or "customers". Resolves the chosen contact, or null when closed.
 */
export function pickContact(kind, { canAdd = true } = {}) {
  const noun = kind === "suppliers" ? "supplier" : "customer";
  return new Promise((resolve) => {
    let chosen = null;
    const s = sheet(`Choose a ${noun}`);
    const searchId = `contact-search-${noun}`;
    const search = el("input", { type: "search", id: searchId, autocomplete: "off", placeholder: "Name, phone or e-mail" });
    const list = el("ul", { class: "list contact-list", "aria-label": `${noun}s`, "aria-live": "polite" });
    const newName = el("input", { id: `new-${noun}-name`, name: "name", autocomplete: "off", required: true });
    const newPhone = el("input", { id: `new-${noun}-phone`, name: "phone", type: "tel", autocomplete: "off" });
    const addForm = el("form", { class: "contact-new", novalidate: true, "aria-labelledby": `new-${noun}-heading` },
      el("h3", { id: `new-${noun}-heading` }, `New ${noun}`),
      el("div", { class: "form-grid" },
        el("div", { class: "field" }, el("label", { for: newName.id }, "Name"), newName),
        el("div", { class: "field" }, el("label", { for: newPhone.id }, "Phone (optional)"), newPhone)),
      el("div", { class: "form-actions" }, el("button", { type: "submit", class: "primary", id: `new-${noun}-save` }, icon("plus"), `Add ${noun}`)));
    s.body.append(el("div", { class: "field search" }, el("label", { for: searchId, class: "sr-only" }, `Search ${noun}s`), icon("search"), search), list);
    if (canAdd) s.body.append(addForm);
    s.foot.append(el("button", { type: "button", onclick: () => s.close() }, "Cancel"));
    const pick = (contact) => { chosen = contact; s.close(); };
    const load = async () => {
      const text = search.value.trim();
      try {
        const contacts = await api("GET", `/api/v1/${kind}${text ? "?search=" + encodeURIComponent(text) : ""}`, null, { quiet: true });
        const items = (Array.isArray(contacts) ? contacts : contacts.items ?? []).slice(0, 50);
        list.replaceChildren(...(items.length ? items.map((contact) => el("li", {},
          el("button", { type: "button", class: "contact-option", "data-contact-id": contact.id, onclick: () => pick(contact) },
            el("span", { class: "title" }, contact.name),
            el("span", { class: "sub" }, [contact.phone, contact.location].filter(Boolean).join(" · "))))) :
          [el("li", { class: "empty" }, text ? `No ${noun} matches “${text}”.` : `No ${noun}s yet.`)]));
        if (text && !items.length && !newName.value) newName.value = text;
      } catch { /* banner */ }
    };
    search.addEventListener("input", debounce(load, 180));
    addForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors(addForm);
      const name = newName.value.trim();
      if (!name) { fieldError(addForm, "name", "Enter a name."); newName.focus(); return; }
      const body = { name };
      if (newPhone.value.trim()) body.phone = newPhone.value.trim();
      try {
        pick(await api("POST", `/api/v1/${kind}`, body));
      } catch (error) { showProblem(addForm, error); }
    });
    s.dialog.addEventListener("close", () => resolve(chosen));
    s.open();
    load();
    search.focus();
  });
}
