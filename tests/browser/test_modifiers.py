"""Options at the till (issue 12, point 6): a latte with a size, a milk and extras, chosen with one tap each; the line's
price, the total and the receipt are the server's, and two lattes with different options are two lines."""
from selenium.webdriver.common.by import By

from conftest import fully_visible, path_of, unique, wait, wait_for, wait_idle
from test_till import tile


def latte_with_options(shop):
    latte = shop.api("POST", "/api/v1/products", {"name": unique("Latte"), "salePrice": "3.10", "taxRate": "7", "tracksStock": False})
    groups = shop.api("PUT", f"/api/v1/products/{latte['id']}/options", {"groups": [
        {"name": "Size", "required": True, "options": [{"name": "Regular", "isDefault": True}, {"name": "Large", "priceChange": "0.50"}]},
        {"name": "Milk", "options": [{"name": "Whole"}, {"name": "Oat", "priceChange": "0.40"}]},
        {"name": "Extras", "multiple": True, "options": [{"name": "Extra shot", "priceChange": "0.60"}, {"name": "Vanilla", "priceChange": "0.40"}]},
    ]})["groups"]
    return latte, {option["name"]: option["id"] for group in groups for option in group["options"]}


def choose(driver, options, names):
    dialog = wait_for(driver, "#options-dialog")
    for name in names:
        driver.find_element(By.CSS_SELECTOR, f"label[for='option-{options[name]}']").click()
    add = driver.find_element(By.ID, "options-add")
    assert fully_visible(driver, add), "Add is in view"
    add.click()
    wait(driver, lambda d: not dialog.is_displayed())


def test_options_are_chosen_with_a_tap_each_and_priced_by_the_server(shop, signed_in):
    latte, options = latte_with_options(shop)
    driver = signed_in(shop, "staff", width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    tile(driver, latte["id"]).click()
    dialog = wait_for(driver, "#options-dialog")
    # The server's default size is chosen to start with; the price changes are shown on the choices.
    assert driver.find_element(By.ID, f"option-{options['Regular']}").is_selected()
    assert "0.50" in dialog.find_element(By.CSS_SELECTOR, f"label[for='option-{options['Large']}']").text
    choose(driver, options, ["Large", "Oat", "Extra shot"])
    line = wait_for(driver, "#cart-lines .till-line")
    assert "Large, Oat, Extra shot" in line.text
    # 3.10 + 0.50 + 0.40 + 0.60 = 4.60 a cup, the server's unit price; + 7 % tax = 4.92.
    wait(driver, lambda d: "4.92" in d.find_element(By.ID, "total-total").text)
    assert "4.60" in driver.find_element(By.CSS_SELECTOR, "#cart-lines .till-line .till-line-sub").text

    # A plain latte is a second line; the same choice again adds to the first.
    tile(driver, latte["id"]).click()
    choose(driver, options, [])
    tile(driver, latte["id"]).click()
    choose(driver, options, ["Large", "Oat", "Extra shot"])
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#cart-lines .till-line")) == 2)
    # (2 × 4.60 + 3.10) with 7 % tax per line: the figure the server books for the same lines.
    preview = shop.api("POST", "/api/v1/sales?dryRun=true", {"paymentMethod": "card", "lines": [
        {"productId": latte["id"], "quantity": "2", "options": [options["Large"], options["Oat"], options["Extra shot"]]},
        {"productId": latte["id"], "quantity": "1"}]})
    assert preview["total"] == "13.16"
    wait(driver, lambda d: preview["total"] in d.find_element(By.ID, "total-total").text)

    driver.find_element(By.CSS_SELECTOR, "input[name=paymentMethod][value=card]").find_element(By.XPATH, "..").click()
    wait(driver, lambda d: d.find_element(By.ID, "charge").is_enabled())
    driver.find_element(By.ID, "charge").click()
    wait(driver, lambda d: path_of(d).startswith("/app/receipt/"))
    sale = shop.api("GET", f"/api/v1/sales/{int(path_of(driver).rsplit('/', 1)[1])}")
    assert [[o["name"] for o in line["options"]] for line in sale["lines"]] == [["Large", "Oat", "Extra shot"], ["Regular"]]
    assert sale["total"] == preview["total"]
    receipt = wait_for(driver, "#receipt")
    wait(driver, lambda d: "Extra shot" in d.find_element(By.ID, "receipt").text)
    assert "Large (+" in receipt.text and "Oat (+" in receipt.text and "Regular" in receipt.text


def test_the_options_sheet_fits_a_phone(shop, signed_in):
    latte, options = latte_with_options(shop)
    driver = signed_in(shop, "staff", width=375, height=812)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    button = tile(driver, latte["id"])
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    wait_for(driver, "#options-dialog")
    for name in ("Regular", "Large", "Oat", "Vanilla"):
        label = driver.find_element(By.CSS_SELECTOR, f"label[for='option-{options[name]}']")
        assert fully_visible(driver, label), name
    choose(driver, options, ["Vanilla"])
    wait(driver, lambda d: d.find_element(By.ID, "cart-count").get_attribute("textContent").startswith("1 item"))
    line = driver.execute_script("return JSON.parse(sessionStorage.getItem('stockroom.till.cart')).lines[0]")
    assert line["options"] == [options["Regular"], options["Vanilla"]] and line["optionText"] == "Regular, Vanilla"


def test_a_manager_sets_a_products_options_on_its_screen(shop, signed_in):
    """The editor on the product screen: a group with two options saved as the server keeps them; a refusal (an empty
    option name) is shown on that input and keeps what was typed."""
    product = shop.api("POST", "/api/v1/products", {"name": unique("Flat white"), "salePrice": "3.40", "tracksStock": False})
    driver = signed_in(shop, "manager", width=1440, height=900)
    driver.get(shop.url(f"/app/products/{product['id']}"))
    wait_idle(driver)
    add = wait_for(driver, "#pd-options-edit")
    assert "Add options" in add.text
    add.click()
    wait_for(driver, "#pd-options-add-group").click()
    form = wait_for(driver, "#pd-options-form")
    form.find_element(By.NAME, "groups[0].name").send_keys("Size")
    form.find_element(By.NAME, "groups[0].options[0].name").send_keys("Regular")
    form.find_element(By.XPATH, ".//button[text()='Add option']").click()
    price = form.find_element(By.NAME, "groups[0].options[1].priceChange")
    price.clear()
    price.send_keys("0.60")
    save = driver.find_element(By.ID, "pd-options-save")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", save)
    save.click()
    # The second option has no name: refused on that input, nothing stored.
    wait(driver, lambda d: d.find_element(By.NAME, "groups[0].options[1].name").get_attribute("aria-invalid") == "true")
    assert shop.api("GET", f"/api/v1/products/{product['id']}/options")["groups"] == []
    form.find_element(By.NAME, "groups[0].options[1].name").send_keys("Large")
    save.click()
    listed = wait_for(driver, "#pd-options-list")
    stored = shop.api("GET", f"/api/v1/products/{product['id']}/options")["groups"]
    assert [(o["name"], o["priceChange"], o["isDefault"]) for o in stored[0]["options"]] == [("Regular", "0.00", True), ("Large", "0.60", False)]
    assert "Size" in listed.text and "Large +" in listed.text and "0.60" in listed.text and "Regular (default)" in listed.text


def test_a_recipe_is_set_on_the_product_screen_and_selling_it_uses_the_ingredients(shop, signed_in):
    """A latte made of 0.018 kg beans and 0.2 l milk: set on its screen by a manager, sold at the till by staff; the
    sale's cost of goods sold is the ingredients' average cost, and the beans' history shows what the latte used."""
    beans = shop.api("POST", "/api/v1/products", {"name": unique("Espresso beans"), "unit": "kg", "salePrice": "30.00"})
    milk = shop.api("POST", "/api/v1/products", {"name": unique("Whole milk"), "unit": "l", "salePrice": "2.00"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": beans["id"], "quantity": "1", "unitCost": "20.00"},
                                                     {"productId": milk["id"], "quantity": "10", "unitCost": "1.00"}]})
    latte = shop.api("POST", "/api/v1/products", {"name": unique("House latte"), "salePrice": "3.50", "taxRate": "7", "tracksStock": False})
    office = signed_in(shop, "manager", width=1440, height=900)
    office.get(shop.url(f"/app/products/{latte['id']}"))
    wait_idle(office)
    wait_for(office, "#pd-recipe-edit").click()
    for index, (product, amount) in enumerate([(beans, "0.018"), (milk, "0.2")]):
        wait_for(office, "#pd-recipe-add").click()
        select = wait_for(office, f"#rc-{index}-product")
        select.find_element(By.CSS_SELECTOR, f"option[value='{product['id']}']").click()
        office.find_element(By.ID, f"rc-{index}-quantity").send_keys(amount)
    save = office.find_element(By.ID, "pd-recipe-save")
    office.execute_script("arguments[0].scrollIntoView({block: 'center'})", save)
    save.click()
    listed = wait_for(office, "#pd-recipe-list")
    assert beans["name"] in listed.text and "0.018 kg" in listed.text and "0.2 l" in listed.text
    assert [c["quantity"] for c in shop.api("GET", f"/api/v1/products/{latte['id']}/recipe")["components"]] == ["0.018", "0.2"]

    till = signed_in(shop, "staff", width=1024, height=768)
    till.get(shop.url("/app/pos"))
    wait_idle(till)
    tile(till, latte["id"]).click()
    tile(till, latte["id"]).click()
    wait(till, lambda d: "7.49" in d.find_element(By.ID, "total-total").text)   # 2 × 3.50 + 7 %
    till.find_element(By.CSS_SELECTOR, "input[name=paymentMethod][value=card]").find_element(By.XPATH, "..").click()
    wait(till, lambda d: d.find_element(By.ID, "charge").is_enabled())
    till.find_element(By.ID, "charge").click()
    wait(till, lambda d: path_of(d).startswith("/app/receipt/"))
    sale = shop.api("GET", f"/api/v1/sales/{int(path_of(till).rsplit('/', 1)[1])}")
    # 0.036 kg beans at 20.00 = 0.72 and 0.4 l milk at 1.00 = 0.40.
    assert sale["costOfGoodsSold"] == "1.12" and len(sale["lines"]) == 1
    assert shop.api("GET", f"/api/v1/products/{beans['id']}")["quantity"] == "0.964"

    office.get(shop.url(f"/app/products/{beans['id']}"))
    wait_idle(office)
    history = wait_for(office, "#pd-history-table")
    assert "Used in a recipe sold" in history.text
