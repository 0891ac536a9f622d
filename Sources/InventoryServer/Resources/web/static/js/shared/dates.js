// Shop time in the web app: the one place that shows dates and times and fills in date fields. The server sends
// instants as ISO 8601 UTC with integer milliseconds and keeps the shop's IANA time zone in its settings (the layout
// puts it on <body data-time-zone>); screens show every time in that zone, whatever the device's. Date fields are
// filled with shop time ("2026-11-22T15:30", "2026-11-22") and sent as typed: the server reads them in the shop's
// zone, so the browser never converts a typed time into an instant itself.
//   import { dateTime, shopDay, localInput } from "/static/js/shared/dates.js";

/** The shop's IANA time zone ("Europe/Berlin"); UTC when the page does not say. */
export const shopTimeZone = () => document.body?.dataset.timeZone || "UTC";

/** Intl.DateTimeFormat in the shop's zone (in UTC should the browser not know the zone). */
function inShopTime(locale, options) {
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: shopTimeZone() });
  } catch {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
  }
}

/** The calendar fields of an instant in shop time: {year, month, day, hour, minute}, two digits each but the year. */
function fields(date) {
  const parts = inShopTime("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
    .formatToParts(date);
  return Object.fromEntries(parts.map((part) => [part.type, part.value]));
}

/** An instant the server sent ("2026-11-22T14:30:00.000Z") shown in shop time ("22 Nov 2026, 15:30"); "" for none. */
export function dateTime(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return inShopTime("en-GB", { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** Today, or `days` from today, as YYYY-MM-DD in shop time (for <input type="date"> and day comparisons). */
export function shopDay(days = 0) {
  const { year, month, day } = fields(new Date(Date.now() + days * 86_400_000));
  return `${year}-${month}-${day}`;
}

/** An instant (now when none is given) as the value of <input type="datetime-local"> in shop time: "2026-11-22T15:30". */
export function localInput(iso) {
  const date = iso ? new Date(iso) : new Date();
  if (Number.isNaN(date.getTime())) return "";
  const { year, month, day, hour, minute } = fields(date);
  return `${year}-${month}-${day}T${hour}:${minute}`;
}
