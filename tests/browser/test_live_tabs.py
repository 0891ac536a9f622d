"""Many tabs, one live stream. A browser opens at most six HTTP/1.1 connections to one server across all its tabs, and a
live stream holds one for as long as it is open: with a stream in every tab, the seventh tab of a shop's screens (or the
first request of any tab once six were open) waited for ever. The tabs of one browser now share one stream: one tab
holds it and hands its events to the others; when that tab closes, another takes it over and the screens read again
what they show."""
from selenium.webdriver.common.by import By

from conftest import unique, wait, wait_idle
from test_alerts import COUNT_STREAMS, in_page, open_streams

NOTE_FIRST = "sold while eight tabs were open"
NOTE_SECOND = "sold after the first tab closed"


def open_tab(driver, url):
    """A new tab on `url`, its EventSources counted (`window.__streams`)."""
    driver.switch_to.new_window("tab")
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_STREAMS})
    driver.get(url)
    wait_idle(driver, timeout=20)
    return driver.current_window_handle


def live_state(driver, tab):
    driver.switch_to.window(tab)
    return driver.execute_script("return document.body.dataset.live")


def streams_in(driver, tabs):
    found = []
    for tab in tabs:
        driver.switch_to.window(tab)
        found += open_streams(driver)
    return found


def sale_notes(driver, tab):
    driver.switch_to.window(tab)
    return [note.text for note in driver.find_elements(By.CSS_SELECTOR, "#doc-list .doc-note")]


def figures(driver, tab):
    driver.switch_to.window(tab)
    return driver.find_element(By.ID, "pd-figures").text


def test_eight_tabs_share_one_stream_and_a_closed_tab_hands_it_on(shop, signed_in):
    name = unique("Eight tabs tea")
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "2.50", "lowStockThreshold": "5"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "10", "unitCost": "1.00"}]})

    driver = signed_in(shop, role="admin", width=1280, height=800)
    first = driver.current_window_handle
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_STREAMS})
    driver.get(shop.url("/app/pos"))
    wait_idle(driver)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.live") == "open")
    tabs = [first]
    # Seven more screens that listen: with a stream each, the sixth would hold the last free connection and the
    # seventh could not even load its figures (wait_idle would time out).
    for path in ["/app/sales", "/app/home", f"/app/products/{product['id']}", "/app/pos", "/app/activity",
                 "/app/sales", "/app/home"]:
        tabs.append(open_tab(driver, shop.url(path)))
    sales, home, detail = tabs[1], tabs[2], tabs[3]
    for tab in tabs:
        wait(driver, lambda d: live_state(d, tab) == "open", timeout=15)
    assert streams_in(driver, tabs) == [shop.url("/api/v1/events")]
    # Every tab can still reach the server, the last one too.
    driver.switch_to.window(tabs[-1])
    assert in_page(driver, "GET", f"/api/v1/products/{product['id']}")["quantity"] == "10"
    assert "10 pcs" in figures(driver, detail)

    # A sale reaches the screens of tabs that do not hold the stream, through the one that does.
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "6"}], "note": NOTE_FIRST})
    wait(driver, lambda d: "4 pcs" in figures(d, detail), timeout=15)
    wait(driver, lambda d: NOTE_FIRST in sale_notes(d, sales), timeout=15)
    wait(driver, lambda d: NOTE_FIRST in sale_notes(d, tabs[6]), timeout=15)
    driver.switch_to.window(home)
    wait(driver, lambda d: name in d.find_element(By.ID, "low-stock-list").text, timeout=15)

    # The tab that holds the stream closes: another tab takes it over, and the screens still follow the shop.
    driver.switch_to.window(first)
    driver.close()
    tabs.remove(first)
    wait(driver, lambda d: len(streams_in(d, tabs)) == 1, timeout=15)
    for tab in tabs:
        wait(driver, lambda d: live_state(d, tab) == "open", timeout=15)
    shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "1"}], "note": NOTE_SECOND})
    wait(driver, lambda d: "3 pcs" in figures(d, detail), timeout=15)
    wait(driver, lambda d: NOTE_SECOND in sale_notes(d, sales), timeout=15)
    assert streams_in(driver, tabs) == [shop.url("/api/v1/events")]
