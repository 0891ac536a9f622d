"""The frame of the app: first run, sign-in, the PIN lock, navigation per role, the offline banner, installability."""

from selenium.webdriver.common.by import By

from conftest import ADMIN, PINS, no_horizontal_scroll, path_of, sign_in, wait, wait_for, wait_path


def test_first_run_creates_the_admin_and_lands_on_home(fresh_shop, browser):
    driver = browser()
    driver.get(fresh_shop.url("/"))
    wait_path(driver, "/setup")
    # A short password is refused inline, before anything is sent.
    wait_for(driver, "#username").send_keys("owner")
    driver.find_element(By.ID, "password").send_keys("short")
    driver.find_element(By.CSS_SELECTOR, "#setup-form button[type=submit]").click()
    error = wait_for(driver, "#password-error")
    assert "8 characters" in error.text
    assert driver.find_element(By.ID, "password").get_attribute("aria-invalid") == "true"
    assert fresh_shop.call("GET", "/api/v1/auth/status")["setupRequired"] is True

    driver.find_element(By.ID, "password").send_keys("-and-longer")
    # The first PIN is typed twice: two different PINs are refused by the server on the second field.
    driver.find_element(By.ID, "pin").send_keys("2468")
    driver.find_element(By.ID, "pinAgain").send_keys("2486")
    driver.find_element(By.CSS_SELECTOR, "#setup-form button[type=submit]").click()
    assert "does not match" in wait_for(driver, "#pinAgain-error").text
    assert driver.find_element(By.ID, "pinAgain").get_attribute("aria-invalid") == "true"
    assert fresh_shop.call("GET", "/api/v1/auth/status")["setupRequired"] is True
    driver.find_element(By.ID, "pinAgain").clear()
    driver.find_element(By.ID, "pinAgain").send_keys("2468")
    driver.find_element(By.CSS_SELECTOR, "#setup-form button[type=submit]").click()
    wait_path(driver, "/app/home")
    assert driver.find_element(By.ID, "page-title").text == "Home"
    assert fresh_shop.call("GET", "/api/v1/auth/status")["setupRequired"] is False
    # Setup is offered only once.
    driver.get(fresh_shop.url("/setup"))
    wait(driver, lambda d: path_of(d) in ("/login", "/app/home"))


def test_wrong_password_is_refused_inline(shop, browser):
    driver = browser()
    driver.get(shop.url("/app/products"))
    wait_path(driver, "/login")
    wait_for(driver, "#username").send_keys(ADMIN[0])
    driver.find_element(By.ID, "password").send_keys("wrong-password")
    driver.find_element(By.CSS_SELECTOR, "#login-form button[type=submit]").click()
    banner = wait_for(driver, "#login-form .form-error")
    assert banner.text
    # The right password goes on to the screen asked for first.
    driver.find_element(By.ID, "password").clear()
    driver.find_element(By.ID, "password").send_keys(ADMIN[1])
    driver.find_element(By.CSS_SELECTOR, "#login-form button[type=submit]").click()
    wait_path(driver, "/app/products")


def test_lock_and_unlock_with_the_pin_pad_and_switch_user(shop, signed_in):
    shop.ensure_user("staff")
    driver = signed_in(shop, "admin", width=1024, height=768)
    driver.find_element(By.CSS_SELECTOR, ".sidebar [data-frame-action=lock]").click()
    wait_path(driver, "/lock")
    # Locked: screens and the API refuse until a PIN is entered.
    driver.get(shop.url("/app/products"))
    wait_path(driver, "/lock")
    # Too few digits: the server's rule, shown on the PIN field as the server words it.
    for digit in "123":
        driver.find_element(By.CSS_SELECTOR, f".pinpad [data-digit='{digit}']").click()
    driver.find_element(By.CSS_SELECTOR, ".pinpad button[type=submit]").click()
    wait(driver, lambda d: d.find_element(By.ID, "pin-error").text == "must be 4 to 8 digits")
    driver.find_element(By.CSS_SELECTOR, ".pinpad [data-digit='clear']").click()
    for digit in "9999":
        driver.find_element(By.CSS_SELECTOR, f".pinpad [data-digit='{digit}']").click()
    driver.find_element(By.CSS_SELECTOR, ".pinpad button[type=submit]").click()
    assert wait_for(driver, "#pin-form .form-error").text
    # Switch to the staff user with their PIN.
    driver.find_element(By.CSS_SELECTOR, "#pin-user option[value=staff]").click()
    for digit in PINS["staff"]:
        driver.find_element(By.CSS_SELECTOR, f".pinpad [data-digit='{digit}']").click()
    driver.find_element(By.CSS_SELECTOR, ".pinpad button[type=submit]").click()
    wait_path(driver, "/app/products")
    assert "staff" in driver.find_element(By.CSS_SELECTOR, ".sidebar-user").text


def test_staff_sees_no_purchases_reports_or_settings_and_the_server_refuses_them(shop, signed_in):
    driver = signed_in(shop, "staff", width=375, height=812)
    tabs = [link.get_attribute("href").rsplit("/", 1)[-1] for link in driver.find_elements(By.CSS_SELECTOR, ".tabbar a")]
    assert "purchases" not in tabs and "sales" in tabs and "pos" in tabs
    driver.get(shop.url("/app/more"))
    more = driver.find_element(By.TAG_NAME, "main").text
    assert "Settings" not in more and "Reports" not in more and "Users" not in more
    for screen in ("purchases", "settings", "reports", "users", "backup"):
        driver.get(shop.url(f"/app/{screen}"))
        assert "Not allowed" in wait_for(driver, "main").text, screen
    # The API refuses the same with the browser's own session.
    status = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const csrf = document.querySelector('meta[name=csrf-token]').content;
        Promise.all([
          fetch('/api/v1/purchases').then(r => r.status),
          fetch('/api/v1/reports/daily').then(r => r.status),
          fetch('/api/v1/settings', {method: 'PUT', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf}, body: '{}'}).then(r => r.status),
        ]).then(done);
    """)
    assert status == [403, 403, 403]


def test_phone_frame_has_tabs_no_sideways_scroll_and_is_installable(shop, signed_in):
    driver = signed_in(shop, "admin", width=375, height=812)
    assert driver.find_element(By.CSS_SELECTOR, ".tabbar").is_displayed()
    assert not driver.find_element(By.CSS_SELECTOR, ".sidebar").is_displayed()
    assert no_horizontal_scroll(driver)
    manifest = shop.call("GET", "/manifest.webmanifest")
    assert manifest["display"] == "standalone" and any(icon["sizes"] == "512x512" for icon in manifest["icons"])
    status, headers, _ = shop.call("GET", manifest["icons"][0]["src"], raw=True)
    assert status == 200 and headers["Content-Type"] == "image/png"
    # Every control on the frame has an accessible name.
    unnamed = driver.execute_script("""
        return [...document.querySelectorAll('button, a[href], input, select, textarea')]
          .filter(e => e.offsetParent !== null)
          .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim() || (e.id && document.querySelector(`label[for="${e.id}"]`)) || e.closest('label')))
          .map(e => e.outerHTML.slice(0, 80));
    """)
    assert unnamed == []


def test_server_gone_shows_a_banner_not_a_broken_page(browser):
    from conftest import Shop
    server = Shop()
    server.create_admin()
    driver = browser(width=1024, height=768)
    sign_in(driver, server, ADMIN[0], ADMIN[1])
    server.stop()
    driver.execute_script("import('/static/js/app.js').then(m => m.api('GET', '/api/v1/products').catch(() => {}))")
    banner = wait_for(driver, "#offline")
    assert "Cannot reach" in banner.text


def test_low_stock_alert_appears_live_on_home(shop, signed_in):
    from conftest import unique, wait_idle
    name = unique("Oat milk")
    purchase = shop.api("POST", "/api/v1/purchases", {"lines": [
        {"newProduct": {"name": name, "salePrice": "1.80", "lowStockThreshold": "5"}, "quantity": "8", "unitCost": "0.90"}]})
    product_id = purchase["lines"][0]["productId"]
    # As staff: every role's home listens to the live events.
    driver = signed_in(shop, "staff", width=1440, height=900)
    driver.get(shop.url("/app/home"))
    wait_idle(driver)
    assert name not in driver.find_element(By.ID, "low-stock-list").text
    # A sale elsewhere (another till) brings it under its threshold: the alert shows without a reload.
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product_id, "quantity": "4"}]})
    wait(driver, lambda d: name in d.find_element(By.ID, "low-stock-list").text, timeout=10)
    assert [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"] == []
