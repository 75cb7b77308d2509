"""The sharing study's report content: every table and figure is the library's
(:mod:`scheduling.fairness.tables`, :func:`scheduling.fairness.charts.sharing_figures`),
laid out as report tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.reports import ReportBody
from planner.reports.content import pick_figures
from planner.reports.tables import rows_table, summary_table
from scheduling.fairness.charts import sharing_figures
from scheduling.fairness.tables import SHARING_FRAMEWORK_COLUMNS, fairness_table, sharing_framework_rows

__all__ = ["PDF_FIGURES", "SHEET_CHARTS", "sharing_report"]

#: Figures the PDF draws, by key or key prefix (``share:`` every configuration's), in order.
PDF_FIGURES: tuple[str, ...] = ("share:", "unfairness", "running", "utilisation", "completion")
#: Figures the XLSX draws as native charts on its summary sheet (bar charts).
SHEET_CHARTS = ("unfairness",)


def sharing_report(
    results: Mapping[str, Mapping[str, Any]], *, baseline: str | None = None, currency: str = "$"
) -> ReportBody:
    """A sharing study's report: the comparison, each framework's unfairness and completion, and
    the share timelines, unfairness, running tasks, utilisation and completion figures."""
    docs = dict(results)
    comparison = fairness_table(docs, baseline=baseline, currency=currency, detail=True)
    drawn = pick_figures(sharing_figures(docs), PDF_FIGURES) if docs else {}
    return ReportBody(
        subtitle="online sharing study (paper 001)",
        comparison=comparison,
        tables=[
            summary_table(comparison, "Configuration"),
            rows_table("frameworks", "Frameworks", SHARING_FRAMEWORK_COLUMNS, sharing_framework_rows(docs)),
        ],
        figures=drawn,
        sheet_charts=tuple(k for k in SHEET_CHARTS if k in drawn),
    )
