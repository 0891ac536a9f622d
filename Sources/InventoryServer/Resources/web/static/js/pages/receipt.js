// The receipt of a sale: printable on an 80 mm receipt printer or on A4 (the paper choice sets @page and is
// remembered on this device). Every figure is the server's sale record as it is: the lines' amounts and discounts,
// the tax per rate, the totals, who served, the cash tendered and the change (so a reprint shows them too). Nothing
// is added up here.
import { api, el, page } from "/static/js/app.js";
import { dateTime } from "/static/js/shared/dates.js";
import { isZero, money, quantity, signedMoney } from "/static/js/shared/format.js";
import { paperControl } from "/static/js/shared/paper.js";

const root = document.getElementById("receipt-page");
const box = document.getElementById("receipt");
const query = new URLSearchParams(location.search);
const METHODS = { cash: "Cash", card: "Card", other: "Other" };
const refreshPaper = paperControl(box, "stockroom.receipt.paper", document.getElementById("receipt-print"), query.get("paper"));

const row = (label, value, attrs = {}) => el("div", { class: "receipt-row", ...attrs }, el("span", {}, label), el("span", { class: "num" }, value));

async function load() {
  const id = page.id;
  if (!/^\d+$/.test(id)) {
    box.replaceChildren(el("p", { class: "empty" }, "No sale was given. Open a receipt from the sales list or after charging at the till."));
    return;
  }
  let sale;
  try {
    sale = await api("GET", `/api/v1/sales/${id}`);
  } catch (error) {
    box.replaceChildren(el("p", { class: "empty", role: "alert" }, error.status === 404 ? `Sale ${id} does not exist.` : `Could not load sale ${id}: ${error.message}`));
    return;
  } finally {
    box.setAttribute("aria-busy", "false");
  }
  // The customer's standing now (visits and spend), as the server keeps it.
  const standing = sale.customerId ? await api("GET", `/api/v1/customers/${sale.customerId}/standing`, null, { quiet: true }).catch(() => null) : null;
  const lines = sale.lines.map((line) => el("li", { "data-line": line.id },
    row(line.productName, money(line.amount), { class: "receipt-row receipt-line-amount" }),
    // The options as booked (a copy kept with the sale), with their price changes, which the unit price includes.
    line.options?.length ? el("div", { class: "receipt-sub receipt-options" }, line.options.map((o) =>
      isZero(o.priceChange) ? o.name : `${o.name} (${signedMoney(o.priceChange)})`).join(", ")) : null,
    el("div", { class: "receipt-sub" }, `${quantity(line.quantity)} × ${money(line.unitPrice)}`),
    isZero(line.discount) ? null : row(el("span", { class: "receipt-sub" }, "Discount"), "−" + money(line.discount))));

  // Tax by rate, as a receipt shows it: the rate, the net amount it applies to, the tax; where prices include tax, a
  // table of net, tax and gross per rate under the total (the tax was part of the prices).
  const byRate = sale.taxes.map((share) => row(`Tax ${share.taxRate} % on ${money(share.revenue)}`, money(share.tax), { "data-tax-rate": share.taxRate }));
  const taxTable = el("table", { class: "receipt-taxes", id: "receipt-taxes" },
    el("thead", {}, el("tr", {}, ...["Rate", "Net", "Tax", "Gross"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...sale.taxes.map((share) => el("tr", { "data-tax-rate": share.taxRate },
      el("th", { scope: "row" }, `${share.taxRate} %`), el("td", { class: "num" }, money(share.revenue)),
      el("td", { class: "num" }, money(share.tax)), el("td", { class: "num" }, money(share.gross))))));
  const summary = sale.pricesIncludeTax
    ? [isZero(sale.tip) ? null : row("Tip", money(sale.tip), { id: "receipt-tip" }),
       row("Total", money(sale.total), { class: "receipt-row receipt-total", id: "receipt-total" }),
       el("div", { class: "receipt-meta" }, "Prices include tax:"), taxTable]
    : [row("Subtotal (before tax)", money(sale.revenue), { id: "receipt-subtotal" }), ...byRate,
       isZero(sale.tip) ? null : row("Tip", money(sale.tip), { id: "receipt-tip" }),
       row("Total", money(sale.total), { class: "receipt-row receipt-total", id: "receipt-total" })];

  // Payment lines: one per payment the server booked (a split shows each; a failed attempt is kept and marked), with
  // the cash tendered and change, and what returns refunded.
  const STATUS = { pending: "pending", failed: "failed", refunded: "refunded", partlyRefunded: "partly refunded" };
  const payment = sale.payments.length > 1
    ? sale.payments.map((p) => el("div", { class: "receipt-payment", "data-payment": p.id, "data-status": p.status },
        row(`${METHODS[p.method] ?? p.method}${STATUS[p.status] ? ` (${STATUS[p.status]})` : ""}${p.reference ? ` · ${p.reference}` : ""}`,
          money(p.amount), { class: "receipt-row" }),
        p.tendered ? el("div", { class: "receipt-sub" }, `tendered ${money(p.tendered)}, change ${money(p.change)}`) : null))
    // One payment or none: the method the server keeps on the sale (PricedSale.headerPaymentMethod), not chosen here.
    : [row("Paid by", `${METHODS[sale.paymentMethod] ?? sale.paymentMethod}${STATUS[sale.payments[0]?.status] ? ` (${STATUS[sale.payments[0].status]})` : ""}`,
        { id: "receipt-method" })];
  if (sale.cashTendered && sale.change) {
    payment.push(row("Cash tendered", money(sale.cashTendered), { id: "receipt-tendered" }));
    payment.push(row("Change", money(sale.change), { id: "receipt-change" }));
  }
  if (!isZero(sale.refunded)) payment.push(row("Refunded", "−" + money(sale.refunded), { id: "receipt-refunded" }));
  if (!isZero(sale.amountDue)) payment.push(row("Still to pay", money(sale.amountDue), { id: "receipt-due" }));
  const justSold = query.get("done") === "1";
  box.replaceChildren(...[
    // The shop's logo from Settings, when it has one.
    root.dataset.shopLogo ? el("img", { class: "receipt-logo", id: "receipt-logo", src: root.dataset.shopLogo, alt: `${root.dataset.shopName} logo` }) : null,
    el("h2", {}, root.dataset.shopName),
    root.dataset.shopAddress ? el("div", { class: "receipt-meta", id: "receipt-address" }, root.dataset.shopAddress) : null,
    root.dataset.shopTaxId ? el("div", { class: "receipt-meta", id: "receipt-tax-id" }, `Tax ID ${root.dataset.shopTaxId}`) : null,
    el("div", { class: "receipt-meta" },
      el("div", { id: "receipt-when" }, dateTime(sale.effectiveAt)),
      el("div", { id: "receipt-number" }, `Receipt no. ${sale.receiptNumber}`),
      // Opened again later (not right after charging), the receipt is a copy and says so, on paper too.
      justSold ? null : el("div", { class: "receipt-copy", id: "receipt-copy" }, "COPY — reprint"),
      sale.customerName ? el("div", { id: "receipt-customer" }, `Customer: ${sale.customerName}`,
        sale.customerVisit ? ` · visit ${sale.customerVisit}` : "",
        sale.customerMilestone ? el("strong", { id: "receipt-milestone" }, ` · ${sale.customerMilestone}th visit — thank you!`) : null,
        standing ? el("span", { id: "receipt-standing" }, ` · ${money(standing.spend)} spent with us`) : null) : null,
      sale.soldBy ? el("div", { id: "receipt-staff" }, `Served by ${sale.soldBy}`) : null),
    el("hr"),
    el("ul", { class: "receipt-lines", id: "receipt-lines" }, lines),
    el("hr"),
    isZero(sale.discount) ? null : row("Discounts", "−" + money(sale.discount), { id: "receipt-discounts" }),
    ...summary,
    el("hr"),
    ...payment,
    sale.note ? el("p", { class: "receipt-foot" }, sale.note) : null,
    el("p", { class: "receipt-foot", id: "receipt-footer" }, root.dataset.receiptFooter || "Thank you!")].filter(Boolean));
  document.title = `Receipt ${sale.id} · ${root.dataset.shopName}`;
  if (justSold) {
    const done = document.getElementById("receipt-done");
    done.hidden = false;
    done.textContent = sale.change && !isZero(sale.change)
      ? `Sale complete. Change due: ${money(sale.change)}`
      : `Sale complete: ${money(sale.total)}`;
    document.getElementById("receipt-new").focus();
  }
}

// Right after charging, the next scan starts the next sale: a scanner's burst (digits, then Enter) on this screen
// opens the till with that code scanned, instead of the Enter pressing the focused "New sale" button and the digits
// being lost. Listening before the sale has loaded, so nothing typed meanwhile is swallowed.
if (query.get("done") === "1") {
  let digits = "";
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    if (/^[0-9]$/.test(event.key)) {
      digits += event.key;
      event.preventDefault();
      return;
    }
    if (event.key === "Enter" && digits) {
      event.preventDefault();
      event.stopPropagation();
      location.assign(`/app/pos?${new URLSearchParams({ scan: digits })}`);
      digits = "";
      return;
    }
    if (event.key !== "Shift") digits = "";
  }, true);
}

await load();
refreshPaper();
