// Shared helpers for the admin screens (reports, import, users, settings, backup): table building,
// uploads with progress and tabs. Only text goes into the DOM (el()). (Dates and money formatting: shared/.)
import { el, goToLock, ApiError } from "/static/js/app.js";
/**
 * A table: columns are {label, value(row) → string|Node, num?: true, phone?: false (hidden below 768 px),
 * wide?: true (hidden below 1280 px), nowrap?: true, wrap?: true (long text)}. Print shows every column. `foot` is an optional array of
 * cells (strings or Nodes) for a totals row. With `limit`, only that many rows show until "Show all" (print shows all).
 */
export function table(columns, rows, { caption, foot, empty = "Nothing to show.", id, limit = 0 } = {}) {
  if (!rows.length) return el("p", { class: "empty", id }, empty);
  const cls = (column) => [column.num ? "num" : "", column.phone === false ? "hide-phone" : "", column.wide ? "hide-narrow" : "", column.wrap ? "wrap" : "", column.nowrap ? "nowrap" : ""].join(" ").trim() || null;
  const head = el("thead", {}, el("tr", {}, columns.map((column) => el("th", { scope: "col", class: cls(column) }, column.label))));
  const body = el("tbody", {}, rows.map((row, rowIndex) => el("tr", { class: limit && rowIndex >= limit ? "extra" : null }, columns.map((column, index) => {
    const value = column.value(row);
    return index === 0 && column.header !== false
      ? el("th", { scope: "row", class: cls(column) }, value)
      : el("td", { class: cls(column) }, value);
  }))));
  const parts = [caption ? el("caption", { class: "sr-only" }, caption) : null, head, body];
  if (foot) {
    parts.push(el("tfoot", {}, el("tr", {}, foot.map((cell, index) => index === 0
      ? el("th", { scope: "row" }, cell)
      : el("td", { class: columns[index] ? cls(columns[index]) : null }, cell)))));
  }
  const wrap = el("div", { class: "table-wrap", id }, el("table", { class: "table" }, parts));
  if (!limit || rows.length <= limit) return wrap;
  // Long tables show the first `limit` rows on screen (all of them in print) until asked for the rest.
  wrap.classList.add("collapsed");
  const more = el("button", { type: "button", class: "btn-small show-all", "aria-expanded": "false" }, `Show all ${rows.length}`);
  more.addEventListener("click", () => {
    const open = wrap.classList.toggle("collapsed") === false;
    more.setAttribute("aria-expanded", String(open));
    more.textContent = open ? `Show the first ${limit}` : `Show all ${rows.length}`;
  });
  return el("div", {}, wrap, more);
}

/** Offers text as a file download (a Blob link clicked once). */
export function downloadText(name, text, type = "text/csv") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(url); link.remove(); }, 1000);
}

/**
 * POSTs a body with XMLHttpRequest so the upload's progress can be shown on a <progress> element (indeterminate
 * once the upload is sent and the server is working). Resolves to the parsed JSON; rejects with ApiError.
 */
export function upload(path, body, { contentType = "application/octet-stream", progress } = {}) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", path);
    request.setRequestHeader("Content-Type", contentType);
    request.setRequestHeader("Accept", "application/json");
    request.setRequestHeader("X-CSRF-Token", document.querySelector('meta[name="csrf-token"]')?.content ?? "");
    if (progress) {
      progress.hidden = false;
      progress.removeAttribute("value");
      request.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable && event.total > 0) { progress.max = event.total; progress.value = event.loaded; }
      });
      // Sent: the server is now checking/writing; show an indeterminate bar.
      request.upload.addEventListener("load", () => progress.removeAttribute("value"));
    }
    const done = () => { if (progress) progress.hidden = true; };
    request.addEventListener("load", () => {
      done();
      let json = null;
      try { json = request.responseText ? JSON.parse(request.responseText) : null; } catch { json = null; }
      if (request.status === 423) { goToLock(); reject(new ApiError(423, { title: "Till locked", detail: "the till is locked" })); return; }
      if (request.status >= 200 && request.status < 300) resolve(json);
      else reject(new ApiError(request.status, json ?? { title: `HTTP ${request.status}`, detail: request.statusText || "the server refused the upload" }));
    });
    request.addEventListener("error", () => {
      done();
      reject(new ApiError(0, { title: "Server unreachable", detail: "cannot reach the Stockroom server; check the connection and try again" }));
    });
    request.send(body);
  });
}

/**
 * Wires a [role=tablist] with buttons [role=tab][aria-controls]: click and arrow keys switch panels; the chosen
 * tab is kept in the URL (?tab=name). Calls onShow(name) when a tab is shown.
 */
export function setupTabs(list, onShow) {
  const tabs = [...list.querySelectorAll('[role="tab"]')];
  const show = (tab, focus = false) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
    }
    if (focus) tab.focus();
    const url = new URL(location.href);
    url.searchParams.set("tab", tab.dataset.tab);
    history.replaceState(null, "", url);
    onShow?.(tab.dataset.tab);
  };
  list.addEventListener("click", (event) => {
    const tab = event.target.closest('[role="tab"]');
    if (tab) show(tab);
  });
  list.addEventListener("keydown", (event) => {
    const index = tabs.indexOf(document.activeElement);
    if (index < 0) return;
    let next = null;
    if (event.key === "ArrowRight") next = tabs[(index + 1) % tabs.length];
    else if (event.key === "ArrowLeft") next = tabs[(index - 1 + tabs.length) % tabs.length];
    else if (event.key === "Home") next = tabs[0];
    else if (event.key === "End") next = tabs[tabs.length - 1];
    if (next) { event.preventDefault(); show(next, true); }
  });
  const wanted = new URLSearchParams(location.search).get("tab");
  show(tabs.find((tab) => tab.dataset.tab === wanted) ?? tabs[0]);
}

/** Replaces a container's content with a spinner line while something loads. */
export function loading(container, text = "Loading…") {
  container.replaceChildren(el("p", { class: "muted" }, el("span", { class: "spinner", "aria-hidden": "true" }), " ", text));
}
