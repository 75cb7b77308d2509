"""A run's cost report as one CSV file, sections one under the other.

UTF-8 with a byte order mark so Excel detects the encoding. Text that a spreadsheet could
read as a formula (starting with ``=``, ``+``, ``-``, ``@``, tab, CR or LF) is prefixed
with ``'``; numbers are written as numbers, so a negative saving stays a number.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from .tables import Cell, Table, meta_rows, neutralise, report_tables

__all__ = ["run_report_csv"]

TITLE = "Cluster What-If Planner - run report"


def _cell(value: Cell) -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, str):
        return neutralise(value)
    return value  # int / float: written by the csv module as a number (repr)


def _write_table(writer: Any, table: Table) -> None:
    writer.writerow([_cell(table.title)])
    for note in table.notes:
        writer.writerow([_cell(note)])
    writer.writerow([_cell(c.label) for c in table.columns])
    for row in table.rows:
        writer.writerow([_cell(v) for v in row])


def run_report_csv(
    meta: Mapping[str, Any],
    results: Mapping[str, Mapping[str, Any]],
    baseline: str | None,
    *,
    include_jobs: bool = False,
) -> bytes:
    """The run's report as CSV bytes (UTF-8 with BOM).

    Sections, separated by an empty line: the run's description (label, value), then
    ``Summary``, ``Cost per VM type``, ``Cost per framework``, ``Cost per hour`` and, with
    ``include_jobs``, ``Jobs``; each section is a title line, optional note lines, a
    header line and the rows.

    Parameters
    ----------
    meta : mapping
        ``run_name``, ``scenario_name``, ``created_at``, ``run_id`` (all optional).
    results : mapping of str to dict
        Result documents keyed by scheduler spec.
    baseline : str or None
        The scheduler savings are measured against; ``None`` = the first one.

    Raises
    ------
    ValueError
        If ``baseline`` is not one of ``results``.
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow([TITLE])
    for label, value in meta_rows(meta, results, baseline):
        writer.writerow([_cell(label), _cell(value)])
    for table in report_tables(results, baseline, include_jobs=include_jobs):
        writer.writerow([])
        _write_table(writer, table)
    return buf.getvalue().encode("utf-8-sig")
