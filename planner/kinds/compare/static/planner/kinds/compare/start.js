/* New comparison: show the chosen scenario source; offer the chosen schedulers as baseline. */
(function () {
  "use strict";
  const form = document.getElementById("run-form");
  if (!form) return;
  const baseline = document.getElementById("id_baseline");
  const custom = form.querySelector('textarea[name="custom"]');

  function showSource() {
    const chosen = form.querySelector('input[name="source"]:checked');
    const value = chosen ? chosen.value : "stored";
    for (const panel of form.querySelectorAll(".source-panel")) {
      panel.hidden = panel.dataset.source !== value;
    }
  }

  function specs() {
    const ticked = Array.from(form.querySelectorAll('input[name="schedulers"]:checked')).map((i) => i.value);
    const lines = (custom.value || "").split("\n").map((l) => l.trim()).filter(Boolean);
    return Array.from(new Set(ticked.concat(lines)));
  }

  function refreshBaseline() {
    const current = baseline.value || baseline.dataset.initial || "";
    const options = specs();
    baseline.replaceChildren(new Option("The first scheduler" + (options.length ? ` (${options[0]})` : ""), ""));
    for (const spec of options) baseline.append(new Option(spec, spec));
    if (current && !options.includes(current)) baseline.append(new Option(current, current));
    baseline.value = current;
    baseline.dataset.initial = "";
  }

  form.addEventListener("change", function (event) {
    if (event.target.name === "source") showSource();
    if (event.target.name === "schedulers") refreshBaseline();
  });
  custom.addEventListener("input", refreshBaseline);
  form.addEventListener("submit", function () {
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    button.textContent = "Starting…";
  });
  showSource();
  refreshBaseline();
})();
