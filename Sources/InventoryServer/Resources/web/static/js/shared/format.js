// Money and quantities in the web app: the one place that reads, writes and shows them. Exact decimals (BigInt
// scaled integers, never floating point). The figures themselves are the server's: nothing here prices, discounts,
// taxes or rounds a sale — those rules are the domain's (Swift), and screens show what the API answered.
//   import { money, quantity, parseMoney, Decimal } from "/static/js/shared/format.js";

/** The shop's currency and its decimals, from the page (the layout puts them on <body>). */
export const currency = () => document.body?.dataset.currency || "EUR";
export const minorUnits = () => Number(document.body?.dataset.minorUnits ?? 2);

/** Quantities travel with at most three decimals, percentages with two. */
export const QTY_SCALE = 3;
export const RATE_SCALE = 2;

export const Decimal = {
  /** "12.5" at scale 2 → 1250n; null when the text is not a plain decimal with at most `scale` decimals. */
  parse(text, scale) {
    const value = String(text ?? "").trim();
    const match = /^([+-]?)(\d*)(?:[.,](\d*))?$/.exec(value);
    if (!match || (match[2] === "" && (match[3] ?? "") === "")) return null;
    const fraction = match[3] ?? "";
    if (fraction.length > scale) return null;
    const digits = (match[2] || "0") + fraction.padEnd(scale, "0");
    const result = BigInt(digits);
    return match[1] === "-" ? -result : result;
  },
  /** 1250n at scale 2 → "12.50". */
  format(value, scale) {
    const negative = value < 0n;
    const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
    const text = scale > 0 ? digits.slice(0, -scale) + "." + digits.slice(-scale) : digits;
    return (negative ? "-" : "") + text;
  },
  /** a / b rounded half away from zero. */
  divide(a, b) {
    if (b === 0n) return null;
    const negative = (a < 0n) !== (b < 0n);
    const [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
    const q = (x * 2n + y) / (y * 2n);
    return negative ? -q : q;
  },
  /** Changes scale with rounding half away from zero. */
  rescale(value, from, to) {
    if (to >= from) return value * 10n ** BigInt(to - from);
    return Decimal.divide(value, 10n ** BigInt(from - to));
  },
};

/** A change of price the server sent ("0.50", "-0.30") with its sign: "+€0.50", "−€0.30". */
export function signedMoney(text) {
  const value = String(text ?? "");
  return value.startsWith("-") ? money(value) : "+" + money(value);
}

/** An amount the server sent ("12.5") shown in the shop's currency ("€12.50"); "" for none. */
export function money(text) {
  if (text === undefined || text === null || text === "") return "";
  const scale = minorUnits();
  const value = Decimal.parse(text, 8);
  if (value === null) return String(text);
  const plain = Decimal.format(Decimal.rescale(value, 8, scale), scale);
  const negative = plain.startsWith("-");
  const [whole, fraction] = plain.replace("-", "").split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const number = fraction ? `${grouped}.${fraction}` : grouped;
  const { symbol, before } = currencySymbol();
  return (negative ? "−" : "") + (before ? symbol + number : `${number} ${symbol}`);
}

let symbolCache = null;
function currencySymbol() {
  if (symbolCache) return symbolCache;
  try {
    const parts = new Intl.NumberFormat("en", { style: "currency", currency: currency() }).formatToParts(1);
    const index = parts.findIndex((part) => part.type === "currency");
    const integer = parts.findIndex((part) => part.type === "integer");
    symbolCache = { symbol: parts[index].value, before: index < integer };
  } catch {
    symbolCache = { symbol: currency(), before: false };
  }
  return symbolCache;
}

/** A decimal the server sent shown without trailing zeros ("12.500" → "12.5", "3.000" → "3"); exact at any scale. */
export function quantity(text) {
  if (text === undefined || text === null) return "";
  const value = String(text).trim();
  if (!/^[+-]?\d*[.,]\d*$/.test(value)) return value;
  return value.replace(/0+$/, "").replace(/[.,]$/, "") || "0";
}

/** Whether a decimal the server sent is zero ("0.00", "0"); false for anything that is not a number. */
export const isZero = (text) => Decimal.parse(text, 12) === 0n;

/** A typed amount → BigInt minor units, or null when it is not one (too many decimals, not a number). */
export const parseMoney = (text) => Decimal.parse(text, minorUnits());
/** BigInt minor units → "12.50", as the API takes amounts. */
export const moneyValue = (value) => Decimal.format(value, minorUnits());
/** A typed quantity → BigInt thousandths, or null. */
export const parseQuantity = (text) => Decimal.parse(text, QTY_SCALE);
/** BigInt thousandths → "2.5", as the API takes quantities and screens show them. */
export const quantityValue = (value) => quantity(Decimal.format(value, QTY_SCALE));

/** Whole minutes as "3 h 05 min" (a shift's or a session's time clocked in). */
export const hoursAndMinutes = (minutes) => `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
