/* The results of a scheduler comparison: the baseline selector and the charts.

   The table is rendered by the server for the chosen baseline (scheduling.tables computes
   every saving); choosing another baseline fetches the page for it, swaps the table in,
   points the report downloads at it and keeps it in the URL, so a link shows what its
   sender saw. */
(function () {
  "use strict";
  const P = window.Planner;
  const run = P.jsonScript("run-data");
  if (!run || !document.getElementById("summary-table")) return;

  // ------------------------------------------------------------------ baseline
  async function applyBaseline(baseline) {
    const url = new URL(window.location.href);
    url.searchParams.set("baseline", baseline);
    const response = await fetch(url.toString(), { credentials: "same-origin" });
    if (!response.ok) return;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    for (const id of ["summary-table", "report-links"]) {
      const fresh = page.getElementById(id);
      const stale = document.getElementById(id);
      if (fresh && stale) stale.replaceWith(fresh);
    }
    window.history.replaceState(null, "", url.toString());
  }

  const select = document.getElementById("baseline-select");
  if (select) select.addEventListener("change", () => applyBaseline(select.value));

  // ------------------------------------------------------------------ charts
  // Every view is a figure of the library: "<key>" (readable), "<key>@raw", "<key>@multiples";
  // the page only chooses which one to draw.
  const C = window.PlannerCharts;
  const status = document.getElementById("charts-status");
  if (!C || !status) return;
  let state = null;  // {figures, view}: C.runCharts's, below

  // ---- pages of a paged figure (the Gantt chart's later jobs)
  const pageOf = new Map();  // figure key -> {page, figure}

  async function loadPage(block, key, page) {
    const url = `${block.dataset.pagesUrl}?figure=${encodeURIComponent(key)}&page=${page}`;
    const response = await P.api(url);
    if (!response.ok) throw new Error(`page ${page + 1} of ${key}: HTTP ${response.status}`);
    pageOf.set(key, { page: page, figure: response.data });
    return response.data;
  }

  function showPager(block, key, figure) {
    const pager = block.querySelector(".gantt-pager");
    const meta = (figure.layout || {}).meta || {};
    if (!pager) return;
    pager.hidden = !(meta.pages > 1);
    if (pager.hidden) return;
    pager.querySelector(".js-page-text").textContent =
      `jobs ${meta.first_job}–${meta.last_job} of ${meta.jobs} (page ${meta.page + 1} of ${meta.pages})`;
    const previous = pager.querySelector(".js-page-prev");
    const next = pager.querySelector(".js-page-next");
    previous.disabled = meta.page <= 0;
    next.disabled = meta.page >= meta.pages - 1;
    previous.onclick = () => turn(block, key, meta.page - 1);
    next.onclick = () => turn(block, key, meta.page + 1);
  }

  function turn(block, key, page) {
    return loadPage(block, key, page).then(() => render(block, state)).catch((error) => {
      status.hidden = false;
      status.textContent = "Could not load that page: " + error.message;
    });
  }

  function render(block, current) {
    state = current;
    const figures = state.figures;
    const view = state.view;
    C.clear(block);
    const keys = C.blockKeys(figures, block, run.variants);
    if (!keys.length) {
      block.hidden = true;
      return Promise.resolve();
    }
    block.hidden = false;
    if (block.dataset.prefix) {
      const picker = block.querySelector(".chart-picker");
      const pick = block.querySelector(".js-pick");
      if (view === "multiples" && block.dataset.prefix === "fairness:") {
        picker.hidden = true;
        return C.drawGrid(block, keys.map((k) => C.figureFor(figures, k, "raw")));
      }
      if (!pick.options.length) {
        for (const k of keys) pick.append(new Option(k.slice(block.dataset.prefix.length), k));
        pick.addEventListener("change", () => render(block, state));
      }
      picker.hidden = keys.length < 2;
      const key = pick.value || keys[0];
      const paged = pageOf.get(key);
      const figure = paged ? paged.figure : C.figureFor(figures, key, view);
      if (block.dataset.pagesUrl) showPager(block, key, figure);
      return C.draw(block, figure);
    }
    return C.draw(block, C.figureFor(figures, keys[0], view));
  }

  state = C.runCharts(run, status, render);
})();
