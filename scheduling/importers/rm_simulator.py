"""Import the paper-003 authors' Spark workloads (RM-Simulator CSV) into a scenario document.

Columns: ``job-id, C`` (cores per executor), ``M`` (GB per executor), ``E`` (executors),
``T_A`` (arrival, s), ``T_est`` (estimated run time, s), ``T_D`` (deadline, **absolute**
seconds from the start). The scenario format's ``deadline_s`` is relative to arrival, so it
becomes ``T_D - T_A``.

>>> text = "job-id,C,M,E,T_A,T_est,T_D\\njob-0,4,6,7,39,153,396\\n"
>>> doc = import_rm_csv(text)
>>> doc["jobs"][0]
{'id': 'job-0', 'arrival_s': 39, 'executors': 7, 'executor': {'cpu': 4, 'mem': 6}, 'duration_s': 153, 'deadline_s': 357}
"""

from __future__ import annotations

import csv
import io
from typing import Any

from ..errors import FieldError, ScenarioError
from ..presets import preset_vm_types
from ..scenario import LIMITS

COLUMNS = ("job-id", "C", "M", "E", "T_A", "T_est", "T_D")


def _num(text: str) -> int | float:
    v = float(text)
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError("not finite")
    return int(v) if v.is_integer() else v


def import_rm_csv(
    text: str,
    *,
    name: str = "RM-Simulator workload",
    vm_types: list[dict[str, Any]] | None = None,
    with_deadlines: bool = True,
) -> dict[str, Any]:
    """Convert RM-Simulator CSV text to a scenario document (validate it with ``parse_scenario``).

    ``vm_types`` defaults to the paper's 14-VM cluster (Table 3). Errors name the CSV line
    and column (``line 5, T_D: must be a number``).
    """
    reader = csv.reader(io.StringIO(text))
    errors: list[FieldError] = []
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise ScenarioError.single("csv", "the file is empty") from None
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise ScenarioError.single("csv", f"missing columns: {', '.join(missing)} (expected {','.join(COLUMNS)})")
    col = {c: header.index(c) for c in COLUMNS}
    jobs: list[dict[str, Any]] = []
    for lineno, row in enumerate(reader, start=2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(jobs) >= LIMITS["jobs"]:
            errors.append(FieldError("csv", f"more than {int(LIMITS['jobs']):,} jobs"))
            break
        if len(row) < len(header):
            errors.append(FieldError(f"line {lineno}", f"has {len(row)} columns, expected {len(header)}"))
            continue
        values: dict[str, Any] = {}
        for c in COLUMNS[1:]:
            try:
                values[c] = _num(row[col[c]].strip())
            except ValueError:
                errors.append(FieldError(f"line {lineno}, {c}", f"must be a number, got {row[col[c]]!r}"))
        if len(values) < len(COLUMNS) - 1:
            continue
        job: dict[str, Any] = {
            "id": row[col["job-id"]].strip(),
            "arrival_s": values["T_A"],
            "executors": values["E"],
            "executor": {"cpu": values["C"], "mem": values["M"]},
            "duration_s": values["T_est"],
        }
        if with_deadlines:
            rel = values["T_D"] - values["T_A"]
            if rel <= 0:
                errors.append(FieldError(f"line {lineno}, T_D", "the absolute deadline must come after T_A"))
                continue
            job["deadline_s"] = rel
        jobs.append(job)
        if len(errors) > 100:
            break
    if errors:
        raise ScenarioError(errors)
    return {
        "version": 1,
        "name": name,
        "resources": ["cpu", "mem"],
        "vm_types": vm_types if vm_types is not None else preset_vm_types("paper-003"),
        "frameworks": [],
        "jobs": jobs,
    }
