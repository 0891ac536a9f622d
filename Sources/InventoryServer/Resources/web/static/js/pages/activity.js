// Activity: the manager's feed (GET /api/v1/activity) — sales, refunds, clocking in and out, price changes and
// products gone low — with filters, older pages on demand, and a fresh first page when the server says something new
// was recorded (the `activity` live event). The server words every entry and decides its group; this only shows them.
import { api, el, onLiveEvents, announce, showProblem, clearErrors } from "/static/js/app.js";
import { dateTime } from "/static/js/shared/dates.js";

const form = document.getElementById("activity-filters");
const list = document.getElementById("activity-list");
const more = document.getElementById("activity-more");
const status = document.getElementById("activity-status");
const kindInput = document.getElementById("activity-kind");
const chips = [...form.querySelectorAll("[data-kind]")];
const labels = { sales: "Sale", refunds: "Refund", shifts: "Shift", priceChanges: "Price", lowStock: "Low stock" };
const PAGE = 50;
let nextBefore = null;
let latest = 0;  // only the latest request's answer is shown (filters clicked quickly, live refreshes)

/** The filters as the API's query (empty ones left out). */
function query(before) {
  kindInput.value = chips.filter((chip) => chip.getAttribute("aria-pressed") === "true").map((chip) => chip.dataset.kind).join(",");
  const params = new URLSearchParams();
  for (const name of ["kind", "userId", "from", "to"]) {
    const value = form.elements[name].value.trim();
    if (value) params.set(name, value);
  }
  params.set("limit", String(PAGE));
  if (before) params.set("before", String(before));
  return params.toString();
}

function entry(item) {
  const target = item.record?.kind === "sale" ? `/app/sales/${item.record.id}`
    : item.record?.kind === "product" ? `/app/products/${item.record.id}` : null;
  return el("li", { "data-group": item.group, "data-id": String(item.id) },
    el("div", { class: "main" },
      target ? el("a", { href: target, class: "title" }, item.sentence) : el("span", { class: "title" }, item.sentence),
      el("div", { class: "sub" }, el("time", { datetime: item.at }, dateTime(item.at)))),
    el("span", { class: `badge badge-${item.group === "lowStock" ? "low" : "neutral"}` }, labels[item.group] ?? item.group));
}

/** Loads the first page (or, with `older`, the next older one) and shows it. */
async function load({ older = false } = {}) {
  clearErrors(form);
  const ticket = ++latest;
  try {
    const page = await api("GET", `/api/v1/activity?${query(older ? nextBefore : null)}`);
    if (ticket !== latest) return;
    const rows = page.entries.map(entry);
    if (older) list.append(...rows);
    else list.replaceChildren(...rows);
    nextBefore = page.nextBefore ?? null;
    more.hidden = nextBefore === null;
    const shown = list.children.length;
    status.textContent = shown ? `${shown} shown` : "Nothing matches these filters.";
  } catch (error) {
    if (ticket === latest) showProblem(form, error);
  }
}

for (const chip of chips) {
  chip.addEventListener("click", () => {
    chip.setAttribute("aria-pressed", chip.getAttribute("aria-pressed") === "true" ? "false" : "true");
    load();
  });
}
form.addEventListener("submit", (event) => {
  event.preventDefault();
  load();
});
form.elements.userId.addEventListener("change", () => load());
document.getElementById("activity-clear").addEventListener("click", () => {
  for (const chip of chips) chip.setAttribute("aria-pressed", "false");
  for (const name of ["userId", "from", "to"]) form.elements[name].value = "";
  load();
});
more.addEventListener("click", () => load({ older: true }));

// Something new was recorded: show the first page again, unless the reader has paged into older entries.
onLiveEvents((type, data) => {
  if (list.children.length > PAGE) return;
  load();
  if (data?.group) announce(`New activity: ${labels[data.group] ?? data.group}`);
}, ["activity"]);

load();
