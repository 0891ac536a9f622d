// The list of purchases or sales (cards with paging) and a document's detail sheet: its lines, Edit, Delete
// (deleteTransactions), and returns — a customer return from a sale (refund), a supplier return from a purchase.
import { api, el, icon, announce, toast, confirmDialog, showProblem, clearErrors, fieldError, onLiveEvents } from "/static/js/app.js";
import { flag, sheet, query } from "/static/js/documents-common.js";
import { money, quantity, isZero, parseQuantity, quantityValue } from "/static/js/shared/format.js";
import { dateTime, localInput } from "/static/js/shared/dates.js";

const PAGE_SIZE = 20;
const KINDS = {
  purchase: { path: "purchases", noun: "purchase", party: "Supplier", nobody: "No supplier", empty: "No purchases yet. Record a delivery with the + button." },
  sale: { path: "sales", noun: "sale", party: "Customer", nobody: "Walk-in customer", empty: "No sales yet. Sell from the till, or record one with the + button." },
};

/** Renders the list into `container` and opens the detail sheet of `openId` when given. */
export async function documentList(kind, container, openId = null) {
  const k = KINDS[kind];
  const pageNumber = Math.max(1, Number.parseInt(query("page") ?? "1", 10) || 1);
  const offset = (pageNumber - 1) * PAGE_SIZE;
  const list = el("ul", { class: "doc-cards", id: "doc-list", "aria-label": `${k.path[0].toUpperCase() + k.path.slice(1)}` });
  const pager = el("nav", { class: "pager", "aria-label": "Pages" });
  // Sales can be found by receipt number, customer, product and dates: the server decides what matches (SaleQuery).
  const filters = kind === "sale" ? SALE_FILTERS.filter((name) => query(name)) : [];
  const finder = kind === "sale" ? saleFinder() : null;
  container.replaceChildren(...[finder, list, pager].filter(Boolean));
  list.append(el("li", { class: "empty" }, "Loading…"));
  let items = [];
  try {
    const params = new URLSearchParams({ limit: String(PAGE_SIZE + 1), offset: String(offset) });
    for (const name of filters) params.set(name, query(name));
    items = await api("GET", `/api/v1/${k.path}?${params}`);
  } catch (error) {
    if (finder && error.problem?.field) {
      showProblem(finder, error);
      list.replaceChildren(el("li", { class: "empty" }, "Correct the search to see sales."));
    } else {
      list.replaceChildren(el("li", { class: "empty" }, `Could not load the ${k.path}: ${error.message}`));
    }
    return;
  }
  const more = items.length > PAGE_SIZE;
  items = items.slice(0, PAGE_SIZE);
  list.replaceChildren(...(items.length ? items.map((doc) => el("li", {},
    el("a", { class: "doc-card", href: `/app/${k.path}/${doc.id}`, "data-doc-id": doc.id, onclick: (event) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      openDetail(kind, doc.id, true);
    } },
      el("span", { class: "doc-card-top" },
        el("span", { class: "title doc-party" }, doc.receiptNumber ? el("span", { class: "doc-receipt" }, `#${doc.receiptNumber} `) : null, doc.partyName || k.nobody),
        el("span", { class: "num doc-total" }, money(doc.total))),
      el("span", { class: "doc-card-sub" },
        el("span", {}, dateTime(doc.effectiveAt)),
        el("span", { class: "num" }, `${doc.lineCount} line${doc.lineCount === 1 ? "" : "s"}`)),
      doc.note ? el("span", { class: "doc-note" }, doc.note) : null)))
    : [el("li", { class: "empty" }, pageNumber > 1 ? "No more on this page." : filters.length ? "No sale matches this search." : k.empty)]));
  const href = (n) => {
    const params = new URLSearchParams();
    for (const name of filters) params.set(name, query(name));
    if (n > 1) params.set("page", String(n));
    return `/app/${k.path}${params.size ? "?" + params : ""}`;
  };
  const link = (n, label, rel) => el("a", { class: "btn btn-small", href: href(n), rel }, label);
  pager.replaceChildren(
    pageNumber > 1 ? link(pageNumber - 1, "← Newer", "prev") : el("span"),
    el("span", { class: "muted" }, `Page ${pageNumber}`),
    more ? link(pageNumber + 1, "Older →", "next") : el("span"));
  pager.hidden = pageNumber === 1 && !more;
  if (openId) openDetail(kind, openId, false);
}

/** The query parameters of the sales search, as the API names them. */
const SALE_FILTERS = ["search", "from", "to"];

/** The sales search: words (receipt number, customer, product, note) and a date range; submitting reloads the list
 * with them in the address, so a search can be bookmarked and the back button works. */
function saleFinder() {
  const field = (name, label, attributes) => el("div", { class: `field${name === "search" ? " grow" : ""}` },
    el("label", { for: `sales-${name}` }, label),
    el("input", { id: `sales-${name}`, name, value: query(name) ?? "", ...attributes }));
  const form = el("form", { class: "toolbar sales-finder", id: "sales-finder", role: "search", "aria-label": "Find sales", novalidate: "" },
    el("div", { class: "form-error banner banner-error", role: "alert" }),
    field("search", "Receipt no., customer or product", { type: "search", autocomplete: "off", enterkeyhint: "search", placeholder: "#12, Ada, espresso…" }),
    field("from", "From", { type: "date" }),
    field("to", "To", { type: "date" }),
    el("button", { type: "submit", class: "btn", id: "sales-find" }, icon("search"), "Find"),
    SALE_FILTERS.some((name) => query(name)) ? el("a", { class: "btn btn-small", href: "/app/sales", id: "sales-clear" }, "Clear") : null);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearErrors(form);
    const params = new URLSearchParams();
    for (const name of SALE_FILTERS) {
      const value = form.elements[name].value.trim();
      if (value) params.set(name, value);
    }
    location.assign(`/app/sales${params.size ? "?" + params : ""}`);
  });
  return form;
}

/** What a live `sale` event's activity kind tells the screen reader. */
const SALE_NEWS = {
  saleRecorded: "A new sale came in",
  saleChanged: "A sale was changed",
  saleDeleted: "A sale was deleted",
  salesImported: "Sales were imported",
};

/** The first page of sales follows the tills live (a sale elsewhere appears without a reload). */
export function followLiveSales(container) {
  if (Number.parseInt(query("page") ?? "1", 10) > 1) return;
  let timer = null;
  let news = null;
  onLiveEvents((type, event) => {
    // Several changes in a burst are announced once, by the last one's kind; a reconnect reads the list silently.
    news = type === "resync" ? null : SALE_NEWS[event?.kind] ?? "The sales changed";
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (document.querySelector("dialog[open]")) return;
      await documentList("sale", container, null);
      if (news) announce(news);
    }, 400);
  }, ["sale"]);
}

/** The detail sheet of one document. */
export async function openDetail(kind, id, push) {
  const k = KINDS[kind];
  let doc;
  try { doc = await api("GET", `/api/v1/${k.path}/${id}`); }
  catch (error) { toast(error.message); return; }
  if (push) history.pushState({ id }, "", `/app/${k.path}/${id}`);
  const isSale = kind === "sale";
  const s = sheet(`${isSale ? "Sale" : "Purchase"} #${doc.id}`, { wide: true });
  s.dialog.id = "doc-detail";
  s.dialog.addEventListener("close", () => {
    if (location.pathname !== `/app/${k.path}`) history.replaceState({}, "", `/app/${k.path}${location.search}`);
  });
  const party = isSale ? doc.customerName : doc.supplierName;
  s.body.append(el("dl", { class: "doc-meta" },
    el("dt", {}, k.party), el("dd", {}, party || k.nobody),
    el("dt", {}, "Date"), el("dd", {}, dateTime(doc.effectiveAt)),
    isSale ? [el("dt", {}, doc.payments.length > 1 ? "Payments" : "Payment"), el("dd", { id: "doc-payments" }, doc.payments.map((p) =>
      `${p.method[0].toUpperCase()}${p.method.slice(1)} ${money(p.amount)}${p.status === "completed" ? "" : ` (${p.status === "partlyRefunded" ? "partly refunded" : p.status})`}`
      + (p.tendered ? ` · ${money(p.tendered)} tendered, ${money(p.change)} change` : "")).join("; "))] : null,
    isSale && doc.soldBy ? [el("dt", {}, "Served by"), el("dd", {}, doc.soldBy)] : null,
    doc.note ? [el("dt", {}, "Note"), el("dd", {}, doc.note)] : null));
  const head = isSale ? ["Product", "Qty", "Price", "Discount", "Line total"] : ["Product", "Qty", "Unit cost", "Line total", "Lot / expiry"];
  const cell = (index, text, num = true) => el("td", { class: num ? "num" : "", "data-label": head[index] }, text);
  const rows = doc.lines.map((line) => el("tr", {},
    el("td", {}, el("a", { href: `/app/products/${line.productId}` }, line.productName),
      // What customers brought back of the line and what is left to return: the server's figures.
      isSale && !isZero(line.returnedQuantity)
        ? el("span", { class: "sub line-returned" }, `${quantity(line.returnedQuantity)} returned · ${quantity(line.returnableQuantity)} left to return`) : null),
    cell(1, quantity(line.quantity)),
    ...(isSale
      ? [cell(2, money(line.unitPrice)), cell(3, isZero(line.discount) ? "—" : money(line.discount)), cell(4, money(line.revenue))]
      : [cell(2, money(line.unitCost)), cell(3, money(line.amount)),
         cell(4, [line.lotCode, line.expiryDate].filter(Boolean).join(" · ") || "—", false)])));
  s.body.append(el("div", { class: "table-wrap doc-lines-table" }, el("table", { class: "table" },
    el("caption", { class: "sr-only" }, "Lines"),
    el("thead", {}, el("tr", {}, ...head.map((label, index) => el("th", { scope: "col", class: index > 0 && index < (isSale ? 5 : 4) ? "num" : "" }, label)))),
    el("tbody", {}, ...rows))));
  const sums = isSale
    ? [["Revenue (before tax)", doc.revenue], ["Tax", doc.tax], ["Tip", doc.tip], ["Total", doc.total],
       // In the answer only for a role that may see costs (the server decides).
       ...("costOfGoodsSold" in doc ? [["Cost of goods", doc.costOfGoodsSold], ["Profit", doc.profit]] : [])]
    : [["Total", doc.total]];
  s.body.append(el("dl", { class: "doc-totals" }, ...sums.map(([label, amount]) => {
    const grand = label === "Total" ? "grand" : "";
    return [el("dt", { class: grand }, label), el("dd", { class: `num ${grand}` }, money(amount))];
  })));

  if (isSale && doc.returns.length) {
    s.body.append(el("h3", { id: "doc-returns-heading" }, "Returns"),
      el("ul", { class: "doc-returns", id: "doc-returns", "aria-labelledby": "doc-returns-heading" }, ...doc.returns.map((r) => el("li", {},
        el("strong", {}, `Return #${r.id}`), ` · ${dateTime(r.effectiveAt)} · `,
        r.lines.map((l) => `${quantity(l.quantity)} × ${l.productName}${l.restocked ? "" : " (damaged, written off)"}`).join(", "),
        ` · refunded ${money(r.refunded)}`, r.note ? ` · ${r.note}` : ""))));
  }
  if (isSale) s.foot.append(el("a", { class: "btn", href: `/app/receipt/${doc.id}` }, icon("print"), "Receipt"));
  const canReturn = isSale ? flag("canRefund") : flag("canPurchase");
  if (canReturn) s.foot.append(el("button", { type: "button", id: "doc-return", onclick: () => { s.close(); openReturn(kind, doc); } }, icon("back"), isSale ? "Return items" : "Return to supplier"));
  const canEdit = isSale ? flag("canRefund") : true;
  if (canEdit) s.foot.append(el("a", { class: "btn", id: "doc-edit", href: `/app/${k.path}/${doc.id}/edit` }, icon("edit"), "Edit"));
  if (flag("canDelete")) {
    s.foot.append(el("button", { type: "button", class: "danger", id: "doc-delete", onclick: async () => {
      if (!(await confirmDialog(`Delete ${k.noun} #${doc.id}? Stock and costs after it are recomputed.`))) return;
      try {
        await api("DELETE", `/api/v1/${k.path}/${doc.id}`);
        s.close();
        toast(`${k.noun[0].toUpperCase() + k.noun.slice(1)} #${doc.id} deleted`);
        location.assign(`/app/${k.path}`);
      } catch (error) { toast(error.message); announce(error.message, { assertive: true }); }
    } }, icon("trash"), "Delete"));
  }
  s.open();
}

/** Returns against a document: per line how many go back; a customer return (sale) or a supplier return. */
function openReturn(kind, doc) {
  const isSale = kind === "sale";
  const s = sheet(isSale ? `Return items from sale #${doc.id}` : `Return to supplier from purchase #${doc.id}`);
  const form = el("form", { id: "return-form", novalidate: true });
  form.append(el("div", { class: "form-error banner banner-error", role: "alert" }));
  doc.lines.forEach((line, index) => {
    const id = `return-${index}`;
    // What customers already brought back cannot be returned again: the server says what is left.
    const returned = isSale ? parseQuantity(line.returnedQuantity) ?? 0n : 0n;
    const left = isSale ? parseQuantity(line.returnableQuantity) ?? 0n : parseQuantity(line.quantity) ?? 0n;
    const note = isSale && returned > 0n ? ` (sold ${quantity(line.quantity)}, ${quantity(line.returnedQuantity)} already returned)` : ` (${isSale ? "sold" : "bought"} ${quantity(line.quantity)})`;
    form.append(el("div", { class: "field return-line" },
      el("label", { for: id }, `${line.productName}`, el("span", { class: "muted" }, note)),
      el("input", { id, name: `lines[${index}].quantity`, inputmode: "decimal", placeholder: "0", autocomplete: "off", "data-max": quantityValue(left),
                    "data-line": line.id, "data-product": line.productId, disabled: isSale && left <= 0n }),
      // Damaged goods go back on no shelf: the server writes them off at the cost the sale was booked at.
      isSale && left > 0n ? el("label", { class: "check return-damaged" },
        el("input", { type: "checkbox", id: `${id}-damaged`, name: `lines[${index}].restock`, "data-damaged": line.id }),
        " Damaged — write off, don't restock") : null));
  });
  /** A line of the request for an input: its sale line, quantity, and restock false when it is marked damaged. */
  const requestLine = (input, text) => {
    const damaged = form.querySelector(`[data-damaged="${input.dataset.line}"]`)?.checked;
    return { saleLineId: Number(input.dataset.line), quantity: text, ...(damaged ? { restock: false } : {}) };
  };
  const when = el("input", { type: "datetime-local", id: "return-date", name: "effectiveAt", value: localInput() });
  form.append(el("div", { class: "field" }, el("label", { for: "return-date" }, "Date and time"), when),
    el("div", { class: "field" }, el("label", { for: "return-note" }, "Note"), el("input", { id: "return-note", name: "note", autocomplete: "off" })));
  // A customer return shows where the money goes before it is confirmed: the server's dry run, payment by payment.
  const refundBox = isSale ? el("div", { class: "return-refunds", id: "return-refunds", role: "status", "aria-live": "polite" }) : null;
  if (refundBox) form.append(refundBox);
  s.body.append(form);
  const save = el("button", { type: "submit", class: "primary", form: "return-form", id: "return-save" }, isSale ? "Refund and restock" : "Send back");
  let shownRefunds = null, previewTimer = null, previewSequence = 0;
  const METHOD_NAMES = { cash: "Cash", card: "Card", other: "Other" };
  const returnLines = () => [...form.querySelectorAll("[data-line]")].flatMap((input) => {
    const q = parseQuantity(input.value.trim());
    return q !== null && q > 0n ? [requestLine(input, input.value.trim())] : [];
  });
  async function previewRefund() {
    const sequence = ++previewSequence;
    const lines = returnLines();
    if (!lines.length) { shownRefunds = null; refundBox.replaceChildren(); return null; }
    try {
      const answer = await api("POST", "/api/v1/returns/customer?dryRun=true", { saleId: doc.id, lines }, { quiet: true });
      if (sequence !== previewSequence) return null;
      shownRefunds = answer.refunds.map(({ paymentId, amount }) => ({ paymentId, amount }));
      refundBox.replaceChildren(el("strong", { id: "return-refund-total" }, `Refund ${money(answer.refund)}`),
        el("ul", { class: "return-refund-list" }, ...answer.refunds.map((r) =>
          el("li", { "data-payment": r.paymentId, "data-method": r.method }, `${METHOD_NAMES[r.method] ?? r.method} `, el("span", { class: "num" }, money(r.amount))))));
      return answer;
    } catch (error) {
      if (sequence !== previewSequence) return null;
      shownRefunds = null;
      refundBox.replaceChildren(el("span", { class: "field-error" }, error.message));
      return null;
    }
  }
  if (isSale) {
    form.addEventListener("input", (event) => {
      if (!event.target.dataset.line) return;
      clearTimeout(previewTimer);
      previewTimer = setTimeout(previewRefund, 200);
    });
  }
  s.foot.append(el("button", { type: "button", onclick: () => s.close() }, "Cancel"), save);
  let touched = false;
  when.addEventListener("input", () => { touched = true; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const lines = [];
    let ok = true;
    form.querySelectorAll("[data-line]").forEach((input) => {
      const text = input.value.trim();
      if (!text) return;
      const q = parseQuantity(text);
      if (q === null || q <= 0n) { fieldError(form, input.name, "Enter a quantity above zero."); ok = false; return; }
      if (q > parseQuantity(input.dataset.max)) { fieldError(form, input.name, `At most ${input.dataset.max}.`); ok = false; return; }
      lines.push(isSale ? requestLine(input, text) : { productId: Number(input.dataset.product), quantity: text });
    });
    if (ok && !lines.length) { fieldError(form, "lines[0].quantity", "Enter how many come back."); ok = false; }
    if (!ok) { form.querySelector('[aria-invalid="true"]')?.focus(); return; }
    const body = { lines };
    if (isSale) body.saleId = doc.id;
    else if (doc.supplierId) body.supplierId = doc.supplierId;
    const note = form.elements.note.value.trim();
    if (note) body.note = note;
    if (touched && when.value) body.effectiveAt = when.value;
    save.disabled = true;
    if (isSale) {
      // Book exactly the refunds the cashier saw; if the server now answers differently, show that and ask again.
      const seen = JSON.stringify(shownRefunds);
      clearTimeout(previewTimer);
      const answer = await previewRefund();
      // Paid in several payments: the split of the refund must have been on screen before it is confirmed.
      if (answer && doc.payments.length > 1 && JSON.stringify(shownRefunds) !== seen) { save.disabled = false; return; }
      if (answer) body.refunds = shownRefunds;
    }
    try {
      await api("POST", `/api/v1/returns/${isSale ? "customer" : "supplier"}`, body);
      s.close();
      const writtenOff = lines.some((line) => line.restock === false);
      toast(!isSale ? "Supplier return recorded" : writtenOff ? "Return recorded; damaged items written off" : "Return recorded; the stock is back");
    } catch (error) {
      // The API names lines[i] of the request; map it back to the visible line.
      const match = /^lines\[(\d+)\]/.exec(error.field ?? "");
      if (match) {
        const visible = [...form.querySelectorAll("[data-line]")].filter((input) => input.value.trim())[Number(match[1])];
        if (visible) error.problem.field = visible.name;
      }
      showProblem(form, error);
    } finally { save.disabled = false; }
  });
  s.open();
  form.querySelector("input")?.focus();
}

/** Back/forward between the list and a document's sheet. */
export function followHistory(kind) {
  window.addEventListener("popstate", () => {
    const match = new RegExp(`^/app/${KINDS[kind].path}/(\\d+)$`).exec(location.pathname);
    const open = document.getElementById("doc-detail");
    if (!match && open) open.close();
    else if (match && !open) openDetail(kind, match[1], false);
  });
}
