"""Downloadable reports of a run: CSV, XLSX and PDF.

The contract, for every kind of run
-----------------------------------
A report is two steps, both pure (no database access):

1. **The kind supplies the content**: a :class:`~planner.reports.content.ReportContent`
   (title, description rows, the library's comparison table, the tables of every
   format, the figures, which figures the XLSX charts natively, and a lazy records table).
   A cost comparison's is :func:`~planner.reports.cost.cost_report`::

       content = cost_report(meta, results, baseline="fifo-spread", currency="€")

   where ``meta`` is ``{"run_name", "scenario_name", "created_at", "run_id"}`` (all
   optional), ``results`` the result documents keyed by scheduler spec, ``baseline`` the
   run page's choice (``None``: the first), ``currency`` the team's symbol (display only).
   Another kind writes its own ``<kind>_report(meta, results, *, baseline, currency)`` with
   its metric list (:mod:`scheduling.tables`), its tables and its figures.

2. **Every format lays it out**: :data:`FORMATS` maps ``"csv"``, ``"xlsx"``, ``"pdf"`` to a
   :class:`ReportFormat` whose ``build(content) -> bytes`` knows nothing of kinds::

       fmt = FORMATS["pdf"]
       body = fmt.build(content)   # then serve with fmt.content_type, name ending fmt.extension

A run-kind registry therefore holds one function per kind (``report``: meta, results,
baseline, currency -> ReportContent) and dispatches the format through :data:`FORMATS`.

For the cost kind as it is wired today, :data:`REPORT_FORMATS` keeps the one-call form
``fn(meta, results, baseline) -> bytes`` (``run_report_csv`` ... take ``currency=`` too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .content import ReportContent
from .cost import cost_report
from .csv_report import build_csv, run_report_csv
from .pdf_report import build_pdf, run_report_pdf
from .xlsx_report import build_xlsx, run_report_xlsx

__all__ = [
    "FORMATS",
    "REPORT_FORMATS",
    "ReportContent",
    "ReportFormat",
    "ReportFunction",
    "build_csv",
    "build_pdf",
    "build_xlsx",
    "cost_report",
    "run_report_csv",
    "run_report_pdf",
    "run_report_xlsx",
]


@dataclass(frozen=True)
class ReportFormat:
    """One file format: how to build it from any kind's content, and how to serve it."""

    build: Callable[[ReportContent], bytes]
    content_type: str
    extension: str


#: Every format, by name: ``FORMATS[name].build(content) -> bytes``.
FORMATS: dict[str, ReportFormat] = {
    "csv": ReportFormat(build_csv, "text/csv; charset=utf-8", ".csv"),
    "xlsx": ReportFormat(
        build_xlsx, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ".xlsx"
    ),
    "pdf": ReportFormat(build_pdf, "application/pdf", ".pdf"),
}

#: ``fn(meta, results, baseline) -> bytes`` of a cost comparison.
ReportFunction = Callable[[Mapping[str, Any], Mapping[str, Mapping[str, Any]], str | None], bytes]

#: The cost kind's one-call builders, ``(function, content type, file extension)`` by format.
REPORT_FORMATS: dict[str, tuple[ReportFunction, str, str]] = {
    "csv": (run_report_csv, FORMATS["csv"].content_type, FORMATS["csv"].extension),
    "xlsx": (run_report_xlsx, FORMATS["xlsx"].content_type, FORMATS["xlsx"].extension),
    "pdf": (run_report_pdf, FORMATS["pdf"].content_type, FORMATS["pdf"].extension),
}
