"""Finding 6 (medium): a successful sign-in cleared the per-address throttle.

From one address: three wrong passwords for user A; then user B signs in successfully from the same address; the next
wrong try from that address, for a third user C whose own count is zero, is still throttled (429) — while the same try
from another address is checked (401), so it is the address's count that holds."""
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
    third = server.login("user-c", "wrong-c", source=here)
    control = server.login("user-c", "wrong-c", source=elsewhere)
    again_a = server.login("user-a", "wrong-a", source=here)
    print(f"\nafter 3 failures for user-a and user-b's success from {here}: user-c from there -> {third.status}, "
          f"user-c from {elsewhere} -> {control.status}, user-a from there -> {again_a.status}")
    assert control.status == 401, f"control: user-c's try from another address should be checked: {control!r}"
    assert third.status == 429, f"user-b's success cleared the address's count: user-c's wrong try from the same address was checked ({third.status})"
    assert again_a.status == 429, f"the next wrong try for user-a was not throttled: {again_a!r}"
