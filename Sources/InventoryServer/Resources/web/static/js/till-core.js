// Shared by the till screens (pos, receipt, scan): display helpers, GTIN check digits, barcode look-up and the
// product picture/emoji. (The till's figures are the server's own, from a dry run of the sale: no sale arithmetic here.)
import { api, ApiError, Decimal, el, page } from "/static/js/app.js";

/** Quantities carry three decimals, tax rates two (hundredths of a percent), money the currency's minor units. */
export const QTY_SCALE = 3;
export const RATE_SCALE = 2;

/** BigInt minor units → decimal string ("12.50"). */
export function minor(value) { return Decimal.format(value, page.minorUnits); }

/** Whether `code` is a GTIN (8, 12, 13 or 14 digits) with a right check digit. */
export function gtinValid(code) {
  if (!/^\d{8}$|^\d{12,14}$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop();
  let sum = 0;
  digits.reverse().forEach((digit, index) => { sum += digit * (index % 2 === 0 ? 3 : 1); });
  return (10 - (sum % 10)) % 10 === check;
}

/**
 * Checks a typed or scanned code: null when fine, else the reason. Digit-only codes of GTIN length must carry
 * a right check digit; other digit strings must be 4–20 digits (shop-internal codes); anything else is sent as is.
 */
export function codeProblem(raw) {
  const code = String(raw ?? "").trim();
  if (!code) return "Enter a barcode";
  if (/^\d+$/.test(code)) {
    if ([8, 12, 13, 14].includes(code.length)) return gtinValid(code) ? null : "The check digit is wrong — check the number and type it again";
    if (code.length < 4 || code.length > 20) return "A barcode number has 8, 12, 13 or 14 digits";
    return null;
  }
  if (code.length > 100) return "That code is too long";
  return null;
}

/** The product with this barcode, or null when none has it. Other refusals are thrown. */
export async function productByBarcode(code) {
  try {
    return await api("GET", `/api/v1/products/barcode/${encodeURIComponent(code)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The product's picture, or its emoji icon, as a `.thumb` element. */
export function productThumb(product, extraClass = "") {
  if (product.imageRef) {
    return el("img", { class: `thumb ${extraClass}`, src: `/images/${encodeURIComponent(product.imageRef)}`, alt: "", loading: "lazy", decoding: "async" });
  }
  return el("span", { class: `thumb ${extraClass}`, "aria-hidden": "true" }, product.iconEmoji || "📦");
}

/** Whether a product cannot be sold now because it is out of stock (tracked, no negative stock allowed). */
export function soldOut(product) {
  if (!product.tracksStock || product.allowsNegativeStock) return false;
  const qty = Decimal.parse(product.quantity, QTY_SCALE) ?? 0n;
  return qty <= 0n;
}

/** A quantity for display: "2", "0.5". */
export function qtyText(text) {
  const value = Decimal.parse(text, QTY_SCALE);
  if (value === null) return String(text);
  return Decimal.format(value, QTY_SCALE).replace(/\.?0+$/, "");
}
