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


def last_alert(driver):
    return driver.execute_script("return document.body.dataset.lastAlert || ''")


def shown_notification(shop, driver, matches, before):
    """The notification `matches` picks, once the page says it showed an alert after `before` (its `data-last-alert`
    then). The notifications are read only once the page has shown the alert: asking getNotifications() while the
    notification was still being shown lost it in about one run in four here (showNotification then resolved, and the
    registration listed no notification for good; whatwg/notifications#90 is that race between the two calls), which
    is what failed this test twice in CI. A person looks at the screen after the alert appeared."""
    try:
        wait(driver, lambda d: last_alert(d) != before and last_alert(d).endswith(": shown"), timeout=15)
        return wait(driver, lambda d: next((n for n in notifications(d) if matches(n)), None), timeout=5)
    except TimeoutException:
        page_state = driver.execute_script(
            "return {live: document.body.dataset.live, listening: document.body.dataset.alertsListening, "
            "permission: window.Notification && Notification.permission, lastAlert: document.body.dataset.lastAlert}")
        log = (shop.data / "server.log").read_text(errors="replace")[-4000:]
        raise AssertionError(f"no notification: page {page_state}, notifications {notifications(driver)},"
                             f" the server's log ends:\n{log}") from None


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
    before = last_alert(driver)
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "2.50", "lowStockThreshold": "5"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "10", "unitCost": "1.00"}]})
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "7"}]})
    entry = next(e for e in in_page(driver, "GET", "/api/v1/activity?kind=lowStock")["entries"] if e["record"]["id"] == product["id"])
    figures = entry["figures"]
    shown = shown_notification(shop, driver, lambda n: n.get("title") == f"Low stock: {name}", before)
    assert shown["body"] == f"{figures['stock']} left, threshold {figures['threshold']}" == "3 left, threshold 5"
    assert shown["url"] == f"/app/products/{product['id']}"
    screenshot(driver, f"alerts-on-{size}")
    in_page(driver, "PUT", "/api/v1/auth/me/alerts", {"enabled": False})


COUNT_STREAMS = """
window.__streams = [];
const Native = window.EventSource;
window.EventSource = class extends Native {
  constructor(...args) { super(...args); window.__streams.push(this); }
};
"""


def open_streams(driver):
    return driver.execute_script("return (window.__streams || []).filter((s) => s.readyState !== 2).map((s) => s.url)")


def test_one_event_stream_a_page_carries_the_screen_and_the_alerts(shop, signed_in):
    """A browser opens at most six HTTP/1.1 connections to one server across its tabs, and a stream keeps one for as
    long as the page is open: the screen's live figures and the alerts share the page's one stream."""
    driver = signed_in(shop, role="manager", width=1280, height=800)
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": shop.base, "permissions": ["notifications"]})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_STREAMS})
    assert in_page(driver, "PUT", "/api/v1/auth/me/alerts", {"enabled": True}) == {"enabled": True}
    for path in ["/app/products", "/app/pos", "/app/sales", "/app/home"]:
        driver.get(shop.url(path))
        wait_idle(driver)
        wait(driver, lambda d: d.execute_script("return document.body.dataset.alertsListening") == "true")
        wait(driver, lambda d: d.execute_script("return document.body.dataset.live") == "open")
        assert open_streams(driver) == [shop.url("/api/v1/events")], path
    # On the last screen (Home), the one stream brings both the sale (Home's list of low stock) and the alert.
    name = unique("Shared stream tea")
    before = last_alert(driver)
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "2.50", "lowStockThreshold": "5"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "6", "unitCost": "1.00"}]})
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "2"}]})
    shown_notification(shop, driver, lambda n: n.get("title") == f"Low stock: {name}", before)
    wait(driver, lambda d: name in d.find_element(By.ID, "low-stock-list").text, timeout=15)
    assert len(open_streams(driver)) == 1
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
    before = last_alert(driver)
    shop.api("POST", "/api/v1/drawer/close", {"countedCash": "97.50"})
    entry = in_page(driver, "GET", "/api/v1/activity?kind=alerts&limit=1")["entries"][0]
    assert entry["kind"] == "drawerClosed" and entry["figures"]["difference"] == "-2.50"
    shown = shown_notification(shop, driver, lambda n: n.get("body") == entry["sentence"], before)
    assert shown["title"] == "Cash difference at close" and shown["url"] == "/app/drawer"
    assert entry["sentence"].endswith("counted €97.50, expected €100.00, €2.50 short")
    in_page(driver, "PUT", "/api/v1/auth/me/alerts", {"enabled": False})


def test_staff_have_no_alerts_toggle(shop, signed_in):
    driver = signed_in(shop, role="staff", width=375, height=812)
    driver.get(shop.url("/app/more"))
    wait_idle(driver)
    assert not driver.find_elements(By.ID, "alerts-toggle")
    assert in_page(driver, "PUT", "/api/v1/auth/me/alerts", {"enabled": True}).get("error")
