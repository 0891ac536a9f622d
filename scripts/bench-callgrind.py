#!/usr/bin/env python3
"""Instructions per request of Stockroom's hot routes, counted by valgrind's callgrind (issue 15, point 7).

Usage: scripts/bench-callgrind.py BINARY SHOP_FOLDER [--baseline BASELINE] [--requests N] [--annotate K]

  BINARY       a release build of stockroom (swift build -c release --product stockroom)
  SHOP_FOLDER  a shop made by `stockroom bench --data FOLDER`; its stockroom.sqlite* files are copied first
  --baseline   a release build of Benchmarks/Baseline (default: built here), the bare Hummingbird app whose constant
               JSON answer is the ceiling every route is compared with
  --requests   measured requests per route (default 300; searches and sales a third of it)
  --annotate   also print each route's K costliest functions (self instructions per request)
  --keep DIR   keep the callgrind dumps in DIR (one per route) for callgrind_annotate or kcachegrind
  --only TEXT  measure only the routes whose label contains TEXT (and the bare app, the ceiling)

Wall-clock rates on a shared 2-core machine move with whatever else runs; an instruction count does not. Each
program runs under `valgrind --tool=callgrind --instr-atstart=no`; after sign-in and set-up, instrumentation is
switched on, each route gets a warm-up, the counters are zeroed, the route is asked N times in sequence on one
keep-alive connection, and the counters are dumped: instructions per request = the dump's total / N. Every thread
of the server counts (event loops, the database pools, timers), so the figure is what the server spends per
request. The client runs outside valgrind. No figure here is a pass/fail test.

stockroom runs its tasks on SwiftNIO's event loops (ARCHITECTURE "Threads"): its counts are then about 230,000
instructions a request higher than on Swift's own pool, although it takes less CPU (the pool's wake-ups run in the
kernel, which callgrind does not count). Compare builds on one executor: STOCKROOM_EXECUTOR=swift in this script's
environment runs the server on Swift's pool, as every figure in BENCHMARKS.md before 2026-12-07 22:00 was taken.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_valgrind():
    if shutil.which("valgrind") and shutil.which("callgrind_control"):
        return
    print("installing valgrind (apt-get)…", file=sys.stderr)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "valgrind"], check=True, stdout=subprocess.DEVNULL)


class Traced:
    """A program running under callgrind, with its counters driven by callgrind_control."""

    def __init__(self, name, argv, port, work, env=None):
        self.name, self.port = name, port
        self.out = os.path.join(work, f"callgrind.{name}")
        self.log = open(os.path.join(work, f"{name}.log"), "w")
        self.process = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={self.out}"] + argv,
            stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        self.dumps = 0

    def wait_ready(self, path, seconds=600):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                sys.exit(f"error: {self.name} stopped while starting; see {self.log.name}:\n" + open(self.log.name).read()[-3000:])
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                connection.request("GET", path)
                if connection.getresponse().status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        sys.exit(f"error: {self.name} did not answer {path} within {seconds} s")

    def control(self, *arguments):
        subprocess.run(["callgrind_control", *arguments, str(self.process.pid)], check=True, stdout=subprocess.DEVNULL)

    def measure(self, label, ask, warmup, count, annotate):
        """Instructions per request of `ask(connection, i)` over `count` requests after `warmup` of them."""
        self.control("--instr=on")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        for i in range(warmup):
            ask(connection, i)
        self.control("--zero")
        for i in range(count):
            ask(connection, warmup + i)
        self.control("--dump=" + label)
        connection.close()
        self.dumps += 1
        dump = f"{self.out}.{self.dumps}"
        for _ in range(100):  # the dump is written asynchronously by the traced program
            if os.path.exists(dump) and any(line.startswith("totals:") for line in open(dump)):
                break
            time.sleep(0.1)
        total = next(int(line.split()[1]) for line in open(dump) if line.startswith("totals:"))
        top = []
        if annotate:
            text = subprocess.run(["callgrind_annotate", "--threshold=100", dump], capture_output=True, text=True).stdout
            for line in text.splitlines():
                parts = line.split(None, 1)
                if len(parts) == 2 and parts[0].replace(",", "").isdigit() and "PROGRAM TOTALS" not in line and ":" in parts[1]:
                    top.append((int(parts[0].replace(",", "")) / count, parts[1].split("[")[0].strip()[:110]))
                if len(top) >= annotate:
                    break
        return total / count, top

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def expect(connection, method, path, body=None, headers=None, status=(200, 201)):
    data = json.dumps(body).encode() if body is not None else None
    connection.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
    reply = connection.getresponse()
    payload = reply.read()
    if reply.status not in status:
        sys.exit(f"error: {method} {path} answered {reply.status}: {payload[:300]!r}")
    return reply, payload


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("shop")
    parser.add_argument("--baseline")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--annotate", type=int, default=0)
    parser.add_argument("--keep")
    parser.add_argument("--only", help="measure only the routes whose label contains this text (the bare app always)")
    options = parser.parse_args()
    binary = os.path.realpath(options.binary)
    if not os.path.isfile(os.path.join(options.shop, "stockroom.sqlite")):
        sys.exit(f"error: {options.shop}/stockroom.sqlite does not exist (make it with: stockroom bench --data FOLDER)")
    ensure_valgrind()
    baseline = options.baseline
    if not baseline:
        print("building the baseline app (swift build -c release --package-path Benchmarks/Baseline)…", file=sys.stderr)
        subprocess.run(["swift", "build", "-c", "release", "--package-path", os.path.join(HERE, "Benchmarks/Baseline")],
                       check=True, stdout=sys.stderr)
        baseline = os.path.join(HERE, "Benchmarks/Baseline/.build/release/baseline")

    work = tempfile.mkdtemp(prefix="stockroom-callgrind-")
    programs = []
    try:
        data = os.path.join(work, "data")
        os.makedirs(data)
        for name in os.listdir(options.shop):
            if name.startswith("stockroom.sqlite"):
                shutil.copy(os.path.join(options.shop, name), data)
        # The copy is ours: remove staff accounts so that the benchmark can create its admin (as bench-wrk.sh does).
        db = sqlite3.connect(os.path.join(data, "stockroom.sqlite"))
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("DELETE FROM user")
        db.commit()
        db.close()

        # valgrind 3.19 (Debian 12) cannot read the DWARF 5 debug information Swift 6 writes, even in release builds,
        # and gives up; copies without it (`objcopy --strip-debug`) keep the symbol table, so functions keep their names.
        def without_debug_info(path, name):
            copy = os.path.join(work, name)
            subprocess.run(["objcopy", "--strip-debug", path, copy], check=True)
            return copy
        binary = without_debug_info(binary, "stockroom")
        baseline = without_debug_info(os.path.realpath(baseline), "baseline")

        n = options.requests
        bare = Traced("baseline", [baseline, str(port := free_port())], port, work)
        programs.append(bare)
        server = Traced("stockroom", [binary, "serve", "--data", data, "--host", "127.0.0.1", "--port", str(port := free_port()), "--no-backups"],
                        port, work, env={"LOG_LEVEL": "error"})
        programs.append(server)
        print("starting both under callgrind (slow: the server takes a minute or more)…", file=sys.stderr)
        bare.wait_ready("/json")
        server.wait_ready("/health")

        setup = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        reply, payload = expect(setup, "POST", "/api/v1/auth/setup", {"username": "bench", "password": "bench password", "pin": "1234"})
        cookie = reply.getheader("Set-Cookie").split(";")[0]
        csrf = json.loads(payload)["csrfToken"]
        _, payload = expect(setup, "POST", "/api/v1/tokens", {"name": "callgrind"}, {"Cookie": cookie, "X-CSRF-Token": csrf})
        bearer = {"Authorization": "Bearer " + json.loads(payload)["token"]}
        _, payload = expect(setup, "GET", "/api/v1/products?limit=500", headers=bearer)
        products = json.loads(payload)["items"]
        rng = random.Random(2026)
        codes = [urllib.parse.quote(p["barcode"], safe="") for p in products if p.get("barcode")]
        sellable = [p for p in products if p["tracksStock"] and not p["archived"]][:50]
        expect(setup, "POST", "/api/v1/purchases", {"note": "callgrind stock", "lines": [
            {"productId": p["id"], "quantity": "100000", "unitCost": "1.00"} for p in sellable]}, bearer)
        fragments = []
        while len(fragments) < 50:
            name = rng.choice(products)["name"]
            start = rng.randrange(max(1, len(name) - 4))
            fragment = name[start:start + rng.randint(3, 5)].strip()
            if len(fragment) >= 3:
                fragments.append(urllib.parse.quote(fragment, safe=""))
        setup.close()

        made = iter(range(10**6))

        def new_product():
            """A product named after one of the shop's, with a fresh SKU and EAN-13 (prefix 299, check digit computed)."""
            k = next(made)
            body = f"299{rng.randrange(10**5):05d}{k % 10**4:04d}"   # 12 digits whatever the count
            check = (10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body)) % 10) % 10
            return {"name": f"{products[k % len(products)]['name']} {k}", "sku": f"CG-{body}", "barcode": body + str(check), "salePrice": "3.50", "taxRate": "7"}

        def get(path, headers=None):
            return lambda connection, i: expect(connection, "GET", path(i), headers=headers)

        routes = [
            (bare, "bare Hummingbird app, constant JSON", get(lambda i: "/json"), n),
            (server, "GET /health (no sign-in)", get(lambda i: "/health"), n),
            (server, "barcode lookup, API token", get(lambda i: "/api/v1/products/barcode/" + codes[i % len(codes)], bearer), n),
            (server, "barcode lookup, browser session", get(lambda i: "/api/v1/products/barcode/" + codes[i % len(codes)], {"Cookie": cookie}), n),
            (server, "search (?search=…&limit=50)", get(lambda i: f"/api/v1/products?search={fragments[i % len(fragments)]}&limit=50", bearer), max(10, n // 3)),
            (server, "search, a picker's page (&limit=8)", get(lambda i: f"/api/v1/products?search={fragments[i % len(fragments)]}&limit=8", bearer), max(10, n // 3)),
            (server, "one-line sale (POST /sales)", lambda connection, i: expect(
                connection, "POST", "/api/v1/sales", {"lines": [{"productId": sellable[i % len(sellable)]["id"], "quantity": "1"}]}, bearer), max(10, n // 3)),
            (server, "create product (POST /products)", lambda connection, i: expect(
                connection, "POST", "/api/v1/products", new_product(), bearer), max(10, n // 3)),
            (server, "receipt (POST /purchases, one line)", lambda connection, i: expect(
                connection, "POST", "/api/v1/purchases", {"lines": [{"productId": sellable[i % len(sellable)]["id"], "quantity": "5",
                                                                     "unitCost": "1.25"}]}, bearer), max(10, n // 3)),
        ]
        if options.only:
            routes = [route for route in routes if route[0] is bare or options.only in route[1]]
        results = []
        for program, label, ask, count in routes:
            print(f"measuring {label} ({count} requests)…", file=sys.stderr)
            per_request, top = program.measure(label.split(" ")[0], ask, max(5, count // 10), count, options.annotate)
            results.append((label, count, per_request, top))
    finally:
        for program in programs:
            program.stop()
        if options.keep:
            os.makedirs(options.keep, exist_ok=True)
            for name in os.listdir(work):
                if name.startswith("callgrind."):
                    shutil.copy(os.path.join(work, name), options.keep)
        shutil.rmtree(work, ignore_errors=True)

    ceiling = results[0][2]
    print()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; valgrind --tool=callgrind; instructions per request, "
          f"sequential requests on one keep-alive connection")
    print(f"{'request':<40} {'requests':>9} {'instructions/request':>21} {'x bare app':>11}")
    print(f"{'-' * 40} {'-' * 9} {'-' * 21} {'-' * 11}")
    for label, count, per_request, _ in results:
        print(f"{label:<40} {count:>9} {per_request:>21,.0f} {per_request / ceiling:>11.2f}")
    if options.annotate:
        for label, _, per_request, top in results:
            print(f"\n{label}: the {len(top)} costliest functions, self instructions per request")
            for cost, function in top:
                print(f"  {cost:>12,.0f}  {function}")


if __name__ == "__main__":
    main()
