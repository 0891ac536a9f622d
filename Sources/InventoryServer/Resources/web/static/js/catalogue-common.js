// Shared helpers for the catalogue screens (products, categories, suppliers, customers): stock-status labels,
// category lookups, a page-level error banner and a message carried to the next screen.
import { api, el, announce } from "/static/js/app.js";

export const STATUS = {
  in_stock: "In stock",
  low: "Low",
  out: "Out",
  not_tracked: "Not tracked",
};

export function statusBadge(status) {
  return el("span", { class: `badge badge-${status}` }, STATUS[status] ?? status);
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
