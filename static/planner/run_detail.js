/* Run page: poll the progress while queued/running; then the baseline selector and the charts. */
(function () {
  "use strict";
  const P = window.Planner;
  const run = P.jsonScript("run-data");
  if (!run) return;

  // ------------------------------------------------------------------ progress
  const POLL_MS = 1000;
  let failures = 0;

  function showProgress(state) {
    const bar = document.querySelector("#progress .progress-bar");
    const holder = document.getElementById("progress");
    const text = document.getElementById("progress-text");
    const title = document.getElementById("progress-title");
    const pct = Math.round((state.progress || 0) * 100);
    if (bar) bar.style.width = pct + "%";
    if (holder) holder.setAttribute("aria-valuenow", String(pct));
    if (text) text.textContent = pct + "%";
    if (title) {
      title.textContent = state.cancel_requested && !state.finished ? "Cancelling…"
        : state.status === "queued" ? "Waiting for a worker…"
        : state.finished ? "Done" : "Simulating…";
    }
    const badge = document.querySelector("#status-badge .badge");
    if (badge) {
      badge.className = "badge badge-" + state.status;
      badge.textContent = state.status;
    }
    if (state.finished && holder) holder.classList.add("done");
  }

  async function poll() {
    let response;
    try {
      response = await P.api(run.progress_url);
    } catch (error) {
      response = null;
    }
    if (response && response.ok) {
      failures = 0;
      showProgress(response.data);
      if (response.data.finished) {
        // Finished: the server renders the summary and the chart slots.
        window.setTimeout(() => window.location.reload(), 300);
        return;
      }
    } else if (response && response.status === 404) {
      const title = document.getElementById("progress-title");
      if (title) title.textContent = "This run was deleted.";
      return;
    } else {
      failures += 1;
    }
    window.setTimeout(poll, POLL_MS * Math.min(10, 1 + failures));
  }

  if (!run.finished) {
    window.setTimeout(poll, POLL_MS);
    return;
  }
  if (run.status !== "succeeded") return;

  // ------------------------------------------------------------------ baseline selector
  function signedPct(value) {
    return (value > 0 ? "+" : "") + value.toFixed(1) + "%";
  }

  function applyBaseline(baseline) {
    const row = document.querySelector('#summary-table tr[data-key="saving_pct"]');
    if (!row) return;
    const base = run.costs[baseline];
    const label = row.querySelector(".js-saving-label");
    if (label) label.textContent = `Saving vs ${baseline}`;
    let best = null;
    const savings = {};
    for (const s of run.schedulers) {
      const cost = run.costs[s];
      savings[s] = (typeof cost === "number" && base) ? (base - cost) / base * 100 : null;
      if (s !== baseline && savings[s] !== null && savings[s] > 0 && (best === null || savings[s] > best)) best = savings[s];
    }
    for (const cell of row.querySelectorAll("td[data-scheduler]")) {
      const s = cell.dataset.scheduler;
      cell.textContent = s === baseline ? "baseline" : savings[s] === null ? "—" : signedPct(savings[s]);
      cell.classList.toggle("best", best !== null && savings[s] === best && s !== baseline);
    }
  }

  const select = document.getElementById("baseline-select");
  if (select) select.addEventListener("change", () => applyBaseline(select.value));

  // ------------------------------------------------------------------ charts
  const C = window.PlannerCharts;
  const status = document.getElementById("charts-status");
  let figures = null;
  let view = "overlay";

  function blockFigures(block) {
    if (block.dataset.prefix) {
      return Object.keys(figures).filter((k) => k.startsWith(block.dataset.prefix) && !k.includes("@"));
    }
    return figures[block.dataset.figure] ? [block.dataset.figure] : [];
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
        return C.drawGrid(block, keys.map((k) => C.figureFor(figures, k, view)));
      }
      if (!pick.options.length) {
        for (const k of keys) pick.append(new Option(k.slice(block.dataset.prefix.length), k));
        pick.addEventListener("change", () => render(block));
      }
      picker.hidden = keys.length < 2;
      return C.draw(block, C.figureFor(figures, pick.value || keys[0], view === "overlay" ? null : view));
    }
    // Every view is a figure of the library ("<key>@multiples", "<key>@raw"); the default otherwise.
    return C.draw(block, C.figureFor(figures, keys[0], view === "overlay" ? null : view));
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
