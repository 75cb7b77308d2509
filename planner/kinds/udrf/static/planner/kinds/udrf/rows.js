/* New UDRF study: "Add a row" under the machine classes and the jobs. A new row is a copy of
 * the last one with the next prefix (m7-, j12-), emptied; the form reads every prefix it is sent. */
(function () {
  "use strict";
  function addRow(table) {
    const rows = table.querySelectorAll("tbody tr[data-row]");
    const last = rows[rows.length - 1];
    if (!last) return;
    const match = /^([a-z]+)(\d+)$/.exec(last.dataset.row);
    if (!match) return;
    const prefix = match[1] + (Number(match[2]) + 1);
    const row = last.cloneNode(true);
    row.dataset.row = prefix;
    row.classList.remove("row-error");
    const swap = (value) => value.replace(new RegExp("(^|_)" + match[1] + "\\d+-"), "$1" + prefix + "-");
    for (const field of row.querySelectorAll("input, textarea, select")) {
      if (field.name) field.name = swap(field.name);
      if (field.id) field.id = swap(field.id);
      if (field.tagName === "SELECT") field.selectedIndex = 0; else field.value = "";
    }
    for (const cell of row.querySelectorAll(".cell-error")) cell.classList.remove("cell-error");
    for (const note of row.querySelectorAll(".field-error")) note.remove();
    table.querySelector("tbody").appendChild(row);
    const first = row.querySelector("input, textarea");
    if (first) first.focus();
  }
  for (const button of document.querySelectorAll("[data-add-row]")) {
    button.addEventListener("click", function () {
      const table = document.getElementById(button.dataset.addRow);
      if (table) addRow(table);
    });
  }
})();
