/* A run page's figures by key: every kind whose results section lays out its figures in blocks
   (the allocation and sharing studies, MRSU sizing, the UDRF study).

   Every figure comes from the server (the kind's figures from the library, cached on the run);
   the page only chooses which to draw where:
   a block with data-figure draws that key (in the chosen view, "<key>@<view>" when the
   library built one), data-prefix with data-layout="grid" draws every key of the prefix
   side by side (one per policy or configuration), data-layout="pick" one at a time. */
(function () {
  "use strict";
  const P = window.Planner;
  const C = window.PlannerCharts;
  const run = P.jsonScript("run-data");
  const status = document.getElementById("charts-status");
  if (!run || !C || !status || !document.getElementById("summary-table")) return;
  let figures = null;
  let view = "readable";

  function keysOf(block) {
    if (block.dataset.prefix) {
      return Object.keys(figures).filter((k) => k.startsWith(block.dataset.prefix) && !k.includes("@"));
    }
    return figures[block.dataset.figure] ? [block.dataset.figure] : [];
  }

  function render(block) {
    C.clear(block);
    const keys = keysOf(block);
    if (!keys.length) {
      block.hidden = true;
      return Promise.resolve();
    }
    block.hidden = false;
    if (block.dataset.layout === "grid") {
      const grid = P.el("div", { class: "chart-grid" });
      block.append(grid);
      // Every cell first, then the plots: a plot takes its cell's width when drawn.
      const cells = keys.map((k) => {
        const cell = P.el("div", { class: "chart-cell", dataset: { key: k } });
        grid.append(cell);
        return cell;
      });
      return Promise.all(cells.map((cell) => C.draw(cell, C.figureFor(figures, cell.dataset.key, view))));
    }
    if (block.dataset.layout === "pick") {
      const picker = block.querySelector(".chart-picker");
      const pick = block.querySelector(".js-pick");
      if (!pick.options.length) {
        for (const k of keys) pick.append(new Option(k.slice(block.dataset.prefix.length), k));
        pick.addEventListener("change", () => render(block));
      }
      picker.hidden = keys.length < 2;
      return C.draw(block, C.figureFor(figures, pick.value || keys[0], view));
    }
    return C.draw(block, C.figureFor(figures, keys[0], view));
  }

  function renderAll() {
    return Promise.all(Array.from(document.querySelectorAll("#charts .chart-block")).map(render));
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
    return renderAll().then(() => document.getElementById("charts").setAttribute("data-drawn", "true"));
  }).catch(function (error) {
    status.hidden = false;
    status.textContent = "Could not draw the charts: " + error;
  });
})();
