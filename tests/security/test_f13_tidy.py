"""Finding 13 (info): tidying.

/api/public/get builds picture URLs from the configured public URL (else the listening address, https under TLS), never
from the client's Host header; the database, its WAL and the backup files the server writes are 0600; a NUL byte in
an imported CSV is refused naming the row and column with nothing imported; an admin minting a token for another user
is in the audit log."""
import os
import socket
import stat
import threading
import time

import pytest

from conftest import ON_POSTGRES, STAFF, Server, multipart, png, unchanged

EVIL_HEADERS = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https", "Forwarded": "host=evil.example;proto=https"}


def public_images(server):
    body, ctype = multipart({"product_name": "Pictured", "product_type": "Food", "price": "1.00", "tax": "7"},
                            [("files[]", "p.png", "image/png", png(16, 16, seed=server.port % 200))])
    added = server.call("POST", "/api/public/add", body=body, content_type=ctype, auth="anonymous", host="evil.example",
                        headers=EVIL_HEADERS)
    assert added.status == 200 and added.json()["success"], added
    listed = server.call("GET", "/api/public/get", auth="anonymous", host="evil.example", headers=EVIL_HEADERS)
    assert listed.status == 200, listed
    urls = [item["image"] for item in listed.json() if item["image"]] + [added.json()["product_details"]["image"]]
    assert urls, "no picture URL to check"
    return urls


@pytest.mark.parametrize("kind", ["listening address", "--public-url", "TLS"])
def test_public_picture_urls_ignore_the_host_header(kind):
    options = {"listening address": {}, "--public-url": {"public_url": "https://shop.example"}, "TLS": {"tls": True}}[kind]
    server = Server(public_api=True, **options)
    try:
        expected = {"listening address": f"http://127.0.0.1:{server.port}/images/", "--public-url": "https://shop.example/images/",
                    "TLS": f"https://127.0.0.1:{server.port}/images/"}[kind]
        urls = public_images(server)
        print(f"\n{kind}: picture URLs with Host: evil.example -> {sorted(set(urls))}")
        for url in urls:
            assert "evil.example" not in url, f"a picture URL was built from the Host header: {url}"
            assert url.startswith(expected), f"picture URL {url} does not start with {expected}"
    finally:
        server.cleanup()


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_database_wal_and_backups_are_private(shop):
    seen = {}
    stop = threading.Event()

    def watch():
        while not stop.is_set():
            try:
                for entry in os.scandir(shop.data):
                    if entry.name.startswith(".") and entry.name not in seen:
                        try:
                            seen[entry.name] = mode(entry.path)
                        except FileNotFoundError:
                            pass
            except FileNotFoundError:
                pass

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        shop.ok("POST", "/api/v1/categories", {"name": "Mode check"})
        for _ in range(5):
            backup = shop.call("GET", "/api/v1/backup")
            assert backup.status == 200, backup
        # A restore upload held half-way, so its scratch file can be looked at.
        body = backup.body
        sock = socket.create_connection(("127.0.0.1", shop.port), timeout=30)
        sock.sendall((f"POST /api/v1/restore HTTP/1.1\r\nHost: 127.0.0.1:{shop.port}\r\nAuthorization: Bearer {shop.admin.token}\r\n"
                      f"Content-Type: application/vnd.sqlite3\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode())
        sock.sendall(body[: len(body) // 2])
        time.sleep(0.7)
        sock.sendall(body[len(body) // 2:])
        answer = b""
        while True:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
        sock.close()
    finally:
        stop.set()
        watcher.join()
    status_line = answer.split(b"\r\n", 1)[0]
    files = {name: mode(shop.data / name) for name in ("stockroom.sqlite", "stockroom.sqlite-wal", "stockroom.sqlite-shm")
             if (shop.data / name).exists()}
    print(f"\nfile modes: {({k: oct(v) for k, v in files.items()})}; scratch backups seen: {({k: oct(v) for k, v in seen.items()})}; "
          f"restore -> {status_line!r}")
    if not ON_POSTGRES:  # on PostgreSQL the data folder holds no database, only the scratch and backup files
        assert "stockroom.sqlite" in files and "stockroom.sqlite-wal" in files, f"database or WAL missing: {sorted(os.listdir(shop.data))}"
        for name in ("stockroom.sqlite", "stockroom.sqlite-wal"):
            assert files[name] & 0o077 == 0, f"{name} is {oct(files[name])}, not 0600"
    for name, value in seen.items():
        assert value & 0o077 == 0, f"the server wrote backup file {name} as {oct(value)}"
    assert any(name.startswith(".upload") for name in seen), f"the half-sent restore's upload file was not seen: {seen}"


@pytest.mark.parametrize("column", ["name", "sku"])
def test_nul_byte_in_csv_import_refused_naming_row_and_column(shop, column):
    fine = f"Fine product {column}"
    names = [fine, "Bad\x00product"] if column == "name" else [fine, "Bad product"]
    skus = [f"FINE-{column}", "BAD\x00-2"] if column == "sku" else [f"FINE-{column}", "BAD-2"]
    csv = f"name,sku,sale_price\r\n{names[0]},{skus[0]},1.00\r\n{names[1]},{skus[1]},2.00\r\n"
    with unchanged(shop):
        reply = shop.call("POST", "/api/v1/import/products", body=csv.encode(), content_type="text/csv")
        print(f"\nCSV import with NUL in {column} of line 3 -> {reply.status} {reply.body[:200]!r}")
    assert reply.status == 422, f"a NUL byte in {column} was not refused: {reply!r}"
    errors = reply.json().get("errors", [])
    assert any(e.get("line") == 3 and e.get("field") == column for e in errors), f"the refusal does not name line 3, column {column}: {errors}"
    assert not any(p["name"] == fine for p in shop.ok("GET", "/api/v1/products?limit=500")["items"]), "a row was imported"


def test_token_minted_for_another_user_is_audited(shop):
    before = {entry["id"] for entry in shop.audit()}
    staff_id = shop.users[STAFF[0]]
    minted = shop.call("POST", "/api/v1/tokens", {"name": "for staff", "userId": staff_id})
    assert minted.status == 201 and minted.json()["userId"] == staff_id, minted
    new = [entry for entry in shop.audit() if entry["id"] not in before]
    print(f"\naudit after minting a token for staff: {new}")
    assert any(STAFF[0] in entry["detail"] and "token" in (entry["action"] + entry["detail"]).lower() for entry in new), \
        f"minting a token for {STAFF[0]} is not in the audit log: {new}"
