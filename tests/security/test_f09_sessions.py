"""Finding 9 (low): sessions outlived password changes.

A new password or PIN ends the user's other browser sessions and API tokens (the session making the change keeps
working); a browser sign-in ends after `serve --session-lifetime`; tokens can be given an expiry."""
import time

import pytest

from conftest import ADMIN, STAFF, Server, make_server, unchanged


@pytest.fixture
def server():
    s = make_server()
    yield s
    s.cleanup()


def works(server, auth, path="/api/v1/auth/me"):
    return server.call("GET", path, auth=auth).status


@pytest.mark.parametrize("secret", ["password", "pin"])
def test_new_secret_ends_the_users_other_sessions_and_tokens(server, secret):
    admin = server.session(ADMIN[0], ADMIN[1])  # the admin's browser making the change
    staff_id = server.users[STAFF[0]]
    phone, laptop = server.session(STAFF[0], STAFF[1]), server.session(STAFF[0], STAFF[1])
    token = server.mint_token("staff script", user_id=staff_id)
    assert [works(server, a) for a in (phone, laptop, token)] == [200, 200, 200]
    change = {"password": "a-brand-new-password"} if secret == "password" else {"pin": "7777"}
    with unchanged(server, auth=admin):
        reply = server.call("PUT", f"/api/v1/users/{staff_id}", change, auth=admin)
        assert reply.status == 200, reply
    after = {name: works(server, a) for name, a in [("phone", phone), ("laptop", laptop), ("token", token), ("admin", admin)]}
    print(f"\nafter a new {secret} for staff: {after}")
    assert after["phone"] == 401 and after["laptop"] == 401, f"staff's browser sessions outlived the new {secret}: {after}"
    assert after["token"] == 401, f"staff's API token outlived the new {secret}: {after}"
    assert after["admin"] == 200, f"the admin's session that made the change ended: {after}"
    new_password = change.get("password", STAFF[1])
    assert server.login(STAFF[0], new_password).status == 200


def test_own_password_change_keeps_only_the_session_making_it(server):
    here = server.session(ADMIN[0], ADMIN[1])
    other = server.session(ADMIN[0], ADMIN[1])
    token = server.mint_token("admin script")
    with unchanged(server, auth=here):
        reply = server.call("PUT", f"/api/v1/users/{server.users[ADMIN[0]]}", {"password": "admin-password-2"}, auth=here)
        assert reply.status == 200, reply
    after = {"here": works(server, here), "other session": works(server, other), "token": works(server, token),
             "setup token": works(server, server.admin)}
    print(f"\nafter the admin's own new password: {after}")
    assert after == {"here": 200, "other session": 401, "token": 401, "setup token": 401}, after


def test_session_lifetime_is_absolute():
    server = Server(extra=["--session-lifetime", "10s"]).setup_admin()  # 10 s is the shortest allowed
    try:
        session = server.session(ADMIN[0], ADMIN[1])
        start = time.monotonic()
        statuses = []
        while time.monotonic() - start < 8:  # active all along: activity does not extend it
            statuses.append(works(server, session))
            time.sleep(2)
        time.sleep(max(0.0, 11.5 - (time.monotonic() - start)))
        final = works(server, session)
        print(f"\n--session-lifetime 10s: /auth/me every 2 s {statuses}, after 11.5 s -> {final}")
        assert statuses and all(s == 200 for s in statuses), f"the session ended early: {statuses}"
        assert final == 401, f"a 10 s session still works after 11.5 s of activity: {final}"
    finally:
        server.cleanup()


def test_tokens_can_expire(server):
    reply = server.call("POST", "/api/v1/tokens", {"name": "one day", "expiresInDays": 1})
    assert reply.status == 201, reply
    expires = reply.json().get("expiresAt")
    assert expires, f"a token minted with expiresInDays=1 has no expiry: {reply!r}"
    listed = [t for t in server.ok("GET", "/api/v1/tokens") if t["name"] == "one day"]
    assert listed and listed[0].get("expiresAt") == expires, listed
    for bad in (0, -1, 100000):
        refused = server.call("POST", "/api/v1/tokens", {"name": "bad", "expiresInDays": bad})
        assert refused.status == 422 and refused.problem_field == "expiresInDays", f"expiresInDays={bad}: {refused!r}"
