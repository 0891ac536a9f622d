"""Sales and returns you can find (issue 14, point 6): a sale's detail lists the returns booked against it, and each
line says how much came back and how much is left to return — the server's figures, in view on every size."""
import pytest
from selenium.webdriver.common.by import By

from conftest import fully_visible, no_horizontal_scroll, unique, wait_for, wait_idle

SIZES = {"phone": (375, 812), "tablet": (768, 1024), "desktop": (1280, 900)}


@pytest.fixture(scope="module")
def returned(shop):
    name = unique("Mug")
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "8.00", "taxRate": "0"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "10", "unitCost": "3.00"}]})
    sale = shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "4"}]})
    line = sale["lines"][0]["id"]
    shop.api("POST", "/api/v1/returns/customer", {"saleId": sale["id"], "note": "chipped", "lines": [{"saleLineId": line, "quantity": "1"}]})
    shop.api("POST", "/api/v1/returns/customer", {"saleId": sale["id"], "lines": [{"saleLineId": line, "quantity": "2"}]})
    return name, shop.api("GET", f"/api/v1/sales/{sale['id']}")


@pytest.mark.parametrize("size", SIZES)
def test_a_sale_shows_its_returns_and_what_is_left(shop, returned, signed_in, size):
    name, sale = returned
    assert [r["refunded"] for r in sale["returns"]] == ["8.00", "16.00"]
    driver = signed_in(shop, role="manager", width=SIZES[size][0], height=SIZES[size][1])
    driver.get(shop.url(f"/app/sales/{sale['id']}"))
    wait_idle(driver)
    listed = wait_for(driver, "#doc-detail #doc-returns")
    items = listed.find_elements(By.TAG_NAME, "li")
    assert [item.text.split(" · ")[0] for item in items] == [f"Return #{r['id']}" for r in sale["returns"]]
    assert f"1 × {name}" in items[0].text and "chipped" in items[0].text and "8.00" in items[0].text
    assert f"2 × {name}" in items[1].text and "16.00" in items[1].text
    note = driver.find_element(By.CSS_SELECTOR, "#doc-detail .line-returned")
    line = sale["lines"][0]
    assert note.text == f"{line['returnedQuantity']} returned · {line['returnableQuantity']} left to return" == "3 returned · 1 left to return"
    for element in (note, listed):
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        assert fully_visible(driver, element), f"not in view at {size}"
    assert no_horizontal_scroll(driver)


def test_a_damaged_return_is_refunded_and_written_off(shop, signed_in):
    name = unique("Vase")
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "20.00", "taxRate": "0"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "5", "unitCost": "6.00"}]})
    sale = shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "2"}]})
    before = shop.api("GET", f"/api/v1/products/{product['id']}")
    driver = signed_in(shop, role="manager", width=375, height=812)
    driver.get(shop.url(f"/app/sales/{sale['id']}"))
    wait_idle(driver)
    button = wait_for(driver, "#doc-return")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    field = wait_for(driver, "#return-0")
    field.send_keys("1")
    damaged = driver.find_element(By.ID, "return-0-damaged")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", damaged)
    assert fully_visible(driver, damaged.find_element(By.XPATH, ".."))
    damaged.click()
    wait_for(driver, "#return-refund-total")
    driver.find_element(By.ID, "return-save").click()
    wait_for(driver, ".toast")
    assert "written off" in driver.find_element(By.CSS_SELECTOR, ".toast").text
    after = shop.api("GET", f"/api/v1/products/{product['id']}")
    assert (after["quantity"], after["stockValue"]) == (before["quantity"], before["stockValue"]) == ("3", "18.00")
    booked = shop.api("GET", f"/api/v1/sales/{sale['id']}")
    assert booked["refunded"] == "20.00" and booked["returns"][0]["lines"][0]["restocked"] is False
    driver.get(shop.url(f"/app/sales/{sale['id']}"))
    assert "(damaged, written off)" in wait_for(driver, "#doc-returns").text
    assert no_horizontal_scroll(driver)
