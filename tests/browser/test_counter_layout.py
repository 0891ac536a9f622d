"""Layouts that fit the counter (issue 12, point 2), asserted as a person sees them: an element inside the viewport and
not covered by another (conftest.fully_visible), not only a screenshot."""
from selenium.webdriver.common.by import By

from conftest import fully_visible, screenshot, unique, wait, wait_for, wait_idle
from test_till import stocked, tile


def resize(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 768})


def test_on_a_landscape_tablet_the_whole_cart_and_charge_are_in_view(shop, signed_in):
    items = [stocked(shop, unique(name), price, "7", "20", emoji="☕")
             for name, price in (("Flat white with oat milk", "3.20"), ("Almond croissant", "2.90"), ("Sparkling water", "1.80"))]
    driver = signed_in(shop, width=1024, height=768)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    for item in items:
        tile(driver, item["id"]).click()
    for width, height in ((1024, 768), (1180, 820), (1366, 1024)):
        resize(driver, width, height)
        driver.get(shop.url("/app/pos"))   # the cart is kept for the session
        wait_idle(driver)
        wait(driver, lambda d: "8.45" in d.find_element(By.ID, "total-total").text)   # 7.90 + 7 % = 0.553 → 0.55
        lines = driver.find_elements(By.CSS_SELECTOR, "#cart-lines [data-line]")
        assert len(lines) == 3
        assert driver.execute_script("return window.scrollY") == 0
        for element in lines + [driver.find_element(By.ID, name) for name in ("total-total", "tendered", "charge")]:
            assert fully_visible(driver, element), f"{width}×{height}: {element.get_attribute('id') or element.text[:30]} is not in view"
        assert "8.45" in driver.find_element(By.ID, "charge").text
        screenshot(driver, f"counter-till-{width}x{height}")


def test_on_a_phone_the_change_due_is_never_behind_the_charge_button(shop, signed_in):
    items = [stocked(shop, unique(name), "2.50", "7", "20", emoji="🥐") for name in ("Latte", "Cappuccino", "Croissant", "Muffin")]
    for width, height in ((360, 640), (375, 812), (390, 844)):
        driver = signed_in(shop, width=width, height=height)
        driver.get(shop.url("/app/pos"))
        wait_idle(driver)
        for item in items:
            driver.execute_script("arguments[0].click()", tile(driver, item["id"]))
        driver.find_element(By.ID, "cart-toggle").click()
        tendered = wait_for(driver, "#tendered")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", tendered)
        tendered.send_keys("20")
        wait(driver, lambda d: "9.28" in d.find_element(By.ID, "change-line").text)   # 20.00 − 10.72
        for name in ("change-due", "charge"):
            assert fully_visible(driver, driver.find_element(By.ID, name)), f"{width}×{height}: #{name} is not in view"
        # The cart's heading on one line, whole and not covered by its buttons (it once broke as "Sal / e").
        word = driver.find_element(By.CSS_SELECTOR, "#cart-heading .till-cart-word")
        driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", word)
        assert driver.execute_script("const r = document.createRange(); r.selectNodeContents(arguments[0]);"
                                     " return r.getClientRects().length", word) == 1, f"{width}×{height}: the heading breaks"
        assert fully_visible(driver, word), f"{width}×{height}: the heading is covered"
        screenshot(driver, f"counter-change-due-{width}x{height}")
        driver.quit()


def test_on_a_phone_the_payment_choices_stay_put_when_the_total_arrives(shop, signed_in):
    """The cart sheet grows upwards from the tab bar: if the quick cash amounts (which come with the server's total) made
    it taller, every payment choice would jump up under a finger about to tap it. Their row keeps its height."""
    item = stocked(shop, unique("Oat latte"), "3.40", "7", "20", emoji="☕")
    driver = signed_in(shop, width=375, height=812)
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    driver.execute_script("arguments[0].click()", tile(driver, item["id"]))
    driver.find_element(By.ID, "cart-toggle").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#quick-cash .chip"))
    # The amounts are the server's (its dry run of the same cart), not worked out by the page.
    offered = shop.api("POST", "/api/v1/sales?dryRun=true", {"lines": [{"productId": item["id"], "quantity": "1"}]})["quickCash"]
    chips = driver.find_elements(By.CSS_SELECTOR, "#quick-cash .chip")
    assert [chip.get_attribute("data-amount") for chip in chips] == offered
    assert chips[0].text.startswith("Exact") and len(offered) >= 2
    split = driver.find_element(By.CSS_SELECTOR, "input[name=paymentMethod][value=split]").find_element(By.XPATH, "..")
    top = lambda: driver.execute_script("return arguments[0].getBoundingClientRect().top", split)
    with_amounts = top()
    # The moment before the server's answer: no amounts yet (the row is emptied the way a first line finds it).
    driver.execute_script("document.getElementById('quick-cash').replaceChildren()")
    without_amounts = top()
    assert without_amounts == with_amounts, f"Split moved {with_amounts - without_amounts} px when the amounts arrived"
    assert fully_visible(driver, split)
    driver.quit()


def test_the_dashboards_top_ten_and_alerts_do_not_overlap(shop, signed_in):
    # A full Top 10 with long names, and low-stock alerts (each product is left with 1).
    for index in range(10):
        product = stocked(shop, unique(f"Single-origin Ethiopian Yirgacheffe whole beans, light roast, 1 kg bag no. {index}"), "24.90", "7", "3")
        shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "2"}]})
    driver = signed_in(shop, "admin", width=1280, height=900)
    for width in (1280, 1440, 1600, 1920):
        resize(driver, width, 1000)
        driver.get(shop.url("/app/home"))
        wait_idle(driver)
        assert len(driver.find_elements(By.CSS_SELECTOR, "#top-list li")) == 10
        top = wait_for(driver, "#top-products").rect
        alerts = wait_for(driver, "#alerts").rect
        apart = (top["x"] + top["width"] <= alerts["x"] or alerts["x"] + alerts["width"] <= top["x"]
                 or top["y"] + top["height"] <= alerts["y"] or alerts["y"] + alerts["height"] <= top["y"])
        assert apart, f"{width}: Top 10 {top} overlaps Alerts {alerts}"
        for name in ("top-heading", "alerts-heading"):
            element = driver.find_element(By.ID, name)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            assert fully_visible(driver, element), f"{width}: #{name} is covered"
