"""Live screens after the event stream drops: the server replays nothing a dropped stream missed, so a screen that
reconnects reads again what it shows. Here the server is stopped, a sale is booked on its data folder by the
command line while no stream can hear of it, and the server is started again on the same port."""
from selenium.webdriver.common.by import By

from conftest import unique, wait

NOTE = "booked while the server was down"


def notes(driver):
    """The notes of the sales the list shows."""
    return [note.text for note in driver.find_elements(By.CSS_SELECTOR, "#doc-list .doc-note")]


def test_screens_read_again_what_they_missed_while_the_stream_was_down(shop, signed_in):
    product = shop.api("POST", "/api/v1/products", {"name": unique("Reconnect tea"), "salePrice": "2.50"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "10", "unitCost": "1.00"}]})

    detail = signed_in(shop, "admin", width=1024, height=768)
    detail.get(shop.url(f"/app/products/{product['id']}"))
    wait(detail, lambda d: "10 pcs" in d.find_element(By.ID, "pd-figures").text)
    sales = signed_in(shop, "admin", width=1024, height=768)
    sales.get(shop.url("/app/sales"))
    for driver in (detail, sales):
        wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "open")
    assert not notes(sales)

    def sell_while_down():
        for driver in (detail, sales):
            wait(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "dropped")
        shop.cli("sale", "add", "--line", f"{product['id']}:3", "--note", NOTE)

    shop.restart(while_down=sell_while_down)
    assert shop.api("GET", f"/api/v1/products/{product['id']}")["quantity"] == "7"

    # The browser reconnects by itself (EventSource retries) and each screen reads its figures again.
    wait(detail, lambda d: "7 pcs" in d.find_element(By.ID, "pd-figures").text, timeout=20)
    assert "10 pcs" not in detail.find_element(By.ID, "pd-figures").text
    wait(sales, lambda d: notes(d) == [NOTE], timeout=20)
    for driver in (detail, sales):
        assert driver.find_element(By.TAG_NAME, "body").get_attribute("data-live") == "open"
