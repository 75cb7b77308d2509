/* Cluster editor: add/remove (VM type, count, machine class) rows and keep the totals live. */
(function () {
  "use strict";
  const P = window.Planner;
  const types = new Map((P.jsonScript("vm-types-data") || []).map((t) => [String(t.id), t]));
  const body = document.getElementById("entry-rows");
  const template = document.getElementById("entry-template");
  const addButton = document.getElementById("add-entry");
  if (!body) return;

  const UNITS = { cpu: "cores", mem: "GB" };

  function rowValues(row) {
    const type = types.get(row.querySelector(".js-vm-type").value);
    const count = Number(row.querySelector(".js-count").value);
    return { type: type, count: Number.isFinite(count) && count > 0 ? Math.floor(count) : 0 };
  }

  function update() {
    let machines = 0;
    let price = 0;
    const capacity = new Map();
    for (const row of body.querySelectorAll(".entry-row")) {
      const { type, count } = rowValues(row);
      const perVm = row.querySelector(".js-per-vm");
      const rowPrice = row.querySelector(".js-price");
      const rowTotal = row.querySelector(".js-row-total");
      if (!type) {
        perVm.textContent = rowPrice.textContent = rowTotal.textContent = "—";
        continue;
      }
      perVm.textContent = Object.entries(type.capacity)
        .map(([r, v]) => `${P.number(v)} ${UNITS[r] || r}`)
        .join(" · ");
      rowPrice.textContent = P.money(type.price_per_hour);
      rowTotal.textContent = P.money(type.price_per_hour * count);
      machines += count;
      price += type.price_per_hour * count;
      for (const [r, v] of Object.entries(type.capacity)) {
        capacity.set(r, (capacity.get(r) || 0) + v * count);
      }
    }
    document.querySelector(".js-total-vms").textContent = P.number(machines, 0);
    const total = document.querySelector(".js-total-price");
    const currency = total.dataset.currency || "";  // the team's symbol, as the server shows money
    total.textContent = currency + P.money(price);
    document.querySelector(".js-total-day").textContent = currency + P.money(price * 24);
    const holder = document.getElementById("total-resources");
    holder.replaceChildren();
    const names = Array.from(new Set(["cpu", "mem", ...capacity.keys()]));
    for (const r of names) {
      const label = r === "cpu" ? "Cores" : r === "mem" ? "Memory (GB)" : r;
      holder.append(P.el("div", {}, [P.el("dt", { text: label }), P.el("dd", { text: P.number(capacity.get(r) || 0) })]));
    }
  }

  body.addEventListener("input", update);
  body.addEventListener("change", update);
  body.addEventListener("click", function (event) {
    const button = event.target.closest(".js-remove-row");
    if (!button) return;
    button.closest("tr").remove();
    update();
  });
  if (addButton) {
    addButton.addEventListener("click", function () {
      const row = template.content.firstElementChild.cloneNode(true);
      // Offer a VM type the cluster does not list yet.
      const used = new Set(Array.from(body.querySelectorAll(".js-vm-type")).map((s) => s.value));
      const free = Array.from(types.keys()).find((id) => !used.has(id));
      if (free) row.querySelector(".js-vm-type").value = free;
      body.append(row);
      row.querySelector(".js-vm-type").focus();
      update();
    });
  }
  update();
})();
