#!/usr/bin/env python3
"""Durable one-line sales over HTTP on PostgreSQL, beside pgbench's raw transaction of the same three statements.

Usage: scripts/bench-postgres.py BINARY [--seconds N] [--products N] [--profile]
  BINARY     a release build of stockroom (swift build -c release --product stockroom)
  --profile  also print, for the sales at 16 connections on one instance, the statements PostgreSQL spent its time on
             (pg_stat_statements: calls per sale, mean and total time), and the statements a sale sends

Starts its own throwaway PostgreSQL 15 with every commit flushed to disk (scripts/postgres-throwaway.sh with
STOCKROOM_PG_DURABLE=1), a shop of N products (default 200) each with 1,000,000 units of stock, then:
  * 1 and 3 `stockroom serve --database …` instances on that database, wrk posting one-line sales of random products
    (`POST /api/v1/sales`, a bearer token) at 16 and 64 connections in all (with 3 instances, one wrk per instance
    holding a third of the connections; rates are summed, the p99 is the worst of the three);
  * pgbench in the same run, on the same server, at the same concurrency, with a raw transaction of the statements a
    one-line sale needs at the least: update the product's balance, insert the line, insert the movement.
Prints one table: rate, p50 and p99, errors, and the rate as a share of pgbench's. wrk and pgbench are installed
with apt-get if missing. The machine's cores are shared by PostgreSQL, the instances and the load generators.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
PG_BIN = pathlib.Path("/usr/lib/postgresql/15/bin")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base, method, path, body=None, headers=None, timeout=300):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, reply.headers, json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as error:
        sys.exit(f"error: {method} {path} answered {error.code}: {error.read().decode(errors='replace')[:500]}")


def wait_ready(base, process, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        if process.poll() is not None:
            sys.exit(f"error: the server at {base} stopped while starting")
        time.sleep(0.1)
    sys.exit(f"error: no 200 from {base}/health")


class Postgres:
    """The throwaway server, durable."""

    def __init__(self, profile=False):
        env = dict(os.environ, STOCKROOM_PG_DURABLE="1")
        if profile:
            env["STOCKROOM_PG_OPTIONS"] = "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"
        out = subprocess.run([str(ROOT / "scripts/postgres-throwaway.sh"), "start"], env=env, check=True, capture_output=True, text=True).stdout
        values = dict(re.findall(r"export (\w+)=['\"]?([^'\"\n]+)", out))
        self.url = values["STOCKROOM_TEST_POSTGRES"]
        self.folder = values["STOCKROOM_PG_FOLDER"]
        match = re.match(r"postgres://(\w+)@([\d.]+):(\d+)/(\w+)", self.url)
        self.user, self.host, self.port, self.database = match.groups()

    def stop(self):
        subprocess.run([str(ROOT / "scripts/postgres-throwaway.sh"), "stop", self.folder], check=False, capture_output=True)


def psql(pg, sql, separator="|"):
    return subprocess.run([str(PG_BIN / "psql"), "-qAt", "-F", separator, "-h", pg.host, "-p", pg.port, "-U", pg.user, pg.database,
                           "-v", "ON_ERROR_STOP=1", "-c", sql], check=True, capture_output=True, text=True).stdout.strip()


def cpu_seconds(pid=None):
    """CPU time used so far by process `pid` (user + system), or by the whole machine when None."""
    ticks = os.sysconf("SC_CLK_TCK")
    if pid is None:
        fields = open("/proc/stat").readline().split()[1:]
        return (sum(int(f) for f in fields) - int(fields[3]) - int(fields[4])) / ticks  # all but idle and iowait
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


def install(command, package):
    if shutil.which(command):
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    print(f"installing {package} (apt-get)…", file=sys.stderr)
    subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", package], check=False, capture_output=True)
    if not shutil.which(command):
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, capture_output=True)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", package], check=True, capture_output=True)


LUA_COMMON = """
wrk.headers["Content-Type"] = "application/json"
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
function init(args)
  math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
  for _ = 1, 10 do math.random() end
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %.2f %.2f %d\\n", summary.requests, summary.duration,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, e.connect + e.read + e.write + e.timeout + e.status))
end
"""


def run_wrk(lua, bases, connections, seconds):
    """One wrk per base URL, the connections split between them, all at once; (rate, p50, p99, errors)."""
    shares = [connections // len(bases) + (1 if i < connections % len(bases) else 0) for i in range(len(bases))]
    processes = []
    for base, share in zip(bases, shares):
        threads = 1 if share < 2 else 2
        processes.append(subprocess.Popen(["wrk", f"-t{threads}", f"-c{share}", f"-d{seconds}s", "--timeout", "5s", "--latency", "-s", lua, base],
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    rate, p50s, p99s, errors = 0.0, [], [], 0
    for process in processes:
        out, _ = process.communicate()
        line = [l for l in out.splitlines() if l.startswith("RESULT ")]
        if not line:
            sys.exit("error: no RESULT from wrk:\n" + out)
        _, requests, duration_us, p50, p99, errs = line[-1].split()
        rate += int(requests) / (int(duration_us) / 1e6)
        p50s.append(float(p50))
        p99s.append(float(p99))
        errors += int(errs)
    return rate, max(p50s), max(p99s), errors


def run_pgbench(pg, script, clients, seconds):
    threads = min(clients, 2)
    out = subprocess.run([str(PG_BIN / "pgbench"), "-n", "-f", script, "-c", str(clients), "-j", str(threads), "-T", str(seconds), "-r",
                          "-h", pg.host, "-p", pg.port, "-U", pg.user, pg.database], check=True, capture_output=True, text=True).stdout
    tps = float(re.search(r"tps = ([\d.]+)", out).group(1))
    latency = re.search(r"latency average = ([\d.]+) ms", out)
    return tps, float(latency.group(1)) if latency else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--products", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    binary = str(pathlib.Path(args.binary).resolve())
    install("wrk", "wrk")
    pg = Postgres(profile=args.profile)
    profile = []
    work = pathlib.Path(tempfile.mkdtemp(prefix="stockroom-bench-pg-"))
    servers = []
    try:
        shop = pg.url + "?schema=bench"

        def start(count):
            started = []
            for i in range(count):
                port = free_port()
                data = work / f"instance{len(servers) + i}"
                log = open(work / f"instance{len(servers) + i}.log", "w")
                process = subprocess.Popen([binary, "serve", "--data", str(data), "--database", shop, "--host", "127.0.0.1", "--port", str(port),
                                            "--no-backups", "--max-connections-per-address", "10000", "--database-connections", "40"],
                                           stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, LOG_LEVEL="error"))
                started.append((f"http://127.0.0.1:{port}", process))
            for base, process in started:
                wait_ready(base, process)
            servers.extend(started)
            return [base for base, _ in started]

        def stop_all():
            for _, process in servers:
                process.terminate()
            for _, process in servers:
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
            servers.clear()

        base = start(1)[0]
        _, headers, signed_in = call(base, "POST", "/api/v1/auth/setup", {"username": "bench", "password": "bench password", "pin": "1234"})
        cookie = headers["Set-Cookie"].split(";")[0]
        _, _, token = call(base, "POST", "/api/v1/tokens", {"name": "wrk"}, {"Cookie": cookie, "X-CSRF-Token": signed_in["csrfToken"]})
        auth = {"Authorization": "Bearer " + token["token"]}
        ids = []
        for i in range(args.products):
            _, _, product = call(base, "POST", "/api/v1/products", {"name": f"Bench product {i:04d}", "salePrice": "2.50"}, auth)
            ids.append(product["id"])
        call(base, "POST", "/api/v1/purchases", {"lines": [{"productId": i, "quantity": "1000000", "unitCost": "1.00"} for i in ids]}, auth)
        lua = work / "sale.lua"
        lua.write_text('wrk.headers["Authorization"] = ' + json.dumps("Bearer " + token["token"]) + "\n" + LUA_COMMON
                       + "local ids = {" + ",".join(map(str, ids)) + "}\n"
                       + 'request = function()\n  return wrk.format("POST", "/api/v1/sales", nil, \'{"lines":[{"productId":\' .. ids[math.random(#ids)] .. \',"quantity":"1"}]}\')\nend\n')

        # The raw ceiling: the same three statements a one-line sale needs at the least, in the same database.
        subprocess.run([str(PG_BIN / "psql"), "-q", "-h", pg.host, "-p", pg.port, "-U", pg.user, pg.database, "-v", "ON_ERROR_STOP=1", "-c", f"""
            CREATE TABLE raw_product (id bigint PRIMARY KEY, quantity bigint NOT NULL, value bigint NOT NULL);
            INSERT INTO raw_product SELECT g, 1000000000, 100000000 FROM generate_series(1, {args.products}) g;
            CREATE TABLE raw_line (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, productId bigint NOT NULL, quantity bigint NOT NULL,
                                   price bigint NOT NULL, at timestamptz NOT NULL);
            CREATE TABLE raw_movement (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, lineId bigint NOT NULL, productId bigint NOT NULL,
                                       quantity bigint NOT NULL, valueChange bigint NOT NULL, quantityAfter bigint NOT NULL,
                                       valueAfter bigint NOT NULL, at timestamptz NOT NULL);
            CREATE INDEX raw_movement_product ON raw_movement (productId, at);
            """], check=True, capture_output=True)
        raw = work / "raw-sale.sql"
        raw.write_text(f"""\\set p random(1, {args.products})
BEGIN;
UPDATE raw_product SET quantity = quantity - 1000, value = value - 100 WHERE id = :p;
INSERT INTO raw_line (productId, quantity, price, at) VALUES (:p, 1000, 250, now());
INSERT INTO raw_movement (lineId, productId, quantity, valueChange, quantityAfter, valueAfter, at)
  VALUES (currval('raw_line_id_seq'), :p, -1000, -100, 0, 0, now());
COMMIT;
""")
        rows = []
        raw_rates = {}
        for clients in (1, 16, 64):
            tps, latency = run_pgbench(pg, str(raw), clients, args.seconds)
            raw_rates[clients] = tps
            rows.append((f"ceiling: pgbench, raw 3-statement transaction", clients, tps, None, None, 0, None))
        for instances in (1, 3):
            stop_all()
            bases = start(instances)
            # A few sales first, so each instance's pool and caches are warm.
            run_wrk(str(lua), bases, max(instances, 4), 2)
            for connections in (16, 64):
                measured = args.profile and instances == 1 and connections == 16
                if measured:
                    psql(pg, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()")
                    sales_before = int(psql(pg, "SELECT count(*) FROM bench.document WHERE kind = 'sale'"))
                    instance = servers[0][1].pid
                    cpu_before = (cpu_seconds(instance), cpu_seconds())
                rate, p50, p99, errors = run_wrk(str(lua), bases, connections, args.seconds)
                if measured:
                    cpu_used = (cpu_seconds(instance) - cpu_before[0], cpu_seconds() - cpu_before[1])
                    sales = int(psql(pg, "SELECT count(*) FROM bench.document WHERE kind = 'sale'")) - sales_before
                    profile = [line.split("\t") for line in psql(pg, """
                        SELECT calls, round(mean_exec_time::numeric, 3), round(total_exec_time::numeric), regexp_replace(left(query, 90), '\\s+', ' ', 'g')
                        FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT 40
                        """, separator="\t").splitlines()]
                    profile_sales = sales
                rows.append((f"one-line sale over HTTP, {instances} instance{'s' if instances > 1 else ''}", connections, rate, p50, p99, errors,
                             100 * rate / raw_rates[16 if connections == 16 else 64]))
        stop_all()

        cores = os.cpu_count()
        print()
        print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {cores} cores; PostgreSQL 15 with fsync and synchronous_commit on; "
              f"{args.products} products; {args.seconds}s per row")
        print(f"{'what':52} {'conn':>5} {'per s':>8} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} {'% of pgbench':>12}")
        print("-" * 103)
        for what, connections, rate, p50, p99, errors, share in rows:
            print(f"{what:52} {connections:>5} {rate:>8.0f} {'' if p50 is None else f'{p50:.1f}':>7} {'' if p99 is None else f'{p99:.1f}':>7} "
                  f"{errors:>6} {'' if share is None else f'{share:.0f}':>12}")
        if profile:
            print()
            server_ms, total_ms = (1000 * used / max(1, profile_sales) for used in cpu_used)
            print(f"CPU per sale (1 instance, 16 connections): {total_ms:.1f} ms in all, of which stockroom {server_ms:.1f} ms and "
                  f"PostgreSQL, wrk and the rest {total_ms - server_ms:.1f} ms")
            print(f"pg_stat_statements over {profile_sales} sales (1 instance, 16 connections): the 40 statements PostgreSQL spent most time on")
            print(f"{'per sale':>8} {'mean ms':>8} {'total ms':>8}  statement")
            for calls, mean, total, query in profile:
                print(f"{int(calls) / max(1, profile_sales):>8.2f} {float(mean):>8.3f} {int(total):>8}  {query}")
    finally:
        for _, process in servers:
            process.kill()
        pg.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
