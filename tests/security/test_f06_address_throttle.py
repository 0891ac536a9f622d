"""Finding 6 (medium): a successful sign-in cleared the per-address throttle.

From one address: three wrong passwords for user A; then user B signs in successfully from the same address. The
address's count must hold: its next wrong try (for a third user C, whose own count is zero) is checked, as the address's
wait is over, and the one after it is throttled (429) — with a wiped count both would be checked (401). The same try
from another address is checked (401), so it is the address's count that holds.

And the other way round (a fault found on a till): a right answer must not count as a failure's time. B signing in
again at once from the same address is let in; it was refused with "wait 2 s" after every success once the address had
had three typos, and for up to 60 s after more."""
import time

import pytest

from conftest import fresh_address, make_server


@pytest.fixture(scope="module")
def server():
    s = make_server()
    for name in ("user-a", "user-b", "user-c"):
        s.create_user(name, f"{name}-password-1")
    yield s
    s.cleanup()


def test_success_on_one_account_keeps_the_address_count(server):
    here, elsewhere = fresh_address(), fresh_address()
    for i in range(3):
        reply = server.login("user-a", f"wrong-{i}", source=here)
        assert reply.status == 401, f"wrong try {i + 1} for user-a: {reply!r}"
    # The address now waits 2 s before its next try; then B signs in from it.
    deadline = time.monotonic() + 10
    while True:
        success = server.login("user-b", "user-b-password-1", source=here)
        if success.status != 429 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert success.status == 200, f"user-b could not sign in from the address: {success!r}"
    again_b = server.login("user-b", "user-b-password-1", source=here)
    third = server.login("user-c", "wrong-c", source=here)
    control = server.login("user-c", "wrong-c", source=elsewhere)
    again_a = server.login("user-a", "wrong-a", source=here)
    print(f"\nafter 3 failures for user-a and user-b's success from {here}: user-b again -> {again_b.status}, "
          f"user-c from there -> {third.status}, user-c from {elsewhere} -> {control.status}, user-a from there -> {again_a.status}")
    assert again_b.status == 200, f"user-b's right password right after a success was refused: {again_b!r}"
    assert control.status == 401, f"control: user-c's try from another address should be checked: {control!r}"
    assert third.status == 401, f"the address's wait was over, so user-c's try should be checked: {third!r}"
    assert again_a.status == 429, f"user-b's success cleared the address's count: the fifth wrong try from it was checked ({again_a.status})"
