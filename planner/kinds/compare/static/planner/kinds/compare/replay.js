/* The replay card of a scheduler comparison: the cluster at the instant of a slider.

   Each instant is a snapshot the server builds from the stored result (GET
   /api/runs/<id>/replay/<variant>/?t=<seconds>, scheduling.cost.replay): nothing is simulated
   here. Times read in the unit of the run's charts (the answer's time_axis). A click on a
   point of any chart over time in #charts (an x axis titled "Time (<unit>)") moves the
   slider to that instant, and to the clicked scheduler when the trace is one. The charts
   are drawn by compare.js; their clicks are picked up here as the plots appear. */
(function () {
  "use strict";
  const P = window.Planner;
  const card = document.getElementById("replay");
  if (!P || !card) return;

  const SECONDS = { s: 1, min: 60, h: 3600 }; // the charts' time units
  const STEPS = 200; // a step (buttons, playing) is 1/200 of the run
  const MAX_VM_ROWS = 400;
  const currency = card.dataset.currency || "$";
  const select = document.getElementById("replay-variant");
  const slider = document.getElementById("replay-slider");
  const output = document.getElementById("replay-time");
  const statusLine = document.getElementById("replay-status");
  const body = document.getElementById("replay-body");
  const buttons = {
    play: document.getElementById("replay-play"),
    back: document.getElementById("replay-back"),
    next: document.getElementById("replay-next"),
  };

  let axis = null; // {end_s, divisor, unit} of the run's charts
  let requested = 0; // the instant last asked for, in seconds
  let sequence = 0;
  let inflight = null;
  let debounce = null;
  let playing = false;

  // ------------------------------------------------------------------ formats

  /* Same rules as scheduling.charts.clock: H:MM:SS, tenths below a minute. */
  function clock(seconds) {
    if (seconds < 60 && seconds !== Math.floor(seconds)) return "0:00:" + seconds.toFixed(1).padStart(4, "0");
    const whole = Math.round(seconds);
    const pad = (v) => String(v).padStart(2, "0");
    return `${Math.floor(whole / 3600)}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
  }

  function inUnit(seconds) {
    if (!axis) return P.number(seconds, 0) + " s";
    return `${P.number(seconds / axis.divisor, axis.unit === "s" ? 1 : 3)} ${axis.unit}`;
  }

  function instant(seconds) {
    return `${inUnit(seconds)} (${clock(seconds)})`;
  }

  function pct(value) {
    return P.number(100 * value, 1) + "%";
  }

  function demand(resources, vector) {
    return resources.map((r) => `${P.number(vector[r], 3)} ${r}`).join(", ");
  }

  function escapeName(name) {
    return name.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  // ------------------------------------------------------------------ loading

  function urlFor(variant, seconds) {
    const path = card.dataset.url.replace("__variant__", encodeURIComponent(variant));
    return path + "?t=" + encodeURIComponent(String(seconds));
  }

  function say(text) {
    statusLine.hidden = !text;
    statusLine.textContent = text || "";
  }

  async function load(seconds) {
    requested = seconds;
    const mine = ++sequence;
    if (inflight) inflight.abort();
    inflight = new AbortController();
    card.setAttribute("aria-busy", "true");
    let response;
    try {
      response = await P.api(urlFor(select.value, seconds), { signal: inflight.signal });
    } catch (error) {
      if (error && error.name === "AbortError") return null;
      card.removeAttribute("aria-busy");
      say("Could not load the replay: " + error);
      return null;
    }
    if (mine !== sequence) return null; // a later instant was asked for meanwhile
    card.removeAttribute("aria-busy");
    if (!response.ok || !response.data) {
      const errors = response.data && response.data.errors;
      say("Could not load the replay: " + (errors && errors.length
        ? errors.map((e) => `${e.path}: ${e.message}`).join("; ")
        : (response.data && response.data.detail) || "error " + response.status));
      return null;
    }
    show(response.data);
    return response.data;
  }

  function moveTo(seconds, now) {
    if (!axis) return;
    const t = Math.min(Math.max(0, seconds), axis.end_s);
    slider.value = String(t);
    output.textContent = instant(t);
    window.clearTimeout(debounce);
    if (now) return load(t);
    debounce = window.setTimeout(() => load(t), 80);
    return null;
  }

  // ------------------------------------------------------------------ drawing

  function fact(label, value, key) {
    return P.el("div", { dataset: { fact: key } }, [
      P.el("dt", { text: label }),
      P.el("dd", { text: value }),
    ]);
  }

  function bar(resource, used, capacity) {
    const share = capacity > 0 ? Math.min(1, used / capacity) : 0;
    const fill = P.el("span", { class: "fill" + (share >= 0.999 ? " full" : "") });
    fill.style.width = (100 * share).toFixed(1) + "%";
    return P.el("div", { class: "replay-bar", dataset: { resource: resource } }, [
      P.el("span", { class: "muted", text: resource }),
      P.el("span", { class: "track", title: `${resource}: ${pct(share)} used` }, [fill]),
      P.el("span", { class: "js-used", text: `${P.number(used, 3)} / ${P.number(capacity, 3)}` }),
    ]);
  }

  /* A network-bound job's stretch (notes §8), when the run records it: how much longer than its
   * duration it runs because its executors span several VMs. */
  function stretchText(e) {
    if (e.stretch === undefined || e.stretch === null) return "";
    const vms = `${e.job_vms} VM${e.job_vms === 1 ? "" : "s"}`;
    return e.stretch > 1
      ? `; network-bound over ${vms}: runs ${P.number(e.stretch, 3)} × its duration`
      : `; on ${vms}: not stretched`;
  }

  function vmRow(vm, resources) {
    const bars = P.el("td", {}, resources.map((r) => bar(r, vm.used[r], vm.capacity[r])));
    const executors = P.el("td", { class: "replay-execs" }, vm.executors.map((e) => P.el("span", {
      class: "replay-exec" + (e.state === "booting" ? " booting" : ""),
      dataset: { job: e.job, count: String(e.count) },
      title: `${e.job} (${e.framework}): ${e.count} × ${demand(resources, e.executor)}; ` +
        `${e.state === "booting" ? "waiting for the VM to boot until " + clock(e.start_s) : "running"}, ` +
        `finishes at ${clock(e.finish_s)}` + stretchText(e),
    }, [P.el("span", { class: "mono", text: e.job }), ` ×${e.count}`,
      e.stretch > 1 ? P.el("span", { class: "replay-stretch small", dataset: { stretch: String(e.stretch) },
        text: ` ⇢${P.number(e.stretch, 2)}` }) : null,
      P.el("span", { class: "muted small", text: ` ${e.framework}` })])));
    if (!vm.executors.length) executors.append(P.el("span", { class: "muted small", text: "idle" }));
    return P.el("tr", { dataset: { vm: vm.vm } }, [
      P.el("td", { class: "mono", text: vm.vm }),
      P.el("td", { text: vm.vm_type }),
      bars,
      executors,
    ]);
  }

  function queueRow(q, position, snapshot) {
    const deadline = P.el("td", { class: "num" });
    if (q.deadline_s === null) {
      deadline.append(P.el("span", { class: "muted", text: "none" }));
    } else {
      deadline.append(P.el("span", { title: clock(q.deadline_s), text: inUnit(q.deadline_s) }));
      if (q.met_deadline === false) {
        deadline.append(P.el("span", {
          class: "replay-flag missed", text: "missed", title: "This job finished after its deadline.",
        }));
      }
      if (q.overdue) {
        deadline.append(P.el("span", {
          class: "replay-flag overdue", text: "overdue", title: "Its deadline has passed at this instant.",
        }));
      }
    }
    return P.el("tr", { class: q.met_deadline === false ? "missed" : null, dataset: { job: q.job } }, [
      P.el("td", { class: "num", text: String(position) }),
      P.el("td", { class: "mono", text: q.job }),
      P.el("td", { text: q.framework }),
      P.el("td", { class: "num", title: clock(q.arrival_s), text: inUnit(q.arrival_s) }),
      P.el("td", { class: "num", text: inUnit(q.waited_s) }),
      deadline,
      P.el("td", { class: "num", text: `${q.executors} × ${demand(snapshot.resources, q.executor)}` }),
    ]);
  }

  function emptyRow(columns, text) {
    return P.el("tr", {}, [P.el("td", { class: "empty", colspan: String(columns), text: text })]);
  }

  function show(snapshot) {
    axis = snapshot.time_axis;
    say(null);
    body.hidden = false;
    card.dataset.t = String(snapshot.t_s);
    card.dataset.variant = snapshot.scheduler;
    output.textContent = instant(snapshot.t_s) +
      (snapshot.clamped ? " — after this scheduler's last job" : "");
    const resources = snapshot.resources;
    const jobs = snapshot.jobs;
    const types = Object.entries(snapshot.vms_on_by_type)
      .filter(([, n]) => n > 0)
      .map(([name, n]) => `${n} ${name}`);
    const money = (value) => currency + P.money(value);
    const facts = document.getElementById("replay-facts");
    facts.replaceChildren(
      fact("Cost so far", `${money(snapshot.cost.so_far)} of ${money(snapshot.cost.total)}`, "cost"),
      fact("Spending now", `${money(snapshot.cost.rate_per_hour)} per hour`, "rate"),
      fact("VMs on", `${P.number(snapshot.vms_on, 0)}${types.length ? " (" + types.join(", ") + ")" : ""}`, "vms"),
      fact("Jobs running", P.number(jobs.running, 0) + (jobs.booting ? ` (${P.number(jobs.booting, 0)} booting)` : ""),
        "running"),
      fact("Jobs waiting", P.number(jobs.queued, 0), "queued"),
      fact("Jobs finished", `${P.number(jobs.finished, 0)} of ${P.number(jobs.total, 0)}`, "finished"),
      ...resources.map((r) => fact(
        `Utilisation (${r})`,
        `${pct(snapshot.utilisation[r])} of cluster · ${pct(snapshot.utilisation_of_on[r])} of VMs on`,
        "util-" + r,
      )),
    );

    const vmBody = document.querySelector("#replay-vms tbody");
    const rows = snapshot.vms.slice(0, MAX_VM_ROWS).map((vm) => vmRow(vm, resources));
    if (!rows.length) rows.push(emptyRow(4, "No VM is on."));
    vmBody.replaceChildren(...rows);
    document.getElementById("replay-vms-note").textContent = snapshot.vms.length > MAX_VM_ROWS
      ? `(first ${P.number(MAX_VM_ROWS, 0)} of ${P.number(snapshot.vms.length, 0)})`
      : `(${P.number(snapshot.vms.length, 0)})`;

    const queue = snapshot.queue;
    const queueBody = document.querySelector("#replay-queue tbody");
    const queued = queue.jobs.map((q, k) => queueRow(q, k + 1, snapshot));
    if (!queued.length) queued.push(emptyRow(7, "No job is waiting."));
    queueBody.replaceChildren(...queued);
    document.getElementById("replay-queue-note").textContent =
      `(${jobs.queued}${queue.truncated ? ", first " + queue.jobs.length + " shown" : ""})`;
    document.getElementById("replay-queue-order").textContent =
      "In the order the scheduler tries them: " + queue.order_text + ".";
  }

  // ------------------------------------------------------------------ controls

  function step() {
    return axis ? axis.end_s / STEPS : 0;
  }

  function setPlaying(on) {
    playing = on;
    buttons.play.textContent = on ? "Pause" : "Play";
    buttons.play.setAttribute("aria-pressed", String(on));
  }

  async function play() {
    if (Number(slider.value) >= axis.end_s) await moveTo(0, true);
    while (playing) {
      const next = Math.min(axis.end_s, Number(slider.value) + step());
      await moveTo(next, true);
      if (next >= axis.end_s) break;
      await new Promise((resolve) => window.setTimeout(resolve, 300));
    }
    setPlaying(false);
  }

  slider.addEventListener("input", () => moveTo(Number(slider.value), false));
  select.addEventListener("change", () => load(requested));
  buttons.back.addEventListener("click", () => moveTo(Number(slider.value) - step(), true));
  buttons.next.addEventListener("click", () => moveTo(Number(slider.value) + step(), true));
  buttons.play.addEventListener("click", function () {
    setPlaying(!playing);
    if (playing) play();
  });

  // ------------------------------------------------------------------ clicks on the charts

  /* The unit of a plot's time axis ("Time (h)"), or null when it is not a chart over time. */
  function timeUnitOf(plot) {
    const layout = plot.layout || {};
    for (const key of Object.keys(layout)) {
      if (!/^xaxis\d*$/.test(key)) continue;
      const title = layout[key] && layout[key].title;
      const text = typeof title === "string" ? title : (title && title.text) || "";
      const match = /^Time \((s|min|h)\)$/.exec(text);
      if (match) return match[1];
    }
    return null;
  }

  function variantOf(plot, trace) {
    const names = Array.from(select.options, (o) => o.value);
    const escaped = names.map(escapeName);
    // A trace belongs to a scheduler when its legend group or name is the scheduler's
    // (figures HTML-escape names): "edf-bfd", "edf-bfd (mean)", ...
    const label = trace ? String(trace.legendgroup || trace.name || "") : "";
    const owner = escaped.find((s) => label === s || label.startsWith(s + " ("));
    if (owner !== undefined) return names[escaped.indexOf(owner)];
    // Per-scheduler charts (fairness, executors on VMs) name their scheduler in the picker.
    const block = plot.closest(".chart-block[data-prefix]");
    const pick = block && !plot.closest(".chart-grid") ? block.querySelector(".js-pick") : null;
    const value = pick && pick.value ? pick.value.slice(block.dataset.prefix.length) : null;
    return names.includes(value) ? value : null;
  }

  function onChartClick(plot, data) {
    const point = data && data.points && data.points[0];
    const unit = timeUnitOf(plot);
    if (!point || !unit || !axis) return;
    let x = Number(point.x);
    const xaxis = point.xaxis;
    const bar = point.data && point.data.orientation === "h";
    if (bar && data.event && xaxis && typeof xaxis.p2d === "function") {
      // A bar over time (executors on VMs): the instant under the pointer, not the bar's length.
      x = Number(xaxis.p2d(data.event.clientX - plot.getBoundingClientRect().left - xaxis._offset));
    }
    if (!Number.isFinite(x)) return;
    const variant = variantOf(plot, point.data);
    if (variant && variant !== select.value) select.value = variant;
    setPlaying(false);
    moveTo(x * SECONDS[unit], true);
    card.scrollIntoView({ block: "start" });
  }

  const hooked = new WeakSet();
  function hookPlots() {
    for (const plot of document.querySelectorAll("#charts .js-plotly-plot")) {
      if (hooked.has(plot) || typeof plot.on !== "function") continue;
      hooked.add(plot);
      plot.on("plotly_click", (data) => onChartClick(plot, data));
    }
  }
  const charts = document.getElementById("charts");
  if (charts) {
    new MutationObserver(hookPlots).observe(charts, {
      childList: true, subtree: true, attributes: true, attributeFilter: ["class"],
    });
    hookPlots();
  }

  // ------------------------------------------------------------------ start

  load(0).then(function (snapshot) {
    if (!snapshot) return;
    slider.max = String(snapshot.time_axis.end_s);
    for (const control of [slider, buttons.play, buttons.back, buttons.next]) control.disabled = false;
  });
})();
