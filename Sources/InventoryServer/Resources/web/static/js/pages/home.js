// Home: money shown in the shop's currency; the alerts reload live when stock changes (Server-Sent Events).
import { api, el, onLiveEvents, announce, confirmDialog, debounce, toast } from "/static/js/app.js";
import { shopDay } from "/static/js/shared/dates.js";
import { money, quantity } from "/static/js/shared/format.js";

for (const node of document.querySelectorAll("[data-money]")) node.textContent = money(node.dataset.money);

document.getElementById("date")?.addEventListener("change", (event) => event.target.form.requestSubmit());

async function refreshAlerts() {
  try {
    const [low, expiring] = await Promise.all([
      api("GET", "/api/v1/reports/low-stock", null, { quiet: true }),
      api("GET", "/api/v1/reports/expiring?days=7", null, { quiet: true }),
    ]);
    const lowList = document.getElementById("low-stock-list");
    lowList.replaceChildren(...(low.length ? low.slice(0, 20).map((item) => el("li", {},
      el("div", { class: "main" }, el("a", { href: `/app/products/${item.productId}`, class: "title" }, item.name),
        el("div", { class: "sub" }, `${quantity(item.quantity)} ${item.unit} left · threshold ${quantity(item.threshold)}`)),
      el("span", { class: `badge badge-${item.status === "out" ? "out" : "low"}` }, item.status === "out" ? "Out" : "Low")))
      : [el("li", { class: "empty" }, "Nothing is running low.")]));
    const today = shopDay();
    const expiringList = document.getElementById("expiring-list");
    expiringList.replaceChildren(...(expiring.length ? expiring.slice(0, 20).map((lot) => el("li", {},
      el("div", { class: "main" }, el("a", { href: `/app/products/${lot.productId}`, class: "title" }, lot.name),
        el("div", { class: "sub" }, `${lot.lotCode ? "lot " + lot.lotCode + " · " : ""}${quantity(lot.stockQuantity)} in stock`)),
      el("span", { class: `badge badge-${lot.expiryDate < today ? "out" : "warn"}` }, (lot.expiryDate < today ? "Expired " : "") + lot.expiryDate),
      lot.expiryDate < today && canWriteOff ? el("button", { type: "button", class: "btn-small danger", "data-write-off": String(lot.productId),
        "data-lot": lot.lotCode ?? "", "data-expiry": lot.expiryDate, "data-name": lot.name, "data-quantity": lot.stockQuantity }, "Write off") : null))
      : [el("li", { class: "empty" }, "No lots expire this week.")]));
  } catch { /* the banner says when the server is gone */ }
  await refreshBeyondStock();
}

// One tap (and a confirmation) writes off what is left of an expired lot: an adjustment with reason expired, for the
// quantity the server says is left (managers only: the button is absent else).
const expiringList = document.getElementById("expiring-list");
const canWriteOff = expiringList?.dataset.canWriteOff === "1";

expiringList?.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-write-off]");
  if (!button) return;
  const { writeOff, lot, expiry, name } = button.dataset;
  const what = `${name}${lot ? ", lot " + lot : ""} (expired ${expiry})`;
  if (!(await confirmDialog(`Write off what is left of ${what}: ${quantity(button.dataset.quantity)}?`, { confirm: "Write off" }))) return;
  button.disabled = true;
  try {
    const body = { productId: Number(writeOff), expiryDate: expiry };
    if (lot) body.lotCode = lot;
    await api("POST", "/api/v1/adjustments/expired-lot", body);
    toast(`Written off: ${what}`);
  } catch (error) {
    toast(error.message);
    announce(error.message, { assertive: true });
  }
  await refreshAlerts();
});

// Sales a manager approved beyond the stock on record, waiting for review (managers only: the section is absent else).
const beyondStock = document.getElementById("beyond-stock");
const canReview = beyondStock?.dataset.canReview === "true";

async function refreshBeyondStock() {
  if (!beyondStock || beyondStock.dataset.canReview === "") return;
  try {
    const lines = await api("GET", "/api/v1/reports/sold-beyond-stock", null, { quiet: true });
    beyondStock.hidden = lines.length === 0;
    document.getElementById("beyond-stock-list").replaceChildren(...lines.slice(0, 20).map((line) => el("li", {},
      el("div", { class: "main" }, el("a", { href: `/app/products/${line.productId}`, class: "title" }, line.productName),
        el("div", { class: "sub" }, `Receipt ${line.receiptNumber}, ${line.day} · sold ${quantity(line.quantity)}, `
          + `${quantity(line.shortBy)} beyond stock · approved by ${line.approvedBy} · stock now ${quantity(line.stockNow)}`)),
      ...(canReview ? [el("button", { type: "button", class: "btn-small", "data-review": String(line.saleId) }, "Reviewed")] : []))));
  } catch { /* the banner says when the server is gone */ }
}

beyondStock?.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-review]");
  if (!button) return;
  button.disabled = true;
  try {
    await api("POST", `/api/v1/sales/${button.dataset.review}/stock-review`);
    announce("Marked reviewed.");
  } catch (error) {
    announce(error.message);
  }
  await refreshBeyondStock();
});

if (document.getElementById("alerts")) {
  // One write sends several events (the product, the sale, the low-stock list): the lists are read once for them all.
  const refreshSoon = debounce(refreshAlerts, 150);
  onLiveEvents((type, data) => {
    if (type === "low-stock" && data?.count) announce(`${data.count} product${data.count === 1 ? "" : "s"} running low`);
    refreshSoon();
  });
}
