"""Finding 19 (medium): a live-events stream outlived the session it was opened for.

`GET /api/v1/events` was admitted once, when it opened, and then ran for as long as the page: after signing out,
after the till was locked (or unlocked by someone else with their PIN), after the account was deactivated or given a
lesser role, after an API token was revoked, it went on carrying the shop's sales, stock changes and a manager's alerts
(cash differences, low stock) to whoever held the connection. The browser app now shares one stream between all its
tabs, so a tab left open would have carried it on across a change of user in another tab.

Now every stream checks each second that its credentials still name the same session, account and role, unlocked,
with the same choice of alerts, and ends otherwise; the browser connects again as whoever is signed in then, or is
refused."""
import http.client
import threading

import pytest

from conftest import ADMIN, MANAGER, STAFF, Token, make_server

ENDS_WITHIN = 5     # seconds: the stream checks every second
STAYS_FOR = 3       # seconds a stream whose caller did not change must stay open


@pytest.fixture
def server():
    s = make_server()
    yield s
    s.cleanup()


class Stream:
    """An open `/api/v1/events` stream, read in a thread until the server ends it."""

    def __init__(self, server, auth):
        self.conn = server.connection(timeout=120)
        self.conn.request("GET", "/api/v1/events", headers=auth.headers("GET"))
        self.response = self.conn.getresponse()
        assert self.response.status == 200, (self.response.status, self.response.read()[:300])
        self.received = b""
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            while chunk := self.response.read1(4096):
                self.received += chunk
        except (OSError, http.client.HTTPException, AttributeError, ValueError):
            pass  # AttributeError, ValueError: the test closed the connection while this thread read it
        self.ended.set()

    def close(self):
        self.conn.close()


def sell(server):
    server.ok("POST", "/api/v1/sales", {"lines": [{"productId": server.product_ids[1], "quantity": "1"}]})


def open_then(server, auth, change):
    """Opens a stream as `auth`, checks it is live (it carries a sale), makes `change`, and says whether the stream
    ended within ENDS_WITHIN seconds."""
    stream = Stream(server, auth)
    try:
        sell(server)
        stream.ended.wait(1.5)
        assert b"event: sale" in stream.received, stream.received[:500]
        change()
        return stream.ended.wait(ENDS_WITHIN)
    finally:
        stream.close()


def test_a_stream_goes_on_while_its_caller_is_unchanged(server):
    manager = server.session(MANAGER[0], MANAGER[1])
    stream = Stream(server, manager)
    try:
        sell(server)
        assert not stream.ended.wait(STAYS_FOR), "a stream ended though nothing about its caller changed"
        assert b"event: sale" in stream.received
    finally:
        stream.close()


def test_signing_out_ends_the_stream(server):
    staff = server.session(STAFF[0], STAFF[1])
    assert open_then(server, staff, lambda: server.ok("POST", "/api/v1/auth/logout", auth=staff)), \
        "the stream went on after its session signed out"
    assert server.call("GET", "/api/v1/events", auth=staff, timeout=5).status == 401


def test_locking_the_till_ends_the_stream_and_it_is_refused_until_unlocked(server):
    staff = server.session(STAFF[0], STAFF[1])
    assert open_then(server, staff, lambda: server.ok("POST", "/api/v1/auth/lock", auth=staff)), \
        "the stream went on after the till was locked"
    assert server.call("GET", "/api/v1/events", auth=staff, timeout=5).status == 423
    server.ok("POST", "/api/v1/auth/pin", {"username": STAFF[0], "pin": STAFF[2]}, auth=staff)
    stream = Stream(server, staff)   # the same person unlocked: a new stream opens
    stream.close()


def test_unlocking_as_someone_else_ends_the_stream_opened_for_the_first(server):
    """A manager's stream carries the manager's alerts; once a staff member has the till, it must not go on."""
    manager = server.session(MANAGER[0], MANAGER[1])
    server.ok("PUT", "/api/v1/auth/me/alerts", {"enabled": True}, auth=manager)

    def hand_over():
        server.ok("POST", "/api/v1/auth/lock", auth=manager)
        server.ok("POST", "/api/v1/auth/pin", {"username": STAFF[0], "pin": STAFF[2]}, auth=manager)

    assert open_then(server, manager, hand_over), "the manager's stream went on after a staff member unlocked the till"
    me = server.ok("GET", "/api/v1/auth/me", auth=manager)
    assert me["user"]["username"] == STAFF[0]


def test_deactivating_the_account_ends_its_stream(server):
    staff = server.session(STAFF[0], STAFF[1])
    staff_id = server.users[STAFF[0]]
    assert open_then(server, staff, lambda: server.ok("PUT", f"/api/v1/users/{staff_id}", {"active": False})), \
        "the stream went on after its account was deactivated"


def test_a_lesser_role_ends_the_stream(server):
    manager = server.session(MANAGER[0], MANAGER[1])
    manager_id = server.users[MANAGER[0]]
    assert open_then(server, manager, lambda: server.ok("PUT", f"/api/v1/users/{manager_id}", {"role": "staff"})), \
        "the stream went on after its account became staff"


def test_revoking_an_api_token_ends_its_stream(server):
    created = server.ok("POST", "/api/v1/tokens", {"name": "events script"})
    token = Token(created["token"])
    assert open_then(server, token, lambda: server.ok("DELETE", f"/api/v1/tokens/{created['id']}")), \
        "the stream went on after its API token was revoked"
    assert server.call("GET", "/api/v1/events", auth=token, timeout=5).status == 401


def test_turning_alerts_off_ends_the_stream_that_carried_them(server):
    """The server decides when a stream opens whether it carries alerts: a changed choice opens a new one."""
    admin = server.session(ADMIN[0], ADMIN[1])
    server.ok("PUT", "/api/v1/auth/me/alerts", {"enabled": True}, auth=admin)
    assert open_then(server, admin, lambda: server.ok("PUT", "/api/v1/auth/me/alerts", {"enabled": False}, auth=admin))
