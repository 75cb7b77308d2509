"""A run's cost report as an Excel workbook (openpyxl, streaming write-only mode).

Sheets: Summary (the run's description above the summary table), By VM type, By
framework, By hour and Jobs. Numbers are stored as numbers with number formats (costs
with 4 decimals, percentages as Excel percentages), headers are bold and frozen, columns
sized to their content. Every text cell is stored as a string, never a formula, and text
that could start a formula is prefixed with ``'`` as in the CSV report.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from .tables import (
    Cell,
    ColumnKind,
    Table,
    framework_table,
    hourly_table,
    jobs_table,
    meta_rows,
    neutralise,
    summary_table,
    vm_type_table,
)

__all__ = ["NUMBER_FORMATS", "run_report_xlsx"]

#: Excel number format per column kind (``pct`` cells are stored as fractions).
NUMBER_FORMATS: dict[ColumnKind, str] = {
    "text": "@",
    "int": "#,##0",
    "number": "#,##0.00",
    "money": "#,##0.0000",
    "price": "#,##0.0000",
    "pct": "0.00%",
    "seconds": "#,##0.0",
    "hours": "#,##0.00",
}

TITLE = "Cluster What-If Planner run report"
_BOLD = Font(bold=True)
_TITLE = Font(bold=True, size=14)
_MAX_WIDTH = 60
_WIDTH_SAMPLE_ROWS = 2000



XLSX_MAX_JOB_ROWS = 20_000  # openpyxl writes about 6,000 job rows a second

def _text(value: str) -> str:
    return neutralise(ILLEGAL_CHARACTERS_RE.sub("", value))


def _cell(
    ws: WriteOnlyWorksheet, value: Cell, kind: ColumnKind = "text", font: Font | None = None
) -> WriteOnlyCell:
    if isinstance(value, str):
        cell = WriteOnlyCell(ws, value=_text(value))
        cell.data_type = "s"  # a string, whatever it starts with: never a formula
    elif value is None:
        cell = WriteOnlyCell(ws, value=None)
    else:
        number = value / 100.0 if kind == "pct" else value
        cell = WriteOnlyCell(ws, value=number)
        if kind != "text":
            cell.number_format = NUMBER_FORMATS[kind]
    if font is not None:
        cell.font = font
    return cell


def _display_width(value: Cell, kind: ColumnKind) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return len(value) + (1 if value.startswith("=") else 0)
    if kind == "pct":
        return len(f"{value:.2f}%")
    if kind in ("money", "price"):
        return len(f"{value:,.4f}")
    if kind == "int":
        return len(f"{value:,.0f}")
    return len(f"{value:,.2f}")


def _widths(table: Table) -> list[float]:
    widths = [len(c.label) for c in table.columns]
    for row in table.rows[:_WIDTH_SAMPLE_ROWS]:
        for i, (value, col) in enumerate(zip(row, table.columns, strict=False)):
            widths[i] = max(widths[i], _display_width(value, col.kind))
    return [min(_MAX_WIDTH, max(8, w + 2)) for w in widths]


def _write_table(
    ws: WriteOnlyWorksheet, table: Table, heading: str, after: list[list[Cell]] | None = None
) -> None:
    """A heading, the table's notes, its header (frozen) and rows, then the ``after`` rows.

    Write-only sheets need column widths and panes before the first row.
    """
    for i, w in enumerate(_widths(table), start=1):
        ws.column_dimensions[get_column_letter(i)].width = w
    ws.freeze_panes = f"A{len(table.notes) + 3}"
    ws.append([_cell(ws, heading, font=_TITLE)])
    for note in table.notes:
        ws.append([_cell(ws, note)])
    ws.append([_cell(ws, c.label, font=_BOLD) for c in table.columns])
    kinds = [c.kind for c in table.columns]
    for row in table.rows:
        ws.append([_cell(ws, v, k) for v, k in zip(row, kinds, strict=False)])
    for row in after or []:
        ws.append([_cell(ws, v, font=_BOLD if i == 0 else None) for i, v in enumerate(row)])


def run_report_xlsx(
    meta: Mapping[str, Any],
    results: Mapping[str, Mapping[str, Any]],
    baseline: str | None,
    *,
    max_job_rows: int = XLSX_MAX_JOB_ROWS,
) -> bytes:
    """The run's report as XLSX bytes.

    Parameters
    ----------
    meta : mapping
        ``run_name``, ``scenario_name``, ``created_at``, ``run_id`` (all optional).
    results : mapping of str to dict
        Result documents keyed by scheduler spec.
    baseline : str or None
        The scheduler savings are measured against; ``None`` = the first one.
    max_job_rows : int, default 100,000
        Rows of the Jobs sheet (all schedulers together); the sheet says when it is cut.
        20,000 rows keep a download of a 10,000-job, 5-scheduler run to a few seconds.

    Raises
    ------
    ValueError
        If ``baseline`` is not one of ``results``.
    """
    summary = summary_table(results, baseline)  # validates the baseline first
    wb = Workbook(write_only=True)
    title = str(meta.get("run_name") or "Run report")
    wb.properties.title = ILLEGAL_CHARACTERS_RE.sub("", title)[:255]
    wb.properties.creator = "Cluster What-If Planner"

    details: list[list[Cell]] = [[], ["Run"]]
    details += [[label, value] for label, value in meta_rows(meta, results, baseline)]
    _write_table(wb.create_sheet("Summary"), summary, f"{TITLE}: {title}", details)

    for sheet, table in (
        ("By VM type", vm_type_table(results)),
        ("By framework", framework_table(results)),
        ("By hour", hourly_table(results)),
        ("Jobs", jobs_table(results, max_job_rows)),
    ):
        _write_table(wb.create_sheet(sheet), table, table.title)

    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
