// Camera scanning: the back camera's frames go to the server as raw 8-bit grey frames (POST
// /api/v1/barcodes/decode?width=&height=), which reads the code and finds the product — no BarcodeDetector needed,
// so it works on iPhone Safari too. Manual entry is always there; the server checks the code (check digits) as it
// looks it up.
import { announce, api, clearErrors, el, fieldError } from "/static/js/app.js";
import { productByBarcode, typedBarcode } from "/static/js/shared/barcode.js";
import { money, quantity } from "/static/js/shared/format.js";
import { productThumb } from "/static/js/shared/thumbs.js";

const $ = (id) => document.getElementById(id);
const root = $("scan"), view = $("scan-view"), video = $("scan-video"), stateLine = $("scan-state");
const problemBox = $("camera-problem"), resultBody = $("result-body"), torchButton = $("torch");
const can = (what) => root.dataset[`can${what}`] === "true";

const INTERVAL = 350;          // ms between frames
const MAX_SIDE = 1280;         // frames are scaled down to at most this many pixels a side
let stream = null, track = null, timer = null, busy = false, paused = false, stopped = false;
const canvas = document.createElement("canvas");
const context = canvas.getContext("2d", { willReadFrequently: true });

function setState(state, text) {
  view.dataset.state = state;
  stateLine.textContent = text;
}

function showProblem(...content) {
  problemBox.replaceChildren(...content);
  problemBox.hidden = false;
  view.hidden = true;
  root.classList.add("scan-nocam");
  resultBody.replaceChildren(el("p", { class: "muted" }, "Type a barcode below to look it up."));
  for (const t of stream?.getTracks() ?? []) t.stop();
}

// ---------- camera ----------
async function start() {
  stopped = false;
  if (!navigator.mediaDevices?.getUserMedia) {
    // Plain HTTP from another device is the usual reason: browsers give the camera to HTTPS pages only.
    if (location.protocol !== "https:") {
      showProblem(
        el("strong", {}, "The camera needs HTTPS. "),
        "This page was opened over plain HTTP from another device, and browsers only give the camera to secure pages. ",
        "Start the server with ", el("code", {}, "stockroom serve --tls"), " and open the https:// address it prints. ",
        "Until then, type the barcode below or use a USB/Bluetooth scanner at the till.");
    } else {
      showProblem(el("strong", {}, "This browser offers no camera. "), "Type the barcode below, or open this page on a phone or tablet.");
    }
    return;
  }
  setState("starting", "Starting the camera…");
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: "environment", width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false,
    });
  } catch (error) {
    const name = error?.name ?? "";
    if (name === "NotAllowedError" || name === "SecurityError") {
      showProblem(el("strong", {}, "Camera access was refused. "),
        "Allow the camera for this site (the camera icon in the address bar, or the browser's site settings) and reload the page. Typing the barcode below works meanwhile.");
    } else if (name === "NotFoundError" || name === "OverconstrainedError") {
      showProblem(el("strong", {}, "No camera was found. "), "Type the barcode below.");
    } else if (name === "NotReadableError") {
      showProblem(el("strong", {}, "The camera is busy. "), "Another app is using it; close that app and reload this page.");
    } else {
      showProblem(el("strong", {}, "The camera could not start. "), String(error?.message ?? error));
    }
    return;
  }
  if (stopped) { stop(); return; }
  track = stream.getVideoTracks()[0];
  video.srcObject = stream;
  try { await video.play(); } catch { /* autoplay of a muted video is allowed; go on */ }
  // Draw only after one frame was presented, or the canvas gets a black frame.
  await new Promise((resolve) => {
    if ("requestVideoFrameCallback" in video) video.requestVideoFrameCallback(() => resolve());
    else if (video.readyState >= 2) resolve();
    else video.addEventListener("loadeddata", () => resolve(), { once: true });
  });
  setupTorch();
  setState("scanning", "Scanning… hold the barcode inside the frame");
  schedule(0);
}

function stop() {
  clearTimeout(timer);
  timer = null;
  stopped = true;
  for (const t of stream?.getTracks() ?? []) t.stop();
  stream = null;
  track = null;
  video.srcObject = null;
}

function setupTorch() {
  let capable = false;
  try { capable = Boolean(track?.getCapabilities?.().torch); } catch { capable = false; }
  torchButton.hidden = !capable;
}
torchButton.addEventListener("click", async () => {
  const on = torchButton.getAttribute("aria-pressed") !== "true";
  try {
    await track.applyConstraints({ advanced: [{ torch: on }] });
    torchButton.setAttribute("aria-pressed", String(on));
  } catch {
    torchButton.hidden = true;
  }
});

function schedule(delay = INTERVAL) {
  clearTimeout(timer);
  timer = setTimeout(tick, delay);
}

async function tick() {
  if (stopped || !stream) return;
  if (paused || busy || document.hidden || video.readyState < 2 || !video.videoWidth) { schedule(); return; }
  busy = true;
  const started = performance.now();
  try {
    // Only the part of the frame the preview shows (object-fit: cover crops the sides or the top and bottom).
    let sx = 0, sy = 0, sw = video.videoWidth, sh = video.videoHeight;
    const boxAspect = view.clientWidth / Math.max(1, view.clientHeight);
    if (boxAspect > 0 && Number.isFinite(boxAspect)) {
      if (sw / sh > boxAspect) { const w = Math.round(sh * boxAspect); sx = Math.round((sw - w) / 2); sw = w; }
      else { const h = Math.round(sw / boxAspect); sy = Math.round((sh - h) / 2); sh = h; }
    }
    const scale = Math.min(1, MAX_SIDE / Math.max(sw, sh));
    const width = Math.max(1, Math.round(sw * scale)), height = Math.max(1, Math.round(sh * scale));
    if (canvas.width !== width || canvas.height !== height) { canvas.width = width; canvas.height = height; }
    context.drawImage(video, sx, sy, sw, sh, 0, 0, width, height);
    const rgba = context.getImageData(0, 0, width, height).data;
    const grey = new Uint8Array(width * height);
    for (let i = 0, j = 0; j < grey.length; i += 4, j += 1) grey[j] = (rgba[i] * 77 + rgba[i + 1] * 150 + rgba[i + 2] * 29) >> 8;
    const reply = await api("POST", `/api/v1/barcodes/decode?width=${width}&height=${height}`, grey, { quiet: true });
    if (!paused && reply.barcodes?.length) {
      const best = reply.barcodes.find((code) => code.product) ?? reply.barcodes[0];
      found(best.text, best.product ?? null, best.format);
    }
  } catch (error) {
    if (error?.status === 0) setState("scanning", "Server unreachable — retrying…");
  } finally {
    busy = false;
    if (!stopped) schedule(Math.max(0, INTERVAL - (performance.now() - started)));
  }
}

// ---------- results ----------
let audio = null;
function beep() {
  try {
    if (!audio || audio.state !== "running") return;
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 1800;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.08);
  } catch { /* no sound: fine */ }
}
// Browsers allow sound only after a tap on the page.
document.addEventListener("pointerdown", () => { try { audio ??= new AudioContext(); audio.resume(); } catch { /* fine */ } }, { once: true });

function found(code, product, format) {
  paused = true;
  setState("found", `Read ${code}`);
  navigator.vibrate?.(80);
  beep();
  showResult(code, product, format);
}

function action(href, label, primary = false) {
  return el("a", { class: `btn${primary ? " btn-primary" : ""}`, href }, label);
}

function showResult(code, product, format) {
  const again = el("button", { type: "button", id: "scan-again", onclick: resume }, stream ? "Scan another" : "Clear");
  if (product) {
    const actions = [];
    if (can("Purchase")) actions.push(action(`/app/purchases/new?product=${product.id}`, "Add stock", true));
    if (can("Sell")) actions.push(action(`/app/pos?product=${product.id}`, "Add to sale", !can("Purchase")));
    if (can("View")) actions.push(action(`/app/products/${product.id}`, "Open product"));
    resultBody.replaceChildren(
      el("div", { class: "scan-result-head" },
        productThumb(product, "thumb-lg"),
        el("div", { class: "main" },
          el("div", { class: "title", id: "result-name" }, product.name),
          el("div", { class: "scan-code" }, code),
          el("div", { class: "muted", id: "result-stock" }, stockLine(product)))),
      el("p", { class: "sr-only" }, `Found ${product.name}, barcode ${code}.`),
      quickReceive(product),
      el("div", { class: "scan-actions", id: "result-actions" }, ...actions, again));
  } else {
    const actions = [];
    if (can("Edit")) actions.push(action(`/app/products/new?barcode=${encodeURIComponent(code)}`, "Create product with this barcode", true));
    else actions.push(el("p", { class: "muted" }, "Ask a manager to add this product to the catalogue."));
    resultBody.replaceChildren(
      el("div", { class: "scan-result-head" },
        el("div", { class: "main" },
          el("div", { class: "title", id: "result-name" }, "Unknown barcode"),
          el("div", { class: "scan-code" }, code),
          el("div", { class: "muted" }, `No product has this ${format ? format.toUpperCase() + " " : ""}code yet.`))),
      el("div", { class: "scan-actions", id: "result-actions" }, ...actions, again));
  }
}

function stockLine(product) {
  return `${money(product.salePrice)} · ${product.tracksStock ? `${quantity(product.quantity)} ${product.unit} in stock` : "stock not tracked"}`;
}

// ---------- a known barcode: "+1 received" and ±N, as the barcode-scanner app did with duplicates ----------
// Booked as a stock adjustment without a cost (POST /api/v1/adjustments, reason correction): the books value it at the
// product's current average cost, and a removal is issued at that cost too. Not a purchase: a scan names no supplier
// and no price, and a purchase at an invented price would move the average cost and the purchase reports. Only for a
// role that may both receive stock and adjust it (managers and admins today). The stock shown is the server's answer.
function quickReceive(product) {
  if (!product.tracksStock || !can("Purchase") || !can("Adjust")) return null;
  const status = el("p", { class: "quick-status", id: "quick-status", role: "status" });
  const step = el("input", { id: "quick-step", type: "number", inputmode: "numeric", step: "1", value: "1",
    class: "quick-step", "aria-label": "Quantity to book (negative removes)" });
  const book = el("button", { type: "button", class: "btn", id: "quick-book" });
  const amount = () => { const n = Number.parseInt(step.value, 10); return Number.isFinite(n) ? n : 0; };
  const label = () => {
    const n = amount();
    book.textContent = n > 0 ? `Receive +${n}` : n < 0 ? `Remove ${-n}` : "Receive";
    book.disabled = n === 0;
  };
  const nudge = (by) => {
    let n = amount() + by;
    if (n === 0) n += by;  // skip zero: nothing to book
    step.value = String(n);
    label();
  };
  let busy = false;
  async function post(change, button) {
    if (busy) return;
    busy = true;
    button.disabled = true;
    status.textContent = "";
    try {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      const key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      await api("POST", "/api/v1/adjustments", { productId: product.id, quantityChange: String(change), reason: "correction",
        note: change > 0 ? "Received (scan)" : "Removed (scan)" }, { headers: { "Idempotency-Key": key } });
      const fresh = await api("GET", `/api/v1/products/${product.id}`);
      Object.assign(product, fresh);
      $("result-stock").textContent = stockLine(fresh);
      status.textContent = `${change > 0 ? "+" : ""}${change} booked: ${quantity(fresh.quantity)} ${fresh.unit} in stock.`;
      status.classList.remove("error");
      announce(status.textContent);
    } catch (error) {
      status.textContent = error?.message ?? String(error);
      status.classList.add("error");
    } finally {
      busy = false;
      button.disabled = false;
      label();
    }
  }
  const one = el("button", { type: "button", class: "btn btn-primary", id: "quick-receive-one", onclick: (event) => post(1, event.currentTarget) }, "+1 received");
  book.addEventListener("click", () => { const n = amount(); if (n) post(n, book); });
  step.addEventListener("input", label);
  label();
  return el("div", { class: "quick-receive", id: "quick-receive", role: "group", "aria-label": "Book stock at the average cost" },
    one,
    el("div", { class: "quick-stepper" },
      el("button", { type: "button", class: "btn btn-icon-text", id: "quick-minus", "aria-label": "One less", onclick: () => nudge(-1) }, "−"),
      step,
      el("button", { type: "button", class: "btn btn-icon-text", id: "quick-plus", "aria-label": "One more", onclick: () => nudge(1) }, "+"),
      book),
    status);
}

function resume() {
  paused = false;
  resultBody.replaceChildren(el("p", { class: "muted" }, stream ? "Scanning… hold a barcode inside the frame." : "Type a barcode below to look it up."));
  if (stream) { setState("scanning", "Scanning… hold the barcode inside the frame"); schedule(0); }
}

// ---------- manual entry ----------
const manual = $("manual-form");
manual.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors(manual);
  const code = typedBarcode(manual.elements.code.value);
  if (!code) { fieldError(manual, "code", "Enter a barcode"); manual.elements.code.focus(); return; }
  try {
    const product = await productByBarcode(code);
    paused = true;
    showResult(code, product, null);
    $("result-actions")?.querySelector("a")?.focus();
  } catch (error) {
    fieldError(manual, "code", error.message);
    manual.elements.code.focus();
  }
});

// ---------- lifecycle: the camera is off whenever the page is not shown ----------
window.addEventListener("pagehide", stop);
window.addEventListener("pageshow", (event) => { if (event.persisted && !stream && problemBox.hidden) start(); });
document.addEventListener("visibilitychange", () => {
  if (document.hidden) stop();
  else if (!stream && problemBox.hidden) start();
});
start();
