"""Finding 1 (critical): a doubled slash, dot segments, encoded slashes or the absolute form skipped sign-in.

Every non-canonical spelling of a path is answered 400 before any route is chosen, anonymously, over HTTP and HTTPS;
nothing reaches the audit log, no token is minted, and the shop's data hashes the same."""
import pytest

from conftest import Server, unchanged


def spellings(path, port, scheme="http"):
    """Non-canonical spellings of the canonical `path` ("/api/v1/…")."""
    rest = path[len("/api/v1/"):]
    return [
        "/" + path,                                   # //api/v1/users
        "//" + path,                                  # ///api/v1/users
        f"/api/v1//{rest}",
        f"/api/v1/./{rest}",
        f"/api/v1/x/../{rest}",
        f"/api/v1/{rest}/",
        f"/api/v1%2F{rest}",
        f"/api/v1%2f{rest}",
        f"/%2Fapi/v1/{rest}",
        f"/api/v1/%2e/{rest}",
        f"/api/v1/%2E%2E/v1/{rest}",
        f"/api/v1\\{rest}",
        f"{scheme}://127.0.0.1:{port}/{path}",        # absolute form with a doubled slash
    ]


def absolute(path, port, scheme="http"):
    """The absolute form of the canonical path (`GET http://127.0.0.1:P/api/v1/users HTTP/1.1`)."""
    return [f"{scheme}://127.0.0.1:{port}{path}", f"{scheme}://localhost:{port}{path}"]


@pytest.fixture(scope="module")
def servers():
    """An HTTP and an HTTPS shop, each seeded, each holding the other's backup (a foreign shop to restore)."""
    plain = Server().setup_admin().seed()
    tls = Server(tls=True).setup_admin().seed()
    for server in (plain, tls):
        reply = server.call("GET", "/api/v1/backup")
        assert reply.status == 200, reply
        server.backup = reply.body
    yield plain, tls
    plain.cleanup()
    tls.cleanup()


def settings_body(server):
    settings = server.ok("GET", "/api/v1/settings")
    settings["shopName"] = "pwned"
    return settings


def writes(server, foreign_backup):
    """The anonymous writes of the report: (method, canonical path, body, content type)."""
    import json
    return [
        ("POST", "/api/v1/tokens", json.dumps({"name": "x", "userId": 1}).encode(), "application/json"),
        ("GET", "/api/v1/backup", None, None),
        ("PUT", "/api/v1/settings", json.dumps(settings_body(server)).encode(), "application/json"),
        ("DELETE", "/api/v1/products/1", None, None),
        ("POST", "/api/v1/restore", foreign_backup, "application/vnd.sqlite3"),
        ("GET", "/api/v1/users", None, None),
        ("GET", "/api/v1/audit", None, None),
    ]


def replay(server, foreign_backup, forms=spellings, canonical_check=True, expected=400):
    failures = []
    count = 0
    for method, path, body, ctype in writes(server, foreign_backup):
        # The canonical path itself wants credentials: the spellings below must not get around that.
        if canonical_check:
            canonical = server.call(method, path, body=body, auth="anonymous", content_type=ctype)
            if canonical.status != 401:
                failures.append(f"{method} {path} (canonical, anonymous) -> {canonical.status}, expected 401")
        for target in forms(path, server.port, server.scheme):
            reply = server.call(method, target, body=body, auth="anonymous", content_type=ctype)
            count += 1
            if reply.status != expected:
                failures.append(f"{method} {target} -> {reply.status} {reply.body[:80]!r}, expected {expected}")
    return count, failures


@pytest.mark.parametrize("which", ["http", "https"])
def test_non_canonical_paths_refused_anonymously(servers, which):
    server, other = servers if which == "http" else servers[::-1]
    tokens_before = server.ok("GET", "/api/v1/tokens")
    with unchanged(server, audit=True):
        count, failures = replay(server, other.backup)
    assert not failures, f"{len(failures)} of {count} non-canonical requests were not answered 400:\n" + "\n".join(failures)
    assert server.ok("GET", "/api/v1/tokens") == tokens_before, "a token was minted"
    assert server.alive()


@pytest.mark.parametrize("which", ["http", "https"])
def test_absolute_form_refused_anonymously(servers, which):
    """`GET http://127.0.0.1:P/api/v1/users HTTP/1.1` is the same request as its origin form: the HTTP decoder reduces it
    to the path, which the canonical-path rule and the route's permission then hold like any other. Anonymous, it is
    401 exactly like `/api/v1/users` (never 2xx); with `//` inside it is 400 (covered by the spellings above)."""
    server, other = servers if which == "http" else servers[::-1]
    tokens_before = server.ok("GET", "/api/v1/tokens")
    with unchanged(server, audit=True):
        count, failures = replay(server, other.backup, forms=absolute, canonical_check=False, expected=401)
    assert not any(" -> 2" in f for f in failures), "absolute form reached a route anonymously:\n" + "\n".join(failures)
    assert not failures, f"{len(failures)} of {count} absolute-form requests were not answered as their origin form:\n" + "\n".join(failures)
    assert server.ok("GET", "/api/v1/tokens") == tokens_before, "a token was minted"


def test_non_canonical_paths_refused_even_with_credentials(servers):
    """The canonical form is the only one: a signed-in admin gets 400 for `//api/v1/users` as well (one path, one check)."""
    server, _ = servers
    for target in spellings("/api/v1/users", server.port)[:6]:
        reply = server.call("GET", target)
        assert reply.status == 400, f"GET {target} as admin -> {reply!r}"
    assert server.call("GET", "/api/v1/users").status == 200
