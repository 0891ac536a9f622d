"""Open tabs (issue 12, point 9): park a sale under a table, serve another customer, pick the tab up on another till
and charge it; a parked sale books nothing, and a tab is picked up once."""
from selenium.webdriver.common.by import By

from conftest import path_of, unique, wait, wait_for, wait_idle
from test_till import stocked, tile


def test_park_serve_another_pick_up_on_another_till_and_charge(shop, signed_in):
    latte = stocked(shop, unique("Latte"), "3.10", "7", "20", emoji="☕")
    water = stocked(shop, unique("Water"), "1.50", "7", "20", emoji="💧")
    sales_before = len(shop.api("GET", "/api/v1/sales?limit=500"))
    till = signed_in(shop, "staff", width=1024, height=768)
    till.get(shop.url("/app/pos"))
    wait_idle(till)
    tile(till, latte["id"]).click()
    tile(till, latte["id"]).click()
    wait(till, lambda d: "6.6" in d.find_element(By.ID, "total-total").text)   # 6.20 + 7 % = 6.63
    label = unique("Table")
    till.find_element(By.ID, "cart-park").click()
    name = wait_for(till, "#park-label")
    name.send_keys(label)
    till.find_element(By.ID, "park-submit").click()
    wait(till, lambda d: d.find_elements(By.CSS_SELECTOR, "#cart-lines [data-line]") == [])
    tabs = [tab for tab in shop.api("GET", "/api/v1/tabs") if tab["label"] == label]
    assert len(tabs) == 1 and tabs[0]["lines"][0]["quantity"] == "2"
    assert len(shop.api("GET", "/api/v1/sales?limit=500")) == sales_before, "a parked sale books nothing"
    assert shop.api("GET", f"/api/v1/products/{latte['id']}")["quantity"] == "20"

    # Another customer is served meanwhile.
    tile(till, water["id"]).click()
    wait(till, lambda d: "1.61" in d.find_element(By.ID, "total-total").text)
    wait(till, lambda d: d.find_element(By.ID, "charge").is_enabled())
    till.find_element(By.ID, "charge").click()
    wait(till, lambda d: path_of(d).startswith("/app/receipt/"))

    # A second till picks the tab up and charges it.
    other = signed_in(shop, "admin", width=1280, height=900)
    other.get(shop.url("/app/pos"))
    wait_idle(other)
    other.find_element(By.ID, "tabs-open").click()
    button = wait_for(other, f"#tabs-list [data-tab='{tabs[0]['id']}']")
    assert label in button.text
    button.click()
    wait(other, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cart-lines [data-line]")) == 1)
    wait(other, lambda d: "6.63" in d.find_element(By.ID, "total-total").text)
    assert not [tab for tab in shop.api("GET", "/api/v1/tabs") if tab["label"] == label], "picked up: off the list"
    wait(other, lambda d: d.find_element(By.ID, "charge").is_enabled())
    other.find_element(By.ID, "charge").click()
    wait(other, lambda d: path_of(d).startswith("/app/receipt/"))
    sale = shop.api("GET", f"/api/v1/sales/{int(path_of(other).rsplit('/', 1)[1])}")
    assert sale["total"] == "6.63" and sale["lines"][0]["quantity"] == "2"
    assert len(shop.api("GET", "/api/v1/sales?limit=500")) == sales_before + 2

    # The first till's list no longer offers it.
    till.get(shop.url("/app/pos"))
    wait_idle(till)
    till.find_element(By.ID, "tabs-open").click()
    wait(till, lambda d: "Loading" not in d.find_element(By.ID, "tabs-list").text)
    assert not till.find_elements(By.CSS_SELECTOR, f"#tabs-list [data-tab='{tabs[0]['id']}']")
