"""Products as the iOS app knew them (issue 14, point 5): a description, an opening stock on the new-product form, the final price with
tax and the markup's suggestion shown live (the server's figures), "save and add another", a share button, and
"+1 received" / ±N on the scan screen for a known barcode."""
import os
import time
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import fully_visible, gtin_check_digit, no_horizontal_scroll, screenshot, unique, wait, wait_for, wait_idle

SIZES = [(375, 812), (1024, 768), (1440, 900)]
IDS = ["phone", "tablet", "desktop"]


def new_code(counter=iter(range(100))):
    body = f"27{os.getpid() % 100000:05d}{int(time.time() * 1000) % 1000:03d}{next(counter):02d}"[:12]
    return body + gtin_check_digit(body)


def product_total(shop):
    return shop.api("GET", "/api/v1/products?limit=1&archived=true")["total"]


def seen(driver, element):
    """Scrolled into the middle of the screen, the element is there for a person to see, not covered."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    return fully_visible(driver, element)


def type_into(driver, css, text):
    field = driver.find_element(By.CSS_SELECTOR, css)
    field.clear()
    field.send_keys(text)
    return field


@pytest.mark.parametrize("width,height", SIZES, ids=IDS)
def test_opening_stock_live_prices_and_save_and_add_another(shop, signed_in, width, height):
    category = shop.api("POST", "/api/v1/categories", {"name": unique("Mugs"), "markup": "80"})
    driver = signed_in(shop, "manager", width=width, height=height)
    driver.get(shop.url("/app/products/new"))
    name = unique("Blue mug")
    wait_for(driver, "#pf-name").send_keys(name)
    Select(driver.find_element(By.ID, "pf-category")).select_by_value(str(category["id"]))
    assert seen(driver, wait_for(driver, "#pf-opening"))
    type_into(driver, "#pf-opening-quantity", "12")
    type_into(driver, "#pf-opening-cost", "2.50")
    type_into(driver, "#pf-description", "Stoneware, 300 ml.")

    # The category's markup suggests a price for the opening cost: the server's figure, shown as it is typed.
    expected = shop.api("GET", f"/api/v1/products/price-preview?cost=2.50&categoryId={category['id']}&taxRate=19")
    suggestion = wait_for(driver, "#pf-suggest")
    wait(driver, lambda d: d.find_element(By.ID, "pf-suggested-price").text.endswith(expected["suggestedSalePrice"]))
    assert "80 % markup" in suggestion.text
    use = driver.find_element(By.ID, "pf-use-suggestion")
    assert seen(driver, use)
    use.click()
    assert driver.find_element(By.ID, "pf-sale").get_attribute("value") == expected["suggestedSalePrice"]

    # What the customer pays with the tax: the server's final price for what the form holds, updated as it changes.
    type_into(driver, "#pf-tax", "19")
    figures = shop.api("GET", f"/api/v1/products/price-preview?salePrice={expected['suggestedSalePrice']}&taxRate=19")
    wait(driver, lambda d: d.find_element(By.ID, "pf-final-price").text.endswith(figures["finalPrice"]))
    assert seen(driver, driver.find_element(By.ID, "pf-final"))
    type_into(driver, "#pf-sale", "10")
    wait(driver, lambda d: d.find_element(By.ID, "pf-final-price").text.endswith("11.90"))
    assert "1.90 tax" in driver.find_element(By.ID, "pf-final").text
    screenshot(driver, f"product-form-opening-stock-{width}")

    # Save and add another: saved with its opening stock, the form again empty but for the category, the cursor in the name.
    before = product_total(shop)
    another = driver.find_element(By.ID, "pf-save-another")
    assert seen(driver, another)
    another.click()
    wait(driver, lambda d: "categoryId=" in d.current_url and d.find_element(By.ID, "pf-flash").is_displayed())
    wait_idle(driver)
    assert f"Saved {name}." in driver.find_element(By.ID, "pf-flash").text
    assert "Opening stock 12" in driver.find_element(By.ID, "pf-flash").text
    assert driver.find_element(By.ID, "pf-name").get_attribute("value") == ""
    assert driver.switch_to.active_element.get_attribute("id") == "pf-name"
    wait(driver, lambda d: Select(d.find_element(By.ID, "pf-category")).first_selected_option.get_attribute("value") == str(category["id"]))
    assert driver.find_element(By.ID, "pf-opening-quantity").get_attribute("value") == ""
    assert product_total(shop) == before + 1
    saved = shop.api("GET", "/api/v1/products?search=" + urllib.parse.quote(name))["items"][0]
    assert (saved["quantity"], saved["averageCost"], saved["salePrice"], saved["taxRate"]) == ("12", "2.50", "10.00", "19")
    assert saved["description"] == "Stoneware, 300 ml."
    movements = shop.api("GET", f"/api/v1/products/{saved['id']}/movements")
    assert [(m["kind"], m["reason"], m["unitCost"]) for m in movements] == [("adjustment", "initial", "2.50")]
    assert no_horizontal_scroll(driver)


def test_a_bad_opening_stock_is_refused_on_its_field_and_nothing_is_created(shop, signed_in):
    driver = signed_in(shop, "manager", width=375, height=812)
    driver.get(shop.url("/app/products/new"))
    wait_for(driver, "#pf-name").send_keys(unique("Refused mug"))
    before = product_total(shop)
    # A quantity without its cost: the server's rule and words, on the cost's field.
    type_into(driver, "#pf-opening-quantity", "5")
    driver.find_element(By.ID, "pf-save").click()
    wait(driver, lambda d: "what one unit cost" in d.find_element(By.ID, "pf-opening-cost-error").text)
    assert driver.find_element(By.ID, "pf-opening-cost").get_attribute("aria-invalid") == "true"
    assert product_total(shop) == before
    # Zero is the server's refusal (not more than zero), shown on its field; nothing is created.
    type_into(driver, "#pf-opening-quantity", "0")
    type_into(driver, "#pf-opening-cost", "1.00")
    driver.find_element(By.ID, "pf-save").click()
    wait(driver, lambda d: "more than zero" in d.find_element(By.ID, "pf-opening-quantity-error").text)
    assert driver.find_element(By.ID, "pf-opening-quantity").get_attribute("aria-invalid") == "true"
    assert product_total(shop) == before
    screenshot(driver, "product-form-opening-stock-refused-375")


@pytest.mark.parametrize("width,height", SIZES, ids=IDS)
def test_share_a_product(shop, signed_in, width, height):
    product = shop.api("POST", "/api/v1/products", {"name": unique("Shared mug"), "salePrice": "4.00",
                                                    "description": "Stoneware, 300 ml.\nDishwasher safe."})
    link = shop.url(f"/app/products/{product['id']}")
    driver = signed_in(shop, "staff", width=width, height=height)
    phone = width < 768
    # A phone's browser has the system share sheet (Web Share API); elsewhere the link is copied. Both are recorded.
    script = ("window.__shared = []; window.__copied = [];"
              + ("navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };" if phone
                 else "Object.defineProperty(navigator, 'share', {value: undefined, configurable: true});")
              + "Object.defineProperty(navigator, 'clipboard', {value: {writeText: (t) => { window.__copied.push(t); return Promise.resolve(); }}, configurable: true});")
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    driver.get(link)
    share = wait_for(driver, "#pd-share")
    wait_idle(driver)
    # The description, as the server keeps it, under the name.
    description = driver.find_element(By.ID, "pd-description")
    assert description.text == "Stoneware, 300 ml.\nDishwasher safe."
    assert seen(driver, description)
    assert seen(driver, share)
    share.click()
    if phone:
        wait(driver, lambda d: d.execute_script("return window.__shared.length") == 1)
        assert driver.execute_script("return window.__shared[0]") == {"title": product["name"], "url": link}
        assert driver.execute_script("return window.__copied.length") == 0
    else:
        status = wait_for(driver, "#pd-share-status")
        assert status.text == "Link copied"
        assert seen(driver, status)
        assert driver.execute_script("return window.__copied") == [link]
        screenshot(driver, f"product-share-copied-{width}")
    assert no_horizontal_scroll(driver)


@pytest.mark.parametrize("width,height", SIZES, ids=IDS)
def test_scan_a_known_barcode_and_book_received_stock(shop, signed_in, width, height):
    code = new_code()
    purchase = shop.api("POST", "/api/v1/purchases", {"lines": [{"newProduct": {"name": unique("Scanned mug"), "barcode": code, "salePrice": "9.00"},
                                                                  "quantity": "10", "unitCost": "3.00"}]})
    product_id = purchase["lines"][0]["productId"]
    driver = signed_in(shop, "manager", width=width, height=height)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                           {"source": "Object.defineProperty(navigator, 'mediaDevices', {value: undefined})"})
    driver.get(shop.url("/app/scan"))
    wait_for(driver, "#manual-code").send_keys(code + Keys.ENTER)
    one = wait_for(driver, "#quick-receive-one")
    assert one.text == "+1 received"
    assert seen(driver, one)
    one.click()
    wait(driver, lambda d: "11 pcs in stock" in d.find_element(By.ID, "quick-status").text)
    assert shop.api("GET", f"/api/v1/products/{product_id}")["quantity"] == "11"
    assert "11 pcs in stock" in driver.find_element(By.ID, "result-stock").text

    # The stepper: +2 more makes "Receive +3"; booked at the average cost, which therefore stays 3.00.
    plus = driver.find_element(By.ID, "quick-plus")
    assert seen(driver, plus)
    plus.click()
    plus.click()
    book = driver.find_element(By.ID, "quick-book")
    assert book.text == "Receive +3"
    book.click()
    wait(driver, lambda d: "14 pcs in stock" in d.find_element(By.ID, "result-stock").text)
    # Down through zero (skipped) to −2: "Remove 2".
    minus = driver.find_element(By.ID, "quick-minus")
    for _ in range(4):
        minus.click()
    assert driver.find_element(By.ID, "quick-step").get_attribute("value") == "-2"
    assert book.text == "Remove 2"
    assert seen(driver, book)
    book.click()
    wait(driver, lambda d: "12 pcs in stock" in d.find_element(By.ID, "result-stock").text)
    screenshot(driver, f"scan-quick-receive-{width}")
    fresh = shop.api("GET", f"/api/v1/products/{product_id}")
    assert (fresh["quantity"], fresh["averageCost"]) == ("12", "3.00")
    movements = shop.api("GET", f"/api/v1/products/{product_id}/movements")
    assert [(m["kind"], m["reason"], m["quantity"]) for m in movements[1:]] == [
        ("adjustment", "correction", "1"), ("adjustment", "correction", "3"), ("adjustment", "correction", "-2")]

    # More than is in stock: the ledger's refusal is shown; nothing booked.
    driver.execute_script("const s = document.getElementById('quick-step'); s.value = '-50'; s.dispatchEvent(new Event('input'))")
    book.click()
    wait(driver, lambda d: "error" in d.find_element(By.ID, "quick-status").get_attribute("class"))
    assert shop.api("GET", f"/api/v1/products/{product_id}")["quantity"] == "12"
    assert no_horizontal_scroll(driver)


def test_staff_get_no_quick_receive(shop, signed_in):
    code = new_code()
    shop.api("POST", "/api/v1/purchases", {"lines": [{"newProduct": {"name": unique("Staff mug"), "barcode": code, "salePrice": "9.00"},
                                                       "quantity": "2", "unitCost": "3.00"}]})
    driver = signed_in(shop, "staff", width=375, height=812)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                           {"source": "Object.defineProperty(navigator, 'mediaDevices', {value: undefined})"})
    driver.get(shop.url("/app/scan"))
    wait_for(driver, "#manual-code").send_keys(code + Keys.ENTER)
    wait_for(driver, "#result-actions")
    assert driver.find_elements(By.ID, "quick-receive") == []


def test_a_description_is_edited_and_cleared(shop, signed_in):
    product = shop.api("POST", "/api/v1/products", {"name": unique("Described mug"), "description": "Old words"})
    driver = signed_in(shop, "manager", width=1024, height=768)
    driver.get(shop.url(f"/app/products/{product['id']}/edit"))
    field = wait_for(driver, "#pf-description")
    wait(driver, lambda d: field.get_attribute("value") == "Old words")
    assert not driver.find_element(By.ID, "pf-opening").is_displayed()  # only when creating
    assert not driver.find_element(By.ID, "pf-save-another").is_displayed()
    field.clear()
    driver.find_element(By.ID, "pf-save").click()
    wait(driver, lambda d: urllib.parse.urlsplit(d.current_url).path == f"/app/products/{product['id']}")
    wait_idle(driver)
    assert shop.api("GET", f"/api/v1/products/{product['id']}")["description"] == ""
    assert not driver.find_element(By.ID, "pd-description").is_displayed()
    # Too long: the server's refusal on the field.
    driver.get(shop.url(f"/app/products/{product['id']}/edit"))
    field = wait_for(driver, "#pf-description")
    driver.execute_script("arguments[0].removeAttribute('maxlength'); arguments[0].value = 'x'.repeat(2001)", field)
    driver.find_element(By.ID, "pf-save").click()
    wait(driver, lambda d: d.find_element(By.ID, "pf-description").get_attribute("aria-invalid") == "true")
    assert "2000" in driver.find_element(By.ID, "pf-description-error").text or "long" in driver.find_element(By.ID, "pf-description-error").text
    assert shop.api("GET", f"/api/v1/products/{product['id']}")["description"] == ""
