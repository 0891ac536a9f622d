// Reports: daily figures (with an exact totals row), stock on a date, top products, low stock, valuation by
// category, expiring lots; each report's CSV (the server's file of what is shown); CSV export links; print / save as PDF (print CSS shows the tables only).
import { api, el, showProblem, clearErrors, fieldError, announce } from "/static/js/app.js";
import { table, loading } from "/static/js/admin-common.js";
import { statusBadge } from "/static/js/catalogue-common.js";
import { dateTime, localInput, shopDay } from "/static/js/shared/dates.js";
import { isZero, money, quantity } from "/static/js/shared/format.js";

const $ = (id) => document.getElementById(id);
let ready = false;
/** Announces a refreshed report to screen readers (not the first load of the page, which would be six at once). */
const say = (message) => { if (ready) announce(message); };
const productLink = (row) => el("a", { href: `/app/products/${row.productId}` }, row.name);
const problemBox = (container, error) => {
  container.replaceChildren(el("p", { class: "banner banner-error", role: "alert" }, error?.problem?.detail || error?.message || "could not load"));
};

// ---------- daily figures ----------
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "2026-11-16" → "16 Nov" (phones). */
const shortDay = (date) => `${Number(date.slice(8, 10))} ${MONTHS[Number(date.slice(5, 7)) - 1] ?? ""}`;

async function loadDaily() {
  const form = $("daily-form");
  clearErrors(form);
  const from = form.from.value, to = form.to.value;
  if (!from) { fieldError(form, "from", "choose the first day"); return; }
  if (!to) { fieldError(form, "to", "choose the last day"); return; }
  // A range that ends before it starts is the server's to refuse (DateRange), on "to".
  const box = $("daily-result");
  loading(box);
  try {
    const range = `from=${from}&to=${to}`;
    const [days, totals, taxes] = await Promise.all([api("GET", `/api/v1/reports/daily?${range}`), api("GET", `/api/v1/reports/daily/total?${range}`),
      api("GET", `/api/v1/reports/taxes?${range}`)]);
    const columns = [
      { label: "Day", value: (d) => [el("span", { class: "day-long" }, d.date), el("span", { class: "day-short" }, shortDay(d.date))], nowrap: true },
      { label: "Sales", value: (d) => String(d.salesCount), num: true },
      { label: "Revenue", value: (d) => money(d.revenue), num: true },
      { label: "COGS", value: (d) => money(d.costOfGoodsSold), num: true, phone: false },
      { label: "Profit", value: (d) => money(d.profit), num: true },
      { label: "Avg basket", value: (d) => money(d.averageBasket), num: true, phone: false, wide: true },
      { label: "Tax", value: (d) => money(d.tax), num: true, phone: false },
      { label: "Tips", value: (d) => money(d.tips), num: true, phone: false, wide: true },
      { label: "Discounts", value: (d) => money(d.discounts), num: true, wide: true },
      { label: "Returns", value: (d) => money(d.returns), num: true, wide: true },
    ];
    // The period's figures come from the server (the average basket over all its sales), not added up here.
    const t = totals;
    const foot = ["Total", String(t.salesCount), money(t.revenue), money(t.costOfGoodsSold), money(t.profit),
      money(t.averageBasket), money(t.tax), money(t.tips), money(t.discounts), money(t.returns)];
    const stat = (label, value) => el("div", { class: "stat" }, el("div", { class: "label" }, label), el("div", { class: "value" }, value));
    box.replaceChildren(
      el("div", { class: "stats", id: "daily-totals" },
        stat("Revenue", money(t.revenue)), stat("Profit", money(t.profit)), stat("COGS", money(t.costOfGoodsSold)),
        stat("Sales", String(t.salesCount)), stat("Avg basket", money(t.averageBasket)), stat("Tax", money(t.tax)),
        stat("Tips", money(t.tips)), stat("Returns", money(t.returns))),
      table(columns, days, { caption: `Daily figures ${from} to ${to}`, foot, id: "daily-table", empty: "No days in this range.", limit: 31 }),
      // Tax per rate, as the tax office asks for it: the server's sums of the receipts' lines (returns netted).
      el("h3", { id: "tax-heading" }, "Tax by rate"),
      table([
        { label: "Tax rate", value: (r) => `${r.taxRate} %`, nowrap: true },
        { label: "Net", value: (r) => money(r.net), num: true },
        { label: "Tax", value: (r) => money(r.tax), num: true },
        { label: "Gross", value: (r) => money(r.gross), num: true },
      ], taxes, { caption: `Tax by rate ${from} to ${to}`, id: "tax-table", empty: "No sales in this range." }));
    $("daily-range").textContent = `${from} – ${to}`;
    // The CSV link downloads the days shown (the server writes the file: ReportSheet).
    $("daily-csv").href = `/api/v1/reports/daily.csv?${range}`;
    $("daily-csv").download = `stockroom-daily-${from}-to-${to}.csv`;
    say(`Daily figures: ${days.length} days, revenue ${money(t.revenue)}`);
  } catch (error) {
    if (error.field === "from" || error.field === "to") { box.replaceChildren(); showProblem(form, error); } else problemBox(box, error);
  }
}

function setRange(kind) {
  const form = $("daily-form");
  form.to.value = shopDay();
  if (kind === "month") form.from.value = shopDay().slice(0, 8) + "01";
  else form.from.value = shopDay(-Number(kind));
  for (const chip of form.querySelectorAll("[data-range]")) chip.setAttribute("aria-pressed", String(chip.dataset.range === kind));
  loadDaily();
}

// ---------- stock on a date ----------
async function loadSnapshot() {
  const form = $("snapshot-form");
  clearErrors(form);
  const at = form.at.value;
  if (!at) { fieldError(form, "at", "choose a date and time"); return; }
  const box = $("snapshot-result");
  loading(box);
  try {
    const snapshot = await api("GET", `/api/v1/reports/snapshot?at=${encodeURIComponent(at)}`);
    const lines = snapshot.lines.filter((line) => !isZero(line.quantity) || !isZero(line.value));
    const columns = [
      { label: "Product", value: productLink },
      { label: "Qty", value: (l) => quantity(l.quantity), num: true },
      { label: "Avg cost", value: (l) => money(l.averageCost), num: true, phone: false },
      { label: "Value", value: (l) => money(l.value), num: true },
    ];
    const foot = ["Total", quantity(snapshot.totalQuantity), "", money(snapshot.totalValue)];
    const label = `Stock at ${at.replace("T", " ")} (shop time)`;
    box.replaceChildren(
      el("p", { class: "muted" }, `${lines.length} product${lines.length === 1 ? "" : "s"} in stock · value ${money(snapshot.totalValue)}`),
      table(columns, lines, { caption: label, foot, id: "snapshot-table", limit: 15, empty: "Nothing was in stock then." }));
    $("snapshot-label").textContent = label;
    $("snapshot-csv").href = `/api/v1/reports/snapshot.csv?at=${encodeURIComponent(at)}`;
    say(`${label}: ${lines.length} products, value ${money(snapshot.totalValue)}`);
  } catch (error) {
    if (error.field === "at") { box.replaceChildren(); showProblem(form, error); } else problemBox(box, error);
  }
}

// ---------- top products ----------
async function loadTop() {
  const form = $("top-form");
  clearErrors(form);
  const { from, to, by, limit } = { from: form.from.value, to: form.to.value, by: form.by.value, limit: form.limit.value };
  if (!from) { fieldError(form, "from", "choose the first day"); return; }
  if (!to) { fieldError(form, "to", "choose the last day"); return; }
  // A range that ends before it starts is the server's to refuse (DateRange), on "to".
  const box = $("top-result");
  loading(box);
  try {
    // A day as `to` means the end of that day.
    const rows = await api("GET", `/api/v1/reports/top?from=${from}&to=${to}&by=${by}&limit=${limit}`);
    const columns = [
      { label: "#", value: (r) => String(rows.indexOf(r) + 1), num: true, nowrap: true },
      { label: "Product", value: productLink, header: false },
      { label: "Qty", value: (r) => quantity(r.quantity), num: true },
      { label: "Revenue", value: (r) => money(r.revenue), num: true },
    ];
    box.replaceChildren(table(columns, rows, { caption: `Top ${limit} by ${by}`, id: "top-table", empty: "No sales in this range." }));
    $("top-label").textContent = `Top ${limit} by ${by}, ${from} – ${to}`;
    $("top-csv").href = `/api/v1/reports/top.csv?from=${from}&to=${to}&by=${by}&limit=${limit}`;
    $("top-csv").download = `stockroom-top-${from}-to-${to}.csv`;
    say(rows.length ? `Top products: first is ${rows[0].name}` : "No sales in this range");
  } catch (error) {
    if (error.field) { box.replaceChildren(); showProblem(form, error); } else problemBox(box, error);
  }
}

// ---------- low stock, valuation ----------

async function loadLow() {
  const box = $("low-result");
  loading(box);
  try {
    const rows = await api("GET", "/api/v1/reports/low-stock");
    const columns = [
      { label: "Product", value: productLink },
      { label: "In stock", value: (r) => `${quantity(r.quantity)} ${r.unit}`, num: true },
      { label: "Threshold", value: (r) => quantity(r.threshold), num: true },
      { label: "Status", value: (r) => statusBadge(r.status) },
    ];
    box.replaceChildren(table(columns, rows, { caption: "Low stock", id: "low-table", limit: 15, empty: "Nothing is running low." }));
  } catch (error) { problemBox(box, error); }
}

async function loadValuation() {
  const box = $("valuation-result");
  loading(box);
  try {
    const [rows, total] = await Promise.all([api("GET", "/api/v1/reports/valuation"), api("GET", "/api/v1/reports/valuation/total")]);
    const columns = [
      { label: "Category", value: (r) => r.name || "No category" },
      { label: "Items", value: (r) => String(r.productCount), num: true },
      { label: "Qty", value: (r) => quantity(r.quantity), num: true },
      { label: "Value", value: (r) => money(r.value), num: true },
    ];
    const foot = ["Total", String(total.productCount), quantity(total.quantity), money(total.value)];  // the server's sums
    box.replaceChildren(table(columns, rows, { caption: "Stock value by category", foot, id: "valuation-table", empty: "No stock yet." }));
  } catch (error) { problemBox(box, error); }
}

// ---------- expiring ----------
async function loadExpiring() {
  const form = $("expiring-form");
  clearErrors(form);
  const days = form.days.value.trim();
  const box = $("expiring-result");
  loading(box);
  try {
    // How many days may be asked is the server's rule: its refusal names `days` and lands on the field.
    const rows = await api("GET", `/api/v1/reports/expiring?days=${encodeURIComponent(days)}`);
    const today = shopDay();
    const columns = [
      { label: "Product", value: (r) => [productLink(r), r.lotCode ? el("span", { class: "sub" }, `lot ${r.lotCode}`) : null] },
      { label: "Expires", value: (r) => r.expiryDate < today
        ? el("span", { class: "badge badge-out" }, el("span", { class: "sr-only" }, "expired "), r.expiryDate) : r.expiryDate },
      { label: "In stock", value: (r) => quantity(r.stockQuantity), num: true },
    ];
    const expired = rows.filter((r) => r.expiryDate < today).length;
    box.replaceChildren(
      rows.length && expired ? el("p", { class: "muted" }, `${expired} lot${expired === 1 ? " has" : "s have"} already expired (red) and may still be on the shelf.`) : "",
      table(columns, rows, { caption: `Lots expiring within ${days} days`, id: "expiring-table", limit: 15, empty: `No lots expire within ${days} days.` }));
    $("expiring-label").textContent = `Within ${days} days of ${today}`;
    say(`${rows.length} lot${rows.length === 1 ? "" : "s"} expire within ${days} days`);
  } catch (error) {
    if (error.field === "days") { box.replaceChildren(); showProblem(form, error); } else problemBox(box, error);
  }
}

// ---------- wiring ----------
const submitTo = (id, load) => $(id).addEventListener("submit", (event) => { event.preventDefault(); load(); });
submitTo("daily-form", loadDaily);
submitTo("snapshot-form", loadSnapshot);
submitTo("top-form", loadTop);
submitTo("expiring-form", loadExpiring);
for (const chip of document.querySelectorAll("#daily-form [data-range]")) chip.addEventListener("click", () => setRange(chip.dataset.range));
$("snapshot-now").addEventListener("click", () => { $("snapshot-at").value = localInput(); loadSnapshot(); });
$("print-button").addEventListener("click", () => window.print());
window.addEventListener("beforeprint", () => { $("printed-at").textContent = dateTime(new Date().toISOString()); });

$("daily-form").to.value = shopDay();
$("daily-form").from.value = shopDay(-6);
$("daily-form").querySelector('[data-range="6"]').setAttribute("aria-pressed", "true");
for (const chip of document.querySelectorAll("#daily-form [data-range]:not([aria-pressed])")) chip.setAttribute("aria-pressed", "false");
$("snapshot-at").value = localInput();
$("top-form").to.value = shopDay();
$("top-form").from.value = shopDay(-29);

Promise.all([loadDaily(), loadSnapshot(), loadTop(), loadLow(), loadValuation(), loadExpiring()]).finally(() => { ready = true; });

// CSV export for a date range: the dated files are fetched with the range (the server checks it and says what is
// wrong on its field) and saved from memory; without a range the links download as they are.
const exportRange = $("export-range");
for (const link of document.querySelectorAll("#export a[data-dated]")) {
  link.addEventListener("click", async (event) => {
    const from = $("export-from").value, to = $("export-to").value;
    clearErrors(exportRange);
    if (!from && !to) return;
    event.preventDefault();
    const params = new URLSearchParams();
    if (from) params.set("from", from);
    if (to) params.set("to", to);
    try {
      const reply = await api("GET", `${link.getAttribute("href")}?${params}`, undefined, { raw: true });
      const url = URL.createObjectURL(await reply.blob());
      const name = link.getAttribute("download").replace(/\.csv$/, `-${from || "start"}-to-${to || "now"}.csv`);
      const save = el("a", { href: url, download: name, hidden: "" });
      document.body.append(save);
      save.click();
      save.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      announce(`Downloading ${name}`);
    } catch (error) {
      showProblem(exportRange, error);
    }
  });
}
