"""The catalogue screens: products (list, form, detail with stock history), categories, suppliers and customers."""
import json
import tempfile
from urllib.parse import quote, urlsplit

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import ApiError, gtin_check_digit, no_horizontal_scroll, screenshot, unique, wait, wait_for, wait_idle, wait_path


def ean13(body12):
    return body12 + gtin_check_digit(body12)


_codes = iter(range(10_000))


def fresh_ean(prefix="2091"):
    """A valid EAN-13 no other test in this module uses."""
    import os
    return ean13(f"{prefix}{os.getpid() % 10000:04d}{next(_codes):04d}")


def product_total(shop):
    return shop.api("GET", "/api/v1/products?limit=1&archived=true")["total"]


def server_refusal(shop, method, path, body):
    """The problem the API answers for a body it must refuse (as the admin)."""
    try:
        shop.api(method, path, body)
    except ApiError as error:
        return json.loads(error.body)
    raise AssertionError(f"{method} {path} {body} was accepted")


def fill(driver, css, text):
    field = driver.find_element(By.CSS_SELECTOR, css)
    field.clear()
    field.send_keys(text)
    return field


def list_names(driver):
    return driver.execute_script("return [...document.querySelectorAll('#product-list .pr-name')].map((a) => a.textContent)")


def test_first_run_second_half_category_supplier_customer(shop, signed_in):
    driver = signed_in(shop, "admin", width=375, height=812)

    # A category through its sheet.
    category = unique("Pastries")
    driver.get(shop.url("/app/categories"))
    wait_idle(driver)
    driver.find_element(By.ID, "category-add").click()
    wait_for(driver, "#category-dialog #cf-name").send_keys(category)
    # The server's rule and words on the field, nothing saved (the form no longer keeps a copy of the rule).
    categories_before = shop.api("GET", "/api/v1/categories")
    refusal = server_refusal(shop, "POST", "/api/v1/categories", {"name": category, "color": "#888888", "lowStockThreshold": "abc"})
    assert refusal["field"] == "lowStockThreshold"
    fill(driver, "#cf-threshold", "abc")
    driver.find_element(By.ID, "category-save").click()
    assert wait(driver, lambda d: d.find_element(By.ID, "cf-threshold-error").text) == refusal["detail"]
    assert driver.find_element(By.ID, "cf-threshold").get_attribute("aria-invalid") == "true"
    assert shop.api("GET", "/api/v1/categories") == categories_before
    # What the server reads, the form sends as typed: a decimal comma and a markup written with "%".
    fill(driver, "#cf-threshold", "6,5")
    fill(driver, "#cf-markup", "80 %")
    driver.find_element(By.ID, "category-save").click()
    wait(driver, lambda d: category in d.find_element(By.ID, "category-list").text)
    saved = next(c for c in shop.api("GET", "/api/v1/categories") if c["name"] == category)
    assert saved["lowStockThreshold"] in ("6.5", "6.500") and saved["markup"].startswith("80")
    assert no_horizontal_scroll(driver)

    # A supplier and a customer through the same contact editor.
    for kind in ("suppliers", "customers"):
        name = unique("Kim " + kind)
        driver.get(shop.url(f"/app/{kind}"))
        wait_idle(driver)
        driver.find_element(By.ID, "contact-add").click()
        wait_for(driver, "#contact-dialog #ct-name").send_keys(name)
        fill(driver, "#ct-location", "Hamburg")
        fill(driver, "#ct-phone", "+49 40 1234")
        fill(driver, "#ct-email", "not-an-address")
        driver.find_element(By.ID, "contact-save").click()
        assert "e-mail" in wait_for(driver, "#contact-form .field-error").text
        fill(driver, "#ct-email", "kim@example.com")
        driver.find_element(By.ID, "contact-save").click()
        card = wait(driver, lambda d: next((c for c in d.find_elements(By.CSS_SELECTOR, "#contact-list .contact-card") if name in c.text), None))
        assert card.find_element(By.CSS_SELECTOR, "a[href^='tel:']").get_attribute("href") == "tel:+49401234"
        contact = next(c for c in shop.api("GET", f"/api/v1/{kind}") if c["name"] == name)
        assert (contact["location"], contact["phone"], contact["email"]) == ("Hamburg", "+49 40 1234", "kim@example.com")
        # Search as you type narrows the cards.
        fill(driver, "#contact-search", name.split()[-1])
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#contact-list .contact-card")) == 1)


def test_product_form_validates_prices_and_barcodes_inline(shop, signed_in):
    owner_code = fresh_ean()
    owner = shop.api("POST", "/api/v1/products", {"name": unique("Barcode owner"), "barcode": owner_code, "salePrice": "2.00"})
    before = product_total(shop)
    driver = signed_in(shop, "admin", width=375, height=812)
    driver.get(shop.url("/app/products/new"))
    name = wait_for(driver, "#pf-name")
    name.send_keys(unique("Validated"))

    for bad in ("12,5x", "abc", "12.505"):
        refusal = server_refusal(shop, "POST", "/api/v1/products", {"name": "Refused", "salePrice": bad})
        assert refusal["field"] == "salePrice"
        fill(driver, "#pf-sale", bad)
        driver.find_element(By.ID, "pf-save").click()
        assert wait(driver, lambda d: d.find_element(By.ID, "pf-sale-error").text) == refusal["detail"]
        assert driver.find_element(By.ID, "pf-sale").get_attribute("aria-invalid") == "true"
    assert product_total(shop) == before

    # Trailing zeros beyond the currency's decimals are no refusal (the server's rule; the form's copy of it refused
    # "12.500"), nor is a decimal comma.
    fill(driver, "#pf-sale", "12,500")
    body = fresh_ean()[:12]
    wrong = body + str((int(gtin_check_digit(body)) + 1) % 10)
    fill(driver, "#pf-barcode", wrong)
    driver.find_element(By.ID, "pf-save").click()
    assert "check digit should be " + gtin_check_digit(body) in wait_for(driver, "#pf-barcode-error").text
    assert driver.find_element(By.ID, "pf-sale").get_attribute("aria-invalid") is None
    assert product_total(shop) == before

    fill(driver, "#pf-barcode", owner_code)
    driver.find_element(By.ID, "pf-save").click()
    wait(driver, lambda d: owner["name"] in d.find_element(By.ID, "pf-barcode-error").text)
    wait_idle(driver)
    assert product_total(shop) == before
    screenshot(driver, "catalogue-product-form-errors-375")

    # Without a barcode the product saves, at the price the server read from "12,500".
    typed_name = driver.find_element(By.ID, "pf-name").get_attribute("value")
    fill(driver, "#pf-barcode", "")
    driver.find_element(By.ID, "pf-save").click()
    wait(driver, lambda d: product_total(shop) == before + 1)
    found = shop.api("GET", "/api/v1/products?search=" + quote(typed_name))["items"]
    saved = [p for p in found if p["name"] == typed_name]
    assert [p["salePrice"] for p in saved] == ["12.50"]


def test_price_suggestion_and_minimum_price_rule_come_from_the_server(shop, signed_in):
    """The form shows the server's suggestion (the category's markup on the cost price, rounded once by the domain) and
    leaves the minimum-price rule to the server, whose refusal lands on the field; nothing is saved then."""
    category = shop.api("POST", "/api/v1/categories", {"name": unique("Markup"), "color": "#92400e", "markup": "50"})
    product = shop.api("POST", "/api/v1/products", {"name": unique("Suggested"), "salePrice": "5.00"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "4", "unitCost": "2.75"}]})
    suggestion = shop.api("GET", f"/api/v1/products/{product['id']}/price-suggestion?categoryId={category['id']}")
    assert suggestion["salePrice"] == "4.13"  # 2.75 × 1.5 = 4.125, half away from zero
    driver = signed_in(shop, "admin", width=1024, height=768)
    driver.get(shop.url(f"/app/products/{product['id']}/edit"))
    wait_for(driver, "#pf-name")
    wait_idle(driver)
    Select(driver.find_element(By.ID, "pf-category")).select_by_value(str(category["id"]))
    box = wait(driver, lambda d: d.find_element(By.ID, "pf-suggest").is_displayed() and d.find_element(By.ID, "pf-suggest"))
    assert "€4.13" in box.text and "€2.75" in box.text
    box.find_element(By.TAG_NAME, "button").click()
    assert driver.find_element(By.ID, "pf-sale").get_attribute("value") == suggestion["salePrice"]
    fill(driver, "#pf-minimum", "9.00")
    driver.find_element(By.ID, "pf-save").click()
    assert "above the sale price" in wait_for(driver, "#pf-minimum-error").text
    saved = shop.api("GET", f"/api/v1/products/{product['id']}")
    assert saved["salePrice"] == "5.00" and saved.get("minimumSalePrice") is None and saved.get("categoryId") is None


def test_products_list_search_filter_history_archive_and_delete(shop, signed_in):
    stem = unique("Quokka")
    code = fresh_ean()
    found = shop.api("POST", "/api/v1/products", {"name": stem + " oat biscuit", "barcode": code, "salePrice": "3.20"})
    empty = shop.api("POST", "/api/v1/products", {"name": unique("Empty shelf"), "salePrice": "1.00"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": found["id"], "quantity": "12", "unitCost": "1.25"}]})

    driver = signed_in(shop, "admin", width=1024, height=768)
    driver.get(shop.url("/app/products"))
    wait_for(driver, "#product-list .product-row")
    search = driver.find_element(By.ID, "product-search")
    # Part of the name, in another case, as the user types.
    search.send_keys(stem[2:].upper())
    wait(driver, lambda d: list_names(d) == [found["name"]])
    row = driver.find_element(By.CSS_SELECTOR, "#product-list .product-row")
    assert "€1.25" in row.text and "€3.20" in row.text and "€15.00" in row.text and "In stock" in row.text
    # The barcode.
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(code)
    wait(driver, lambda d: list_names(d) == [found["name"]])
    # Status filter: "out" shows the empty product and only products that are out.
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.BACKSPACE)
    driver.find_element(By.CSS_SELECTOR, ".status-chips [data-status=out]").click()
    wait(driver, lambda d: empty["name"] in list_names(d))
    assert found["name"] not in list_names(driver)
    badges = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#product-list .pr-status .badge:first-child")]
    assert badges and set(badges) == {"Out"}
    assert "status=out" in driver.current_url

    # The detail shows the purchase in the stock history.
    driver.get(shop.url(f"/app/products/{found['id']}"))
    history = wait_for(driver, "#pd-history-table")
    first = history.find_element(By.CSS_SELECTOR, "tbody tr")
    text = first.text
    assert "Purchase" in text and "+12" in text and "€1.25" in text and "€15.00" in text
    links = {urlsplit(a.get_attribute("href"))._replace(scheme="", netloc="").geturl()
             for a in driver.find_elements(By.CSS_SELECTOR, "#pd-actions a")}
    assert {f"/app/purchases/new?product={found['id']}", f"/app/sales/new?product={found['id']}",
            f"/app/stock?product={found['id']}", f"/app/products/{found['id']}/edit"} <= links
    assert no_horizontal_scroll(driver)

    # Archive (confirmed) and restore.
    driver.find_element(By.ID, "pd-archive").click()
    wait_for(driver, "dialog[open] [data-confirm]").click()
    wait(driver, lambda d: "Archived" in d.find_element(By.ID, "pd-badges").text)
    assert shop.api("GET", f"/api/v1/products/{found['id']}")["archived"] is True
    wait_for(driver, "#pd-restore").click()
    wait_for(driver, "#pd-archive")
    assert shop.api("GET", f"/api/v1/products/{found['id']}")["archived"] is False
    # A product with history cannot be deleted: the API's reason is shown and nothing changes.
    driver.find_element(By.ID, "pd-delete").click()
    wait_for(driver, "dialog[open] [data-confirm]").click()
    assert "archive it instead" in wait_for(driver, "#catalogue-error").text
    assert shop.api("GET", f"/api/v1/products/{found['id']}")["name"] == found["name"]
    # An unused product is deleted after confirmation.
    driver.get(shop.url(f"/app/products/{empty['id']}"))
    wait_for(driver, "#pd-delete").click()
    wait_for(driver, "dialog[open] [data-confirm]").click()
    wait_path(driver, "/app/products")
    assert empty["name"] + " deleted" in wait_for(driver, "#catalogue-flash").text
    try:
        shop.api("GET", f"/api/v1/products/{empty['id']}")
        raise AssertionError("still there")
    except ApiError as error:
        assert error.status == 404


def test_low_stock_follows_the_shop_default(shop, signed_in):
    """A product without its own threshold, in no category, is low at or below the shop default (5) — the badge
    shows the server's status, and the form's hint says what an empty threshold means."""
    default = shop.api("GET", "/api/v1/settings")["lowStockDefault"]
    assert default == "5"
    product = shop.api("POST", "/api/v1/products", {"name": unique("Shop default"), "salePrice": "2.00"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "3", "unitCost": "1.00"}]})
    assert shop.api("GET", f"/api/v1/products/{product['id']}")["status"] == "low"

    driver = signed_in(shop, "admin", width=1024, height=768)
    driver.get(shop.url(f"/app/products/{product['id']}"))
    wait(driver, lambda d: d.find_element(By.ID, "pd-badges").text.startswith("Low"))
    assert "5 pcs" in driver.find_element(By.ID, "pd-figures").text
    driver.get(shop.url("/app/products?status=low&search=" + product["name"].replace(" ", "%20")))
    wait(driver, lambda d: list_names(d) == [product["name"]])
    assert driver.find_element(By.CSS_SELECTOR, "#product-list .pr-status .badge").text == "Low"

    driver.get(shop.url(f"/app/products/{product['id']}/edit"))
    hint = wait_for(driver, "#pf-threshold-hint")
    wait(driver, lambda d: "shop default, 5" in hint.text)
    assert "no low-stock warning" not in hint.text and "0: warn only when out of stock" in hint.text


def test_paging_loads_more_instead_of_everything(shop, signed_in):
    stem = unique("Pager")
    for index in range(55):
        shop.api("POST", "/api/v1/products", {"name": f"{stem} {index:02d}", "salePrice": "1.00"})
    driver = signed_in(shop, "admin", width=1440, height=900)
    driver.get(shop.url("/app/products?search=" + stem.replace(" ", "%20")))
    wait(driver, lambda d: len(list_names(d)) == 50)
    assert "55 products" in driver.find_element(By.ID, "product-count").text
    driver.execute_script("document.getElementById('product-sentinel').scrollIntoView()")
    wait(driver, lambda d: len(list_names(d)) == 55)
    assert driver.find_element(By.ID, "product-more").get_attribute("hidden") is not None


def test_picture_upload_previews_and_saves(shop, signed_in):
    from PIL import Image

    picture = Image.new("RGB", (240, 160), (200, 120, 40))
    path = tempfile.NamedTemporaryFile(suffix=".png", delete=False).name
    picture.save(path)
    name = unique("Pictured")
    driver = signed_in(shop, "admin", width=375, height=812)
    driver.get(shop.url("/app/products/new?barcode=" + fresh_ean()))
    wait_for(driver, "#pf-name").send_keys(name)
    assert len(driver.find_element(By.ID, "pf-barcode").get_attribute("value")) == 13
    fill(driver, "#pf-sale", "4.5")
    driver.find_element(By.ID, "pf-picture").send_keys(path)
    preview = wait_for(driver, "#pf-preview-image")
    assert preview.get_attribute("src").startswith("blob:")
    assert "centre-cropped" in wait_for(driver, "#pf-preview-shape").text
    driver.execute_script("document.getElementById('pf-preview').scrollIntoView({block: 'center'})")
    screenshot(driver, "catalogue-product-form-preview-375")
    driver.find_element(By.ID, "pf-save").click()
    flash = wait_for(driver, "#pd-flash")
    assert "centre-cropped" in flash.text
    product = next(p for p in shop.api("GET", "/api/v1/products?search=" + name.split()[-1])["items"] if p["name"] == name)
    assert product["imageRef"] and product["salePrice"] == "4.50"
    image = wait_for(driver, "#pd-picture img")
    assert product["imageRef"] in image.get_attribute("src")
    wait(driver, lambda d: d.execute_script("return document.querySelector('#pd-picture img').naturalWidth") > 0)


def test_staff_sees_the_catalogue_but_cannot_change_it(shop, signed_in):
    product = shop.api("POST", "/api/v1/products", {"name": unique("Staff view"), "salePrice": "1.00"})
    driver = signed_in(shop, "staff", width=375, height=812)
    driver.get(shop.url("/app/products"))
    wait_for(driver, "#product-list .product-row")
    assert not driver.find_elements(By.CSS_SELECTOR, ".fab")
    driver.get(shop.url(f"/app/products/{product['id']}"))
    wait(driver, lambda d: d.find_element(By.ID, "pd-name").text == product["name"])
    assert not driver.find_elements(By.CSS_SELECTOR, "#pd-edit, #pd-delete, #pd-archive")
    driver.get(shop.url("/app/customers"))
    wait_idle(driver)
    assert not driver.find_elements(By.CSS_SELECTOR, "#contact-add")


def test_screens_at_every_size(shop, signed_in):
    # A few products with stock, so the shots show figures and every badge (sorted by stock value, they come first).
    category = shop.api("POST", "/api/v1/categories", {"name": unique("Shots"), "color": "#7c3aed", "markup": "120"})
    lines = []
    for name, quantity, cost, threshold in (("Flat white beans", "40", "6.35", "5"), ("Sourdough loaf", "3", "2.10", "5"),
                                            ("Lemonade 330 ml", "18", "0.95", "6")):
        product = shop.api("POST", "/api/v1/products", {"name": unique(name), "salePrice": "9.90", "categoryId": category["id"],
                                                        "lowStockThreshold": threshold, "barcode": fresh_ean()})
        lines.append({"productId": product["id"], "quantity": quantity, "unitCost": cost})
    shop.api("POST", "/api/v1/purchases", {"lines": lines})
    shop.api("POST", "/api/v1/products", {"name": unique("Gift wrapping"), "salePrice": "1.50", "tracksStock": False})
    driver = signed_in(shop, "admin", width=1440, height=900)
    for width, height, dark in ((375, 812, False), (375, 812, True), (1024, 768, False), (1440, 900, False)):
        # One signed-in browser, re-sized and re-coloured between shots.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 768})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
        suffix = f"{width}{'-dark' if dark else ''}"
        driver.get(shop.url("/app/products?sort=value"))
        wait_for(driver, "#product-list .product-row")
        wait_idle(driver)
        assert no_horizontal_scroll(driver), suffix
        screenshot(driver, f"catalogue-products-{suffix}")
        driver.get(shop.url("/app/products/new"))
        wait_for(driver, "#pf-name")
        wait_idle(driver)
        assert no_horizontal_scroll(driver), suffix
        screenshot(driver, f"catalogue-product-form-{suffix}")
