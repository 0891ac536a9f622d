"""The activity feed and the alerts opt-in (issue 14 point 3) must not open a way in.

`GET /api/v1/activity` is for managers and admins: staff get 403 and strangers 401, with no sentence of the feed in
the answer; a hostile filter (an unknown kind, SQL, a huge limit, a range that ends before it starts, a non-numeric
cursor) is a 422 naming the parameter, never a 500 and never more rows. The feed is read-only: after each refusal the
shop's data and the audit log are unchanged. Opting in to alerts (`PUT /api/v1/auth/me/alerts`) is for managers and
admins, and from a browser only with its CSRF token, from the shop's own pages, as JSON."""
import pytest

from conftest import MANAGER, STAFF, Session, unchanged


def test_staff_and_strangers_are_refused(shop):
    session = shop.session(STAFF[0], STAFF[1])
    with unchanged(shop, audit=True):
        reply = shop.call("GET", "/api/v1/activity", auth=session)
        assert reply.status == 403, reply
        assert b"sentence" not in reply.body and b" sold " not in reply.body
        assert shop.call("GET", "/api/v1/activity", auth="anonymous").status == 401


def test_a_manager_reads_it(shop):
    session = shop.session(MANAGER[0], MANAGER[1])
    reply = shop.call("GET", "/api/v1/activity?kind=sales", auth=session)
    assert reply.status == 200, reply
    entries = reply.json()["entries"]
    assert entries and all(entry["group"] == "sales" for entry in entries)


@pytest.mark.parametrize("query, field", [
    ("kind=sales'%20OR%201=1--", "kind"), ("kind=auditLog", "kind"), ("kind=sales,sales,%00", "kind"),
    ("userId=1%20OR%201=1", "userId"), ("userId=99999999999999999999999", "userId"),
    ("limit=100000000", "limit"), ("limit=-1", "limit"), ("before=1;DROP%20TABLE%20auditLog", "before"),
    ("from=2026-03-02&to=2026-03-01", "to"), ("from=%27", "from"), ("to=9999-99-99", "to"),
])
def test_hostile_filters_are_refused_naming_the_parameter(shop, query, field):
    session = shop.session(MANAGER[0], MANAGER[1])
    with unchanged(shop, audit=True):
        reply = shop.call("GET", f"/api/v1/activity?{query}", auth=session)
        assert reply.status == 422, (query, reply)
        assert reply.problem_field == field, (query, reply)


def alerts_on(shop, session):
    return shop.call("GET", "/api/v1/auth/me/alerts", auth=session).json()["enabled"]


def test_the_alerts_opt_in_needs_the_csrf_token_and_the_shops_own_page(shop):
    session = shop.session(MANAGER[0], MANAGER[1])
    assert alerts_on(shop, session) is False
    forged = [
        ("no CSRF token", Session(session.cookie, ""), {}),
        ("a wrong CSRF token", Session(session.cookie, "0" * 32), {}),
        ("another site's Origin", session, {"Origin": "http://evil.example"}),
        ("Sec-Fetch-Site cross-site", session, {"Sec-Fetch-Site": "cross-site"}),
    ]
    with unchanged(shop, audit=True):
        for name, auth, headers in forged:
            reply = shop.call("PUT", "/api/v1/auth/me/alerts", {"enabled": True}, auth=auth, headers=headers)
            assert reply.status == 403, (name, reply)
        # Not as a form post either.
        reply = shop.call("PUT", "/api/v1/auth/me/alerts", body=b'{"enabled":true}', content_type="text/plain", auth=session)
        assert reply.status == 415, reply
    assert alerts_on(shop, session) is False
    # From the shop's own page, with the token, it works.
    own = shop.call("PUT", "/api/v1/auth/me/alerts", {"enabled": True}, auth=session, headers={"Origin": shop.base})
    assert own.status == 200 and own.json() == {"enabled": True}, own
    shop.call("PUT", "/api/v1/auth/me/alerts", {"enabled": False}, auth=session)


def test_staff_cannot_opt_in(shop):
    session = shop.session(STAFF[0], STAFF[1])
    with unchanged(shop, audit=True):
        for method, body in (("GET", None), ("PUT", {"enabled": True})):
            assert shop.call(method, "/api/v1/auth/me/alerts", body, auth=session).status == 403
