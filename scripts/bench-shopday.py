#!/usr/bin/env python3
"""A shop's day over the JSON API, with 1 and more concurrent clients, then a check that the books balance.

Usage: scripts/bench-shopday.py BINARY [--clients 1,8] [--postgres N]
  BINARY      a build of stockroom (release for figures: swift build -c release --product stockroom)
  --clients   client counts, comma-separated (default 1,8); each count gets a fresh server on a fresh data folder
  --postgres  run the day on PostgreSQL instead, through nginx balancing over N instances (issue 13): a throwaway
              durable PostgreSQL 15 for the run (scripts/postgres-throwaway.sh, STOCKROOM_PG_DURABLE=1), a fresh schema
              and N `serve --database` instances per client count, nginx (Debian's package, the cluster rig's
              configuration: tests/cluster/conftest.py) in front; the clients talk to nginx only

For each client count: starts `BINARY serve` on 127.0.0.1 (a free port) on a new empty temporary data folder, creates
the admin and an API token, then runs these phases in order, each phase's operations split round-robin across the
clients (one thread and one keep-alive HTTP connection each):

  create products    200 × POST /api/v1/products, each with a unique EAN-13 (prefix 200, correct check digit)
  receive stock      1,000 × POST /api/v1/purchases, one line each (5 per product, 20–60 units at 0.50–20.00)
  sell               2,000 × POST /api/v1/sales, one line each (10 per product, 1–3 units at the product's price)
  search             500 × GET /api/v1/products?search=FRAGMENT&limit=50 (a part of a product's name)
  barcode lookup     500 × GET /api/v1/products/barcode/CODE

Prints per phase: operations, ops/s (operations / the phase's wall time), p50/p95/p99 latency in ms (client side,
HTTP on 127.0.0.1) and errors (any non-2xx answer, any exception, an empty search, a lookup finding another product).
Then checks through the API that Σ purchase cost = Σ COGS + Σ cost adjustments + stock value and that the stock's
quantity = received − sold, and (after stopping the server) reads the database file read-only to count the documents.
Exits non-zero if any request failed or the books do not balance.
"""
import argparse
import concurrent.futures
import datetime
import http.client
import json
import os
import pathlib
import random
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from decimal import Decimal

ROOT = pathlib.Path(__file__).resolve().parent.parent
PRODUCTS, PURCHASE_LINES, SALES, SEARCHES, LOOKUPS = 200, 1000, 2000, 500, 500
REQUEST_TIMEOUT = 120  # seconds, per request (a debug build is slow)
WORDS = ["Espresso", "Oat milk", "Croissant", "Tea", "Lemonade", "Brownie", "Bagel", "Muffin", "Granola", "Chai",
         "Cocoa", "Sparkling water", "Scone", "Cookie", "Sandwich", "Salad", "Soup", "Juice", "Cake", "Yoghurt"]


def ean13(body12: str) -> str:
    """The 12 digits with their EAN-13 check digit."""
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body12))
    return body12 + str((10 - total % 10) % 10)


def percentile(sorted_values, q):
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, -(-len(sorted_values) * q // 100))  # ceil(n·q/100)
    return sorted_values[int(rank) - 1]


class Client:
    """One keep-alive HTTP connection to the server with the API token."""

    def __init__(self, port, token):
        self.port, self.token = port, token
        self.connection = None

    def request(self, method, path, body=None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        headers = {"Authorization": "Bearer " + self.token, "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=data, headers=headers)
            reply = self.connection.getresponse()
            return reply.status, reply.read()
        except Exception:
            self.close()
            raise

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Server:
    """`stockroom serve` on a fresh temporary data folder (and on `database`, a PostgreSQL URL, when given)."""

    def __init__(self, binary, database=None):
        self.work = tempfile.mkdtemp(prefix="stockroom-shopday-")
        self.data = f"{self.work}/data"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(f"{self.work}/server.log", "wb")
        extra = ["--database", database, "--max-connections-per-address", "10000"] if database else []
        self.process = subprocess.Popen([binary, "serve", "--data", self.data, "--host", "127.0.0.1", "--port", str(self.port), "--no-backups"] + extra,
                                        stdout=self.log, stderr=subprocess.STDOUT, env={"LOG_LEVEL": "error", "PATH": "/usr/bin:/bin"})
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped while starting (exit {self.process.returncode}): {self.log_tail()}")
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except Exception:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("no 200 from /health within 120 s")
            time.sleep(0.1)

    def log_tail(self):
        self.log.flush()
        with open(f"{self.work}/server.log", "rb") as f:
            return f.read()[-2000:].decode(errors="replace")

    def call(self, method, path, body=None, headers=None):
        """A setup call: any non-2xx stops the benchmark."""
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode() if body is not None else None, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as reply:
                return reply.headers, json.loads(reply.read() or b"null")
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} {path} answered {error.code}: {error.read().decode(errors='replace')[:500]}") from None

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()

    def remove(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def database_facts(self):
        """Documents by kind, Σ movement valueChange in cents and the integrity check, read from the file read-only
        (after the server has stopped)."""
        db = sqlite3.connect(f"file:{self.data}/stockroom.sqlite?mode=ro", uri=True)
        kinds = dict(db.execute("SELECT kind, COUNT(*) FROM document GROUP BY kind").fetchall())
        value_cents = db.execute("SELECT COALESCE(SUM(valueChange), 0) FROM movement").fetchone()[0]
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        db.close()
        return kinds, value_cents, ("integrity_check", integrity, "ok")


class Postgres:
    """The throwaway PostgreSQL 15 of a --postgres run, every commit flushed to disk."""

    def __init__(self):
        env = dict(os.environ, STOCKROOM_PG_DURABLE="1")
        out = subprocess.run([f"{ROOT}/scripts/postgres-throwaway.sh", "start"], env=env, check=True, capture_output=True, text=True).stdout
        values = dict(re.findall(r"export (\w+)=['\"]?([^'\"\n]+)", out))
        self.url, self.folder = values["STOCKROOM_TEST_POSTGRES"], values["STOCKROOM_PG_FOLDER"]
        self.host, self.port, self.database = re.match(r"postgres://\w+@([\d.]+):(\d+)/(\w+)", self.url).groups()

    def psql(self, sql):
        return subprocess.run(["/usr/lib/postgresql/15/bin/psql", "-qAt", "-F", "|", "-h", self.host, "-p", self.port, "-U", "postgres",
                               self.database, "-v", "ON_ERROR_STOP=1", "-c", sql], check=True, capture_output=True, text=True).stdout.strip()

    def stop(self):
        subprocess.run([f"{ROOT}/scripts/postgres-throwaway.sh", "stop", self.folder], check=False, capture_output=True)


class Cluster:
    """N `stockroom serve` instances on a fresh schema of `postgres`, behind nginx: the same interface as Server."""

    def __init__(self, binary, postgres, instances):
        sys.path.insert(0, str(ROOT / "tests/cluster"))
        import conftest  # the cluster rig's nginx (its configuration is docs/nginx-stockroom.conf's proxy rules)
        self.postgres = postgres
        self.schema = "shopday_" + "".join(random.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(10))
        url = f"{postgres.url}?schema={self.schema}"
        self.servers = [Server(binary, url)]  # the first one migrates the schema; the others find it ready
        self.servers += [Server(binary, url) for _ in range(instances - 1)]
        self.work = tempfile.mkdtemp(prefix="stockroom-shopday-nginx-")
        self.nginx = conftest.Nginx(self.work, [server.port for server in self.servers])
        self.port = self.nginx.port
        self.base = f"http://127.0.0.1:{self.port}"
        self.call = Server.call.__get__(self)

    def stop(self):
        for server in self.servers:
            server.stop()
        if self.nginx.process.poll() is None:
            self.nginx.stop()

    def remove(self):
        for server in self.servers:
            server.remove()
        shutil.rmtree(self.work, ignore_errors=True)
        self.postgres.psql(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")

    def database_facts(self):
        kinds = dict((kind, int(count)) for kind, count in (line.split("|") for line in self.postgres.psql(
            f"SELECT kind, COUNT(*) FROM {self.schema}.document GROUP BY kind").splitlines()))
        value_cents = int(self.postgres.psql(f"SELECT COALESCE(SUM(valueChange), 0) FROM {self.schema}.movement"))
        gaps = self.postgres.psql(f"SELECT COUNT(*) = COALESCE(MAX(receiptNumber), 0) FROM {self.schema}.document WHERE kind = 'sale'")
        return kinds, value_cents, ("receipt numbers 1…n, no gaps", "yes" if gaps == "t" else "no", "yes")


class Phase:
    def __init__(self, name):
        self.name = name
        self.latencies = []
        self.errors = []
        self.operations = 0
        self.seconds = 0.0
        self.lock = threading.Lock()
        self.on_success = None  # called with (method, path, body, parsed answer) for each right answer, under the lock


def run_phase(phase, clients, operations):
    """Runs `operations` (callables taking a Client and returning (status, body) or raising) split across the clients.

    Each operation is (method, path, body, check); check(status, parsed body) returns None when the answer is right,
    else the reason."""
    shares = [operations[k::len(clients)] for k in range(len(clients))]

    def work(client, share):
        for method, path, body, check in share:
            start = time.perf_counter()
            try:
                status, raw = client.request(method, path, body)
                elapsed = (time.perf_counter() - start) * 1000
                problem = None
                parsed = None
                if not 200 <= status < 300:
                    problem = f"status {status}: {raw[:300].decode(errors='replace')}"
                else:
                    parsed = json.loads(raw) if raw else None
                    problem = check(parsed) if check else None
                with phase.lock:
                    phase.latencies.append(elapsed)
                    if problem:
                        phase.errors.append(f"{method} {path} {json.dumps(body) if body is not None else ''} → {problem}")
                    elif phase.on_success:
                        phase.on_success(method, path, body, parsed)
            except Exception as error:  # noqa: BLE001 - every exception is an error of the run
                elapsed = (time.perf_counter() - start) * 1000
                with phase.lock:
                    phase.latencies.append(elapsed)
                    phase.errors.append(f"{method} {path} → exception {type(error).__name__}: {error}")

    phase.operations = len(operations)
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(clients)) as pool:
        for future in [pool.submit(work, client, share) for client, share in zip(clients, shares)]:
            future.result()
    phase.seconds = time.perf_counter() - start
    return phase


def shop_day(binary, client_count, seed, postgres=None, instances=1):
    """One run: a fresh server (or cluster), the five phases, the books check. Returns (phases, checks, ok)."""
    rng = random.Random(seed)
    server = Cluster(binary, postgres, instances) if postgres else Server(binary)
    try:
        headers, signed_in = server.call("POST", "/api/v1/auth/setup", {"username": "bench", "password": "bench password", "pin": "1234"})
        cookie = headers["Set-Cookie"].split(";")[0]
        _, token = server.call("POST", "/api/v1/tokens", {"name": "shop-day"}, {"Cookie": cookie, "X-CSRF-Token": signed_in["csrfToken"]})
        clients = [Client(server.port, token["token"]) for _ in range(client_count)]
        first_day = datetime.datetime.now(datetime.timezone.utc).date()
        phases = []

        # 1. Products, each with a unique EAN-13.
        bodies = set()
        while len(bodies) < PRODUCTS:
            bodies.add("200" + "".join(rng.choice("0123456789") for _ in range(9)))
        catalogue = []
        for index, body in enumerate(sorted(bodies)):
            name = f"{WORDS[index % len(WORDS)]} {index:03d}"
            catalogue.append({"name": name, "sku": f"SD-{index:03d}", "barcode": ean13(body),
                              "salePrice": f"{rng.randint(150, 4000) // 10}.{rng.randint(0, 9)}0", "taxRate": "7"})
        ids = {}
        phase = Phase("create products")
        phase.on_success = lambda method, path, body, reply: ids.__setitem__(body["sku"], reply["id"])
        run_phase(phase, clients, [("POST", "/api/v1/products", p, lambda r, p=p: None if r.get("barcode") == p["barcode"] else f"barcode {r.get('barcode')}")
                                   for p in catalogue])
        phases.append(phase)
        if phase.errors:
            return phases, [], (False, False)
        product_ids = [ids[p["sku"]] for p in catalogue]

        # 2. Stock: 1,000 one-line purchases, five per product, at varying unit costs.
        purchases = []
        received = {pid: Decimal(0) for pid in product_ids}
        expected_cost = Decimal(0)
        for index in range(PURCHASE_LINES):
            pid = product_ids[index % PRODUCTS]
            quantity = rng.randint(20, 60)
            cost = Decimal(rng.randint(50, 2000)) / 100
            received[pid] += quantity
            expected_cost += quantity * cost
            purchases.append(("POST", "/api/v1/purchases", {"lines": [{"productId": pid, "quantity": str(quantity), "unitCost": f"{cost:.2f}"}]}, None))
        rng.shuffle(purchases)
        phase = Phase("receive stock (1,000 one-line purchases)")
        phases.append(run_phase(phase, clients, purchases))

        # 3. 2,000 one-line sales at the product's price, ten per product.
        sales = []
        sold = {pid: Decimal(0) for pid in product_ids}
        for index in range(SALES):
            pid = product_ids[index % PRODUCTS]
            quantity = rng.randint(1, 3)
            sold[pid] += quantity
            sales.append(("POST", "/api/v1/sales", {"lines": [{"productId": pid, "quantity": str(quantity)}], "paymentMethod": rng.choice(["cash", "card"])}, None))
        rng.shuffle(sales)
        sale_cogs = []
        phase = Phase("one-line sales")
        phase.on_success = lambda method, path, body, reply: sale_cogs.append(Decimal(reply["costOfGoodsSold"]))
        phases.append(run_phase(phase, clients, sales))

        # 4. Searches by a part of a name (3–5 characters of a real name, so at least one product must come back).
        searches = []
        for _ in range(SEARCHES):
            name = rng.choice(catalogue)["name"]
            size = rng.randint(3, 5)
            start = rng.randint(0, len(name) - size)
            fragment = name[start:start + size].strip()
            searches.append(("GET", "/api/v1/products?" + urllib.parse.urlencode({"search": fragment, "limit": 50}), None,
                             lambda r, f=fragment: None if r["items"] else f"no product found for {f!r}"))
        phase = Phase("search by name fragment")
        phases.append(run_phase(phase, clients, searches))

        # 5. Barcode lookups.
        lookups = []
        for _ in range(LOOKUPS):
            index = rng.randrange(PRODUCTS)
            lookups.append(("GET", f"/api/v1/products/barcode/{catalogue[index]['barcode']}", None,
                            lambda r, pid=product_ids[index]: None if r["id"] == pid else f"product {r['id']}, expected {pid}"))
        phase = Phase("barcode lookup")
        phases.append(run_phase(phase, clients, lookups))
        for client in clients:
            client.close()

        # The books, through the API.
        last_day = datetime.datetime.now(datetime.timezone.utc).date()
        purchase_total, purchase_lines, offset = Decimal(0), 0, 0
        for _ in range(1000):
            _, page = server.call("GET", f"/api/v1/purchases?limit=500&offset={offset}", headers={"Authorization": "Bearer " + token["token"]})
            purchase_total += sum(Decimal(p["total"]) for p in page)
            purchase_lines += sum(p["lineCount"] for p in page)
            offset += 500
            if len(page) < 500:
                break
        auth = {"Authorization": "Bearer " + token["token"]}
        _, daily = server.call("GET", f"/api/v1/reports/daily?from={first_day - datetime.timedelta(days=1)}&to={last_day + datetime.timedelta(days=1)}", headers=auth)
        cogs = sum(Decimal(d["costOfGoodsSold"]) for d in daily)
        sales_count = sum(d["salesCount"] for d in daily)
        adjustments = Decimal(0)
        for pid in product_ids:
            _, movements = server.call("GET", f"/api/v1/products/{pid}/movements", headers=auth)
            adjustments += sum(Decimal(m["costAdjustment"]) for m in movements)
        _, valuation = server.call("GET", "/api/v1/reports/valuation", headers=auth)
        stock_value = sum(Decimal(v["value"]) for v in valuation)
        _, snapshot = server.call("GET", "/api/v1/reports/snapshot", headers=auth)
        stock_quantity = Decimal(snapshot["totalQuantity"])
        expected_quantity = sum(received.values()) - sum(sold.values())
        checks = [
            ("Σ purchase cost (GET /purchases totals)", purchase_total, expected_cost, "Σ quantity × unit cost sent"),
            ("purchase lines", purchase_lines, PURCHASE_LINES, "sent"),
            ("Σ COGS (GET /reports/daily)", cogs, sum(sale_cogs, Decimal(0)), "Σ costOfGoodsSold of the sale answers"),
            ("sales (GET /reports/daily salesCount)", sales_count, SALES, "sent"),
            ("Σ cost adjustments (GET /products/{id}/movements)", adjustments, None, ""),
            ("stock value (GET /reports/valuation)", stock_value, Decimal(snapshot["totalValue"]), "GET /reports/snapshot totalValue"),
            ("stock quantity (GET /reports/snapshot)", stock_quantity, expected_quantity, "received − sold"),
        ]
        identity = purchase_total == cogs + adjustments + stock_value
        checks.append(("Σ purchase cost − (Σ COGS + Σ adjustments + stock value)", purchase_total - (cogs + adjustments + stock_value), Decimal(0), ""))
        server.stop()

        # A look at the database itself, after the server has stopped.
        kinds, value_cents, (check_name, check_value, check_expected) = server.database_facts()
        checks.append(("database: purchase documents", kinds.get("purchase", 0), PURCHASE_LINES, "sent"))
        checks.append(("database: sale documents", kinds.get("sale", 0), SALES, "sent"))
        checks.append(("database: Σ movement valueChange", Decimal(value_cents) / 100, stock_value, "stock value from the API"))
        checks.append((f"database: {check_name}", check_value, check_expected, ""))
        books = identity and stock_quantity == expected_quantity
        cross_checks = all(expected is None or value == expected for _, value, expected, _ in checks)
        return phases, checks, (books, cross_checks)
    finally:
        server.stop()
        server.remove()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--clients", default="1,8", help="client counts, comma-separated (default 1,8)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--postgres", type=int, metavar="N", help="on PostgreSQL, through nginx over N instances")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",") if c.strip()]
    if not counts or any(not 1 <= c <= 64 for c in counts):
        parser.error("--clients takes counts from 1 to 64")

    failed = False
    postgres = Postgres() if args.postgres else None
    where = (f"PostgreSQL 15 (durable), nginx over {args.postgres} instance{'s' if args.postgres > 1 else ''}, a fresh schema per client count"
             if postgres else "fresh server and data folder per client count")
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; shop-day over HTTP on 127.0.0.1; {where}; latency in ms, client side")
    try:
        for count in counts:
            failed = report(args, count, postgres) or failed
    finally:
        if postgres:
            postgres.stop()
    sys.exit(1 if failed else 0)


def report(args, count, postgres):
    """Runs the day with `count` clients and prints it; answers whether it failed."""
    failed = False
    started = time.perf_counter()
    try:
        phases, checks, ok = shop_day(args.binary, count, args.seed, postgres, args.postgres or 1)
    except Exception as error:  # noqa: BLE001
        print(f"\n{count} client(s): the run stopped: {error}")
        return True
    print(f"\n{count} client{'s' if count > 1 else ''} ({time.perf_counter() - started:.0f} s in all)")
    print(f"{'phase':42} {'ops':>6} {'ops/s':>8} {'p50':>8} {'p95':>8} {'p99':>8} {'errors':>6}")
    print(f"{'-' * 42} {'-' * 6} {'-' * 8} {'-' * 8} {'-' * 8} {'-' * 8} {'-' * 6}")
    errors = 0
    for phase in phases:
        latencies = sorted(phase.latencies)
        rate = phase.operations / phase.seconds if phase.seconds > 0 else 0
        print(f"{phase.name:42} {phase.operations:>6} {rate:>8.1f} {percentile(latencies, 50):>8.1f} {percentile(latencies, 95):>8.1f} "
              f"{percentile(latencies, 99):>8.1f} {len(phase.errors):>6}")
        errors += len(phase.errors)
    shown = [e for phase in phases for e in phase.errors][:5]
    for error in shown:
        print(f"  error: {error}")
    if errors > len(shown):
        print(f"  … and {errors - len(shown)} more errors")
    for name, value, expected, source in checks:
        compare = "" if expected is None else (f"  = {source or 'expected'} {expected}" if value == expected else f"  ≠ {source or 'expected'} {expected}  MISMATCH")
        print(f"  {name}: {value}{compare}")
    books_ok, cross_ok = ok
    if checks:
        figures = {n: (v, e) for n, v, e, _ in checks}
        quantity, expected_quantity = figures["stock quantity (GET /reports/snapshot)"]
        difference = figures["Σ purchase cost − (Σ COGS + Σ adjustments + stock value)"][0]
        print(f"  cross-checks (API against what was sent, and against the database file): {'all equal' if cross_ok else 'MISMATCH'}")
        print(f"  books balance: {'yes' if books_ok else 'no'} (Σ purchase cost {figures['Σ purchase cost (GET /purchases totals)'][0]} "
              f"{'=' if difference == 0 else '≠'} Σ COGS {figures['Σ COGS (GET /reports/daily)'][0]} + Σ cost adjustments "
              f"{figures['Σ cost adjustments (GET /products/{id}/movements)'][0]} + stock value {figures['stock value (GET /reports/valuation)'][0]}; "
              f"stock quantity {quantity} {'=' if quantity == expected_quantity else '≠'} received − sold {expected_quantity})")
    else:
        print("  books balance: no (not checked: a phase failed)")
    failed = failed or errors > 0 or not books_ok or not cross_ok
    return failed


if __name__ == "__main__":
    main()
