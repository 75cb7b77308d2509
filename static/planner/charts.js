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

  /* A title or caption wider than its chart (a long caption, a narrow panel, a 1,024 px
     screen) would be cut at the chart's edge: wrap it at words to the room it has, measured
     once drawn, and give the top margin the lines it gained. */
  function plainLines(text) {
    return String(text).split(/<br\s*\/?>/i).map((line) => line.replace(/<[^>]*>/g, ""));
  }

  function wrapLines(text, maxChars) {
    return String(text).split(/<br\s*\/?>/i).map(function (line) {
      // A line with a styled tag (attributes: spaces inside the tag) is kept as it is.
      if (line.replace(/<[^>]*>/g, "").length <= maxChars || /<[a-z]+\s/i.test(line)) return line;
      const out = [];
      let current = "";
      for (const word of line.split(" ")) {
        if (current && (current + " " + word).replace(/<[^>]*>/g, "").length > maxChars) {
          out.push(current);
          current = word;
        } else {
          current = current ? current + " " + word : word;
        }
      }
      if (current) out.push(current);
      return out.join("<br>");
    }).join("<br>");
  }

  function refit(element, text, room) {
    const lines = plainLines(text);
    const longest = Math.max(...lines.map((line) => line.length));
    const width = element.getBoundingClientRect().width;
    if (!longest || !width || room <= 0) return null;
    // Characters differ in width: a tenth to spare, and fitText measures again.
    const maxChars = Math.max(8, Math.floor(0.9 * room / (width / longest)));
    const wrapped = wrapLines(text, maxChars);
    return wrapped === text ? null : { text: wrapped, added: plainLines(wrapped).length - lines.length };
  }

  function fitText(node, attempt) {
    const box = node.getBoundingClientRect();
    const layout = node.layout || {};
    const update = {};
    let extraTop = 0;
    const title = node.querySelector(".g-gtitle .gtitle");
    const titleText = layout.title && (typeof layout.title === "string" ? layout.title : layout.title.text);
    if (title && titleText) {
      const r = title.getBoundingClientRect();
      if (r.width && r.right > box.right + 1) {
        const fit = refit(title, titleText, box.right - r.left - 8);
        if (fit) {
          update["title.text"] = fit.text;
          extraTop += fit.added * 20;
        }
      }
    }
    for (const group of node.querySelectorAll(".annotation[data-index]")) {
      const index = Number(group.dataset.index);
      const spec = (layout.annotations || [])[index];
      const text = group.querySelector(".annotation-text");
      if (!spec || !text || !spec.text) continue;
      const r = text.getBoundingClientRect();
      if (!r.width || (r.left >= box.left - 1 && r.right <= box.right + 1)) continue;
      const anchor = spec.xanchor || "center";
      const centre = (r.left + r.right) / 2;
      const room = anchor === "left" ? box.right - r.left - 8
        : anchor === "right" ? r.right - box.left - 8
        : 2 * Math.min(centre - box.left, box.right - centre) - 8;
      const fit = refit(text, spec.text, room);
      if (!fit) continue;
      update["annotations[" + index + "].text"] = fit.text;
      if (spec.yref === "paper" && spec.y >= 1) extraTop += fit.added * 16;  // a caption above the plot
    }
    if (!Object.keys(update).length || (attempt || 0) > 2) return Promise.resolve();
    if (extraTop) update["margin.t"] = ((layout.margin && layout.margin.t) || 60) + extraTop;
    return window.Plotly.relayout(node, update).then(() => fitText(node, (attempt || 0) + 1));
  }

  function draw(container, figure, extraLayout) {
    const node = P.el("div", { class: "plot" });
    container.append(node);
    const layout = tidy(Object.assign(clone(figure.layout || {}), extraLayout || {}));
    return window.Plotly.newPlot(node, clone(figure.data || []), layout, CONFIG)
      .then(() => clearLegend(node, 0))
      .then(() => fitText(node))
      .then(function () {
        // Fitted again when the chart's width changes (a scroll bar appears, a panel opens).
        let width = node.getBoundingClientRect().width;
        new ResizeObserver(function () {
          const now = node.getBoundingClientRect().width;
          if (Math.abs(now - width) < 1 || !node.layout) return;
          width = now;
          window.requestAnimationFrame(() => fitText(node));
        }).observe(node);
      });
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

  /* The keys a chart block draws: its data-figure, or every key of its data-prefix (one per
     variant, in the order of `variants`, the run's; any other after them), never a view
     ("<key>@raw"). The order is not the object's: a run's figures stored in PostgreSQL's jsonb
     come back with their keys in jsonb's own order. */
  function blockKeys(figures, block, variants) {
    if (block.dataset.prefix) {
      const prefix = block.dataset.prefix;
      const keys = Object.keys(figures).filter((k) => k.startsWith(prefix) && !k.includes("@"));
      const rank = (k) => {
        const i = (variants || []).indexOf(k.slice(prefix.length));
        return i < 0 ? Infinity : i;
      };
      return keys.map((k, i) => [rank(k), i, k]).sort((a, b) => (a[0] - b[0]) || (a[1] - b[1])).map((x) => x[2]);
    }
    return figures[block.dataset.figure] ? [block.dataset.figure] : [];
  }

  /* A run page's charts: loads the run's cached figures once, draws every block of #charts with
     `render(block, state)` and again when a view button (readable, full detail, small multiples)
     is pressed. `state` ({figures, view}) is returned at once, for a kind's own redraws (a picked
     variant, a page of a paged figure); #charts gets data-drawn once every block is drawn. */
  function runCharts(run, status, render) {
    const state = { figures: null, view: "readable" };  // "<key>@readable" does not exist: the default
    const charts = document.getElementById("charts");
    const renderAll = () => Promise.all(
      Array.from(document.querySelectorAll("#charts .chart-block")).map((block) => render(block, state)));
    for (const button of document.querySelectorAll("#charts .seg")) {
      button.addEventListener("click", function () {
        state.view = button.dataset.view;
        for (const other of document.querySelectorAll("#charts .seg")) {
          other.classList.toggle("active", other === button);
          other.setAttribute("aria-pressed", String(other === button));
        }
        if (state.figures) renderAll();
      });
    }
    /* A run that has just ended may still have its charts being built by a worker (the
       server never builds them in the request): say so and ask again every few seconds. */
    let waits = 0;
    function load() {
      return P.api(run.figures_url).then(function (response) {
        if (response.ok && response.data && response.data.preparing && waits < 120) {
          waits += 1;
          status.hidden = false;
          status.textContent = "Preparing charts…";
          return new Promise((resolve) => setTimeout(resolve, 2500)).then(load);
        }
        if (!response.ok || !response.data || !response.data.figures) {
          status.textContent = response.ok ? "No charts were stored for this run." : "Could not load the charts.";
          return;
        }
        state.figures = response.data.figures;
        status.hidden = true;
        return renderAll().then(() => { if (charts) charts.setAttribute("data-drawn", "true"); });
      });
    }
    load().catch(function (error) {
      status.hidden = false;
      status.textContent = "Could not draw the charts: " + error;
    });
    return state;
  }

  window.PlannerCharts = {
    draw: draw, clear: clear, drawGrid: drawGrid, figureFor: figureFor, blockKeys: blockKeys, runCharts: runCharts,
  };
})();
