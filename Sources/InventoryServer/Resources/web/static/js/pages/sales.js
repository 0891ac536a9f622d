// Sales: the list (cards with paging), a document's detail sheet, and the new/edit form (documents-form.js).
import { page, el } from "/static/js/app.js";
import { documentList, followHistory, followLiveSales } from "/static/js/documents-list.js";
import { documentForm } from "/static/js/documents-form.js";

const container = document.getElementById("documents-view");
const fab = document.getElementById("doc-add");
const title = document.getElementById("page-title");
if (page.id === "new" || page.action === "edit") {
  if (fab) fab.hidden = true;
  const editing = page.action === "edit";
  title.textContent = editing ? "Edit sale #" + page.id : "New sale";
  document.title = title.textContent + " · " + document.title.split(" · ").slice(1).join(" · ");
  if (editing && document.getElementById("documents")?.dataset.canRefund !== "1") {
    container.replaceChildren(el("p", { class: "banner banner-warn", role: "alert" }, "Changing a recorded sale needs a manager. Lock the till and let a manager sign in with their PIN."),
      el("a", { class: "btn", href: `/app/sales/${page.id}` }, "Back to the sale"));
  } else {
    documentForm("sale", container, editing ? page.id : null);
  }
} else {
  documentList("sale", container, /^\d+$/.test(page.id) ? page.id : null);
  followHistory("sale");
  followLiveSales(container);
}
