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

  function render(block, state) {
    const figures = state.figures;
    C.clear(block);
    const keys = C.blockKeys(figures, block, run.variants);
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
      return Promise.all(cells.map((cell) => C.draw(cell, C.figureFor(figures, cell.dataset.key, state.view))));
    }
    if (block.dataset.layout === "pick") {
      const picker = block.querySelector(".chart-picker");
      const pick = block.querySelector(".js-pick");
      if (!pick.options.length) {
        for (const k of keys) pick.append(new Option(k.slice(block.dataset.prefix.length), k));
        pick.addEventListener("change", () => render(block, state));
      }
      picker.hidden = keys.length < 2;
      return C.draw(block, C.figureFor(figures, pick.value || keys[0], state.view));
    }
    return C.draw(block, C.figureFor(figures, keys[0], state.view));
  }

  C.runCharts(run, status, render);
})();
