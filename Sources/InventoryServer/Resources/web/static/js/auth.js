// The sign-in, first-run and lock screens.
import { api, clearErrors, fieldError, formValues, showProblem } from "/static/js/app.js";

function go(next) {
  location.assign(next && next.startsWith("/app") ? next : "/app/home");
}

const login = document.getElementById("login-form");
login?.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(login);
  const values = formValues(login);
  let ok = true;
  if (!values.username) ok = !fieldError(login, "username", "Enter your username");
  if (!values.password) ok = !fieldError(login, "password", "Enter your password") && ok;
  if (!ok) return;
  try {
    await api("POST", "/api/v1/auth/login", { username: values.username, password: values.password });
    go(login.dataset.next);
  } catch (error) {
    showProblem(login, error);
  }
});

const setup = document.getElementById("setup-form");
setup?.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(setup);
  const values = formValues(setup);
  // What makes a username, password or PIN acceptable is the server's rule (StaffAccount): its refusal names the field.
  // How the shop's prices are meant is asked here, once, before any sale: it is a shop setting, saved right after the
  // admin exists.
  const includeTax = setup.querySelector('input[name="pricesIncludeTax"]:checked')?.value === "true";
  delete values.pricesIncludeTax;
  try {
    const session = await api("POST", "/api/v1/auth/setup", values);
    if (includeTax) {
      // This page has no session token yet: the new session's comes with the answer.
      const headers = { "X-CSRF-Token": session.csrfToken };
      const settings = await api("GET", "/api/v1/settings", undefined, { headers });
      await api("PUT", "/api/v1/settings", { ...settings, pricesIncludeTax: true }, { headers });
    }
    go("/app/home");
  } catch (error) {
    showProblem(setup, error);
  }
});

const pinForm = document.getElementById("pin-form");
if (pinForm) {
  const pin = pinForm.querySelector("#pin");
  pinForm.querySelector(".pinpad").addEventListener("click", (event) => {
    const digit = event.target.closest("[data-digit]")?.dataset.digit;
    if (!digit) return;
    if (digit === "clear") pin.value = "";
    else if (pin.value.length < 8) pin.value += digit;
    pin.focus();
  });
  pinForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(pinForm);
    const values = formValues(pinForm);
    // A malformed PIN is refused by the server (on "pin") before it counts as a wrong try.
    try {
      await api("POST", "/api/v1/auth/pin", { username: values.username, pin: values.pin });
      go(pinForm.dataset.next);
    } catch (error) {
      pin.value = "";
      showProblem(pinForm, error);
    }
  });
}
