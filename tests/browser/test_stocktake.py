"""Stocktake (issue 14, point 1): a manager starts a count sheet for a category (or a shelf, set on the product form), scans (each scan adds one) and types
counts, sees each variance and its value as the server computed them, and posts the sheet as one adjustment while the
till keeps selling; staff count but neither see costs nor post; an expired lot is written off from the home screen's
expiring list in one tap (with a confirmation)."""
import json
import re
import urllib.parse
from decimal import Decimal

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ApiError, fully_visible, gtin_check_digit, no_horizontal_scroll, unique, wait, wait_for, wait_idle
from test_documents import press, type_into

SIZES = [(375, 812), (1024, 768), (1440, 900)]


def amount_in(text):
    """The last amount in a text ("−2 · −€8.00" → -8.00)."""
    match = re.search(r"([−-])?[^\d−-]*([\d,]+\.\d+)\D*$", text)
    value = Decimal(match.group(2).replace(",", ""))
    return -value if match.group(1) else value


def visible(driver, css):
    element = wait_for(driver, css)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    return fully_visible(driver, element)


def a_barcode():
    body = "40" + unique("")[-10:].rjust(10, "0")
    body = re.sub(r"\D", "7", body)[:12]
    return body + gtin_check_digit(body)


@pytest.mark.parametrize("width,height", SIZES, ids=["phone", "tablet", "desktop"])
def test_count_a_category_and_post_it_while_the_till_sells(shop, signed_in, width, height):
    shop.ensure_user("manager")
    category = shop.api("POST", "/api/v1/categories", {"name": unique("Shelf"), "color": "#2563EB"})
    code = a_barcode()
    beans = shop.api("POST", "/api/v1/products", {"name": unique("Beans"), "barcode": code, "salePrice": "9.00", "categoryId": category["id"]})
    milk = shop.api("POST", "/api/v1/products", {"name": unique("Milk"), "salePrice": "1.50", "categoryId": category["id"]})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": beans["id"], "quantity": "5", "unitCost": "4.00"}]})

    driver = signed_in(shop, "manager", width=width, height=height)
    driver.get(shop.url("/app/more" if width < 700 else "/app/home"))
    wait_idle(driver)
    # Reached from the navigation: the phone's More screen, the sidebar on larger screens.
    link = wait_for(driver, "ul[aria-label='More screens'] a[href='/app/stocktake']" if width < 700 else "nav.sidebar a[href='/app/stocktake']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    wait_for(driver, "#stocktake-new")
    driver.find_element(By.CSS_SELECTOR, f"#stocktake-scope option[value='category:{category['id']}']").click()
    press(driver, "#stocktake-start")
    wait(driver, lambda d: re.search(r"/app/stocktake/\d+$", d.current_url))
    sheet_id = int(driver.current_url.rsplit("/", 1)[1])
    wait_for(driver, f"[data-product='{beans['id']}']")
    assert no_horizontal_scroll(driver)

    # Two scans by barcode: each adds one.
    for expected in ("1", "2"):
        search = type_into(driver, "#sheet-search", code)
        search.send_keys(Keys.ENTER)
        wait(driver, lambda d: next(line for line in shop.api("GET", f"/api/v1/stocktakes/{sheet_id}")["lines"]
                                    if line["productId"] == beans["id"]).get("counted") == expected)
    # A typed figure replaces the count; a negative one is refused on the line, and nothing changes.
    field = type_into(driver, f"input[name='count-{beans['id']}']", "3")
    field.send_keys(Keys.TAB)
    wait(driver, lambda d: shop.api("GET", f"/api/v1/stocktakes/{sheet_id}")["lines"][0].get("counted") == "3")
    before = shop.api("GET", f"/api/v1/stocktakes/{sheet_id}")
    field = type_into(driver, f"input[name='count-{milk['id']}']", "-1")
    field.send_keys(Keys.TAB)
    wait(driver, lambda d: "negative" in d.find_element(By.ID, f"count-error-{milk['id']}").text)
    assert shop.api("GET", f"/api/v1/stocktakes/{sheet_id}") == before

    # The variance and its value, as the server computed them, in view.
    line = next(line for line in before["lines"] if line["productId"] == beans["id"])
    assert line["variance"] == "-2" and line["varianceValue"] == "-8.00"
    variance_css = f"[data-variance='{beans['id']}']"
    wait(driver, lambda d: "-2" in d.find_element(By.CSS_SELECTOR, variance_css).text)
    assert amount_in(driver.find_element(By.CSS_SELECTOR, variance_css).text) == Decimal(line["varianceValue"])
    assert visible(driver, variance_css)
    total = driver.find_element(By.CSS_SELECTOR, "[data-total='Variance value']")
    assert amount_in(total.text) == Decimal(before["totals"]["varianceValue"])

    # The till sells one after the count; posting applies the count at its instant, so the sale still counts.
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": beans["id"], "quantity": "1"}]})
    assert visible(driver, "#sheet-post")
    press(driver, "#sheet-post")
    press(driver, "dialog [data-confirm]")
    wait(driver, lambda d: d.find_element(By.ID, "sheet-status").text.startswith("Posted"))
    posted = shop.api("GET", f"/api/v1/stocktakes/{sheet_id}")
    assert posted["status"] == "posted" and posted["totals"]["uncounted"] == 1
    assert Decimal(shop.api("GET", f"/api/v1/products/{beans['id']}")["quantity"]) == Decimal("2")
    assert Decimal(shop.api("GET", f"/api/v1/products/{milk['id']}")["quantity"]) == 0
    assert f"adjustment {posted['adjustmentId']}" in driver.find_element(By.ID, "sheet-status").text
    assert not driver.find_element(By.ID, "sheet-actions").is_displayed()
    # The posted sheet stays as the count's report.
    driver.refresh()
    wait(driver, lambda d: d.find_element(By.ID, "sheet-status").text.startswith("Posted"))
    assert amount_in(wait_for(driver, "[data-total='Variance value']").text) == Decimal(posted["totals"]["varianceValue"])


@pytest.mark.parametrize("width,height", SIZES, ids=["phone", "tablet", "desktop"])
def test_a_shelf_is_set_on_the_product_form_and_counted_on_its_own(shop, signed_in, width, height):
    shop.ensure_user("manager")
    shelf = unique("Aisle").replace(" ", "-")
    cola = shop.api("POST", "/api/v1/products", {"name": unique("Shelf cola"), "salePrice": "1.50", "shelf": shelf})
    water = shop.api("POST", "/api/v1/products", {"name": unique("Shelf water"), "salePrice": "1.00"})
    elsewhere = shop.api("POST", "/api/v1/products", {"name": unique("Shelf juice"), "salePrice": "2.00", "shelf": shelf + "X"})
    driver = signed_in(shop, "manager", width=width, height=height)

    # The form offers the shelves in use; typing the shelf (in another case) puts the water on it.
    driver.get(shop.url(f"/app/products/{water['id']}/edit"))
    field = wait_for(driver, "#pf-shelf")
    wait(driver, lambda d: shelf in [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#pf-shelves option")])
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    assert fully_visible(driver, field)
    field.send_keys(f"  {shelf.lower()} ")
    driver.find_element(By.ID, "pf-save").click()
    wait(driver, lambda d: urllib.parse.urlsplit(d.current_url).path == f"/app/products/{water['id']}")
    wait_idle(driver)
    assert shop.api("GET", f"/api/v1/products/{water['id']}")["shelf"] == shelf.lower()
    wait(driver, lambda d: f"Shelf {shelf.lower()}" in d.find_element(By.ID, "pd-meta").text)

    # A count of that shelf holds its two products, and not the one on the next shelf.
    driver.get(shop.url("/app/stocktake"))
    option = wait_for(driver, f"#stocktake-scope option[value='shelf:{shelf}']")
    assert "2 products" in option.text
    option.click()
    press(driver, "#stocktake-start")
    wait(driver, lambda d: re.search(r"/app/stocktake/\d+$", d.current_url))
    sheet = shop.api("GET", f"/api/v1/stocktakes/{int(driver.current_url.rsplit('/', 1)[1])}")
    assert sheet["scope"] == "shelf" and sorted(line["productId"] for line in sheet["lines"]) == sorted([cola["id"], water["id"]])
    wait(driver, lambda d: d.find_element(By.ID, "sheet-title").text.endswith(f"Shelf {shelf}"))
    for product in (cola, water):
        assert visible(driver, f"[data-product='{product['id']}']")
    assert not driver.find_elements(By.CSS_SELECTOR, f"[data-product='{elsewhere['id']}']")
    assert no_horizontal_scroll(driver)
    shop.api("POST", f"/api/v1/stocktakes/{sheet['id']}/cancel")


def test_staff_count_without_costs_and_cannot_post(shop, signed_in):
    shop.ensure_user("staff")
    beans = shop.api("POST", "/api/v1/products", {"name": unique("Staff beans"), "salePrice": "9.00"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": beans["id"], "quantity": "4", "unitCost": "2.00"}]})
    sheet = shop.api("POST", "/api/v1/stocktakes", {"scope": "all"})
    driver = signed_in(shop, "staff", width=375, height=812)
    driver.get(shop.url("/app/stocktake"))
    wait_for(driver, f"#stocktake-list a[href='/app/stocktake/{sheet['id']}']")
    assert not driver.find_elements(By.ID, "stocktake-new"), "starting a count is for managers"
    driver.get(shop.url(f"/app/stocktake/{sheet['id']}"))
    field = type_into(driver, f"input[name='count-{beans['id']}']", "5")
    field.send_keys(Keys.TAB)
    variance_css = f"[data-variance='{beans['id']}']"
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, variance_css) and "+1" in d.find_element(By.CSS_SELECTOR, variance_css).text)
    assert "€" not in driver.find_element(By.CSS_SELECTOR, variance_css).text, "staff see no costs"
    assert not driver.find_element(By.ID, "sheet-actions").is_displayed()
    assert not driver.find_elements(By.CSS_SELECTOR, "[data-total='Variance value']")
    shop.api("POST", f"/api/v1/stocktakes/{sheet['id']}/cancel")


@pytest.mark.parametrize("width,height", SIZES, ids=["phone", "tablet", "desktop"])
def test_an_expired_lot_is_written_off_from_the_expiring_list(shop, signed_in, width, height):
    shop.ensure_user("manager")
    yoghurt = shop.api("POST", "/api/v1/products", {"name": unique("Yoghurt"), "salePrice": "1.20"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": yoghurt["id"], "quantity": "6", "unitCost": "0.40",
                                                       "lotCode": "L7", "expiryDate": "2026-01-10"}]})
    driver = signed_in(shop, "manager", width=width, height=height)
    driver.get(shop.url("/app/home"))
    wait_idle(driver)
    button_css = f"#expiring-list [data-write-off='{yoghurt['id']}']"
    assert visible(driver, button_css)
    press(driver, button_css)
    press(driver, "dialog [data-confirm]")
    wait(driver, lambda d: Decimal(shop.api("GET", f"/api/v1/products/{yoghurt['id']}")["quantity"]) == 0)
    wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, button_css))
    movements = shop.api("GET", f"/api/v1/products/{yoghurt['id']}/movements")
    assert movements[-1]["reason"] == "expired" and Decimal(movements[-1]["quantity"]) == Decimal("-6")


def server_refusal(shop, path, field):
    """The reason the API gives for refusing `path`, which must name `field`."""
    try:
        shop.api("GET", path)
    except ApiError as error:
        problem = json.loads(error.body)
        assert problem["field"] == field, problem
        return problem["detail"]
    raise AssertionError(f"{path} was not refused")


def test_the_expiring_report_refuses_days_by_the_servers_rule(shop, signed_in):
    """The days a report may look ahead are the server's rule (0 to 3650): the page keeps no copy of it, and the
    server's reason lands on the field, with the report unchanged."""
    shop.ensure_user("manager")
    driver = signed_in(shop, "manager", width=1024, height=768)
    driver.get(shop.url("/app/reports"))
    wait_idle(driver)
    days = wait_for(driver, "#expiring-days")
    for text in ("5000", "soon"):
        days.clear()
        days.send_keys(text)
        driver.execute_script("document.getElementById('expiring-form').requestSubmit()")
        wait(driver, lambda d: d.find_element(By.ID, "expiring-days").get_attribute("aria-invalid") == "true")
        message = driver.execute_script("return document.getElementById('expiring-days').closest('.field').querySelector('.field-error').textContent")
        assert message == server_refusal(shop, f"/api/v1/reports/expiring?days={text}", "days"), message
        days = driver.find_element(By.ID, "expiring-days")
    days.clear()
    days.send_keys("30")
    driver.execute_script("document.getElementById('expiring-form').requestSubmit()")
    wait(driver, lambda d: "within 30 days" in d.find_element(By.ID, "expiring-result").text)
    assert driver.find_element(By.ID, "expiring-days").get_attribute("aria-invalid") != "true"
