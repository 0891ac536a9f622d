// Shared by purchases, sales and the stock count: dates in the shop's time zone, exact decimal helpers, the
// product picture and a sheet (<dialog class="sheet">) builder. (Costs and totals come from the server's dry run.)
import { el, icon, Decimal, page } from "/static/js/app.js";

/** The screen's root element and its data attributes (permissions, the shop's time zone). */
export const root = () => document.getElementById("documents");
export const flag = (name) => root()?.dataset[name] === "1";
export const timeZone = () => root()?.dataset.timeZone || "UTC";

const QTY = 3;      // quantities travel with at most 3 decimals

/** "2026-11-22T07:00:00.000Z" → "22 Nov 2026, 07:00" in the shop's time zone. */
export function formatDateTime(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: timeZone(), dateStyle: "medium", timeStyle: "short" }).format(date);
  } catch {
    return date.toISOString().slice(0, 16).replace("T", " ");
  }
}

/** An ISO date-time as the value of an <input type="datetime-local"> in the shop's time zone ("2026-11-22T07:00"). */
export function toLocalInput(iso) {
  const date = iso ? new Date(iso) : new Date();
  try {
    const parts = Object.fromEntries(new Intl.DateTimeFormat("en-CA", {
      timeZone: timeZone(), year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    }).formatToParts(date).map((part) => [part.type, part.value]));
    return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
  } catch {
    return date.toISOString().slice(0, 16);
  }
}

/** Parses a quantity (≤ 3 decimals) → BigInt at scale 3, or null. */
export const parseQuantity = (text) => Decimal.parse(text, QTY);
/** Parses an amount with at most the currency's decimals → BigInt at minor-unit scale, or null. */
export const parseMoney = (text) => Decimal.parse(text, page.minorUnits);
export const formatMoneyValue = (value) => Decimal.format(value, page.minorUnits);
export const formatQuantity = (value) => {
  const text = Decimal.format(value, QTY);
  return text.replace(/\.?0+$/, "") || "0";
};

/** The product's picture, or its emoji icon. */
export function thumb(product, size = "") {
  if (product?.imageRef) {
    return el("img", { class: `thumb ${size}`, src: `/images/${encodeURIComponent(product.imageRef)}`, alt: "", loading: "lazy" });
  }
  return el("span", { class: `thumb ${size}`, "aria-hidden": "true" }, product?.iconEmoji || "📦");
}

let sheetCounter = 0;
/**
 * Builds a bottom sheet (a dialog on wide screens): {dialog, body, foot}. It removes itself when closed.
 */
export function sheet(title, { wide = false } = {}) {
  const id = `sheet-title-${++sheetCounter}`;
  const body = el("div", { class: "sheet-body" });
  const foot = el("div", { class: "sheet-foot" });
  const dialog = el("dialog", { class: `sheet${wide ? " sheet-wide" : ""}`, "aria-labelledby": id },
    el("div", { class: "sheet-head" }, el("h2", { id }, title),
      el("button", { type: "button", class: "btn-icon btn-small", "aria-label": "Close", onclick: () => dialog.close() }, icon("close"))),
    body, foot);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  return { dialog, body, foot, open: () => dialog.showModal(), close: () => dialog.close() };
}

/** Reads a query-string parameter of the page. */
export const query = (name) => new URLSearchParams(location.search).get(name);
