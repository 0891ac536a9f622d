"""Reproduces, on one instance without nginx, the hang test_faults_under_load reports: requests in flight (or sent)
while PostgreSQL shuts down that the instance never answers, instead of a 503 within ~5 s.

    STOCKROOM_BIN=.build/debug/stockroom python3 tests/cluster/hang_repro.py [CLIENTS=16] [CLIENT_TIMEOUT=200]

Starts its own throwaway PostgreSQL and one `stockroom serve` on it, lets CLIENTS threads sell one product (so they
queue on its row), stops PostgreSQL (fast) for 3 s, starts it again, and prints every request in flight at the stop
and the first ones sent after it, with when each was answered (TimeoutError: never, within CLIENT_TIMEOUT s).
"""
import pathlib
import shutil
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import conftest as c  # noqa: E402

clients = int(sys.argv[1]) if len(sys.argv) > 1 else 16
client_timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 200
pg = c.Postgres()
root = pathlib.Path(tempfile.mkdtemp(prefix="stockroom-hang-"))
instance = c.Instance(root, "one", pg.schema_url("repro"))
try:
    instance.start()
    session = instance.client()
    reply = session.request("POST", "/api/v1/auth/setup", c.ADMIN)
    session.cookie, session.csrf = reply.headers["set-cookie"].split(";")[0], reply.json()["csrfToken"]
    token = session.ok("POST", "/api/v1/tokens", {"name": "t"})["token"]
    admin = instance.client(token)
    product = admin.ok("POST", "/api/v1/products", {"name": "P", "salePrice": "1.00"})["id"]
    admin.ok("POST", "/api/v1/purchases", {"lines": [{"productId": product, "quantity": "100000", "unitCost": "0.50"}]})
    results, stopped = [], [None]

    def sell():
        client = instance.client(token, timeout=client_timeout)
        while stopped[0] is None or time.monotonic() < stopped[0] + 1:
            sent = time.monotonic()
            try:
                r = client.request("POST", "/api/v1/sales", {"lines": [{"productId": product, "quantity": "1"}]},
                                   {"Idempotency-Key": str(uuid.uuid4())})
                outcome = (r.status, r.headers.get("retry-after"), r.body[:120])
            except Exception as error:  # noqa: BLE001
                outcome = (type(error).__name__,)
            results.append((sent, time.monotonic(), outcome))
            if stopped[0] is not None and sent > stopped[0]:
                break

    threads = [threading.Thread(target=sell) for _ in range(clients)]
    for t in threads:
        t.start()
    time.sleep(5)
    stopped[0] = time.monotonic()
    pg.stop_fast()
    print(f"PostgreSQL stopped (fast) in {time.monotonic() - stopped[0]:.2f} s", flush=True)
    time.sleep(3)
    pg.start()
    print(f"PostgreSQL started again {time.monotonic() - stopped[0]:.2f} s after the stop", flush=True)
    for t in threads:
        t.join(timeout=client_timeout + 60)
    shown = sorted((s - stopped[0], e - stopped[0], o) for s, e, o in results if e > stopped[0])
    print(f"{len(results)} requests; in flight at the stop or sent after it:")
    for sent, answered, outcome in shown[:40]:
        print(f"  sent {sent:+.2f} s, answered {answered:+.2f} s: {outcome}")
    hung = [x for x in shown if x[2] == ("TimeoutError",)]
    print(f"{len(hung)} never answered within {client_timeout:.0f} s")
finally:
    instance.stop()
    shutil.copy(instance.log_path, "/tmp/hang-server.log")
    pg.remove()
    shutil.rmtree(root, ignore_errors=True)
