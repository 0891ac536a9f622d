"""A café's whole day at the till (issue 12, "How it is checked"): open the drawer with a float; 40 sales rung up as a
cashier would — taps, a USB scanner, the camera, a latte with options and a recipe, a split payment, a parked tab, a
discount refused for staff and accepted with a manager's PIN; two refunds; cash out; close with a counted difference.
The Z report's every figure equals an independent sum over the API's sales and returns, to the cent."""
from decimal import Decimal

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import PINS, ean13_y4m, fully_visible, path_of, unique, wait, wait_for, wait_idle
from test_documents import press, type_into
from test_drawer import amount_in, text_of
from test_split_payment import split_row
from test_till import new_code, tile


def till_ready(driver, shop):
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    wait_for(driver, "#product-grid [data-product]")


def pay_and_charge(driver, method="card", tendered=None):
    """Chooses the method, waits for the server's figures, charges; returns the booked sale's id."""
    driver.find_element(By.CSS_SELECTOR, f"input[name=paymentMethod][value={method}]").find_element(By.XPATH, "..").click()
    if tendered:
        field = driver.find_element(By.ID, "tendered")
        field.clear()
        field.send_keys(tendered)
    charge = driver.find_element(By.ID, "charge")
    wait(driver, lambda d: charge.is_enabled() and "Charge " in charge.text and "…" not in charge.text)
    charge.click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"), timeout=15)
    return int(path_of(driver).rsplit("/", 1)[1])


def choose_options(driver, ids):
    dialog = wait_for(driver, "#options-dialog")
    for option in ids:
        driver.find_element(By.CSS_SELECTOR, f"label[for='option-{option}']").click()
    driver.find_element(By.ID, "options-add").click()
    wait(driver, lambda d: not dialog.is_displayed())


def test_a_cafe_day_from_float_to_z_report(fresh_shop, signed_in, tmp_path):
    shop = fresh_shop
    shop.create_admin()
    shop.ensure_user("manager")
    api = shop.api
    # The café: beans and milk on the shelf; a latte made of them, with a size and a milk; croissants with a barcode
    # for the USB scanner, water with one for the camera, cake with a minimum price.
    beans = api("POST", "/api/v1/products", {"name": "Espresso beans", "unit": "kg", "salePrice": "28.00"})
    milk = api("POST", "/api/v1/products", {"name": "Milk", "unit": "l", "salePrice": "1.80"})
    croissant = api("POST", "/api/v1/products", {"name": "Croissant", "salePrice": "2.40", "taxRate": "7", "barcode": new_code()})
    water = api("POST", "/api/v1/products", {"name": "Water", "salePrice": "2.00", "taxRate": "19", "barcode": new_code()})
    cake = api("POST", "/api/v1/products", {"name": "Cheesecake", "salePrice": "4.20", "minimumSalePrice": "3.00", "taxRate": "7"})
    latte = api("POST", "/api/v1/products", {"name": "Latte", "salePrice": "3.50", "taxRate": "7", "tracksStock": False})
    api("POST", "/api/v1/purchases", {"lines": [
        {"productId": beans["id"], "quantity": "2", "unitCost": "22.00"}, {"productId": milk["id"], "quantity": "20", "unitCost": "0.95"},
        {"productId": croissant["id"], "quantity": "60", "unitCost": "0.80"}, {"productId": water["id"], "quantity": "30", "unitCost": "0.40"},
        {"productId": cake["id"], "quantity": "12", "unitCost": "1.60"}]})
    api("PUT", f"/api/v1/products/{latte['id']}/recipe", {"components": [
        {"productId": beans["id"], "quantity": "0.018"}, {"productId": milk["id"], "quantity": "0.2"}]})
    groups = api("PUT", f"/api/v1/products/{latte['id']}/options", {"groups": [
        {"name": "Size", "required": True, "options": [{"name": "Regular", "isDefault": True}, {"name": "Large", "priceChange": "0.60"}]},
        {"name": "Milk", "options": [{"name": "Whole"}, {"name": "Oat", "priceChange": "0.40"}]}]})["groups"]
    option = {o["name"]: o["id"] for g in groups for o in g["options"]}
    video = ean13_y4m(water["barcode"], tmp_path / "water.y4m")
    driver = signed_in(shop, "staff", width=1024, height=768, camera=video)

    # Morning: the drawer opens with a 150.00 float.
    driver.get(shop.url("/app/drawer"))
    wait_for(driver, "#drawer-open-form")
    type_into(driver, "#drawer-float", "150.00")
    press(driver, "#drawer-open-submit")
    wait_for(driver, "#drawer-cash-form")
    sales = []

    # 10 sales by tapping tiles, card.
    for n in range(10):
        till_ready(driver, shop)
        for _ in range(1 + n % 2):
            tile(driver, croissant["id"]).click()
        sales.append(pay_and_charge(driver, "card"))
    # 8 sales with the USB scanner (digits + Enter), cash with 20.00 handed over.
    for _ in range(8):
        till_ready(driver, shop)
        ActionChains(driver).send_keys(croissant["barcode"] + Keys.ENTER).perform()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cart-lines [data-line]")) == 1)
        sales.append(pay_and_charge(driver, "cash", "20.00"))
    # 8 lattes with options (one tap each), a recipe of beans and milk.
    for n in range(8):
        till_ready(driver, shop)
        tile(driver, latte["id"]).click()
        choose_options(driver, [option["Large"]] * (n % 2) + [option["Oat"]] * (n % 3 == 0))
        sales.append(pay_and_charge(driver, "card"))
    # 1 sale by the camera: the scan screen finds the water and adds it to a sale.
    driver.get(shop.url("/app/scan"))
    wait_for(driver, "#result-actions a", timeout=15)
    driver.find_element(By.XPATH, "//div[@id='result-actions']//a[normalize-space()='Add to sale']").click()
    wait(driver, lambda d: path_of(d) == "/app/pos" and len(d.find_elements(By.CSS_SELECTOR, "#cart-lines [data-line]")) == 1)
    sales.append(pay_and_charge(driver, "cash", "2.38"))
    # 1 split payment: 3.00 cash, the rest by card.
    till_ready(driver, shop)
    tile(driver, croissant["id"]).click()
    tile(driver, latte["id"]).click()
    choose_options(driver, [])
    driver.find_element(By.CSS_SELECTOR, "input[name=paymentMethod][value=split]").find_element(By.XPATH, "..").click()
    wait_for(driver, "#split-box")
    split_row(driver, 0, "amount").send_keys("3.00")
    # "Rest" fills in the server's total less the other rows: wait for the server's answer to the 3.00 first.
    wait(driver, lambda d: "left to pay" in d.find_element(By.ID, "split-status").text)
    driver.find_element(By.CSS_SELECTOR, "#split-rows [data-rest='1']").click()
    wait(driver, lambda d: "Paid in full" in d.find_element(By.ID, "split-status").text)
    charge = driver.find_element(By.ID, "charge")
    wait(driver, lambda d: charge.is_enabled())
    charge.click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    sales.append(int(path_of(driver).rsplit("/", 1)[1]))
    # 1 parked tab: two croissants for table 5, another customer meanwhile, then the tab is picked up and charged.
    till_ready(driver, shop)
    tile(driver, croissant["id"]).click()
    tile(driver, croissant["id"]).click()
    wait(driver, lambda d: d.find_element(By.ID, "cart-park").is_enabled())
    driver.find_element(By.ID, "cart-park").click()
    wait_for(driver, "#park-label").send_keys("Table 5")
    driver.find_element(By.ID, "park-submit").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#cart-lines [data-line]") == [])
    tile(driver, water["id"]).click()
    sales.append(pay_and_charge(driver, "card"))
    till_ready(driver, shop)
    tab = next(t for t in api("GET", "/api/v1/tabs") if t["label"] == "Table 5")
    driver.find_element(By.ID, "tabs-open").click()
    wait_for(driver, f"#tabs-list [data-tab='{tab['id']}']").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cart-lines [data-line]")) == 1)
    sales.append(pay_and_charge(driver, "cash", "10.00"))
    # 1 discount below the minimum: refused for staff, accepted with the manager's PIN.
    till_ready(driver, shop)
    tile(driver, cake["id"]).click()
    driver.find_element(By.CSS_SELECTOR, f"[data-line='{cake['id']}'] button[data-act=discount]").click()
    dialog = wait_for(driver, "#discount-dialog")
    dialog.find_element(By.CSS_SELECTOR, "input[name=kind][value=percent]").find_element(By.XPATH, "..").click()
    dialog.find_element(By.ID, "discount-value").send_keys("50")
    wait_for(driver, "#discount-approval").click()
    form = wait_for(driver, "#approval-form")
    form.find_element(By.ID, "approval-username").send_keys("manager")
    form.find_element(By.ID, "approval-pin").send_keys(PINS["manager"])
    driver.find_element(By.ID, "approval-submit").click()
    wait(driver, lambda d: not d.find_element(By.ID, "approval-dialog").is_displayed())
    wait(driver, lambda d: "2.10" in d.find_element(By.ID, "discount-preview").text)
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: not dialog.is_displayed())
    sales.append(pay_and_charge(driver, "card"))
    # 9 more: water and cake, cash and card alternately, some with a tip.
    for n in range(9):
        till_ready(driver, shop)
        tile(driver, water["id"] if n % 2 else cake["id"]).click()
        if n % 3 == 0:
            driver.find_element(By.ID, "tip").send_keys("0.50")
        sales.append(pay_and_charge(driver, "cash" if n % 2 else "card", "10.00" if n % 2 else None))
    assert len(sales) == 40

    # Two refunds by the manager: a croissant from a cash sale and a latte from a card sale.
    for sale_id in (sales[10], sales[18]):
        sale = api("GET", f"/api/v1/sales/{sale_id}")
        api("POST", "/api/v1/returns/customer", {"saleId": sale_id, "lines": [{"saleLineId": sale["lines"][0]["id"], "quantity": "1"}]})

    # Cash out for the milk run, then close with 1.00 short.
    driver.get(shop.url("/app/drawer"))
    wait_for(driver, "#drawer-cash-form")
    driver.find_element(By.CSS_SELECTOR, "#drawer-cash-form input[value=out]").find_element(By.XPATH, "..").click()
    type_into(driver, "#drawer-cash-amount", "12.00")
    type_into(driver, "#drawer-cash-reason", "milk run")
    press(driver, "#drawer-cash-submit")
    wait(driver, lambda d: "milk run" in text_of(d, "drawer-report"))
    x = api("GET", "/api/v1/drawer")["session"]["report"]
    counted = Decimal(x["expectedCash"]) - Decimal("1.00")
    type_into(driver, "#drawer-counted", str(counted))
    press(driver, "#drawer-close-submit")
    wait(driver, lambda d: "Z report" in text_of(d, "drawer-report-kind"))
    difference = driver.find_element(By.ID, "drawer-difference")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", difference)
    assert fully_visible(driver, difference) and amount_in(difference.text) == Decimal("-1.00")

    # The Z report, figure by figure, against an independent sum over the API's sales and returns.
    z = api("GET", "/api/v1/drawer/sessions?limit=1")[0]["report"]
    booked = [api("GET", f"/api/v1/sales/{sale_id}") for sale_id in sales]
    returns = [api("GET", f"/api/v1/sales/{sale_id}") for sale_id in (sales[10], sales[18])]
    money = lambda values: sum((Decimal(v) for v in values), Decimal("0"))  # noqa: E731
    refunded = money(s["refunded"] for s in returns)
    assert z["kind"] == "Z" and z["salesCount"] == 40 and z["refundsCount"] == 2
    assert Decimal(z["takings"]) == money(s["total"] for s in booked)
    assert Decimal(z["tips"]) == money(s["tip"] for s in booked) == Decimal("1.50")
    assert Decimal(z["discounts"]) == money(s["discount"] for s in booked)
    assert Decimal(z["refunds"]) == refunded
    assert Decimal(z["tax"]) == money(s["tax"] for s in booked) and Decimal(z["revenue"]) == money(s["revenue"] for s in booked)
    taken = {m: money(p["amount"] for s in booked for p in s["payments"] if p["method"] == m) for m in ("cash", "card")}
    back = {m: money(p["refunded"] for s in returns for p in s["payments"] if p["method"] == m) for m in ("cash", "card")}
    methods = {m["method"]: m for m in z["methods"]}
    for method in ("cash", "card"):
        assert Decimal(methods[method]["taken"]) == taken[method], method
        assert Decimal(methods[method]["refunded"]) == back[method], method
        assert Decimal(methods[method]["net"]) == taken[method] - back[method], method
    expected = Decimal("150.00") + taken["cash"] - back["cash"] - Decimal("12.00")
    assert Decimal(z["expectedCash"]) == expected and Decimal(z["countedCash"]) == counted and Decimal(z["difference"]) == Decimal("-1.00")
    staff = {s["username"]: s for s in z["staff"]}
    assert staff["staff"]["salesCount"] == 40 and Decimal(staff["staff"]["tips"]) == Decimal("1.50")
    assert Decimal(staff["staff"]["revenue"]) == money(s["revenue"] for s in booked)
    # Tax per rate: the sale lines' own tax, less what the two returns gave back (each took a whole one-item line back).
    by_rate = {}
    for s in booked:
        for line in s["lines"]:
            by_rate[Decimal(line["taxRate"])] = by_rate.get(Decimal(line["taxRate"]), Decimal("0")) + Decimal(line["tax"])
    for s in returns:
        line = s["lines"][0]
        assert line["quantity"] == line["returnedQuantity"] == "1"
        by_rate[Decimal(line["taxRate"])] -= Decimal(line["tax"])
    assert {Decimal(t["taxRate"]): Decimal(t["tax"]) for t in z["taxes"]} == {rate: tax for rate, tax in by_rate.items()}

    # The books behind the day: the lattes used their beans and milk, at the average cost.
    lattes = [line for s in booked for line in s["lines"] if line["productId"] == latte["id"]]
    assert len(lattes) == 9 and all(Decimal(line["costOfGoodsSold"]) > 0 for line in lattes)
    assert Decimal(api("GET", f"/api/v1/products/{beans['id']}")["quantity"]) == Decimal("2") - Decimal("0.018") * 9
