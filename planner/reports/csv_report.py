"""A report as one CSV file, sections one under the other.

UTF-8 with a byte order mark so Excel detects the encoding. Numbers are rounded as the
library's units say (:func:`scheduling.tables.file_value`: cents for money, whole
seconds for times) and headers name their unit and the currency (``Total cost ($)``).
Text that a spreadsheet could read as a formula (starting with ``=``, ``+``, ``-``, ``@``,
tab, CR or LF) is prefixed with ``'``; numbers are written as numbers, so a negative
saving stays a number.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from scheduling.tables import file_value

from .content import ReportContent
from .tables import Cell, Table, neutralise

__all__ = ["MAX_RECORD_ROWS", "build_csv"]

#: At most this many rows of a kind's long per-item table (a comparison's jobs, all schedulers).
MAX_RECORD_ROWS = 100_000

TITLE = "Cluster What-If Planner - run report"


def _cell(value: Cell, unit: str = "text") -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, str):
        return neutralise(value)
    rounded = file_value(value, unit)
    return "" if rounded is None else rounded  # int / float: written as a number


def _write_table(writer: Any, table: Table, currency: str) -> None:
    writer.writerow([_cell(table.title)])
    for note in table.notes:
        writer.writerow([_cell(note)])
    writer.writerow([_cell(label) for label in table.header(currency)])
    units = [c.unit for c in table.columns]
    for row in table.rows:
        writer.writerow([_cell(v, u) for v, u in zip(row, units, strict=False)])


def build_csv(content: ReportContent, *, include_records: bool = False) -> bytes:
    """The report as CSV bytes (UTF-8 with BOM).

    Sections, separated by an empty line: the run's description (label, value), then each
    of ``content.tables`` and, with ``include_records``, the records table (jobs); each
    section is a title line, optional note lines, a header line and the rows.
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow([TITLE])
    for label, value in content.details:
        writer.writerow([_cell(label), _cell(value)])
    tables = list(content.tables)
    if include_records and content.records is not None:
        tables.append(content.records(MAX_RECORD_ROWS))
    for table in tables:
        writer.writerow([])
        _write_table(writer, table, content.currency)
    return buf.getvalue().encode("utf-8-sig")

