"""The till: POS checkout with cash and change, a USB scanner typing into the POS, the receipt, camera scanning with
a fake camera (unknown code → create product; known code → add stock), and the HTTPS explanation without a camera."""
import json
import os
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import (contrast_failures, ean13_y4m, gtin_check_digit, no_horizontal_scroll, path_of, screenshot, unique, wait, wait_for,
                      wait_idle, wait_path)

_codes = iter(range(1000))


def new_code():
    """An EAN-13 nobody else uses (valid check digit)."""
    body = f"29{os.getpid() % 100000:05d}{int(time.time() * 1000) % 1000:03d}{next(_codes):02d}"[:12]
    return body + gtin_check_digit(body)


def stocked(shop, name, price, tax, quantity, barcode=None, emoji=None):
    """Creates a product with stock through a purchase (newProduct line); returns the product."""
    product = {"name": name, "salePrice": price, "taxRate": tax}
    if barcode:
        product["barcode"] = barcode
    if emoji:
        product["iconEmoji"] = emoji
    purchase = shop.api("POST", "/api/v1/purchases", {"lines": [{"newProduct": product, "quantity": quantity, "unitCost": "1.00"}]})
    return shop.api("GET", f"/api/v1/products/{purchase['lines'][0]['productId']}")


def tile(driver, product_id):
    return wait_for(driver, f"#product-grid [data-product='{product_id}']")


def test_pos_checkout_with_cash_change_and_receipt(shop, signed_in):
    coffee = stocked(shop, unique("Flat white"), "2.50", "7", "10", emoji="☕")
    juice = stocked(shop, unique("Orange juice"), "4.00", "19", "5", emoji="🧃")
    driver = signed_in(shop, width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    tile(driver, coffee["id"]).click()
    tile(driver, coffee["id"]).click()
    tile(driver, juice["id"]).click()
    # 2 × 2.50 at 7 % + 1 × 4.00 at 19 %: net 9.00, tax 0.35 + 0.76 = 1.11, total 10.11 (prices are before tax),
    # as the server's dry run answers.
    wait(driver, lambda d: "10.11" in d.find_element(By.ID, "total-total").text)
    assert "9.00" in driver.find_element(By.ID, "total-subtotal").text
    assert "1.11" in driver.find_element(By.ID, "total-tax").text
    assert "10.11" in driver.find_element(By.ID, "charge").text
    assert "5.00" in driver.find_element(By.CSS_SELECTOR, f"[data-line='{coffee['id']}'] .till-line-total").text

    # Too many juices: the server's dry run refuses before Charge, on the line, naming the product; no figures shown.
    quantity = driver.find_element(By.ID, f"qty-{juice['id']}")
    quantity.clear()
    quantity.send_keys("50", Keys.TAB)
    wait(driver, lambda d: "stock" in d.find_element(By.CSS_SELECTOR, f"[data-line='{juice['id']}'] .field-error").text)
    assert juice["name"] in driver.find_element(By.CSS_SELECTOR, "#sale-form .form-error").text
    assert driver.find_element(By.ID, "total-total").text == "—"
    # Charge posts anyway and the server refuses the same way; the cart keeps every line.
    wait(driver, lambda d: d.find_element(By.ID, "charge").is_enabled())
    driver.find_element(By.ID, "charge").click()
    wait(driver, lambda d: "Nothing was charged" in d.find_element(By.CSS_SELECTOR, "#sale-form .form-error").text)
    error = driver.find_element(By.CSS_SELECTOR, "#sale-form .form-error")
    assert juice["name"] in error.text and "stock" in error.text
    assert len(driver.find_elements(By.CSS_SELECTOR, "#cart-lines [data-line]")) == 2
    assert path_of(driver) == "/app/pos"
    quantity = driver.find_element(By.ID, f"qty-{juice['id']}")
    quantity.clear()
    quantity.send_keys("1", Keys.TAB)
    wait(driver, lambda d: "10.11" in d.find_element(By.ID, "total-total").text)

    # 10 % off the coffees: 5.00 − 0.50 = 4.50 at 7 % (0.32) + 4.00 at 19 % (0.76) = 9.58.
    driver.find_element(By.CSS_SELECTOR, f"[data-line='{coffee['id']}'] button[data-act=discount]").click()
    dialog = wait_for(driver, "#discount-dialog")
    dialog.find_element(By.CSS_SELECTOR, "input[name=kind][value=percent]").find_element(By.XPATH, "..").click()
    dialog.find_element(By.ID, "discount-value").send_keys("110")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # Over 100 %: the server's refusal (the server turns a percentage into money, and says what it takes).
    wait(driver, lambda d: "between 0 and 100" in d.find_element(By.ID, "discount-value-error").text)
    dialog.find_element(By.ID, "discount-value").clear()
    dialog.find_element(By.ID, "discount-value").send_keys("10")
    wait(driver, lambda d: "4.50" in d.find_element(By.ID, "discount-preview").text)
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: not d.find_element(By.ID, "discount-dialog").is_displayed())
    wait(driver, lambda d: "0.50" in d.find_element(By.CSS_SELECTOR, f"[data-line='{coffee['id']}'] .till-line-discount").text)
    wait(driver, lambda d: "9.58" in d.find_element(By.ID, "total-total").text)
    assert "8.50" in driver.find_element(By.ID, "total-subtotal").text
    assert "1.08" in driver.find_element(By.ID, "total-tax").text
    assert "9.58" in driver.find_element(By.ID, "total-total").text

    # Less cash than the total: the server's dry run says so, and so does Charge; 20.00 gives the server's 10.42 change.
    tendered = driver.find_element(By.ID, "tendered")
    tendered.send_keys("9.50")
    wait(driver, lambda d: "short of the total" in d.find_element(By.ID, "change-line").text)
    assert "9.58" in driver.find_element(By.ID, "change-line").text
    driver.find_element(By.ID, "charge").click()
    wait(driver, lambda d: "less than the total" in d.find_element(By.CSS_SELECTOR, "#sale-form .form-error").text)
    tendered.clear()
    tendered.send_keys("20")
    wait(driver, lambda d: "10.42" in d.find_element(By.ID, "change-line").text)
    assert "10.42" in driver.find_element(By.ID, "change-due").text
    wait(driver, lambda d: d.find_element(By.ID, "charge").is_enabled())
    before = len(shop.api("GET", "/api/v1/sales?limit=500"))
    driver.find_element(By.ID, "charge").click()

    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    sale_id = int(path_of(driver).rsplit("/", 1)[1])
    lines = wait_for(driver, "#receipt-lines").text
    assert driver.find_elements(By.ID, "receipt-copy") == [], "the receipt printed at the sale is the original"
    assert f"Receipt no. {shop.api('GET', f'/api/v1/sales/{sale_id}')['receiptNumber']}" == driver.find_element(By.ID, "receipt-number").text

    assert coffee["name"] in lines and juice["name"] in lines and "2 × " in lines
    assert "Discount" in lines and "0.50" in lines
    assert "9.58" in driver.find_element(By.ID, "receipt-total").text
    assert "20.00" in driver.find_element(By.ID, "receipt-tendered").text
    assert "10.42" in driver.find_element(By.ID, "receipt-change").text
    assert "Cash" in driver.find_element(By.ID, "receipt-method").text
    assert driver.find_element(By.ID, "receipt-print").is_displayed()
    # Paper: 80 mm (the page as long as the receipt) or A4; the buttons are not printed.
    # The page rule is a constructed style sheet (the Content-Security-Policy allows no inline <style>).
    page_rule = "return [...document.adoptedStyleSheets].flatMap(s => [...s.cssRules]).map(r => r.cssText).join(' ').toLowerCase()"
    assert "size: 80mm" in driver.execute_script(page_rule)
    driver.find_element(By.CSS_SELECTOR, "[data-paper=a4]").click()
    assert "size: a4" in driver.execute_script(page_rule)
    driver.find_element(By.CSS_SELECTOR, "[data-paper='80']").click()
    assert "size: 80mm" in driver.execute_script(page_rule)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert not driver.find_element(By.ID, "receipt-print").is_displayed()
    assert not driver.find_element(By.ID, "receipt-new").is_displayed()
    assert driver.find_element(By.ID, "receipt-total").is_displayed()
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

    sale = shop.api("GET", f"/api/v1/sales/{sale_id}")
    assert sale["total"] == "9.58" and sale["tax"] == "1.08" and sale["paymentMethod"] == "cash"
    # The books keep who served and the cash handed over: a reprint shows them without the till's help.
    assert sale["soldBy"] == "admin" and sale["cashTendered"] == "20.00" and sale["change"] == "10.42"
    driver.get(shop.url(f"/app/receipt/{sale_id}"))
    assert "10.42" in wait_for(driver, "#receipt-change").text
    assert "admin" in driver.find_element(By.ID, "receipt-staff").text
    # The gapless receipt number the books gave the sale; a receipt opened again is marked as a copy.
    assert driver.find_element(By.ID, "receipt-number").text == f"Receipt no. {sale['receiptNumber']}"
    assert "COPY" in driver.find_element(By.ID, "receipt-copy").text
    assert [line["discount"] for line in sale["lines"]] == ["0.50", "0.00"]
    assert len(shop.api("GET", "/api/v1/sales?limit=500")) == before + 1
    assert shop.api("GET", f"/api/v1/products/{coffee['id']}")["quantity"] == "8"
    assert shop.api("GET", f"/api/v1/products/{juice['id']}")["quantity"] == "4"
    # The till starts empty again.
    driver.find_element(By.ID, "receipt-new").click()
    wait_path(driver, "/app/pos")
    wait_idle(driver)
    assert driver.find_elements(By.CSS_SELECTOR, "#cart-lines [data-line]") == []


def test_usb_scanner_typing_adds_to_the_cart(shop, signed_in):
    code = new_code()
    bread = stocked(shop, unique("Sourdough"), "3.20", "7", "4", barcode=code, emoji="🍞")
    driver = signed_in(shop, width=375, height=812)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    tile(driver, bread["id"])
    # A scanner "types" the digits and Enter while no field has the focus.
    driver.execute_script("document.activeElement?.blur()")
    ActionChains(driver).send_keys(code + Keys.ENTER).perform()
    wait_for(driver, f"#cart-lines [data-line='{bread['id']}']", visible=False)
    assert driver.find_element(By.ID, "cart-count").text == "1 item"
    assert driver.find_element(By.ID, "scan-code").get_attribute("value") == ""
    ActionChains(driver).send_keys(code + Keys.ENTER).perform()
    wait(driver, lambda d: d.find_element(By.ID, "cart-count").text == "2 items")
    wait(driver, lambda d: "6.85" in d.find_element(By.ID, "cart-bar-total").text)      # 6.40 + 7 % tax 0.45
    # The scanner fires while the search field has the focus: still a scan, the field keeps what it had.
    search = driver.find_element(By.ID, "product-search")
    search.send_keys("Sour")
    search.send_keys(code + Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "cart-count").text == "3 items")
    assert search.get_attribute("value") == "Sour"
    search.clear()
    # The cart's − button (in the closed phone sheet) takes one off again.
    driver.execute_script("arguments[0].click()", driver.find_element(By.CSS_SELECTOR, f"#cart-lines [data-line='{bread['id']}'] button[data-act=minus]"))
    wait(driver, lambda d: d.find_element(By.ID, "cart-count").text == "2 items")
    # An unknown code is refused on the scan field, the cart unchanged.
    driver.find_element(By.ID, "scan-code").send_keys("4006381333931" + Keys.ENTER)
    assert "No product" in wait_for(driver, "#scan-code-error").text
    assert driver.find_element(By.ID, "cart-count").text == "2 items"
    assert no_horizontal_scroll(driver)
    # The phone's cart sheet opens from the bottom bar.
    driver.find_element(By.ID, "cart-toggle").click()
    assert wait_for(driver, f"#qty-{bread['id']}").get_attribute("value") == "2"
    # ?product= starts with that product in the cart (on top of the kept cart).
    driver.get(shop.url(f"/app/pos?product={bread['id']}"))
    wait(driver, lambda d: d.find_element(By.ID, "cart-count").text == "3 items")
    assert path_of(driver) == "/app/pos" and "product=" not in driver.current_url
    # Clearing the cart asks first.
    driver.find_element(By.ID, "cart-toggle").click()
    wait(driver, lambda d: d.find_element(By.ID, "cart").get_attribute("data-open") == "true")
    wait_idle(driver)
    clear = wait_for(driver, "#cart-clear")
    assert clear.is_enabled()
    clear.click()
    try:
        wait_for(driver, "dialog[open] [data-confirm]").click()
    except Exception:
        # Seen once in CI and not reproduced since (under load too): say what the page looked like.
        screenshot(driver, "till-clear-no-dialog")
        state = driver.execute_script("""return {open: document.getElementById('cart').dataset.open,
            dialogs: [...document.querySelectorAll('dialog')].map((d) => `${d.id || '(no id)'} open=${d.open}`),
            active: document.activeElement?.id, count: document.getElementById('cart-count').textContent}""")
        raise AssertionError(f"Clear asked nothing; the page: {state}")
    wait(driver, lambda d: d.find_element(By.ID, "cart-count").text == "0 items")
    assert driver.execute_script("return JSON.parse(sessionStorage.getItem('stockroom.till.cart')).lines.length") == 0


def test_the_next_scan_on_the_receipt_starts_the_next_sale(shop, signed_in):
    """After charging, the receipt screen has the focus on "New sale"; a scanner's burst (digits + Enter) there starts
    the next sale with that product in the cart: the Enter does not just press the button, and no digit is lost."""
    code = new_code()
    bun = stocked(shop, unique("Cinnamon bun"), "2.80", "7", "6", barcode=code, emoji="🥐")
    driver = signed_in(shop, width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    tile(driver, bun["id"]).click()
    wait(driver, lambda d: "3.00" in d.find_element(By.ID, "total-total").text)    # 2.80 + 7 % tax 0.196 → 0.20
    wait(driver, lambda d: d.find_element(By.ID, "charge").is_enabled())
    driver.find_element(By.ID, "charge").click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    wait_for(driver, "#receipt-done")
    assert driver.switch_to.active_element.get_attribute("id") == "receipt-new"
    ActionChains(driver).send_keys(code + Keys.ENTER).perform()
    wait_path(driver, "/app/pos")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#cart-lines [data-line='{bun['id']}']"))
    assert driver.find_element(By.ID, "cart-count").get_attribute("textContent").strip() == "1 item"
    assert "scan=" not in driver.current_url
    wait(driver, lambda d: "3.00" in d.find_element(By.ID, "total-total").text)
    # An unknown code scanned there is refused on the till's scan field, with the code kept to correct.
    charge = driver.find_element(By.ID, "charge")
    wait(driver, lambda d: charge.is_enabled())
    charge.click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    wait_for(driver, "#receipt-done")
    ActionChains(driver).send_keys("4006381333931" + Keys.ENTER).perform()
    wait_path(driver, "/app/pos")
    assert "No product" in wait_for(driver, "#scan-code-error").text
    assert driver.find_element(By.ID, "scan-code").get_attribute("value") == "4006381333931"
    assert driver.find_element(By.ID, "cart-count").get_attribute("textContent").strip() == "0 items"
    assert shop.api("GET", f"/api/v1/products/{bun['id']}")["quantity"] == "4"


def test_camera_scan_offers_create_then_add_stock(shop, signed_in, tmp_path):
    code = new_code()
    video = ean13_y4m(code, tmp_path / "code.y4m")
    driver = signed_in(shop, width=375, height=812, camera=video)
    started = time.monotonic()
    driver.get(shop.url("/app/scan"))
    create = wait_for(driver, "#result-actions a.btn-primary", timeout=15)
    elapsed = time.monotonic() - started
    assert create.text == "Create product with this barcode"
    assert create.get_attribute("href").endswith(f"/app/products/new?barcode={code}")
    assert code in driver.find_element(By.ID, "result-body").text
    assert driver.find_element(By.ID, "result-body").get_attribute("aria-live") == "polite"
    print(f"camera code read in {elapsed:.2f} s")
    assert elapsed < 6, f"the code took {elapsed:.1f} s to read"
    screenshot(driver, "till-scan-unknown-375")
    create.click()
    wait_path(driver, "/app/products/new")
    assert f"barcode={code}" in driver.current_url
    # The catalogue screen's form comes with the barcode filled; saving it creates the product.
    barcode = wait_for(driver, "#product-form input[name=barcode]")
    wait(driver, lambda d: barcode.get_attribute("value") == code)
    name = unique("Scanned jam")
    driver.find_element(By.CSS_SELECTOR, "#product-form input[name=name]").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "#product-form input[name=salePrice]").send_keys("4.50")
    driver.find_element(By.ID, "pf-save").click()
    wait(driver, lambda d: path_of(d).startswith("/app/products/") and path_of(d) != "/app/products/new")
    product = shop.api("GET", f"/api/v1/products/barcode/{code}")
    assert product["name"] == name

    driver.get(shop.url("/app/scan"))
    add = wait_for(driver, "#result-actions a.btn-primary", timeout=15)
    assert add.text == "Add stock"
    assert add.get_attribute("href").endswith(f"/app/purchases/new?product={product['id']}")
    hrefs = {a.text: a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#result-actions a")}
    assert hrefs["Add to sale"].endswith(f"/app/pos?product={product['id']}")
    assert hrefs["Open product"].endswith(f"/app/products/{product['id']}")
    assert product["name"] in driver.find_element(By.ID, "result-name").text
    # Manual entry: the server checks the check digit as it looks the code up, and the page says why it refused.
    manual = driver.find_element(By.ID, "manual-code")
    manual.send_keys(code[:-1] + str((int(code[-1]) + 1) % 10) + Keys.ENTER)
    assert "check digit" in wait_for(driver, "#manual-code-error").text
    assert manual.get_attribute("aria-invalid") == "true"
    screenshot(driver, "till-scan-known-375")
    # Leaving the page stops the camera.
    assert driver.execute_script("return document.getElementById('scan-video').srcObject?.getVideoTracks()[0]?.readyState") == "live"
    driver.get(shop.url("/app/home"))


def test_scan_without_camera_api_explains_https(shop, signed_in):
    """Plain HTTP from another device has no navigator.mediaDevices: the page says how to get HTTPS; typing works
    (here as staff, who may sell but neither buy stock nor create products)."""
    known = shop.api("POST", "/api/v1/products", {"name": unique("Typed tea"), "barcode": new_code(), "salePrice": "2.00"})
    driver = signed_in(shop, "staff", width=375, height=812)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                           {"source": "Object.defineProperty(navigator, 'mediaDevices', {value: undefined})"})
    driver.get(shop.url("/app/scan"))
    problem = wait_for(driver, "#camera-problem")
    assert "HTTPS" in problem.text
    assert "stockroom serve --tls" in problem.text and "https://" in problem.text
    assert not driver.find_element(By.ID, "scan-view").is_displayed()
    # Typing the code still works; staff get no "create" or "add stock".
    manual = driver.find_element(By.ID, "manual-code")
    manual.send_keys(new_code() + Keys.ENTER)
    assert "Ask a manager" in wait_for(driver, "#result-actions").text
    assert driver.find_elements(By.CSS_SELECTOR, "#result-actions a") == []
    manual.clear()
    manual.send_keys(known["barcode"] + Keys.ENTER)
    wait(driver, lambda d: known["name"] in d.find_element(By.ID, "result-body").text)
    assert [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#result-actions a")] == ["Add to sale", "Open product"]
    assert no_horizontal_scroll(driver)
    screenshot(driver, "till-scan-no-camera-375")


def test_screenshots_pos_and_receipt(shop, signed_in):
    a = stocked(shop, unique("Cappuccino"), "3.20", "7", "20", emoji="☕")
    b = stocked(shop, unique("Blueberry muffin with a long name"), "2.90", "7", "1", emoji="🧁")
    sold = stocked(shop, unique("Sold-out scone"), "2.10", "7", "1", emoji="🥐")
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": sold["id"], "quantity": "1"}]})
    sale = shop.api("POST", "/api/v1/sales", {"paymentMethod": "cash", "tip": "0.50",
                                              "lines": [{"productId": a["id"], "quantity": "2"}, {"productId": b["id"], "quantity": "1"}]})
    driver = signed_in(shop, width=375, height=812)
    for width, height, dark, label in ((375, 812, False, "375"), (375, 812, True, "375-dark"), (768, 1024, False, "768"), (1024, 768, False, "1024"),
                                     (1440, 900, False, "1440")):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 768})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
        driver.get(shop.url(f"/app/pos?product={a['id']}"))
        wait_idle(driver)
        wait_for(driver, f"#cart-lines [data-line='{a['id']}']", visible=False)
        tile(driver, a["id"]).click()
        # The server's figures for 2 × 3.20 at 7 % (the cart may be a closed sheet on a phone: read what it holds).
        wait(driver, lambda d: "6.85" in d.execute_script("return document.getElementById('total-total').textContent"))
        assert no_horizontal_scroll(driver)
        screenshot(driver, f"till-pos-{label}")
        assert contrast_failures(driver) == [], f"POS at {label}"
        if width < 1024:
            driver.find_element(By.ID, "cart-toggle").click()
            wait_for(driver, "#charge")
            screenshot(driver, f"till-pos-cart-{label}")
            assert contrast_failures(driver) == [], f"POS cart at {label}"
        driver.execute_script("sessionStorage.clear()")
        driver.get(shop.url(f"/app/receipt/{sale['id']}?done=1&tendered=20"))
        wait_for(driver, "#receipt-total")
        assert no_horizontal_scroll(driver)
        screenshot(driver, f"till-receipt-{label}")
        assert contrast_failures(driver) == [], f"receipt at {label}"


def shown_unobscured(driver, element):
    """Whether a person sees the element: scrolled into view, inside the viewport, and not covered by anything."""
    return driver.execute_script("""
        const e = arguments[0];
        e.scrollIntoView({ block: "nearest" });
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && (hit === e || e.contains(hit));""", element)


def percent_off(driver, product_id, percent, left):
    """Gives a line a percentage discount in the dialog, once the dialog shows the server's amount left (`left`)."""
    driver.find_element(By.CSS_SELECTOR, f"[data-line='{product_id}'] button[data-act=discount]").click()
    dialog = wait_for(driver, "#discount-dialog")
    dialog.find_element(By.CSS_SELECTOR, "input[name=kind][value=percent]").find_element(By.XPATH, "..").click()
    dialog.find_element(By.ID, "discount-value").send_keys(percent)
    wait(driver, lambda d: f"{left} before tax" in d.find_element(By.ID, "discount-preview").text)
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: not d.find_element(By.ID, "discount-dialog").is_displayed())


def test_till_total_is_what_the_server_books(shop, signed_in):
    """Per-line rounding (the domain rounds each line's discount and tax half away from zero, then adds): the total on
    the till, seen on screen, is the one the server then books — not what float sums or one rounding at the end give."""
    dimes = [shop.api("POST", "/api/v1/products", {"name": unique(f"Dime {i}"), "salePrice": "0.10", "taxRate": "5", "tracksStock": False})
             for i in range(3)]
    jam = shop.api("POST", "/api/v1/products", {"name": unique("Jam"), "salePrice": "3.33", "taxRate": "19", "tracksStock": False})
    tea = shop.api("POST", "/api/v1/products", {"name": unique("Tea"), "salePrice": "1.15", "taxRate": "7", "tracksStock": False})
    # Each dime line: tax 0.005 → 0.01. Jam 3 × 3.33 = 9.99, 10 % off 0.999 → 1.00, net 8.99, tax 1.7081 → 1.71.
    # Tea 1.15, 15 % off 0.1725 → 0.17, net 0.98, tax 0.0686 → 0.07. Booked: 0.33 + 10.70 + 1.05 = 12.08.
    naive = round(3 * 0.10 * 1.05 + 3 * 3.33 * 0.90 * 1.19 + 1.15 * 0.85 * 1.07, 2)
    assert f"{naive:.2f}" != "12.08"      # the case is one where arithmetic in the browser would go wrong
    driver = signed_in(shop, width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    for product in dimes + [jam, jam, jam, tea]:
        tile(driver, product["id"]).click()
    percent_off(driver, jam["id"], "10", "8.99")
    percent_off(driver, tea["id"], "15", "0.98")
    wait(driver, lambda d: "12.08" in d.find_element(By.ID, "total-total").text)
    total = driver.find_element(By.ID, "total-total")
    assert shown_unobscured(driver, total)
    shown = total.text
    assert "1.81" in driver.find_element(By.ID, "total-tax").text
    assert "8.99" in driver.find_element(By.CSS_SELECTOR, f"[data-line='{jam['id']}'] .till-line-total").text
    charge = driver.find_element(By.ID, "charge")
    assert "12.08" in charge.text and charge.is_enabled() and shown_unobscured(driver, charge)

    driver.find_element(By.CSS_SELECTOR, "input[name=paymentMethod][value=card]").find_element(By.XPATH, "..").click()
    wait(driver, lambda d: d.find_element(By.ID, "charge").is_enabled())
    driver.find_element(By.ID, "charge").click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    sale = shop.api("GET", f"/api/v1/sales/{int(path_of(driver).rsplit('/', 1)[1])}")
    assert sale["total"] == "12.08" and sale["tax"] == "1.81" and sale["paymentMethod"] == "card"
    assert sale["total"] in shown
    assert sale["total"] in wait_for(driver, "#receipt-total").text


def test_price_below_minimum_is_refused_on_the_cart_before_charging(shop, signed_in):
    """A cashier's cart still holding an old price (the catalogue could not be refreshed) under a minimum a manager has
    just raised: the server's dry run refuses it on the line before anyone presses Charge, and nothing is booked."""
    honey = shop.api("POST", "/api/v1/products", {"name": unique("Honey"), "salePrice": "5.00", "taxRate": "0", "tracksStock": False})
    driver = signed_in(shop, role="staff", width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    tile(driver, honey["id"]).click()
    wait(driver, lambda d: "5.00" in d.find_element(By.ID, "total-total").text)
    # The till cannot fetch the catalogue any more; the sale endpoint still answers.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/products*"]})
    shop.api("PATCH", f"/api/v1/products/{honey['id']}", {"salePrice": "8.00", "minimumSalePrice": "7.00"})
    before = len(shop.api("GET", "/api/v1/sales?limit=500"))
    driver.find_element(By.CSS_SELECTOR, f"[data-line='{honey['id']}'] button[data-act=plus]").click()
    line_error = f"[data-line='{honey['id']}'] .field-error"
    wait(driver, lambda d: "minimum" in d.find_element(By.CSS_SELECTOR, line_error).text)
    banner = driver.find_element(By.CSS_SELECTOR, "#sale-form .form-error")
    assert honey["name"] in banner.text and "manager" in banner.text
    assert shown_unobscured(driver, banner)
    assert driver.find_element(By.ID, "total-total").text == "—"
    assert "5.00" not in driver.find_element(By.ID, "charge").text and "10.00" not in driver.find_element(By.ID, "charge").text
    assert len(shop.api("GET", "/api/v1/sales?limit=500")) == before
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})


def test_till_without_the_servers_figures_still_charges(shop, signed_in):
    """The dry run cannot reach the server: the figures show as "—" (none made up in the browser) and Charge still
    posts; the server decides, and its answer is the receipt."""
    soap = shop.api("POST", "/api/v1/products", {"name": unique("Soap"), "salePrice": "2.35", "taxRate": "19", "tracksStock": False})
    driver = signed_in(shop, width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/v1/sales?dryRun=*"]})
    tile(driver, soap["id"]).click()
    charge = driver.find_element(By.ID, "charge")
    wait(driver, lambda d: charge.is_enabled())
    assert driver.find_element(By.ID, "total-total").text == "—"
    assert driver.find_element(By.CSS_SELECTOR, f"[data-line='{soap['id']}'] .till-line-total").text == "—"
    assert charge.text == "Charge"
    charge.click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    sale = shop.api("GET", f"/api/v1/sales/{int(path_of(driver).rsplit('/', 1)[1])}")
    assert sale["total"] == "2.80"      # 2.35 + 19 % (0.4465 → 0.45)
    assert "2.80" in wait_for(driver, "#receipt-total").text


def test_a_charge_sent_again_after_a_lost_answer_is_booked_once(shop, signed_in):
    """The till's network drops the server's answer to Charge after the sale was booked; the cashier presses Charge
    again. The till sends the same Idempotency-Key with the same sale, so the server answers the sale it booked the
    first time: one sale in the books, and the receipt shows it."""
    cups = shop.api("POST", "/api/v1/products", {"name": unique("Cup"), "salePrice": "3.10", "taxRate": "0", "tracksStock": False})
    sales_before = len(shop.api("GET", "/api/v1/sales?limit=500"))
    driver = signed_in(shop, width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    # The first real POST of a sale reaches the server, then its answer is lost (as when Wi-Fi drops mid-reply).
    driver.execute_script("""
        const realFetch = window.fetch;
        window.__lost = 0;
        window.fetch = async (input, init = {}) => {
          const url = typeof input === "string" ? input : input.url;
          if (url.endsWith("/api/v1/sales") && init.method === "POST") {
            if (!init.headers["Idempotency-Key"]) throw new Error("a sale was posted without an Idempotency-Key");
            const reply = await realFetch(input, init);
            if (window.__lost === 0) { window.__lost = 1; throw new TypeError("Failed to fetch"); }
            return reply;
          }
          return realFetch(input, init);
        };""")
    tile(driver, cups["id"]).click()
    charge = driver.find_element(By.ID, "charge")
    wait(driver, lambda d: charge.is_enabled() and "3.10" in charge.text)
    charge.click()
    banner = wait_for(driver, "#sale-form .form-error")
    wait(driver, lambda d: "cannot be reached" in banner.text)
    assert path_of(driver) == "/app/pos", "the till left the cart although it never got an answer"
    assert len(shop.api("GET", "/api/v1/sales?limit=500")) == sales_before + 1, "the first Charge was booked by the server"
    wait(driver, lambda d: charge.is_enabled())
    charge.click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    sales = shop.api("GET", "/api/v1/sales?limit=500")
    assert len(sales) == sales_before + 1, "the second Charge booked the sale again"
    assert int(path_of(driver).rsplit("/", 1)[1]) == max(sale["id"] for sale in sales), "the receipt is not the sale booked first"
    assert "3.10" in wait_for(driver, "#receipt-total").text


def euro(text):
    """A decimal the API answered as the screens show it in the test shop's currency (EUR), e.g. "1.50" → "€1.50"."""
    return ("−" if text.startswith("-") else "") + "€" + text.lstrip("-")


def amount_off(driver, product_id, amount):
    """Gives a line a discount of `amount` in the dialog, once the dialog shows the server's figures for it."""
    driver.find_element(By.CSS_SELECTOR, f"[data-line='{product_id}'] button[data-act=discount]").click()
    dialog = wait_for(driver, "#discount-dialog")
    dialog.find_element(By.ID, "discount-value").send_keys(amount)
    wait(driver, lambda d: f"− {euro(amount)} =" in d.find_element(By.ID, "discount-preview").text)
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: not d.find_element(By.ID, "discount-dialog").is_displayed())


def test_a_percent_discount_and_the_receipt_show_the_figures_the_server_booked(shop, signed_in):
    """Issue 10: the till sends a percentage discount as a percentage (the server turns it into money), the cart shows
    the discount the server works out, and the receipt shows exactly the sale record the API answers — line amounts,
    discounts, tax per rate, totals, cash and change — none of it added up in the browser."""
    jam = shop.api("POST", "/api/v1/products", {"name": unique("Jam"), "salePrice": "3.33", "taxRate": "19", "tracksStock": False})
    coffee = shop.api("POST", "/api/v1/products", {"name": unique("Coffee"), "salePrice": "2.50", "taxRate": "7", "tracksStock": False})
    tea = shop.api("POST", "/api/v1/products", {"name": unique("Tea"), "salePrice": "1.15", "taxRate": "7", "tracksStock": False})
    driver = signed_in(shop, width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    # Keep the body of the sale the till posts (not the dry runs), past the move to the receipt.
    driver.execute_script("""
        const realFetch = window.fetch;
        window.fetch = (input, init = {}) => {
          const url = typeof input === "string" ? input : input.url;
          if (url.endsWith("/api/v1/sales") && init.method === "POST") sessionStorage.setItem("posted-sale", init.body);
          return realFetch(input, init);
        };""")
    for product in [jam, jam, jam, coffee, coffee, tea]:
        tile(driver, product["id"]).click()
    # 3 × 3.33 = 9.99; 10 % of it is 0.999, which the server books as 1.00.
    percent_off(driver, jam["id"], "10", "8.99")
    amount_off(driver, coffee["id"], "0.50")
    jam_discount = f"[data-line='{jam['id']}'] .till-line-discount"
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, jam_discount).text == "Discount 10 % −€1.00")
    preview = driver.execute_script("return fetch('/api/v1/sales?dryRun=true', {method: 'POST', headers: {'Content-Type': 'application/json', "
                                    "'X-CSRF-Token': document.querySelector('meta[name=csrf-token]').content}, "
                                    "body: JSON.stringify({paymentMethod: 'card', lines: [{productId: arguments[0], quantity: '3', discountPercent: '10'}]})})"
                                    ".then((r) => r.json())", jam["id"])
    assert driver.find_element(By.CSS_SELECTOR, jam_discount).text == f"Discount 10 % −{euro(preview['lines'][0]['discount'])}"
    tendered = driver.find_element(By.ID, "tendered")
    tendered.send_keys("30")
    wait(driver, lambda d: d.find_element(By.ID, "change-due").text != "")
    shown_total = driver.find_element(By.ID, "total-total").text
    wait(driver, lambda d: d.find_element(By.ID, "charge").is_enabled())
    driver.find_element(By.ID, "charge").click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    posted = json.loads(driver.execute_script("return sessionStorage.getItem('posted-sale')"))
    sale = shop.api("GET", f"/api/v1/sales/{int(path_of(driver).rsplit('/', 1)[1])}")
    assert shown_total == euro(sale["total"])

    # What the till sent: the percentage, not an amount worked out in the browser; the server booked 1.00 for it.
    sent = {line["productId"]: line for line in posted["lines"]}
    assert sent[jam["id"]].get("discountPercent") == "10" and "discount" not in sent[jam["id"]]
    assert sent[coffee["id"]].get("discount") == "0.50" and "discountPercent" not in sent[coffee["id"]]
    booked = {line["productId"]: line for line in sale["lines"]}
    assert booked[jam["id"]]["discount"] == "1.00" and booked[coffee["id"]]["discount"] == "0.50"

    # The receipt: every figure a person sees is the sale record's.
    wait_for(driver, "#receipt-total")
    for line in sale["lines"]:
        item = driver.find_element(By.CSS_SELECTOR, f"#receipt-lines li[data-line='{line['id']}']")
        rows = item.find_elements(By.CSS_SELECTOR, ".receipt-row")
        assert rows[0].find_element(By.CSS_SELECTOR, ".num").text == euro(line["amount"])
        if line["discount"] != "0.00":
            assert rows[1].find_element(By.CSS_SELECTOR, ".num").text == "−" + euro(line["discount"])
        else:
            assert len(rows) == 1
    assert driver.find_element(By.CSS_SELECTOR, "#receipt-discounts .num").text == "−" + euro(sale["discount"])
    assert driver.find_element(By.CSS_SELECTOR, "#receipt-subtotal .num").text == euro(sale["revenue"])
    assert len(sale["taxes"]) == 2
    for share in sale["taxes"]:
        row = driver.find_element(By.CSS_SELECTOR, f"#receipt [data-tax-rate='{share['taxRate']}']")
        assert row.find_element(By.CSS_SELECTOR, "span").text == f"Tax {share['taxRate']} % on {euro(share['revenue'])}"
        assert row.find_element(By.CSS_SELECTOR, ".num").text == euro(share["tax"])
    assert driver.find_element(By.CSS_SELECTOR, "#receipt-total .num").text == euro(sale["total"])
    assert driver.find_element(By.CSS_SELECTOR, "#receipt-tendered .num").text == euro(sale["cashTendered"]) == "€30.00"
    assert driver.find_element(By.CSS_SELECTOR, "#receipt-change .num").text == euro(sale["change"])
    assert driver.find_element(By.ID, "receipt-done").text == f"Sale complete. Change due: {euro(sale['change'])}"
    # The figures the server booked for this cart (per-line rounding): 8.99 + 4.50 + 1.15, tax 1.71 + 0.32 + 0.08.
    assert (sale["revenue"], sale["tax"], sale["total"], sale["change"]) == ("14.64", "2.11", "16.75", "13.25")


def test_a_typed_barcode_is_judged_by_the_server_on_every_screen(shop, signed_in):
    """Issue 10: the till, the scan screen and the product form each had their own check-digit rule (three length
    limits; a UPC-E was refused as a bad EAN-8, a 14-digit shop code as a bad GTIN-14). Now the server's rule decides
    everywhere: each screen accepts or refuses a typed code as the API's look-up does, in the API's words."""
    cola = shop.api("POST", "/api/v1/products", {"name": unique("Cola"), "barcode": "042100005264", "salePrice": "1.50", "tracksStock": False})
    body = "400638133393"
    wrong = body + str((int(gtin_check_digit(body)) + 1) % 10)
    codes = {
        wrong: "refused",                 # a wrong EAN-13 check digit
        "04252614": "found",              # Cola's UPC-A written as UPC-E (not a valid EAN-8)
        "12345678901234": "unknown",      # 14 digits without a leading zero: a shop's own code, not a GTIN-14
    }
    answers = {}
    for code in codes:
        status, _, content = shop.call("GET", f"/api/v1/products/barcode/{code}", headers={"Authorization": "Bearer " + shop.token}, raw=True)
        answers[code] = (status, json.loads(content))
    assert answers[wrong][0] == 422 and "check digit" in answers[wrong][1]["detail"]
    assert answers["04252614"][0] == 200 and answers["04252614"][1]["id"] == cola["id"]
    assert answers["12345678901234"][0] == 404

    driver = signed_in(shop, width=1024, height=768)
    # The till's scan field.
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    scan = driver.find_element(By.ID, "scan-code")
    for code, outcome in codes.items():
        scan.clear()
        scan.send_keys(code + Keys.ENTER)
        if outcome == "found":
            wait_for(driver, f"#cart-lines [data-line='{cola['id']}']", visible=False)
        else:
            expected = answers[code][1]["detail"] if outcome == "refused" else f"No product has the barcode {code}"
            wait(driver, lambda d: d.find_element(By.ID, "scan-code-error").text == expected)
    driver.find_element(By.ID, "cart-clear").click()
    wait_for(driver, "dialog [data-confirm]").click()

    # The scan screen's typed code.
    driver.get(shop.url("/app/scan"))
    manual = wait_for(driver, "#manual-code")
    for code, outcome in codes.items():
        manual.clear()
        manual.send_keys(code + Keys.ENTER)
        if outcome == "refused":
            wait(driver, lambda d: d.find_elements(By.ID, "manual-code-error") and d.find_element(By.ID, "manual-code-error").text == answers[code][1]["detail"])
        else:
            wait(driver, lambda d: d.find_element(By.ID, "result-name").text == (cola["name"] if outcome == "found" else "Unknown barcode"))
            driver.find_element(By.ID, "scan-again").click()

    # The product form: the code is looked up when the field is left.
    driver.get(shop.url("/app/products/new"))
    barcode = wait_for(driver, "#pf-barcode")
    for code, outcome in codes.items():
        barcode.clear()
        barcode.send_keys(code, Keys.TAB)
        if outcome == "refused":
            wait(driver, lambda d: d.find_element(By.ID, "pf-barcode-error").text == answers[code][1]["detail"])
        elif outcome == "found":
            wait(driver, lambda d: cola["name"] in d.find_element(By.ID, "pf-barcode-error").text)
        else:
            wait_idle(driver)
            time.sleep(0.3)
            assert barcode.get_attribute("aria-invalid") is None
            assert driver.find_elements(By.ID, "pf-barcode-error") == [] or driver.find_element(By.ID, "pf-barcode-error").text == ""


def test_the_tills_search_shows_the_servers_answer_in_its_order(shop, signed_in):
    """What the till's search finds, and in which order, is the server's rule (one source of truth): the grid shows the
    API's answer for the same text, best match first (a name starting with the text before a word starting with it),
    with the server's folding (full-width letters find their ASCII name), its limit on words, and Enter on a single
    match adds it even when pressed before the answer came."""
    tag = "quokka" + unique("").strip().replace("-", "")
    green, cake, pot = (stocked(shop, name, "2.00", "7", "5") for name in (f"Green {tag}", f"{tag} cake", f"{tag}pot"))
    driver = signed_in(shop, width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    search = driver.find_element(By.ID, "product-search")
    shown = lambda d: d.execute_script(
        "return [...document.querySelectorAll('#product-grid [data-product]')].map((t) => Number(t.dataset.product))")
    answer = [p["id"] for p in shop.api("GET", f"/api/v1/products?search={tag}&limit=100")["items"]]
    assert answer[-1] == green["id"] and set(answer) == {green["id"], cake["id"], pot["id"]}
    search.send_keys(tag)
    wait(driver, lambda d: shown(d) == answer)   # by name, "Green …" would come first
    # Full-width letters and digits fold to ASCII on the server.
    search.clear()
    search.send_keys("".join(chr(ord(c) + 0xFEE0) for c in tag))
    wait(driver, lambda d: shown(d) == answer)
    # The server's limit: at most 8 words, said on the grid, nothing shown as a match.
    search.clear()
    search.send_keys(" ".join([tag] * 9))
    wait(driver, lambda d: "8 words" in d.find_element(By.ID, "product-grid").text)
    assert shown(driver) == []
    # One match and Enter at once: it goes in the cart.
    search.clear()
    search.send_keys(f"{tag}pot" + Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "cart-count").get_attribute("textContent").strip() == "1 item")
    assert pot["name"] in driver.find_element(By.ID, "cart-lines").get_attribute("textContent")
