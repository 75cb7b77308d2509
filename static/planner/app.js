/* Shared helpers of every page: CSRF-aware fetch, confirmations, number formats. */
(function () {
  "use strict";

  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }

  /* fetch() with the session's CSRF token; resolves to {ok, status, data}. */
  async function api(url, options) {
    const opts = Object.assign({ method: "GET", credentials: "same-origin" }, options || {});
    const headers = Object.assign({ Accept: "application/json" }, opts.headers || {});
    if (opts.method !== "GET" && opts.method !== "HEAD") {
      headers["X-CSRFToken"] = csrfToken();
      if (opts.body !== undefined && typeof opts.body !== "string" && !(opts.body instanceof FormData)) {
        opts.body = JSON.stringify(opts.body);
        headers["Content-Type"] = "application/json";
      }
    }
    opts.headers = headers;
    const response = await fetch(url, opts);
    let data = null;
    const type = response.headers.get("Content-Type") || "";
    if (response.status !== 204 && type.indexOf("json") !== -1) {
      data = await response.json();
    }
    return { ok: response.ok, status: response.status, data: data };
  }

  /* Same rule as scheduling.tables.format_money: four decimals, thousands separated. */
  function money(value) {
    if (value === null || value === undefined || !isFinite(value)) return "—";
    return value.toLocaleString("en-GB", { minimumFractionDigits: 4, maximumFractionDigits: 4 });
  }

  function number(value, digits) {
    if (value === null || value === undefined || !isFinite(value)) return "—";
    return value.toLocaleString("en-GB", { maximumFractionDigits: digits === undefined ? 2 : digits });
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (value === true) node.setAttribute(key, "");
      else node.setAttribute(key, value);
    }
    for (const child of children || []) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  function jsonScript(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });

  document.addEventListener("change", function (event) {
    const target = event.target;
    if (target.classList && target.classList.contains("js-autosubmit") && target.form) {
      target.form.submit();
    }
  });

  /* Catalogue rows: a row's inputs name their form; its Save button lights up on edit. */
  document.addEventListener("input", function (event) {
    const formId = event.target.getAttribute && event.target.getAttribute("form");
    if (!formId) return;
    const form = document.getElementById(formId);
    if (form && form.classList.contains("js-dirty-form")) {
      const button = form.querySelector('button[type="submit"]');
      if (button) button.classList.add("btn-primary");
    }
  });

  /* Every use of a glossary term in the page's content links to its entry (the terms and the
     ways pages write them: scheduling.glossary, in #glossary-terms), including what scripts
     draw later (tables, replay). Not inside links, buttons, form controls, labels (a click
     there ticks a box), charts or what is marked data-no-glossary. */
  const GLOSSARY = jsonScript("glossary-terms");
  const SKIP = "a, button, select, option, textarea, input, label, script, style, svg, summary, " +
    ".js-plotly-plot, [data-no-glossary]";
  let glossaryPattern = null;
  const glossaryEntry = new Map();
  if (GLOSSARY && GLOSSARY.terms.length) {
    const written = [];
    for (const t of GLOSSARY.terms) {
      for (const w of t.written) { glossaryEntry.set(w, t); written.push(w); }
    }
    written.sort((a, b) => b.length - a.length); // the longest spelling first ("rPS-DSF" before "PS-DSF")
    const escaped = written.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    glossaryPattern = new RegExp("(?<![\\w-])(" + escaped.join("|") + ")(?![\\w-])", "g");
  }

  function glossaryTextNodes(root) {
    const out = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode(node) {
        const parent = node.parentElement;
        if (!parent || parent.closest(SKIP) || !node.nodeValue.trim()) return NodeFilter.FILTER_REJECT;
        return NodeFilter.FILTER_ACCEPT;
      },
    });
    while (walker.nextNode()) out.push(walker.currentNode);
    return out;
  }

  function linkTerms(root) {
    if (!glossaryPattern || !root) return;
    for (const node of glossaryTextNodes(root)) {
      const text = node.nodeValue;
      glossaryPattern.lastIndex = 0;
      if (!glossaryPattern.test(text)) continue;
      glossaryPattern.lastIndex = 0;
      const parts = document.createDocumentFragment();
      let last = 0;
      for (const match of text.matchAll(glossaryPattern)) {
        const entry = glossaryEntry.get(match[0]);
        parts.append(text.slice(last, match.index));
        parts.append(el("a", { class: "term", href: GLOSSARY.url + "#" + entry.key, title: entry.meaning,
                               text: match[0] }));
        last = match.index + match[0].length;
      }
      parts.append(text.slice(last));
      node.replaceWith(parts);
    }
  }

  const content = document.querySelector("main.content");
  if (content && glossaryPattern) {
    linkTerms(content);
    let pending = false;
    new MutationObserver(function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; linkTerms(content); });
    }).observe(content, { childList: true, subtree: true, characterData: true });
  }

  window.Planner = { api: api, csrfToken: csrfToken, money: money, number: number, el: el, jsonScript: jsonScript };
})();
