"""Prices as the customer sees them (issue 12, point 1): asked at setup, a shop whose prices include tax shows on the
tile what the customer pays, charges exactly that, and prints and reports the tax taken out of it per rate (net, tax,
gross) — every figure the server's."""
import json

from selenium.webdriver.common.by import By

from conftest import ADMIN, fully_visible, path_of, screenshot, sign_in, wait, wait_for, wait_idle, wait_path
from test_till import stocked, tile


def api_token(shop):
    """Signs in over the API as the admin made at setup and keeps a token for shop.api."""
    status, headers, content = shop.call("POST", "/api/v1/auth/login", {"username": ADMIN[0], "password": ADMIN[1]}, raw=True)
    assert status == 200, content
    cookie = headers["Set-Cookie"].split(";")[0]
    csrf = json.loads(content)["csrfToken"]
    shop.token = shop.call("POST", "/api/v1/tokens", {"name": "browser-tests"}, {"Cookie": cookie, "X-CSRF-Token": csrf})["token"]


def test_prices_that_include_tax_are_what_the_customer_pays(fresh_shop, browser):
    driver = browser(width=1024, height=768)
    driver.get(fresh_shop.url("/"))
    wait_path(driver, "/setup")
    wait_for(driver, "#username").send_keys(ADMIN[0])
    driver.find_element(By.ID, "password").send_keys(ADMIN[1])
    driver.find_element(By.ID, "pin").send_keys(ADMIN[2])
    driver.find_element(By.ID, "pinAgain").send_keys(ADMIN[2])
    driver.find_element(By.ID, "prices-include-tax").click()   # asked at setup
    driver.find_element(By.CSS_SELECTOR, "#setup-form button[type=submit]").click()
    wait_path(driver, "/app/home")
    api_token(fresh_shop)
    assert fresh_shop.api("GET", "/api/v1/settings")["pricesIncludeTax"] is True

    latte = stocked(fresh_shop, "Latte", "3.10", "7", "20", emoji="☕")
    cake = stocked(fresh_shop, "Carrot cake", "4.50", "19", "10", emoji="🍰")
    driver.get(fresh_shop.url("/app/pos"))
    wait_idle(driver)
    assert "3.10" in tile(driver, latte["id"]).text, "the tile shows the price the customer pays"
    tile(driver, latte["id"]).click()
    wait(driver, lambda d: "3.10" in d.find_element(By.ID, "total-total").text)
    # The customer pays the tile's price: the total and Charge say 3.10, with the tax inside it.
    assert "3.10" in driver.find_element(By.ID, "charge").text
    assert driver.find_element(By.ID, "total-tax-label").text == "Tax included"
    assert "0.20" in driver.find_element(By.ID, "total-tax").text      # 3.10 × 7 ÷ 107
    assert "2.90" in driver.find_element(By.ID, "total-subtotal").text
    tile(driver, cake["id"]).click()
    wait(driver, lambda d: "7.60" in d.find_element(By.ID, "total-total").text)
    line_totals = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#cart-lines .till-line-total")]
    assert any("3.10" in text for text in line_totals) and any("4.50" in text for text in line_totals), line_totals
    for name in ("total-total", "charge"):
        assert fully_visible(driver, driver.find_element(By.ID, name))
    wait(driver, lambda d: d.find_element(By.ID, "charge").is_enabled())
    driver.find_element(By.ID, "charge").click()

    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    sale = fresh_shop.api("GET", f"/api/v1/sales/{int(path_of(driver).rsplit('/', 1)[1])}")
    assert sale["pricesIncludeTax"] is True and sale["total"] == "7.60"
    total = wait_for(driver, "#receipt-total")
    assert "7.60" in total.text and fully_visible(driver, total)
    # Tax per rate under the total: net, tax and gross as the server booked them.
    rows = driver.find_elements(By.CSS_SELECTOR, "#receipt-taxes tbody tr")
    assert len(rows) == len(sale["taxes"]) == 2
    for row, share in zip(rows, sale["taxes"]):
        cells = [cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")]
        assert cells[0].startswith(share["taxRate"])
        assert share["revenue"] in cells[1] and share["tax"] in cells[2] and share["gross"] in cells[3], (cells, share)
    assert [share["gross"] for share in sale["taxes"]] == ["3.10", "4.50"]
    screenshot(driver, "tax-inclusive-receipt")

    # The reports show the same per rate.
    driver.get(fresh_shop.url("/app/reports"))
    wait_idle(driver)
    report = fresh_shop.api("GET", "/api/v1/reports/taxes")
    table = wait_for(driver, "#tax-table")
    shown = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")] for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert len(shown) == len(report) == 2
    for cells, rate in zip(shown, report):
        assert rate["taxRate"] in cells[0] and rate["net"] in cells[1] and rate["tax"] in cells[2] and rate["gross"] in cells[3], (cells, rate)


def test_switching_after_the_first_sale_offers_repricing(fresh_shop, browser):
    fresh_shop.create_admin()
    water = stocked(fresh_shop, "Water", "1.50", "10", "5")
    fresh_shop.api("POST", "/api/v1/sales", {"lines": [{"productId": water["id"], "quantity": "1"}]})
    driver = browser(width=1280, height=900)
    sign_in(driver, fresh_shop, ADMIN[0], ADMIN[1])
    driver.get(fresh_shop.url("/app/settings"))
    wait_idle(driver)
    box = wait_for(driver, "#pricesIncludeTax", visible=False)
    wait(driver, lambda d: d.find_element(By.ID, "shopName").get_attribute("value"))
    driver.execute_script("arguments[0].click()", box)
    driver.find_element(By.ID, "settings-save").click()
    error = wait_for(driver, "#pricesIncludeTax-error")
    assert "re-pric" in error.text
    assert fresh_shop.api("GET", "/api/v1/settings")["pricesIncludeTax"] is False, "a refused save changes nothing"
    reprice = wait_for(driver, "#settings-reprice")
    reprice.click()
    wait_for(driver, "dialog[open] [data-confirm]").click()
    wait(driver, lambda d: fresh_shop.api("GET", "/api/v1/settings")["pricesIncludeTax"] is True)
    assert fresh_shop.api("GET", f"/api/v1/products/{water['id']}")["salePrice"] == "1.65", "1.50 + 10 %: the customer pays the same"
