"""Finding 8 (medium): storage abuse.

The public add validates everything before writing a picture (an invalid price or tax leaves no file in
<data>/images); names are limited by bytes and scalars, not only grapheme clusters (one letter with 2 MB, or with
10,000, combining marks is refused naming the field); a 20,000-scalar emoji is not an icon."""
import pytest

from conftest import Server, multipart, png, unchanged

COMBINING = "\u0301"
BIG_NAME = "a" + COMBINING * (1 << 20)      # one grapheme cluster, 2 MiB of UTF-8
SMALL_NAME = "a" + COMBINING * 10_000       # one grapheme cluster, 20 KB of UTF-8
EMOJI = "\U0001F468" + "\u200d\U0001F468" * 9_999 + "\u200d"  # one ZWJ sequence: 20,000 scalars


@pytest.fixture(scope="module")
def server():
    s = Server(public_api=True).setup_admin().seed()
    yield s
    s.cleanup()


@pytest.mark.parametrize("field,value", [("price", "abc"), ("price", "-5.00"), ("tax", "not-a-number"),
                                         ("product_name", SMALL_NAME), ("product_type", SMALL_NAME)],
                         ids=["price-abc", "price-negative", "tax-text", "name-10000-marks", "type-10000-marks"])
def test_public_add_refused_before_the_picture_is_written(server, field, value):
    fields = {"product_name": "Orphan maker", "product_type": "Orphans", "price": "1.00", "tax": "7"}
    fields[field] = value
    images_before = server.images()
    body, ctype = multipart(fields, [("files[]", "a.png", "image/png", png(64, 64, seed=len(value) % 251 + hash(field) % 7))])
    with unchanged(server):
        reply = server.call("POST", "/api/public/add", body=body, content_type=ctype, auth="anonymous")
    new_files = sorted(set(server.images()) - set(images_before))
    print(f"\npublic add with {field}={value[:12]!r}… ({len(value.encode())} bytes) -> {reply.status} {reply.body[:100]!r}; new files {new_files}")
    assert 400 <= reply.status < 500 and reply.json().get("success") is False, f"not refused: {reply!r}"
    names = {"price": ("price", "salePrice"), "tax": ("tax", "taxRate"), "product_name": ("product_name", "name"),
             "product_type": ("product_type",)}[field]
    assert any(name in reply.json().get("message", "") for name in names), f"the refusal does not name {field}: {reply!r}"
    assert not new_files, f"refused add left picture files behind: {new_files}"


@pytest.mark.parametrize("size", ["2MiB", "20KB"])
@pytest.mark.parametrize("route", ["/api/v1/products", "/api/v1/categories"])
def test_combining_marks_name_refused(server, route, size):
    name = BIG_NAME if size == "2MiB" else SMALL_NAME
    with unchanged(server):
        reply = server.call("POST", route, {"name": name})
    print(f"\nPOST {route} name = 'a' + {len(name) - 1} × U+0301 ({len(name.encode()) >> 10} KiB) -> {reply.status} {reply.body[:100]!r}")
    if size == "2MiB":
        assert reply.status in (413, 422), f"a one-letter name with 2 MiB of combining marks was not refused: {reply!r}"
    else:
        assert reply.status == 422, f"a one-letter name with 10,000 combining marks was not refused with 422: {reply!r}"
    if reply.status == 422:
        assert reply.problem_field == "name", f"the refusal does not name the field: {reply!r}"


def test_combining_marks_name_refused_on_update(server):
    product = server.ok("GET", f"/api/v1/products/{server.product_ids[1]}")
    with unchanged(server):
        reply = server.call("PUT", f"/api/v1/products/{product['id']}", {"name": SMALL_NAME, "salePrice": product["salePrice"]})
    assert reply.status == 422 and reply.problem_field == "name", reply


@pytest.mark.parametrize("how", ["create", "update"])
def test_twenty_thousand_scalar_icon_refused(server, how):
    with unchanged(server):
        if how == "create":
            reply = server.call("POST", "/api/v1/products", {"name": "Icon bomb", "iconEmoji": EMOJI})
        else:
            product = server.ok("GET", f"/api/v1/products/{server.product_ids[2]}")
            reply = server.call("PUT", f"/api/v1/products/{product['id']}",
                                {"name": product["name"], "salePrice": product["salePrice"], "iconEmoji": EMOJI})
    print(f"\n{how} with a {len(EMOJI)}-scalar icon -> {reply.status} {reply.body[:100]!r}")
    assert reply.status == 422, f"a {len(EMOJI)}-scalar icon was not refused with 422: {reply!r}"
    assert reply.problem_field == "iconEmoji", f"the refusal does not name iconEmoji: {reply!r}"
