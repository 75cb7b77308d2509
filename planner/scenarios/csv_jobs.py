"""Jobs pasted or uploaded as CSV, one job a line, in the scenario document's own terms.

The header names the columns: ``id``, ``arrival_s``, ``executors`` and ``duration_s`` are
required, ``framework`` and ``deadline_s`` (relative to arrival) are optional, and every
other column is a resource of the per-executor demand::

    id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s
    j1,analytics,0,4,2,4,300,900
    j2,,60,2,1,2,120,

An empty ``framework`` or ``deadline_s`` cell means none. Errors name the line and the
column (``line 3, cpu: must be a number, got 'two'``), as the RM-Simulator importer does;
the jobs are then checked like any others.

>>> workload_jobs_from_csv("id,arrival_s,executors,cpu,mem,duration_s\\nj1,0,2,1,2,60\\n")
[{'id': 'j1', 'arrival_s': 0, 'executors': 2, 'executor': {'cpu': 1, 'mem': 2}, 'duration_s': 60}]
"""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from planner.core.errors import FieldError, InputError
from scheduling import LIMITS

JOB_COLUMNS = ("id", "framework", "arrival_s", "executors", "duration_s", "deadline_s")
REQUIRED_COLUMNS = ("id", "arrival_s", "executors", "duration_s")
MAX_ERRORS = 100


def _number(text: str) -> int | float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("not finite")
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def workload_jobs_from_csv(text: str) -> list[dict[str, Any]]:
    """The jobs of a CSV text as scenario-document dicts; raises :class:`InputError` (path ``csv`` or ``line N, column``)."""
    if len(text) > LIMITS["document_bytes"]:
        raise InputError.single("csv", f"is larger than {int(LIMITS['document_bytes']) // 2**20} MB")
    rows = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    errors: list[FieldError] = []
    jobs: list[dict[str, Any]] = []
    try:
        header: list[str] | None = None
        for row in rows:
            if not row or all(not cell.strip() for cell in row):
                continue
            header = [cell.strip() for cell in row]
            break
        if header is None:
            raise InputError.single("csv", "is empty; the first line must be a header such as " + ",".join(
                ("id", "framework", "arrival_s", "executors", "cpu", "mem", "duration_s", "deadline_s")
            ))
        duplicates = sorted({h for h in header if header.count(h) > 1})
        if duplicates:
            raise InputError.single("csv", f"the header repeats {', '.join(duplicates)}")
        if "" in header:
            raise InputError.single("csv", "the header has an empty column name")
        missing = [c for c in REQUIRED_COLUMNS if c not in header]
        if missing:
            raise InputError.single("csv", f"the header lacks {', '.join(missing)}")
        resources = [h for h in header if h not in JOB_COLUMNS]
        if not resources:
            raise InputError.single("csv", "the header names no resource column (one per resource, e.g. cpu,mem)")
        column = {h: i for i, h in enumerate(header)}
        for row in rows:
            lineno = rows.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if len(errors) >= MAX_ERRORS:
                errors.append(FieldError("csv", "... and more errors (stopped reading)"))
                break
            if len(jobs) >= LIMITS["jobs"]:
                errors.append(FieldError("csv", f"has more than {int(LIMITS['jobs']):,} jobs"))
                break
            if len(row) != len(header):
                errors.append(FieldError(f"line {lineno}", f"has {len(row)} columns, the header {len(header)}"))
                continue
            cells = {h: row[i].strip() for h, i in column.items()}
            values: dict[str, int | float] = {}
            ok = True
            for h in ("arrival_s", "executors", *resources, "duration_s", "deadline_s"):
                if h not in cells or (h == "deadline_s" and not cells[h]):
                    continue
                try:
                    values[h] = _number(cells[h])
                except ValueError:
                    errors.append(FieldError(f"line {lineno}, {h}", f"must be a number, got {cells[h]!r}"))
                    ok = False
            if not cells["id"]:
                errors.append(FieldError(f"line {lineno}, id", "must not be empty"))
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
            if "deadline_s" in values:
                job["deadline_s"] = values["deadline_s"]
            jobs.append(job)
    except csv.Error as exc:
        raise InputError.single("csv", f"is not valid CSV: {exc}") from None
    if errors:
        raise InputError(errors)
    return jobs
