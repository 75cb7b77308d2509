/* Run page, for every kind of run: poll the run's and its parts' progress while it is
   queued or running, then reload to show the results the server renders. */
(function () {
  "use strict";
  const P = window.Planner;
  const run = P.jsonScript("run-data");
  if (!run || run.finished) return;

  const POLL_MS = 1000;
  let failures = 0;

  function showPart(part) {
    const row = document.querySelector(`#parts-table tr[data-part="${part.id}"]`);
    if (!row) return;
    const badge = row.querySelector(".js-part-status .badge");
    if (badge) {
      badge.className = "badge badge-" + part.status;
      badge.textContent = part.status;
    }
    const bar = row.querySelector(".js-part-bar");
    if (bar) bar.style.width = Math.round((part.progress || 0) * 100) + "%";
    const attempts = row.querySelector(".js-part-attempts");
    if (attempts) attempts.textContent = String(part.attempts);
  }

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
      title.textContent = state.finished ? "Done" : state.status === "queued" ? "Waiting for a worker…" : "Running…";
    }
    const badge = document.querySelector("#status-badge .badge");
    if (badge) {
      badge.className = "badge badge-" + state.status;
      badge.textContent = state.status;
    }
    for (const part of state.parts || []) showPart(part);
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
        // Finished: the server renders the results section.
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

  window.setTimeout(poll, POLL_MS);
})();
