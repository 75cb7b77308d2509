"""Downloadable reports of a run: CSV, XLSX and PDF.

Pure functions of a run's results (``dict[str, dict]``: scheduler spec -> the document of
``SimulationResult.to_dict()``, see docs/results.md) and a little metadata; no database
access. Each returns the file's bytes::

    data = run_report_pdf({"run_name": "Nightly", "scenario_name": "RM", "created_at": "...",
                           "run_id": 12}, results, baseline="fifo-spread")

:data:`REPORT_FORMATS` maps a format name to ``(function, content type, file extension)``
for a download view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .csv_report import run_report_csv
from .pdf_report import run_report_pdf
from .xlsx_report import run_report_xlsx

__all__ = ["CONTENT_TYPES", "REPORT_FORMATS", "ReportFunction", "run_report_csv", "run_report_pdf", "run_report_xlsx"]

#: ``fn(meta, results, baseline) -> bytes``
ReportFunction = Callable[[Mapping[str, Any], Mapping[str, Mapping[str, Any]], str | None], bytes]

#: ``format -> (content type, file extension)`` of every report format.
CONTENT_TYPES: dict[str, tuple[str, str]] = {
    "csv": ("text/csv; charset=utf-8", ".csv"),
    "xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ".xlsx"),
    "pdf": ("application/pdf", ".pdf"),
}

REPORT_FORMATS: dict[str, tuple[ReportFunction, str, str]] = {
    "csv": (run_report_csv, "text/csv; charset=utf-8", ".csv"),
    "xlsx": (run_report_xlsx, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ".xlsx"),
    "pdf": (run_report_pdf, "application/pdf", ".pdf"),
}
