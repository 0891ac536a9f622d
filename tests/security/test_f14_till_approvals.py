"""A manager's approval at the till cannot be forged (issue 12, point 5): staff selling beyond the stock on record, or
below a minimum price, without a manager, with a colleague's or their own staff PIN, or with a wrong manager PIN, book
nothing; the review list and marking a sale reviewed are for managers only. Replayed against a real `stockroom serve`."""
import pytest

from conftest import MANAGER, STAFF, fresh_address, unchanged


def _beyond(shop, approval=None):
    """Two more Espresso beans than the stock on record (the seed leaves 8)."""
    body = {"paymentMethod": "card", "sellBeyondStock": True, "lines": [{"productId": shop.product_ids[0], "quantity": "10"}]}
    if approval is not None:
        body["approval"] = approval
    return body


@pytest.mark.parametrize("approval, status, field", [
    (None, 403, "approval"),                                             # no manager at all
    ({"username": STAFF[0], "pin": STAFF[2]}, 403, "approval.username"),  # staff approving themselves
    ({"username": MANAGER[0], "pin": "0000"}, 403, "approval.pin"),      # a guessed manager PIN
    ({"username": "nobody", "pin": "1234"}, 403, "approval.pin"),        # an unknown manager
])
def test_staff_cannot_sell_beyond_stock_without_a_real_managers_pin(shop, approval, status, field):
    staff = shop.session(STAFF[0], STAFF[1])
    with unchanged(shop):
        # Each from its own address, so the PIN throttle's free tries are not what answers.
        reply = shop.call("POST", "/api/v1/sales", _beyond(shop, approval), auth=staff, source=fresh_address())
        assert reply.status == status and reply.problem_field == field, reply
        preview = shop.call("POST", "/api/v1/sales?dryRun=true", _beyond(shop, approval), auth=staff, source=fresh_address())
        assert preview.status == status, preview


def test_the_plain_refusal_offers_approval_and_books_nothing(shop):
    staff = shop.session(STAFF[0], STAFF[1])
    body = _beyond(shop)
    del body["sellBeyondStock"]
    with unchanged(shop):
        reply = shop.call("POST", "/api/v1/sales", body, auth=staff)
        assert reply.status == 422 and reply.json().get("managerMayApprove") is True, reply


def test_review_routes_are_for_managers(shop):
    staff = shop.mint_token("staff till", user_id=shop.users[STAFF[0]])
    with unchanged(shop, audit=True):
        assert shop.call("GET", "/api/v1/reports/sold-beyond-stock", auth=staff).status == 403
        assert shop.call("POST", "/api/v1/sales/1/stock-review", auth=staff).status == 403
        assert shop.call("GET", "/api/v1/reports/sold-beyond-stock", auth="anonymous").status == 401
        assert shop.call("POST", "/api/v1/sales/1/stock-review", auth="anonymous").status == 401
