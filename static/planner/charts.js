/* Drawing the server's Plotly figures: as they are, split into small multiples, or reduced. */
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
    if (!legend || !size || !spec || spec.orientation !== "h" || !(spec.y < 0)) return Promise.resolve();
    let bottom = -Infinity;
    for (const text of node.querySelectorAll(".xtick text, .g-xtitle text, [class^='g-x'][class$='title'] text")) {
      bottom = Math.max(bottom, text.getBoundingClientRect().bottom);
    }
    const top = legend.getBoundingClientRect().top;
    const overlap = bottom + 6 - top;
    if (!Number.isFinite(overlap) || overlap <= 0 || attempt > 2) return Promise.resolve();
    return window.Plotly.relayout(node, { "legend.y": spec.y - overlap / size.h }).then(() => clearLegend(node, attempt + 1));
  }

  function draw(container, figure, extraLayout) {
    const node = P.el("div", { class: "plot" });
    container.append(node);
    const layout = tidy(Object.assign(clone(figure.layout || {}), extraLayout || {}));
    return window.Plotly.newPlot(node, clone(figure.data || []), layout, CONFIG).then(() => clearLegend(node, 0));
  }

  function clear(container) {
    for (const plot of container.querySelectorAll(".js-plotly-plot")) window.Plotly.purge(plot);
    for (const node of container.querySelectorAll(".plot, .chart-grid")) node.remove();
  }

  /* The scheduler a trace belongs to (names are HTML-escaped in figures), or null when shared. */
  function schedulerOf(trace, escapedNames) {
    const name = String(trace.name || "");
    for (const s of escapedNames) {
      if (trace.legendgroup === s || name === s || name.startsWith(s + " (")) return s;
    }
    return null;
  }

  function axisKey(ref, letter) {
    return letter + "axis" + (ref && ref.length > 1 ? ref.slice(1) : "");
  }

  /* The data extent of every axis over all traces, so that small multiples share scales. */
  function extents(figure) {
    const out = {};
    const grow = (key, values) => {
      for (const v of values || []) {
        if (typeof v !== "number" || !Number.isFinite(v)) continue;
        const e = out[key] || (out[key] = [v, v]);
        if (v < e[0]) e[0] = v;
        if (v > e[1]) e[1] = v;
      }
    };
    for (const t of figure.data) {
      grow(axisKey(t.xaxis, "x"), t.x);
      grow(axisKey(t.yaxis, "y"), t.y);
    }
    return out;
  }

  /* One figure per scheduler: its own traces plus shared ones (the lower bound), on the
     scales of the whole figure so that the multiples compare at a glance. */
  function split(figure, escapedNames) {
    const scales = extents(figure);
    return escapedNames.map(function (s) {
      const fig = clone(figure);
      fig.data = fig.data.filter((t) => {
        const owner = schedulerOf(t, escapedNames);
        return owner === s || owner === null;
      });
      for (const [key, [low, high]] of Object.entries(scales)) {
        const axis = fig.layout[key] || {};
        if (axis.range || axis.matches) continue;
        const top = high + (high - Math.min(low, 0)) * 0.05;
        fig.layout[key] = Object.assign({}, axis, { range: [key.startsWith("y") ? Math.min(low, 0) : low, top] });
      }
      fig.layout.title = Object.assign({}, fig.layout.title, { text: `${(fig.layout.title || {}).text || ""} — ${s}` });
      fig.layout.height = Math.min(fig.layout.height || 420, 460);
      fig.layout.margin = Object.assign({}, fig.layout.margin, { b: 45 });
      return fig;
    });
  }

  /* Active VMs, stacked by type in one row per scheduler, as one total line per scheduler. */
  function activeTotals(figure, escapedNames, colours) {
    const rows = new Map();
    for (const trace of figure.data) {
      const row = trace.stackgroup || "row0";
      if (!rows.has(row)) rows.set(row, { x: trace.x, y: trace.y.map((v) => v || 0) });
      else {
        const acc = rows.get(row);
        acc.y = acc.y.map((v, i) => v + (trace.y[i] || 0));
      }
    }
    const data = [];
    Array.from(rows.keys()).forEach(function (row) {
      const index = Number(row.replace("row", ""));
      const name = escapedNames[index] || row;
      data.push({
        type: "scatter", mode: "lines", name: name, x: rows.get(row).x, y: rows.get(row).y,
        line: { shape: "hv", width: 2, color: colours[index] },
        hovertemplate: `${name}: %{y} VMs<extra></extra>`,
      });
    });
    const layout = clone(figure.layout);
    for (const key of Object.keys(layout)) {
      if (/^[xy]axis\d+$/.test(key)) delete layout[key];
    }
    layout.title = Object.assign({}, layout.title, { text: "Active VMs (all types)" });
    layout.height = 420;
    layout.yaxis = Object.assign({}, layout.yaxis, { domain: [0, 1], title: { text: "Active VMs" } });
    layout.xaxis = Object.assign({}, layout.xaxis, { showticklabels: true, title: (figure.layout[lastAxis(figure.layout)] || {}).title });
    return { data: data, layout: layout };
  }

  function lastAxis(layout) {
    const keys = Object.keys(layout).filter((k) => /^xaxis\d*$/.test(k)).sort();
    return keys[keys.length - 1] || "xaxis";
  }

  function drawGrid(container, figures) {
    const grid = P.el("div", { class: "chart-grid" });
    container.append(grid);
    return Promise.all(figures.map((fig) => draw(grid, fig, { showlegend: false })));
  }

  window.PlannerCharts = { draw: draw, clear: clear, split: split, activeTotals: activeTotals, drawGrid: drawGrid, schedulerOf: schedulerOf };
})();
