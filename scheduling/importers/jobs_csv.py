"""Jobs as CSV, one job a line, in the scenario document's own terms.

The header names the columns: ``id``, ``arrival_s``, ``executors`` and ``duration_s`` are
required, ``framework``, ``deadline_s`` (relative to arrival) and ``network_sensitivity``
(notes §8: how network-bound the job is; scenario version 3) are optional, and every other
column is a resource of the per-executor demand::

    id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s,network_sensitivity
    j1,analytics,0,4,2,4,300,900,
    j2,pagerank,60,2,1,2,120,,0.4

An empty ``framework``, ``deadline_s`` or ``network_sensitivity`` cell means none (for the
sensitivity: the framework's). Errors name the file's line, the
job and the column (``line 3 (job j2), cpu: must be a number, got 'two'``); the jobs are
then checked like any others, and :meth:`Imported.locate` puts those errors on their line
too.

>>> read_jobs_csv(["id,arrival_s,executors,cpu,mem,duration_s\\n", "j1,0,2,1,2,60\\n"], {}).jobs
[{'id': 'j1', 'arrival_s': 0, 'executors': 2, 'executor': {'cpu': 1, 'mem': 2}, 'duration_s': 60}]
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import FieldError, ScenarioError
from ..scenario import LIMITS, parse_workload
from .registry import Imported, Importer, bounded_lines, number_from_text, register, row_path

__all__ = ["JOB_COLUMNS", "read_jobs_csv"]

JOB_COLUMNS = ("id", "framework", "arrival_s", "executors", "duration_s", "deadline_s", "network_sensitivity")
#: Columns whose empty cell means the field is not set.
OPTIONAL_NUMBERS = ("deadline_s", "network_sensitivity")
REQUIRED_COLUMNS = ("id", "arrival_s", "executors", "duration_s")
EXAMPLE_HEADER = "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s"
MAX_ERRORS = 100


def _header(rows: Iterable[list[str]]) -> list[str]:
    for row in rows:
        if row and any(cell.strip() for cell in row):
            header = [cell.strip() for cell in row]
            break
    else:
        raise ScenarioError.single(
            "csv", f"is empty; the first line must be a header such as {EXAMPLE_HEADER}"
        )
    duplicates = sorted({h for h in header if header.count(h) > 1})
    if duplicates:
        raise ScenarioError.single("csv", f"the header repeats {', '.join(duplicates)}")
    if "" in header:
        raise ScenarioError.single("csv", "the header has an empty column name")
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise ScenarioError.single("csv", f"the header lacks {', '.join(missing)}")
    if not [h for h in header if h not in JOB_COLUMNS]:
        raise ScenarioError.single(
            "csv", "the header names no resource column (one per resource, e.g. cpu,mem)"
        )
    return header


def read_jobs_csv(lines: Iterable[str], options: Mapping[str, Any]) -> Imported:
    """The jobs of a CSV file as scenario-document jobs, each with the line it came from.

    Reads ``lines`` one by one (an open file works); raises :class:`ScenarioError` with
    paths ``csv`` (the whole file) or ``line N (job ID), column``.
    """
    rows = csv.reader(bounded_lines(lines, "csv"))
    errors: list[FieldError] = []
    jobs: list[dict[str, Any]] = []
    origins: list[str] = []
    try:
        header = _header(rows)
        resources = [h for h in header if h not in JOB_COLUMNS]
        column = {h: i for i, h in enumerate(header)}
        for row in rows:
            line = f"line {rows.line_num}"
            if not row or all(not cell.strip() for cell in row):
                continue
            if len(errors) >= MAX_ERRORS:
                errors.append(FieldError("csv", "... and more errors (stopped reading)"))
                break
            if len(jobs) >= LIMITS["jobs"]:
                errors.append(FieldError("csv", f"has more than {int(LIMITS['jobs']):,} jobs"))
                break
            if len(row) != len(header):
                errors.append(FieldError(line, f"has {len(row)} columns, the header {len(header)}"))
                continue
            cells = {h: row[i].strip() for h, i in column.items()}
            values: dict[str, int | float] = {}
            ok = bool(cells["id"])
            if not ok:
                errors.append(FieldError(row_path(line, None, "id"), "must not be empty"))
            for h in ("arrival_s", "executors", *resources, "duration_s", *OPTIONAL_NUMBERS):
                if h not in cells or (h in OPTIONAL_NUMBERS and not cells[h]):
                    continue
                try:
                    values[h] = number_from_text(cells[h])
                except ValueError:
                    errors.append(
                        FieldError(row_path(line, cells["id"], h), f"must be a number, got {cells[h]!r}")
                    )
                    ok = False
            if not ok:
                continue
            job: dict[str, Any] = {"id": cells["id"]}
            if cells.get("framework"):
                job["framework"] = cells["framework"]
            job["arrival_s"] = values["arrival_s"]
            job["executors"] = values["executors"]
            job["executor"] = {r: values[r] for r in resources}
            job["duration_s"] = values["duration_s"]
            for h in OPTIONAL_NUMBERS:
                if h in values:
                    job[h] = values[h]
            jobs.append(job)
            origins.append(line)
    except csv.Error as exc:
        raise ScenarioError.single("csv", f"is not valid CSV: {exc}") from None
    columns = {f"executor.{r}": r for r in resources}
    columns["executor"] = ", ".join(resources)
    imported = Imported(
        document={"resources": resources, "frameworks": [], "jobs": jobs},
        origins=tuple(origins),
        columns=columns,
    )
    if errors:
        # Every error of the file at once: the rows that were read are checked as jobs too
        # (a negative size, an executor count of 0), so fixing the unreadable cells does not
        # reveal a second round of errors. In the file's order.
        try:
            named = dict.fromkeys(j["framework"] for j in jobs if "framework" in j)  # declared as read
            parse_workload({"resources": resources, "jobs": jobs, "frameworks": [{"name": n} for n in named]})
        except ScenarioError as exc:
            errors += imported.locate(exc.errors)
        raise ScenarioError(sorted(errors, key=_line_number))
    return imported


def _line_number(error: FieldError) -> int:
    """Where an error is in the file, for sorting (errors about the whole file first)."""
    match = re.match(r"line (\d+)", error.path)
    return int(match.group(1)) if match else 0


def _looks_like_jobs_csv(first_line: str) -> bool:
    header = {cell.strip() for cell in first_line.lstrip("\ufeff").split(",")}
    return set(REQUIRED_COLUMNS) <= header


IMPORTER = register(
    Importer(
        name="jobs",
        label=f"Jobs CSV ({EXAMPLE_HEADER})",
        file_types=(".csv",),
        read=read_jobs_csv,
        line_per_job=True,
        detect=_looks_like_jobs_csv,
        help="Header id,framework,arrival_s,executors, one column per resource, duration_s,deadline_s "
        "(relative to arrival; empty for none), and optionally network_sensitivity (how network-bound "
        "the job is, 0 or more; empty for the framework's).",
    )
)
