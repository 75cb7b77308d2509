"""The MRSU sizing run's report content: every table and figure is the library's
(:mod:`scheduling.mrsu.tables`, :func:`scheduling.mrsu.charts.run_figures`), laid out as report
tables; the shared shell adds the run's header, its settings and the currency."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.reports import ReportBody
from planner.reports.content import pick_figures
from planner.reports.tables import detail_as_table, summary_table
from scheduling.mrsu.charts import run_figures
from scheduling.mrsu.tables import MRSU_METRICS, mrsu_tables, result_summary
from scheduling.tables import comparison_table

__all__ = ["PDF_FIGURES", "mrsu_report"]

#: Figures the PDF draws, by key or key prefix (``allocation:`` every unit's), in order; the
#: snapshots (Fig. 2: thousands of points each) stay on the page.
PDF_FIGURES: tuple[str, ...] = (
    "allocation:", "fig3-under", "fig3-over", "fig4-under", "fig4-over", "fig5", "fig5-slots",
)


def mrsu_report(
    results: Mapping[str, Mapping[str, Any]], *, baseline: str | None = None, currency: str = "$"
) -> ReportBody:
    """An MRSU run's report: the comparison of its units, the library's tables (units,
    applications, dimensions, the advisor's, the sweep's) and the allocation and sweep figures."""
    allocations = {k: v for k, v in results.items() if v.get("study") == "mrsu"}
    comparison = comparison_table(
        {k: result_summary(v) for k, v in allocations.items()},
        baseline=baseline,
        currency=currency,
        metrics=MRSU_METRICS,
        detail=True,
    )
    tables = [summary_table(comparison, "Unit")]
    tables += [detail_as_table(t) for t in mrsu_tables(results, currency=currency, detail=True)]
    return ReportBody(
        subtitle="MRSU sizing (paper 002)",
        comparison=comparison,
        tables=tables,
        figures=pick_figures(run_figures(results), PDF_FIGURES),
        details=[("Units", ", ".join(allocations))],
    )
