"""The customer at the till (issue 12, point 7): a loyalty card scanned into the till finds the customer, whose visits,
spend and next milestone show as the server keeps them; a search by phone finds them too; the sale is theirs and its
receipt says which visit it is and the milestone it reached."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import fully_visible, path_of, unique, wait, wait_for, wait_idle
from test_till import tile


def test_a_loyalty_card_at_the_till_and_on_the_receipt(shop, signed_in):
    shop.ensure_user("staff")
    tea = shop.api("POST", "/api/v1/products", {"name": unique("Tea"), "salePrice": "2.50", "taxRate": "0", "tracksStock": False})
    ana = shop.api("POST", "/api/v1/customers", {"name": unique("Ana"), "phone": "+49 170 555 0101"})
    shop.api("PUT", f"/api/v1/customers/{ana['id']}/card", {"cardNumber": "LC-8001"})
    for _ in range(4):
        shop.api("POST", "/api/v1/sales", {"customerId": ana["id"], "lines": [{"productId": tea["id"], "quantity": "1"}], "paymentMethod": "card"})
    standing = shop.api("GET", f"/api/v1/customers/{ana['id']}/standing")
    assert standing["visits"] == 4 and standing["nextMilestone"] == 5

    driver = signed_in(shop, "staff", width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    # The card scanned (typed) into the till: the customer, not a product.
    scan = driver.find_element(By.ID, "scan-code")
    scan.send_keys("LC-8001", Keys.ENTER)
    wait(driver, lambda d: ana["name"] in d.find_element(By.ID, "cart-customer").text)
    shown = driver.find_element(By.ID, "cart-customer-standing").text
    assert "4 visits" in shown and standing["spend"] in shown.replace(",", "") and "1 to visit 5" in shown
    assert fully_visible(driver, driver.find_element(By.ID, "cart-customer"))
    # Removed, then found again by phone.
    driver.find_element(By.ID, "customer-open").click()
    wait_for(driver, "#customer-clear").click()
    wait(driver, lambda d: d.find_element(By.ID, "cart-customer").text == "")
    driver.find_element(By.ID, "customer-open").click()
    wait_for(driver, "#customer-dialog")
    driver.find_element(By.ID, "customer-search").send_keys("555 0101")
    wait_for(driver, f"#customer-results [data-customer='{ana['id']}']").click()
    wait(driver, lambda d: ana["name"] in d.find_element(By.ID, "cart-customer").text)

    tile(driver, tea["id"]).click()
    charge = driver.find_element(By.ID, "charge")
    wait(driver, lambda d: charge.is_enabled() and "2.50" in d.find_element(By.ID, "total-total").text)
    assert fully_visible(driver, charge), "Charge stays in view with a customer on the sale"
    driver.find_element(By.CSS_SELECTOR, "input[name=paymentMethod][value=card]").find_element(By.XPATH, "..").click()
    wait(driver, lambda d: charge.is_enabled())
    charge.click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    sale = shop.api("GET", f"/api/v1/sales/{int(path_of(driver).rsplit('/', 1)[1])}")
    assert sale["customerId"] == ana["id"] and sale["customerVisit"] == 5 and sale["customerMilestone"] == 5
    line = wait_for(driver, "#receipt-customer")
    assert "visit 5" in line.text and "5th visit" in driver.find_element(By.ID, "receipt-milestone").text
    after = shop.api("GET", f"/api/v1/customers/{ana['id']}/standing")
    wait(driver, lambda d: after["spend"] in d.find_element(By.ID, "receipt-standing").text.replace(",", ""))
