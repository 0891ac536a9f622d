// One contact list + editor for suppliers and customers: cards with name, location, phone (tel:) and e-mail,
// search as you type, add/edit in a sheet, delete with confirmation (the API refuses a contact in use).
import { api, el, icon, debounce, confirmDialog, toast, announce, clearErrors, fieldError, showProblem } from "/static/js/app.js";
import { pageError, errorText } from "/static/js/catalogue-common.js";

const PHONE = /^[0-9 +()./-]*$/;
const EMAIL = /^([^@\s]+@[^@\s]+\.[^@\s]+)?$/;

/**
 * Builds the screen inside `root` (data-kind="suppliers|customers", data-singular, data-can-edit="true").
 */
export function contactsPage(root) {
  const kind = root.dataset.kind;
  const singular = root.dataset.singular;
  const Singular = singular[0].toUpperCase() + singular.slice(1);
  const canEdit = root.dataset.canEdit === "true";
  const endpoint = `/api/v1/${kind}`;
  const suppliers = kind === "suppliers";   // a supplier has a lead time (days from ordering to delivery)
  let editing = null;
  let generation = 0;

  const search = el("input", { type: "search", id: "contact-search", placeholder: `Search ${kind} by name`, autocomplete: "off", enterkeyhint: "search" });
  const count = el("p", { class: "muted", id: "contact-count", role: "status", "aria-live": "polite" });
  const grid = el("ul", { class: "contact-grid", id: "contact-list", "aria-label": kind[0].toUpperCase() + kind.slice(1), style: "list-style:none;margin:0;padding:0" });
  const addButton = canEdit ? el("button", { type: "button", class: "primary", id: "contact-add", onclick: () => open(null) }, icon("plus"), `Add ${singular}`) : null;

  // ----- the editor sheet -----
  const field = (name, label, attributes = {}, hint = null) => {
    const id = `ct-${name}`;
    const control = attributes.multiline
      ? el("textarea", { id, name, rows: 3, ...attributes, multiline: null })
      : el("input", { id, name, autocomplete: "off", ...attributes });
    return el("div", { class: "field" + (attributes.wide ? " wide" : "") },
      el("label", { for: id }, label, attributes.required ? el("span", { class: "req", "aria-hidden": "true" }, " *") : null),
      control, hint ? el("div", { class: "hint" }, hint) : null);
  };
  const heading = el("h2", { id: "contact-dialog-title" }, `New ${singular}`);
  const form = el("form", { id: "contact-form", novalidate: true },
    el("div", { class: "sheet-head" }, heading,
      el("button", { type: "button", class: "btn-icon btn-small", "aria-label": "Close", onclick: () => dialog.close() }, icon("close"))),
    el("div", { class: "sheet-body" },
      el("div", { class: "form-error banner banner-error", role: "alert" }),
      el("div", { class: "form-grid" },
        field("name", "Name", { required: true, maxlength: 200, wide: true }),
        field("location", "Location", { maxlength: 200 }),
        field("phone", "Phone", { type: "tel", inputmode: "tel", maxlength: 40 }),
        field("email", "E-mail", { type: "email", inputmode: "email", maxlength: 200, wide: true }),
        suppliers ? field("leadTimeDays", "Lead time (days)", { inputmode: "numeric", placeholder: "0" },
          "Days from ordering to delivery; the reorder screen buys enough to last through them.") : null,
        field("note", "Note", { multiline: true, wide: true, maxlength: 2000 }))),
    el("div", { class: "sheet-foot" },
      el("button", { type: "button", onclick: () => dialog.close() }, "Cancel"),
      el("button", { type: "submit", class: "primary", id: "contact-save" }, `Save ${singular}`)));
  for (const wide of form.querySelectorAll("[wide]")) { wide.removeAttribute("wide"); }
  const dialog = el("dialog", { class: "sheet", id: "contact-dialog", "aria-labelledby": "contact-dialog-title" }, form);

  root.append(
    el("div", { class: "list-toolbar" },
      el("div", { class: "field grow" },
        el("label", { for: "contact-search", class: "sr-only" }, `Search ${kind}`),
        el("div", { class: "search" }, icon("search"), search)),
      addButton),
    count, grid, dialog);

  async function load() {
    const current = ++generation;
    const query = search.value.trim();
    let contacts;
    try {
      contacts = await api("GET", endpoint + (query ? `?search=${encodeURIComponent(query)}` : ""));
    } catch (error) {
      if (current === generation) pageError(errorText(error));
      return;
    }
    if (current !== generation) return;
    count.textContent = contacts.length ? `${contacts.length} ${contacts.length === 1 ? singular : kind}` : "";
    if (!contacts.length) {
      grid.replaceChildren(el("li", { class: "empty card" },
        query ? `No ${singular} matches “${query}”.` : `No ${kind} yet.`,
        canEdit && !query ? el("div", { style: "margin-top:.75rem" }, el("button", { type: "button", class: "primary", onclick: () => open(null) }, icon("plus"), `Add the first ${singular}`)) : null));
      return;
    }
    grid.replaceChildren(...contacts.map(card));
  }

  function card(contact) {
    return el("li", { class: "card contact-card", dataset: { id: contact.id } },
      el("h3", {}, contact.name),
      contact.location ? el("div", { class: "line muted" }, contact.location) : null,
      contact.phone ? el("div", { class: "line" }, el("a", { href: `tel:${contact.phone.replace(/[^\d+]/g, "")}`, "aria-label": `Call ${contact.name}: ${contact.phone}` }, contact.phone)) : null,
      contact.email ? el("div", { class: "line" }, el("a", { href: `mailto:${contact.email}` }, contact.email)) : null,
      suppliers && contact.leadTimeDays ? el("div", { class: "line muted lead-time" }, `Delivers in ${contact.leadTimeDays} day${contact.leadTimeDays === 1 ? "" : "s"}`) : null,
      contact.note ? el("div", { class: "note" }, contact.note) : null,
      canEdit ? el("div", { class: "actions" },
        el("button", { type: "button", class: "btn-small", "aria-label": `Edit ${contact.name}`, onclick: () => open(contact) }, icon("edit"), "Edit"),
        el("button", { type: "button", class: "btn-small danger", "aria-label": `Delete ${contact.name}`, onclick: () => remove(contact) }, icon("trash"), "Delete")) : null);
  }

  function open(contact) {
    editing = contact;
    clearErrors(form);
    heading.textContent = contact ? `Edit ${contact.name}` : `New ${singular}`;
    for (const name of ["name", "location", "phone", "email", "note"]) form.elements[name].value = contact?.[name] ?? "";
    if (suppliers) form.elements.leadTimeDays.value = contact?.leadTimeDays ? String(contact.leadTimeDays) : "";
    dialog.showModal();
    form.elements.name.focus();
  }

  async function remove(contact) {
    if (!(await confirmDialog(`Delete the ${singular} ${contact.name}? Only a ${singular} no document names can be deleted.`))) return;
    try {
      await api("DELETE", `${endpoint}/${contact.id}`);
      pageError(null);
      toast(`${contact.name} deleted`);
      load();
    } catch (error) {
      pageError(`Not deleted: ${errorText(error)}`);
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const values = Object.fromEntries(["name", "location", "phone", "email", "note"].map((name) => [name, form.elements[name].value.trim()]));
    const problems = {
      name: values.name ? null : `Give the ${singular} a name.`,
      phone: PHONE.test(values.phone) ? null : "A phone number has digits, spaces and + ( ) . / - only.",
      email: EMAIL.test(values.email) ? null : "Write an e-mail address like name@example.com.",
    };
    if (suppliers) {
      const lead = form.elements.leadTimeDays.value.trim();
      if (/^\d{1,3}$/.test(lead) || lead === "") values.leadTimeDays = lead === "" ? 0 : Number(lead);
      else problems.leadTimeDays = "Give the lead time as whole days, 0 to 365.";
    }
    let first = null;
    for (const [name, message] of Object.entries(problems)) {
      if (message) { fieldError(form, name, message); first ??= form.elements[name]; }
    }
    if (first) { first.focus(); announce("Check the highlighted fields.", { assertive: true }); return; }
    const save = form.querySelector("#contact-save");
    save.disabled = true;
    try {
      // PUT replaces the contact, so empty fields are sent to clear them.
      const saved = editing ? await api("PUT", `${endpoint}/${editing.id}`, values) : await api("POST", endpoint, values);
      dialog.close();
      toast(`${saved.name} saved`);
      await load();
      grid.querySelector(`[data-id="${saved.id}"] button`)?.focus();
    } catch (error) {
      showProblem(form, error);
    } finally {
      save.disabled = false;
    }
  });

  search.addEventListener("input", debounce(load, 250));
  load();
}
