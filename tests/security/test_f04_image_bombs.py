"""Finding 4 (medium): image decompression bombs.

A 255 KB PNG declaring 16384 × 16384 pixels (its IDAT really holds all 268 M zero pixels) is refused within 2 s as a
product picture, by the barcode decoder and by the anonymous public add; three at once do not stall /health (each
answer within 1 s) nor grow the server by more than 200 MB.

Found later by the barcode soak: a PNG of a hundred bytes whose text chunk declares 1.8 GB. libpng allocates a chunk's
declared length before reading it, so the barcode decoder took 1.8 GB and seconds of CPU before finding the file
short. It is refused on every route without the server's peak memory (VmHWM) growing by more than 200 MB."""
import pathlib
import struct
import threading
import time
import zlib

import pytest

from conftest import Server, _chunk, multipart, png_bomb, unchanged

LIMIT_S = 2.0


@pytest.fixture(scope="module")
def server():
    s = Server(public_api=True).setup_admin().seed()
    yield s
    s.cleanup()


def picture_upload(server):
    return server.call("PUT", f"/api/v1/products/{server.product_ids[0]}/image", body=png_bomb(), content_type="image/png", timeout=60)


def barcode_decode(server):
    return server.call("POST", "/api/v1/barcodes/decode", body=png_bomb(), content_type="image/png", timeout=60)


def public_add(server):
    body, ctype = multipart({"product_name": "Bomb", "product_type": "Food", "price": "1.00", "tax": "7"},
                            [("files[]", "bomb.png", "image/png", png_bomb())])
    return server.call("POST", "/api/public/add", body=body, content_type=ctype, auth="anonymous", timeout=60)


ROUTES = {"PUT /api/v1/products/{id}/image": picture_upload, "POST /api/v1/barcodes/decode": barcode_decode,
          "POST /api/public/add": public_add}


@pytest.mark.parametrize("route", list(ROUTES))
def test_bomb_refused_quickly(server, route):
    png_bomb()  # made before the clock starts
    images_before = server.images()
    rss_before = server.rss_mb()
    with unchanged(server):
        reply = ROUTES[route](server)
    rss_after = server.rss_mb()
    print(f"\n{route} with a 16384×16384 PNG of {len(png_bomb())} bytes -> {reply.status} in {reply.elapsed:.2f} s, "
          f"RSS {rss_before:.0f} -> {rss_after:.0f} MB: {reply.body[:120]!r}")
    assert 400 <= reply.status < 500, f"{route}: the bomb was not refused: {reply!r}"
    if route == "POST /api/public/add":
        assert reply.json().get("success") is False, reply
    assert reply.elapsed < LIMIT_S, f"{route}: refusing the bomb took {reply.elapsed:.1f} s (at most {LIMIT_S} s)"
    assert server.images() == images_before, "a picture file was written"
    assert server.alive()


def test_three_bombs_at_once_do_not_stall_health(server):
    png_bomb()
    rss_start = server.rss_mb()
    peak = [rss_start]
    health = []
    done = threading.Event()

    def poll():
        while not done.is_set():
            start = time.monotonic()
            try:
                status = server.request("GET", "/health", timeout=10, source="127.0.0.2").status
            except OSError as error:
                status = repr(error)
            health.append((status, time.monotonic() - start))
            peak[0] = max(peak[0], server.rss_mb())
            time.sleep(0.05)

    replies = {}

    def attack(name):
        try:
            replies[name] = ROUTES[name](server)
        except OSError as error:
            replies[name] = error

    poller = threading.Thread(target=poll)
    poller.start()
    time.sleep(0.3)
    attackers = [threading.Thread(target=attack, args=(name,)) for name in ROUTES]
    start = time.monotonic()
    for thread in attackers:
        thread.start()
    for thread in attackers:
        thread.join(timeout=90)
    attack_time = time.monotonic() - start
    time.sleep(0.5)
    done.set()
    poller.join()
    slowest = max(t for _, t in health)
    bad = [h for h in health if h[0] != 200]
    print(f"\nthree bombs at once: {[(n, getattr(r, 'status', r)) for n, r in replies.items()]} in {attack_time:.1f} s; "
          f"/health polled {len(health)}×, slowest {slowest:.2f} s; RSS {rss_start:.0f} -> peak {peak[0]:.0f} MB")
    for name, reply in replies.items():
        assert 400 <= getattr(reply, "status", 0) < 500, f"{name}: {reply!r}"
    assert not bad, f"/health failed during the bombs: {bad[:5]}"
    assert slowest < 1.0, f"/health took {slowest:.2f} s to answer during the bombs"
    assert peak[0] - rss_start < 200, f"the server grew by {peak[0] - rss_start:.0f} MB"
    assert attack_time < 2 * LIMIT_S, f"three bombs took {attack_time:.1f} s to refuse"
    assert server.alive()


def png_chunk_lie(declared=0x6D3A0000):
    """A valid 10 × 10 grey PNG with, after IHDR, a tEXt chunk whose length field says `declared` bytes."""
    ihdr = _chunk(b"IHDR", struct.pack(">IIBBBBB", 10, 10, 8, 0, 0, 0, 0))
    lie = bytearray(_chunk(b"tEXt", b"abc\x00xyz"))
    lie[0:4] = struct.pack(">I", declared)
    idat = _chunk(b"IDAT", zlib.compress(b"".join(b"\x00" + b"\x80" * 10 for _ in range(10))))
    return b"\x89PNG\r\n\x1a\n" + ihdr + bytes(lie) + idat + _chunk(b"IEND", b"")


def peak_rss_mb(server):
    for line in pathlib.Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


LIE_ROUTES = {
    "PUT /api/v1/products/{id}/image": lambda s: s.call("PUT", f"/api/v1/products/{s.product_ids[0]}/image",
                                                        body=png_chunk_lie(), content_type="image/png", timeout=60),
    "POST /api/v1/barcodes/decode": lambda s: s.call("POST", "/api/v1/barcodes/decode", body=png_chunk_lie(),
                                                     content_type="image/png", timeout=60),
}


@pytest.mark.parametrize("route", list(LIE_ROUTES))
def test_a_chunk_declaring_gigabytes_is_refused_without_taking_them(server, route):
    images_before = server.images()
    peak_before = peak_rss_mb(server)
    with unchanged(server):
        reply = LIE_ROUTES[route](server)
    peak_after = peak_rss_mb(server)
    print(f"\n{route} with a {len(png_chunk_lie())}-byte PNG declaring a 1.8 GB chunk -> {reply.status} in "
          f"{reply.elapsed:.2f} s, peak RSS {peak_before:.0f} -> {peak_after:.0f} MB: {reply.body[:120]!r}")
    assert 400 <= reply.status < 500, f"{route}: the file was not refused: {reply!r}"
    assert reply.elapsed < LIMIT_S, f"{route}: refusing it took {reply.elapsed:.1f} s (at most {LIMIT_S} s)"
    assert peak_after - peak_before < 200, f"{route}: the server's peak memory grew by {peak_after - peak_before:.0f} MB"
    assert server.images() == images_before, "a picture file was written"
    assert server.alive()
