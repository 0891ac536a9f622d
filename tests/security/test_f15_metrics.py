"""Measurements (`serve --metrics`, issue 15 point 8) must not open a way in.

`GET /metrics` exists only with `--metrics`; then a caller connected directly from this machine reads it without
signing in (a local Prometheus), but a request that came through a reverse proxy on this machine (it carries
Forwarded, X-Forwarded-For or X-Real-IP) is a caller from anywhere and needs an admin; staff and managers are
refused. The figures are per route pattern: no barcode, id or search word a till sent appears in them."""
import pytest

from conftest import ON_POSTGRES, Server, STAFF, MANAGER


@pytest.fixture(scope="module")
def measured():
    server = Server(extra=["--metrics"]).setup_admin().seed()
    yield server
    server.cleanup()


def test_metrics_do_not_exist_without_the_flag(shop):
    assert shop.call("GET", "/metrics").status == 404
    assert shop.call("GET", "/metrics", auth="anonymous").status == 404


def test_a_direct_caller_on_this_machine_reads_metrics(measured):
    reply = measured.call("GET", "/metrics", auth="anonymous")
    assert reply.status == 200, reply
    assert reply.headers.get("content-type", "").startswith("text/plain"), reply
    assert b"stockroom_database_seconds" in reply.body
    if not ON_POSTGRES:  # PostgreSQL groups concurrent commits' flushes itself; SQLite's store does (group commit)
        assert b"stockroom_group_commit_writes" in reply.body


@pytest.mark.parametrize("header,value", [("X-Forwarded-For", "203.0.113.7"), ("Forwarded", "for=203.0.113.7"),
                                          ("X-Real-IP", "203.0.113.7"), ("x-forwarded-for", "127.0.0.1")])
def test_a_request_through_a_proxy_is_not_local(measured, header, value):
    reply = measured.call("GET", "/metrics", auth="anonymous", headers={header: value})
    assert reply.status == 401, reply
    assert b"stockroom_" not in reply.body


def test_staff_and_managers_are_refused_admins_allowed(measured):
    proxied = {"X-Forwarded-For": "203.0.113.7"}
    for user in (STAFF, MANAGER):
        session = measured.session(user[0], user[1])
        reply = measured.call("GET", "/metrics", auth=session, headers=proxied)
        assert reply.status == 403, (user[0], reply)
    reply = measured.call("GET", "/metrics", headers=proxied)   # the admin's token
    assert reply.status == 200, reply


def test_metrics_carry_no_barcode_id_or_search_word(measured):
    secret_code, secret_word = "4006381333931", "zanzibarquokka"
    measured.call("GET", f"/api/v1/products/barcode/{secret_code}")
    measured.call("GET", f"/api/v1/products?search={secret_word}")
    measured.call("GET", "/api/v1/products/987654")
    text = measured.call("GET", "/metrics", auth="anonymous").body.decode()
    for secret in (secret_code, secret_word, "987654"):
        assert secret not in text, secret
    assert 'http_route="/api/v1/products/barcode/{code}"' in text
