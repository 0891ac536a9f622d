"""Finding 11 (low): login and setup CSRF (a cross-site text/plain body created the admin or signed a browser in).

JSON is read only when sent as application/json (415 otherwise); browser changes from another site (Origin or
Sec-Fetch-Site) are refused with 403, sign-in and first-run setup included."""
import json

import pytest

from conftest import ADMIN, STAFF, Server, Session, fresh_address, unchanged

SETUP = {"username": "mallory", "password": "mallory-password-1", "pin": "1111"}
NOT_JSON = ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None]
EVIL = "http://evil.example"


def status_setup_required(server):
    return server.call("GET", "/api/v1/auth/status", auth="anonymous").json()["setupRequired"]


@pytest.fixture
def fresh():
    s = Server()
    yield s
    s.cleanup()


def test_setup_refuses_non_json_and_cross_site(fresh):
    answers = {}
    for ctype in NOT_JSON:
        reply = fresh.call("POST", "/api/v1/auth/setup", body=json.dumps(SETUP).encode(), content_type=ctype, auth="anonymous",
                           source=fresh_address())
        answers[ctype or "no content type"] = reply.status
    for name, headers in [("Origin evil", {"Origin": EVIL}), ("Sec-Fetch-Site cross-site", {"Sec-Fetch-Site": "cross-site"}),
                          ("Sec-Fetch-Site same-site", {"Sec-Fetch-Site": "same-site"})]:
        reply = fresh.call("POST", "/api/v1/auth/setup", SETUP, headers=headers, auth="anonymous", source=fresh_address())
        answers[name] = reply.status
    print(f"\nsetup on a fresh server: {answers}")
    assert status_setup_required(fresh), f"a cross-site or non-JSON setup created the admin: {answers}"
    for ctype in NOT_JSON:
        status = answers[ctype or "no content type"]
        assert status == 415 if ctype == "text/plain" else 400 <= status < 500, f"setup as {ctype}: {status}"
    for name in ("Origin evil", "Sec-Fetch-Site cross-site", "Sec-Fetch-Site same-site"):
        assert answers[name] == 403, f"setup with {name}: {answers[name]}"
    # Setup itself still works, once, from the shop's own page.
    own = fresh.call("POST", "/api/v1/auth/setup", {"username": ADMIN[0], "password": ADMIN[1], "pin": ADMIN[2]},
                     headers={"Origin": fresh.base, "Sec-Fetch-Site": "same-origin"}, auth="anonymous", source=fresh_address())
    assert own.status == 201, own
    users = fresh.call("GET", "/api/v1/users", auth=Session(own.cookie, own.json()["csrfToken"]))
    assert [u["username"] for u in users.json()] == [ADMIN[0]], users


def test_login_refuses_non_json_and_cross_site(shop):
    answers = {}
    body = json.dumps({"username": STAFF[0], "password": STAFF[1]}).encode()
    for ctype in NOT_JSON:
        reply = shop.call("POST", "/api/v1/auth/login", body=body, content_type=ctype, auth="anonymous", source=fresh_address())
        answers[ctype or "no content type"] = (reply.status, reply.cookie is not None)
    for name, headers in [("Origin evil", {"Origin": EVIL}), ("Sec-Fetch-Site cross-site", {"Sec-Fetch-Site": "cross-site"})]:
        reply = shop.login(STAFF[0], STAFF[1], headers=headers)
        answers[name] = (reply.status, reply.cookie is not None)
    print(f"\nsign-in: {answers}")
    assert answers["text/plain"][0] == 415, answers
    for name, (status, cookie) in answers.items():
        assert 400 <= status < 500 and not cookie, f"sign-in with {name} was not refused: {status}"
    assert answers["Origin evil"][0] == 403 and answers["Sec-Fetch-Site cross-site"][0] == 403, answers
    own = shop.login(STAFF[0], STAFF[1], headers={"Origin": shop.base, "Sec-Fetch-Site": "same-origin"})
    assert own.status == 200, own


def test_cookie_change_from_another_site_refused(shop):
    admin = shop.session(ADMIN[0], ADMIN[1])
    settings = shop.ok("GET", "/api/v1/settings")
    changed = dict(settings, shopName="Renamed by evil.example")
    answers = {}
    with unchanged(shop):
        for name, headers in [("Origin evil", {"Origin": EVIL}), ("Origin null", {"Origin": "null"}),
                              ("Sec-Fetch-Site cross-site", {"Sec-Fetch-Site": "cross-site"}),
                              ("Origin other port", {"Origin": f"http://127.0.0.1:{shop.port + 1}"})]:
            answers[name] = shop.call("PUT", "/api/v1/settings", changed, auth=admin, headers=headers).status
        answers["POST product, Origin evil"] = shop.call("POST", "/api/v1/products", {"name": "Evil"}, auth=admin,
                                                         headers={"Origin": EVIL}).status
        answers["PUT settings as text/plain"] = shop.call("PUT", "/api/v1/settings", body=json.dumps(changed).encode(),
                                                          content_type="text/plain", auth=admin).status
    print(f"\ncookie changes from another site: {answers}")
    for name, status in answers.items():
        expected = 415 if "text/plain" in name else 403
        assert status == expected, f"{name}: {status} (expected {expected})"
    # The shop's own page may (same settings written back: nothing changes).
    own = shop.call("PUT", "/api/v1/settings", settings, auth=admin, headers={"Origin": shop.base, "Sec-Fetch-Site": "same-origin"})
    assert own.status == 200, own
