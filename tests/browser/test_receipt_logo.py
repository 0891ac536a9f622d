"""Receipts a tax office accepts (issue 12, point 8): the shop's logo from Settings at the top of every receipt, above
the shop's name, shown as the picture the server keeps; removing it leaves the name on top."""
from selenium.webdriver.common.by import By

from conftest import fully_visible, path_of, unique, wait, wait_for, wait_idle
from test_pictures import png
from test_till import stocked, tile


def test_the_logo_set_in_settings_heads_every_receipt(shop, signed_in):
    admin = signed_in(shop, "admin", width=1440, height=900)
    admin.get(shop.url("/app/settings"))
    wait_idle(admin)
    admin.find_element(By.ID, "logo-file").send_keys(png("#113355", size=(400, 120)))
    preview = wait_for(admin, "#logo-image")
    wait(admin, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", preview) == 400)

    coffee = stocked(shop, unique("Logo espresso"), "2.20", "7", "5")
    till = signed_in(shop, "staff", width=1024, height=768)
    till.get(shop.url("/app/pos"))
    wait_idle(till)
    tile(till, coffee["id"]).click()
    till.find_element(By.CSS_SELECTOR, "input[name=paymentMethod][value=card]").find_element(By.XPATH, "..").click()
    wait(till, lambda d: d.find_element(By.ID, "charge").is_enabled())
    till.find_element(By.ID, "charge").click()
    wait(till, lambda d: path_of(d).startswith("/app/receipt/"))
    logo = wait_for(till, "#receipt-logo")
    # The picture loaded (the server's bytes), sits inside the receipt above the shop's name, and is in view.
    wait(till, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", logo) == 400)
    receipt = till.find_element(By.ID, "receipt").rect
    box = logo.rect
    assert receipt["x"] <= box["x"] and box["x"] + box["width"] <= receipt["x"] + receipt["width"]
    name = till.find_element(By.CSS_SELECTOR, "#receipt h2")
    assert box["y"] + box["height"] <= name.rect["y"] + 1
    till.execute_script("arguments[0].scrollIntoView({block: 'center'})", logo)
    assert fully_visible(till, logo)

    # Removed: the next receipt starts with the shop's name.
    admin.get(shop.url("/app/settings"))
    wait_idle(admin)
    wait_for(admin, "#logo-remove").click()
    wait_for(admin, "dialog[open] button[data-confirm]").click()
    wait(admin, lambda d: not d.find_elements(By.ID, "logo-image"))
    assert shop.api("GET", "/api/v1/settings/logo", raw=True)[0] == 404
    till.refresh()
    wait_idle(till)
    wait_for(till, "#receipt h2")
    assert not till.find_elements(By.ID, "receipt-logo")
