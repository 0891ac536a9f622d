"""Payments at the till (issue 12, point 4): a sale paid part cash, part card, with what is left to pay and the change as
the server works them out; the receipt's payment lines; a return that shows the cashier where the money goes back
(card first, then cash) before it is confirmed, and books exactly that."""
from selenium.webdriver.common.by import By

from conftest import fully_visible, path_of, unique, wait, wait_for, wait_idle
from test_documents import press, type_into
from test_till import tile


def split_row(driver, index, field):
    return driver.find_element(By.CSS_SELECTOR, f"#split-rows [data-split='{index}'] [data-field='{field}']")


def test_split_payment_then_a_refund_to_the_methods_it_came_from(shop, signed_in):
    shop.ensure_user("manager")
    tea = shop.api("POST", "/api/v1/products", {"name": unique("Tea"), "salePrice": "2.50", "taxRate": "0", "tracksStock": False})
    driver = signed_in(shop, "staff", width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    for _ in range(4):
        tile(driver, tea["id"]).click()
    wait(driver, lambda d: "10.00" in d.find_element(By.ID, "total-total").text)
    driver.find_element(By.CSS_SELECTOR, "input[name=paymentMethod][value=split]").find_element(By.XPATH, "..").click()
    wait_for(driver, "#split-box")
    split_row(driver, 0, "amount").send_keys("4.00")
    split_row(driver, 0, "tendered").send_keys("5.00")
    assert not split_row(driver, 1, "tendered").is_enabled()   # only cash has cash tendered
    # The server says what is left; Charge would be refused.
    wait(driver, lambda d: "6.00 is left to pay" in d.find_element(By.ID, "split-status").text)
    # "Rest" on the second row: the amount the server works out from the total and the first row.
    driver.find_element(By.CSS_SELECTOR, "#split-rows [data-rest='1']").click()
    wait(driver, lambda d: split_row(d, 1, "amount").get_attribute("value") == "6.00")
    wait(driver, lambda d: "Paid in full" in d.find_element(By.ID, "split-status").text)
    # With 12.00 on the first row nothing is left: the server says so and the second row keeps its amount.
    split_row(driver, 0, "amount").clear()
    split_row(driver, 0, "amount").send_keys("12.00")
    wait(driver, lambda d: "12.00" in d.find_element(By.ID, "split-status").text)   # the server's word on the 12.00
    driver.find_element(By.CSS_SELECTOR, "#split-rows [data-rest='1']").click()
    wait(driver, lambda d: "nothing is left to pay" in d.find_element(By.ID, "split-status").text.lower())
    assert split_row(driver, 1, "amount").get_attribute("value") == "6.00"
    split_row(driver, 0, "amount").clear()
    split_row(driver, 0, "amount").send_keys("4.00")
    wait(driver, lambda d: "Paid in full" in d.find_element(By.ID, "split-status").text)
    assert driver.find_element(By.ID, "change-due").text.endswith("1.00")
    charge = driver.find_element(By.ID, "charge")
    assert fully_visible(driver, charge), "Charge is in view on a landscape tablet with the split open"
    wait(driver, lambda d: charge.is_enabled())
    charge.click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    sale_id = int(path_of(driver).rsplit("/", 1)[1])
    sale = shop.api("GET", f"/api/v1/sales/{sale_id}")
    assert [(p["method"], p["amount"], p["status"]) for p in sale["payments"]] == [("cash", "4.00", "completed"), ("card", "6.00", "completed")]
    assert sale["change"] == "1.00" and sale["total"] == "10.00"
    lines = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#receipt [data-payment]"))
    assert len(lines) == 2 and "Cash" in lines[0].text and "4.00" in lines[0].text and "change" in lines[0].text
    assert "Card" in lines[1].text and "6.00" in lines[1].text

    # A manager takes three teas back: 7.50, the card's 6.00 first, then 1.50 cash — shown before confirming.
    driver = signed_in(shop, "manager", width=1440, height=900)
    driver.get(shop.url(f"/app/sales/{sale_id}"))
    wait_for(driver, "#doc-detail")
    listed = driver.find_element(By.ID, "doc-payments").text
    assert "Cash" in listed and "Card" in listed and "4.00" in listed and "6.00" in listed
    press(driver, "#doc-return")
    type_into(driver, "#return-form [name='lines[0].quantity']", "3")
    total = wait(driver, lambda d: d.find_elements(By.ID, "return-refund-total"))[0]
    assert "7.50" in total.text
    shown = driver.find_elements(By.CSS_SELECTOR, "#return-refunds [data-method]")
    preview = shop.api("POST", "/api/v1/returns/customer?dryRun=true", {"saleId": sale_id, "lines": [{"saleLineId": sale["lines"][0]["id"], "quantity": "3"}]})
    assert [li.get_attribute("data-method") for li in shown] == [r["method"] for r in preview["refunds"]] == ["card", "cash"]
    assert [r["amount"] for r in preview["refunds"]] == ["6.00", "1.50"]
    assert all(r["amount"] in li.text for r, li in zip(preview["refunds"], shown))
    press(driver, "#return-save")
    wait(driver, lambda d: not d.find_elements(By.ID, "return-form"))
    after = shop.api("GET", f"/api/v1/sales/{sale_id}")
    assert [p["status"] for p in after["payments"]] == ["partlyRefunded", "refunded"]
    assert [p["refunded"] for p in after["payments"]] == ["1.50", "6.00"]
