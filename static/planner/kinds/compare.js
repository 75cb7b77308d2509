/* The results of a scheduler comparison: the baseline selector and the charts.

   The table is rendered by the server for the chosen baseline (the presenter computes
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
  const C = window.PlannerCharts;
  const status = document.getElementById("charts-status");
  if (!C || !status) return;
  const variants = run.variants;
  let figures = null;
  let view = "overlay";

  function blockFigures(block) {
    if (block.dataset.prefix) {
      return Object.keys(figures).filter((k) => k.startsWith(block.dataset.prefix));
    }
    return figures[block.dataset.figure] ? [block.dataset.figure] : [];
  }

  function escapedNames() {
    return variants.map((s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
  }

  function render(block) {
    C.clear(block);
    const keys = blockFigures(block);
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
        return C.drawGrid(block, keys.map((k) => figures[k]));
      }
      if (!pick.options.length) {
        for (const k of keys) pick.append(new Option(k.slice(block.dataset.prefix.length), k));
        pick.addEventListener("change", () => render(block));
      }
      picker.hidden = keys.length < 2;
      return C.draw(block, figures[pick.value || keys[0]]);
    }
    const figure = figures[keys[0]];
    if (view === "multiples" && block.dataset.split && variants.length > 1) {
      return C.drawGrid(block, C.split(figure, escapedNames()));
    }
    return C.draw(block, figure);
  }

  function renderAll() {
    const blocks = Array.from(document.querySelectorAll("#charts .chart-block"));
    return Promise.all(blocks.map(render));
  }

  for (const button of document.querySelectorAll("#charts .seg")) {
    button.addEventListener("click", function () {
      view = button.dataset.view;
      for (const other of document.querySelectorAll("#charts .seg")) {
        other.classList.toggle("active", other === button);
        other.setAttribute("aria-pressed", String(other === button));
      }
      if (figures) renderAll();
    });
  }

  P.api(run.figures_url).then(function (response) {
    if (!response.ok || !response.data || !response.data.figures) {
      status.textContent = response.ok ? "No charts were stored for this run." : "Could not load the charts.";
      return;
    }
    figures = response.data.figures;
    status.hidden = true;
    return renderAll();
  }).catch(function (error) {
    status.hidden = false;
    status.textContent = "Could not draw the charts: " + error;
  });
})();
