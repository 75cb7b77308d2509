"""Downloadable reports of a run: CSV, XLSX and PDF, one shell for every kind.

A report is two steps, both pure (no database access):

1. **The kind supplies the body**: a :class:`~planner.reports.content.ReportBody` (what kind
   of run it is, the library's comparison table, the tables of every format, the figures,
   which figures the XLSX charts natively, and a lazy records table), from its
   ``RunKind.report``; **one shell** (:func:`~planner.reports.content.report_content`) adds
   the run's header rows, the kind's settings rows and the team's currency::

       content = report_content(kind.report(results=..., options=..., baseline=..., currency="€"),
                                meta={"run_name": ...}, settings=kind.settings(options),
                                currency="€", variants=list(results))

2. **Every format lays it out**: :data:`FORMATS` maps ``"csv"``, ``"xlsx"``, ``"pdf"`` to a
   :class:`ReportFormat` whose ``build(content) -> bytes`` knows nothing of kinds::

       fmt = FORMATS["pdf"]
       body = fmt.build(content)   # then serve with fmt.content_type, name ending fmt.extension

``planner.runs.reporting.run_report`` does both for a stored run. The PDF draws the run page's
own Plotly figure dicts through matplotlib (:mod:`planner.reports.plotly_mpl`):
``docs/architecture.md`` says why not through a browser.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .content import VERDICT, ReportBody, ReportContent, report_content
from .csv_report import build_csv

__all__ = [
    "FORMATS",
    "VERDICT",
    "ReportBody",
    "ReportContent",
    "ReportFormat",
    "build_csv",
    "build_pdf",
    "build_xlsx",
    "report_content",
]


def build_pdf(content: ReportContent) -> bytes:
    """The PDF report (:func:`planner.reports.pdf_report.build_pdf`). Its module, with matplotlib,
    is imported by the first PDF rather than when the site or a worker starts: that import
    takes seconds, and most processes never draw a PDF."""
    from .pdf_report import build_pdf as build

    return build(content)


def build_xlsx(content: ReportContent, **options: Any) -> bytes:
    """The XLSX report (:func:`planner.reports.xlsx_report.build_xlsx`, ``max_records=``),
    imported by the first workbook for the same reason (openpyxl)."""
    from .xlsx_report import build_xlsx as build

    return build(content, **options)


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
