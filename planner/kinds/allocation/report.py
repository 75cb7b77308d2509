"""The allocation study's report content: every table and figure is the library's
(:mod:`scheduling.fairness.tables`, :func:`scheduling.fairness.charts.allocation_figures`),
laid out as report tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.reports import ReportBody
from planner.reports.content import pick_figures
from planner.reports.tables import detail_as_table, rows_table, summary_table
from scheduling.fairness.charts import allocation_figures
from scheduling.fairness.tables import (
    ALLOCATION_CELL_COLUMNS,
    ALLOCATION_RESOURCE_COLUMNS,
    allocation_cell_rows,
    allocation_framework_table,
    allocation_resource_rows,
    fairness_table,
)

__all__ = ["PDF_FIGURES", "SHEET_CHARTS", "allocation_report"]

#: Figures the PDF draws, by key or key prefix (``heatmap:`` every variant's), in order; the
#: other views (``@overlay``, ``@raw``) stay on the page.
PDF_FIGURES: tuple[str, ...] = ("heatmap:", "totals", "stranded", "outcomes:")
#: Figures the XLSX draws as native charts on its summary sheet (bar charts).
SHEET_CHARTS = ("stranded",)


def allocation_report(
    results: Mapping[str, Mapping[str, Any]], *, baseline: str | None = None, currency: str = "$"
) -> ReportBody:
    """An allocation study's report: the comparison, the criteria per framework, tasks per server,
    resources, and the heatmaps, totals, stranded resources and outcomes."""
    docs = dict(results)
    comparison = fairness_table(docs, baseline=baseline, currency=currency, detail=True)
    drawn = pick_figures(allocation_figures(docs), PDF_FIGURES) if docs else {}
    return ReportBody(
        subtitle="static allocation study (paper 000)",
        comparison=comparison,
        tables=[
            summary_table(comparison, "Policy"),
            detail_as_table(allocation_framework_table(docs, currency=currency)),
            rows_table("allocation", "Tasks per server", ALLOCATION_CELL_COLUMNS, allocation_cell_rows(docs)),
            rows_table("resources", "Resources", ALLOCATION_RESOURCE_COLUMNS, allocation_resource_rows(docs)),
        ],
        figures=drawn,
        sheet_charts=tuple(k for k in SHEET_CHARTS if k in drawn),
    )
