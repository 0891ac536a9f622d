"""Staff self-service (issue 14, point 4), at phone, tablet and desktop sizes: everyone changes their own password and
PIN under More (the current one required, a new PIN typed twice); an admin resets a PIN and its owner chooses a new
one."""
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import ADMIN, PASSWORDS, screenshot, sign_in, wait, wait_for, wait_idle
from test_staff_privacy import SIZES, account, click, seen


@pytest.mark.parametrize("size", SIZES)
def test_changing_your_own_password_and_pin(shop, browser, size):
    _, username, password = account(shop, "staff", pin="2580")
    driver = browser(width=SIZES[size][0], height=SIZES[size][1])
    sign_in(driver, shop, username, password)
    driver.get(shop.url("/app/more"))
    wait_idle(driver)
    pin_form = wait_for(driver, "#pin-form")
    assert seen(driver, driver.find_element(By.ID, "current-pin")), "an account with a PIN is asked for it"
    # A wrong current PIN: the error is on that field, nothing changes.
    driver.find_element(By.ID, "current-pin").send_keys("0000")
    driver.find_element(By.ID, "new-pin").send_keys("1470")
    driver.find_element(By.ID, "new-pin-again").send_keys("1470")
    click(driver, driver.find_element(By.ID, "pin-save"))
    wait(driver, lambda d: d.find_element(By.ID, "current-pin").get_attribute("aria-invalid") == "true")
    error = pin_form.find_element(By.CSS_SELECTOR, "#current-pin-field .field-error")
    assert "not your current PIN" in error.text and seen(driver, error)
    screenshot(driver, f"privacy-pin-wrong-{size}")
    # Typed twice differently: the error is on the repeat.
    for field, value in (("current-pin", "2580"), ("new-pin", "1470"), ("new-pin-again", "1407")):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    click(driver, driver.find_element(By.ID, "pin-save"))
    wait(driver, lambda d: d.find_element(By.ID, "new-pin-again").get_attribute("aria-invalid") == "true")
    driver.find_element(By.ID, "new-pin-again").clear()
    driver.find_element(By.ID, "new-pin-again").send_keys("1470")
    # Wrong PINs are throttled per client address too (every size's browser is 127.0.0.1): after the three free wrong
    # tries of the three sizes the next try must wait 2 s.
    time.sleep(2.5)
    click(driver, driver.find_element(By.ID, "pin-save"))
    wait(driver, lambda d: "PIN changed" in d.find_element(By.ID, "toast").text)
    assert driver.find_element(By.ID, "current-pin").get_attribute("value") == ""
    # The password: a wrong current one is refused on its field, then the right one changes it.
    form = driver.find_element(By.ID, "password-form")
    driver.find_element(By.ID, "current-password").send_keys("not the password")
    driver.find_element(By.ID, "new-password").send_keys("a brand new password")
    click(driver, driver.find_element(By.ID, "password-save"))
    wait(driver, lambda d: d.find_element(By.ID, "current-password").get_attribute("aria-invalid") == "true")
    assert "not your current password" in form.find_element(By.CSS_SELECTOR, ".field-error").text
    current = driver.find_element(By.ID, "current-password")
    current.clear()
    # Wrong passwords are throttled per client address too, and every size's browser comes from 127.0.0.1: after the
    # three free wrong tries of the three sizes the next try must wait 2 s.
    time.sleep(2.5)
    current.send_keys(password)
    click(driver, driver.find_element(By.ID, "password-save"))
    wait(driver, lambda d: "Password changed" in d.find_element(By.ID, "toast").text)
    screenshot(driver, f"privacy-password-changed-{size}")
    # Signed in with the new password (that the old one is refused is SelfServiceAPITests': another wrong try here
    # would only feed the address's throttle; sign_in waits out the wait that the address's earlier tries cost).
    again = browser(width=SIZES[size][0], height=SIZES[size][1])
    sign_in(again, shop, username, "a brand new password")


@pytest.mark.parametrize("size", SIZES)
def test_an_admin_resets_a_pin_and_its_owner_sets_a_new_one_twice(shop, browser, size):
    user, username, password = account(shop, "staff")
    admin = browser(width=SIZES[size][0], height=SIZES[size][1])
    sign_in(admin, shop, ADMIN[0], PASSWORDS["admin"])
    admin.get(shop.url("/app/users"))
    edit = wait_for(admin, f'[data-user="{username}"] button[aria-label^="Edit"]')
    wait_idle(admin)
    click(admin, edit)
    button = wait_for(admin, "#u-reset-pin")
    assert seen(admin, button)
    click(admin, button)
    confirm = wait_for(admin, "dialog[open] [data-confirm]")
    click(admin, confirm)
    # (The list is drawn afresh after the reset: read it by selector each time.)
    wait(admin, lambda d: "no PIN" in d.execute_script("return document.querySelector(arguments[0])?.textContent ?? ''",
                                                        f'[data-user="{username}"]'))
    assert next(u for u in shop.api("GET", "/api/v1/users") if u["id"] == user["id"])["hasPIN"] is False
    # Its owner signs in with the password and chooses the first new PIN, typed twice; no current one is asked.
    driver = browser(width=SIZES[size][0], height=SIZES[size][1])
    sign_in(driver, shop, username, password)
    driver.get(shop.url("/app/more"))
    note = wait_for(driver, "#no-pin-note")
    wait_idle(driver)
    assert seen(driver, note)
    assert not driver.find_element(By.ID, "current-pin").is_displayed()
    driver.find_element(By.ID, "new-pin").send_keys("3690")
    driver.find_element(By.ID, "new-pin-again").send_keys("3609")
    click(driver, driver.find_element(By.ID, "pin-save"))
    wait(driver, lambda d: d.find_element(By.ID, "new-pin-again").get_attribute("aria-invalid") == "true")
    assert "does not match" in driver.find_element(By.CSS_SELECTOR, "#pin-form .field-error:not(:empty)").text
    driver.find_element(By.ID, "new-pin-again").clear()
    driver.find_element(By.ID, "new-pin-again").send_keys("3690")
    click(driver, driver.find_element(By.ID, "pin-save"))
    wait(driver, lambda d: "PIN changed" in d.find_element(By.ID, "toast").text)
    assert not driver.find_element(By.ID, "no-pin-note").is_displayed()
    assert driver.find_element(By.ID, "current-pin").is_displayed()
    assert next(u for u in shop.api("GET", "/api/v1/users") if u["id"] == user["id"])["hasPIN"] is True
    screenshot(driver, f"privacy-first-pin-{size}")
