/* Workload editor: frameworks table and a paged jobs grid, loaded from the API, saved to the page.
 *
 * The jobs live in memory as scenario-document objects; only one page of rows is in the
 * DOM at a time, so a workload of thousands of jobs stays responsive. Saving POSTs the
 * workload to the editor's own URL, which answers with each error and warning twice: its
 * document path (jobs[3].executor.cpu), mapped back here to cells, rows and fields, and its
 * text as the grid counts jobs (job 4 (id j-17): executor.cpu: ...), shown as it comes.
 * Warnings do not block a save.
 *
 * A paged workload (more jobs than the browser should hold, cfg.paged) keeps only the page on
 * screen in memory: a page is read from the API (GET .../jobs/?page=&page_size=), and a save
 * sends that page alone ({page: {offset, count, jobs}}), which replaces its range on the
 * server. Errors come back at their places in the whole workload (jobs[50003].executor.cpu).
 */
(function () {
  "use strict";
  const P = window.Planner;
  const cfg = P.jsonScript("workload-config");
  if (!cfg) return;

  const state = {
    resources: cfg.resources.slice(),
    frameworks: JSON.parse(JSON.stringify(cfg.frameworks || [])),
    jobs: [],
    view: [],
    filter: "",
    page: 0,
    pageSize: 100,
    jobErrors: new Map(),   // job index -> Map(column key -> message)
    fwErrors: new Map(),    // framework index -> Map(field key -> {message, text: the library's path and message})
    dirty: false,
    loaded: false,
    saving: false,
    paged: Boolean(cfg.paged),
    offset: 0,              // paged: the index of the page's first job in the workload
    total: cfg.job_count,   // paged: the workload's jobs
    pageCount: 0,           // paged: how many stored jobs the page on screen replaces
  };
  const canChange = Boolean(cfg.can_change);

  const $ = (id) => document.getElementById(id);
  const table = $("jobs-table");
  const fwBody = document.querySelector("#fw-table tbody");
  const status = $("save-status");
  const saveButton = $("save-workload");
  const errorBox = $("save-errors");
  const warningBox = $("save-warnings");

  // ------------------------------------------------------------------ columns and values
  function columns() {
    return [
      { key: "id", label: "Id", cls: "col-id" },
      { key: "framework", label: "Framework", cls: "col-framework", list: "framework-names" },
      { key: "arrival_s", label: "Arrival (s)", num: true },
      { key: "executors", label: "Executors", num: true },
      ...state.resources.map((r) => ({ key: "r:" + r, label: `${r} / executor`, num: true })),
      { key: "duration_s", label: "Duration (s)", num: true },
      { key: "deadline_s", label: "Deadline (s)", num: true },
      { key: "network_sensitivity", label: "Network σ", num: true,
        title: "Network sensitivity (paper 003's network-bound jobs): on k VMs the job runs " +
          "1 + σ (k − 1) / (executors − 1) times its duration; empty: its framework's" },
    ];
  }

  function getValue(job, key) {
    const value = key.startsWith("r:") ? (job.executor || {})[key.slice(2)] : job[key];
    return value === undefined || value === null ? "" : String(value);
  }

  /* Numbers stay numbers; anything else is kept as typed so the server names the problem. */
  function parse(text, numeric) {
    const trimmed = text.trim();
    if (trimmed === "") return undefined;
    if (!numeric) return trimmed;
    const n = Number(trimmed);
    return Number.isFinite(n) ? n : trimmed;
  }

  function setValue(job, key, text) {
    const value = parse(text, key !== "id" && key !== "framework");
    if (key.startsWith("r:")) {
      job.executor = job.executor || {};
      if (value === undefined) delete job.executor[key.slice(2)];
      else job.executor[key.slice(2)] = value;
    } else if (value === undefined) {
      delete job[key];
    } else {
      job[key] = value;
    }
  }

  // ------------------------------------------------------------------ dirty state and status
  function markDirty() {
    state.dirty = true;
    if (saveButton) saveButton.disabled = false;
    status.textContent = "Unsaved changes";
    status.className = "dirty";
  }

  function markClean(text) {
    state.dirty = false;
    if (saveButton) saveButton.disabled = true;
    status.textContent = text;
    status.className = "muted";
  }

  function updateStats() {
    const withDeadline = state.jobs.filter((j) => j.deadline_s !== undefined && j.deadline_s !== null).length;
    // Network-bound: a sensitivity above 0, the job's own or else its framework's (notes §8).
    const fwSigma = new Map(state.frameworks.map((f) => [f.name, f.network_sensitivity]));
    const networkBound = state.jobs.filter(function (j) {
      const own = j.network_sensitivity;
      const sigma = own !== undefined && own !== null ? own : fwSigma.get(j.framework || "default");
      return typeof sigma === "number" && sigma > 0;
    }).length;
    $("job-count").textContent = state.paged
      ? `${P.number(state.total, 0)} · shown a page at a time; on this page ${P.number(withDeadline, 0)} with a deadline`
      : `${P.number(state.jobs.length, 0)} · ${P.number(withDeadline, 0)} with a deadline` +
        (networkBound ? ` · ${P.number(networkBound, 0)} network-bound` : "");
    const stats = $("workload-stats");
    if (stats) {
      const f = state.frameworks.length;
      stats.textContent = `${P.number(state.paged ? state.total : state.jobs.length, 0)} jobs · ${f} framework${f === 1 ? "" : "s"} · resources ${state.resources.join(", ")}`;
    }
  }

  // ------------------------------------------------------------------ frameworks
  /* Each framework row: name, weight, its task demand (one input per resource, as the jobs'
   * executor columns), a compact sharing group (offer policy, refuse and hold seconds; empty
   * = the library's default), the network sensitivity of its jobs that set none, and its
   * allowed VM types. Task queues (from an imported
   * version-2 scenario) are not edited here: they stay in the framework object as they came
   * and are saved with it; the row shows what they hold. */
  const policies = cfg.offer_policies || [];
  const defaults = cfg.sharing_defaults || {};

  function jobsPerFramework() {
    const counts = new Map();
    for (const job of state.jobs) {
      const name = job.framework || "default";
      counts.set(name, (counts.get(name) || 0) + 1);
    }
    return counts;
  }

  function queueSummary(queues) {
    if (!Array.isArray(queues) || !queues.length) return "";
    const tasks = queues.reduce((sum, q) => sum + (q && typeof q.tasks === "number" ? q.tasks : 0), 0);
    return `${queues.length} queue${queues.length === 1 ? "" : "s"}, ${P.number(tasks, 0)} task${tasks === 1 ? "" : "s"}`;
  }

  /* UDRF's complex jobs (version 3, paper 004) are not edited here either: the UDRF study page
   * takes them; they stay in the framework object and the row says how many there are. */
  function complexSummary(jobs) {
    if (!Array.isArray(jobs) || !jobs.length) return "";
    return `${P.number(jobs.length, 0)} complex job${jobs.length === 1 ? "" : "s"}`;
  }

  function keptSummary(fw) {
    return [queueSummary(fw.queues), complexSummary(fw.complex_jobs)].filter(Boolean).join(" · ");
  }

  function fwValue(fw, key) {
    const value = key.startsWith("td:") ? (fw.task_demand || {})[key.slice(3)] : fw[key];
    return value === undefined || value === null ? "" : String(value);
  }

  function renderFrameworkHead() {
    const head = document.querySelector("#fw-table thead");
    head.replaceChildren(P.el("tr", {}, [
      P.el("th", { text: "Name" }),
      P.el("th", { class: "num", text: "Weight" }),
      ...state.resources.map((r) => P.el("th", { class: "num", text: `${r} / task`,
        title: "One task's demand (the fairness studies allocate tasks); leave every resource empty for none" })),
      P.el("th", { text: "Sharing", title: "How the framework answers offers in a sharing study; empty: the default" }),
      P.el("th", { class: "num", text: "Network σ",
        title: "The network sensitivity of the framework's jobs that set none (paper 003's network-bound jobs); empty: 0" }),
      P.el("th", { text: "Allowed VM types" }),
      P.el("th", { class: "num", text: "Jobs" }),
      P.el("th", {}, [P.el("span", { class: "visually-hidden", text: "Actions" })]),
    ]));
  }

  function renderFrameworks() {
    const counts = jobsPerFramework();
    const width = state.resources.length + 7;
    renderFrameworkHead();
    fwBody.replaceChildren();
    state.frameworks.forEach(function (fw, i) {
      const errors = state.fwErrors.get(i) || new Map();
      const allowed = fw.allowed_vm_types || [];
      const typeNames = Array.from(new Set([...cfg.vm_types, ...allowed]));
      const checks = P.el("div", { class: "checks" }, typeNames.map((name) =>
        P.el("label", { class: "check small" }, [
          P.el("input", { type: "checkbox", value: name, checked: allowed.includes(name), disabled: !canChange,
            dataset: { fw: i, key: "allowed" } }),
          P.el("span", { class: "mono", text: name }),
        ])));
      const mark = (node, key) => {
        if (errors.has(key)) {
          node.classList.add("cell-error");
          node.title = errors.get(key).text;
          node.append(P.el("div", { class: "field-error", text: errors.get(key).message }));
        }
        return node;
      };
      const cell = (key, input, cls) => mark(P.el("td", { class: cls || "" }, [input]), key);
      const numberInput = (key, label, attrs) => P.el("input", Object.assign({ value: fwValue(fw, key),
        inputmode: "decimal", "aria-label": label, disabled: !canChange, dataset: { fw: i, key: key } }, attrs || {}));
      const policy = P.el("select", { "aria-label": `Offer policy of ${fw.name}`, disabled: !canChange,
        dataset: { fw: i, key: "offer_policy" } }, [
        P.el("option", { value: "", text: `default (${defaults.offer_policy || "bin-packing"})` }),
        ...Array.from(new Set([...policies, ...(fw.offer_policy ? [fw.offer_policy] : [])])).map((p) =>
          P.el("option", { value: p, text: p, selected: fw.offer_policy === p })),
      ]);
      const part = (key, label, input) => mark(P.el("label", { class: "fw-sharing-part small" }, [
        P.el("span", { class: "muted", text: label }), input]), key);
      const summary = keptSummary(fw);
      const sharing = P.el("div", { class: "fw-sharing" }, [
        part("offer_policy", "policy", policy),
        part("refuse_s", "refuse s", numberInput("refuse_s", `Refuse seconds of ${fw.name}`,
          { placeholder: defaults.refuse_s === undefined ? null : String(defaults.refuse_s) })),
        part("hold_s", "hold s", numberInput("hold_s", `Hold seconds of ${fw.name}`,
          { placeholder: defaults.hold_s === undefined ? null : String(defaults.hold_s) })),
        summary ? mark(P.el("span", { class: "fw-queues small muted", dataset: { fw: i },
          title: "Task queues or complex jobs from an imported scenario: kept as they are when the workload is saved",
          text: summary }), "queues") : null,
      ]);
      const row = P.el("tr", { class: errors.size ? "row-error" : "", dataset: { fwRow: i } }, [
        cell("name", P.el("input", { value: fw.name || "", "aria-label": "Framework name", disabled: !canChange,
          dataset: { fw: i, key: "name" } })),
        cell("weight", numberInput("weight", "Weight", { value: fw.weight === undefined ? 1 : fw.weight }), "num"),
        ...state.resources.map((r) => cell("td:" + r, numberInput("td:" + r, `${r} per task of ${fw.name}`), "num")),
        P.el("td", {}, [sharing]),
        cell("network_sensitivity", numberInput("network_sensitivity", `Network sensitivity of ${fw.name}`,
          { placeholder: "0" }), "num"),
        cell("allowed_vm_types", checks),
        P.el("td", { class: "num", text: state.paged ? "—" : P.number(counts.get(fw.name) || 0, 0),
          title: state.paged ? "Not counted for a paged workload" : null }),
        P.el("td", { class: "actions" }, canChange ? [P.el("button", { type: "button", class: "btn btn-small btn-danger-quiet",
          "aria-label": `Remove framework ${fw.name}`, dataset: { removeFw: i }, text: "✕" })] : []),
      ]);
      fwBody.append(row);
      if (errors.size) {
        // The library's own paths, under the row they belong to (frameworks[2].task_demand.cpu: must be >= 0).
        fwBody.append(P.el("tr", { class: "row-error fw-errors" }, [P.el("td", { colspan: width },
          Array.from(errors.values()).map((e) => P.el("div", { class: "field-error", text: e.text })))]));
      }
    });
    if (!state.frameworks.length) {
      fwBody.append(P.el("tr", {}, [P.el("td", { colspan: width, class: "empty",
        text: "No frameworks: every job belongs to the default one. Add frameworks to compare fair shares." })]));
    }
    const list = $("framework-names");
    list.replaceChildren(...state.frameworks.map((f) => P.el("option", { value: f.name })));
  }

  /* A typed value into the framework object; empty removes the field (the library's default). */
  function setFrameworkValue(fw, key, text) {
    if (key.startsWith("td:")) {
      const value = parse(text, true);
      const demand = fw.task_demand && typeof fw.task_demand === "object" ? fw.task_demand : {};
      if (value === undefined) delete demand[key.slice(3)];
      else demand[key.slice(3)] = value;
      if (Object.keys(demand).length) fw.task_demand = demand;
      else delete fw.task_demand;
    } else if (key === "offer_policy") {
      if (text) fw.offer_policy = text;
      else delete fw.offer_policy;
    } else {
      const value = parse(text, true);
      if (value === undefined) delete fw[key];
      else fw[key] = value;
    }
  }

  fwBody.addEventListener("change", function (event) {
    const target = event.target;
    const i = Number(target.dataset.fw);
    const fw = state.frameworks[i];
    if (!fw) return;
    const key = target.dataset.key;
    if (key === "name") {
      const old = fw.name;
      const name = target.value.trim();
      fw.name = name;
      // Jobs follow a renamed framework.
      if (old && name && old !== name) {
        for (const job of state.jobs) if (job.framework === old) job.framework = name;
        renderPage();
      }
    } else if (key === "allowed") {
      const ticked = Array.from(fwBody.querySelectorAll(`input[data-fw="${i}"][data-key="allowed"]:checked`)).map((c) => c.value);
      if (ticked.length) fw.allowed_vm_types = ticked;
      else delete fw.allowed_vm_types;
    } else {
      return;  // numbers and the policy: on input, below
    }
    markDirty();
    renderFrameworks();
  });

  // Numbers and the policy as they are typed; no redraw, so Tab moves on to the next input.
  fwBody.addEventListener("input", function (event) {
    const target = event.target;
    const key = target.dataset.key;
    const i = Number(target.dataset.fw);
    const fw = state.frameworks[i];
    if (!fw || !key || key === "name" || key === "allowed") return;
    setFrameworkValue(fw, key, target.value);
    const errors = state.fwErrors.get(i);
    const holder = target.closest(".cell-error");
    if (errors && errors.delete(key) && holder) {
      holder.classList.remove("cell-error");
      const message = holder.querySelector(":scope > .field-error");
      if (message) message.remove();
    }
    markDirty();
  });

  fwBody.addEventListener("click", function (event) {
    const button = event.target.closest("[data-remove-fw]");
    if (!button) return;
    const i = Number(button.dataset.removeFw);
    const fw = state.frameworks[i];
    const used = state.jobs.filter((j) => j.framework === fw.name).length;
    const queued = keptSummary(fw);
    if ((used || queued) && !window.confirm(
      (used ? `${used} job(s) belong to “${fw.name}”; they will move to the default framework.` : "") +
      (queued ? ` Its ${queued} will be removed with it.` : "") + " Remove it?")) return;
    for (const job of state.jobs) if (job.framework === fw.name) delete job.framework;
    state.frameworks.splice(i, 1);
    state.fwErrors = new Map();
    markDirty();
    renderFrameworks();
    renderPage();
  });

  const addFramework = $("add-framework");
  if (addFramework) {
    addFramework.addEventListener("click", function () {
      const names = new Set(state.frameworks.map((f) => f.name));
      let k = state.frameworks.length + 1;
      while (names.has(`framework-${k}`)) k += 1;
      state.frameworks.push({ name: `framework-${k}`, weight: 1 });
      markDirty();
      renderFrameworks();
      const inputs = fwBody.querySelectorAll('input[data-key="name"]');
      if (inputs.length) inputs[inputs.length - 1].select();
    });
  }

  // ------------------------------------------------------------------ jobs grid
  function computeView() {
    if (state.paged) {  // the server's page, whole
      state.view = state.jobs.map((_, i) => i);
      return;
    }
    const q = state.filter.trim().toLowerCase();
    state.view = [];
    state.jobs.forEach(function (job, i) {
      if (!q || String(job.id || "").toLowerCase().includes(q) || String(job.framework || "").toLowerCase().includes(q)) {
        state.view.push(i);
      }
    });
    const pages = Math.max(1, Math.ceil(state.view.length / state.pageSize));
    state.page = Math.min(Math.max(0, state.page), pages - 1);
  }

  function renderHead() {
    const head = table.querySelector("thead");
    head.replaceChildren(P.el("tr", {}, [
      P.el("th", { class: "num", text: "#" }),
      ...columns().map((c) => P.el("th", { class: c.num ? "num" : "", text: c.label, title: c.title || null })),
      P.el("th", {}, [P.el("span", { class: "visually-hidden", text: "Actions" })]),
    ]));
  }

  function renderPage() {
    computeView();
    const body = table.querySelector("tbody");
    const cols = columns();
    const start = state.paged ? 0 : state.page * state.pageSize;
    const indices = state.paged ? state.view : state.view.slice(start, start + state.pageSize);
    const fragment = document.createDocumentFragment();
    for (const i of indices) {
      const job = state.jobs[i];
      const errors = state.jobErrors.get(i);
      const row = P.el("tr", { class: errors ? "row-error" : "", dataset: { row: i } });
      const idx = P.el("td", { class: "idx", text: String(state.offset + i + 1) });
      if (errors && errors.has("")) idx.title = errors.get("");
      row.append(idx);
      for (const c of cols) {
        const input = P.el("input", {
          value: getValue(job, c.key), class: c.cls || "", list: c.list || null,
          inputmode: c.num ? "decimal" : null, "aria-label": `${c.label}, job ${i + 1}`,
          disabled: !canChange, dataset: { row: i, key: c.key },
        });
        const td = P.el("td", { class: c.num ? "num" : "" }, [input]);
        if (errors && errors.has(c.key)) {
          td.classList.add("cell-error");
          input.title = errors.get(c.key);
        }
        row.append(td);
      }
      row.append(P.el("td", { class: "actions" }, canChange ? [P.el("button", {
        type: "button", class: "btn btn-small btn-danger-quiet", "aria-label": `Delete job ${i + 1}`,
        dataset: { removeJob: i }, text: "✕", tabindex: "-1" })] : []));
      fragment.append(row);
    }
    body.replaceChildren(fragment);
    if (!indices.length) {
      body.append(P.el("tr", {}, [P.el("td", { colspan: cols.length + 2, class: "empty",
        text: state.jobs.length ? "No job matches the filter." : "No jobs yet: add rows, paste CSV or generate jobs below." })]));
    }
    if (state.paged) {
      const pages = Math.max(1, Math.ceil(state.total / state.pageSize));
      $("page-info").textContent = state.total
        ? `${P.number(state.offset + 1, 0)}–${P.number(state.offset + state.jobs.length, 0)} of ${P.number(state.total, 0)} · page ${state.page + 1}/${P.number(pages, 0)}`
        : "0 of 0";
      $("page-prev").disabled = state.page === 0;
      $("page-next").disabled = state.page >= pages - 1;
      updateStats();
      return;
    }
    const pages = Math.max(1, Math.ceil(state.view.length / state.pageSize));
    const end = Math.min(start + state.pageSize, state.view.length);
    $("page-info").textContent = state.view.length
      ? `${P.number(start + 1, 0)}–${P.number(end, 0)} of ${P.number(state.view.length, 0)} · page ${state.page + 1}/${pages}`
      : "0 of 0";
    $("page-prev").disabled = state.page === 0;
    $("page-next").disabled = state.page >= pages - 1;
    updateStats();
  }

  const gridBody = table.querySelector("tbody");
  gridBody.addEventListener("input", function (event) {
    const input = event.target;
    const i = Number(input.dataset.row);
    const job = state.jobs[i];
    if (!job) return;
    setValue(job, input.dataset.key, input.value);
    const errors = state.jobErrors.get(i);
    if (errors && errors.delete(input.dataset.key)) {
      input.closest("td").classList.remove("cell-error");
      input.removeAttribute("title");
    }
    markDirty();
  });
  gridBody.addEventListener("change", function (event) {
    if (event.target.dataset.key === "framework") renderFrameworks();
  });
  gridBody.addEventListener("click", function (event) {
    const button = event.target.closest("[data-remove-job]");
    if (!button) return;
    state.jobs.splice(Number(button.dataset.removeJob), 1);
    state.jobErrors = new Map();  // indices moved: the next save re-checks everything
    markDirty();
    renderPage();
    renderFrameworks();
  });
  gridBody.addEventListener("keydown", function (event) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp" && event.key !== "Enter") return;
    const input = event.target;
    if (!input.dataset || input.dataset.key === undefined) return;
    const down = event.key !== "ArrowUp";
    const row = input.closest("tr");
    const next = down ? row.nextElementSibling : row.previousElementSibling;
    event.preventDefault();
    if (next) {
      const target = next.querySelector(`input[data-key="${input.dataset.key}"]`);
      if (target) target.focus();
      return;
    }
    const pages = Math.ceil(state.view.length / state.pageSize);
    if (!state.paged && (down ? state.page < pages - 1 : state.page > 0)) {
      state.page += down ? 1 : -1;
      renderPage();
      const rows = gridBody.querySelectorAll("tr");
      const landing = down ? rows[0] : rows[rows.length - 1];
      const target = landing && landing.querySelector(`input[data-key="${input.dataset.key}"]`);
      if (target) target.focus();
    }
  });

  /* Paged: read page ``page`` from the server (after asking before unsaved edits are dropped). */
  async function loadPage(page) {
    if (state.dirty && !window.confirm("This page has unsaved changes, which another page discards. Continue?")) {
      return false;
    }
    const response = await P.api(`${cfg.jobs_api}?page=${page + 1}&page_size=${state.pageSize}`);
    if (!response.ok) {
      status.textContent = "Could not load the jobs (HTTP " + response.status + ").";
      return false;
    }
    state.page = page;
    state.offset = response.data.offset;
    state.total = response.data.count;
    state.jobs = response.data.results;
    state.pageCount = state.jobs.length;
    state.jobErrors = new Map();
    renderPage();
    if (state.dirty) markClean("Changes discarded");
    return true;
  }

  function turnPage(step) {
    if (state.paged) loadPage(state.page + step);
    else { state.page += step; renderPage(); }
  }

  $("page-prev").addEventListener("click", () => turnPage(-1));
  $("page-next").addEventListener("click", () => turnPage(1));
  $("page-size").addEventListener("change", function (event) {
    const first = state.paged ? state.offset : state.page * state.pageSize;
    state.pageSize = Number(event.target.value);
    state.page = Math.floor(first / state.pageSize);
    if (state.paged) loadPage(state.page);
    else renderPage();
  });
  let filterTimer = null;
  $("job-filter").addEventListener("input", function (event) {
    window.clearTimeout(filterTimer);
    filterTimer = window.setTimeout(() => { state.filter = event.target.value; state.page = 0; renderPage(); }, 150);
  });

  const addJob = $("add-job");
  if (addJob) {
    addJob.addEventListener("click", function () {
      const ids = new Set(state.jobs.map((j) => String(j.id)));
      let k = state.jobs.length;
      while (ids.has(`job-${k}`)) k += 1;
      const last = state.jobs[state.jobs.length - 1];
      const job = { id: `job-${k}` };
      if (last && last.framework) job.framework = last.framework;
      job.arrival_s = last && typeof last.arrival_s === "number" ? last.arrival_s : 0;
      job.executors = 1;
      job.executor = Object.fromEntries(state.resources.map((r) => [r, 1]));
      job.duration_s = 60;
      state.jobs.push(job);
      state.filter = "";
      $("job-filter").value = "";
      computeView();
      if (!state.paged) state.page = Math.max(0, Math.ceil(state.view.length / state.pageSize) - 1);
      markDirty();
      renderPage();
      renderFrameworks();
      const input = gridBody.querySelector(`input[data-row="${state.jobs.length - 1}"][data-key="id"]`);
      if (input) { input.focus(); input.select(); }
    });
  }

  // ------------------------------------------------------------------ errors from the API
  const JOB_PATH = /^jobs\[(\d+)\](?:\.(\w+)(?:\.(.+))?)?$/;
  const FW_PATH = /^frameworks\[(\d+)\](?:\.(\w+)(?:\.(.+))?)?/;

  /* The key of a framework's field in its row: task_demand.cpu is the cpu input. */
  function fwKey(field, sub) {
    if (!field) return "";
    if (field === "task_demand") return "td:" + (sub && state.resources.includes(sub) ? sub : state.resources[0]);
    return field;
  }

  function jobColumn(field, sub) {
    if (!field) return "";
    if (field === "executor") return sub ? "r:" + sub : "r:" + state.resources[0];
    return field;
  }

  function jumpTo(i, key) {
    if (state.paged && !state.view.includes(i)) {  // a row of another page: show this one's marks
      renderPage();
      return;
    }
    if (!state.view.includes(i)) {
      state.filter = "";
      $("job-filter").value = "";
      computeView();
    }
    if (!state.paged) state.page = Math.floor(state.view.indexOf(i) / state.pageSize);
    renderPage();
    const selector = key ? `input[data-row="${i}"][data-key="${key}"]` : `input[data-row="${i}"]`;
    const input = gridBody.querySelector(selector) || gridBody.querySelector(`input[data-row="${i}"]`);
    if (input) { input.focus(); input.scrollIntoView({ block: "center" }); }
  }

  /* One problem as a list item; a job's links to its row. Returns [item, action or null]. */
  function problemItem(e) {
    const path = e.path || "";
    const text = e.text || (path ? `${path}: ${e.message}` : e.message);
    const m = JOB_PATH.exec(path);
    if (!m) return [P.el("li", { text: text }), null];
    const i = Number(m[1]) - state.offset;
    const key = jobColumn(m[2], m[3]);
    const link = P.el("a", { href: "#jobs-table", text: text, dataset: { jump: "1" } });
    link.addEventListener("click", (ev) => { ev.preventDefault(); jumpTo(i, key); });
    return [P.el("li", {}, [link]), [i, key]];
  }

  function problemList(problems) {
    const list = P.el("ul");
    problems.slice(0, 20).forEach((e) => list.append(problemItem(e)[0]));
    if (problems.length > 20) list.append(P.el("li", { text: `… and ${problems.length - 20} more` }));
    return list;
  }

  function showWarnings(warnings) {
    if (!warnings || !warnings.length) {
      warningBox.hidden = true;
      return;
    }
    const n = warnings.length;
    warningBox.replaceChildren(
      P.el("strong", { text: `Saved, with ${n} warning${n === 1 ? "" : "s"} (valid, but probably not meant).` }),
      problemList(warnings));
    warningBox.hidden = false;
  }

  function showErrors(errors) {
    state.jobErrors = new Map();
    state.fwErrors = new Map();
    warningBox.hidden = true;
    for (const id of ["field-name", "field-description"]) {
      const box = $(id).querySelector(".field-error");
      box.hidden = true;
      $(id).classList.remove("has-error");
    }
    let firstJob = null;
    for (const e of errors) {
      const path = e.path || "";
      let m = JOB_PATH.exec(path);
      if (m) {
        const i = Number(m[1]) - state.offset;
        const key = jobColumn(m[2], m[3]);
        if (!state.jobErrors.has(i)) state.jobErrors.set(i, new Map());
        state.jobErrors.get(i).set(key, e.message);
        if (firstJob === null) firstJob = [i, key];
      } else if ((m = FW_PATH.exec(path))) {
        const i = Number(m[1]);
        const key = fwKey(m[2], m[3]);
        if (!state.fwErrors.has(i)) state.fwErrors.set(i, new Map());
        const known = state.fwErrors.get(i).get(key);
        const text = `${path}: ${e.message}`;
        state.fwErrors.get(i).set(key, known
          ? { message: `${known.message}; ${e.message}`, text: `${known.text}; ${text}` }
          : { message: e.message, text: text });
      } else if (path === "name" || path === "description") {
        const field = $("field-" + path);
        field.classList.add("has-error");
        const box = field.querySelector(".field-error");
        box.textContent = e.message;
        box.hidden = false;
      }
    }
    errorBox.replaceChildren(P.el("strong", { text: `Not saved: ${errors.length} problem${errors.length === 1 ? "" : "s"}.` }),
      problemList(errors));
    errorBox.hidden = false;
    renderFrameworks();
    if (firstJob) jumpTo(firstJob[0], firstJob[1]);
    else renderPage();
  }

  function clearErrors() {
    state.jobErrors = new Map();
    state.fwErrors = new Map();
    errorBox.hidden = true;
    for (const id of ["field-name", "field-description"]) {
      $(id).classList.remove("has-error");
      $(id).querySelector(".field-error").hidden = true;
    }
  }

  // ------------------------------------------------------------------ save
  async function save() {
    if (state.saving) return;
    // Frameworks the jobs name but the table lacks are declared with weight 1, as CSV imports do.
    const declared = new Set(state.frameworks.map((f) => f.name));
    const added = [];
    for (const job of state.jobs) {
      if (typeof job.framework === "string" && job.framework && !declared.has(job.framework)) {
        declared.add(job.framework);
        state.frameworks.push({ name: job.framework, weight: 1 });
        added.push(job.framework);
      }
    }
    if (added.length) renderFrameworks();
    state.saving = true;
    saveButton.disabled = true;
    saveButton.textContent = "Saving…";
    let response;
    try {
      response = await P.api(cfg.save, {
        method: "POST",
        body: Object.assign({ name: $("wl-name").value, description: $("wl-description").value,
                              frameworks: state.frameworks },
                            state.paged ? { page: { offset: state.offset, count: state.pageCount, jobs: state.jobs } }
                                        : { jobs: state.jobs }),
      });
    } catch (error) {
      response = { ok: false, status: 0, data: { detail: String(error) } };
    }
    state.saving = false;
    saveButton.textContent = "Save workload";
    if (response.ok) {
      clearErrors();
      if (state.paged) {
        state.total = response.data.job_count;
        state.pageCount = state.jobs.length;
      } else {
        state.jobs = response.data.jobs || state.jobs;
      }
      state.frameworks = response.data.frameworks || state.frameworks;
      state.resources = response.data.resources || state.resources;
      const heading = document.querySelector(".page-head h1");
      if (heading) heading.textContent = response.data.name;
      renderHead();
      renderFrameworks();
      renderPage();
      showWarnings(response.data.warnings);
      markClean(`Saved at ${new Date().toLocaleTimeString()}` + (added.length ? ` (declared ${added.join(", ")})` : ""));
      return;
    }
    saveButton.disabled = false;
    if (response.status === 400 && response.data && response.data.errors) {
      showErrors(response.data.errors);
    } else {
      const detail = response.data && response.data.detail ? response.data.detail : `HTTP ${response.status}`;
      errorBox.replaceChildren(P.el("strong", { text: "Not saved: " }), document.createTextNode(detail));
      errorBox.hidden = false;
    }
  }

  if (saveButton) saveButton.addEventListener("click", save);
  document.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key === "s" && saveButton && state.loaded) {
      event.preventDefault();
      if (state.dirty) save();
    }
  });
  for (const id of ["wl-name", "wl-description"]) $(id).addEventListener("input", markDirty);
  window.addEventListener("beforeunload", function (event) {
    if (state.dirty) { event.preventDefault(); event.returnValue = ""; }
  });
  for (const form of document.querySelectorAll(".js-bulk-form")) {
    form.addEventListener("submit", function (event) {
      if (state.dirty && !window.confirm("The grid has unsaved changes, which this will discard. Continue?")) {
        event.preventDefault();
        return;
      }
      state.dirty = false;  // leaving on purpose
    });
  }

  // ------------------------------------------------------------------ load
  renderFrameworks();
  P.api(cfg.api).then(function (response) {
    if (!response.ok) {
      status.textContent = "Could not load the jobs (HTTP " + response.status + ").";
      return;
    }
    state.jobs = response.data.jobs || [];
    state.frameworks = response.data.frameworks || state.frameworks;
    if (state.paged) {
      const filter = $("job-filter");
      filter.disabled = true;
      filter.placeholder = "No filter on a paged workload";
      state.loaded = true;
      renderHead();
      renderFrameworks();
      loadPage(0).then(function () {
        markClean(canChange ? "All changes saved" : "Read-only: only the team's owners or its creator may change this workload");
      });
      return;
    }
    const seen = new Set(state.resources);
    for (const job of state.jobs) for (const r of Object.keys(job.executor || {})) if (!seen.has(r)) { seen.add(r); state.resources.push(r); }
    state.loaded = true;
    renderHead();
    renderFrameworks();
    renderPage();
    markClean(canChange ? "All changes saved" : "Read-only: only the team's owners or its creator may change this workload");
  });
})();
