// A product's recipe on its detail screen: what one unit consumes of its ingredients (a latte: 0.018 kg beans, 0.2 l
// milk). Selling it issues them from stock at their average cost — the server's rule (GET|PUT /products/{id}/recipe);
// a refusal comes back naming the field (`components[0].quantity`), which is the name of the input here.
import { api, announce, clearErrors, el, icon, showProblem } from "/static/js/app.js";
import { quantity } from "/static/js/shared/format.js";

/** Shows `product`'s recipe in `section`; `canEdit` adds the editor. */
export async function showRecipe(section, product, canEdit) {
  const recipe = await api("GET", `/api/v1/products/${product.id}/recipe`, null, { quiet: true });
  renderSummary(section, product, recipe.components, canEdit);
}

function renderSummary(section, product, components, canEdit) {
  const body = section.querySelector("[data-recipe-body]");
  const content = components.length
    ? el("ul", { class: "list", id: "pd-recipe-list" }, ...components.map((c) => el("li", {},
      el("div", { class: "main" }, el("a", { class: "title", href: `/app/products/${c.productId}` }, c.name),
        el("div", { class: "sub" }, `${quantity(c.quantity)} ${c.unit} a unit`)))))
    : el("p", { class: "muted" }, product.tracksStock ? "Not a recipe: it keeps stock of its own." : "Not a recipe.");
  const edit = canEdit ? el("button", { type: "button", id: "pd-recipe-edit" }, components.length ? "Edit recipe" : "Make it a recipe") : null;
  edit?.addEventListener("click", () => renderEditor(section, product, components));
  body.replaceChildren(content, ...(edit ? [el("div", { class: "row" }, edit)] : []));
}

async function renderEditor(section, product, saved) {
  const rows = saved.map((c) => ({ productId: c.productId, quantity: c.quantity }));
  const list = await api("GET", "/api/v1/products?limit=500&sort=name", null, { quiet: true });
  const ingredients = list.items.filter((p) => p.id !== product.id);
  const body = section.querySelector("[data-recipe-body]");
  const form = el("form", { id: "pd-recipe-form", novalidate: true }, el("div", { class: "form-error banner banner-error", role: "alert" }));
  const holder = el("ol", { class: "option-rows" });
  function draw() {
    holder.replaceChildren(...rows.map((row, i) => el("li", { class: "option-row" },
      el("div", { class: "field" }, el("label", { for: `rc-${i}-product` }, "Ingredient"),
        el("select", { id: `rc-${i}-product`, name: `components[${i}].productId`, onchange: (event) => { row.productId = Number(event.target.value); } },
          el("option", { value: "" }, "Choose…"),
          ...ingredients.map((p) => el("option", { value: String(p.id), ...(p.id === row.productId ? { selected: true } : {}) }, `${p.name} (${p.unit})`)))),
      el("div", { class: "field" }, el("label", { for: `rc-${i}-quantity` }, "Per unit"),
        el("input", { id: `rc-${i}-quantity`, name: `components[${i}].quantity`, value: row.quantity ?? "", inputmode: "decimal", class: "num",
                      oninput: (event) => { row.quantity = event.target.value.trim(); } })),
      el("button", { type: "button", class: "btn-icon", "aria-label": "Remove this ingredient", onclick: () => { rows.splice(i, 1); draw(); } }, icon("trash")))));
  }
  draw();
  const add = el("button", { type: "button", id: "pd-recipe-add", onclick: () => { rows.push({ productId: null, quantity: "" }); draw(); } }, "Add ingredient");
  const cancel = el("button", { type: "button", onclick: () => renderSummary(section, product, saved, true) }, "Cancel");
  const save = el("button", { type: "submit", class: "primary", id: "pd-recipe-save" }, "Save recipe");
  form.append(holder, el("div", { class: "form-actions" }, add, el("span", { class: "spacer" }), cancel, save));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    save.disabled = true;
    try {
      const stored = await api("PUT", `/api/v1/products/${product.id}/recipe`,
        { components: rows.map((row) => ({ productId: row.productId ?? 0, quantity: row.quantity ?? "" })) });
      announce("Recipe saved.");
      renderSummary(section, product, stored.components, true);
      section.querySelector("#pd-recipe-edit")?.focus();
    } catch (error) {
      showProblem(form, error);
    } finally {
      save.disabled = false;
    }
  });
  body.replaceChildren(form);
}
