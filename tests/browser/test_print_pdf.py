"""Exports people can use (issue 14, point 7): each report as the server's CSV from the Reports screen, and reports
and receipts as PDF through the print stylesheets — printed by Chromium itself (`Page.printToPDF`, what "Save as
PDF" does) and read back with `pdftotext`, so the figures on paper are checked against the server's."""
import base64
import csv
import io
import pathlib
import subprocess

import pytest
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, fully_visible, no_horizontal_scroll, unique, wait, wait_for, wait_idle, wait_path

SIZES = {"phone": (375, 812), "tablet": (768, 1024), "desktop": (1280, 900)}


def pdf_text(driver, name, **options):
    """Prints the page as Chromium's "Save as PDF" does and returns the PDF's text (pdftotext -layout)."""
    printed = driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": False, "preferCSSPageSize": True, **options})
    folder = ARTIFACTS / "pdf"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.pdf"
    path.write_bytes(base64.b64decode(printed["data"]))
    assert path.read_bytes().startswith(b"%PDF-")
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout


def fetch_text(driver, url):
    """GETs `url` from the page, with its session, as the download link does; answers (status, text)."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], { credentials: "same-origin" }).then(async (r) => done([r.status, await r.text()]), (e) => done([0, String(e)]));
    """, url)


@pytest.fixture(scope="module")
def sold(shop):
    """A product bought at 1.25 and sold today three times (1, 2 and 4 units at 3.00)."""
    name = unique("Printed tea")
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "3.00", "taxRate": "0"})
    shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": "40", "unitCost": "1.25"}]})
    sales = [shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": str(n)}]}) for n in (1, 2, 4)]
    return product, sales


@pytest.mark.parametrize("size", SIZES)
def test_each_report_downloads_as_the_servers_csv(shop, sold, signed_in, size):
    product, _ = sold
    driver = signed_in(shop, role="manager", width=SIZES[size][0], height=SIZES[size][1])
    driver.get(shop.url("/app/reports"))
    wait_idle(driver)
    wait_for(driver, "#daily-table")
    day_from = driver.find_element(By.ID, "daily-from").get_attribute("value")
    day_to = driver.find_element(By.ID, "daily-to").get_attribute("value")
    for link_id, expected in [
        ("daily-csv", f"/api/v1/reports/daily.csv?from={day_from}&to={day_to}"),
        ("top-csv", None), ("valuation-csv", "/api/v1/reports/valuation.csv"), ("snapshot-csv", None),
    ]:
        link = driver.find_element(By.ID, link_id)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        assert fully_visible(driver, link), f"{link_id} is not in view at {size}"
        href = link.get_attribute("href")
        if expected:
            assert href == shop.url(expected), href
        status, text = fetch_text(driver, href)
        assert status == 200, text
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0], text
        if link_id == "daily-csv":
            # The file's rows are the table's: one a day, the server's revenue and profit.
            days = shop.api("GET", f"/api/v1/reports/daily?from={day_from}&to={day_to}")
            assert [(r[0], r[2], r[8]) for r in rows[1:]] == [(d["date"], d["revenue"], d["profit"]) for d in days]
        if link_id == "top-csv":
            assert any(r[1] == str(product["id"]) and r[3] == "7" and r[4] == "21.00" for r in rows[1:]), text
        if link_id == "valuation-csv":
            served = shop.api("GET", "/api/v1/reports/valuation")
            assert sorted(r[3] for r in rows[1:]) == sorted(v["value"] for v in served)
    assert no_horizontal_scroll(driver)
    # Another range: the link follows what the table shows.
    today_chip = driver.find_element(By.CSS_SELECTOR, '#daily-form [data-range="0"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", today_chip)
    today_chip.click()
    wait(driver, lambda d: d.find_element(By.ID, "daily-from").get_attribute("value") == d.find_element(By.ID, "daily-to").get_attribute("value"))
    wait_idle(driver)
    today = driver.find_element(By.ID, "daily-to").get_attribute("value")
    wait(driver, lambda d: d.find_element(By.ID, "daily-csv").get_attribute("href").endswith(f"from={today}&to={today}"))


def test_reports_print_to_pdf_with_the_servers_figures_and_no_menus(shop, sold, signed_in):
    product, _ = sold
    driver = signed_in(shop, role="manager", width=1280, height=900)
    driver.get(shop.url("/app/reports"))
    wait_idle(driver)
    wait_for(driver, "#daily-table")
    wait_for(driver, "#valuation-table")
    text = pdf_text(driver, "reports", paperWidth=8.27, paperHeight=11.69)
    words = " ".join(text.split())
    day_from = driver.find_element(By.ID, "daily-from").get_attribute("value")
    day_to = driver.find_element(By.ID, "daily-to").get_attribute("value")
    total = shop.api("GET", f"/api/v1/reports/daily/total?from={day_from}&to={day_to}")
    shown_revenue = driver.find_element(By.CSS_SELECTOR, "#daily-totals .stat .value").text
    # On paper: the title, the range, the totals the server computed, the product among the best sellers.
    assert "reports printed" in words, words[:400]
    assert f"{day_from} – {day_to}" in words
    assert total["revenue"] in shown_revenue and shown_revenue in words, (shown_revenue, words[:600])
    assert product["name"] in words
    valuation = shop.api("GET", "/api/v1/reports/valuation")
    for category in valuation:
        assert category["value"] in words
    # Not on paper: the menus, the forms, the download buttons.
    for screen_only in ["Sign out", "CSV export", "Quick ranges", "Print / Save as PDF"]:
        assert screen_only not in text, f"{screen_only!r} printed"


def test_a_receipt_prints_to_pdf_as_the_sale_was_booked(shop, sold, signed_in):
    _, sales = sold
    sale = sales[-1]
    driver = signed_in(shop, role="staff", width=1280, height=900)
    driver.get(shop.url(f"/app/receipt/{sale['id']}"))
    wait_idle(driver)
    wait_for(driver, "#receipt-total")
    text = pdf_text(driver, "receipt")
    words = " ".join(text.split())
    total_shown = driver.find_element(By.ID, "receipt-total").text
    assert sale["total"] in total_shown
    assert " ".join(total_shown.split()) in words, (total_shown, words)
    assert f"Receipt no. {sale['receiptNumber']}" in words
    for screen_only in ["New sale", "80 mm", "Sign out"]:
        assert screen_only not in text, f"{screen_only!r} printed"
    # The 80 mm paper: one narrow page.
    pages = subprocess.run(["pdfinfo", str(ARTIFACTS / "pdf" / "receipt.pdf")], check=True, capture_output=True, text=True).stdout
    width = next(line for line in pages.splitlines() if line.startswith("Page size:")).split()[2]
    assert float(width) < 300, pages   # 80 mm is about 227 points; A4 would be 595
