/* Compare page: draw the overlaid timelines of runs A and B. */
(function () {
  "use strict";
  const figures = window.Planner.jsonScript("compare-figures");
  if (!figures) return;
  for (const block of document.querySelectorAll("#charts .chart-block")) {
    const figure = figures[block.dataset.figure];
    if (figure) window.PlannerCharts.draw(block, figure);
    else block.hidden = true;
  }
})();
