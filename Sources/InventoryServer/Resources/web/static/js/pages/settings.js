// Settings: shop name, currency, time zone, default tax, low-stock default, lock minutes, whether prices include tax,
// the receipt's details (GET/PUT /api/v1/settings; POST /api/v1/settings/reprice switches the prices' meaning once
// sales are booked).
import { api, el, showProblem, clearErrors, confirmDialog, toast, announce } from "/static/js/app.js";

const form = document.getElementById("settings-form");
const repriceButton = document.getElementById("settings-reprice");
let saved = null;

function supported(kind, fallback) {
  try { return Intl.supportedValuesOf(kind); } catch { return fallback; }
}

function currencyName(code) {
  try { return new Intl.DisplayNames(["en"], { type: "currency" }).of(code); } catch { return ""; }
}

function fillCurrencies(current) {
  const codes = new Set(supported("currency", ["EUR", "USD", "GBP", "CHF", "JPY", "SEK", "NOK", "DKK", "PLN", "CZK", "KWD"]));
  codes.add(current);
  const select = form.currency;
  select.replaceChildren(...[...codes].sort().map((code) => {
    const name = currencyName(code);
    return el("option", { value: code }, name && name !== code ? `${code} — ${name}` : code);
  }));
  select.value = current;
}

function fillZones() {
  const zones = supported("timeZone", ["UTC", "Europe/Berlin", "Europe/London", "America/New_York"]);
  const list = document.getElementById("time-zones");
  list.replaceChildren(...["UTC", ...zones.filter((zone) => zone !== "UTC")].map((zone) => el("option", { value: zone })));
}

function show(settings) {
  saved = settings;
  form.shopName.value = settings.shopName;
  fillCurrencies(settings.currency);
  form.timeZone.value = settings.timeZone;
  form.defaultTaxRate.value = settings.defaultTaxRate;
  form.lowStockDefault.value = settings.lowStockDefault;
  form.lockMinutes.value = String(settings.lockMinutes);
  form.address.value = settings.address ?? "";
  form.taxId.value = settings.taxId ?? "";
  form.receiptFooter.value = settings.receiptFooter ?? "";
  form.pricesIncludeTax.checked = Boolean(settings.pricesIncludeTax);
  repriceButton.hidden = true;
}

/**
 * The request body from the form. What a valid setting is (a known time zone, a tax rate from 0 to 100 %, the lock's
 * minutes…) is the domain's rule (ShopSettings): the server's refusal names the field and lands on it.
 */
function requestBody() {
  clearErrors(form);
  const lockMinutes = form.lockMinutes.value.trim();
  return {
    shopName: form.shopName.value.trim(), currency: form.currency.value, timeZone: form.timeZone.value.trim(),
    defaultTaxRate: form.defaultTaxRate.value.trim().replace(/%$/, "").replace(",", "."),
    lowStockDefault: form.lowStockDefault.value.trim().replace(",", "."),
    // A number when it is written as one; anything else goes as typed, and the server says what it must be.
    lockMinutes: /^\d{1,9}$/.test(lockMinutes) ? Number(lockMinutes) : lockMinutes,
    address: form.address.value.trim(), taxId: form.taxId.value.trim(), receiptFooter: form.receiptFooter.value.trim(),
    pricesIncludeTax: form.pricesIncludeTax.checked,
  };
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = requestBody();
  const button = document.getElementById("settings-save");
  button.disabled = true;
  try {
    const before = saved;
    const settings = await api("PUT", "/api/v1/settings", body);
    show(settings);
    if (before && (before.currency !== settings.currency || before.timeZone !== settings.timeZone)) {
      // Amounts and days on every screen follow these; reload so this page shows them too.
      toast("Settings saved — reloading");
      announce("Settings saved");
      setTimeout(() => location.reload(), 1200);
      return;
    }
    // The frame shows the shop name; update it without a reload.
    for (const brand of document.querySelectorAll(".sidebar .brand span")) brand.textContent = settings.shopName;
    document.title = document.title.replace(/·.*$/, `· ${settings.shopName}`);
    document.body.dataset.lockMinutes = String(settings.lockMinutes);
    toast("Settings saved");
    announce("Settings saved");
  } catch (error) {
    showProblem(form, error);
    // Sales are booked: switching how prices are meant is the server's re-pricing step, offered here.
    repriceButton.hidden = error.field !== "pricesIncludeTax";
  } finally {
    button.disabled = false;
  }
});

repriceButton.addEventListener("click", async () => {
  const include = form.pricesIncludeTax.checked;
  const question = include
    ? "Switch to prices that include tax? Every product's price becomes its price plus its tax, so customers pay the same."
    : "Switch to prices before tax? Every product's price becomes its price without the tax it contains, so customers pay the same.";
  if (!(await confirmDialog(question, { confirm: "Re-price and switch", danger: false }))) return;
  repriceButton.disabled = true;
  try {
    const answer = await api("POST", "/api/v1/settings/reprice", { pricesIncludeTax: include });
    show(answer.settings);
    toast(`Switched; ${answer.productsRepriced} product${answer.productsRepriced === 1 ? "" : "s"} re-priced`);
    announce("Prices re-priced");
  } catch (error) {
    showProblem(form, error);
  } finally {
    repriceButton.disabled = false;
  }
});

document.getElementById("settings-reset").addEventListener("click", () => { if (saved) { clearErrors(form); show(saved); } });

fillZones();
api("GET", "/api/v1/settings").then(show).catch((error) => showProblem(form, error));

// ---------- the receipt logo (PUT/DELETE /api/v1/settings/logo): the server checks and cleans the picture ----------
const logoForm = document.getElementById("logo-form");
function showLogo(url) {
  logoForm.dataset.logo = url ?? "";
  document.getElementById("logo-preview").replaceChildren(url
    ? el("img", { src: url, alt: "The receipt logo", class: "receipt-logo", id: "logo-image" })
    : el("p", { class: "muted" }, "No logo: receipts start with the shop's name."));
  document.getElementById("logo-remove").hidden = !url;
}
showLogo(logoForm.dataset.logo);
document.getElementById("logo-file").addEventListener("change", async (event) => {
  const file = event.target.files?.[0];
  if (!file) return;
  clearErrors(logoForm);
  try {
    const answer = await api("PUT", "/api/v1/settings/logo", file, { headers: { "Content-Type": file.type || "application/octet-stream" } });
    showLogo(answer.url);
    toast("Logo saved");
  } catch (error) {
    showProblem(logoForm, error);
  } finally {
    event.target.value = "";
  }
});
document.getElementById("logo-remove").addEventListener("click", async () => {
  if (!(await confirmDialog("Remove the receipt logo?", { confirm: "Remove", danger: true }))) return;
  try {
    await api("DELETE", "/api/v1/settings/logo");
    showLogo("");
    toast("Logo removed");
  } catch (error) {
    showProblem(logoForm, error);
  }
});
