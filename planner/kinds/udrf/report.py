"""The UDRF study's report content: every table and figure is the library's
(:mod:`scheduling.udrf.tables`, :func:`scheduling.udrf.charts.udrf_figures`), laid out as report
tables; the shared shell adds the run's header rows, its settings and the currency."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.reports import ReportBody
from planner.reports.tables import detail_as_table, summary_table
from scheduling.udrf.charts import udrf_figures
from scheduling.udrf.tables import udrf_table, udrf_tables

__all__ = ["udrf_report"]


def udrf_report(
    results: Mapping[str, Mapping[str, Any]], *, baseline: str | None = None, currency: str = "$"
) -> ReportBody:
    """A UDRF study's report: the comparison per policy, the library's detail tables (users,
    classes, RDUCs, properties; online: per user and the reductions) and every figure."""
    docs = dict(results)
    comparison = udrf_table(docs, baseline=baseline, currency=currency, detail=True)
    tables = [summary_table(comparison, "Policy")]
    tables += [detail_as_table(t) for t in udrf_tables(docs, currency=currency, detail=True)]
    return ReportBody(
        subtitle="UDRF study (paper 004)",
        comparison=comparison,
        tables=tables,
        figures=dict(udrf_figures(docs)),
    )
