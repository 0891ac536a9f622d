"""The multi-instance fault-test rig (issue 13, point 6): a throwaway PostgreSQL of its own, three `stockroom serve`
instances on one schema, and nginx in front of them, all on 127.0.0.1 with free ports.

Environment:
  STOCKROOM_BIN               the stockroom executable (default .build/debug/stockroom)
  STOCKROOM_CLUSTER_SECONDS   how long the load of the fault test runs (default 45)
  STOCKROOM_ARTIFACTS         where the servers' and nginx's logs are copied at the end (default test-artifacts/)

Everything the rig starts is stopped, and every temporary folder removed, by the fixtures' finalizers, whatever
happens; the logs are copied to $STOCKROOM_ARTIFACTS/cluster/<test>/ first.
"""
import http.client
import json
import os
import pathlib
import re
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("STOCKROOM_BIN", ROOT / ".build/debug/stockroom"))
ARTIFACTS = pathlib.Path(os.environ.get("STOCKROOM_ARTIFACTS", ROOT / "test-artifacts")) / "cluster"
PG_SCRIPT = ROOT / "scripts/postgres-throwaway.sh"
PG_BIN = pathlib.Path("/usr/lib/postgresql/15/bin")

ADMIN = {"username": "admin", "password": "admin-password-1", "displayName": "Cluster admin"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def as_postgres(args):
    """The command `args` run as the postgres system user (the throwaway script's rule: initdb and postgres refuse root)."""
    import pwd
    me = pwd.getpwuid(os.getuid()).pw_name
    if me == "postgres":
        return list(args)
    if os.getuid() == 0:
        return ["runuser", "-u", "postgres", "--"] + list(args)
    return ["sudo", "-u", "postgres"] + list(args)


# -- HTTP ---------------------------------------------------------------------------------------------------------------

class Reply:
    def __init__(self, status, headers, body, elapsed):
        self.status = status
        self.headers = {}
        for name, value in headers:
            key = name.lower()
            self.headers[key] = self.headers[key] + ", " + value if key in self.headers else value
        self.body = body
        self.elapsed = elapsed

    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        return f"<HTTP {self.status} {self.body[:400]!r}>"


class Client:
    """One keep-alive HTTP/1.1 connection to host:port (reopened after any error), with a bearer token or a session."""

    def __init__(self, port, token=None, timeout=20):
        self.port, self.token, self.timeout = port, token, timeout
        self.cookie = self.csrf = None
        self.conn = None

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def request(self, method, path, body=None, headers=None):
        """Sends one request; raises OSError / http.client.HTTPException on a connection error or timeout."""
        all_headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.token:
            all_headers["Authorization"] = "Bearer " + self.token
        if self.cookie:
            all_headers["Cookie"] = self.cookie
            if method not in ("GET", "HEAD"):
                all_headers["X-CSRF-Token"] = self.csrf
        if body is not None:
            if not isinstance(body, (bytes, bytearray)):
                body = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        start = time.monotonic()
        try:
            self.conn.request(method, path, body=body, headers=all_headers)
            response = self.conn.getresponse()
            content = response.read()
        except BaseException:
            self.close()
            raise
        reply = Reply(response.status, response.getheaders(), content, time.monotonic() - start)
        if response.will_close:
            self.close()
        return reply

    def ok(self, method, path, body=None, expect=(200, 201, 204), headers=None):
        reply = self.request(method, path, body, headers)
        assert reply.status in expect, f"{method} {path}: {reply!r}"
        return reply.json() if reply.body else None


def wait_healthy(port, timeout, process=None, log=None):
    """Waits until GET /health on 127.0.0.1:port answers 200; answers the seconds it took (or raises)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            client = Client(port, timeout=2)
            if client.request("GET", "/health").status == 200:
                client.close()
                return time.monotonic() - start
            client.close()
        except (OSError, http.client.HTTPException):
            pass
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {process.returncode}: {tail(log)}")
        time.sleep(0.1)
    raise RuntimeError(f"the server on port {port} did not answer /health 200 within {timeout} s: {tail(log)}")


def tail(path, size=3000):
    try:
        return pathlib.Path(path).read_text(errors="replace")[-size:] if path else ""
    except OSError:
        return ""


# -- PostgreSQL ---------------------------------------------------------------------------------------------------------

class Postgres:
    """The rig's own throwaway PostgreSQL 15 (scripts/postgres-throwaway.sh), which the fault test stops and starts."""

    def __init__(self):
        out = subprocess.run([str(PG_SCRIPT), "start"], check=True, capture_output=True, text=True, timeout=600)
        exports = dict(re.findall(r"export (\w+)=(\S+)", out.stdout))
        self.url = exports["STOCKROOM_TEST_POSTGRES"]
        self.folder = pathlib.Path(exports["STOCKROOM_PG_FOLDER"])
        self.data = self.folder / "data"
        self.port = int(re.search(r":(\d+)/", self.url).group(1))
        # The options the script started it with (postmaster.opts: the binary, then its arguments): start it again
        # with exactly those, so it comes back on the same port and socket folder.
        opts = shlex.split((self.data / "postmaster.opts").read_text())
        args, skip = [], False
        for arg in opts[1:]:
            if skip:
                skip = False
                continue
            if arg == "-D":
                skip = True
                continue
            args.append(arg)
        self.options = " ".join(shlex.quote(a) for a in args)

    def schema_url(self, schema):
        return f"{self.url}?schema={schema}"

    def pg_ctl(self, *args, timeout=120):
        return subprocess.run(as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(self.data)] + list(args)),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, timeout=timeout, check=True)

    def stop_fast(self):
        self.pg_ctl("-m", "fast", "-w", "-t", "60", "stop")

    def start(self):
        # -l: the postmaster must not inherit our pipes (subprocess.run would wait for them to close).
        self.pg_ctl("-l", str(self.folder / "server.log"), "-w", "-t", "60", "-o", self.options, "start")

    def remove(self):
        subprocess.run([str(PG_SCRIPT), "stop", str(self.folder)], capture_output=True, timeout=120)


# -- stockroom serve ----------------------------------------------------------------------------------------------------

class Instance:
    """One `stockroom serve` (on PostgreSQL when `database` is given, else SQLite in its data folder)."""

    def __init__(self, root, name, database=None):
        self.name = name
        self.root = pathlib.Path(root) / name
        self.data = self.root / "data"
        self.root.mkdir(parents=True, exist_ok=True)
        self.log_path = self.root / "server.log"
        self.port = free_port()
        self.database = database
        self.process = None
        self.log = None
        self.starts = 0

    def args(self):
        args = [str(BIN), "serve", "--data", str(self.data), "--host", "127.0.0.1", "--port", str(self.port),
                "--no-backups", "--max-connections-per-address", "10000"]
        if self.database:
            args += ["--database", self.database]
        return args

    def launch(self):
        self.log = open(self.log_path, "a")
        self.starts += 1
        self.log.write(f"\n==== rig: start {self.starts} at {time.strftime('%H:%M:%S')} ====\n")
        self.log.flush()
        self.process = subprocess.Popen(self.args(), stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def start(self, timeout=120):
        """Starts it and waits for /health 200 (retrying the start once: the binary may be rebuilt under us)."""
        for attempt in (1, 2):
            self.launch()
            try:
                return wait_healthy(self.port, timeout, self.process, self.log_path)
            except RuntimeError:
                self.stop()
                if attempt == 2:
                    raise
                time.sleep(20)

    def kill(self):
        """SIGKILL: no graceful stop, requests in flight are cut."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        if self.log:
            self.log.write(f"\n==== rig: SIGKILL at {time.strftime('%H:%M:%S')} ====\n")
            self.log.close()
            self.log = None

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.log:
            self.log.close()
            self.log = None

    def client(self, token=None, timeout=20):
        return Client(self.port, token, timeout)


# -- nginx --------------------------------------------------------------------------------------------------------------

NGINX_CONF = """\
# Generated by tests/cluster/conftest.py: the rig's load balancer (the same proxy rules as docs/nginx-stockroom.conf).
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log warn;
{user}
events {{ worker_connections 1024; }}

http {{
    default_type application/octet-stream;
    log_format rig '$remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time '
                   'upstream=$upstream_addr upstream_status=$upstream_status';
    access_log {prefix}/logs/access.log rig;
    client_body_temp_path {prefix}/temp/client_body;
    proxy_temp_path {prefix}/temp/proxy;
    fastcgi_temp_path {prefix}/temp/fastcgi;
    uwsgi_temp_path {prefix}/temp/uwsgi;
    scgi_temp_path {prefix}/temp/scgi;

    upstream stockroom {{
{servers}
        keepalive 64;
    }}

    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 2g;

        location / {{
            proxy_pass http://stockroom;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_connect_timeout 2s;
            # (docs/nginx-stockroom.conf waits 60 s; the rig 30 s, so that a request the instance never answers costs
            # less of the run: the test then fails on it, since no booking may take that long.)
            proxy_read_timeout 30s;
            # Every attempt failed (an instance killed mid-request, none left to try): "try again", as Stockroom says
            # it when its database does not answer.
            error_page 502 504 =503 @unavailable;
        }}

        location @unavailable {{
            add_header Retry-After 1 always;
            default_type application/problem+json;
            return 503 '{{"type":"about:blank","title":"Unavailable","status":503,"code":"unavailable","detail":"no instance answered; try again"}}';
        }}
    }}
}}
"""


class Nginx:
    """nginx (Debian's package) as a foreground subprocess in a temporary prefix, balancing over `upstreams`."""

    def __init__(self, root, upstreams):
        self.prefix = pathlib.Path(root) / "nginx"
        for sub in ("logs", "temp"):
            (self.prefix / sub).mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        user = ""
        if os.geteuid() == 0:
            # The workers run as nobody when the master is root: let them write their temporary files.
            user = "user nobody nogroup;"
            for folder in (self.prefix, self.prefix / "temp"):
                os.chmod(folder, 0o777)
            os.chmod(root, 0o755)
        servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=3 fail_timeout=5s;" for p in upstreams)
        self.conf = self.prefix / "nginx.conf"
        self.conf.write_text(NGINX_CONF.format(prefix=self.prefix, port=self.port, servers=servers, user=user))
        self.binary = shutil.which("nginx") or "/usr/sbin/nginx"
        check = subprocess.run([self.binary, "-t", "-p", str(self.prefix), "-c", str(self.conf)], capture_output=True, text=True)
        assert check.returncode == 0, f"nginx -t refused the rig's configuration: {check.stderr}"
        self.output = open(self.prefix / "logs/stderr.log", "a")
        self.process = subprocess.Popen([self.binary, "-p", str(self.prefix), "-c", str(self.conf), "-g", "daemon off;"],
                                        stdout=self.output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"nginx exited with {self.process.returncode}: {tail(self.prefix / 'logs/stderr.log')}"
                                       f"{tail(self.prefix / 'logs/error.log')}")
                time.sleep(0.1)
        raise RuntimeError("nginx did not listen within 20 s")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: workers finish, master exits
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.output.close()

    def client(self, token=None, timeout=20):
        return Client(self.port, token, timeout)


# -- the rig ------------------------------------------------------------------------------------------------------------

class Cluster:
    """Three instances on one schema of `postgres`, nginx in front, an admin with a token."""

    def __init__(self, postgres, root, schema):
        self.postgres = postgres
        self.root = pathlib.Path(root)
        self.schema = schema
        url = postgres.schema_url(schema)
        self.instances = [Instance(self.root, f"instance{i}", url) for i in (1, 2, 3)]
        self.nginx = None
        self.admin_token = None
        self.admin_session = None

    def start(self):
        # The first one migrates the schema; the other two then start together.
        self.instances[0].start()
        errors = []
        threads = [threading.Thread(target=_capture, args=(errors, i.start)) for i in self.instances[1:]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        self.nginx = Nginx(self.root, [i.port for i in self.instances])
        return self

    def setup_admin(self):
        client = self.nginx.client()
        reply = client.request("POST", "/api/v1/auth/setup", ADMIN)
        assert reply.status == 201, f"setup: {reply!r}"
        cookie = reply.headers["set-cookie"].split(";")[0]
        client.cookie, client.csrf = cookie, reply.json()["csrfToken"]
        self.admin_session = client
        self.admin_token = self.mint_token("cluster-admin")
        return self

    def mint_token(self, name):
        created = self.admin_session.ok("POST", "/api/v1/tokens", {"name": name})
        return created["token"]

    def client(self, token=None, timeout=20):
        return self.nginx.client(token or self.admin_token, timeout)

    def stop(self, artifacts):
        try:
            if self.admin_session:
                self.admin_session.close()
            if self.nginx:
                self.nginx.stop()
        finally:
            for instance in self.instances:
                instance.stop()
            save_logs(self.root, artifacts)


def _capture(errors, function):
    try:
        function()
    except BaseException as error:  # noqa: BLE001 - handed to the main thread
        errors.append(error)


def save_logs(root, artifacts):
    """Copies every *.log under root to artifacts (keeping the folder names)."""
    try:
        for log in pathlib.Path(root).rglob("*.log"):
            target = artifacts / log.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(log, target)
    except OSError:
        pass


@pytest.fixture(scope="module")
def postgres():
    """The rig's own PostgreSQL (the fault test stops and starts it), removed at the end whatever happens."""
    server = Postgres()
    try:
        yield server
    finally:
        save_logs(server.folder, ARTIFACTS / "postgres")
        server.remove()


@pytest.fixture
def scratch(request):
    root = pathlib.Path(tempfile.mkdtemp(prefix="stockroom-cluster-"))
    artifacts = ARTIFACTS / request.node.name
    shutil.rmtree(artifacts, ignore_errors=True)
    yield root, artifacts
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def cluster(postgres, scratch):
    """Three instances on a fresh schema behind nginx, with an admin; stopped (logs kept) at the end."""
    root, artifacts = scratch
    rig = Cluster(postgres, root, "c" + uuid.uuid4().hex[:12])
    try:
        rig.start().setup_admin()
        yield rig
    finally:
        rig.stop(artifacts)


@pytest.fixture
def replay_server(scratch):
    """A fresh SQLite `stockroom serve` (no --database) to replay the acknowledged documents into."""
    root, artifacts = scratch
    server = Instance(root, "replay")
    try:
        server.start()
        yield server
    finally:
        server.stop()
        save_logs(root / "replay", artifacts / "replay")
