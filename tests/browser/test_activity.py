"""The activity feed (issue 14, point 3) at phone, tablet and desktop sizes: a manager reads what the server recorded —
sales, clocking in and out, price changes, products gone low — word for word as the API words it, filters it by kind,
and sees a new sale appear without reloading; staff may not open it."""
import pytest
from selenium.webdriver.common.by import By

from conftest import screenshot, unique, wait, wait_for, wait_idle
from test_staff_privacy import SIZES, click, seen


def feed(shop, query=""):
    return shop.api("GET", f"/api/v1/activity?limit=50{query}")["entries"]


def shown(driver):
    return driver.execute_script("return [...document.querySelectorAll('#activity-list li .title')].map(n => n.textContent)")


@pytest.mark.parametrize("size", SIZES)
def test_a_manager_reads_filters_and_follows_the_activity_feed(shop, signed_in, size):
    name = unique("Bun")
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "1.20", "lowStockThreshold": "5"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "10", "unitCost": "0.50"}]})
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "6"}]})
    shop.api("PATCH", f"/api/v1/products/{product['id']}", {"salePrice": "1.35"})
    server = [entry["sentence"] for entry in feed(shop)]
    assert f"{name} went low: 4 left, threshold 5" in server

    driver = signed_in(shop, role="manager", width=SIZES[size][0], height=SIZES[size][1])
    driver.get(shop.url("/app/activity"))
    wait(driver, lambda d: len(shown(d)) > 0)
    wait_idle(driver)
    # What the page lists is the server's first page, in its order and words.
    assert shown(driver) == server
    first = driver.find_element(By.CSS_SELECTOR, "#activity-list li .title")
    assert seen(driver, first)
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")

    # Filter by kind: only the products gone low, as the server answers that filter.
    chip = driver.find_element(By.CSS_SELECTOR, '[data-kind="lowStock"]')
    assert seen(driver, chip)
    click(driver, chip)
    low = [entry["sentence"] for entry in feed(shop, "&kind=lowStock")]
    wait(driver, lambda d: shown(d) == low)
    assert f"{name} went low: 4 left, threshold 5" in shown(driver)
    assert chip.get_attribute("aria-pressed") == "true"

    # Sales only, then a sale made elsewhere appears at the top without a reload.
    click(driver, chip)
    click(driver, driver.find_element(By.CSS_SELECTOR, '[data-kind="sales"]'))
    wait(driver, lambda d: shown(d) == [entry["sentence"] for entry in feed(shop, "&kind=sales")])
    sale = shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "1"}]})
    newest = feed(shop, "&kind=sales")[0]
    assert newest["record"] == {"kind": "sale", "id": sale["id"]}
    wait(driver, lambda d: (shown(d) or [None])[0] == newest["sentence"], timeout=15)
    screenshot(driver, f"activity-{size}")


def test_a_bad_range_is_shown_on_its_field(shop, signed_in):
    driver = signed_in(shop, role="manager", width=1280, height=800)
    driver.get(shop.url("/app/activity"))
    wait_idle(driver)
    for field, value in (("activity-from", "2026-03-02"), ("activity-to", "2026-03-01")):
        driver.execute_script("document.getElementById(arguments[0]).value = arguments[1]", field, value)
    click(driver, driver.find_element(By.CSS_SELECTOR, "#activity-filters button[type=submit]"))
    to = driver.find_element(By.ID, "activity-to")
    wait(driver, lambda d: to.get_attribute("aria-invalid") == "true")
    assert "must not be before" in driver.find_element(By.ID, "activity-to-error").text


def test_the_feed_is_in_the_navigation_for_managers_and_refused_to_staff(shop, signed_in):
    driver = signed_in(shop, role="manager", width=375, height=812)
    driver.get(shop.url("/app/more"))
    link = wait_for(driver, '[aria-label="More screens"] a[href="/app/activity"]')
    assert seen(driver, link)
    click(driver, link)
    wait_for(driver, "#activity-list", visible=False)

    staff = signed_in(shop, role="staff", width=1280, height=800)
    assert not staff.find_elements(By.CSS_SELECTOR, 'a[href="/app/activity"]')
    staff.get(shop.url("/app/activity"))
    assert not staff.find_elements(By.ID, "activity-list")
    assert "Not allowed" in staff.title or "not allowed" in staff.page_source.lower()
