#!/usr/bin/env python3
"""A shop's day over the JSON API, with 1 and more concurrent clients, then a check that the books balance.

Usage: scripts/bench-shopday.py BINARY [--clients 1,8] [--client python|wrk] [--baseline BASELINE] [--postgres N]
  BINARY      a build of stockroom (release for figures: swift build -c release --product stockroom)
  --clients   client counts, comma-separated (default 1,8); each count gets a fresh server on a fresh data folder
  --client    what sends the requests: `python` (default; one thread and one http.client connection per client) or
              `wrk` (wrk 4 with a generated Lua script, one wrk thread and one connection per client, each sending its
              share in order and writing every answer to a file, which this script then checks exactly as it checks
              the Python client's): a client far cheaper per request, for when the Python client is what limits a
              phase (issue 15, point 5). wrk is installed with apt-get when missing.
  --baseline  a release build of Benchmarks/Baseline, the bare Hummingbird app: the client's own ceiling (below) is
              then measured against its constant answer instead of Stockroom's `GET /health`
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

Before the phases, the same clients ask a route that does nothing (the bare app's constant JSON, `/json`, with
--baseline, else Stockroom's `/health`, without sign-in) 2,000 times: the client's own ceiling, printed beside the phases. A phase
that comes near it is limited by the client, not the server.

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
import signal
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
CEILING_REQUESTS = 2000
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
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_healthy(process, port, seconds, log_tail):
    """Waits for a 200 from the program's `/health` on 127.0.0.1:`port`; raises if it stops or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} stopped while starting (exit {process.returncode}): {log_tail()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except Exception:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"no 200 from {process.args[0]}'s /health within {seconds} s")
        time.sleep(0.1)


def close_clients(clients):
    """Closes the Python clients' connections (wrk's close with its run)."""
    if not isinstance(clients, WrkClients):
        for client in clients:
            client.close()


class Server:
    """`stockroom serve` on a fresh temporary data folder (and on `database`, a PostgreSQL URL, when given)."""

    def __init__(self, binary, database=None):
        self.work = tempfile.mkdtemp(prefix="stockroom-shopday-")
        self.data = f"{self.work}/data"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(f"{self.work}/server.log", "wb")
        extra = ["--database", database, "--max-connections-per-address", "10000"] if database else []
        self.process = subprocess.Popen([binary, "serve", "--data", self.data, "--host", "127.0.0.1", "--port", str(self.port), "--no-backups"] + extra,
                                        stdout=self.log, stderr=subprocess.STDOUT, env={"LOG_LEVEL": "error", "PATH": "/usr/bin:/bin"})
        wait_until_healthy(self.process, self.port, 120, self.log_tail)

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


class BaselineApp:
    """The bare Hummingbird app (Benchmarks/Baseline) on a free port of 127.0.0.1."""

    def __init__(self, binary):
        self.port = free_port()
        self.process = subprocess.Popen([binary, str(self.port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until_healthy(self.process, self.port, 60, lambda: "")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


class Phase:
    def __init__(self, name):
        self.name = name
        self.latencies = []
        self.errors = []
        self.operations = 0
        self.seconds = 0.0
        self.lock = threading.Lock()
        self.on_success = None  # called with (method, path, body, parsed answer) for each right answer, under the lock
        self.percentiles = None  # (p50, p95, p99) in ms when the client measured them (wrk) rather than this script

    def latency(self, q):
        if self.percentiles:
            return self.percentiles[{50: 0, 95: 1, 99: 2}[q]]
        return percentile(sorted(self.latencies), q)

    def judge(self, method, path, body, check, status, raw):
        """Records one answer: an error when it is not 2xx or its check fails, else `on_success`."""
        problem, parsed = None, None
        if not 200 <= status < 300:
            problem = f"status {status}: {raw[:300].decode(errors='replace')}"
        else:
            try:
                parsed = json.loads(raw) if raw else None
                problem = check(parsed) if check else None
            except ValueError as error:
                problem = f"not JSON: {error}"
        with self.lock:
            if problem:
                self.errors.append(f"{method} {path} {json.dumps(body) if body is not None else ''} → {problem}")
            elif self.on_success:
                self.on_success(method, path, body, parsed)


def run_phase(phase, clients, operations):
    """Runs `operations` split round-robin across the clients (Python `Client`s, or one `WrkClients`).

    Each operation is (method, path, body, check); check(parsed body) returns None when the answer is right, else the
    reason."""
    if isinstance(clients, WrkClients):
        return clients.run(phase, operations)
    shares = [operations[k::len(clients)] for k in range(len(clients))]

    def work(client, share):
        for method, path, body, check in share:
            start = time.perf_counter()
            try:
                status, raw = client.request(method, path, body)
                elapsed = (time.perf_counter() - start) * 1000
                with phase.lock:
                    phase.latencies.append(elapsed)
                phase.judge(method, path, body, check, status, raw)
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


WRK_SCRIPT = r"""
-- Written by scripts/bench-shopday.py. Thread k (one connection) sends its share of the phase in order, from
-- requests.k.lua, and writes each answer's status and body as a line of answers.k; after its last answer it writes
-- the monotonic times of its first request and last answer to times.k and stops. (wrk's main thread sleeps for the
-- whole -d duration whatever its threads do; the script ends it with SIGINT once every times.k is there.)
local folder, token = os.getenv("SHOPDAY_FOLDER"), os.getenv("SHOPDAY_TOKEN")
local ffi = require("ffi")
ffi.cdef[[
  struct shopday_timespec { long tv_sec; long tv_nsec; };
  int clock_gettime(int clock, struct shopday_timespec *now);
]]
local function now_ns()  -- CLOCK_MONOTONIC, the clock Python's time.monotonic_ns reads
  local t = ffi.new("struct shopday_timespec")
  ffi.C.clock_gettime(1, t)
  return tonumber(t.tv_sec) * 1e9 + tonumber(t.tv_nsec)
end
local threads = {}
local counter = 0

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local list, out, answered, first

function init(args)
  list = dofile(folder .. "/requests." .. index .. ".lua")
  out = io.open(folder .. "/answers." .. index, "w")
  answered = 0
  if #list == 0 then out:close(); io.open(folder .. "/times." .. index, "w"):close(); wrk.thread:stop() end
end

-- One connection per thread, no pipelining: requests and answers alternate, so the next request is the one after the
-- last answered. (wrk also calls request() once before the threads start, to check what it builds: that call must
-- not use a request up.)
function request()
  if answered >= #list then
    return wrk.format("GET", "/health")  -- never sent: the thread stops at its last answer
  end
  if answered == 0 then first = now_ns() end
  local r = list[answered + 1]
  local headers = { ["Accept"] = "application/json" }
  if token ~= "" then headers["Authorization"] = "Bearer " .. token end
  if r[3] then headers["Content-Type"] = "application/json" end
  return wrk.format(r[1], r[2], headers, r[3])
end

function response(status, headers, body)
  answered = answered + 1
  out:write(status, " ", (string.gsub(body or "", "[\r\n]", " ")), "\n")
  if answered >= #list then
    local last = now_ns()
    out:close()
    local times = io.open(folder .. "/times." .. index, "w")
    times:write(string.format("%.0f %.0f", first, last))
    times:close()
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local f = io.open(folder .. "/summary.json", "w")
  local e = summary.errors
  f:write(string.format('{"duration_us": %d, "requests": %d, "connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d, ' ..
                        '"p50_us": %d, "p95_us": %d, "p99_us": %d}',
                        summary.duration, summary.requests, e.connect, e.read, e.write, e.status, e.timeout,
                        latency:percentile(50), latency:percentile(95), latency:percentile(99)))
  f:close()
end
"""


class WrkClients:
    """`count` clients played by wrk: one wrk thread with one keep-alive connection each, so each client's answers
    come back in the order of its requests and are checked as the Python client's are."""

    def __init__(self, port, token, count):
        self.port, self.token, self.count = port, token or "", count
        if not shutil.which("wrk"):
            sudo = [] if os.geteuid() == 0 else ["sudo"]
            if subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "wrk"], stdout=subprocess.DEVNULL).returncode != 0:
                subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL)
                subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "wrk"], check=True, stdout=subprocess.DEVNULL)

    @staticmethod
    def lua_string(text):
        level = "="
        while f"]{level}]" in text:
            level += "="
        return f"[{level}[{text}]{level}]"

    def run(self, phase, operations):
        shares = [operations[k::self.count] for k in range(self.count)]
        folder = tempfile.mkdtemp(prefix="stockroom-shopday-wrk-")
        try:
            for k, share in enumerate(shares):
                with open(f"{folder}/requests.{k}.lua", "w") as f:
                    f.write("return {\n")
                    for method, path, body, _ in share:
                        payload = self.lua_string(json.dumps(body)) if body is not None else "nil"
                        f.write(f"  {{{self.lua_string(method)}, {self.lua_string(path)}, {payload}}},\n")
                    f.write("}\n")
            with open(f"{folder}/phase.lua", "w") as f:
                f.write(WRK_SCRIPT)
            command = ["wrk", "-t", str(self.count), "-c", str(self.count), "-d", "600s", "--timeout", f"{REQUEST_TIMEOUT}s",
                       "-s", f"{folder}/phase.lua", f"http://127.0.0.1:{self.port}"]
            with open(f"{folder}/wrk.log", "w") as log:
                process = subprocess.Popen(command, env={**os.environ, "SHOPDAY_FOLDER": folder, "SHOPDAY_TOKEN": self.token},
                                           stdout=log, stderr=subprocess.STDOUT)
                while process.poll() is None and not all(os.path.exists(f"{folder}/times.{k}") for k in range(self.count)):
                    time.sleep(0.005)
                if process.poll() is None:
                    process.send_signal(signal.SIGINT)  # wrk's own handler: it stops, joins its threads and calls done()
                process.wait()
            with open(f"{folder}/wrk.log") as log:
                output = log.read()
            if process.returncode != 0 or not os.path.exists(f"{folder}/summary.json"):
                raise RuntimeError(f"wrk failed ({process.returncode}): {output[-1000:]}")
            with open(f"{folder}/summary.json") as f:
                summary = json.load(f)
            times = []
            for k in range(self.count):
                if os.path.exists(f"{folder}/times.{k}"):
                    with open(f"{folder}/times.{k}") as f:
                        times += [tuple(int(v) for v in f.read().split())] if shares[k] else []
            phase.operations = len(operations)
            phase.seconds = ((max(t[1] for t in times) - min(t[0] for t in times)) / 1e9 if times else summary["duration_us"] / 1e6)
            phase.percentiles = (summary["p50_us"] / 1000, summary["p95_us"] / 1000, summary["p99_us"] / 1000)
            for kind in ("connect", "read", "write", "timeout"):
                if summary[kind]:
                    phase.errors.append(f"wrk: {summary[kind]} {kind} error(s)")
            for k, share in enumerate(shares):
                with open(f"{folder}/answers.{k}", "rb") as f:
                    answers = f.read().splitlines()
                if len(answers) != len(share):
                    phase.errors.append(f"client {k}: {len(answers)} answers to {len(share)} requests")
                for (method, path, body, check), line in zip(share, answers):
                    status, _, raw = line.partition(b" ")
                    phase.judge(method, path, body, check, int(status), raw)
            return phase
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def client_ceiling(port, client_count, client_kind, path="/health"):
    """The clients' own ceiling: 2,000 asks of a route that does nothing, without sign-in."""
    clients = WrkClients(port, None, client_count) if client_kind == "wrk" else [Client(port, None) for _ in range(client_count)]
    phase = Phase(f"client's ceiling: GET {path}, no sign-in")
    run_phase(phase, clients, [("GET", path, None, None)] * CEILING_REQUESTS)
    close_clients(clients)
    return phase


def shop_day(binary, client_count, seed, postgres=None, instances=1, client_kind="python", baseline=None):
    """One run: a fresh server (or cluster), the five phases, the books check. Returns (phases, checks, ok)."""
    rng = random.Random(seed)
    server = Cluster(binary, postgres, instances) if postgres else Server(binary)
    try:
        headers, signed_in = server.call("POST", "/api/v1/auth/setup", {"username": "bench", "password": "bench password", "pin": "1234"})
        cookie = headers["Set-Cookie"].split(";")[0]
        _, token = server.call("POST", "/api/v1/tokens", {"name": "shop-day"}, {"Cookie": cookie, "X-CSRF-Token": signed_in["csrfToken"]})
        if baseline:
            phases = [client_ceiling(baseline.port, client_count, client_kind, "/json")]
        else:
            phases = [client_ceiling(server.port, client_count, client_kind)]
        if client_kind == "wrk":
            clients = WrkClients(server.port, token["token"], client_count)
        else:
            clients = [Client(server.port, token["token"]) for _ in range(client_count)]
        first_day = datetime.datetime.now(datetime.timezone.utc).date()

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
        close_clients(clients)

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
    parser.add_argument("--client", choices=["python", "wrk"], default="python", help="what sends the requests (default python)")
    parser.add_argument("--baseline", help="the bare Hummingbird app (Benchmarks/Baseline), for the client's own ceiling")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",") if c.strip()]
    if not counts or any(not 1 <= c <= 64 for c in counts):
        parser.error("--clients takes counts from 1 to 64")

    failed = False
    postgres = Postgres() if args.postgres else None
    args.baseline_app = BaselineApp(args.baseline) if args.baseline else None
    where = (f"PostgreSQL 15 (durable), nginx over {args.postgres} instance{'s' if args.postgres > 1 else ''}, a fresh schema per client count"
             if postgres else "fresh server and data folder per client count")
    client = ("wrk (one thread and connection per client)" if args.client == "wrk" else "Python http.client (one thread and connection per client)")
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; shop-day over HTTP on 127.0.0.1; {where}; client: {client}; "
          f"latency in ms, client side; the client's ceiling against {'the bare Hummingbird app' if args.baseline else 'Stockroom'}")
    try:
        for count in counts:
            failed = report(args, count, postgres) or failed
    finally:
        if postgres:
            postgres.stop()
        if args.baseline_app:
            args.baseline_app.stop()
    sys.exit(1 if failed else 0)


def report(args, count, postgres):
    """Runs the day with `count` clients and prints it; answers whether it failed."""
    failed = False
    started = time.perf_counter()
    try:
        phases, checks, ok = shop_day(args.binary, count, args.seed, postgres, args.postgres or 1, args.client, args.baseline_app)
    except Exception as error:  # noqa: BLE001
        print(f"\n{count} client(s): the run stopped: {error}")
        return True
    print(f"\n{count} client{'s' if count > 1 else ''} ({time.perf_counter() - started:.0f} s in all)")
    print(f"{'phase':42} {'ops':>6} {'ops/s':>8} {'p50':>8} {'p95':>8} {'p99':>8} {'errors':>6}")
    print(f"{'-' * 42} {'-' * 6} {'-' * 8} {'-' * 8} {'-' * 8} {'-' * 8} {'-' * 6}")
    errors = 0
    for phase in phases:
        rate = phase.operations / phase.seconds if phase.seconds > 0 else 0
        print(f"{phase.name:42} {phase.operations:>6} {rate:>8.1f} {phase.latency(50):>8.1f} {phase.latency(95):>8.1f} "
              f"{phase.latency(99):>8.1f} {len(phase.errors):>6}")
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
