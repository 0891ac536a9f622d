#!/usr/bin/env python3
"""Times the calls the web app's products screen makes, over HTTP, against a large shop.

Usage: scripts/bench-web.py BINARY DATA_FOLDER [REPEATS]
  BINARY       a release build of stockroom (swift build -c release --product stockroom)
  DATA_FOLDER  a shop made by `stockroom bench --data FOLDER` (10,000 products, ~1,000,000 sale lines); it is
               copied first, so the benchmark never changes it

Starts `stockroom serve` on the copy, creates an admin and an API token, then requests each URL REPEATS times
(default 30) and prints the median and the slowest time per URL, measured in the client (the whole HTTP round trip
on 127.0.0.1, JSON encoding included).
"""
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

binary, source = sys.argv[1], sys.argv[2]
repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 30
work = tempfile.mkdtemp(prefix="stockroom-bench-web-")
shutil.copy(f"{source}/stockroom.sqlite", f"{work}/stockroom.sqlite")
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
base = f"http://127.0.0.1:{port}"
server = subprocess.Popen([binary, "serve", "--data", work, "--port", str(port), "--no-backups"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env={"LOG_LEVEL": "error", "PATH": "/usr/bin:/bin"})
try:
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/health", timeout=1).read()
            break
        except Exception:
            time.sleep(0.1)

    def call(method, path, body=None, headers=None):
        request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.headers, reply.read()

    headers, body = call("POST", "/api/v1/auth/setup", {"username": "bench", "password": "bench-password"})
    cookie = headers["Set-Cookie"].split(";")[0]
    _, body = call("POST", "/api/v1/tokens", {"name": "bench"}, {"Cookie": cookie, "X-CSRF-Token": json.loads(body)["csrfToken"]})
    auth = {"Authorization": "Bearer " + json.loads(body)["token"]}
    total = json.loads(call("GET", "/api/v1/products?limit=1", headers=auth)[1])["total"]

    urls = [
        ("first page (50, by name)", "/api/v1/products?limit=50&offset=0"),
        ("page at offset 5,000", "/api/v1/products?limit=50&offset=5000"),
        ("last page", f"/api/v1/products?limit=50&offset={max(0, total - 50)}"),
        ("search, prefix of a name", "/api/v1/products?limit=50&search=prod"),
        ("search, part of a name", "/api/v1/products?limit=50&search=456"),
        ("search, a barcode", "/api/v1/products?limit=50&search=2100000004560"),
        ("status low", "/api/v1/products?limit=50&status=low"),
        ("sorted by stock value", "/api/v1/products?limit=50&sort=value"),
        ("products screen HTML", "/app/products"),
    ]
    print(f"{total} products; {repeats} requests per row; milliseconds per request (client side, HTTP on 127.0.0.1)")
    print(f"{'request':32} {'median':>8} {'max':>8}")
    for label, path in urls:
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            call("GET", path, headers=auth if path.startswith("/api/") else {"Cookie": cookie})
            times.append((time.perf_counter() - start) * 1000)
        print(f"{label:32} {statistics.median(times):8.1f} {max(times):8.1f}")
finally:
    server.terminate()
    server.wait(timeout=10)
    shutil.rmtree(work, ignore_errors=True)
