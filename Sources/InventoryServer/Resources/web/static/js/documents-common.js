// Shared by purchases, sales and the stock count: dates in the shop's time zone, exact decimal helpers, the
// product picture, a sheet (<dialog class="sheet">) builder and the weighted-average cost preview.
import { el, icon, Decimal, page } from "/static/js/app.js";

/** The screen's root element and its data attributes (permissions, the shop's time zone). */
export const root = () => document.getElementById("documents");
export const flag = (name) => root()?.dataset[name] === "1";
export const timeZone = () => root()?.dataset.timeZone || "UTC";

const QTY = 3;      // quantities travel with at most 3 decimals
const COST = 8;     // average costs are parsed generously

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

/**
 * The moving average cost after receiving q at unit cost h, when the product holds Q at average cost C:
 * (Q·C + q·h) / (Q + q), exact, rounded half away from zero to the currency's minor units. With nothing (or less
 * than nothing) in stock the new average is h. Strings in, string out; null when an input is not a number.
 * `base` may instead give the stock as {quantity: BigInt scale 3, value: BigInt scale 3+8}.
 */
export function averageCost({ stockQuantity, averageCost: current, base }, quantity, unitCost) {
  const q = parseQuantity(quantity);
  const h = parseMoney(unitCost);
  if (q === null || h === null || q <= 0n) return null;
  const m = page.minorUnits;
  let Q, V;
  if (base) { Q = base.quantity; V = base.value; }
  else {
    Q = parseQuantity(stockQuantity ?? "0") ?? 0n;
    const C = Decimal.parse(current ?? "0", COST) ?? 0n;
    V = Q * C;                                       // scale 3 + 8
  }
  if (Q <= 0n) return { text: formatMoneyValue(h), quantity: q, value: q * Decimal.rescale(h, m, COST) };
  const added = q * Decimal.rescale(h, m, COST);     // scale 3 + 8
  const numerator = V + added;
  const denominator = Q + q;                         // scale 3
  // numerator / denominator is at scale 8; one rounding straight to the minor units:
  const result = Decimal.divide(numerator * 10n ** BigInt(m), denominator * 10n ** BigInt(COST));
  return { text: formatMoneyValue(result), quantity: denominator, value: numerator };
}

/** The stock a product holds as a `base` for averageCost (quantity scale 3, value scale 11). */
export function stockBase(product) {
  const Q = parseQuantity(product?.quantity ?? "0") ?? 0n;
  const C = Decimal.parse(product?.costPrice ?? "0", COST) ?? 0n;
  return { quantity: Q, value: Q * C };
}
export const COST_SCALE = COST;

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
