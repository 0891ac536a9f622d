// A product's options at the till (size, milk, extras) on its detail screen: what the server keeps, and for those who
// edit the catalogue an editor that sends the whole set back (PUT /api/v1/products/{id}/options). The rules (one or
// several per group, the default, names, price limits) are the server's: a refusal comes back naming the field
// (`groups[1].options[0].name`), which is the name of the input here.
import { api, announce, clearErrors, el, icon, showProblem } from "/static/js/app.js";
import { isZero, signedMoney } from "/static/js/shared/format.js";

const KINDS = [["required", "Choose one (always)"], ["optional", "Choose one or none"], ["multiple", "Choose any"]];
const kindOf = (group) => (group.multiple ? "multiple" : group.required ? "required" : "optional");

/** Shows product `productId`'s options in `section`; `canEdit` adds the editor. */
export async function showOptions(section, productId, canEdit) {
  const groups = (await api("GET", `/api/v1/products/${productId}/options`, null, { quiet: true })).groups;
  renderSummary(section, productId, groups, canEdit);
}

function renderSummary(section, productId, groups, canEdit) {
  const body = section.querySelector("[data-options-body]");
  const list = groups.length
    ? el("ul", { class: "list", id: "pd-options-list" }, ...groups.map((group) => el("li", {},
      el("div", { class: "main" }, el("span", { class: "title" }, group.name),
        el("div", { class: "sub" }, `${KINDS.find(([kind]) => kind === kindOf(group))[1]}: `
          + group.options.map((o) => `${o.name}${isZero(o.priceChange) ? "" : ` ${signedMoney(o.priceChange)}`}${o.isDefault ? " (default)" : ""}`).join(", "))))))
    : el("p", { class: "muted" }, "No options: the till adds this product with one tap.");
  const edit = canEdit ? el("button", { type: "button", id: "pd-options-edit" }, groups.length ? "Edit options" : "Add options") : null;
  edit?.addEventListener("click", () => renderEditor(section, productId, groups));
  body.replaceChildren(list, ...(edit ? [el("div", { class: "row" }, edit)] : []));
}

function renderEditor(section, productId, saved) {
  // Work on a copy: Cancel goes back to what the server keeps.
  let groups = structuredClone(saved);
  const body = section.querySelector("[data-options-body]");
  const form = el("form", { id: "pd-options-form", novalidate: true },
    el("div", { class: "form-error banner banner-error", role: "alert" }));
  const holder = el("div", {});

  function draw() {
    holder.replaceChildren(...groups.map((group, g) => el("fieldset", { class: "option-group-editor card" },
      el("legend", {}, `Group ${g + 1}`),
      el("div", { class: "form-grid" },
        el("div", { class: "field" }, el("label", { for: `og-${g}-name` }, "Name"),
          el("input", { id: `og-${g}-name`, name: `groups[${g}].name`, value: group.name, maxlength: "200", placeholder: "Size, Milk, Extras",
                        oninput: (event) => { group.name = event.target.value; } })),
        el("div", { class: "field" }, el("label", { for: `og-${g}-kind` }, "Choice"),
          el("select", { id: `og-${g}-kind`, name: `groups[${g}].required`, onchange: (event) => {
            group.multiple = event.target.value === "multiple";
            group.required = event.target.value === "required";
            if (group.multiple) for (const option of group.options) option.isDefault = false;
            draw();
          } }, ...KINDS.map(([kind, label]) => el("option", { value: kind, ...(kindOf(group) === kind ? { selected: true } : {}) }, label))))),
      el("ol", { class: "option-rows" }, ...group.options.map((option, o) => el("li", { class: "option-row" },
        el("div", { class: "field" }, el("label", { for: `og-${g}-${o}-name` }, "Option"),
          el("input", { id: `og-${g}-${o}-name`, name: `groups[${g}].options[${o}].name`, value: option.name, maxlength: "200",
                        oninput: (event) => { option.name = event.target.value; } })),
        el("div", { class: "field" }, el("label", { for: `og-${g}-${o}-price` }, "Price change"),
          el("input", { id: `og-${g}-${o}-price`, name: `groups[${g}].options[${o}].priceChange`, value: option.priceChange ?? "0",
                        inputmode: "decimal", class: "num", oninput: (event) => { option.priceChange = event.target.value.trim(); } })),
        group.multiple ? null : el("label", { class: "check", for: `og-${g}-${o}-default` },
          el("input", { type: "radio", id: `og-${g}-${o}-default`, name: `groups[${g}].options[${o}].isDefault`, "data-default-of": String(g),
                        ...(option.isDefault ? { checked: true } : {}),
                        onchange: () => { for (const other of group.options) other.isDefault = other === option; } }), "Default"),
        el("button", { type: "button", class: "btn-icon", "aria-label": `Remove ${option.name || "this option"}`,
                       onclick: () => { group.options.splice(o, 1); draw(); } }, icon("trash"))))),
      el("div", { class: "row" },
        el("button", { type: "button", class: "btn-small", onclick: () => { group.options.push({ name: "", priceChange: "0", isDefault: false }); draw(); } },
          "Add option"),
        el("button", { type: "button", class: "btn-small", onclick: () => { groups.splice(g, 1); draw(); } }, `Remove group ${g + 1}`)))));
  }
  draw();
  const add = el("button", { type: "button", id: "pd-options-add-group",
                             onclick: () => { groups.push({ name: "", multiple: false, required: true, options: [{ name: "", priceChange: "0", isDefault: true }] }); draw(); } },
                 "Add group");
  const cancel = el("button", { type: "button", onclick: () => renderSummary(section, productId, saved, true) }, "Cancel");
  const save = el("button", { type: "submit", class: "primary", id: "pd-options-save" }, "Save options");
  form.append(holder, el("div", { class: "form-actions" }, add, el("span", { class: "spacer" }), cancel, save));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    save.disabled = true;
    try {
      const body = { groups: groups.map((group) => ({
        ...(group.id ? { id: group.id } : {}), name: group.name, multiple: Boolean(group.multiple), required: Boolean(group.required),
        options: group.options.map((option) => ({ ...(option.id ? { id: option.id } : {}), name: option.name,
                                                  priceChange: option.priceChange || "0", isDefault: Boolean(option.isDefault) })),
      })) };
      const stored = await api("PUT", `/api/v1/products/${productId}/options`, body);
      announce("Options saved.");
      renderSummary(section, productId, stored.groups, true);
      section.querySelector("#pd-options-edit")?.focus();
    } catch (error) {
      showProblem(form, error);
    } finally {
      save.disabled = false;
    }
  });
  body.replaceChildren(form);
  form.querySelector("input")?.focus();
}
