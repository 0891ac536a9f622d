"""Alerts that reach people (issue 14, point 3) at phone, tablet and desktop sizes: a manager turns alerts on under More
(the browser asks for permission on that tap), and what the server raises — a product gone low, a cash difference at
close — is shown as a system notification through the service worker, with the server's own title and figures."""
import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By

from conftest import screenshot, unique, wait, wait_for, wait_idle
from test_staff_privacy import SIZES, click, seen

NOTIFICATIONS = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready
  .then((r) => r.getNotifications())
  .then((list) => done(list.map((n) => ({ title: n.title, body: n.body, url: n.data && n.data.url }))))
  .catch((e) => done([{ error: String(e) }]));
"""


def notifications(driver):
    return driver.execute_async_script(NOTIFICATIONS)


def in_page(driver, method, path, body=None):
    """Calls the API from the page (the signed-in manager's session and CSRF token)."""
    return driver.execute_async_script("""
        const [method, path, body, done] = arguments;
        import("/static/js/app.js").then(({ api }) => api(method, path, body)).then(done, (e) => done({ error: String(e) }));
    """, method, path, body)


@pytest.mark.parametrize("size", SIZES)
def test_a_manager_turns_alerts_on_and_sees_the_servers_figures_as_notifications(shop, signed_in, size):
    driver = signed_in(shop, role="manager", width=SIZES[size][0], height=SIZES[size][1])
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": shop.base, "permissions": ["notifications"]})
    in_page(driver, "PUT", "/api/v1/auth/me/alerts", {"enabled": False})
    driver.get(shop.url("/app/more"))
    wait_idle(driver)
    toggle = wait_for(driver, "#alerts-toggle")
    assert seen(driver, toggle)
    assert toggle.get_attribute("aria-pressed") == "false"
    click(driver, toggle)
    wait(driver, lambda d: d.find_element(By.ID, "alerts-toggle").get_attribute("aria-pressed") == "true")
    assert in_page(driver, "GET", "/api/v1/auth/me/alerts") == {"enabled": True}
    # The service worker is registered at the root and controls the app.
    assert driver.execute_async_script("const done = arguments[0]; navigator.serviceWorker.ready.then((r) => done(r.scope), () => done(''))") \
        == shop.base + "/"

    # Any screen listens once alerts are on: go to Home and let a sale elsewhere take a product under its threshold.
    driver.get(shop.url("/app/home"))
    wait_idle(driver)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.alertsListening") == "true")
    name = unique("Oat milk")
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "2.50", "lowStockThreshold": "5"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "10", "unitCost": "1.00"}]})
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "7"}]})
    entry = next(e for e in in_page(driver, "GET", "/api/v1/activity?kind=lowStock")["entries"] if e["record"]["id"] == product["id"])
    figures = entry["figures"]
    try:
        wait(driver, lambda d: any(n.get("title") == f"Low stock: {name}" for n in notifications(d)), timeout=15)
    except TimeoutException:
        # Failed twice in CI (2026-12-01, tablet, then desktop; not reproduced in 20 runs): say what the page and the
        # server saw, and what became of the last alert the page received (`data-last-alert`: none means none came).
        page_state = driver.execute_script(
            "return {live: document.body.dataset.live, listening: document.body.dataset.alertsListening, "
            "permission: window.Notification && Notification.permission, lastAlert: document.body.dataset.lastAlert}")
        log = (shop.data / "server.log").read_text(errors="replace")[-4000:]
        raise AssertionError(f"no notification for {name}: page {page_state}, notifications {notifications(driver)},"
                             f" the server's log ends:\n{log}") from None
    shown = next(n for n in notifications(driver) if n.get("title") == f"Low stock: {name}")
    assert shown["body"] == f"{figures['stock']} left, threshold {figures['threshold']}" == "3 left, threshold 5"
    assert shown["url"] == f"/app/products/{product['id']}"
    screenshot(driver, f"alerts-on-{size}")
    in_page(driver, "PUT", "/api/v1/auth/me/alerts", {"enabled": False})


def test_a_cash_difference_at_close_is_a_notification(shop, signed_in):
    driver = signed_in(shop, role="manager", width=1280, height=800)
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": shop.base, "permissions": ["notifications"]})
    assert in_page(driver, "PUT", "/api/v1/auth/me/alerts", {"enabled": True}) == {"enabled": True}
    driver.get(shop.url("/app/home"))
    wait_idle(driver)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.alertsListening") == "true")
    try:
        shop.api("POST", "/api/v1/drawer/close", {"countedCash": "0.00"})
    except Exception:
        pass
    shop.api("POST", "/api/v1/drawer/open", {"openingFloat": "100.00"})
    shop.api("POST", "/api/v1/drawer/close", {"countedCash": "97.50"})
    entry = in_page(driver, "GET", "/api/v1/activity?kind=alerts&limit=1")["entries"][0]
    assert entry["kind"] == "drawerClosed" and entry["figures"]["difference"] == "-2.50"
    wait(driver, lambda d: any(n.get("body") == entry["sentence"] for n in notifications(d)), timeout=15)
    shown = next(n for n in notifications(driver) if n.get("body") == entry["sentence"])
    assert shown["title"] == "Cash difference at close" and shown["url"] == "/app/drawer"
    assert entry["sentence"].endswith("counted €97.50, expected €100.00, €2.50 short")
    in_page(driver, "PUT", "/api/v1/auth/me/alerts", {"enabled": False})


def test_staff_have_no_alerts_toggle(shop, signed_in):
    driver = signed_in(shop, role="staff", width=375, height=812)
    driver.get(shop.url("/app/more"))
    wait_idle(driver)
    assert not driver.find_elements(By.ID, "alerts-toggle")
    assert in_page(driver, "PUT", "/api/v1/auth/me/alerts", {"enabled": True}).get("error")
