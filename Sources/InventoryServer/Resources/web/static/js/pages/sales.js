// Sales: the list (cards with paging), a document's detail sheet, and the new/edit form (documents-form.js).
import { page } from "/static/js/app.js";
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
  documentForm("sale", container, editing ? page.id : null);
} else {
  documentList("sale", container, /^\d+$/.test(page.id) ? page.id : null);
  followHistory("sale");
  followLiveSales(container);
}
