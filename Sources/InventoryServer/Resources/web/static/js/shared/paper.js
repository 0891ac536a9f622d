// Printing on an 80 mm receipt roll or on A4: the paper choice sets @page (a constructed style sheet: the
// Content-Security-Policy refuses inline <style>) and is remembered on this device under `key`.
const PAGE_RULES = { "80": "@page { size: 80mm auto; margin: 3mm 4mm; }", a4: "@page { size: A4; margin: 18mm; }" };

/**
 * Wires the [data-paper] buttons and the print button for `box` (the printed article). A receipt roll has no page
 * length: Chrome ignores "size: 80mm auto", so the page is made exactly as long as `box`, measured at the printed
 * width and type size (.receipt-measure mirrors the 80 mm print rules). Returns `refresh()`, to call once the box is
 * filled.
 */
export function paperControl(box, key, printButton, requested = null) {
  let current = "80";
  const sheet = new CSSStyleSheet();
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  function rule(paper) {
    if (paper !== "80" || box.getAttribute("aria-busy") !== "false") return PAGE_RULES[paper];
    const probe = box.cloneNode(true);
    probe.removeAttribute("id");
    for (const node of probe.querySelectorAll("[id]")) node.removeAttribute("id");
    probe.classList.add("receipt-measure");
    probe.setAttribute("aria-hidden", "true");
    document.body.append(probe);
    const millimetres = Math.ceil(probe.getBoundingClientRect().height / (96 / 25.4)) + 8;
    probe.remove();
    return `@page { size: 80mm ${Math.max(60, millimetres)}mm; margin: 3mm 4mm; }`;
  }
  function set(paper) {
    if (!PAGE_RULES[paper]) paper = "80";
    current = paper;
    sheet.replaceSync(rule(paper));
    document.body.classList.toggle("paper-80", paper === "80");
    document.body.classList.toggle("paper-a4", paper === "a4");
    for (const button of document.querySelectorAll("[data-paper]")) button.setAttribute("aria-pressed", String(button.dataset.paper === paper));
    try { localStorage.setItem(key, paper); } catch { /* fine */ }
  }
  let saved = null;
  try { saved = localStorage.getItem(key); } catch { /* fine */ }
  set(requested ?? saved ?? "80");
  for (const button of document.querySelectorAll("[data-paper]")) button.addEventListener("click", () => set(button.dataset.paper));
  printButton?.addEventListener("click", () => window.print());
  window.addEventListener("beforeprint", () => set(current));
  return () => set(current);
}
