"""Issue 13, point 6: several instances on one PostgreSQL schema behind nginx, under load and faults.

test_cross_instance  a token revoked through one instance is refused by the others at once; receipt numbers over sales
                     spread across the three instances are gapless (refused sales take none).
test_faults_under_load
                     24 clients sell, buy and back-date through nginx for STOCKROOM_CLUSTER_SECONDS while instance 2 is
                     killed (SIGKILL) and restarted and PostgreSQL is stopped and started; every document is re-sent with
                     its Idempotency-Key until it is answered. Then: no 5xx but 503 (always with Retry-After), every
                     acknowledged document booked exactly once, the books equal to a replay of the acknowledged
                     documents into a fresh SQLite shop, the balance identity per product, and every instance healthy
                     again within 15 s of PostgreSQL's restart.
"""
import collections
import datetime
import http.client
import json
import os
import random
import threading
import time
import uuid
from decimal import Decimal

from conftest import Client, wait_healthy

SECONDS = float(os.environ.get("STOCKROOM_CLUSTER_SECONDS", "45"))
CLIENTS = int(os.environ.get("STOCKROOM_CLUSTER_CLIENTS", "24"))
GRACE = 90          # seconds after the load during which a client still re-sends a document not yet answered
HEALTH_LIMIT = 15   # seconds within which every instance must answer /health 200 after PostgreSQL is back
SLOW = 10           # seconds: a request slower than this is listed in the summary
TIMEOUT = float(os.environ.get("STOCKROOM_CLUSTER_TIMEOUT", "40"))  # the clients' socket timeout (nginx gives up at 30)
HANG = 25           # seconds: a request not answered within this is a finding (the server promises 503 within ~5 s)
HOT = 3             # the first HOT products are the "hot" ones every client sells

# name, salePrice, taxRate, unit; the opening stock is bought 4 days back
PRODUCTS = [(f"Hot {i}", price, tax, "pcs") for i, (price, tax) in enumerate([("2.50", "0"), ("3.10", "7"), ("1.99", "19")], 1)] + [
    (f"Product {i:02}", f"{1 + (i * 37) % 900 / 100:.2f}", ["0", "7", "19", "5.5"][i % 4], "kg" if i % 6 == 0 else "pcs")
    for i in range(4, 21)]


def iso(instant):
    return instant.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now():
    return datetime.datetime.now(datetime.timezone.utc)


def parse(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


# -- what the clients saw -----------------------------------------------------------------------------------------------

class Record:
    """Everything the clients saw, shared by their threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.statuses = collections.Counter()        # (method path-kind, status) -> count
        self.errors = collections.Counter()          # connection errors and timeouts by exception name
        self.acknowledged = {}                       # document id -> dict (kind, key, body, effectiveAt, lines …)
        self.key_ids = {}                            # idempotency key -> the id its first 2xx answered
        self.refusals = collections.Counter()        # (kind, status, problem code) -> count
        self.anomalies = []                          # what must not happen, with the request and the answer
        self.retries = 0                             # re-sends of the same request (same key)
        self.lost_answers = 0                        # a first 2xx that said Idempotent-Replayed (an earlier answer lost)
        self.replay_checks = 0                       # acknowledged documents deliberately sent again
        self.unavailable = 0                         # 503s seen
        self.requests = 0
        self.origin = time.monotonic()               # the load's start (set by the test)
        self.slow = []                               # (sent at, seconds, label, outcome) of requests slower than SLOW s

    def saw(self, label, reply, method, path, body):
        with self.lock:
            self.requests += 1
            self.statuses[(label, reply.status)] += 1
            if reply.status == 503:
                self.unavailable += 1
                if "retry-after" not in reply.headers:
                    self.anomalies.append(("503 without Retry-After", method, path, body, reply.status, reply.headers, reply.body))
            elif reply.status >= 500:
                self.anomalies.append((f"{reply.status}", method, path, body, reply.status, reply.headers, reply.body))

    def failed(self, label, error):
        with self.lock:
            self.requests += 1
            self.errors[type(error).__name__] += 1
            self.statuses[(label, type(error).__name__)] += 1


def problem_code(reply):
    try:
        return reply.json().get("code", "?")
    except ValueError:
        return "?"


def timed(client, record, label, method, path, body, headers):
    """One request; remembers it when it took longer than SLOW seconds (or timed out)."""
    sent = time.monotonic()
    outcome = "?"
    try:
        reply = client.request(method, path, body, headers)
        outcome = reply.status
        return reply
    except (OSError, http.client.HTTPException) as error:
        outcome = type(error).__name__
        raise
    finally:
        took = time.monotonic() - sent
        if took > SLOW:
            with record.lock:
                record.slow.append((sent - record.origin, took, label, outcome, (headers or {}).get("Idempotency-Key")))


def send(client, record, method, path, body=None, headers=None, label=None, deadline=None):
    """Sends until answered: a connection error, a timeout or a 503 sends the same request again (after Retry-After or
    0.2 s) until `deadline`; answers the Reply, or None when the deadline passed first."""
    label = label or f"{method} {path.split('?')[0].rstrip('0123456789')}"
    first = True
    while True:
        if not first:
            with record.lock:
                record.retries += 1
        first = False
        try:
            reply = timed(client, record, label, method, path, body, headers)
        except (OSError, http.client.HTTPException) as error:
            record.failed(label, error)
            if deadline is not None and time.monotonic() > deadline:
                return None
            time.sleep(0.2)
            continue
        record.saw(label, reply, method, path, body)
        if reply.status == 503 or (reply.status >= 500 and method == "POST"):
            # (another 5xx is an anomaly already recorded; a document is still sent again so that whether it was
            # booked is known)
            if deadline is not None and time.monotonic() > deadline:
                return None
            try:
                pause = float(reply.headers.get("retry-after", "0.2"))
            except ValueError:
                pause = 0.2
            time.sleep(min(max(pause, 0.2), 2.0))
            continue
        return reply


def post_document(client, record, kind, document, deadline, rng):
    """POSTs a sale or a purchase with a fresh Idempotency-Key, re-sent as is until answered; records the outcome."""
    path = {"sale": "/api/v1/sales", "purchase": "/api/v1/purchases"}[kind]
    key = str(uuid.uuid4())
    body = json.dumps(document).encode()
    reply = send(client, record, "POST", path, body, {"Idempotency-Key": key}, label=f"POST {kind}", deadline=deadline)
    if reply is None:
        with record.lock:
            record.anomalies.append(("never answered (gave up after the grace period)", "POST", path, body, None, {}, key))
        return None
    if 200 <= reply.status < 300:
        answer = reply.json()
        with record.lock:
            if reply.headers.get("idempotent-replayed") == "true":
                record.lost_answers += 1
            if answer["id"] in record.acknowledged:
                record.anomalies.append((f"two keys answered the same {kind} {answer['id']}", "POST", path, body, reply.status,
                                         reply.headers, reply.body))
            record.key_ids[key] = answer["id"]
            record.acknowledged[answer["id"]] = {
                "kind": kind, "id": answer["id"], "key": key, "request": document, "effectiveAt": answer["effectiveAt"],
                "sentEffectiveAt": document.get("effectiveAt"), "lines": [(l["productId"], l["quantity"]) for l in document["lines"]],
                "receiptNumber": answer.get("receiptNumber")}
        if rng.random() < 0.05:
            # The same request with the same key again (nginx may hand it to another instance): the same document.
            again = send(client, record, "POST", path, body, {"Idempotency-Key": key}, label=f"POST {kind} again", deadline=deadline)
            with record.lock:
                record.replay_checks += 1
                if again is None or again.status != 201 or again.headers.get("idempotent-replayed") != "true" \
                        or again.json().get("id") != answer["id"]:
                    record.anomalies.append((f"a replay did not answer {kind} {answer['id']}", "POST", path, body,
                                             again and again.status, again and again.headers, again and again.body))
        return answer
    if reply.status in (409, 422):
        with record.lock:
            record.refusals[(kind, reply.status, problem_code(reply))] += 1
        return None
    with record.lock:
        record.anomalies.append((f"unexpected {reply.status}", "POST", path, body, reply.status, reply.headers, reply.body))
    return None


# -- the load -----------------------------------------------------------------------------------------------------------

def quantity(rng, unit):
    return f"{rng.randint(125, 2500) / 1000:.3f}".rstrip("0").rstrip(".") if unit == "kg" else str(rng.randint(1, 3))


def sale_document(rng, products, back_dated=False):
    count = 1 if rng.random() < 0.6 else rng.randint(2, 4)
    chosen = []
    while len(chosen) < count:
        product = rng.choice(products[:HOT]) if rng.random() < 0.5 else rng.choice(products[HOT:])
        if product not in chosen:
            chosen.append(product)
    lines = []
    for product in chosen:
        line = {"productId": product["id"], "quantity": quantity(rng, product["unit"])}
        if rng.random() < 0.15:
            line["discount"] = "0.10"
        lines.append(line)
    document = {"paymentMethod": rng.choice(["card", "cash"]), "lines": lines}
    if back_dated:
        document["effectiveAt"] = iso(now() - datetime.timedelta(seconds=rng.uniform(3600, 3 * 86400)))
    return document


def purchase_document(rng, products, back_dated=False):
    count = rng.randint(1, 2)
    chosen = []
    while len(chosen) < count:
        product = rng.choice(products[:HOT]) if rng.random() < 0.4 else rng.choice(products[HOT:])
        if product not in chosen:
            chosen.append(product)
    lines = [{"productId": p["id"], "quantity": str(rng.randint(5, 40)), "unitCost": f"{rng.randint(40, 500) / 100:.2f}"}
             for p in chosen]
    document = {"lines": lines}
    if back_dated:
        document["effectiveAt"] = iso(now() - datetime.timedelta(seconds=rng.uniform(3600, 3 * 86400)))
    return document


def client_loop(number, port, token, products, record, end, deadline):
    rng = random.Random(number * 7919 + int(time.time()))
    client = Client(port, token, timeout=TIMEOUT)
    try:
        while time.monotonic() < end:
            r = rng.random()
            if r < 0.70:
                post_document(client, record, "sale", sale_document(rng, products), deadline, rng)
            elif r < 0.90:
                post_document(client, record, "purchase", purchase_document(rng, products), deadline, rng)
            elif r < 0.95:
                post_document(client, record, "sale", sale_document(rng, products, back_dated=True), deadline, rng)
            else:
                post_document(client, record, "purchase", purchase_document(rng, products, back_dated=True), deadline, rng)
            if rng.random() < 0.1:
                # A read now and then (nginx may retry these on another instance).
                reply = send(client, record, "GET", f"/api/v1/products/{rng.choice(products)['id']}", label="GET product",
                             deadline=deadline)
                if reply is not None and reply.status != 200:
                    with record.lock:
                        record.anomalies.append((f"unexpected {reply.status}", "GET", "product", None, reply.status, reply.headers, reply.body))
    except BaseException as error:  # noqa: BLE001 - a client's crash is a finding, not a silent stop
        with record.lock:
            record.anomalies.append((f"client {number} crashed: {error!r}", None, None, None, None, {}, b""))
    finally:
        client.close()


class Faults(threading.Thread):
    """At 25 % of the load: SIGKILL instance 2, start it again 5 s later. At 60 %: stop PostgreSQL (fast), start it
    again 2 s later, then time how long each instance takes to answer /health 200 directly."""

    def __init__(self, cluster, start, seconds):
        super().__init__(name="faults", daemon=True)
        self.cluster, self.start_at, self.seconds = cluster, start, seconds
        self.events = []           # (seconds since the load began, what happened)
        self.health_after_pg = {}  # instance name -> seconds after PostgreSQL was back, or None
        self.error = None

    def note(self, what):
        self.events.append((time.monotonic() - self.start_at, what))

    def sleep_until(self, fraction):
        time.sleep(max(0.0, self.start_at + fraction * self.seconds - time.monotonic()))

    def run(self):
        try:
            second = self.cluster.instances[1]
            self.sleep_until(0.25)
            second.kill()
            self.note("instance2 SIGKILL")
            time.sleep(5)
            self.note("instance2 starting")
            took = second.start()
            self.note(f"instance2 healthy again ({took:.1f} s after its start)")
            self.sleep_until(0.60)
            self.note("PostgreSQL fast stop")
            self.cluster.postgres.stop_fast()
            self.note("PostgreSQL stopped")
            time.sleep(2)
            self.cluster.postgres.start()
            back = time.monotonic()
            self.note("PostgreSQL started again")
            pending = {i.name: i for i in self.cluster.instances}
            while pending and time.monotonic() - back < 60:
                for name, instance in list(pending.items()):
                    try:
                        client = Client(instance.port, timeout=2)
                        status = client.request("GET", "/health").status
                        client.close()
                    except (OSError, http.client.HTTPException):
                        status = None
                    if status == 200:
                        self.health_after_pg[name] = time.monotonic() - back
                        del pending[name]
                time.sleep(0.1)
            for name in pending:
                self.health_after_pg[name] = None
            self.note("every instance healthy" if not pending else f"not healthy after 60 s: {sorted(pending)}")
        except BaseException as error:  # noqa: BLE001 - reported by the test
            self.error = error
            self.note(f"fault thread failed: {error!r}")


# -- reading the books --------------------------------------------------------------------------------------------------

def read(client, path):
    reply = client.request("GET", path)
    for _ in range(50):
        if reply.status != 503:
            break
        time.sleep(0.5)
        reply = client.request("GET", path)
    assert reply.status == 200, f"GET {path}: {reply!r}"
    return reply.json()


def all_pages(client, path):
    out, offset = [], 0
    while True:
        page = read(client, f"{path}{'&' if '?' in path else '?'}limit=500&offset={offset}")
        out += page
        if len(page) < 500:
            return out
        offset += 500


def books(client, products, instants, first_day, last_day):
    """The figures compared between the cluster and the replay (product ids as given by `products`' order)."""
    figures = {
        "valuation": read(client, "/api/v1/reports/valuation"),
        "valuation total": read(client, "/api/v1/reports/valuation/total"),
        "daily": read(client, f"/api/v1/reports/daily?from={first_day}&to={last_day}"),
        "daily total": read(client, f"/api/v1/reports/daily/total?from={first_day}&to={last_day}"),
        "taxes": read(client, f"/api/v1/reports/taxes?from={first_day}&to={last_day}"),
        "top by revenue": read(client, f"/api/v1/reports/top?from={first_day}&to={last_day}&limit=50&by=revenue"),
    }
    for at in instants:
        figures[f"snapshot at {at}"] = read(client, f"/api/v1/reports/snapshot?at={at}")
    for index, product in enumerate(products):
        p = read(client, f"/api/v1/products/{product['id']}")
        figures[f"product {index + 1} ({product['name']})"] = {k: p[k] for k in ("quantity", "stockValue", "averageCost", "averageCostExact")}
    return figures


def renumber(value, mapping):
    """`value` with every productId (and a snapshot line's) mapped through `mapping`."""
    if isinstance(value, list):
        return [renumber(v, mapping) for v in value]
    if isinstance(value, dict):
        return {k: (mapping.get(v, v) if k == "productId" else renumber(v, mapping)) for k, v in value.items()}
    return value


def differences(left, right, path="", out=None, limit=20):
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right)):
            differences(left.get(key), right.get(key), f"{path}.{key}", out, limit)
    elif isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for i, (a, b) in enumerate(zip(left, right)):
            differences(a, b, f"{path}[{i}]", out, limit)
    elif left != right:
        out.append(f"{path}: cluster {json.dumps(left)[:200]} != replay {json.dumps(right)[:200]}")
    return out


def table(rows):
    width = max(len(r[0]) for r in rows)
    return "\n".join(f"  {name:<{width}}  {value}" for name, value in rows)


# -- the tests ----------------------------------------------------------------------------------------------------------

def test_cross_instance(cluster):
    """A revoked token is refused at once by the other instances; receipt numbers stay gapless across instances."""
    instances = cluster.instances
    admin = [i.client(cluster.admin_token) for i in instances]

    # -- a token revoked through instance 1
    created = cluster.admin_session.ok("POST", "/api/v1/tokens", {"name": "to-revoke"})
    victim = [i.client(created["token"]) for i in instances]
    for client, instance in zip(victim, instances):
        reply = client.request("GET", "/api/v1/auth/me")
        assert reply.status == 200, f"the fresh token on {instance.name}: {reply!r}"
    revoked = instances[0].client()
    revoked.cookie, revoked.csrf = cluster.admin_session.cookie, cluster.admin_session.csrf
    reply = revoked.request("DELETE", f"/api/v1/tokens/{created['id']}")
    assert reply.status in (200, 204), f"revoking the token through instance1: {reply!r}"
    at = time.monotonic()
    refused_after = {}
    for client, instance in zip(victim[1:], instances[1:]):
        attempts = 0
        while True:
            attempts += 1
            status = client.request("GET", "/api/v1/auth/me").status
            if status == 401:
                refused_after[instance.name] = (time.monotonic() - at, attempts)
                break
            assert time.monotonic() - at < 1.0, f"{instance.name} still accepts the token revoked through instance1 " \
                                                 f"{time.monotonic() - at:.2f} s later ({attempts} requests, last {status})"
            time.sleep(0.05)
    print("\nrevoked token refused:", {k: f"{v[0] * 1000:.0f} ms, request {v[1]}" for k, v in refused_after.items()})
    assert all(attempts == 1 for _, attempts in refused_after.values()), \
        f"the first request after the revocation was still accepted somewhere: {refused_after}"

    # -- receipt numbers over sales spread across the three instances
    scarce = admin[0].ok("POST", "/api/v1/products", {"name": "Scarce", "salePrice": "4.00"})["id"]
    plenty = admin[1].ok("POST", "/api/v1/products", {"name": "Plenty", "salePrice": "1.00"})["id"]
    admin[2].ok("POST", "/api/v1/purchases", {"lines": [{"productId": scarce, "quantity": "20", "unitCost": "2.00"},
                                                        {"productId": plenty, "quantity": "1000", "unitCost": "0.50"}]})
    answered, refused, problems = {}, collections.Counter(), []
    lock = threading.Lock()

    def seller(n):
        clients = [i.client(cluster.admin_token) for i in instances]
        rng = random.Random(n)
        for j in range(8):
            client = clients[(n + j) % 3]
            lines = [{"productId": scarce if rng.random() < 0.5 else plenty, "quantity": str(rng.randint(1, 2))}]
            reply = client.request("POST", "/api/v1/sales", {"paymentMethod": "card", "lines": lines},
                                   {"Idempotency-Key": str(uuid.uuid4())})
            with lock:
                if reply.status == 201:
                    answered[reply.json()["id"]] = (reply.json()["receiptNumber"], instances[(n + j) % 3].name)
                elif reply.status == 422:
                    refused[problem_code(reply)] += 1
                else:
                    problems.append(reply)
        for client in clients:
            client.close()

    threads = [threading.Thread(target=seller, args=(n,)) for n in range(9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not problems, f"sales answered neither 201 nor 422: {problems[:5]}"
    listed = {s["id"]: s["receiptNumber"] for s in all_pages(admin[0], "/api/v1/sales")}
    numbers = sorted(listed.values())
    per_instance = collections.Counter(name for _, name in answered.values())
    print(f"receipts: {len(answered)} sales booked over {dict(per_instance)}, {sum(refused.values())} refused {dict(refused)}; "
          f"numbers {numbers[:3]} … {numbers[-3:]}")
    assert set(listed) == set(answered), f"listed sales {sorted(listed)} != answered {sorted(answered)}"
    assert numbers == list(range(1, len(numbers) + 1)), f"receipt numbers are not 1…{len(numbers)} without gaps: {numbers}"
    assert all(listed[i] == answered[i][0] for i in answered), "a sale's receipt number changed after it was answered"
    assert len(per_instance) == 3, f"the sales did not reach all three instances: {per_instance}"
    for client in admin + victim + [revoked]:
        client.close()


def test_faults_under_load(cluster, replay_server):
    phases = []
    t = time.monotonic()
    setup = cluster.client()
    products = []
    for name, price, tax, unit in PRODUCTS:
        created = setup.ok("POST", "/api/v1/products", {"name": name, "salePrice": price, "taxRate": tax, "unit": unit})
        products.append({"id": created["id"], "name": name, "salePrice": price, "taxRate": tax, "unit": unit})
    record = Record()
    opening = now() - datetime.timedelta(days=4)
    for index, product in enumerate(products):
        stock = "25" if index < HOT else "200"  # the hot ones run short now and then: some sales are refused
        document = {"effectiveAt": iso(opening + datetime.timedelta(seconds=index)), "note": "opening stock",
                    "lines": [{"productId": product["id"], "quantity": stock, "unitCost": f"{0.35 + index * 0.17:.2f}"}]}
        assert post_document(setup, record, "purchase", document, time.monotonic() + 60, random.Random(0)) is not None, \
            f"opening stock of {product['name']}: {record.anomalies or record.refusals}"
    tokens = [cluster.mint_token(f"client-{n}") for n in range(CLIENTS)]
    setup.close()
    phases.append(("set-up (products, opening stock, tokens)", time.monotonic() - t))

    # -- the load, with the faults
    start = record.origin = time.monotonic()
    end, deadline = start + SECONDS, start + SECONDS + GRACE
    faults = Faults(cluster, start, SECONDS)
    clients = [threading.Thread(target=client_loop, name=f"client-{n}",
                                args=(n, cluster.nginx.port, tokens[n], products, record, end, deadline)) for n in range(CLIENTS)]
    faults.start()
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join(timeout=SECONDS + GRACE + 60)
    faults.join(timeout=120)
    phases.append((f"load ({CLIENTS} clients, {SECONDS:.0f} s asked) and its stragglers", time.monotonic() - start))
    assert not any(thread.is_alive() for thread in clients), "a client thread is still running after the grace period"

    # -- what the server booked
    t = time.monotonic()
    reader = cluster.client(timeout=60)
    server_sales = all_pages(reader, "/api/v1/sales")
    server_purchases = all_pages(reader, "/api/v1/purchases")
    phases.append(("listing the booked documents", time.monotonic() - t))

    acknowledged = record.acknowledged
    kinds = collections.Counter(doc["kind"] for doc in acknowledged.values())
    back_dated = collections.Counter(doc["kind"] for doc in acknowledged.values() if doc["sentEffectiveAt"])
    statuses = collections.Counter()
    for (label, status), count in record.statuses.items():
        statuses[status] += count
    summary = [
        ("load seconds (asked)", f"{SECONDS:.0f}"),
        ("client threads", CLIENTS),
        ("requests sent (with re-sends)", record.requests),
        ("statuses seen", ", ".join(f"{s}: {c}" for s, c in sorted(statuses.items(), key=str))),
        ("connection errors / timeouts", dict(record.errors) or 0),
        ("re-sends (same key)", record.retries),
        ("503s seen", record.unavailable),
        ("answers lost, then replayed", record.lost_answers),
        ("deliberate replays checked", record.replay_checks),
        ("acknowledged sales", f"{kinds['sale']} ({back_dated['sale']} back-dated)"),
        ("acknowledged purchases", f"{kinds['purchase']} ({back_dated['purchase']} back-dated, {len(products)} opening)"),
        ("refused (legitimately)", ", ".join(f"{k[0]} {k[1]} {k[2]}: {c}" for k, c in sorted(record.refusals.items())) or 0),
        ("listed by the server", f"{len(server_sales)} sales, {len(server_purchases)} purchases"),
    ]
    summary += [(f"fault at {at:5.1f} s", what) for at, what in faults.events]
    summary += [(f"/health 200 after PostgreSQL back: {name}", "never" if s is None else f"{s:.1f} s")
                for name, s in sorted(faults.health_after_pg.items())]
    summary += [(f"slow request sent at {at:5.1f} s", f"{took:.1f} s, {label} -> {outcome} (key {key})")
                for at, took, label, outcome, key in sorted(record.slow)]
    print("\n== cluster rig: the load\n" + table(summary))

    # 1. No client saw a 5xx other than 503, and every 503 said when to try again; nothing else unexpected.
    assert faults.error is None, f"the fault thread failed: {faults.error!r}"
    assert not record.anomalies, f"{len(record.anomalies)} anomalies; the first ones:\n" + "\n".join(
        f"  {a[0]}: {a[1]} {a[2]} body={a[3]!r:.300} -> {a[4]} {a[5]} {a[6]!r:.600}" for a in record.anomalies[:10])
    assert record.unavailable > 0 or record.errors, "the faults produced no 503 and no connection error: they did not bite"

    # 2. Every acknowledged document is booked exactly once: the server's documents are exactly the acknowledged ones.
    for kind, listed in (("sale", server_sales), ("purchase", server_purchases)):
        ids = [d["id"] for d in listed]
        assert len(ids) == len(set(ids)), f"the {kind} list repeats ids: {[i for i, c in collections.Counter(ids).items() if c > 1]}"
        expected = {i for i, d in acknowledged.items() if d["kind"] == kind}
        extra, missing = sorted(set(ids) - expected), sorted(expected - set(ids))
        assert not extra and not missing, (f"{kind}s: {len(ids)} booked, {len(expected)} acknowledged; booked but never "
                                           f"acknowledged {extra[:20]}, acknowledged but not booked {missing[:20]}")
    receipts = sorted(s["receiptNumber"] for s in server_sales)
    assert receipts == list(range(1, len(receipts) + 1)), \
        f"receipt numbers are not gapless 1…{len(receipts)}: missing {sorted(set(range(1, len(receipts) + 1)) - set(receipts))[:20]}"

    # 3. The balance identity per product, from the cluster's own ledger and from the acknowledged documents.
    t = time.monotonic()
    expected_quantity = collections.defaultdict(Decimal)
    expected_lines = collections.Counter()
    for doc in acknowledged.values():
        sign = 1 if doc["kind"] == "purchase" else -1
        for product_id, q in doc["lines"]:
            expected_quantity[product_id] += sign * Decimal(q)
            expected_lines[product_id] += 1
    broken = []
    for product in products:
        p = read(reader, f"/api/v1/products/{product['id']}")
        movements = read(reader, f"/api/v1/products/{product['id']}/movements")
        last = max(movements, key=lambda m: (m["effectiveAt"], m["documentId"], m["id"]))
        value_sum = sum(Decimal(m["valueChange"]) for m in movements)
        quantity_sum = sum(Decimal(m["quantity"]) for m in movements)
        checks = [
            ("last movement's quantityAfter = stock", Decimal(last["quantityAfter"]), Decimal(p["quantity"])),
            ("last movement's valueAfter = stock value", Decimal(last["valueAfter"]), Decimal(p["stockValue"])),
            ("Σ movement quantities = stock", quantity_sum, Decimal(p["quantity"])),
            ("Σ movement value changes = stock value", value_sum, Decimal(p["stockValue"])),
            ("Σ purchased − Σ sold (acknowledged) = stock", expected_quantity[product["id"]], Decimal(p["quantity"])),
            ("movements = acknowledged lines", len(movements), expected_lines[product["id"]]),
        ]
        broken += [f"{product['name']}: {what}: {a} != {b}" for what, a, b in checks if a != b]
        if any(Decimal(m["quantityAfter"]) < 0 for m in movements):
            broken.append(f"{product['name']}: a movement leaves negative stock")
    phases.append(("balance identity (ledger of every product)", time.monotonic() - t))
    assert not broken, "the balance identity fails:\n  " + "\n  ".join(broken)

    # 4. The books equal a replay of the acknowledged documents, in id order, into a fresh SQLite shop.
    t = time.monotonic()
    replay = replay_server.client()
    setup_reply = replay.request("POST", "/api/v1/auth/setup", {"username": "admin", "password": "admin-password-1", "displayName": "Replay"})
    assert setup_reply.status == 201, setup_reply
    replay.cookie, replay.csrf = setup_reply.headers["set-cookie"].split(";")[0], setup_reply.json()["csrfToken"]
    replay.token = replay.ok("POST", "/api/v1/tokens", {"name": "replay"})["token"]
    replay.cookie = None
    mapping = {}
    for product in products:
        created = replay.ok("POST", "/api/v1/products", {"name": product["name"], "salePrice": product["salePrice"],
                                                         "taxRate": product["taxRate"], "unit": product["unit"]})
        mapping[product["id"]] = created["id"]
    back = {v: k for k, v in mapping.items()}
    refused_in_replay = []
    replay_ids = {}
    for doc_id in sorted(acknowledged):
        doc = acknowledged[doc_id]
        body = dict(doc["request"], effectiveAt=doc["effectiveAt"])
        body["lines"] = [dict(line, productId=mapping[line["productId"]]) for line in doc["request"]["lines"]]
        path = "/api/v1/sales" if doc["kind"] == "sale" else "/api/v1/purchases"
        reply = replay.request("POST", path, body, {"Idempotency-Key": doc["key"]})
        if reply.status != 201:
            refused_in_replay.append(f"{doc['kind']} {doc_id} at {doc['effectiveAt']}: {reply.status} {reply.body[:300]!r}")
        else:
            replay_ids[doc_id] = reply.json()["id"]
    phases.append((f"replay of {len(acknowledged)} documents into SQLite", time.monotonic() - t))
    assert not refused_in_replay, f"{len(refused_in_replay)} acknowledged documents were refused by the replay:\n  " + \
        "\n  ".join(refused_in_replay[:10])

    t = time.monotonic()
    effective = sorted(parse(d["effectiveAt"]) for d in acknowledged.values())
    first, last = effective[0], effective[-1]
    instants = [iso(first - datetime.timedelta(milliseconds=1))]
    instants += [iso(first + (last - first) * k / 7) for k in range(1, 7)]
    instants += [iso(parse(d["effectiveAt"])) for d in random.Random(1).sample(list(acknowledged.values()), 5)]
    instants.append(iso(last + datetime.timedelta(seconds=1)))
    first_day, last_day = first.date().isoformat(), last.date().isoformat()
    replay_products = [dict(p, id=mapping[p["id"]]) for p in products]
    cluster_books = books(reader, products, instants, first_day, last_day)
    replay_books = renumber(books(replay, replay_products, instants, first_day, last_day), back)
    # Each document's own figures too: the totals of the sales and purchases lists, in id order.
    cluster_books["sale totals"] = [(s["total"], s["lineCount"], s["effectiveAt"]) for s in sorted(server_sales, key=lambda s: s["id"])]
    cluster_books["purchase totals"] = [(p["total"], p["lineCount"], p["effectiveAt"]) for p in sorted(server_purchases, key=lambda p: p["id"])]
    replay_books["sale totals"] = [(s["total"], s["lineCount"], s["effectiveAt"]) for s in sorted(all_pages(replay, "/api/v1/sales"), key=lambda s: s["id"])]
    replay_books["purchase totals"] = [(p["total"], p["lineCount"], p["effectiveAt"]) for p in sorted(all_pages(replay, "/api/v1/purchases"), key=lambda p: p["id"])]
    cluster_books = json.loads(json.dumps(cluster_books))
    replay_books = json.loads(json.dumps(replay_books))
    phases.append((f"comparing the books ({len(cluster_books)} reports and figures)", time.monotonic() - t))
    print("== cluster rig: phases\n" + table([(name, f"{seconds:.1f} s") for name, seconds in phases]))
    diff = {}
    for key in cluster_books:
        found = differences(cluster_books[key], replay_books.get(key))
        if found:
            diff[key] = found
    assert not diff, f"the books differ from the replay in {len(diff)} of {len(cluster_books)} reports:\n" + "\n".join(
        f"  {key}:\n    " + "\n    ".join(found[:8]) for key, found in list(diff.items())[:8])

    # 5. Every instance reconnected by itself: /health 200 directly within 15 s of PostgreSQL's restart.
    slow = {name: s for name, s in faults.health_after_pg.items() if s is None or s > HEALTH_LIMIT}
    assert len(faults.health_after_pg) == 3 and not slow, \
        f"instances not healthy within {HEALTH_LIMIT} s after PostgreSQL came back: {slow or faults.health_after_pg}"
    for instance in cluster.instances:
        took = wait_healthy(instance.port, 5)
        assert took < 5, f"{instance.name} is not healthy at the end"

    # 6. No request hung: an instance answers every request (a booking, or 503 when the database is out of reach)
    # well within nginx's 30 s; the ones it left hanging reached the client as nginx's 503 and were sent again.
    hung = [(at, took, label, outcome, key) for at, took, label, outcome, key in record.slow if took >= HANG]
    faults_at = ", ".join(f"{what} at {at:.1f} s" for at, what in faults.events if "SIGKILL" in what or "fast stop" in what)
    assert not hung, (f"{len(hung)} requests were left unanswered by their instance for {HANG} s or more ({faults_at}); sent at: "
                      + ", ".join(f"{at:.1f} s ({label}, {took:.0f} s, {outcome})" for at, took, label, outcome, _ in sorted(hung)[:25])
                      + "; see the nginx error log's 'upstream timed out' lines in test-artifacts/cluster/")
    reader.close()
    replay.close()
