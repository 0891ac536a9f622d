"""What held up under the same probing stays tested: roles on routes, CSRF on cookie writes, setup once, the lockout's
first wait, CSV formula neutralising, path traversal refused, body and header limits, 1,000 idle connections."""
import json
import socket
import time

import pytest

from conftest import ADMIN, MANAGER, STAFF, Session, fresh_address, unchanged

FORBIDDEN = {
    "staff": [("GET", "/api/v1/users"), ("POST", "/api/v1/users"), ("PUT", "/api/v1/settings"), ("GET", "/api/v1/backup"),
              ("POST", "/api/v1/restore"), ("POST", "/api/v1/tokens"), ("GET", "/api/v1/audit"), ("GET", "/api/v1/reports/valuation"),
              ("POST", "/api/v1/purchases"), ("DELETE", "/api/v1/sales/1"), ("POST", "/api/v1/import/products")],
    "manager": [("GET", "/api/v1/users"), ("GET", "/api/v1/backup"), ("POST", "/api/v1/restore"), ("POST", "/api/v1/tokens"),
                ("GET", "/api/v1/audit"), ("PUT", "/api/v1/settings"), ("DELETE", "/api/v1/sales/1")],
}


def test_roles_on_routes(shop):
    credentials = {}
    for role, (name, password, _) in (("staff", STAFF), ("manager", MANAGER)):
        credentials[f"{role} session"] = (role, shop.session(name, password))
        credentials[f"{role} token"] = (role, shop.mint_token(f"{role} token", user_id=shop.users[name]))
    wrong = []
    with unchanged(shop, audit=True):
        for label, (role, auth) in credentials.items():
            for method, path in FORBIDDEN[role]:
                body = b"{}" if method in ("POST", "PUT") else None
                reply = shop.call(method, path, body=body, content_type="application/json" if body else None, auth=auth)
                if reply.status != 403:
                    wrong.append(f"{label}: {method} {path} -> {reply.status}")
                anonymous = shop.call(method, path, body=body, content_type="application/json" if body else None, auth="anonymous")
                if anonymous.status != 401:
                    wrong.append(f"anonymous: {method} {path} -> {anonymous.status}")
    assert not wrong, "\n".join(wrong)
    assert shop.call("GET", "/api/v1/products", auth=credentials["staff token"][1]).status == 200


def test_csrf_token_required_on_cookie_writes(shop):
    admin = shop.session(ADMIN[0], ADMIN[1])
    settings = shop.ok("GET", "/api/v1/settings")
    changed = dict(settings, shopName="Changed without CSRF")
    answers = {}
    with unchanged(shop):
        for name, token in [("no token", None), ("wrong token", "x" * 43), ("another session's token", shop.admin_session.csrf)]:
            headers = {"Cookie": admin.cookie, "Content-Type": "application/json"}
            if token:
                headers["X-CSRF-Token"] = token
            answers[name] = shop.request("PUT", "/api/v1/settings", body=json.dumps(changed).encode(), headers=headers).status
    print(f"\ncookie writes without the session's CSRF token: {answers}")
    assert all(status == 403 for status in answers.values()), answers
    assert shop.call("PUT", "/api/v1/settings", settings, auth=admin).status == 200


def test_setup_only_once(shop):
    with unchanged(shop, audit=True):
        for body in ({"username": "second-admin", "password": "second-password-1"}, {"username": ADMIN[0], "password": "other-password-1"}):
            reply = shop.call("POST", "/api/v1/auth/setup", body, auth="anonymous", source=fresh_address())
            assert reply.status in (403, 409) and reply.cookie is None, f"a second setup: {reply!r}"
    assert shop.login(ADMIN[0], ADMIN[1]).status == 200


def test_lockout_first_wait(shop):
    shop.create_user("locked-clerk", "locked-clerk-password-1")
    address = fresh_address()
    statuses = [shop.login("locked-clerk", f"wrong-{i}", source=address).status for i in range(4)]
    right_too_soon = shop.login("locked-clerk", "locked-clerk-password-1", source=fresh_address())
    print(f"\nfour wrong passwords: {statuses}; the right one at once -> {right_too_soon.status}")
    assert statuses == [401, 401, 401, 429], statuses
    assert right_too_soon.status == 429 and right_too_soon.json()["code"] == "slowDown", right_too_soon
    time.sleep(2.2)
    assert shop.login("locked-clerk", "locked-clerk-password-1", source=fresh_address()).status == 200


def test_csv_export_neutralises_formulas(shop):
    name = "=HYPERLINK(\"http://evil.example\",\"x\")"
    shop.ok("POST", "/api/v1/products", {"name": name, "sku": "@SUM(A1)"})
    text = shop.call("GET", "/api/v1/export/products").body.decode()
    line = next(l for l in text.splitlines() if "HYPERLINK" in l)
    print(f"\nexported: {line[:80]}")
    assert "'=HYPERLINK" in line and "'@SUM(A1)" in line, line


@pytest.mark.parametrize("target", [
    "/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2f..%2fetc%2fpasswd",
    "/static/....//....//etc/passwd", "/static/%252e%252e/%252e%252e/etc/passwd", "/static/..\\..\\..\\etc\\passwd",
    "/images/../stockroom.sqlite", "/images/..%2fstockroom.sqlite", "/images/%2e%2e%2fstockroom.sqlite",
    "/images/..%252fstockroom.sqlite", "/static/css/../../../stockroom.sqlite", "/static/%00../../etc/passwd",
])
def test_path_traversal_refused(shop, target):
    reply = shop.call("GET", target, auth="anonymous")
    assert reply.status in (400, 403, 404), f"GET {target} -> {reply!r}"
    assert b"root:" not in reply.body and b"SQLite format" not in reply.body, f"GET {target} served a file outside the web folder"


def test_oversized_bodies_refused(shop):
    big = b'{"name":"' + b"x" * (6 << 20) + b'"}'
    with unchanged(shop):
        products = shop.call("POST", "/api/v1/products", body=big, content_type="application/json")
        imported = shop.call("POST", "/api/v1/import/products", body=b"name\r\n" + b"y" * (21 << 20), content_type="text/csv")
        picture = shop.call("PUT", f"/api/v1/products/{shop.product_ids[0]}/image", body=b"\x89PNG" + b"\x00" * (6 << 20), content_type="image/png")
    print(f"\n6 MiB product -> {products.status}, 21 MiB import -> {imported.status}, 6 MiB picture -> {picture.status}")
    assert products.status == 413, products
    assert imported.status == 413, imported
    assert picture.status in (413, 422), picture


def test_oversized_header_refused(shop):
    sock = socket.create_connection(("127.0.0.1", shop.port), timeout=10, source_address=(fresh_address(), 0))
    try:
        sock.sendall(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{shop.port}\r\nX-Big: {'a' * (256 << 10)}\r\n\r\n".encode())
        answer = sock.recv(200)
    except OSError:
        answer = b""
    finally:
        sock.close()
    print(f"\n256 KiB header -> {answer[:40]!r}")
    assert not answer.startswith(b"HTTP/1.1 200"), "a 256 KiB header was accepted"
    assert shop.request("GET", "/health").status == 200


def test_thousand_idle_connections_do_not_stop_health(shop):
    sockets = []
    try:
        for _ in range(1000):
            try:
                sockets.append(socket.create_connection(("127.0.0.1", shop.port), timeout=2, source_address=("127.0.0.1", 0)))
            except OSError:
                break
        start = time.monotonic()
        reply = shop.request("GET", "/health", timeout=5, source="127.0.0.2")
        elapsed = time.monotonic() - start
        print(f"\n{len(sockets)} idle connections from 127.0.0.1: /health from 127.0.0.2 -> {reply.status} in {elapsed:.2f} s")
        assert reply.status == 200 and elapsed < 2, (reply, elapsed)
    finally:
        for sock in sockets:
            sock.close()
    assert shop.alive()
