"""Admin screens: reports & CSV export, product import (dry run first), settings, users, backup/restore."""
import csv
import datetime
from decimal import ROUND_HALF_UP, Decimal
import io
import json
import pathlib
import tempfile
import zoneinfo

import pytest
from selenium.webdriver.common.by import By

from conftest import (ADMIN, PASSWORDS, ApiError, Shop, contrast_failures, fully_visible, no_horizontal_scroll, screenshot, sign_in, unique,
                      wait, wait_for, wait_idle)


def click(driver, element):
    """Scrolls the element to the middle of the screen (clear of the sticky bars) and clicks it."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def euro(amount):
    """An exact Decimal the way the page shows it: "€1,234.50", "−€0.40"."""
    return ("−" if amount < 0 else "") + f"€{abs(amount):,.2f}"


def product_count(shop):
    return shop.api("GET", "/api/v1/products?archived=true&limit=1")["total"]


def test_products_csv_export_downloads_rows_matching_the_books(shop, browser):
    tag = unique("Export").replace(" ", "-")
    made = []
    for index, (cost, quantity) in enumerate((("1.25", "12"), ("3.10", "4.5"))):
        product = shop.api("POST", "/api/v1/products", {"name": f"{tag} item {index}", "sku": f"{tag}-{index}", "salePrice": "9.90"})
        shop.api("POST", "/api/v1/purchases", {"lines": [{"productId": product["id"], "quantity": quantity, "unitCost": cost}]})
        made.append(shop.api("GET", f"/api/v1/products/{product['id']}"))

    downloads = pathlib.Path(tempfile.mkdtemp(prefix="stockroom-downloads-"))
    driver = browser(width=1024, height=768, downloads=downloads)
    sign_in(driver, shop, ADMIN[0], PASSWORDS["admin"])
    driver.get(shop.url("/app/reports"))
    wait_for(driver, "#daily-table")
    wait_idle(driver)
    link = driver.find_element(By.ID, "export-products")
    assert link.get_attribute("href").endswith("/api/v1/export/products")
    click(driver, link)
    wait(driver, lambda d: [f for f in downloads.glob("*.csv")], timeout=15)
    file = next(downloads.glob("*.csv"))
    rows = {row["sku"]: row for row in csv.DictReader(io.StringIO(file.read_text(encoding="utf-8-sig")))}
    for product in made:
        row = rows[product["sku"]]
        assert row["name"] == product["name"]
        assert row["id"] == str(product["id"])
        assert row["sale_price"] == product["salePrice"] == "9.90"
        assert row["quantity"] == product["quantity"]
        assert row["stock_value"] == product["stockValue"]
        assert row["cost_price"] == product["costPrice"]
    assert rows[made[0]["sku"]]["quantity"] == "12" and rows[made[0]["sku"]]["stock_value"] == "15.00"
    # The rest of the export kinds the API offers are there too.
    for kind in ("movements", "sales", "purchases", "suppliers", "customers"):
        assert driver.find_element(By.ID, f"export-{kind}").get_attribute("href").endswith(f"/api/v1/export/{kind}")


def test_a_sales_export_for_a_date_range_holds_only_those_days_and_a_bad_range_is_named(shop, browser):
    product = shop.api("POST", "/api/v1/products", {"name": unique("Ranged"), "salePrice": "2.00"})
    shop.api("POST", "/api/v1/purchases", {"effectiveAt": "2021-03-01", "lines": [{"productId": product["id"], "quantity": "9", "unitCost": "0.50"}]})
    for day in ("2021-03-01", "2021-03-02", "2021-03-03"):
        shop.api("POST", "/api/v1/sales", {"effectiveAt": f"{day}T12:00", "lines": [{"productId": product["id"], "quantity": "1"}]})
    status, _, expected = shop.api("GET", "/api/v1/export/sales?from=2021-03-02&to=2021-03-03", raw=True)
    assert status == 200
    downloads = pathlib.Path(tempfile.mkdtemp(prefix="stockroom-downloads-"))
    driver = browser(width=375, height=812, downloads=downloads)
    sign_in(driver, shop, ADMIN[0], PASSWORDS["admin"])
    driver.get(shop.url("/app/reports"))
    wait_for(driver, "#daily-table")
    wait_idle(driver)
    driver.execute_script("document.getElementById('export-from').value = '2021-03-02'; document.getElementById('export-to').value = '2021-03-03';")
    click(driver, driver.find_element(By.ID, "export-sales"))
    wait(driver, lambda d: [f for f in downloads.glob("*.csv")], timeout=15)
    file = next(downloads.glob("*.csv"))
    assert file.name == "stockroom-sales-2021-03-02-to-2021-03-03.csv"
    assert file.read_bytes() == expected, "the file is what the server answers for the range"
    days = sorted({row["date"][:10] for row in csv.DictReader(io.StringIO(file.read_text(encoding="utf-8-sig")))})
    assert days == ["2021-03-02", "2021-03-03"]

    driver.execute_script("document.getElementById('export-from').value = '2021-03-03'; document.getElementById('export-to').value = '2021-03-01';")
    click(driver, driver.find_element(By.ID, "export-sales"))
    error = wait_for(driver, "#export-to-error")
    assert "must not be before the start of the range" in error.text
    assert fully_visible(driver, error)
    assert len(list(downloads.glob("*.csv"))) == 1, "nothing downloaded for a refused range"


def test_reports_totals_are_exact_and_print_hides_the_frame(shop, signed_in):
    product = shop.api("POST", "/api/v1/products", {"name": unique("Valued"), "salePrice": "5.00"})
    shop.api("POST", "/api/v1/purchases", {"effectiveAt": "2020-01-01",
                                           "lines": [{"productId": product["id"], "quantity": "3", "unitCost": "0.35"}]})
    # Two small sales on two days: amounts that floating point would not add up exactly (0.1 + 0.2).
    today = datetime.datetime.now(zoneinfo.ZoneInfo(shop.api("GET", "/api/v1/settings")["timeZone"])).date()
    for days_ago, price in ((2, "0.10"), (1, "0.20")):
        day = (today - datetime.timedelta(days=days_ago)).isoformat()
        shop.api("POST", "/api/v1/sales", {"effectiveAt": f"{day}T12:00", "tip": "0.10",
                                           "lines": [{"productId": product["id"], "quantity": "1", "unitPrice": price}]})
    driver = signed_in(shop, "admin", width=375, height=812)
    driver.get(shop.url("/app/reports"))
    wait_for(driver, "#daily-table")
    wait_for(driver, "#valuation-table")
    wait_idle(driver)
    first, last = (driver.find_element(By.ID, name).get_attribute("value") for name in ("daily-from", "daily-to"))
    days = shop.api("GET", f"/api/v1/reports/daily?from={first}&to={last}")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#daily-table tbody tr")) == len(days) == 7
    totals = driver.find_elements(By.CSS_SELECTOR, "#daily-table tfoot td")
    assert totals[0].text == str(sum(d["salesCount"] for d in days))
    assert totals[1].text == euro(sum(Decimal(d["revenue"]) for d in days))
    cards = driver.find_element(By.ID, "daily-totals").text
    assert euro(sum(Decimal(d["tips"]) for d in days)) in cards and euro(sum(Decimal(d["profit"]) for d in days)) in cards
    # The period's figures are the server's own (the average basket over all its sales, rounded once).
    period = shop.api("GET", f"/api/v1/reports/daily/total?from={first}&to={last}")
    count = sum(d["salesCount"] for d in days)
    revenue = sum(Decimal(d["revenue"]) for d in days)
    assert period["salesCount"] == count >= 2
    assert Decimal(period["averageBasket"]) == (revenue / count).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    assert euro(Decimal(period["averageBasket"])) in cards and euro(Decimal(period["revenue"])) in cards
    valuation = shop.api("GET", "/api/v1/reports/valuation")
    total = shop.api("GET", "/api/v1/reports/valuation/total")  # the server's sums, which the totals row shows
    assert Decimal(total["value"]) == sum(Decimal(v["value"]) for v in valuation)
    assert total["productCount"] == sum(v["productCount"] for v in valuation)
    foot = driver.find_element(By.CSS_SELECTOR, "#valuation-table tfoot").text
    assert euro(Decimal(total["value"])) in foot and str(total["productCount"]) in foot
    assert no_horizontal_scroll(driver)
    screenshot(driver, "admin-reports-375")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert not driver.find_element(By.CSS_SELECTOR, ".sidebar").is_displayed()
    assert not driver.find_element(By.CSS_SELECTOR, ".tabbar").is_displayed()
    assert not driver.find_element(By.ID, "daily-form").is_displayed()
    assert driver.find_element(By.ID, "daily-table").is_displayed()
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    # A range that ends before it starts: the server's rule, and its words on the "to" field.
    try:
        shop.api("GET", f"/api/v1/reports/daily?from={first}&to=2020-01-01")
        raise AssertionError("a range ending before it starts was answered")
    except ApiError as error:
        refusal = json.loads(error.body)
    assert refusal["field"] == "to"
    driver.execute_script("document.getElementById('daily-to').value = '2020-01-01'")
    driver.find_element(By.CSS_SELECTOR, "#daily-form button[type=submit]").click()
    assert wait(driver, lambda d: d.find_element(By.ID, "daily-to-error").text) == refusal["detail"]
    assert driver.find_element(By.ID, "daily-to").get_attribute("aria-invalid") == "true"


def test_import_dry_run_lists_bad_rows_and_writes_nothing_then_imports(shop, signed_in):
    driver = signed_in(shop, "admin", width=1024, height=768)
    tag = unique("Imp").replace(" ", "-")
    before = product_count(shop)
    bad = f"name,sku,sale_price,tax_rate\n{tag} good,{tag}-G,2.50,7\n{tag} bad,{tag}-B,abc,7\n"
    path = pathlib.Path(tempfile.mkdtemp()) / "products.csv"
    path.write_text(bad, encoding="utf-8")
    driver.get(shop.url("/app/import"))
    wait_for(driver, "#import-file", visible=False).send_keys(str(path))
    wait(driver, lambda d: d.find_element(By.ID, "import-text").get_attribute("value").startswith("name,sku"))
    driver.find_element(By.ID, "dry-run").click()
    wait_for(driver, "#import-refused")
    errors = driver.find_element(By.ID, "error-table").text
    assert "3" in driver.find_element(By.CSS_SELECTOR, "#error-table tbody tr th").text
    assert "sale_price" in errors and "abc" in errors
    assert driver.find_element(By.ID, "do-import").get_attribute("disabled") is not None
    assert product_count(shop) == before
    screenshot(driver, "admin-import-refused-1024")

    # Fix the bad row in place, check again, then import for real.
    text = driver.find_element(By.ID, "import-text")
    text.clear()
    text.send_keys(bad.replace(",abc,", ",4.75,"))
    driver.find_element(By.ID, "dry-run").click()
    wait_for(driver, "#plan-table")
    assert driver.find_element(By.ID, "count-created").text.endswith("2")
    assert product_count(shop) == before
    button = wait(driver, lambda d: d.find_element(By.ID, "do-import") if d.find_element(By.ID, "do-import").is_enabled() else None)
    click(driver, button)
    wait(driver, lambda d: "Imported" in d.find_element(By.ID, "import-status").text)
    assert product_count(shop) == before + 2
    found = shop.api("GET", f"/api/v1/products?search={tag}")["items"]
    assert {p["sku"]: p["salePrice"] for p in found} == {f"{tag}-G": "2.50", f"{tag}-B": "4.75"}


def test_settings_save_and_refuse_bad_values(shop, signed_in):
    original = shop.api("GET", "/api/v1/settings")
    driver = signed_in(shop, "admin", width=1024, height=768)
    driver.get(shop.url("/app/settings"))
    wait(driver, lambda d: d.find_element(By.ID, "lowStockDefault").get_attribute("value") != "")
    name = unique("Corner Shop")
    field = driver.find_element(By.ID, "shopName")
    field.clear()
    field.send_keys(name)
    # What a setting may be is the domain's rule: the page keeps no copy of it, and each refusal is the server's,
    # on the field it names, with nothing saved.
    lock = driver.find_element(By.ID, "lockMinutes")
    for field_id, typed, sent in (("lockMinutes", "abc", "abc"), ("lockMinutes", "0", 0), ("defaultTaxRate", "150", "150"),
                                  ("lowStockDefault", "-1", "-1"), ("timeZone", "Mars/Olympus_Mons", "Mars/Olympus_Mons")):
        for other, value in (("lockMinutes", str(original["lockMinutes"])), ("defaultTaxRate", original["defaultTaxRate"]),
                             ("lowStockDefault", original["lowStockDefault"]), ("timeZone", original["timeZone"])):
            element = driver.find_element(By.ID, other)
            element.clear()
            element.send_keys(typed if other == field_id else value)
        try:
            shop.api("PUT", "/api/v1/settings", {**original, "shopName": name, field_id: sent})
            raise AssertionError(f"{field_id}={typed!r} was saved")
        except ApiError as error:
            refusal = json.loads(error.body)
        assert refusal["field"] == field_id
        driver.find_element(By.ID, "settings-save").click()
        wait(driver, lambda d: d.find_element(By.ID, field_id).get_attribute("aria-invalid") == "true")
        assert wait_for(driver, f"#{field_id}-error").text == refusal["detail"]
        assert shop.api("GET", "/api/v1/settings") == original
    lock.clear()
    lock.send_keys("12")
    zone = driver.find_element(By.ID, "timeZone")
    zone.clear()
    zone.send_keys(original["timeZone"])
    # The receipt's shop details (issue 12, point 8).
    for field_id, text in (("address", "Hauptstraße 1, 10115 Berlin"), ("taxId", "DE123456789"), ("receiptFooter", "Open daily 7–19")):
        driver.find_element(By.ID, field_id).clear()
        driver.find_element(By.ID, field_id).send_keys(text)
    driver.find_element(By.ID, "settings-save").click()
    wait(driver, lambda d: "Settings saved" in d.find_element(By.ID, "toast").text)
    saved = shop.api("GET", "/api/v1/settings")
    assert saved["shopName"] == name and saved["lockMinutes"] == 12
    assert (saved["address"], saved["taxId"], saved["receiptFooter"]) == ("Hauptstraße 1, 10115 Berlin", "DE123456789", "Open daily 7–19")
    driver.refresh()
    assert wait_for(driver, ".sidebar .brand").text == name
    assert driver.find_element(By.ID, "lockMinutes").get_attribute("value") == "12"
    assert driver.find_element(By.ID, "taxId").get_attribute("value") == "DE123456789"
    # A receipt prints them.
    product = shop.api("POST", "/api/v1/products", {"name": unique("Receipt tea"), "salePrice": "2.00", "tracksStock": False})
    sale = shop.api("POST", "/api/v1/sales", {"lines": [{"productId": product["id"], "quantity": "1"}]})
    driver.get(shop.url(f"/app/receipt/{sale['id']}"))
    assert wait_for(driver, "#receipt-address").text == "Hauptstraße 1, 10115 Berlin"
    assert driver.find_element(By.ID, "receipt-tax-id").text == "Tax ID DE123456789"
    assert driver.find_element(By.ID, "receipt-footer").text == "Open daily 7–19"
    shop.api("PUT", "/api/v1/settings", {**original, "address": "", "taxId": "", "receiptFooter": ""})


def test_users_screen_creates_a_staff_user(shop, signed_in):
    driver = signed_in(shop, "admin", width=375, height=812)
    driver.get(shop.url("/app/users"))
    wait_for(driver, "#user-list [data-user=admin]")
    driver.find_element(By.ID, "new-user").click()
    username = unique("clerk").replace(" ", "_")
    wait_for(driver, "#u-username").send_keys(username)
    driver.find_element(By.ID, "u-displayName").send_keys("Sam Clerk")
    driver.find_element(By.ID, "u-password").send_keys("short")
    driver.find_element(By.ID, "user-save").click()
    assert "8 characters" in wait_for(driver, "#u-password-error").text
    assert not any(u["username"] == username for u in shop.api("GET", "/api/v1/users"))
    driver.find_element(By.ID, "u-password").send_keys("-now-long-enough")
    driver.find_element(By.ID, "u-pin").send_keys("4321")
    # The PIN typed twice: a mismatch is the server's refusal on the second field, and nobody is created.
    driver.find_element(By.ID, "u-pinAgain").send_keys("4312")
    driver.find_element(By.ID, "user-save").click()
    assert "does not match" in wait_for(driver, "#u-pinAgain-error").text
    assert not any(u["username"] == username for u in shop.api("GET", "/api/v1/users"))
    driver.find_element(By.ID, "u-pinAgain").clear()
    driver.find_element(By.ID, "u-pinAgain").send_keys("4321")
    driver.find_element(By.ID, "user-save").click()
    wait_for(driver, f"#user-list [data-user='{username}']")
    user = next(u for u in shop.api("GET", "/api/v1/users") if u["username"] == username)
    assert user["role"] == "staff" and user["displayName"] == "Sam Clerk" and user["hasPIN"] and user["active"]
    assert no_horizontal_scroll(driver)
    screenshot(driver, "admin-users-375")

    # Edit: make them a manager; the API agrees.
    driver.find_element(By.CSS_SELECTOR, f"#user-list [data-user='{username}'] button").click()
    wait_for(driver, "#u-role")
    driver.find_element(By.CSS_SELECTOR, "#u-role option[value=manager]").click()
    driver.find_element(By.ID, "user-save").click()
    wait(driver, lambda d: not d.find_element(By.ID, "user-dialog").is_displayed())
    wait(driver, lambda d: next(u for u in shop.api("GET", "/api/v1/users") if u["username"] == username)["role"] == "manager")


def test_api_token_is_shown_once_and_revoked_after_confirmation(shop, signed_in):
    driver = signed_in(shop, "admin", width=1024, height=768)
    driver.get(shop.url("/app/users?tab=tokens"))
    name = unique("script")
    wait_for(driver, "#token-name").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "#token-form button[type=submit]").click()
    secret = wait_for(driver, "#token-secret").get_attribute("value")
    assert len(secret) > 20
    assert shop.call("GET", "/api/v1/auth/me", headers={"Authorization": "Bearer " + secret})["user"]["username"] == ADMIN[0]
    driver.find_element(By.ID, "token-done").click()
    row = wait(driver, lambda d: next((r for r in d.find_elements(By.CSS_SELECTOR, "#token-table tbody tr") if name in r.text), None))
    row.find_element(By.TAG_NAME, "button").click()
    wait_for(driver, "dialog [data-confirm]").click()
    wait(driver, lambda d: all(t["name"] != name for t in shop.api("GET", "/api/v1/tokens")))
    status, _, _ = shop.call("GET", "/api/v1/auth/me", headers={"Authorization": "Bearer " + secret}, raw=True)
    assert status == 401


def test_audit_log_reads_as_sentences(shop, signed_in):
    """Issue 10, defect 7: each entry is the command's own sentence (who, what, which document, the figures), not
    `METHOD path`; who and when (shop time) beneath."""
    name = unique("Flat white")
    product = shop.api("POST", "/api/v1/products", {"name": name, "salePrice": "2.90"})
    shop.api("PATCH", f"/api/v1/products/{product['id']}", {"salePrice": "3.10"})
    driver = signed_in(shop, "admin", width=375, height=812)
    driver.get(shop.url("/app/users?tab=audit"))
    first = wait_for(driver, "#audit-table li")
    assert first.find_element(By.CSS_SELECTOR, ".title").text == f"{ADMIN[0]} changed the sale price of {name} from €2.90 to €3.10"
    assert first.get_attribute("data-kind") == "productChanged"
    second = driver.find_elements(By.CSS_SELECTOR, "#audit-table li")[1]
    assert second.find_element(By.CSS_SELECTOR, ".title").text == f"{ADMIN[0]} added the product {name} at €2.90"
    assert first.find_element(By.CSS_SELECTOR, ".sub").text.startswith(ADMIN[0] + " · ")
    assert "/api/" not in driver.find_element(By.ID, "audit-table").text
    assert no_horizontal_scroll(driver)


def test_restore_needs_typed_confirmation_refuses_junk_and_replaces_the_data(shop, signed_in):
    driver = signed_in(shop, "admin", width=375, height=812)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="stockroom-backup-"))
    status, _, content = shop.api("GET", "/api/v1/backup", raw=True)
    assert status == 200 and content.startswith(b"PK\x03\x04"), "a backup is a ZIP of the database and the pictures"
    backup = folder / "shop.zip"
    backup.write_bytes(content)
    before = product_count(shop)
    extra = shop.api("POST", "/api/v1/products", {"name": unique("After backup")})
    junk = folder / "notes.sqlite"
    junk.write_text("not a database")

    driver.get(shop.url("/app/backup"))
    assert wait_for(driver, "#backup-download").get_attribute("href").endswith("/api/v1/backup")
    driver.find_element(By.ID, "restore-file").send_keys(str(junk))
    click(driver, driver.find_element(By.ID, "restore-button"))
    assert "not a Stockroom backup" in wait_for(driver, "#restore-file-error").text
    assert product_count(shop) == before + 1

    driver.find_element(By.ID, "restore-file").send_keys(str(backup))
    click(driver, driver.find_element(By.ID, "restore-button"))
    go = wait_for(driver, "#restore-go")
    assert not go.is_enabled()
    driver.find_element(By.ID, "restore-word").send_keys("replace")
    wait(driver, lambda d: go.is_enabled())
    screenshot(driver, "admin-restore-confirm-375")
    go.click()
    assert f"{before} product" in wait_for(driver, "#restore-done", timeout=20).text
    assert product_count(shop) == before
    assert all(p["id"] != extra["id"] for p in shop.api("GET", "/api/v1/products?archived=true&limit=500")["items"])


def kb_or_mb(size):
    """A size as the backup screen writes it."""
    return f"{size / 1048576:.1f} MB" if size >= 1048576 else f"{max(1, round(size / 1024))} KB"


@pytest.mark.parametrize("width,height", [(375, 812), (1024, 768), (1440, 900)], ids=["phone", "tablet", "desktop"])
def test_back_up_now_lists_the_checked_backup_with_the_servers_size(shop, signed_in, width, height):
    driver = signed_in(shop, "admin", width=width, height=height)
    before = {backup["name"] for backup in shop.api("GET", "/api/v1/backups")["backups"]}
    driver.get(shop.url("/app/backup"))
    rule = wait_for(driver, "#kept-rule")
    wait(driver, lambda d: "every day from 00:00" in rule.text)
    assert "newest of each of the last 7 days and 4 weeks" in rule.text
    click(driver, driver.find_element(By.ID, "backup-now"))
    wait(driver, lambda d: {item.get_attribute("data-name") for item in d.find_elements(By.CSS_SELECTOR, "#kept-list [data-name]")} - before)
    listed = shop.api("GET", "/api/v1/backups")["backups"]
    new = [backup for backup in listed if backup["name"] not in before]
    assert len(new) == 1 and new[0]["check"] == "passed" and not new[0]["automatic"]
    item = driver.find_element(By.CSS_SELECTOR, f'#kept-list [data-name="{new[0]["name"]}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", item)
    assert fully_visible(driver, item), "the new backup is on screen"
    badge = item.find_element(By.CSS_SELECTOR, '[data-role="check"]')
    assert badge.text == "Checked" and fully_visible(driver, badge)
    assert item.find_element(By.CSS_SELECTOR, '[data-role="size"]').text == kb_or_mb(new[0]["bytes"])
    assert item.find_element(By.CSS_SELECTOR, '[data-role="detail"]').text == new[0]["detail"]
    assert "taken on request" in item.text and "kept: daily, weekly" in item.text
    download = item.find_element(By.CSS_SELECTOR, "a[download]")
    assert download.get_attribute("href").endswith("/api/v1/backups/" + new[0]["name"]) and fully_visible(driver, download)
    assert no_horizontal_scroll(driver)
    screenshot(driver, f"admin-backups-kept-{width}x{height}")


def test_a_kept_backup_restores_behind_the_typed_confirmation(shop, signed_in):
    driver = signed_in(shop, "admin", width=375, height=812)
    taken = shop.api("POST", "/api/v1/backups")
    assert taken["check"] == "passed"
    before = product_count(shop)
    shop.api("POST", "/api/v1/products", {"name": unique("After the kept backup")})
    assert product_count(shop) == before + 1
    driver.get(shop.url("/app/backup"))
    item = wait_for(driver, f'#kept-list [data-name="{taken["name"]}"]')
    click(driver, item.find_element(By.XPATH, ".//button[starts-with(@aria-label, 'Restore')]"))
    go = wait_for(driver, "#restore-go")
    assert "on this machine" in driver.find_element(By.ID, "restore-name").text
    driver.find_element(By.ID, "restore-cancel").click()
    assert product_count(shop) == before + 1, "cancelled: nothing restored"
    click(driver, item.find_element(By.XPATH, ".//button[starts-with(@aria-label, 'Restore')]"))
    assert not go.is_enabled()
    driver.find_element(By.ID, "restore-word").send_keys("REPLACE")
    wait(driver, lambda d: go.is_enabled())
    go.click()
    done = wait_for(driver, "#restore-done", timeout=20)
    assert f"{before} product" in done.text and fully_visible(driver, done)
    assert product_count(shop) == before


SIZES = [("phone", 375, 812, False), ("phone-dark", 375, 812, True), ("tablet", 1024, 768, False), ("desktop", 1440, 900, False)]
SCREENS = [("reports", "/app/reports", "#valuation-table"), ("settings", "/app/settings", "#lowStockDefault"),
           ("users", "/app/users", "#user-list [data-user]"), ("import", "/app/import", "#dry-run"),
           ("backup", "/app/backup", "#restore-button")]


@pytest.fixture(scope="module")
def demo_shop():
    server = Shop(demo=True)
    server.create_admin()
    yield server
    server.stop()


@pytest.mark.parametrize("size", SIZES, ids=[size[0] for size in SIZES])
def test_admin_screens_at_every_size(demo_shop, browser, size):
    name, width, height, dark = size
    driver = browser(width=width, height=height, dark=dark)
    sign_in(driver, demo_shop, ADMIN[0], PASSWORDS["admin"])
    for screen, path, ready in SCREENS:
        driver.get(demo_shop.url(path))
        wait_for(driver, ready, visible=False)
        wait_idle(driver)
        assert no_horizontal_scroll(driver), f"{screen} scrolls sideways at {width} px"
        screenshot(driver, f"admin-{screen}-{name}-{width}x{height}")
        assert contrast_failures(driver) == [], f"{screen} at {name}: text below WCAG AA contrast"
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert errors == [], f"{screen} at {name}: {errors}"
