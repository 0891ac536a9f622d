// Shared by purchases, sales and the stock count: the screen's permissions and a sheet (<dialog class="sheet">)
// builder. (Costs and totals come from the server's dry run; money, quantities, dates and thumbnails: shared/.)
import { el, icon } from "/static/js/app.js";

/** The screen's root element and its data attributes (permissions). */
export const root = () => document.getElementById("documents");
export const flag = (name) => root()?.dataset[name] === "1";

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
