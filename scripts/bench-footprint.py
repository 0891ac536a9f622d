#!/usr/bin/env python3
"""Start-up time and resident memory of `stockroom serve` on a large shop, beside a bare Hummingbird app (issue 15, point 6).

Usage: scripts/bench-footprint.py BINARY SHOP_FOLDER [--baseline BASELINE] [--starts N] [--seconds S]

  BINARY        a release build of stockroom (swift build -c release --product stockroom)
  SHOP_FOLDER   a shop made by `stockroom bench --data FOLDER` (10,000 products, 1,000,000 sale lines by default); its
                stockroom.sqlite* files are copied to a temporary folder first, so it is never changed
  --baseline    a release build of Benchmarks/Baseline (default: Benchmarks/Baseline/.build/release/baseline)
  --starts      how many times each server is started to time its start-up (default 7; the median is printed)
  --seconds     how long each load runs (default 10)

Ready: the time from starting the process to its first answer of 200 on /health, polled every millisecond over
127.0.0.1 (the operating system's process start and the server's own start, database opening and migration check
included). Memory: VmRSS from /proc/PID/status once the server has answered and rested 3 s (idle), sampled every
50 ms during a wrk load at 64 connections on authenticated barcode lookups and on product searches (peak), and VmHWM
(the kernel's high-water mark) at the end. The bare app is started, timed and measured the same way in the same run.
"""
import argparse
import http.client
import json
import os
import pathlib
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status_of(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024  # MiB
    return fields


def answers(port, path="/health"):
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        conn.request("GET", path)
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False


def start(argv, port, log):
    """Starts `argv` and returns (process, milliseconds until /health answered 200)."""
    began = time.perf_counter()
    process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    while process.poll() is None:
        if answers(port):
            return process, (time.perf_counter() - began) * 1000
        time.sleep(0.001)
    raise SystemExit(f"error: {argv[0]} exited with {process.returncode} before answering")


def stop(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def call(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    all_headers = {"Content-Type": "application/json"} if body is not None else {}
    all_headers.update(headers or {})
    conn.request(method, path, json.dumps(body) if body is not None else None, all_headers)
    reply = conn.getresponse()
    data = reply.read()
    conn.close()
    return reply.status, reply.getheader("Set-Cookie"), (json.loads(data) if data[:1] in (b"{", b"[") else data)


def load(pid, port, script, seconds, connections=64):
    """Runs wrk against the server while sampling its resident memory; returns (requests/s, peak MiB)."""
    peak = [0.0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], status_of(pid).get("VmRSS", 0))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "-s", script, f"http://127.0.0.1:{port}"],
                         capture_output=True, text=True, check=True).stdout
    done.set()
    sampler.join()
    rate = next((float(line.split()[1]) for line in out.splitlines() if line.startswith("Requests/sec:")), 0.0)
    return rate, peak[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("shop")
    parser.add_argument("--baseline", default=str(ROOT / "Benchmarks/Baseline/.build/release/baseline"))
    parser.add_argument("--starts", type=int, default=7)
    parser.add_argument("--seconds", type=int, default=10)
    args = parser.parse_args()
    for tool in ("wrk",):
        if shutil.which(tool) is None:
            raise SystemExit(f"error: {tool} is missing (apt-get install -y {tool})")
    shop = pathlib.Path(args.shop)
    if not (shop / "stockroom.sqlite").exists():
        raise SystemExit(f"error: {shop}/stockroom.sqlite does not exist (make it with: stockroom bench --data FOLDER)")

    work = pathlib.Path(tempfile.mkdtemp(prefix="stockroom-footprint-"))
    log = open(work / "server.log", "w")
    try:
        data = work / "data"
        data.mkdir()
        for file in shop.glob("stockroom.sqlite*"):
            shutil.copy(file, data / file.name)
        db = sqlite3.connect(data / "stockroom.sqlite")
        lines = db.execute("SELECT COUNT(*) FROM movement WHERE kind = 'sale'").fetchone()[0]
        products = db.execute("SELECT COUNT(*) FROM product").fetchone()[0]
        db.execute("DELETE FROM user")  # the copy is ours: the benchmark creates its own admin
        db.commit()
        db.close()

        rows = []
        # Start-up, several times each; the bare app first.
        port = free_port()
        baseline_ready = []
        for _ in range(args.starts):
            process, ms = start([args.baseline, str(port)], port, log)
            baseline_ready.append(ms)
            stop(process)
        process, ms = start([args.baseline, str(port)], port, log)
        time.sleep(3)
        baseline_idle = status_of(process.pid)["VmRSS"]
        lua = work / "constant.lua"
        lua.write_text('request = function()\n  return wrk.format("GET", "/")\nend\n')
        baseline_rate, baseline_peak = load(process.pid, port, str(lua), args.seconds)
        baseline_hwm = status_of(process.pid)["VmHWM"]
        stop(process)

        port = free_port()
        argv = [args.binary, "serve", "--data", str(data), "--port", str(port), "--no-backups"]
        ready = []
        for _ in range(args.starts):
            process, ms = start(argv, port, log)
            ready.append(ms)
            stop(process)
        process, ms = start(argv, port, log)
        status, cookie, signed_in = call(port, "POST", "/api/v1/auth/setup", {"username": "bench", "password": "bench password", "pin": "1234"})
        assert status == 201, signed_in
        cookie = cookie.split(";")[0]
        _, _, made = call(port, "POST", "/api/v1/tokens", {"name": "footprint"}, {"Cookie": cookie, "X-CSRF-Token": signed_in["csrfToken"]})
        token = made["token"]
        time.sleep(3)
        idle = status_of(process.pid)["VmRSS"]
        _, _, listed = call(port, "GET", "/api/v1/products?limit=500", headers={"Authorization": f"Bearer {token}"})
        codes = [urllib.parse.quote(p["barcode"], safe="") for p in listed["items"] if p.get("barcode")]
        words = sorted({w.lower() for p in listed["items"] for w in p["name"].split() if len(w) >= 4})[:200]
        common = f'wrk.headers["Authorization"] = "Bearer {token}"\n'
        (work / "barcode.lua").write_text(common + "local codes = {" + ",".join(f'"{c}"' for c in codes) + "}\n"
                                          + 'request = function()\n  return wrk.format("GET", "/api/v1/products/barcode/" .. codes[math.random(#codes)])\nend\n')
        (work / "search.lua").write_text(common + "local words = {" + ",".join(f'"{urllib.parse.quote(w)}"' for w in words) + "}\n"
                                         + 'request = function()\n  return wrk.format("GET", "/api/v1/products?search=" .. words[math.random(#words)] .. "&limit=50")\nend\n')
        lookup_rate, lookup_peak = load(process.pid, port, str(work / "barcode.lua"), args.seconds)
        search_rate, search_peak = load(process.pid, port, str(work / "search.lua"), args.seconds)
        time.sleep(3)
        after = status_of(process.pid)
        stop(process)

        print(f"shop: {products:,} products, {lines:,} sale lines ({(data / 'stockroom.sqlite').stat().st_size / 1e6:,.0f} MB); "
              f"{args.starts} starts each, loads of {args.seconds} s at 64 connections (wrk -t2)")
        print()
        print(f"{'':44} {'stockroom':>12} {'bare app':>12} {'target':>10}")
        print(f"{'ready after start, median (ms)':44} {statistics.median(ready):12.0f} {statistics.median(baseline_ready):12.0f} {'≤ 300':>10}")
        print(f"{'ready after start, slowest (ms)':44} {max(ready):12.0f} {max(baseline_ready):12.0f}")
        print(f"{'resident memory idle (MiB)':44} {idle:12.1f} {baseline_idle:12.1f} {'≤ 64':>10}")
        print(f"{'peak under barcode lookups, 64 conn (MiB)':44} {lookup_peak:12.1f} {baseline_peak:12.1f} {'≤ 128':>10}")
        print(f"{'peak under searches, 64 conn (MiB)':44} {search_peak:12.1f} {'':>12} {'≤ 128':>10}")
        print(f"{'high-water mark, whole run (MiB)':44} {after['VmHWM']:12.1f} {baseline_hwm:12.1f}")
        print(f"{'resident 3 s after the loads (MiB)':44} {after['VmRSS']:12.1f}")
        print(f"{'requests/s (lookups; bare: constant JSON)':44} {lookup_rate:12,.0f} {baseline_rate:12,.0f}")
        print(f"{'requests/s (searches)':44} {search_rate:12,.0f}")
    finally:
        log.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
