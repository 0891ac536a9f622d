"""Attack-replay tests (issue 9): every finding of the security review replayed against a real `stockroom serve` over
real HTTP (and HTTPS where it matters), asserting the refusal and that the shop's data hashes the same before and
after.

Environment:
  STOCKROOM_BIN   the stockroom executable (default .build/debug/stockroom)

Requests go through http.client or raw sockets, never a library that would normalise the path. Each test that signs
in uses fresh client addresses from 127.0.0.0/8 (`fresh_address()`), so the per-address sign-in throttle of one test
does not leak into another.
"""
import hashlib
import http.client
import itertools
import json
import os
import pathlib
import resource
import shutil
import socket
import sqlite3
import ssl
import struct
import subprocess
import tempfile
import time
import uuid
import zlib
from contextlib import contextmanager

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("STOCKROOM_BIN", ROOT / ".build/debug/stockroom"))

ADMIN = ("admin", "admin-password-1", "1234")
STAFF = ("staff", "staff-password-1", "3456")
MANAGER = ("manager", "manager-password-1", "2345")

_addresses = itertools.count(1)


def fresh_address():
    """A loopback address no other test has used in this run (127.20.x.y), for per-address throttling."""
    n = next(_addresses)
    return f"127.20.{n // 250}.{n % 250 + 1}"


def insecure_context():
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class Reply:
    def __init__(self, status, headers, body, elapsed):
        self.status = status
        self.header_list = headers
        self.headers = {}
        for name, value in headers:
            key = name.lower()
            self.headers[key] = self.headers[key] + ", " + value if key in self.headers else value
        self.body = body
        self.elapsed = elapsed

    def json(self):
        return json.loads(self.body)

    @property
    def problem_field(self):
        try:
            return self.json().get("field")
        except Exception:
            return None

    @property
    def cookie(self):
        for name, value in self.header_list:
            if name.lower() == "set-cookie" and value.startswith("stockroom_session="):
                return value.split(";")[0]
        return None

    def __repr__(self):
        return f"<HTTP {self.status} {self.body[:300]!r}>"


class Token:
    def __init__(self, token):
        self.token = token

    def headers(self, method):
        return {"Authorization": "Bearer " + self.token}


class Session:
    """A browser session: the cookie and its CSRF token."""

    def __init__(self, cookie, csrf, user=None):
        self.cookie, self.csrf, self.user = cookie, csrf, user

    def headers(self, method):
        headers = {"Cookie": self.cookie}
        if method not in ("GET", "HEAD", "OPTIONS"):
            headers["X-CSRF-Token"] = self.csrf
        return headers


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_schema_url():
    """A new schema's URL in STOCKROOM_SECURITY_POSTGRES's database, or None (SQLite) when that is not set."""
    base = os.environ.get("STOCKROOM_SECURITY_POSTGRES")
    if not base:
        return None
    return base + ("&" if "?" in base else "?") + "schema=s" + uuid.uuid4().hex[:20]


ON_POSTGRES = bool(os.environ.get("STOCKROOM_SECURITY_POSTGRES"))


class Server:
    """A `stockroom serve` on 127.0.0.1 with its own data folder; can be stopped and started again on the same data."""

    def __init__(self, tls=False, public_api=False, public_url=None, extra=(), port=None, max_files=None):
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="stockroom-security-"))
        self.data = self.root / "shop"
        self.port = port or free_port()
        self.tls = tls
        self.public_api = public_api
        self.public_url = public_url
        self.extra = list(extra)
        self.max_files = max_files  # RLIMIT_NOFILE of the server (a small file limit, like a default systemd unit)
        # With STOCKROOM_SECURITY_POSTGRES (a postgres:// URL), the shop is in a schema of its own in that database
        # instead of the data folder's SQLite file: the same attacks replayed against the PostgreSQL backend.
        self.database = postgres_schema_url()
        self.process = None
        self.log = None
        self.admin = None           # Token of the admin
        self.admin_session = None   # Session of the admin (from setup)
        self.users = {}             # username -> id
        try:
            self.start()
        except BaseException:
            self.cleanup()
            raise

    @property
    def scheme(self):
        return "https" if self.tls else "http"

    @property
    def base(self):
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def execute_sql(self, statement):
        """Runs one SQL statement on the shop's database behind the server's back (the server should be stopped)."""
        if self.database:
            base, _, query = self.database.partition("?")
            schema = dict(part.split("=", 1) for part in query.split("&") if part)["schema"]
            subprocess.run(["psql", base, "-q", "-v", "ON_ERROR_STOP=1", "-c", f"SET search_path TO {schema}; {statement}"],
                           check=True, capture_output=True)
        else:
            connection = sqlite3.connect(self.data / "stockroom.sqlite")
            connection.execute(statement)
            connection.commit()
            connection.close()

    def args(self):
        args = [str(BIN), "serve", "--data", str(self.data), "--host", "127.0.0.1", "--port", str(self.port)]
        if self.tls:
            args.append("--tls")
        if self.public_api:
            args.append("--public-api")
        if self.public_url:
            args += ["--public-url", self.public_url]
        if self.database:
            args += ["--database", self.database]
        return args + self.extra

    def start(self, timeout=60):
        self.log = open(self.root / "server.log", "a")
        def prepare():
            os.umask(0o022)  # the usual umask, so file modes the server sets itself are what the tests see
            if self.max_files:
                resource.setrlimit(resource.RLIMIT_NOFILE, (self.max_files, self.max_files))

        self.process = subprocess.Popen(self.args(), stdout=self.log, stderr=subprocess.STDOUT, preexec_fn=prepare)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.request("GET", "/health", timeout=2).status == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(f"stockroom serve exited with {self.process.returncode}: {self.log_text()[-2000:]}")
            time.sleep(0.1)
        raise RuntimeError("stockroom serve did not start: " + self.log_text()[-2000:])

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.log:
            self.log.close()
            self.log = None

    def restart(self):
        self.stop()
        self.start()

    def cleanup(self):
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def log_text(self):
        try:
            return (self.root / "server.log").read_text(errors="replace")
        except OSError:
            return ""

    def rss_mb(self):
        for line in pathlib.Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    # -- HTTP ---------------------------------------------------------------------------------------------------------

    def connection(self, timeout=30, source=None):
        source_address = (source, 0) if source else None
        if self.tls:
            return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=timeout, source_address=source_address,
                                               context=insecure_context())
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=source_address)

    def request(self, method, target, body=None, headers=None, timeout=30, source=None, host=None):
        """Sends `target` exactly as given (no normalisation) and returns a Reply."""
        headers = dict(headers or {})
        conn = self.connection(timeout=timeout, source=source)
        start = time.monotonic()
        try:
            conn.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
            conn.putheader("Host", host or f"127.0.0.1:{self.port}")
            if body is not None and not any(k.lower() == "content-length" for k in headers):
                headers["Content-Length"] = str(len(body))
            for name, value in headers.items():
                conn.putheader(name, value)
            try:
                conn.endheaders(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server answered (and closed) before the whole body was sent: read that answer
            response = conn.getresponse()
            content = response.read()
            return Reply(response.status, response.getheaders(), content, time.monotonic() - start)
        finally:
            conn.close()

    def call(self, method, path, json_body=None, body=None, headers=None, auth=None, content_type=None, **kwargs):
        """Calls the API as `auth` (a Token or Session; the admin's token when auth is None; "anonymous" for none)."""
        all_headers = {}
        if auth is None:
            auth = self.admin
        if auth != "anonymous" and auth is not None:
            all_headers.update(auth.headers(method))
        if json_body is not None:
            body = json.dumps(json_body, ensure_ascii=False).encode()
            all_headers["Content-Type"] = content_type or "application/json"
        elif content_type:
            all_headers["Content-Type"] = content_type
        all_headers.update(headers or {})
        return self.request(method, path, body=body, headers=all_headers, **kwargs)

    def ok(self, method, path, json_body=None, expect=(200, 201, 204), **kwargs):
        reply = self.call(method, path, json_body, **kwargs)
        assert reply.status in expect, f"{method} {path}: {reply!r}"
        return reply.json() if reply.body and reply.headers.get("content-type", "").find("json") >= 0 else reply

    # -- accounts -----------------------------------------------------------------------------------------------------

    def setup_admin(self):
        reply = self.call("POST", "/api/v1/auth/setup", {"username": ADMIN[0], "password": ADMIN[1], "pin": ADMIN[2]},
                          auth="anonymous", source=fresh_address())
        assert reply.status == 201, reply
        self.admin_session = Session(reply.cookie, reply.json()["csrfToken"], reply.json()["user"])
        self.users[ADMIN[0]] = reply.json()["user"]["id"]
        created = self.call("POST", "/api/v1/tokens", {"name": "security-tests"}, auth=self.admin_session)
        assert created.status == 201, created
        self.admin = Token(created.json()["token"])
        return self

    def create_user(self, username, password, pin=None, role="staff"):
        body = {"username": username, "password": password, "role": role, "displayName": username}
        if pin:
            body["pin"] = pin
        user = self.ok("POST", "/api/v1/users", body)
        self.users[username] = user["id"]
        return user

    def login(self, username, password, source=None, headers=None, content_type=None):
        return self.call("POST", "/api/v1/auth/login", {"username": username, "password": password}, auth="anonymous",
                         source=source or fresh_address(), headers=headers, content_type=content_type)

    def session(self, username, password):
        reply = self.login(username, password)
        assert reply.status == 200, f"sign-in of {username}: {reply!r}"
        return Session(reply.cookie, reply.json()["csrfToken"], reply.json()["user"])

    def mint_token(self, name="t", user_id=None, auth=None):
        body = {"name": name}
        if user_id is not None:
            body["userId"] = user_id
        reply = self.call("POST", "/api/v1/tokens", body, auth=auth)
        assert reply.status == 201, reply
        return Token(reply.json()["token"])

    def seed(self):
        """A small shop: two categories, three products with stock from a purchase, two sales; a staff and a manager."""
        food = self.ok("POST", "/api/v1/categories", {"name": "Food"})["id"]
        drinks = self.ok("POST", "/api/v1/categories", {"name": "Drinks"})["id"]
        ids = []
        for name, category, price in [("Espresso beans", food, "12.90"), ("Oat milk", drinks, "2.50"), ("Croissant", food, "1.80")]:
            ids.append(self.ok("POST", "/api/v1/products", {"name": name, "categoryId": category, "salePrice": price})["id"])
        self.ok("POST", "/api/v1/purchases", {"lines": [
            {"productId": ids[0], "quantity": "10", "unitCost": "6.00"},
            {"productId": ids[1], "quantity": "24", "unitCost": "1.10"},
            {"productId": ids[2], "quantity": "30", "unitCost": "0.60"}]})
        self.ok("POST", "/api/v1/sales", {"paymentMethod": "card", "lines": [{"productId": ids[0], "quantity": "2"}]})
        self.ok("POST", "/api/v1/sales", {"paymentMethod": "cash", "lines": [
            {"productId": ids[1], "quantity": "3"}, {"productId": ids[2], "quantity": "5"}]})
        self.create_user(STAFF[0], STAFF[1], STAFF[2], "staff")
        self.create_user(MANAGER[0], MANAGER[1], MANAGER[2], "manager")
        self.product_ids = ids
        return self

    # -- the shop's data ----------------------------------------------------------------------------------------------

    def state(self, auth=None):
        """Products (with stock), categories, purchases, sales, users and settings, as the API shows them."""
        state = {}
        for key, path in [("products", "/api/v1/products?limit=500&archived=true"), ("categories", "/api/v1/categories"),
                          ("purchases", "/api/v1/purchases?limit=500"), ("sales", "/api/v1/sales?limit=500"),
                          ("users", "/api/v1/users"), ("settings", "/api/v1/settings")]:
            reply = self.call("GET", path, auth=auth)
            assert reply.status == 200, f"reading {path} for the data hash: {reply!r}"
            state[key] = reply.json()
        for sale in state["sales"]:
            reply = self.call("GET", f"/api/v1/sales/{sale['id']}", auth=auth)
            assert reply.status == 200, reply
            state[f"sale {sale['id']}"] = reply.json()
        return state

    def data_hash(self, auth=None):
        return digest(self.state(auth))

    def audit(self):
        reply = self.call("GET", "/api/v1/audit?limit=1000")
        assert reply.status == 200, reply
        return reply.json()

    def images(self):
        folder = self.data / "images"
        return sorted(p.name for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def digest(state):
    return hashlib.sha256(json.dumps(state, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@contextmanager
def unchanged(server, audit=False, auth=None):
    """Asserts the shop's data (and, with audit=True, the audit log) is the same after the block as before it."""
    before = server.state(auth)
    audit_before = server.audit() if audit else None
    yield
    after = server.state(auth)
    changed = [key for key in sorted(set(before) | set(after)) if before.get(key) != after.get(key)]
    assert not changed, f"the shop's data changed: {changed}; before {digest(before)[:12]}, after {digest(after)[:12]}"
    if audit:
        new = [entry for entry in server.audit() if entry["id"] not in {e["id"] for e in audit_before}]
        assert not new, f"the audit log gained entries: {new}"


def make_server(**options):
    return Server(**options).setup_admin().seed()


@pytest.fixture(scope="module")
def shop():
    """A seeded shop shared by a module (for attacks that cannot disturb each other)."""
    server = make_server()
    yield server
    server.cleanup()


@pytest.fixture
def fresh_shop():
    """A seeded shop for one test."""
    server = make_server()
    yield server
    server.cleanup()


# -- files ------------------------------------------------------------------------------------------------------------

def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width=8, height=8, seed=0, trailer=b""):
    """A real RGB PNG (8-bit) of width × height, optionally with bytes appended after IEND."""
    rows = b"".join(b"\x00" + bytes(((x * 31 + y * 17 + seed) % 256) for x in range(width * 3)) for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(rows, 9)) + _chunk(b"IEND", b"") + trailer)


_bomb = None


def png_bomb(side=16384):
    """A small PNG declaring side × side 8-bit grey pixels whose IDAT really holds every (zero) row: a decoder that
    trusts the header decompresses side² bytes."""
    global _bomb
    if _bomb is None:
        compressor = zlib.compressobj(9)
        row = b"\x00" * (side + 1)
        parts = [compressor.compress(row) for _ in range(side)]
        idat = b"".join(parts) + compressor.flush()
        _bomb = (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
                 + _chunk(b"IDAT", idat) + _chunk(b"IEND", b""))
    return _bomb


def multipart(fields, files=()):
    """A multipart/form-data body: fields {name: text}, files [(field, filename, content-type, bytes)]."""
    boundary = "----stockroom" + uuid.uuid4().hex
    out = b""
    for name, value in fields.items():
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n").encode() + value.encode() + b"\r\n"
    for field, filename, ctype, data in files:
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\n"
                f"Content-Type: {ctype}\r\n\r\n").encode() + data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return out, f"multipart/form-data; boundary={boundary}"


# -- the summary --------------------------------------------------------------------------------------------------------

FINDINGS = {
    "test_f01_paths": "1 non-canonical paths", "test_f02_throttle_burst": "2 parallel guesses",
    "test_f03_restore": "3 hostile restore", "test_f04_image_bombs": "4 image bombs", "test_f05_timing": "5 login timing",
    "test_f06_address_throttle": "6 address throttle", "test_f07_slow_clients": "7 slow clients",
    "test_f08_storage": "8 storage abuse", "test_f09_sessions": "9 sessions", "test_f10_search": "10 search words",
    "test_f11_csrf": "11 login/setup CSRF", "test_f12_headers": "12 headers", "test_f13_tidy": "13 tidy",
    "test_held_up": "held up",
}


def pytest_terminal_summary(terminalreporter):
    rows = []
    for outcome in ("passed", "failed", "error"):
        for report in terminalreporter.stats.get(outcome, []):
            if getattr(report, "when", "call") != "call" and outcome != "error":
                continue
            module = report.nodeid.split("::")[0].rsplit("/", 1)[-1].removesuffix(".py")
            rows.append((FINDINGS.get(module, module), report.nodeid.split("::", 1)[-1], outcome.upper()))
    if not rows:
        return
    rows.sort(key=lambda r: (int(r[0].split()[0]) if r[0].split()[0].isdigit() else 99, r[1]))
    terminalreporter.section("security findings replayed")
    width = max(len(r[1]) for r in rows)
    for finding, test, outcome in rows:
        terminalreporter.write_line(f"{finding:<22} {test:<{width}}  {outcome}")
