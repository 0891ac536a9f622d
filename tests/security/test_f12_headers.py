"""Finding 12 (low): headers.

HTML carries a Content-Security-Policy without inline script; API JSON, errors, CSV exports and backups carry
`X-Content-Type-Options: nosniff` and `Cache-Control: no-store`; HTTPS answers carry Strict-Transport-Security;
pictures are served with nosniff, and a PNG uploaded with a script appended after IEND is served back without it."""
import re

import pytest

from conftest import Server, png

IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"


def directives(policy):
    out = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0].lower()] = [w.lower() for w in words[1:]]
    return out


def html(server, path):
    reply = server.call("GET", path, auth="anonymous")
    hops = 0
    while reply.status in (301, 302, 303, 307, 308) and hops < 3:
        reply = server.call("GET", reply.headers["location"], auth="anonymous")
        hops += 1
    return reply


@pytest.mark.parametrize("path", ["/", "/login", "/setup"])
def test_html_has_a_strict_content_security_policy(shop, path):
    reply = html(shop, path)
    assert reply.status == 200 and reply.headers.get("content-type", "").startswith("text/html"), reply
    policy = reply.headers.get("content-security-policy")
    print(f"\n{path}: Content-Security-Policy: {policy}")
    assert policy, f"{path} has no Content-Security-Policy"
    parsed = directives(policy)
    scripts = parsed.get("script-src", parsed.get("default-src"))
    assert scripts is not None, f"no script-src or default-src: {policy}"
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts and "*" not in scripts, policy
    inline = re.findall(rb"<script(?![^>]*\bsrc=)[^>]*>", reply.body, re.IGNORECASE)
    assert not inline, f"{path} has an inline script that the policy would block: {inline[:2]}"


@pytest.mark.parametrize("what,path", [("API JSON", "/api/v1/products"), ("API error", "/api/v1/products/999999"),
                                       ("settings", "/api/v1/settings"), ("CSV export", "/api/v1/export/products"),
                                       ("CSV export of sales", "/api/v1/export/sales"), ("backup", "/api/v1/backup"),
                                       ("anonymous 401", None)])
def test_api_csv_and_backup_are_nosniff_and_no_store(shop, what, path):
    reply = shop.call("GET", path or "/api/v1/users", auth="anonymous" if path is None else None)
    print(f"\n{what}: {reply.status} nosniff={reply.headers.get('x-content-type-options')} cache={reply.headers.get('cache-control')}")
    assert reply.headers.get("x-content-type-options", "").lower() == "nosniff", f"{what}: {reply.headers}"
    assert "no-store" in reply.headers.get("cache-control", "").lower(), f"{what}: Cache-Control is {reply.headers.get('cache-control')}"


def test_pictures_are_nosniff_and_cleaned(shop):
    payload = b"<script>alert(document.cookie)</script><html><body onload=alert(1)>"
    upload = shop.call("PUT", f"/api/v1/products/{shop.product_ids[0]}/image", body=png(32, 32, seed=9, trailer=payload),
                       content_type="image/png")
    assert upload.status == 200, upload
    url = upload.json()["url"]
    served = shop.call("GET", url, auth="anonymous")
    print(f"\npicture {url}: {served.status} {served.headers.get('content-type')} nosniff={served.headers.get('x-content-type-options')}, "
          f"{len(served.body)} bytes, script kept={b'<script' in served.body}")
    assert served.status == 200, served
    assert served.headers.get("x-content-type-options", "").lower() == "nosniff", served.headers
    assert served.headers.get("content-type", "").startswith("image/png"), served.headers
    assert b"<script" not in served.body and b"onload" not in served.body, "the bytes appended after IEND are served back"
    assert served.body.endswith(IEND), "the served picture does not end at its IEND chunk"


def test_https_answers_carry_hsts():
    server = Server(tls=True).setup_admin()
    try:
        answers = {path: server.call("GET", path, auth=auth) for path, auth in
                   [("/health", "anonymous"), ("/login", "anonymous"), ("/api/v1/products", None), ("/api/v1/users", "anonymous")]}
        for path, reply in answers.items():
            hsts = reply.headers.get("strict-transport-security", "")
            print(f"\nHTTPS {path}: {reply.status} Strict-Transport-Security: {hsts}")
            assert "max-age=" in hsts and int(hsts.split("max-age=")[1].split(";")[0]) >= 86400, f"{path}: {reply.headers}"
    finally:
        server.cleanup()


def test_plain_http_does_not_claim_hsts(shop):
    assert "strict-transport-security" not in shop.call("GET", "/health", auth="anonymous").headers
