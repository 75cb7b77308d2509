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

  window.Planner = { api: api, csrfToken: csrfToken, money: money, number: number, el: el, jsonScript: jsonScript };
})();
