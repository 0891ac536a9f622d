"""Browser tests: Debian's headless chromium driven by Selenium (chromium-driver, never a downloaded driver)
against a real `stockroom serve` on 127.0.0.1 with a fresh data folder.

Environment:
  STOCKROOM_BIN        the stockroom executable (default .build/debug/stockroom)
  STOCKROOM_ARTIFACTS  where screenshots go (default test-artifacts/)

Fixtures:
  shop        a running server whose admin exists (module-scoped); shop.api(...) calls the JSON API as admin
  fresh_shop  a running server with no account yet (first run)
  browser     a factory: browser(width=375, height=812, dark=False, camera=None) -> a Chrome driver (closed after)
  signed_in   a factory: signed_in(shop, role="admin", **browser options) -> a driver signed in through the form
"""
import itertools
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("STOCKROOM_BIN", ROOT / ".build/debug/stockroom"))
ARTIFACTS = pathlib.Path(os.environ.get("STOCKROOM_ARTIFACTS", ROOT / "test-artifacts"))
SCREENSHOTS = ARTIFACTS / "screenshots"

ADMIN = ("admin", "admin-password-1", "1234")
PASSWORDS = {"admin": ADMIN[1], "manager": "manager-password-1", "staff": "staff-password-1"}
PINS = {"admin": "1234", "manager": "2345", "staff": "3456"}


class ApiError(Exception):
    def __init__(self, status, body):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


class Shop:
    """A running `stockroom serve` on a fresh data folder."""

    def __init__(self, demo=False):
        self.data = pathlib.Path(tempfile.mkdtemp(prefix="stockroom-browser-"))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(self.data / "server.log", "w")
        self.args = [str(BIN), "serve", "--data", str(self.data / "shop"), "--host", "127.0.0.1", "--port", str(self.port)]
        self.token = None
        self.start(*(["--demo"] if demo else []))

    def start(self, *extra):
        """Starts `stockroom serve` on this shop's folder and port (with `extra` arguments), and waits until it answers."""
        self.process = subprocess.Popen([*self.args, *extra], stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/health", timeout=1).read()
                break
            except Exception:
                if self.process.poll() is not None:
                    raise RuntimeError("stockroom serve exited: " + (self.data / "server.log").read_text())
                time.sleep(0.1)
        else:
            raise RuntimeError("stockroom serve did not start")

    def restart(self, while_down=None):
        """Stops the server (SIGTERM), runs `while_down()` on the stopped shop, and starts it again on the same port."""
        self.process.terminate()
        self.process.wait(timeout=10)
        if while_down:
            while_down()
        self.start()  # without --demo: the demo shop is made once

    def cli(self, *args):
        """Runs a `stockroom` command on this shop's data folder (the server must not be running) and returns its
        output."""
        done = subprocess.run([str(BIN), *args, "--data", str(self.data / "shop")], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def url(self, path):
        return self.base + path

    def call(self, method, path, body=None, headers=None, raw=False):
        data = None
        all_headers = dict(headers or {})
        if body is not None:
            if isinstance(body, (bytes, bytearray)):
                data = bytes(body)
            else:
                data = json.dumps(body).encode()
                all_headers.setdefault("Content-Type", "application/json")
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=all_headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                content = reply.read()
                if raw:
                    return reply.status, dict(reply.headers), content
                return json.loads(content) if content and "json" in reply.headers.get("Content-Type", "") else content.decode()
        except urllib.error.HTTPError as error:
            content = error.read().decode()
            if raw:
                return error.status, dict(error.headers), content.encode()
            raise ApiError(error.status, content) from None

    def api(self, method, path, body=None, raw=False):
        """Calls the JSON API as the admin (bearer token)."""
        return self.call(method, path, body, {"Authorization": "Bearer " + self.token}, raw=raw)

    def create_admin(self):
        status, headers, content = self.call("POST", "/api/v1/auth/setup",
                                             {"username": ADMIN[0], "password": ADMIN[1], "pin": ADMIN[2]}, raw=True)
        assert status == 201, content
        cookie = headers["Set-Cookie"].split(";")[0]
        csrf = json.loads(content)["csrfToken"]
        created = self.call("POST", "/api/v1/tokens", {"name": "browser-tests"}, {"Cookie": cookie, "X-CSRF-Token": csrf})
        self.token = created["token"]

    def ensure_user(self, role):
        """Creates the user `role` (manager or staff) with the known password and PIN, once."""
        if role == "admin":
            return
        users = self.api("GET", "/api/v1/users")
        if not any(user["username"] == role for user in users):
            self.api("POST", "/api/v1/users", {"username": role, "password": PASSWORDS[role], "pin": PINS[role], "role": role,
                                               "displayName": role.capitalize()})

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.data, ignore_errors=True)


@pytest.fixture(scope="module")
def shop():
    server = Shop()
    server.create_admin()
    yield server
    server.stop()


@pytest.fixture
def fresh_shop():
    server = Shop()
    yield server
    server.stop()


def chrome(width=375, height=812, dark=False, camera=None, downloads=None):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    arguments = ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--lang=en-US"]
    if camera is not None:
        arguments += ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                      f"--use-file-for-fake-video-capture={pathlib.Path(camera).resolve()}"]
    for argument in arguments:
        options.add_argument(argument)
    if downloads is not None:
        options.add_experimental_option("prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 768})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
    if downloads is not None:
        driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    driver.implicitly_wait(0)
    return driver


@pytest.fixture
def browser():
    drivers = []

    def make(**options):
        driver = chrome(**options)
        drivers.append(driver)
        return driver

    yield make
    for driver in drivers:
        driver.quit()


def wait(driver, condition, timeout=10):
    return WebDriverWait(driver, timeout).until(condition)


def path_of(driver):
    """The current page's path (no host, no query)."""
    from urllib.parse import urlparse
    return urlparse(driver.current_url).path


def wait_path(driver, path, timeout=10):
    """Waits until the browser shows `path` (exactly, query ignored)."""
    WebDriverWait(driver, timeout).until(lambda d: path_of(d) == path)


def wait_for(driver, css, timeout=10, visible=True):
    """Waits for an element matched by a CSS selector (visible by default) and returns it."""
    locate = EC.visibility_of_element_located if visible else EC.presence_of_element_located
    return WebDriverWait(driver, timeout).until(locate((By.CSS_SELECTOR, css)))


def wait_idle(driver, timeout=10):
    """Waits until no API call is running (the progress bar is hidden)."""
    WebDriverWait(driver, timeout).until(lambda d: d.execute_script(
        "const p = document.getElementById('progress'); return document.readyState === 'complete' && (!p || p.hidden)"))


def sign_in(driver, shop, username, password):
    """Signs in through the sign-in form and waits for the home screen.

    Every test browser comes from 127.0.0.1, and sign-in is throttled per address: once a test has fed the address its
    free wrong tries on purpose, even a right try must wait its turn (the form says "wait N s"). This waits the N
    seconds the server names and submits again, as a person would; any other refusal fails the test."""
    driver.get(shop.url("/login"))
    wait_for(driver, "#username").send_keys(username)
    driver.find_element(By.ID, "password").send_keys(password)
    for _ in range(4):
        driver.execute_script("document.querySelector('#login-form .form-error')?.remove()")
        driver.find_element(By.CSS_SELECTOR, "#login-form button[type=submit]").click()
        wait(driver, lambda d: d.current_url.startswith(shop.url("/app/")) or _login_refusal(d))
        refusal = _login_refusal(driver)
        if not refusal:
            break
        match = re.search(r"wait (\d+) s", refusal)
        assert match, f"sign-in refused: {refusal}"
        time.sleep(int(match.group(1)) + 0.2)
    wait(driver, lambda d: d.current_url.startswith(shop.url("/app/")))
    wait_idle(driver)


def _login_refusal(driver):
    """The sign-in form's error, if it shows one (empty while none)."""
    if path_of(driver) != "/login":
        return ""
    return driver.execute_script("return document.querySelector('#login-form .form-error')?.textContent ?? ''")


@pytest.fixture
def signed_in(browser):
    def make(shop, role="admin", **options):
        shop.ensure_user(role)
        driver = browser(**options)
        sign_in(driver, shop, role if role != "admin" else ADMIN[0], PASSWORDS[role])
        return driver

    return make


_counter = itertools.count()


def unique(prefix):
    """A name no other test uses."""
    return f"{prefix} {os.getpid() % 1000}-{next(_counter)}"


def screenshot(driver, name):
    """Saves a screenshot under test-artifacts/screenshots/NAME.png (kept as a test artefact)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    assert driver.save_screenshot(str(path)), f"could not save {path}"
    return path


def no_horizontal_scroll(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth + 1")


def gtin_check_digit(body):
    """The GTIN check digit of the digits in `body` (12 digits for an EAN-13)."""
    total = sum(int(digit) * (3 if index % 2 == 0 else 1) for index, digit in enumerate(reversed(body)))
    return str((10 - total % 10) % 10)


def ean13_y4m(code, path, width=640, height=480):
    """An EAN-13 picture as a one-frame Y4M (4:2:0) for Chromium's fake camera, which loops it."""
    import barcode
    from barcode.writer import ImageWriter
    from PIL import Image

    picture = barcode.get("ean13", code[:12], writer=ImageWriter()).render({"module_width": 0.4, "dpi": 150}).convert("L")
    scale = min((width - 40) / picture.width, (height - 40) / picture.height)
    picture = picture.resize((int(picture.width * scale), int(picture.height * scale)), Image.NEAREST)
    frame = Image.new("L", (width, height), 255)
    frame.paste(picture, ((width - picture.width) // 2, (height - picture.height) // 2))
    path = pathlib.Path(path)
    path.write_bytes(f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\n".encode()
                     + b"FRAME\n" + frame.tobytes() + bytes([128]) * (width * height // 2))
    return path


CONTRAST_SCRIPT = """
function parse(c) { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
  const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
function lum([r, g, b]) { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); }
function background(el) { let colour = [255, 255, 255];
  const stack = []; for (let e = el; e; e = e.parentElement) stack.push(e);
  for (const e of stack.reverse()) { const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c[3] > 0) colour = [0, 1, 2].map(i => c[i] * c[3] + colour[i] * (1 - c[3])); }
  return colour; }
const failures = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const seen = new Set();
while (walker.nextNode()) {
  const el = walker.currentNode.parentElement;
  if (!el || seen.has(el) || !walker.currentNode.textContent.trim()) continue;
  seen.add(el);
  const style = getComputedStyle(el);
  if (el.closest('[hidden], .sr-only, svg, option, [aria-hidden=true]') || style.visibility === 'hidden' || el.offsetParent === null) continue;
  if (parseFloat(style.opacity) < 1 || el.closest('button:disabled')) continue;
  const fg = parse(style.color); if (!fg) continue;
  const bg = background(el);
  const colour = [0, 1, 2].map(i => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
  const [a, b] = [lum(colour), lum(bg)];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
  const needed = (size >= 24 || (size >= 18.66 && bold)) ? 3 : 4.5;
  if (ratio < needed) failures.push(`${el.tagName}.${el.className}: "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)} < ${needed}`);
}
return failures;
"""


def contrast_failures(driver):
    """Visible text whose contrast with its background is below WCAG AA (4.5:1, or 3:1 for large text)."""
    return driver.execute_script(CONTRAST_SCRIPT)


def fully_visible(driver, element):
    """Whether a person sees the whole element: it lies inside the viewport, and its centre and the middle of each edge
    are not covered by another element (document.elementFromPoint finds it or one of its children there)."""
    return driver.execute_script("""
        const el = arguments[0];
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) return false;
        if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) return false;
        // The centre and the middle of each edge (just inside it: rounded corners are not hit-tested as the box).
        const inset = Math.min(3, r.width / 4, r.height / 4);
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const points = [[x, y], [r.left + inset, y], [r.right - inset, y], [x, r.top + inset], [x, r.bottom - inset]];
        return points.every(([x, y]) => { const hit = document.elementFromPoint(x, y); return hit !== null && (hit === el || el.contains(hit)); });
    """, element)
