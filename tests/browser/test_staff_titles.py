"""Job titles and initials on the till (issue 14, point 4), at phone, tablet and desktop sizes: whoever is signed in is
shown in the frame by their initials and job title, as the server has them; an admin sets the title on Users."""
import pytest
from selenium.webdriver.common.by import By

from conftest import ADMIN, PASSWORDS, screenshot, sign_in, unique, wait, wait_for, wait_idle
from test_staff_privacy import SIZES, click, seen


@pytest.mark.parametrize("size", SIZES)
def test_the_till_shows_who_is_signed_in_by_initials_and_job_title(shop, browser, size):
    username = unique("ada").replace(" ", "-")
    user = shop.api("POST", "/api/v1/users", {"username": username, "password": "ada-password-1", "displayName": "Ada Lovelace",
                                              "jobTitle": "Barista", "role": "staff"})
    assert user["initials"] == "AL"
    driver = browser(width=SIZES[size][0], height=SIZES[size][1])
    sign_in(driver, shop, username, "ada-password-1")
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    phone = size == "phone"
    who = wait_for(driver, "#who-topbar" if phone else "#who-sidebar")
    badge = who.find_element(By.CSS_SELECTOR, ".initials")
    assert seen(driver, badge) and badge.text == user["initials"]
    assert "Barista" in who.text and "Ada Lovelace" in who.text
    screenshot(driver, f"till-initials-{size}")


def test_an_admin_sets_a_job_title_on_users(shop, browser):
    username = unique("ben").replace(" ", "-")
    shop.api("POST", "/api/v1/users", {"username": username, "password": "ben-password-1", "displayName": "Ben Okafor", "role": "staff"})
    driver = browser(width=375, height=812)
    sign_in(driver, shop, ADMIN[0], PASSWORDS["admin"])
    driver.get(shop.url("/app/users"))
    row = wait_for(driver, f'[data-user="{username}"]')
    wait_idle(driver)
    assert row.find_element(By.CSS_SELECTOR, ".initials").text == "BO"
    click(driver, row.find_element(By.CSS_SELECTOR, "button[aria-label^='Edit']"))
    title = wait_for(driver, "#u-jobTitle")
    title.send_keys("Kitchen")
    click(driver, driver.find_element(By.ID, "user-save"))
    # (The list is drawn afresh after saving: read it by selector each time.)
    wait(driver, lambda d: "Kitchen" in d.execute_script("return document.querySelector(arguments[0])?.textContent ?? ''",
                                                          f'[data-user="{username}"]'))
    assert next(u for u in shop.api("GET", "/api/v1/users") if u["username"] == username)["jobTitle"] == "Kitchen"
