#!/usr/bin/env python3
"""Fresh barcode test images for Stockroom's reader: symbols rendered by zint (and segno for QR Code), then
degraded as a phone camera degrades them, with random parameters from a fresh seed on every run.

  barcode-gen.py [--out DIR] [--seed N] [--count N] [--first K] [--sets GLOB,GLOB] [--hard] [--wild] [--size WxH]   generate (prints the seed)
  barcode-gen.py score DIR [--ext-batch 'CMD'] [--anchors] [--show] [--missed]               score decoders on a generated folder

Needs: the `zint` command (Debian: apt-get install zint), and in a venv pillow, numpy, segno
(`../shared/barcode/setup-anchors.sh .venv-barcode && .venv-barcode/bin/pip install segno`; zxing-cpp and
pyzbar from that script are only needed for `score --anchors`).

Output follows the shared corpus convention (../shared/barcode/README.md): `<set>/<name>.png` with
`<name>.txt` holding the expected text (UTF-8, no trailing newline); the set's name before the last `-`
names the symbology; an `<name>.addon` file beside it holds the EAN-2/EAN-5 add-on's digits printed after the
main symbol (the expected text stays the main code alone). Generated images are never committed: the default output folder is a fresh temp folder.

Negative convention: a set named `negative-<kind>` holds images on which a reader must find nothing; its
`<name>.txt` files are empty. Any read there is a false positive. The `nested-*` sets hold a longer symbol in
which a shorter one could be misread (EAN-8 inside EAN-13, UPC-E beside an add-on, ITF fragments inside a
bearer-barred ITF-14); their expected text is the longer symbol's. The `negative-cut` set holds symbols with
part of the bars cut off by the image border or covered: only a fragment could be read there, so nothing is.

Sets: ean13-gen ean8-gen upca-gen upce-gen ean13-addon2 ean13-addon5 upca-addon2 upca-addon5 itf-bearer code128-gen code39-gen
qrcode-gen datamatrix-gen nested-ean13 nested-addon nested-itf14, and negative-text negative-stripes
negative-fence negative-woven negative-product negative-noise negative-cut. Issue 11 point 4 adds qrcode-dense
(versions 7-25, always a steep true perspective), datamatrix-large (32x32 to 144x144, 4 to 36 data regions) and
datamatrix-rect (rectangular and DMRE sizes); they are not in the default run (name them with --sets).

--wild adds what camera() leaves out, each with its own chance: a label round a bottle (cylinder), any angle, a
larger or smaller photo, motion blur, a defocused lens, vignetting, a photo of a screen (moire) and light bars on
a dark ground; with it, an image is the one without it plus these. `score --missed` lists the images an anchor
read and the reader under test did not.
"""
import argparse
import fnmatch
import io
import os
import random
import shlex
import shutil
import string
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

# ------------------------------------------------------------------ symbols


def gtin_check(digits):
    s = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return str((10 - s % 10) % 10)


def upce_to_upca(e):
    d = e[1:7]
    if d[5] in "012":
        body = d[0:2] + d[5] + "0000" + d[2:5]
    elif d[5] == "3":
        body = d[0:3] + "00000" + d[3:5]
    elif d[5] == "4":
        body = d[0:4] + "00000" + d[4]
    else:
        body = d[0:5] + "0000" + d[5]
    return e[0] + body


def digits(rng, n):
    return "".join(rng.choice(string.digits) for _ in range(n))


def zint(rng, barcode, data, text=True, extra=()):
    """Renders with zint at 2 px per module; returns a grayscale PIL image (white paper, black ink)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "s.png")
        cmd = ["zint", "-b", str(barcode), "-d", data, "--scale", "1", "--quietzones", "-o", out, *extra]
        if not text:
            cmd.append("--notext")
        subprocess.run(cmd, check=True, capture_output=True)
        return Image.open(out).convert("L")


def make_symbol(rng, kind, extras=None):
    """Returns (image at 2 px/module, expected text) for a symbol kind; an add-on's digits go to
    `extras["addon"]` when a dict is given."""
    text = rng.random() < 0.7
    if kind == "ean13":
        d = rng.choice("123456789") + digits(rng, 11)
        d += gtin_check(d)
        return zint(rng, 13, d, text), d
    if kind == "ean8":
        d = digits(rng, 7)
        d += gtin_check(d)
        return zint(rng, 13, d[:7], text), d
    if kind == "upca":
        d = digits(rng, 11)
        d += gtin_check(d)
        return zint(rng, 34, d[:11], text), d
    if kind == "upce":
        # Number system 0 or 1 and six digits; zint refuses the few bodies that do not expand, so retry.
        while True:
            body = rng.choice("01") + digits(rng, 6)
            e = body + gtin_check(upce_to_upca(body + "0"))
            try:
                return zint(rng, 37, body, text), e
            except subprocess.CalledProcessError:
                continue
    if kind in ("ean13-addon2", "ean13-addon5"):
        d = rng.choice("123456789") + digits(rng, 11)
        d += gtin_check(d)
        add = digits(rng, 2 if kind.endswith("2") else 5)
        gap = ["--addongap", str(rng.choice([7, 8, 9, 10, 12]))]
        if extras is not None:
            extras["addon"] = add
        return zint(rng, 13, d + "+" + add, text, gap), d
    if kind in ("upca-addon2", "upca-addon5"):
        d = digits(rng, 11)
        d += gtin_check(d)
        add = digits(rng, 2 if kind.endswith("2") else 5)
        gap = ["--addongap", str(rng.choice([9, 10, 12]))]
        if extras is not None:
            extras["addon"] = add
        return zint(rng, 34, d[:11] + "+" + add, text, gap), d
    if kind == "itf14":
        d = digits(rng, 13)
        d += gtin_check(d)
        # zint draws ITF-14's bearer box by default; sometimes bars top and bottom only.
        extra = ["--bind"] if rng.random() < 0.3 else []
        return zint(rng, 89, d[:13], text, extra), d
    if kind == "code128":
        alphabet = string.ascii_letters + string.digits + "-./ :+"
        d = "".join(rng.choice(alphabet) for _ in range(rng.randint(4, 18))).strip() or "X1"
        if rng.random() < 0.4:
            d = digits(rng, rng.choice([6, 8, 10, 12, 14]))
        return zint(rng, 20, d, text), d
    if kind == "code39":
        alphabet = string.ascii_uppercase + string.digits + "-. "
        d = "".join(rng.choice(alphabet) for _ in range(rng.randint(3, 12))).strip() or "A1"
        return zint(rng, 8, d, text), d
    if kind == "qrcode":
        import segno

        n = rng.randint(5, 120)
        alphabet = string.ascii_letters + string.digits + " -./:"
        d = "".join(rng.choice(alphabet) for _ in range(n)).strip() or "QR"
        if rng.random() < 0.3:
            d = "https://example.com/p/" + digits(rng, rng.randint(4, 12))
        q = segno.make_qr(d, error=rng.choice("lmqh"))
        buf = io.BytesIO()
        q.save(buf, kind="png", scale=2, border=4)
        buf.seek(0)
        return Image.open(buf).convert("L"), d
    if kind == "datamatrix":
        alphabet = string.ascii_letters + string.digits + " -./:"
        d = "".join(rng.choice(alphabet) for _ in range(rng.randint(3, 60))).strip() or "DM"
        return zint(rng, 71, d, False, ["--square"] if rng.random() < 0.7 else []), d
    if kind == "qrcode-dense":
        # Versions 7-25 (version information blocks, 6-25 alignment patterns), filled to a random share of the
        # version's capacity; placed with a steep perspective by `generate`.
        import segno

        version = rng.randint(7, 25)
        error = rng.choice("lmq")
        alphabet = string.ascii_letters + string.digits + " -./:"
        n = rng.randint(40, 400)
        while True:
            d = "".join(rng.choice(alphabet) for _ in range(n)).strip() or "QR"
            try:
                q = segno.make_qr(d, version=version, error=error, boost_error=False)
                break
            except Exception:  # too long for the version: shorten
                n = max(1, n * 2 // 3)
        buf = io.BytesIO()
        q.save(buf, kind="png", scale=2, border=4)
        buf.seek(0)
        return Image.open(buf).convert("L"), d
    if kind in ("datamatrix-large", "datamatrix-rect"):
        # Large square sizes with 4-36 data regions (zint --vers 10-24: 32x32 ... 144x144), or the rectangular
        # sizes of ISO/IEC 16022 (--vers 25-30) and of DMRE, ISO/IEC 21471 (--vers 31-48).
        vers = rng.randint(10, 24) if kind == "datamatrix-large" else rng.randint(25, 48)
        alphabet = string.ascii_letters + string.digits + " -./:"
        n = rng.randint(10, 1200 if kind == "datamatrix-large" else 120)
        while True:
            d = "".join(rng.choice(alphabet) for _ in range(n)).strip() or "DM"
            try:
                return zint(rng, 71, d, False, [f"--vers={vers}"]), d
            except subprocess.CalledProcessError:  # too long for the size: shorten
                if n == 1:
                    raise
                n = max(1, n * 2 // 3)
    raise ValueError(kind)


# ------------------------------------------------------------------ camera


def background(rng, w, h):
    """Paper, cardboard or a coloured package: smooth shading plus a little texture."""
    base = rng.uniform(120, 250)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = base + rng.uniform(-40, 40) * (xx / w - 0.5) + rng.uniform(-40, 40) * (yy / h - 0.5)
    g += np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(0, 6), (h, w))
    return np.clip(g, 0, 255)


# --hard: smaller modules, more blur, stronger perspective, lower JPEG quality (where wrong reads come from).
HARD = False


def place(rng, sym, min_module=1.2, max_module=4.0, canvas=None):
    """Scales the symbol (module size in px), rotates and puts it on a background; returns a float array."""
    if HARD:
        min_module, max_module = min_module * 0.8, max(min_module, max_module * 0.6)
    module = rng.uniform(min_module, max_module)
    f = module / 2.0
    sw, sh = max(8, int(sym.width * f)), max(8, int(sym.height * f))
    s = sym.resize((sw, sh), Image.BILINEAR if rng.random() < 0.7 else Image.NEAREST)
    ink = rng.uniform(0, 70)
    paper = rng.uniform(190, 255)
    arr = np.asarray(s, np.float32) / 255.0
    arr = ink + (paper - ink) * arr
    angle = rng.choice([0, 0, 0, 90, 180, 270]) + rng.uniform(-12, 12)
    pil = Image.fromarray(arr.astype(np.uint8))
    mask = Image.new("L", pil.size, 255)
    pil = pil.rotate(angle, resample=Image.BILINEAR, expand=True, fillcolor=0)
    mask = mask.rotate(angle, resample=Image.BILINEAR, expand=True, fillcolor=0)
    if canvas is None:
        cw = max(pil.width + rng.randint(20, 240), rng.randint(240, 640))
        ch = max(pil.height + rng.randint(20, 200), rng.randint(200, 480))
    else:
        cw, ch = canvas
    bg = background(rng, cw, ch)
    ox = rng.randint(0, max(0, cw - pil.width))
    oy = rng.randint(0, max(0, ch - pil.height))
    img = Image.fromarray(bg.astype(np.uint8))
    img.paste(pil, (ox, oy), mask)
    return np.asarray(img, np.float32)


def perspective(rng, arr, strength):
    h, w = arr.shape
    d = strength * min(w, h)
    quad = [(rng.uniform(0, d), rng.uniform(0, d)), (rng.uniform(0, d), h - rng.uniform(0, d)),
            (w - rng.uniform(0, d), h - rng.uniform(0, d)), (w - rng.uniform(0, d), rng.uniform(0, d))]
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    img = img.transform((w, h), Image.QUAD, [c for p in quad for c in p], Image.BILINEAR, fillcolor=int(arr.mean()))
    return np.asarray(img, np.float32)


def projective(rng, arr, strength):
    """A true camera perspective (a homography, straight lines stay straight), unlike perspective() above, whose
    PIL QUAD transform is bilinear and bends the lines of a rotated symbol."""
    h, w = arr.shape
    d = strength * min(w, h)
    dst = [(0, 0), (0, h), (w, h), (w, 0)]
    src = [(rng.uniform(0, d), rng.uniform(0, d)), (rng.uniform(0, d), h - rng.uniform(0, d)),
           (w - rng.uniform(0, d), h - rng.uniform(0, d)), (w - rng.uniform(0, d), rng.uniform(0, d))]
    # PIL's PERSPECTIVE wants the output-to-input map: (a x + b y + c) / (g x + h y + 1), likewise for y.
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); rhs.append(u)
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y]); rhs.append(v)
    coeffs = np.linalg.solve(np.array(rows, float), np.array(rhs, float))
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    img = img.transform((w, h), Image.PERSPECTIVE, list(coeffs), Image.BILINEAR, fillcolor=int(arr.mean()))
    return np.asarray(img, np.float32)


def camera(rng, arr):
    """Applies a random subset of camera effects; returns (uint8 array, list of effect tags)."""
    tags = []
    h, w = arr.shape
    if rng.random() < 0.35:
        arr = perspective(rng, arr, rng.uniform(0.03, 0.25 if HARD else 0.15))
        tags.append("perspective")
    if rng.random() < 0.3:  # shadow: a dark half-plane with a soft edge
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, 2 * np.pi)
        t = (np.cos(a) * (xx - w * rng.random()) + np.sin(a) * (yy - h * rng.random())) / rng.uniform(5, 60)
        arr = arr * (1 - rng.uniform(0.2, 0.6) / (1 + np.exp(-t)))
        tags.append("shadow")
    if rng.random() < 0.25:  # glare: a bright blob
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy, r = w * rng.random(), h * rng.random(), rng.uniform(10, min(w, h) / 3)
        arr = arr + rng.uniform(60, 200) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        tags.append("glare")
    if rng.random() < 0.4:
        img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
        arr = np.asarray(img.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 2.4 if HARD else 1.6))), np.float32)
        tags.append("blur")
    if rng.random() < 0.3:  # low light: less contrast, darker, more noise
        arr = arr * rng.uniform(0.25, 0.6) + rng.uniform(0, 20)
        arr = arr + np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 8), arr.shape)
        tags.append("lowlight")
    if rng.random() < 0.4:
        arr = arr + np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 12), arr.shape)
        tags.append("noise")
    out = np.clip(arr, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        buf = io.BytesIO()
        Image.fromarray(out).save(buf, "JPEG", quality=rng.randint(10 if HARD else 25, 85))
        buf.seek(0)
        out = np.asarray(Image.open(buf).convert("L"))
        tags.append("jpeg")
    return out, tags


# --wild: what the other effects leave out, drawn from a generator of its own so that an image with --wild is the same
# image without it plus these (the default run and the seeds quoted in tests and BENCHMARKS.md stay as they were).
WILD = False


def _sample(arr, sx, sy, fill):
    """Bilinear sample of arr at float coordinates (sx, sy); fill outside."""
    h, w = arr.shape
    x0, y0 = np.floor(sx).astype(int), np.floor(sy).astype(int)
    fx, fy = sx - x0, sy - y0
    out = np.zeros(sx.shape, np.float32)
    for dy, wy in ((0, 1 - fy), (1, fy)):
        for dx, wx in ((0, 1 - fx), (1, fx)):
            xi, yi = x0 + dx, y0 + dy
            inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
            v = np.where(inside, arr[np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)], fill)
            out += (wx * wy) * v
    return out


def _shifted_mean(arr, offsets):
    """The mean of arr shifted by each (dx, dy) in offsets (edge pixels repeated): a blur with that kernel."""
    h, w = arr.shape
    pad = int(max(max(abs(dx), abs(dy)) for dx, dy in offsets)) + 1
    p = np.pad(arr, pad, mode="edge")
    acc = np.zeros_like(arr)
    for dx, dy in offsets:
        acc += p[pad + dy:pad + dy + h, pad + dx:pad + dx + w]
    return acc / len(offsets)


def wild(rng, arr, stage):
    """Effects a phone or a hand-held scanner adds that camera() does not: before camera() (stage "geometry") a
    label on a bottle (cylinder), any rotation, a larger or smaller photo; after it (stage "optics") motion blur, a
    defocused lens (a disc, not a Gaussian), vignetting, a photo of a screen (moire), light bars on a dark ground.
    Both stages run before camera(), so that its noise and JPEG come last."""
    tags = []
    if stage == "geometry":
        h, w = arr.shape
        if rng.random() < 0.3:  # a label wrapped round a cylinder whose axis is vertical or horizontal
            horizontal = rng.random() < 0.7
            n = w if horizontal else h
            theta = rng.uniform(0.5, 1.2)  # half the arc seen, in radians
            u = (np.arange(n, dtype=np.float32) - n / 2) / (n / 2)
            src = (np.sin(u * theta) / np.sin(theta) + 1) * n / 2
            shade = (0.55 + 0.45 * np.cos(u * theta)).astype(np.float32)
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            if horizontal:
                arr = _sample(arr, src[None, :].repeat(h, 0), yy, float(arr.mean())) * shade[None, :]
            else:
                arr = _sample(arr, xx, src[:, None].repeat(w, 1), float(arr.mean())) * shade[:, None]
            tags.append("cylinder")
        if rng.random() < 0.35:
            img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
            arr = np.asarray(img.rotate(rng.uniform(0, 360), Image.BILINEAR, expand=True, fillcolor=int(arr.mean())), np.float32)
            tags.append("anyangle")
        if rng.random() < 0.3:
            h, w = arr.shape
            f = rng.uniform(0.6, min(2.5, 1600 / max(w, h)))
            img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
            arr = np.asarray(img.resize((max(16, int(w * f)), max(16, int(h * f))), Image.BICUBIC if f > 1 else Image.BOX), np.float32)
            tags.append("scaled")
        return arr, tags
    arr = arr.astype(np.float32)
    if rng.random() < 0.25:
        length, a = rng.uniform(2, 9), rng.uniform(0, np.pi)
        steps = max(2, int(round(length)))
        offs = {(int(round(t * np.cos(a))), int(round(t * np.sin(a)))) for t in np.linspace(-length / 2, length / 2, steps)}
        arr = _shifted_mean(arr, sorted(offs))
        tags.append("motion")
    if rng.random() < 0.2:
        r = rng.uniform(1.0, 2.8)
        ri = int(np.ceil(r))
        offs = [(dx, dy) for dy in range(-ri, ri + 1) for dx in range(-ri, ri + 1) if dx * dx + dy * dy <= r * r]
        arr = _shifted_mean(arr, offs)
        tags.append("defocus")
    if rng.random() < 0.3:
        h, w = arr.shape
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
        arr = arr * (1 - rng.uniform(0.2, 0.6) * r2 / 2)
        tags.append("vignette")
    if rng.random() < 0.12:
        h, w = arr.shape
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period, a = rng.uniform(2.2, 6), rng.uniform(0, np.pi)
        arr = arr * (1 - rng.uniform(0.08, 0.25) * (0.5 + 0.5 * np.sin(2 * np.pi * (np.cos(a) * xx + np.sin(a) * yy) / period)))
        tags.append("moire")
    if rng.random() < 0.1:
        arr = 255 - arr
        tags.append("inverted")
    return np.clip(arr, 0, 255), tags


# ------------------------------------------------------------------ negatives


def font(rng, size):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def neg_text(rng, w, h):
    img = Image.fromarray(background(rng, w, h).astype(np.uint8))
    d = ImageDraw.Draw(img)
    y = rng.randint(0, 10)
    words = ["Total", "Qty", "EUR", "Art.", "No", "Lot", "Best before", "Ingredients", "Batch", "Price", "kg"]
    while y < h:
        size = rng.randint(9, 34)
        parts = []
        for _ in range(rng.randint(2, 8)):
            r = rng.random()
            parts.append(digits(rng, rng.randint(2, 14)) if r < 0.5 else (rng.choice(words) if r < 0.8 else "|||| 1 11 111"))
        d.text((rng.randint(-5, 30), y), " ".join(parts), fill=rng.randint(0, 90), font=font(rng, size))
        y += int(size * rng.uniform(1.1, 1.8))
    return np.asarray(img, np.float32)


def neg_stripes(rng, w, h):
    """Bars of random widths (barcode-like but meaningless), sometimes in several blocks."""
    arr = background(rng, w, h)
    x = rng.randint(0, 40)
    unit = rng.uniform(1.0, 4.0)
    ink = rng.uniform(0, 80)
    while x < w:
        bar = max(1, int(round(unit * rng.randint(1, 4))))
        arr[:, int(x):int(x) + bar] = ink
        x += bar + max(1, int(round(unit * rng.randint(1, 4))))
        if rng.random() < 0.02:
            x += unit * rng.randint(8, 20)
    return arr


def neg_fence(rng, w, h):
    """Regular fences, railings, blinds: periodic bars, sometimes two periods beating; or exact stripes of a whole
    period (2-40 px) and duty, across the whole picture (the soak's stripes, which read as ITF digit pairs)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.4:
        period = rng.randint(2, 40)
        duty = rng.randint(1, max(1, period - 1))
        coord = (xx if rng.random() < 0.6 else yy).astype(int) + rng.randint(0, period)
        dark, light = rng.uniform(0, 90), rng.uniform(160, 255)
        return np.where(coord % period < duty, dark, light).astype(np.float32)
    p1, p2 = rng.uniform(3, 30), rng.uniform(3, 30)
    v = np.sin(2 * np.pi * xx / p1) + (rng.random() < 0.5) * 0.7 * np.sin(2 * np.pi * xx / p2 + rng.random() * 6)
    duty = rng.uniform(-0.6, 0.6)
    arr = np.where(v > duty, rng.uniform(180, 250), rng.uniform(10, 90)).astype(np.float32)
    if rng.random() < 0.5:  # a rail across
        y0 = rng.randint(0, h - 10)
        arr[y0:y0 + rng.randint(4, 20), :] = rng.uniform(10, 90)
    return arr


def neg_woven(rng, w, h):
    """Basket weave and twill textures (fabric, wicker), or a woven sine texture: the sum of three sines across,
    down and diagonally at random frequencies (the soak's texture, which reads as short Code 39 such as "P")."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:
        f1, f2, f3 = rng.uniform(0.05, 1.5), rng.uniform(0.05, 1.5), rng.uniform(0.01, 0.3)
        if rng.random() < 0.5:
            xx, yy = yy, xx
        v = np.sin(xx * f1) + np.sin(yy * f2) + np.sin((xx + yy) * f3)
        return np.clip(128 + v * rng.uniform(30, 50), 0, 255).astype(np.float32)
    p = rng.uniform(4, 16)
    cx, cy = (xx // p).astype(int), (yy // p).astype(int)
    if rng.random() < 0.5:
        over = (cx + cy) % 2 == 0
    else:
        over = ((cx + cy) // rng.randint(1, 3)) % 2 == 0
    thread_v = 0.5 + 0.5 * np.cos(2 * np.pi * xx / (p / rng.randint(1, 3)))
    thread_h = 0.5 + 0.5 * np.cos(2 * np.pi * yy / (p / rng.randint(1, 3)))
    arr = np.where(over, thread_v, thread_h) * rng.uniform(100, 200) + rng.uniform(20, 60)
    return arr.astype(np.float32)


def neg_product(rng, w, h):
    """A package photo without a code: shapes, a label with text and digits, a price sticker."""
    img = Image.fromarray(background(rng, w, h).astype(np.uint8))
    d = ImageDraw.Draw(img)
    for _ in range(rng.randint(3, 10)):
        x0, y0 = rng.randint(-50, w), rng.randint(-50, h)
        x1, y1 = x0 + rng.randint(20, w // 2), y0 + rng.randint(20, h // 2)
        fill = rng.randint(0, 255)
        (d.ellipse if rng.random() < 0.4 else d.rectangle)((x0, y0, x1, y1), fill=fill)
    for _ in range(rng.randint(1, 4)):
        d.text((rng.randint(0, w - 40), rng.randint(0, h - 20)), rng.choice(["NET WT 500g", "€ 2,49", "No. " + digits(rng, 8), "BIO", digits(rng, 13)]),
               fill=rng.randint(0, 255), font=font(rng, rng.randint(10, 40)))
    return np.asarray(img, np.float32)


def neg_noise(rng, w, h):
    g = np.random.default_rng(rng.randrange(1 << 30))
    kind = rng.choice(["gauss", "blob", "salt", "block"])
    if kind == "block":  # blocky noise: random grey squares of 2-16 px (reads as ITF digit pairs of whole blocks)
        s = rng.randint(2, 16)
        small = g.uniform(0, 255, (h // s + 1, w // s + 1))
        return np.kron(small, np.ones((s, s)))[:h, :w].astype(np.float32)
    if kind == "gauss":
        return np.clip(g.normal(rng.uniform(60, 190), rng.uniform(10, 70), (h, w)), 0, 255)
    if kind == "blob":
        small = g.uniform(0, 255, (max(2, h // rng.randint(3, 20)), max(2, w // rng.randint(3, 20))))
        return np.asarray(Image.fromarray(small.astype(np.uint8)).resize((w, h), Image.BICUBIC), np.float32)
    arr = np.full((h, w), rng.uniform(100, 240), np.float32)
    m = g.random((h, w))
    arr[m < 0.05] = 0
    arr[m > 0.95] = 255
    return arr


def neg_cut(rng, w, h):
    """A 1-D symbol with part of its bars cut off by the border or covered by a label: no complete symbol."""
    kind = rng.choice(["ean13", "ean13", "upca", "itf14", "ean13-addon5", "ean13-addon2", "ean8"])
    sym, _ = make_symbol(rng, kind)
    s = np.asarray(sym, np.float32)
    # The bars' extent on a row a third of the way down (above the human-readable digits beside the bars).
    cols = np.where(s[s.shape[0] // 3] < 128)[0]
    x0, x1 = cols[0], cols[-1]
    if "addon" in kind:  # the main symbol's 95 modules (2 px each) only: cutting just the add-on leaves a whole EAN-13
        x1 = x0 + 95 * 2 - 1
    span = x1 - x0
    # Remove between a quarter and two thirds of the bars, from the left, the right or the middle.
    frac = rng.uniform(0.25, 0.65)
    side = rng.choice(["left", "right", "cover"])
    if side == "left":
        s = s[:, x0 + int(span * frac):]
    elif side == "right":
        s = s[:, :x0 + int(span * (1 - frac))]
    else:
        a = x0 + int(span * rng.uniform(0.15, 0.5))
        s[:, a:a + int(span * frac * 0.6)] = 255  # a white label over the middle
    sym = Image.fromarray(s.astype(np.uint8))
    if side != "cover":  # the cut touches the image border
        return _touch_border(rng, sym, side)
    return place(rng, sym, 1.5, 3.5)


def _touch_border(rng, sym, side):
    module = rng.uniform(1.5, 3.5)
    f = module / 2
    s = sym.resize((max(8, int(sym.width * f)), max(8, int(sym.height * f))), Image.BILINEAR)
    arr = np.asarray(s, np.float32) / 255
    ink, paper = rng.uniform(0, 60), rng.uniform(190, 250)
    arr = ink + (paper - ink) * arr
    h = arr.shape[0] + rng.randint(10, 120)
    w = arr.shape[1] + rng.randint(0, 200)
    bg = background(rng, w, h)
    y = rng.randint(0, h - arr.shape[0])
    if side == "left":
        bg[y:y + arr.shape[0], :arr.shape[1]] = arr
    else:
        bg[y:y + arr.shape[0], w - arr.shape[1]:] = arr
    return bg


NEGATIVES = {
    "negative-text": neg_text, "negative-stripes": neg_stripes, "negative-fence": neg_fence,
    "negative-woven": neg_woven, "negative-product": neg_product, "negative-noise": neg_noise,
    "negative-cut": neg_cut,
}

POSITIVES = {
    "ean13-gen": "ean13", "ean8-gen": "ean8", "upca-gen": "upca", "upce-gen": "upce",
    "ean13-addon2": "ean13-addon2", "ean13-addon5": "ean13-addon5", "upca-addon2": "upca-addon2",
    "upca-addon5": "upca-addon5", "itf-bearer": "itf14",
    "code128-gen": "code128", "code39-gen": "code39", "qrcode-gen": "qrcode", "datamatrix-gen": "datamatrix",
    "qrcode-dense": "qrcode-dense", "datamatrix-large": "datamatrix-large", "datamatrix-rect": "datamatrix-rect",
}

# Sets whose images always get a perspective (strength range as a share of the frame), for issue 11 point 4.
STEEP = {"qrcode-dense": (0.08, 0.22)}
# Sets generated only when named with --sets (the default run and GeneratedCorpusTests stay as they were).
OPT_IN = {"qrcode-dense", "datamatrix-large", "datamatrix-rect"}

# Symbol-inside-a-symbol: small modules, tight framing and thick ink spread make fragments likely.
NESTED = {"nested-ean13": "ean13", "nested-addon": "ean13-addon5", "nested-itf14": "itf14"}


def nested_symbol(rng, kind, extras=None):
    sym, expected = make_symbol(rng, kind, extras)
    if rng.random() < 0.5:  # ink spread: bars grow by a fifth to a third of a module
        cut = rng.uniform(150, 200)
        sym = sym.filter(ImageFilter.GaussianBlur(0.8)).point(lambda v: 0 if v < cut else 255)
    return sym, expected


def family_of(set_name):
    """The symbology a set's expected text belongs to (eval.py's rule, with the nested sets mapped)."""
    nested = {"nested-ean13": "ean13", "nested-addon": "ean13", "nested-itf14": "itf"}
    return nested.get(set_name, set_name.rsplit("-", 1)[0])


def apply_wild(seed, set_name, k, arr, stage):
    """wild() with a generator of its own per image and stage, or nothing without --wild."""
    if not WILD:
        return arr, []
    arr, tags = wild(random.Random(f"{seed}/{set_name}/{k}/wild/{stage}"), np.asarray(arr, np.float32), stage)
    return arr, tags


def generate(out, seed, count, patterns, negative_size=None, first=0):
    written = 0
    names = list(POSITIVES) + list(NESTED) + list(NEGATIVES)
    for set_name in names:
        if patterns and not any(fnmatch.fnmatch(set_name, p) for p in patterns):
            continue
        if not patterns and set_name in OPT_IN:
            continue
        folder = os.path.join(out, set_name)
        os.makedirs(folder, exist_ok=True)
        for k in range(first, count):
            # One generator per image so that an image can be reproduced alone from (seed, set, k).
            r = random.Random(f"{seed}/{set_name}/{k}")
            extras = {}
            if set_name in NEGATIVES:
                w, h = r.randint(200, 640), r.randint(160, 480)
                if negative_size:  # a fixed frame size (e.g. 640x480 for timing frames without a code)
                    w, h = negative_size
                arr = NEGATIVES[set_name](r, w, h)
                expected, tags = "", [set_name.split("-", 1)[1]]
                if set_name != "negative-cut" and r.random() < 0.5:
                    arr = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)).rotate(r.uniform(-20, 20), Image.BILINEAR, fillcolor=int(np.mean(arr)))
                    arr = np.asarray(arr, np.float32)
                for stage in ("geometry", "optics"):  # before camera(): its noise and JPEG come last, as in a phone
                    arr, more = apply_wild(seed, set_name, k, arr, stage)
                    tags += more
                img, more = camera(r, arr)
                tags += more
            else:
                kind = POSITIVES.get(set_name) or NESTED[set_name]
                if set_name in NESTED:
                    sym, expected = nested_symbol(r, kind, extras)
                    arr = place(r, sym, 1.2, 2.6)
                else:
                    sym, expected = make_symbol(r, kind, extras)
                    arr = place(r, sym, 1.6 if kind.startswith(("qrcode", "datamatrix")) else 1.3, 4.0)
                tags = []
                if set_name in STEEP:
                    lo, hi = STEEP[set_name]
                    strength = r.uniform(lo, hi * (1.3 if HARD else 1.0))
                    # projective() pulls the corners in by up to strength x the frame's shorter side: widen the
                    # frame first (edge pixels repeated) so that the whole symbol stays in the picture.
                    margin = int(strength * max(arr.shape) / (1 - 2 * strength)) + 4
                    arr = projective(r, np.pad(arr, margin, mode="edge"), strength)
                    tags.append("steep")
                for stage in ("geometry", "optics"):  # before camera(): its noise and JPEG come last, as in a phone
                    arr, more = apply_wild(seed, set_name, k, arr, stage)
                    tags += more
                img, more = camera(r, arr)
                tags += more
            name = f"{k:03d}-" + ("-".join(tags) if tags else "clean")
            Image.fromarray(img).save(os.path.join(folder, name + ".png"))
            with open(os.path.join(folder, name + ".txt"), "w", encoding="utf-8") as f:
                f.write(expected)
            if "addon" in extras:
                with open(os.path.join(folder, name + ".addon"), "w", encoding="utf-8") as f:
                    f.write(extras["addon"])
            written += 1
    return written


# ------------------------------------------------------------------ scoring


def gtin13(text, upce_hint):
    if not text.isdigit():
        return text
    if len(text) == 8 and upce_hint:
        text = upce_to_upca(text[:7]) + text[7]
    return "0" + text if len(text) == 12 else text


def score(folder, ext_batch, anchors, show, missed=False):
    sets = sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))
    decoders = {}
    if ext_batch:
        proc = subprocess.Popen(shlex.split(ext_batch), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

        def ext(path, gray):
            proc.stdin.write(path + "\n")
            proc.stdin.flush()
            res = []
            while True:
                line = proc.stdout.readline()
                if not line or line.startswith("END"):
                    return res
                if "\t" in line and not line.startswith("#"):
                    fmt, txt = line.rstrip("\n").split("\t", 1)
                    res.append((fmt, txt.encode().decode("unicode_escape") if "\\" in txt else txt))
        decoders["stockroom"] = ext
    if anchors:
        import zxingcpp

        def zx(path, gray):
            return [(r.format.name, r.text) for r in zxingcpp.read_barcodes(gray, text_mode=zxingcpp.TextMode.Plain)]
        decoders["zxing-cpp"] = zx
        try:
            from pyzbar import pyzbar

            def zb(path, gray):
                return [(r.type, r.data.decode("utf-8", "replace")) for r in pyzbar.decode((gray.tobytes(), gray.shape[1], gray.shape[0]))]
            decoders["zbar"] = zb
        except ImportError:
            pass
    # ok, wrong (positive sets), false positives, images, extra (another code reported beside the right one)
    totals = {n: [0, 0, 0, 0, 0] for n in decoders}
    print(f"{'set':<18} {'n':>4} " + " ".join(f"{n + ' ok/wrong/fp/extra':>28}" for n in decoders))
    for s in sets:
        fam = family_of(s)
        imgs = sorted(f for f in os.listdir(os.path.join(folder, s)) if f.endswith(".png"))
        row = {n: [0, 0, 0, 0] for n in decoders}
        for f in imgs:
            path = os.path.join(folder, s, f)
            expected = open(path[:-4] + ".txt", encoding="utf-8").read()
            gray = np.asarray(Image.open(path).convert("L"))
            right = set()  # decoders that read the printed code on this image
            for n, dec in decoders.items():
                res = dec(path, gray)
                if s.startswith("negative-") or expected == "":
                    if res:
                        row[n][2] += 1
                        if show:
                            print(f"  FP {n} {s}/{f}: {res}")
                    continue
                if fam in ("ean13", "ean8", "upca", "upce"):
                    want = gtin13(expected, fam == "upce")
                    got = [gtin13(t, "upce" in fmt.lower().replace("_", "").replace("-", "")) for fmt, t in res]
                else:
                    want, got = expected, [t for _, t in res]
                if want in got:
                    row[n][0] += 1
                    right.add(n)
                    # A second code beside the right one is a wrong read too: a till may take either.
                    if any(g != want for g in got):
                        row[n][3] += 1
                        if show:
                            print(f"  EXTRA {n} {s}/{f}: expected {expected}, got {res}")
                elif res:
                    row[n][1] += 1
                    if show:
                        print(f"  WRONG {n} {s}/{f}: expected {expected}, got {res}")
            if missed and "stockroom" in decoders and right and "stockroom" not in right:
                print(f"  MISSED stockroom {s}/{f}: read by {', '.join(sorted(right))}")
        cells = []
        for n in decoders:
            ok, wrong, fp, extra = row[n]
            cells.append(f"{ok:>10}/{wrong}/{fp}/{extra}".rjust(28))
            t = totals[n]
            t[0] += ok; t[1] += wrong; t[2] += fp; t[3] += len(imgs); t[4] += extra
        print(f"{s:<18} {len(imgs):>4} " + " ".join(cells))
    print(f"{'total':<18} {'':>4} " + " ".join(f"{t[0]:>10}/{t[1]}/{t[2]}/{t[4]}".rjust(28) for t in totals.values()))
    return totals


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "score":
        p = argparse.ArgumentParser(prog="barcode-gen.py score", description="score decoders on a generated folder")
        p.add_argument("folder")
        p.add_argument("--ext-batch", help="a decoder speaking eval.py's batch protocol, e.g. '.build/release/stockroom scan --stdin'")
        p.add_argument("--anchors", action="store_true", help="also zxing-cpp and zbar (from setup-anchors.sh)")
        p.add_argument("--show", action="store_true", help="list every wrong read and false positive")
        p.add_argument("--missed", action="store_true", help="list every image an anchor read right and --ext-batch did not")
        a = p.parse_args(sys.argv[2:])
        totals = score(a.folder, a.ext_batch, a.anchors, a.show, a.missed)
        return 0 if all(t[1] == 0 and t[2] == 0 for t in totals.values()) else 1
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", help="output folder (default: a new temp folder)")
    p.add_argument("--seed", type=int, help="reproduce a run (default: a fresh seed, printed)")
    p.add_argument("--count", type=int, default=20, help="images per set (default 20)")
    p.add_argument("--sets", default="", help="comma-separated set-name globs, e.g. 'ean*,negative-*'")
    p.add_argument("--hard", action="store_true", help="smaller modules, more blur and perspective, worse JPEG")
    p.add_argument("--wild", action="store_true", help="also cylinders, any angle, scaling, motion blur, defocus, vignetting, moire, inversion")
    p.add_argument("--size", help="WxH of the negative-* frames (not negative-cut), e.g. 640x480 (default: random)")
    p.add_argument("--first", type=int, default=0,
                   help="render only the images from this index on: an image depends only on the seed, its set, its "
                        "index and --hard/--wild, so one image of a large run is rendered alone with --first K --count K+1")
    a = p.parse_args()
    global HARD, WILD
    HARD = a.hard
    WILD = a.wild
    if shutil.which("zint") is None:
        print("zint is missing: apt-get install zint", file=sys.stderr)
        return 2
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1, 1 << 31)
    out = a.out or tempfile.mkdtemp(prefix="barcode-gen-")
    t = time.time()
    size = tuple(int(v) for v in a.size.lower().split("x")) if a.size else None
    n = generate(out, seed, a.count, [s for s in a.sets.split(",") if s], size, a.first)
    print(f"seed {seed}: {n} images in {out} ({time.time() - t:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
