"""Finding 7 (medium): slow clients held connections forever.

A body sent at 1 byte/s and a request head sent at 1 byte/s are cut off within 15 s; 300 half-sent requests from one
address do not keep /health (on a server limited to 256 open files) (asked from another address) from answering within 2 s; one address cannot hold more
than a capped number of connections."""
import select
import socket
import threading
import time

import pytest

from conftest import Server

ATTACKER = "127.0.0.1"
PROBE = "127.0.0.2"
# The cap's own attacker: the server notices the close of the previous test's connections from ATTACKER on its own
# event loops, possibly after this test's first connections arrive, so a shared address would see a count that is
# still falling (1 run in 3 on PostgreSQL: 13 of the earlier connections still counted, the extra one then served).
CAPPED = "127.0.0.3"


@pytest.fixture(scope="module")
def server():
    s = Server(max_files=256).setup_admin()  # a small file limit, as in the report
    yield s
    s.cleanup()


def trickle(server, head, body_length, results, key, limit=25):
    """Sends `head` at once (when body_length) or byte by byte, then the body 1 byte/s; records when the server closed."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=limit, source_address=(ATTACKER, 0))
    start = time.monotonic()
    answer = b""
    try:
        if body_length:
            sock.sendall(head)
            to_send = b"{" + b" " * (body_length - 1)
        else:
            to_send = head  # the request head itself, never finished
        for byte in to_send:
            if time.monotonic() - start > limit:
                break
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                break
            ready, _, _ = select.select([sock], [], [], 1.0)
            if ready:
                try:
                    data = sock.recv(4096)
                except ConnectionResetError:
                    data = b""
                answer += data
                if not data:
                    break
        results[key] = (time.monotonic() - start, answer[:60])
    finally:
        sock.close()


def test_slow_body_and_slow_head_are_cut_off(server):
    results = {}
    head = (f"POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 1000\r\n\r\n").encode()
    slow_head = (f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Padding: " + "a" * 200).encode()
    threads = [threading.Thread(target=trickle, args=(server, head, 1000, results, "body at 1 byte/s")),
               threading.Thread(target=trickle, args=(server, slow_head, 0, results, "head at 1 byte/s"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=40)
    print("\n" + "; ".join(f"{key}: closed after {elapsed:.1f} s ({answer!r})" for key, (elapsed, answer) in results.items()))
    for key, (elapsed, answer) in results.items():
        assert elapsed < 15, f"{key}: the server held the connection {elapsed:.1f} s (must close within 15 s)"
    assert server.alive()


def probe_health(server, timeout=2):
    start = time.monotonic()
    reply = server.request("GET", "/health", timeout=timeout, source=PROBE)
    return reply.status, time.monotonic() - start


def open_many(server, count, payload=b"", source=ATTACKER):
    sockets = []
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=2, source_address=(source, 0))
            if payload:
                sock.sendall(payload)
            sockets.append(sock)
        except OSError:
            break
    return sockets


def closed_by_server(sockets, wait=2.0):
    """How many of the sockets the server has closed (EOF or reset) within `wait` seconds."""
    closed = set()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and len(closed) < len(sockets):
        ready, _, _ = select.select([s for s in sockets if s not in closed], [], [], 0.2)
        for sock in ready:
            try:
                if not sock.recv(4096):
                    closed.add(sock)
            except OSError:
                closed.add(sock)
    return len(closed)


def test_half_sent_requests_do_not_starve_health(server):
    partial = f"GET /api/v1/products HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Never: ".encode()
    sockets = open_many(server, 300, partial)
    try:
        status, elapsed = probe_health(server)
        print(f"\n{len(sockets)} half-sent requests from {ATTACKER}: /health from {PROBE} -> {status} in {elapsed:.2f} s")
        assert len(sockets) == 300, f"could open only {len(sockets)} attacking connections"
        assert status == 200 and elapsed < 2, f"/health answered {status} in {elapsed:.2f} s"
    finally:
        for sock in sockets:
            sock.close()


def test_connections_per_address_are_capped(server):
    sockets = open_many(server, 300, source=CAPPED)
    try:
        closed = closed_by_server(sockets, wait=2.0)
        # One more from the same address, while the rest are held.
        extra = socket.create_connection(("127.0.0.1", server.port), timeout=3, source_address=(CAPPED, 0))
        extra.sendall(f"GET /health HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        try:
            answer = extra.recv(100)
        except OSError:
            answer = b""
        extra.close()
        status, elapsed = probe_health(server)
        print(f"\n300 idle connections from {CAPPED}: {closed} closed by the server within 2 s; one more from there got "
              f"{answer[:20]!r}; /health from {PROBE} -> {status} in {elapsed:.2f} s")
        assert closed > 0, "300 idle connections from one address were all kept open: no per-address cap"
        assert len(sockets) - closed <= 128, f"{len(sockets) - closed} connections from one address held (the cap is 128)"
        assert not answer.startswith(b"HTTP/1.1 200"), "a new connection from the capped address was still served"
        assert status == 200 and elapsed < 2, f"/health from another address answered {status} in {elapsed:.2f} s"
    finally:
        for sock in sockets:
            sock.close()
