// Barcodes in the web app. The rule is the server's (Sources/InventoryDomain/Barcode.swift): which all-digit codes
// are GTINs (8, 12, 13 and 14 digits) and must carry a right check digit, and that UPC-E, UPC-A and EAN-13 are one
// code. Its look-up answers a code that cannot be a barcode with the reason (422), an unknown one with 404; saving a
// product says the same. So the browser checks no check digit: here are only tidying what a person typed, telling a
// code to look up from words to search for, and the look-up itself.
//   import { typedBarcode, looksLikeBarcode, productByBarcode } from "/static/js/shared/barcode.js";
import { api, ApiError } from "/static/js/app.js";

/** A barcode as a person typed it, tidied: the spaces and dashes of printed digits dropped ("4 006381-333931"); other codes trimmed. */
export function typedBarcode(text) {
  const trimmed = String(text ?? "").trim();
  const digits = trimmed.replace(/[\s-]/g, "");
  return /^\d+$/.test(digits) ? digits : trimmed;
}

/** Whether text typed into a search field (by hand or by a scanner) is a code to look up rather than words: 6 to 14 digits. */
export const looksLikeBarcode = (text) => /^\d{6,14}$/.test(typedBarcode(text));

/**
 * The product with this barcode, or null when no product has it. A code that cannot be a barcode is refused by the
 * server: an ApiError whose message is the reason ("… check digit should be 1, not 2"). Other refusals are thrown too.
 */
export async function productByBarcode(code, { quiet = false } = {}) {
  try {
    return await api("GET", `/api/v1/products/barcode/${encodeURIComponent(typedBarcode(code))}`, null, { quiet });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
