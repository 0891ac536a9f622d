"""Cash-up (issue 12, point 10): open the drawer with a float, sales and a refund, cash out with a reason, the X report
equal to the server's, close with a counted difference; the Z report's figures equal an independent sum over the API's
sales and returns, to the cent, and it is kept for managers with a CSV export."""
import re
from decimal import Decimal

from selenium.webdriver.common.by import By

from conftest import fully_visible, unique, wait, wait_for, wait_idle
from test_documents import press, type_into


def text_of(driver, element_id):
    """The visible text of an element, read in one step (the report is re-rendered as figures arrive)."""
    return driver.execute_script("return document.getElementById(arguments[0])?.innerText ?? ''", element_id).replace("\u00a0", " ")


def amount_in(text):
    """The amount at the end of a report row ("Expected in the drawer €121.68" → 121.68, "Short −€0.50" → -0.50)."""
    match = re.search(r"([−-])?[^\d−-]*([\d,]+(?:\.\d+)?)\D*$", text)
    value = Decimal(match.group(2).replace(",", ""))
    return -value if match.group(1) else value


def test_a_session_from_float_to_z_report(shop, signed_in):
    shop.ensure_user("staff")
    shop.ensure_user("manager")
    tea = shop.api("POST", "/api/v1/products", {"name": unique("Tea"), "salePrice": "2.50", "taxRate": "7", "tracksStock": False})
    cake = shop.api("POST", "/api/v1/products", {"name": unique("Cake"), "salePrice": "4.00", "taxRate": "19", "tracksStock": False})
    driver = signed_in(shop, "staff", width=375, height=812)
    driver.get(shop.url("/app/drawer"))
    wait_idle(driver)
    wait_for(driver, "#drawer-open-form")
    type_into(driver, "#drawer-float", "-5")
    press(driver, "#drawer-open-submit")
    wait(driver, lambda d: d.find_element(By.ID, "drawer-float").get_attribute("aria-invalid") == "true")
    assert shop.api("GET", "/api/v1/drawer").get("session") is None, "a refused float opens nothing"
    type_into(driver, "#drawer-float", "100.00")
    press(driver, "#drawer-open-submit")
    wait_for(driver, "#drawer-cash-form")
    wait(driver, lambda d: "X report" in text_of(d, "drawer-report-kind"))

    # The day's sales and a refund, through the API (the till's own path is tested elsewhere).
    sales = [
        shop.api("POST", "/api/v1/sales", {"lines": [{"productId": tea["id"], "quantity": "3"}], "tip": "0.50",
                                           "payments": [{"method": "cash", "amount": "5.00", "tendered": "10.00"}, {"method": "card", "amount": "3.53"}]}),
        shop.api("POST", "/api/v1/sales", {"lines": [{"productId": cake["id"], "quantity": "2", "discountPercent": "10"}], "paymentMethod": "cash"}),
        shop.api("POST", "/api/v1/sales", {"lines": [{"productId": tea["id"], "quantity": "1"}], "paymentMethod": "card"}),
    ]
    returned = shop.api("POST", "/api/v1/returns/customer", {"saleId": sales[1]["id"], "lines": [{"saleLineId": sales[1]["lines"][0]["id"], "quantity": "1"}]})
    assert returned["id"]

    # Cash out with a reason; too much is refused naming the amount.
    driver.refresh()
    wait_for(driver, "#drawer-cash-form")
    driver.find_element(By.CSS_SELECTOR, "#drawer-cash-form input[value=out]").find_element(By.XPATH, "..").click()
    type_into(driver, "#drawer-cash-amount", "5000")
    type_into(driver, "#drawer-cash-reason", "safe drop")
    press(driver, "#drawer-cash-submit")
    wait(driver, lambda d: d.find_element(By.ID, "drawer-cash-amount").get_attribute("aria-invalid") == "true")
    type_into(driver, "#drawer-cash-amount", "20.00")
    type_into(driver, "#drawer-cash-reason", "window cleaner")
    press(driver, "#drawer-cash-submit")
    wait(driver, lambda d: "window cleaner" in text_of(d, "drawer-report"))

    # The X report shows the server's figures.
    x = shop.api("GET", "/api/v1/drawer")["session"]["report"]
    assert x["kind"] == "X" and x["salesCount"] == 3 and x["refundsCount"] == 1
    assert amount_in(text_of(driver, "drawer-expected")) == Decimal(x["expectedCash"])
    assert amount_in(text_of(driver, "drawer-takings")) == Decimal(x["takings"])

    # An independent sum over the API's sales and the return: takings, per method, expected cash.
    booked = [shop.api("GET", f"/api/v1/sales/{sale['id']}") for sale in sales]
    takings = sum(Decimal(s["total"]) for s in booked)
    cash_taken = sum(Decimal(p["amount"]) for s in booked for p in s["payments"] if p["method"] == "cash")
    card_taken = sum(Decimal(p["amount"]) for s in booked for p in s["payments"] if p["method"] == "card")
    refunded = Decimal(booked[1]["refunded"])
    assert Decimal(x["takings"]) == takings
    assert Decimal(x["refunds"]) == refunded
    methods = {m["method"]: m for m in x["methods"]}
    assert Decimal(methods["cash"]["net"]) == cash_taken - refunded and Decimal(methods["card"]["net"]) == card_taken
    expected = Decimal("100.00") + cash_taken - refunded - Decimal("20.00")
    assert Decimal(x["expectedCash"]) == expected
    tax = sum(Decimal(s["tax"]) for s in booked)
    assert Decimal(x["tax"]) == tax

    # Close with 0.50 short: the Z report says so, as the server booked it, in view.
    type_into(driver, "#drawer-counted", str(expected - Decimal("0.50")))
    press(driver, "#drawer-close-submit")
    wait(driver, lambda d: "Z report" in text_of(d, "drawer-report-kind"))
    difference = driver.find_element(By.ID, "drawer-difference")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", difference)
    assert fully_visible(driver, difference)
    assert "Short" in difference.text and amount_in(difference.text) == Decimal("-0.50")
    z = shop.api("GET", "/api/v1/drawer/sessions?limit=1")[0]
    assert z["report"]["kind"] == "Z" and Decimal(z["report"]["difference"]) == Decimal("-0.50")
    assert Decimal(z["report"]["expectedCash"]) == expected
    assert not driver.find_elements(By.CSS_SELECTOR, "#drawer-csv:not([hidden])"), "the CSV is for managers"

    # A manager finds it among earlier sessions, with its CSV.
    office = signed_in(shop, "manager", width=1440, height=900)
    office.get(shop.url("/app/drawer"))
    link = wait_for(office, f"#drawer-sessions a[href='/app/drawer?session={z['id']}']")
    link.click()
    wait(office, lambda d: "Z report" in text_of(d, "drawer-report-kind"))
    csv = wait_for(office, "#drawer-csv")
    assert csv.get_attribute("href").endswith(f"/api/v1/drawer/sessions/{z['id']}/report.csv")
    status, _, content = shop.call("GET", f"/api/v1/drawer/sessions/{z['id']}/report.csv", headers={"Authorization": "Bearer " + shop.token}, raw=True)
    assert status == 200 and "cash,difference,,-0.50" in content.decode()


def test_clock_in_and_out_shows_the_shift_summary(shop, signed_in):
    shop.ensure_user("staff")
    driver = signed_in(shop, "staff", width=375, height=812)
    driver.get(shop.url("/app/more"))
    wait_idle(driver)
    press(driver, "#clock-in")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#shifts [data-shift]"))
    press(driver, "#clock-out")
    wait(driver, lambda d: "clocked in" not in d.find_element(By.ID, "shifts").text)
    shift = shop.api("GET", "/api/v1/shifts?days=7")[0]
    assert shift["username"] == "staff" and shift["salesCount"] == 0 and "endedAt" in shift
    shown = driver.find_element(By.CSS_SELECTOR, f"#shifts [data-shift='{shift['id']}']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", shown)
    assert fully_visible(driver, shown)
    assert "0 sales" in shown.text and "0.00" in shown.text
    assert "Clocked out: 0 h" in driver.find_element(By.ID, "toast").text
