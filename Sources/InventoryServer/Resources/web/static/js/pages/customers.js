// Customers: the shared contact list and editor.
import { contactsPage } from "/static/js/catalogue-contacts.js";

contactsPage(document.getElementById("contacts-root"));
