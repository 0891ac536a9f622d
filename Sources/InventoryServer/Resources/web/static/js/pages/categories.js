// Categories: list with colour, default low-stock threshold and markup; add/edit in a sheet; delete with
// confirmation (the products in it are left without a category).
import { api, el, icon, confirmDialog, toast, announce, clearErrors, fieldError, showProblem } from "/static/js/app.js";
import { pageError, errorText } from "/static/js/catalogue-common.js";
import { quantity } from "/static/js/shared/format.js";

const list = document.getElementById("category-list");
const count = document.getElementById("category-count");
const dialog = document.getElementById("category-dialog");
const form = document.getElementById("category-form");
const heading = document.getElementById("category-dialog-title");
let editing = null;

async function load() {
  let categories;
  try {
    categories = await api("GET", "/api/v1/categories");
  } catch (error) {
    pageError(errorText(error));
    count.textContent = "";
    return;
  }
  count.textContent = categories.length ? `${categories.length} categor${categories.length === 1 ? "y" : "ies"}` : "";
  if (!categories.length) {
    list.replaceChildren(el("li", { class: "empty" }, "No categories yet. Categories group products and give them a default threshold and markup.",
      el("div", {}, el("button", { type: "button", class: "primary", onclick: () => open(null) }, icon("plus"), "Add the first category"))));
    return;
  }
  list.replaceChildren(...categories.map(row));
  // How many products each holds (one small request each; the total comes with the page).
  await Promise.all(categories.map(async (category) => {
    try {
      const page = await api("GET", `/api/v1/products?categoryId=${category.id}&limit=1`, null, { quiet: true });
      const box = list.querySelector(`[data-id="${category.id}"] .cat-products`);
      if (box) {
        box.replaceChildren(el("a", { href: `/app/products?categoryId=${category.id}` }, `${page.total} product${page.total === 1 ? "" : "s"}`));
        box.closest("li").dataset.products = page.total;
      }
    } catch { /* counts are a nicety */ }
  }));
}

function row(category) {
  const facts = [
    category.lowStockThreshold ? `low stock at ${quantity(category.lowStockThreshold)}` : "low stock at the shop default",
    `markup ${quantity(category.markup)} %`,
  ];
  return el("li", { dataset: { id: category.id } },
    el("span", { class: "dot", style: `background:${/^#[0-9a-f]{6}$/i.test(category.color) ? category.color : "transparent"}`, "aria-hidden": "true" }),
    el("div", { class: "main" },
      el("div", { class: "title" }, category.name),
      el("div", { class: "sub" }, facts.join(" · "), " · ", el("span", { class: "cat-products" }, "…"))),
    el("div", { class: "actions" },
      el("button", { type: "button", class: "btn-icon", "aria-label": `Edit ${category.name}`, title: "Edit", onclick: () => open(category) }, icon("edit")),
      el("button", { type: "button", class: "btn-icon danger", "aria-label": `Delete ${category.name}`, title: "Delete", onclick: (event) => remove(category, event.currentTarget) }, icon("trash"))));
}

function open(category) {
  editing = category;
  clearErrors(form);
  form.reset();
  heading.textContent = category ? `Edit ${category.name}` : "New category";
  form.name.value = category?.name ?? "";
  form.color.value = category?.color ?? "#0f6b63";
  form.lowStockThreshold.value = category?.lowStockThreshold ?? "";
  form.markup.value = category?.markup ?? "";
  dialog.showModal();
  form.name.focus();
}

async function remove(category, button) {
  const products = Number(button.closest("li")?.dataset.products ?? 0);
  const message = products
    ? `Delete the category ${category.name}? Its ${products} product${products === 1 ? " is" : "s are"} kept, with no category.`
    : `Delete the category ${category.name}?`;
  if (!(await confirmDialog(message))) return;
  try {
    await api("DELETE", `/api/v1/categories/${category.id}`);
    pageError(null);
    toast(`${category.name} deleted`);
    load();
  } catch (error) {
    pageError(`Not deleted: ${errorText(error)}`);
  }
}

for (const button of dialog.querySelectorAll("[data-close]")) button.addEventListener("click", () => dialog.close());

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(form);
  const name = form.name.value.trim();
  if (!name) {
    fieldError(form, "name", "Give the category a name.");
    form.name.focus();
    announce("Check the highlighted fields.", { assertive: true });
    return;
  }
  // The threshold and markup go as typed: how many decimals each takes, and that "80 %" and "2,5" are read, is the
  // domain's rule; the server's refusal names the field and is shown on it.
  const threshold = form.lowStockThreshold.value.trim();
  const markup = form.markup.value.trim();
  const body = { name, color: form.color.value };
  if (threshold) body.lowStockThreshold = threshold;
  if (markup) body.markup = markup;
  const save = document.getElementById("category-save");
  save.disabled = true;
  try {
    const saved = editing ? await api("PUT", `/api/v1/categories/${editing.id}`, body) : await api("POST", "/api/v1/categories", body);
    dialog.close();
    toast(`${saved.name} saved`);
    await load();
    list.querySelector(`[data-id="${saved.id}"] button`)?.focus();
  } catch (error) {
    showProblem(form, error);
  } finally {
    save.disabled = false;
  }
});

document.getElementById("category-add").addEventListener("click", () => open(null));
load();
