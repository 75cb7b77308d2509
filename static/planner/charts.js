/* Drawing the server's Plotly figures as they are: layout only, the data come from the library. */
(function () {
  "use strict";
  const P = window.Planner;
  const CONFIG = { responsive: true, displaylogo: false, modeBarButtonsToRemove: ["lasso2d", "select2d"] };

  function clone(value) {
    return JSON.parse(JSON.stringify(value));
  }

  /* Room for long VM names on y axes. */
  function tidy(layout) {
    for (const key of Object.keys(layout)) {
      if (/^yaxis\d*$/.test(key)) layout[key] = Object.assign({ automargin: true }, layout[key]);
    }
    return layout;
  }

  /* A legend below the plot must clear the x axis' tick labels and title, whose height
     depends on the labels (rotated scheduler names): measure once drawn, then move it. */
  function clearLegend(node, attempt) {
    const legend = node.querySelector(".legend");
    const size = node._fullLayout && node._fullLayout._size;
    const spec = node.layout && node.layout.legend;
    if (!legend || !size || !spec || spec.orientation !== "h" || !(spec.y < 0)) {
      return Promise.resolve();
    }
    let bottom = -Infinity;
    const labels = ".xtick text, .g-xtitle text, [class^='g-x'][class$='title'] text";
    for (const text of node.querySelectorAll(labels)) {
      bottom = Math.max(bottom, text.getBoundingClientRect().bottom);
    }
    const top = legend.getBoundingClientRect().top;
    const overlap = bottom + 6 - top;
    if (!Number.isFinite(overlap) || overlap <= 0 || attempt > 2) return Promise.resolve();
    return window.Plotly.relayout(node, { "legend.y": spec.y - overlap / size.h })
      .then(() => clearLegend(node, attempt + 1));
  }

  function draw(container, figure, extraLayout) {
    const node = P.el("div", { class: "plot" });
    container.append(node);
    const layout = tidy(Object.assign(clone(figure.layout || {}), extraLayout || {}));
    return window.Plotly.newPlot(node, clone(figure.data || []), layout, CONFIG)
      .then(() => clearLegend(node, 0));
  }

  function clear(container) {
    for (const plot of container.querySelectorAll(".js-plotly-plot")) window.Plotly.purge(plot);
    for (const node of container.querySelectorAll(".plot, .chart-grid")) node.remove();
  }

  /* The figure to draw for a key in a view ("raw", "multiples"): the library builds every
     view (scheduling.cost.charts.all_figures keys "<key>@<view>"); a key without that view is
     drawn as it is. Nothing here computes data. */
  function figureFor(figures, key, view) {
    return (view && figures[key + "@" + view]) || figures[key];
  }

  function drawGrid(container, figures) {
    const grid = P.el("div", { class: "chart-grid" });
    container.append(grid);
    return Promise.all(figures.map((fig) => draw(grid, fig, { showlegend: false })));
  }

  window.PlannerCharts = { draw: draw, clear: clear, drawGrid: drawGrid, figureFor: figureFor };
})();
