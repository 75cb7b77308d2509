/* A start page: show the chosen scenario source; disable the button once started. */
(function () {
  "use strict";
  const form = document.getElementById("run-form");
  if (!form) return;

  function showSource() {
    const chosen = form.querySelector('input[name="source"]:checked');
    const value = chosen ? chosen.value : "document";
    for (const panel of form.querySelectorAll(".source-panel")) {
      panel.hidden = panel.dataset.source !== value;
    }
  }

  form.addEventListener("change", function (event) {
    if (event.target.name === "source") showSource();
  });
  form.addEventListener("submit", function () {
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    button.textContent = "Starting…";
  });
  showSource();
})();
