// Cash-up: open the drawer with a counted float, put cash in or take it out with a reason, see the X report at any
// time, close with the counted cash and print the Z report (80 mm or A4) or export it as CSV. Every figure is the
// server's report as it is; nothing is added up here.
import { api, el, page, clearErrors, showProblem, toast, announce } from "/static/js/app.js";
import { dateTime } from "/static/js/shared/dates.js";
import { hoursAndMinutes as hours, isZero, money } from "/static/js/shared/format.js";
import { paperControl } from "/static/js/shared/paper.js";

const $ = (id) => document.getElementById(id);
const report = $("drawer-report");
const refreshPaper = paperControl(report, "stockroom.receipt.paper", $("drawer-print"));
const manager = ["manager", "admin"].includes(page.role);
const METHODS = { cash: "Cash", card: "Card", other: "Other" };
const asked = new URLSearchParams(location.search).get("session");

const row = (label, value, attrs = {}) => el("div", { class: "receipt-row", ...attrs }, el("span", {}, label), el("span", { class: "num" }, value));

/** The X or Z report of `session`, as the server worked it out. */
function showReport(session) {
  const r = session.report;
  const z = r.kind === "Z";
  report.replaceChildren(...[
    el("h2", {}, $("drawer-report-page").dataset.shopName),
    el("div", { class: "receipt-meta" },
      el("div", { id: "drawer-report-kind" }, z ? `Z report — session ${session.id}` : `X report — session ${session.id} (still open)`),
      el("div", {}, `${dateTime(r.from)} – ${dateTime(r.to)}`),
      el("div", {}, `Opened by ${session.openedBy || "—"}${session.closedBy ? `, closed by ${session.closedBy}` : ""}`)),
    el("hr"),
    row(`Sales (${r.salesCount})`, money(r.grossSales), { id: "drawer-gross" }),
    row("Discounts", "−" + money(r.discounts), { id: "drawer-discounts" }),
    row("Revenue before tax", money(r.revenue), { id: "drawer-revenue" }),
    row("Tax", money(r.tax), { id: "drawer-tax" }),
    row("Tips", money(r.tips), { id: "drawer-tips" }),
    row("Takings", money(r.takings), { class: "receipt-row receipt-total", id: "drawer-takings" }),
    row(`Refunds (${r.refundsCount})`, "−" + money(r.refunds), { id: "drawer-refunds" }),
    el("hr"),
    el("div", { class: "receipt-meta" }, "Tax by rate (sales less refunds)"),
    ...r.taxes.map((t) => row(`${t.taxRate} %: net ${money(t.revenue)}, gross ${money(t.gross)}`, money(t.tax), { "data-tax-rate": t.taxRate })),
    el("hr"),
    el("div", { class: "receipt-meta" }, "Payments"),
    ...r.methods.map((m) => el("div", { "data-method": m.method },
      row(METHODS[m.method] ?? m.method, money(m.net), { class: "receipt-row" }),
      isZero(m.refunded) ? null : el("div", { class: "receipt-sub" }, `taken ${money(m.taken)}, refunded ${money(m.refunded)}`))),
    isZero(r.pending) ? null : row("Pending", money(r.pending), { id: "drawer-pending" }),
    el("hr"),
    el("div", { class: "receipt-meta" }, "Cash drawer"),
    row("Opening float", money(session.openingFloat), { id: "drawer-float-line" }),
    row("Cash in", money(r.cashIn), { id: "drawer-cash-in" }),
    row("Cash out", "−" + money(r.cashOut), { id: "drawer-cash-out" }),
    ...session.cashMovements.map((m) => el("div", { class: "receipt-sub" }, `${m.direction === "in" ? "in" : "out"} ${money(m.amount)}: ${m.reason} (${m.by || "—"})`)),
    row("Expected in the drawer", money(r.expectedCash), { class: "receipt-row receipt-total", id: "drawer-expected" }),
    r.countedCash ? row("Counted", money(r.countedCash), { id: "drawer-counted-line" }) : null,
    r.difference ? row(isZero(r.difference) ? "Difference" : r.difference.startsWith("-") ? "Short" : "Over", money(r.difference),
      { class: "receipt-row receipt-total", id: "drawer-difference" }) : null,
    r.staff.length ? el("hr") : null,
    r.staff.length ? el("div", { class: "receipt-meta" }, "Staff") : null,
    ...r.staff.map((s) => el("div", { "data-staff": s.username },
      row(`${s.username || "(not known)"}: ${s.salesCount} sale${s.salesCount === 1 ? "" : "s"}`, money(s.revenue), { class: "receipt-row" }),
      el("div", { class: "receipt-sub" }, `tips ${money(s.tips)} · ${hours(s.minutesWorked)} clocked in`))),
  ].filter(Boolean));
  report.setAttribute("aria-busy", "false");
  const csv = $("drawer-csv");
  csv.hidden = !manager;
  if (manager) csv.href = `/api/v1/drawer/sessions/${session.id}/report.csv`;
  refreshPaper();
}

function showState(current) {
  $("drawer-open-card").hidden = Boolean(current) || Boolean(asked);
  $("drawer-session-card").hidden = !current || Boolean(asked);
  if (current) $("drawer-since").textContent = `Opened ${dateTime(current.openedAt)} by ${current.openedBy || "—"} with a float of ${money(current.openingFloat)}.`;
}

async function loadHistory() {
  if (!manager) return;
  const sessions = await api("GET", "/api/v1/drawer/sessions?limit=30");
  $("drawer-history").hidden = sessions.length === 0;
  $("drawer-sessions").replaceChildren(...sessions.map((s) => el("li", {},
    el("a", { href: `/app/drawer?session=${s.id}` }, `Session ${s.id}: ${dateTime(s.openedAt)}${s.isOpen ? " (open)" : ""}`),
    s.report.difference ? el("span", { class: "muted" }, ` · difference ${money(s.report.difference)}`) : null)));
}

async function load() {
  if (asked && /^\d+$/.test(asked)) {
    showState(null);
    showReport(await api("GET", `/api/v1/drawer/sessions/${asked}`));
  } else {
    const { session } = await api("GET", "/api/v1/drawer");
    showState(session ?? null);
    if (session) showReport(session);
    else report.replaceChildren(el("p", { class: "empty", id: "drawer-closed" }, "The drawer is closed. Open it with the float to start a session."));
    report.setAttribute("aria-busy", "false");
  }
  await loadHistory();
}

async function submit(form, path, body, done) {
  clearErrors(form);
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const session = await api("POST", path, body);
    done(session);
  } catch (error) {
    showProblem(form, error);
  } finally {
    button.disabled = false;
  }
}

$("drawer-open-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const body = { openingFloat: form.elements.openingFloat.value.trim() };
  if (form.elements.note.value.trim()) body.note = form.elements.note.value.trim();
  submit(form, "/api/v1/drawer/open", body, (session) => {
    form.reset();
    showState(session);
    showReport(session);
    toast("Drawer open");
    loadHistory();
  });
});

$("drawer-cash-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const body = { direction: form.querySelector("[name=direction]:checked")?.value ?? "in", amount: form.elements.amount.value.trim(), reason: form.elements.reason.value };
  submit(form, "/api/v1/drawer/cash", body, (session) => {
    form.elements.amount.value = "";
    form.elements.reason.value = "";
    showReport(session);
    announce(`Cash ${body.direction} recorded. Expected in the drawer ${money(session.report.expectedCash)}`);
  });
});

$("drawer-close-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  submit(form, "/api/v1/drawer/close", { countedCash: form.elements.countedCash.value.trim() }, (session) => {
    form.reset();
    showState(null);
    showReport(session);
    announce(`Drawer closed. Difference ${money(session.report.difference)}`);
    loadHistory();
  });
});

await load();
