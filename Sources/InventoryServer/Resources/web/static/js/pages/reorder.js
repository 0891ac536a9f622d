// Reorder: what to buy per supplier (GET /api/v1/reorder), every figure the server's; "Draft purchase" opens a new
// purchase filled with a supplier's lines (documents-form.js reads ?reorder=), which books nothing until saved.
import { api, el, icon, announce, clearErrors, showProblem } from "/static/js/app.js";
import { table } from "/static/js/admin-common.js";
import { money, quantity } from "/static/js/shared/format.js";

const $ = (id) => document.getElementById(id);
const root = $("reorder");
const form = $("reorder-form");
const result = $("reorder-result");
const label = $("reorder-window-label");
const canViewCosts = root.dataset.canViewCosts === "1";
const DAYS = /^\d{1,4}$/;

const params = new URLSearchParams(location.search);
if (DAYS.test(params.get("window") ?? "")) form.elements.window.value = params.get("window");
if (DAYS.test(params.get("cover") ?? "")) form.elements.cover.value = params.get("cover");

/** The draft purchase's address for a group: the supplier (or "none") and the terms it was suggested with. */
function draftLink(group, terms) {
  const query = new URLSearchParams({ reorder: group.supplierId ?? "none", window: terms.window, cover: terms.cover });
  return `/app/purchases/new?${query}`;
}

function groupCard(group, terms) {
  const name = group.supplierName ?? "No preferred supplier";
  const id = `reorder-group-${group.supplierId ?? "none"}`;
  const columns = [
    { label: "Product", value: (l) => el("span", {}, el("a", { href: `/app/products/${l.productId}` }, l.name),
      l.supplierCode ? el("span", { class: "muted small supplier-code" }, ` · ${l.supplierCode}`) : null), wrap: true },
    { label: "Sold", value: (l) => quantity(l.sold), num: true, phone: false },
    { label: "Per day", value: (l) => quantity(l.velocity), num: true, wide: true },
    { label: "Stock", value: (l) => quantity(l.stock), num: true },
    { label: "Target", value: (l) => quantity(l.target), num: true, phone: false },
    { label: "Packs", value: (l) => `${l.packs} × ${quantity(l.packSize)}`, num: true, wide: true },
    { label: "Buy", value: (l) => el("strong", { class: "reorder-quantity" }, `${quantity(l.quantity)} ${l.unit}`), num: true, nowrap: true },
  ];
  if (canViewCosts) {
    columns.push({ label: "Avg cost", value: (l) => money(l.averageCost), num: true, wide: true },
      { label: "Cost", value: (l) => money(l.cost), num: true, phone: false });
  }
  const foot = canViewCosts ? ["Estimated total", ...columns.slice(1, -1).map(() => ""), money(group.cost)] : null;
  const lead = group.supplierId ? el("span", { class: "muted" }, ` · delivers in ${group.leadTimeDays} day${group.leadTimeDays === 1 ? "" : "s"}`) : null;
  return el("section", { class: "card section reorder-group", id, "aria-labelledby": `${id}-heading`, dataset: { supplierId: group.supplierId ?? "" } },
    el("div", { class: "row reorder-group-head" },
      el("h2", { id: `${id}-heading` }, name, lead),
      el("span", { class: "spacer" }),
      canViewCosts ? el("span", { class: "reorder-total", "aria-label": `Estimated cost for ${name}` }, money(group.cost)) : null,
      el("a", { class: "btn primary draft-purchase", href: draftLink(group, terms), "aria-label": `Draft purchase from ${name}` },
        icon("truck"), "Draft purchase")),
    table(columns, group.lines, { caption: `Suggested for ${name}`, foot, id: `${id}-lines` }));
}

async function load() {
  clearErrors(form);
  const windowDays = form.elements.window.value.trim(), cover = form.elements.cover.value.trim();
  // What a window or cover may be is the server's rule (ReorderTerms): its refusal lands on the field it names.
  let answer;
  try {
    answer = await api("GET", `/api/v1/reorder?window=${encodeURIComponent(windowDays)}&cover=${encodeURIComponent(cover)}`);
  } catch (error) {
    showProblem(form, error);
    return;
  }
  history.replaceState(null, "", `?window=${answer.window}&cover=${answer.cover}`);
  label.textContent = `Sales from ${answer.from} to ${answer.through} (${answer.window} day${answer.window === 1 ? "" : "s"}), ${answer.cover} day${answer.cover === 1 ? "" : "s"} of cover.`;
  result.replaceChildren(...(answer.groups.length
    ? answer.groups.map((group) => groupCard(group, answer))
    : [el("p", { class: "empty card", id: "reorder-empty" }, "Nothing to reorder: every product has enough stock for these days.")]));
  announce(answer.groups.length ? `${answer.groups.length} supplier${answer.groups.length === 1 ? "" : "s"} to reorder from` : "Nothing to reorder");
}

form.addEventListener("submit", (event) => { event.preventDefault(); load(); });
load();
