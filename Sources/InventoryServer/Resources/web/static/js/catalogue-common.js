// Shared helpers for the catalogue screens (products, categories, suppliers, customers): GTIN check digits,
// stock-status labels, product pictures, category lookups, a page-level error banner and date formatting.
import { api, el, announce, Decimal } from "/static/js/app.js";

/** The GTIN check digit of `body` (all digits but the last), or null. */
export function gtinCheckDigit(body) {
  if (!/^\d+$/.test(body)) return null;
  let total = 0;
  [...body].reverse().forEach((digit, index) => { total += Number(digit) * (index % 2 === 0 ? 3 : 1); });
  return String((10 - (total % 10)) % 10);
}

/**
 * Checks a barcode the user typed. Codes of 8, 12, 13 or 14 digits are GTIN-8 / UPC-A / EAN-13 / GTIN-14 and
 * must carry the right check digit; other codes (the shop's own labels) pass. Returns an error message or null.
 */
export function barcodeProblem(text) {
  const code = String(text ?? "").replace(/[\s-]/g, "");
  if (code === "") return null;
  if (/^\d+$/.test(code) && [8, 12, 13, 14].includes(code.length)) {
    const expected = gtinCheckDigit(code.slice(0, -1));
    const actual = code.slice(-1);
    if (expected !== actual) {
      const kind = { 8: "EAN-8", 12: "UPC-A", 13: "EAN-13", 14: "GTIN-14" }[code.length];
      return `Not a valid ${kind}: the check digit should be ${expected}, not ${actual}. Check the number.`;
    }
  }
  if (code.length > 64) return "A barcode has at most 64 characters.";
  return null;
}

export const STATUS = {
  in_stock: "In stock",
  low: "Low",
  out: "Out",
  not_tracked: "Not tracked",
};

export function statusBadge(status) {
  return el("span", { class: `badge badge-${status}` }, STATUS[status] ?? status);
}

/** The picture of a product (an <img>) or its emoji icon, in a .thumb box. */
export function productThumb(product, { large = false } = {}) {
  const cls = "thumb" + (large ? " thumb-lg" : "");
  if (product.imageRef) {
    return el("img", { class: cls, src: `/images/${encodeURIComponent(product.imageRef)}`, alt: "", loading: "lazy", decoding: "async", width: large ? 120 : 48, height: large ? 120 : 48 });
  }
  return el("span", { class: cls, "aria-hidden": "true" }, product.iconEmoji || "📦");
}

let categoriesPromise = null;
/** Every category, fetched once per page. */
export function loadCategories({ fresh = false } = {}) {
  if (!categoriesPromise || fresh) {
    categoriesPromise = api("GET", "/api/v1/categories").catch((error) => { categoriesPromise = null; throw error; });
  }
  return categoriesPromise;
}

/** Fills a <select> with the categories (keeping its first "none/all" option). */
export async function fillCategorySelect(select, selected) {
  const categories = await loadCategories();
  const first = select.querySelector("option[value='']");
  select.replaceChildren(...(first ? [first] : []), ...categories.map((category) =>
    el("option", { value: category.id, selected: String(category.id) === String(selected ?? "") }, category.name)));
  return categories;
}

/** Shows an API refusal (or any message) in the page's error banner, and announces it. */
export function pageError(message) {
  let box = document.getElementById("catalogue-error");
  if (!box) {
    box = el("div", { id: "catalogue-error", class: "banner banner-error", role: "alert" });
    document.getElementById("main").prepend(box);
  }
  box.hidden = !message;
  box.textContent = message ?? "";
  if (message) {
    announce(message, { assertive: true });
    box.scrollIntoView({ block: "nearest" });
  }
}

export function errorText(error) {
  return error?.problem?.detail || error?.message || String(error);
}

/** "2026-03-01T14:30:00Z" → "1 Mar 2026, 15:30" in the shop's time zone. */
export function formatDateTime(iso, timeZone) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const options = { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" };
  try {
    return new Intl.DateTimeFormat("en-GB", { ...options, timeZone: timeZone || undefined }).format(date);
  } catch {
    return new Intl.DateTimeFormat("en-GB", options).format(date);
  }
}

/** A decimal quantity as text without trailing zeros ("12.500" → "12.5"). */
export function quantity(text) {
  const value = Decimal.parse(text, 6);
  if (value === null) return String(text ?? "");
  return Decimal.format(value, 6).replace(/\.?0+$/, "") || "0";
}

/** Checks a decimal field: returns the error message or null. */
export function decimalProblem(text, { scale, min = 0n, max = null, what = "number", example = "12.50" }) {
  if (text === undefined || text === null || String(text).trim() === "") return null;
  const value = Decimal.parse(String(text).replace(/%$/, ""), scale);
  if (value === null) {
    const anyScale = Decimal.parse(String(text), 12);
    if (anyScale !== null) return `Use at most ${scale} decimal${scale === 1 ? "" : "s"} for the ${what}.`;
    return `Write the ${what} as a number, like ${example}.`;
  }
  if (min !== null && value < min * 10n ** BigInt(scale)) return `The ${what} cannot be negative.`;
  if (max !== null && value > max * 10n ** BigInt(scale)) return `The ${what} is at most ${max}.`;
  return null;
}

/** One-shot message carried to the next screen (e.g. "Saved" after a redirect). */
export function flash(message) {
  if (message === undefined) {
    const text = sessionStorage.getItem("catalogue-flash");
    sessionStorage.removeItem("catalogue-flash");
    return text;
  }
  sessionStorage.setItem("catalogue-flash", message);
  return message;
}
