"""Screenshots of the main screens on a phone (light and dark), a tablet and a desktop, over the demo café, kept as
test artefacts in test-artifacts/screenshots/. Each screen must load without errors in the browser console,
without horizontal scrolling, and with every visible text at WCAG AA contrast."""
import pytest
from selenium.webdriver.common.by import By

from conftest import ADMIN, Shop, contrast_failures, no_horizontal_scroll, screenshot, sign_in, wait_idle

SIZES = [("phone", 375, 812, False), ("phone-dark", 375, 812, True), ("tablet", 1024, 768, False), ("desktop", 1440, 900, False)]
SCREENS = [("dashboard", "/app/home"), ("products", "/app/products"), ("purchase-form", "/app/purchases/new"), ("pos", "/app/pos"),
           ("reorder", "/app/reorder")]


@pytest.fixture(scope="module")
def demo_shop():
    server = Shop(demo=True)
    server.create_admin()
    yield server
    server.stop()


@pytest.mark.parametrize("size", SIZES, ids=[size[0] for size in SIZES])
def test_main_screens_at_every_size(demo_shop, browser, size):
    name, width, height, dark = size
    driver = browser(width=width, height=height, dark=dark)
    sign_in(driver, demo_shop, ADMIN[0], ADMIN[1])
    for screen, path in SCREENS:
        driver.get(demo_shop.url(path))
        wait_idle(driver)
        title = driver.find_element(By.ID, "page-title").text
        assert title and "Not found" not in driver.find_element(By.TAG_NAME, "main").text, f"{screen} at {name}"
        assert no_horizontal_scroll(driver), f"{screen} scrolls sideways at {width} px"
        if width < 768:
            assert driver.find_element(By.CSS_SELECTOR, ".tabbar").is_displayed()
        else:
            assert driver.find_element(By.CSS_SELECTOR, ".sidebar").is_displayed()
        screenshot(driver, f"{screen}-{name}-{width}x{height}")
        assert contrast_failures(driver) == [], f"{screen} at {name}: text below WCAG AA contrast"
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert errors == [], f"{screen} at {name}: {errors}"
