"""Reordering (issue 14, point 2), at phone, tablet and desktop sizes: the Reorder screen shows per supplier what the
server suggests (the figures equal GET /api/v1/reorder's), a bad window is refused on its field, "Draft purchase" opens
a purchase filled with the supplier's lines that books nothing until it is saved, and the product form keeps a
product's supplier, supplier's code and pack size."""
import datetime

import pytest
from selenium.webdriver.common.by import By

from conftest import no_horizontal_scroll, screenshot, unique, wait, wait_for, wait_idle, wait_path
from test_documents import line, press, text_of
from test_staff_privacy import SIZES, euro, seen
from test_stocktake import server_refusal


def days_ago(days):
    return (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture(scope="module")
def dairy(shop):
    """A dairy delivering in 3 days; oat milk bought from it in crates of 6 (61.5 l at 1.20, 60 days ago), 5 l sold
    40 days ago and 47 l today: 9.5 l left, threshold 6. Over 28 days with 14 of cover: 47 × 17 ÷ 28 = 28.536 needed,
    19.036 short → 4 crates, 24 l, 28.80."""
    shop.api("PUT", "/api/v1/settings", {"shopName": "Reorder café", "currency": "EUR", "timeZone": "UTC", "defaultTaxRate": "0",
                                         "lowStockDefault": "0", "lockMinutes": 5})
    supplier = shop.api("POST", "/api/v1/suppliers", {"name": unique("Dairy"), "leadTimeDays": 3})
    product = shop.api("POST", "/api/v1/products", {"name": unique("Oat milk"), "unit": "l", "salePrice": "2.50", "lowStockThreshold": "6",
                                                    "preferredSupplierId": supplier["id"], "supplierCode": "OAT-6", "packSize": "6"})
    shop.api("POST", "/api/v1/purchases", {"supplierId": supplier["id"], "effectiveAt": days_ago(60),
                                           "lines": [{"productId": product["id"], "quantity": "61.5", "unitCost": "1.20"}]})
    shop.api("POST", "/api/v1/sales", {"effectiveAt": days_ago(40), "lines": [{"productId": product["id"], "quantity": "5"}]})
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "47"}]})
    return supplier, product


def group_of(answer, supplier):
    return next(g for g in answer["groups"] if g.get("supplierId") == supplier["id"])


@pytest.mark.parametrize("size", SIZES)
def test_the_reorder_screen_shows_the_servers_suggestion_per_supplier(shop, signed_in, dairy, size):
    supplier, product = dairy
    driver = signed_in(shop, role="manager", width=SIZES[size][0], height=SIZES[size][1])
    # Reached from the navigation: the sidebar on wider screens, the More screen on a phone.
    if size == "phone":
        driver.get(shop.url("/app/more"))
    link = wait_for(driver, ('ul[aria-label="More screens"] ' if size == "phone" else ".sidebar ") + 'a[href="/app/reorder"]')
    assert seen(driver, link)
    link.click()
    wait_path(driver, "/app/reorder")
    card = wait_for(driver, f"#reorder-group-{supplier['id']}")
    wait_idle(driver)
    answer = shop.api("GET", "/api/v1/reorder?window=28&cover=14")
    group = group_of(answer, supplier)
    row = group["lines"][0]
    assert (row["quantity"], row["packs"], row["need"], row["cost"]) == ("24", 4, "28.536", "28.80")
    assert supplier["name"] in card.find_element(By.TAG_NAME, "h2").text
    assert "3 days" in card.find_element(By.TAG_NAME, "h2").text
    buy = card.find_element(By.CSS_SELECTOR, ".reorder-quantity")
    assert seen(driver, buy) and buy.text == f"{row['quantity']} l"
    total = card.find_element(By.CSS_SELECTOR, ".reorder-total")
    assert seen(driver, total) and total.text == euro(group["cost"])
    assert product["name"] in card.text and "OAT-6" in card.text
    draft = card.find_element(By.CSS_SELECTOR, ".draft-purchase")
    assert seen(driver, draft) and "Draft purchase" in draft.text
    assert seen(driver, driver.find_element(By.ID, "reorder-cover"))
    assert "28 days" in text_of(driver, "#reorder-window-label") and "14 days of cover" in text_of(driver, "#reorder-window-label")
    assert no_horizontal_scroll(driver)
    screenshot(driver, f"reorder-{size}")


def test_a_bad_window_is_refused_on_its_field_and_other_terms_are_the_servers(shop, signed_in, dairy):
    supplier, _ = dairy
    driver = signed_in(shop, role="manager", width=375, height=812)
    driver.get(shop.url("/app/reorder"))
    wait_for(driver, f"#reorder-group-{supplier['id']}")
    wait_idle(driver)
    window = driver.find_element(By.ID, "reorder-window")
    window.clear()
    window.send_keys("400")   # a whole number the server refuses: its reason lands on the field
    press(driver, "#reorder-show")
    wait(driver, lambda d: d.find_element(By.ID, "reorder-window").get_attribute("aria-invalid") == "true")
    error = driver.execute_script("return document.getElementById('reorder-window').closest('.field').querySelector('.field-error').textContent")
    assert "366" in error
    # Not a number at all, and an empty cover: the server's rule again (the page keeps no copy of it), on each field.
    for field, text in (("reorder-window", "two"), ("reorder-cover", "")):
        driver.find_element(By.ID, "reorder-window").clear()
        driver.find_element(By.ID, "reorder-window").send_keys("two" if field == "reorder-window" else "28")
        driver.find_element(By.ID, "reorder-cover").clear()
        driver.find_element(By.ID, "reorder-cover").send_keys(text if field == "reorder-cover" else "14")
        press(driver, "#reorder-show")
        wait(driver, lambda d: d.find_element(By.ID, field).get_attribute("aria-invalid") == "true")
        message = driver.execute_script(f"return document.getElementById('{field}').closest('.field').querySelector('.field-error').textContent")
        query = "window=two&cover=14" if field == "reorder-window" else "window=28&cover="
        assert message == server_refusal(shop, f"/api/v1/reorder?{query}", field.removeprefix("reorder-")), message
    assert driver.find_elements(By.CSS_SELECTOR, f"#reorder-group-{supplier['id']}"), "a refusal leaves the suggestions shown"
    # 60 days with no cover: 52 × 3 ÷ 60 = 2.6, under the threshold, and 9.5 are in stock: nothing from the dairy.
    window = driver.find_element(By.ID, "reorder-window")
    window.clear()
    window.send_keys("60")
    cover = driver.find_element(By.ID, "reorder-cover")
    cover.clear()
    cover.send_keys("0")
    press(driver, "#reorder-show")
    wait(driver, lambda d: "60 days" in (text_of(d, "#reorder-window-label") or ""))
    answer = shop.api("GET", "/api/v1/reorder?window=60&cover=0")
    assert not any(g.get("supplierId") == supplier["id"] for g in answer["groups"])
    assert not driver.find_elements(By.CSS_SELECTOR, f"#reorder-group-{supplier['id']}")


@pytest.mark.parametrize("size", SIZES)
def test_the_product_form_keeps_the_supplier_its_code_and_pack_size(shop, signed_in, dairy, size):
    supplier, _ = dairy
    item = shop.api("POST", "/api/v1/products", {"name": unique("Butter"), "salePrice": "3.00"})
    driver = signed_in(shop, role="manager", width=SIZES[size][0], height=SIZES[size][1])
    driver.get(shop.url(f"/app/products/{item['id']}/edit"))
    select = wait_for(driver, "#pf-supplier")
    wait_idle(driver)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#pf-supplier option[value="{supplier["id"]}"]'))
    assert seen(driver, select) and seen(driver, driver.find_element(By.ID, "pf-pack"))
    driver.execute_script("arguments[0].value = arguments[1]", select, str(supplier["id"]))
    code = driver.find_element(By.ID, "pf-supplier-code")
    code.send_keys("BUT-250")
    pack = driver.find_element(By.ID, "pf-pack")
    pack.clear()
    pack.send_keys("0")
    press(driver, "#pf-save")
    # The server refuses a pack of 0 on its field, and nothing changes.
    wait(driver, lambda d: d.find_element(By.ID, "pf-pack").get_attribute("aria-invalid") == "true")
    assert shop.api("GET", f"/api/v1/products/{item['id']}")["packSize"] == "1"
    pack = driver.find_element(By.ID, "pf-pack")
    pack.clear()
    pack.send_keys("12")
    press(driver, "#pf-save")
    wait(driver, lambda d: shop.api("GET", f"/api/v1/products/{item['id']}")["packSize"] == "12")
    saved = shop.api("GET", f"/api/v1/products/{item['id']}")
    assert saved["preferredSupplierId"] == supplier["id"] and saved["supplierCode"] == "BUT-250"


@pytest.mark.parametrize("size", SIZES)
def test_draft_purchase_fills_a_purchase_that_books_nothing_until_saved(shop, signed_in, dairy, size):
    supplier, product = dairy
    driver = signed_in(shop, role="manager", width=SIZES[size][0], height=SIZES[size][1])
    driver.get(shop.url("/app/reorder?window=28&cover=14"))
    card = wait_for(driver, f"#reorder-group-{supplier['id']}")
    wait_idle(driver)
    group = group_of(shop.api("GET", "/api/v1/reorder?window=28&cover=14"), supplier)
    purchases_before = shop.api("GET", "/api/v1/purchases?limit=500")
    press(driver, f"#reorder-group-{supplier['id']} .draft-purchase")
    wait_path(driver, "/app/purchases/new")
    wait(driver, lambda d: d.find_element(By.ID, "contact-name").text == supplier["name"])
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#doc-lines .doc-line")) == len(group["lines"]))
    wait_idle(driver)
    quantity, cost = line(driver, 0, "quantity"), line(driver, 0, "unitCost")
    assert quantity.get_attribute("value") == group["lines"][0]["quantity"]
    assert cost.get_attribute("value") == group["lines"][0]["averageCost"]
    assert seen(driver, quantity) and seen(driver, driver.find_element(By.ID, "doc-save"))
    assert shop.api("GET", "/api/v1/purchases?limit=500") == purchases_before   # a draft books nothing
    screenshot(driver, f"reorder-draft-{size}")
    if size != "desktop":
        return
    # Saved, it is an ordinary purchase: the suggestion is then covered.
    stock_before = shop.api("GET", f"/api/v1/products/{product['id']}")["quantity"]
    press(driver, "#doc-save")
    wait(driver, lambda d: len(shop.api("GET", "/api/v1/purchases?limit=500")) == len(purchases_before) + 1)
    after = shop.api("GET", f"/api/v1/products/{product['id']}")
    assert after["quantity"] == "33.5" and stock_before == "9.5"
    assert not any(g.get("supplierId") == supplier["id"] for g in shop.api("GET", "/api/v1/reorder?window=28&cover=14")["groups"])
