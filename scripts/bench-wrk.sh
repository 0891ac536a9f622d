#!/usr/bin/env bash
# Load test of the JSON API with wrk: barcode lookups, product searches and durable one-line sales.
#
# Usage: scripts/bench-wrk.sh BINARY SHOP_FOLDER [DURATION_SECONDS]
#   BINARY            a release build of stockroom (swift build -c release --product stockroom)
#   SHOP_FOLDER       a shop made by `stockroom bench --data FOLDER` (10,000 products with barcodes, ~1,000,000 sale
#                     lines); its stockroom.sqlite* files are copied to a temporary folder first, so it is never changed
#   DURATION_SECONDS  how long each wrk run lasts (default 30)
#
# Starts `stockroom serve --no-backups` on 127.0.0.1 (a free port) on the copy (an automatic backup, due at the first
# check on a shop that has none, would zip the whole shop in the middle of a row), creates the admin and an API token, gives 200
# products a large stock (one purchase of 200 lines, 100,000 units each, so no sale fails for lack of stock), writes
# the wrk Lua scripts, then runs wrk for each request at 1, 16 and 64 connections and prints one table.
# The ceiling runs in the same run: a bare Hummingbird app (Benchmarks/Baseline, built in release mode here when
# BASELINE is not given) answering a constant JSON object; authenticated lookups are reported as a share of it.
# Environment: WRK_TIMEOUT (default 5s) is wrk's per-request timeout; a request slower than that counts as an error.
# WARMUP (default 2) is how many seconds each row first runs unrecorded, the same requests at the same connections.
# BASELINE is a release build of Benchmarks/Baseline (default: build it); BASELINE_EXECUTOR=eventloop runs it on
# SwiftNIO's event loops as stockroom runs, and STOCKROOM_EXECUTOR=swift runs stockroom on Swift's own pool as the bare
# app runs by default. SERVE_ARGS are more options for `stockroom serve` (for example --metrics, to measure what the
# measurements cost). LOG_LEVEL is the server's log level (default error here; a shop runs at info, where every
# request writes a line).
# wrk and the server share the machine's cores: on 2 cores wrk's own CPU use lowers the figures.
# ROWS chooses the requests (default: barcode_session barcode health search search_picker sale; the ceiling always
# runs; `mixed`, not run by default, is lookups on half the connections and searches of 50 on the other half at once) and CONNECTIONS the connection counts (default: 1 16 64); a target is judged only when its rows ran.
# PERF_ROW=<request> with PERF_OUT=<file> also records the server with `perf record -g` for three seconds of that
# request's row at 16 connections (or its first), starting a second in: where the server's time goes under load.
# METRICS_OUT=<prefix> (with SERVE_ARGS=--metrics) saves the server's /metrics after each row as <prefix>.<row>-<connections>
# (the counters and histograms add up over the rows run so far).
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
binary=$(realpath "$1")
shop=$2
duration=${3:-30}
timeout=${WRK_TIMEOUT:-5s}
warmup=${WARMUP:-2}
[[ -x $binary ]] || { echo "error: $binary is not an executable" >&2; exit 2; }
[[ -f $shop/stockroom.sqlite ]] || { echo "error: $shop/stockroom.sqlite does not exist (make it with: stockroom bench --data FOLDER)" >&2; exit 2; }
[[ $duration =~ ^[0-9]+$ && $duration -ge 1 && $duration -le 600 ]] || { echo "error: DURATION_SECONDS must be 1…600" >&2; exit 2; }
[[ $warmup =~ ^[0-9]+$ && $warmup -le 60 ]] || { echo "error: WARMUP must be 0…60 (seconds)" >&2; exit 2; }

if ! command -v wrk >/dev/null; then
    echo "installing wrk (apt-get)…" >&2
    if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get install -y -qq wrk >/dev/null 2>&1 || { $sudo apt-get update -qq && $sudo apt-get install -y -qq wrk >/dev/null; }
fi

baseline=${BASELINE:-}
if [[ -z $baseline ]]; then
    here=$(cd "$(dirname "$0")/.." && pwd)
    echo "building the baseline app (swift build -c release --package-path Benchmarks/Baseline)…" >&2
    swift build -c release --package-path "$here/Benchmarks/Baseline" >&2
    baseline="$here/Benchmarks/Baseline/.build/release/baseline"
fi
[[ -x $baseline ]] || { echo "error: $baseline is not an executable" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/stockroom-bench-wrk-XXXXXX")
server_pid=""
baseline_pid=""
cleanup() {
    local status=$?
    if [[ -n $baseline_pid ]]; then kill -TERM "$baseline_pid" 2>/dev/null || true; wait "$baseline_pid" 2>/dev/null || true; fi
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$server_pid" 2>/dev/null && kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [[ $status -ne 0 && -f $work/server.log ]]; then
        echo "--- last lines of the server's log ---" >&2
        tail -n 20 "$work/server.log" >&2 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$work/data" "$work/lua"
cp "$shop"/stockroom.sqlite* "$work/data/"

# A shop copied from a running server may already have staff: then no first admin can be made and their passwords are
# unknown. The copy is ours, so remove its accounts (sessions and shifts go with them; audit entries keep the name).
python3 - "$work/data/stockroom.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
has_users = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'user'").fetchone()[0]
if has_users and db.execute("SELECT COUNT(*) FROM user").fetchone()[0]:
    print("note: the shop has staff accounts; removing them from the copy so the benchmark can create its admin", file=sys.stderr)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("DELETE FROM user")
    db.commit()
db.close()
PY

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
# shellcheck disable=SC2086  # SERVE_ARGS is a list of words on purpose
LOG_LEVEL="${LOG_LEVEL:-error}" "$binary" serve --data "$work/data" --host 127.0.0.1 --port "$port" --no-backups ${SERVE_ARGS:-} >"$work/server.log" 2>&1 &
server_pid=$!
for i in $(seq 1 600); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$base/health" || true) == 200 ]] && break
    kill -0 "$server_pid" 2>/dev/null || { echo "error: the server stopped while starting" >&2; exit 1; }
    [[ $i -eq 600 ]] && { echo "error: no 200 from $base/health after 60 s" >&2; exit 1; }
    sleep 0.1
done

baseline_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
"$baseline" "$baseline_port" >"$work/baseline.log" 2>&1 &
baseline_pid=$!
for i in $(seq 1 100); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$baseline_port/json" || true) == 200 ]] && break
    [[ $i -eq 100 ]] && { echo "error: the baseline app did not answer" >&2; exit 1; }
    sleep 0.1
done

# Admin, API token, products, the stock for the sales, and the Lua scripts.
python3 - "$base" "$work/lua" <<'PY'
import json, random, sys, urllib.error, urllib.parse, urllib.request

base, lua = sys.argv[1], sys.argv[2]

def call(method, path, body=None, headers=None, timeout=120):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, reply.headers, json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as error:
        sys.exit(f"error: {method} {path} answered {error.code}: {error.read().decode(errors='replace')[:500]}")

status, headers, signed_in = call("POST", "/api/v1/auth/setup", {"username": "bench", "password": "bench password", "pin": "1234"})
cookie = headers["Set-Cookie"].split(";")[0]
_, _, token = call("POST", "/api/v1/tokens", {"name": "wrk"}, {"Cookie": cookie, "X-CSRF-Token": signed_in["csrfToken"]})
auth = {"Authorization": "Bearer " + token["token"]}

products, offset = [], 0
for _ in range(1000):
    _, _, page = call("GET", f"/api/v1/products?limit=500&offset={offset}", headers=auth)
    products += page["items"]
    offset += 500
    if offset >= page["total"]:
        break
with_barcode = [p for p in products if p.get("barcode")]
sellable = [p for p in products if p["tracksStock"] and not p["archived"] and p["salePrice"] not in ("0", "0.00", "0.000")]
if not with_barcode or not sellable:
    sys.exit(f"error: the shop needs products with barcodes and stock-tracked products with a price ({len(products)} products found)")

rng = random.Random(2026)
chosen = rng.sample(sellable, min(200, len(sellable)))
call("POST", "/api/v1/purchases", {"note": "wrk benchmark stock", "lines": [
    {"productId": p["id"], "quantity": "100000", "unitCost": "1.00"} for p in chosen]}, headers=auth)

fragments = set()
for _ in range(100_000):
    if len(fragments) >= 500:
        break
    name = rng.choice(products)["name"].strip()
    size = min(len(name), rng.randint(3, 5))
    start = rng.randint(0, len(name) - size)
    fragment = name[start:start + size].strip()
    if len(fragment) >= 2:
        fragments.add(fragment)

def lua_list(values):
    return "{\n" + ",\n".join(json.dumps(v) for v in values) + "\n}"

common_body = """
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
  io.write(string.format("RESULT %d %d %.2f %.2f %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, e.connect, e.read, e.write, e.timeout, e.status))
end
"""
common = 'wrk.headers["Authorization"] = %s\n' % json.dumps("Bearer " + token["token"]) + common_body
# A browser's session: the cookie it got at sign-in (reads need no CSRF header).
session_common = 'wrk.headers["Cookie"] = %s\n' % json.dumps(cookie) + common_body

with open(f"{lua}/barcode.lua", "w") as f:
    f.write(common + "local codes = " + lua_list([urllib.parse.quote(p["barcode"], safe="") for p in with_barcode]) + "\n"
            + 'request = function()\n  return wrk.format("GET", "/api/v1/products/barcode/" .. codes[math.random(#codes)])\nend\n')
with open(f"{lua}/barcode-session.lua", "w") as f:
    f.write(session_common + "local codes = " + lua_list([urllib.parse.quote(p["barcode"], safe="") for p in with_barcode]) + "\n"
            + 'request = function()\n  return wrk.format("GET", "/api/v1/products/barcode/" .. codes[math.random(#codes)])\nend\n')
with open(f"{lua}/health.lua", "w") as f:
    f.write(common_body + 'request = function()\n  return wrk.format("GET", "/health")\nend\n')
with open(f"{lua}/baseline.lua", "w") as f:
    f.write(common_body + 'request = function()\n  return wrk.format("GET", "/json")\nend\n')
with open(f"{lua}/search.lua", "w") as f:
    f.write(common + "local fragments = " + lua_list([urllib.parse.quote(s, safe="") for s in sorted(fragments)]) + "\n"
            + 'request = function()\n  return wrk.format("GET", "/api/v1/products?search=" .. fragments[math.random(#fragments)] .. "&limit=50")\nend\n')
# The web app's search-as-you-type pickers (documents-pickers.js) ask for 8 products.
with open(f"{lua}/search-picker.lua", "w") as f:
    f.write(common + "local fragments = " + lua_list([urllib.parse.quote(s, safe="") for s in sorted(fragments)]) + "\n"
            + 'request = function()\n  return wrk.format("GET", "/api/v1/products?search=" .. fragments[math.random(#fragments)] .. "&limit=8")\nend\n')
with open(f"{lua}/sale.lua", "w") as f:
    f.write(common + "local ids = " + lua_list([p["id"] for p in chosen]) + "\n"
            + 'request = function()\n  return wrk.format("POST", "/api/v1/sales", nil, \'{"lines":[{"productId":\' .. ids[math.random(#ids)] .. \',"quantity":"1"}]}\')\nend\n')
print(f"{len(products)} products, {len(with_barcode)} with barcodes; {len(fragments)} search fragments; 200 products stocked with 100,000 units for the sales", file=sys.stderr)
PY

declare -a rows=()
# The browser session goes first: a session left idle for the shop's lock time (5 minutes by default) locks.
rows_run=" ${ROWS:-barcode_session barcode health search search_picker sale} "
connections_run=" ${CONNECTIONS:-1 16 64} "
perf_connections=16
[[ $connections_run == *" 16 "* ]] || perf_connections=$(awk '{ print $1 }' <<<"$connections_run")
ran() { [[ $rows_run == *" $1 "* ]]; }
for kind in baseline $rows_run; do
    for connections in $connections_run; do
        threads=$(( connections < 2 ? 1 : 2 ))
        log="$work/wrk-$kind-$connections.log"
        target_url=$base
        [[ $kind == baseline ]] && target_url="http://127.0.0.1:$baseline_port"
        echo "wrk: $kind, $connections connections, ${duration}s…" >&2
        # A warm-up of the same requests first, not recorded: the first seconds of a row pay for opening the point
        # readers' connections, filling caches and faulting pages in, which the row before it (or nothing, for the first
        # row) did not pay for the same routes; without it the first row after the ceiling came out 5-10 % lower
        # whichever request it was (BENCHMARKS.md).
        if (( warmup > 0 )); then
            warm=${kind//_/-}
            [[ $kind == mixed ]] && warm=search
            wrk -t"$threads" -c"$connections" -d"${warmup}s" --timeout "$timeout" -s "$work/lua/$warm.lua" "$target_url" >/dev/null 2>&1 || true
        fi
        if [[ -n ${PERF_OUT:-} && $kind == "${PERF_ROW:-}" && $connections == "$perf_connections" ]]; then
            command -v perf >/dev/null || { echo "error: PERF_OUT needs perf (apt-get install linux-perf)" >&2; exit 2; }
            (sleep 1; perf record -F 2000 -g -p "$server_pid" -o "$PERF_OUT" -- sleep 3 >/dev/null 2>&1) &
        fi
        if [[ $kind == mixed ]]; then
            # Half the connections look up barcodes while the other half search (50 a page), at once: whether a
            # till's scans wait behind the back office's searches. Two rows, each its own wrk.
            half=$(( connections < 2 ? 1 : connections / 2 ))
            wrk -t1 -c"$half" -d"${duration}s" --timeout "$timeout" --latency -s "$work/lua/barcode.lua" "$target_url" >"$log.lookups" 2>&1 &
            lookups_pid=$!
            wrk -t1 -c"$half" -d"${duration}s" --timeout "$timeout" --latency -s "$work/lua/search.lua" "$target_url" >"$log" 2>&1 \
                || { cat "$log" >&2; echo "error: wrk failed" >&2; exit 1; }
            wait "$lookups_pid" || { cat "$log.lookups" >&2; echo "error: wrk failed" >&2; exit 1; }
            result=$(grep '^RESULT ' "$log.lookups" | tail -n 1) || { cat "$log.lookups" >&2; echo "error: no RESULT line from wrk" >&2; exit 1; }
            read -r _ requests duration_us p50 p99 connect_errors read_errors write_errors timeouts non2xx <<<"$result"
            errors=$(( connect_errors + read_errors + write_errors + timeouts + non2xx ))
            rate=$(awk -v n="$requests" -v us="$duration_us" 'BEGIN { printf "%.0f", (us > 0) ? n / (us / 1e6) : 0 }')
            rows+=("$(printf '%-46s %11s %9s %8s %8s %8s' "mixed: lookups (token) beside searches, half each" "$connections" "$rate" "$p50" "$p99" "$errors")")
        else
            wrk -t"$threads" -c"$connections" -d"${duration}s" --timeout "$timeout" --latency -s "$work/lua/${kind//_/-}.lua" "$target_url" >"$log" 2>&1 \
                || { cat "$log" >&2; echo "error: wrk failed" >&2; exit 1; }
        fi
        if [[ -n ${METRICS_OUT:-} && $kind != baseline ]]; then
            curl -s --max-time 10 "$base/metrics" >"$METRICS_OUT.$kind-$connections" || echo "note: no /metrics (serve --metrics?)" >&2
        fi
        result=$(grep '^RESULT ' "$log" | tail -n 1) || { cat "$log" >&2; echo "error: no RESULT line from wrk" >&2; exit 1; }
        read -r _ requests duration_us p50 p99 connect_errors read_errors write_errors timeouts non2xx <<<"$result"
        # wrk's "Non-2xx or 3xx responses" (status > 399) are errors, and so is every socket error and timeout.
        errors=$(( connect_errors + read_errors + write_errors + timeouts + non2xx ))
        rate=$(awk -v n="$requests" -v us="$duration_us" 'BEGIN { printf "%.0f", (us > 0) ? n / (us / 1e6) : 0 }')
        case $kind in
            baseline) label="ceiling: bare Hummingbird app, constant JSON" ;;
            health) label="GET /health (no sign-in)" ;;
            barcode) label="barcode lookup, API token" ;;
            barcode_session) label="barcode lookup, browser session" ;;
            search) label="search (GET /products?search=...&limit=50)" ;;
            search_picker) label="search, a picker's page (...&limit=8)" ;;
            sale) label="one-line sale (POST /sales)" ;;
            mixed) label="mixed: searches of 50 beside lookups, half each" ;;
        esac
        detail=""
        (( errors > 0 )) && detail=" (non-2xx $non2xx, connect $connect_errors, read $read_errors, write $write_errors, timeout $timeouts)"
        rows+=("$(printf '%-46s %11s %9s %8s %8s %8s%s' "$label" "$connections" "$rate" "$p50" "$p99" "$errors" "$detail")")
        eval "rate_${kind}_${connections}=$rate p50_${kind}_${connections}=$p50 p99_${kind}_${connections}=$p99 errors_${kind}_${connections}=$errors"
    done
done

# The sales' ceiling, in the same run, on the same disk: the three statements of a one-line sale, raw, one per commit
# (the store's schema and settings, none of its work; `stockroom bench --ceiling-only`).
echo "raw SQLite ceiling (stockroom bench --ceiling-only)…" >&2
ceiling_output=$("$binary" bench --ceiling-only --data "$work/ceiling")
raw_commits=$(awk '/^ceiling per-commit/ { print $3 }' <<<"$ceiling_output")
raw_batch=$(awk '/^ceiling batch/ { print $3 }' <<<"$ceiling_output")

echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; wrk ${duration}s per row (-t1 at 1 connection, -t2 otherwise), timeout $timeout; HTTP on 127.0.0.1"
printf '%-46s %11s %9s %8s %8s %8s\n' "request" "connections" "req/s" "p50 ms" "p99 ms" "errors"
printf '%-46s %11s %9s %8s %8s %8s\n' "----------------------------------------------" "-----------" "---------" "--------" "--------" "--------"
printf '%s\n' "${rows[@]}"
printf '%-46s %11s %9s\n' "ceiling: raw SQLite, one sale per commit" "—" "$raw_commits"
printf '%-46s %11s %9s\n' "ceiling: raw SQLite, 1,000 sales per commit" "—" "$raw_batch"
echo

# Each route's rate as a share of the ceiling in this run, at each connection count.
printf '%-46s %11s %9s\n' "share of the ceiling (bare Hummingbird app)" "connections" "%"
for kind in $rows_run; do
    [[ $kind == mixed ]] && continue
    for connections in $connections_run; do
        rate_var="rate_${kind}_${connections}" ceiling_var="rate_baseline_${connections}"
        share=$(awk -v r="${!rate_var}" -v c="${!ceiling_var}" 'BEGIN { printf "%.0f", (c > 0) ? 100 * r / c : 0 }')
        printf '%-46s %11s %9s\n' "$kind" "$connections" "$share"
    done
done
echo

# Targets (issue 15): authenticated barcode lookups ≥ 50 % of the ceiling at 16 connections with p99 ≤ 5 ms;
# durable one-line sales at 16 and at 64 connections ≥ the raw per-commit ceiling of this run, p99 ≤ 50 ms.
printf '%s | %s | %s\n' "target" "met" "where"
half_ceiling=$(( rate_baseline_16 / 2 ))
share() {
    local kind=$1 name=$2 rate_var="rate_${1}_16" p99_var="p99_${1}_16" errors_var="errors_${1}_16" met=no
    if awk -v r="${!rate_var}" -v p="${!p99_var}" -v e="${!errors_var}" -v h="$half_ceiling" 'BEGIN { exit !(r >= h && p <= 5 && e == 0) }'; then met=yes; fi
    printf '%s | %s | %s\n' "$name" "$met" "16 conn: ${!rate_var} req/s of a ceiling of $rate_baseline_16 ($(( 100 * ${!rate_var} / (rate_baseline_16 > 0 ? rate_baseline_16 : 1) )) %), p99 ${!p99_var} ms"
}
if [[ $connections_run != *" 16 "* ]]; then
    echo "(no row at 16 connections: the targets are not judged)"
    exit 0
fi
ran barcode && share barcode "barcode lookup with an API token ≥ 50 % of the ceiling, p99 ≤ 5 ms"
ran barcode_session && share barcode_session "barcode lookup with a browser session ≥ 50 % of the ceiling, p99 ≤ 5 ms"
# Search (point 2): ≥ 50 % of the token lookup's rate at 16 connections, p50 ≤ 3 ms.
search_target() {
    local kind=$1 name=$2 rate_var="rate_${1}_16" p50_var="p50_${1}_16" errors_var="errors_${1}_16" met=no
    if awk -v r="${!rate_var}" -v p="${!p50_var}" -v e="${!errors_var}" -v l="$rate_barcode_16" 'BEGIN { exit !(2 * r >= l && p <= 3 && e == 0) }'; then met=yes; fi
    printf '%s | %s | %s\n' "$name" "$met" "16 conn: ${!rate_var} req/s, $(( 100 * ${!rate_var} / (rate_barcode_16 > 0 ? rate_barcode_16 : 1) )) % of the token lookup's $rate_barcode_16, p50 ${!p50_var} ms"
}
if ran barcode; then
    ran search && search_target search "search, 50 products a page, ≥ 50 % of the token lookup's rate, p50 ≤ 3 ms"
    ran search_picker && search_target search_picker "search, 8 products a page, ≥ 50 % of the token lookup's rate, p50 ≤ 3 ms"
fi
if ! ran sale || [[ $connections_run != *" 64 "* ]]; then exit 0; fi
sales_met=yes
for connections in 16 64; do
    rate_var="rate_sale_${connections}" p99_var="p99_sale_${connections}" errors_var="errors_sale_${connections}"
    awk -v r="${!rate_var}" -v p="${!p99_var}" -v e="${!errors_var}" -v c="$raw_commits" 'BEGIN { exit !(r >= c && p <= 50 && e == 0) }' || sales_met=no
done
printf '%s | %s | %s\n' "durable one-line sales at 16 and 64 connections ≥ the raw per-commit ceiling, p99 ≤ 50 ms" "$sales_met" \
    "ceiling $raw_commits/s; 16 conn: $rate_sale_16 req/s ($(( 100 * rate_sale_16 / (raw_commits > 0 ? raw_commits : 1) )) %), p99 $p99_sale_16 ms; 64 conn: $rate_sale_64 req/s ($(( 100 * rate_sale_64 / (raw_commits > 0 ? raw_commits : 1) )) %), p99 $p99_sale_64 ms"
