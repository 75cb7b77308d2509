/* Uploads: the options of the chosen format, the progress of an import, prices by capacity. */
(function () {
  "use strict";
  const P = window.Planner;

  /* The upload form shows the chosen format's options only. */
  const format = document.getElementById("id_format");
  if (format) {
    const show = function () {
      document.querySelectorAll(".upload-options").forEach(function (box) {
        box.hidden = box.dataset.format !== format.value;
      });
    };
    format.addEventListener("change", show);
    show();
  }

  /* While the upload waits or imports, poll its state; reload once it has ended. */
  const poll = P.jsonScript("upload-poll");
  if (poll && poll.waiting) {
    const bar = document.getElementById("upload-bar");
    const stage = document.getElementById("upload-stage");
    const tick = async function () {
      const response = await P.api(poll.api);
      if (!response.ok) return setTimeout(tick, 5000);
      const upload = response.data;
      if (upload.status !== "received" && upload.status !== "reading") {
        window.location.reload();
        return;
      }
      if (bar) bar.style.width = Math.round(100 * upload.progress) + "%";
      if (stage) stage.textContent = upload.stage || "waiting for a worker";
      setTimeout(tick, 1500);
    };
    setTimeout(tick, 1000);
  }

  /* "Fill prices": every machine type's price by capacity from the chosen price list. */
  const fill = document.getElementById("fill-prices");
  const prices = P.jsonScript("upload-prices") || [];
  if (fill) {
    fill.addEventListener("click", function () {
      const list = document.getElementById("price-list").value;
      for (const row of prices) {
        const input = document.getElementById(row.input);
        if (input && row.suggested[list] !== undefined) input.value = row.suggested[list];
      }
    });
  }
})();
