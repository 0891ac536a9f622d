"""Finding 5 (medium): user enumeration by timing (unknown users were answered in 3 ms, known ones in 340–470 ms).

Sign-in of an unknown username and of a known username with a wrong password take about as long: the ratio of the
median times is between 0.5 and 2. Every try comes from its own client address and no account gets more than its
three free tries, so the throttle never answers (every reply must be a checked 401)."""
import statistics

import pytest

from conftest import fresh_address, make_server

TRIES = 7
KNOWN = ["clerk-a", "clerk-b", "clerk-c"]


@pytest.fixture(scope="module")
def server():
    s = make_server()
    for name in KNOWN:
        s.create_user(name, f"{name}-password-1")
    yield s
    s.cleanup()


def test_unknown_and_known_usernames_answer_alike(server):
    server.login("warm-up-nobody", "wrong-password", source=fresh_address())  # the dummy hash is ready
    unknown, known, replies = [], [], []
    for i in range(TRIES):
        for kind, username in (("unknown", f"nobody-{i}"), ("known", KNOWN[i % len(KNOWN)])):
            reply = server.login(username, f"wrong-password-{i}", source=fresh_address())
            replies.append((kind, username, reply.status))
            assert reply.status == 401, f"sign-in of {kind} {username} was not a checked 401 (the throttle would distort timing): {reply!r}"
            (unknown if kind == "unknown" else known).append(reply.elapsed)
    mu, mk = statistics.median(unknown), statistics.median(known)
    ratio = mu / mk
    print(f"\nsign-in timing over {TRIES} tries each: unknown user median {mu * 1000:.0f} ms, known user (wrong password) "
          f"median {mk * 1000:.0f} ms, ratio {ratio:.2f}")
    assert 0.5 <= ratio <= 2.0, (f"unknown usernames answer in {mu * 1000:.0f} ms, known ones in {mk * 1000:.0f} ms "
                                 f"(ratio {ratio:.2f}, must be 0.5–2): usernames can be enumerated")
