"""Import the paper-003 authors' Spark workloads (RM-Simulator CSV) into a scenario document.

Columns: ``job-id, C`` (cores per executor), ``M`` (GB per executor), ``E`` (executors),
``T_A`` (arrival, s), ``T_est`` (estimated run time, s), ``T_D`` (deadline, **absolute**
seconds from the start). The scenario format's ``deadline_s`` is relative to arrival, so it
becomes ``T_D - T_A``.

>>> text = "job-id,C,M,E,T_A,T_est,T_D\\njob-0,4,6,7,39,153,396\\n"
>>> doc = import_rm_csv(text)
>>> job = doc["jobs"][0]
>>> job["id"], job["executors"], job["executor"], job["arrival_s"], job["duration_s"], job["deadline_s"]
('job-0', 7, {'cpu': 4, 'mem': 6}, 39, 153, 357)
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any

from ..collector import collector_paused
from ..errors import FieldError, ScenarioError
from ..params import Param
from ..presets import preset_vm_types
from ..scenario import LIMITS
from .registry import Imported, Importer, bounded_lines, number_from_text, register, row_path

__all__ = ["COLUMNS", "import_rm_csv", "read_rm_csv"]

COLUMNS = ("job-id", "C", "M", "E", "T_A", "T_est", "T_D")
#: Where each field of a job comes from, for errors found after the import.
_SOURCE_COLUMNS = {
    "id": "job-id",
    "executor.cpu": "C",
    "executor.mem": "M",
    "executor": "C, M",
    "executors": "E",
    "arrival_s": "T_A",
    "duration_s": "T_est",
    "deadline_s": "T_D",
}
MAX_ERRORS = 100


def read_rm_csv(lines: Iterable[str], options: Mapping[str, Any]) -> Imported:
    """Read RM-Simulator CSV lines into jobs; ``options["with_deadlines"]`` keeps ``T_D``.

    Errors name the file's line, the job and the column (``line 5 (job job-3), T_D: ...``).
    """
    with_deadlines = bool(options.get("with_deadlines", True))
    reader = csv.reader(bounded_lines(lines, "csv"))
    errors: list[FieldError] = []
    try:
        try:
            header = [h.strip() for h in next(reader)]
        except StopIteration:
            raise ScenarioError.single("csv", "the file is empty") from None
        missing = [c for c in COLUMNS if c not in header]
        if missing:
            raise ScenarioError.single(
                "csv", f"missing columns: {', '.join(missing)} (expected {','.join(COLUMNS)})"
            )
        col = {c: header.index(c) for c in COLUMNS}
        id_column = col["job-id"]
        numbered = [(c, col[c]) for c in COLUMNS[1:]]
        indices = [i for _, i in numbered]
        width = len(header)
        most_jobs = LIMITS["jobs"]
        jobs: list[dict[str, Any]] = []
        origins: list[str] = []
        for row in reader:
            line = f"line {reader.line_num}"
            if not row or (not row[0].strip() and all(not c.strip() for c in row)):
                continue
            if len(jobs) >= most_jobs:
                errors.append(FieldError("csv", f"more than {int(most_jobs):,} jobs"))
                break
            if len(row) < width:
                errors.append(FieldError(line, f"has {len(row)} columns, expected {width}"))
                continue
            job_id = row[id_column].strip()
            try:  # the numbered columns in COLUMNS' order
                cores, gb, executors, arrival, estimate, deadline = [
                    number_from_text(row[i]) for i in indices
                ]
            except ValueError:
                for c, i in numbered:
                    try:
                        number_from_text(row[i])
                    except ValueError:
                        path = row_path(line, job_id, c)
                        errors.append(FieldError(path, f"must be a number, got {row[i]!r}"))
                continue
            job: dict[str, Any] = {
                "id": job_id,
                "arrival_s": arrival,
                "executors": executors,
                "executor": {"cpu": cores, "mem": gb},
                "duration_s": estimate,
            }
            if with_deadlines:
                relative = deadline - arrival
                if relative <= 0:
                    errors.append(
                        FieldError(row_path(line, job_id, "T_D"), "the absolute deadline must come after T_A")
                    )
                    continue
                job["deadline_s"] = relative
            jobs.append(job)
            origins.append(line)
            if len(errors) > MAX_ERRORS:
                break
    except csv.Error as exc:
        raise ScenarioError.single("csv", f"is not valid CSV: {exc}") from None
    if errors:
        raise ScenarioError(errors)
    return Imported(
        document={"resources": ["cpu", "mem"], "frameworks": [], "jobs": jobs},
        origins=tuple(origins),
        columns=_SOURCE_COLUMNS,
    )


@collector_paused()
def import_rm_csv(
    text: str,
    *,
    name: str = "RM-Simulator workload",
    vm_types: list[dict[str, Any]] | None = None,
    with_deadlines: bool = True,
) -> dict[str, Any]:
    """Convert RM-Simulator CSV text to a scenario document (validate it with ``parse_scenario``).

    ``vm_types`` defaults to the paper's 14-VM cluster (Table 3). Errors name the CSV line,
    the job and the column (``line 5 (job job-3), T_D: must be a number``).
    """
    imported = read_rm_csv(io.StringIO(text), {"with_deadlines": with_deadlines})
    return {
        "version": 1,
        "name": name,
        "resources": imported.document["resources"],
        "vm_types": vm_types if vm_types is not None else preset_vm_types("paper-003"),
        "frameworks": imported.document["frameworks"],
        "jobs": imported.jobs,
    }


def _looks_like_rm_csv(first_line: str) -> bool:
    header = {cell.strip() for cell in first_line.lstrip("\ufeff").split(",")}
    return set(COLUMNS) <= header


IMPORTER = register(
    Importer(
        name="rm-simulator",
        label="Paper-003 RM-Simulator (job-id,C,M,E,T_A,T_est,T_D)",
        file_types=(".csv",),
        read=read_rm_csv,
        line_per_job=True,
        options=(
            Param(
                "with_deadlines",
                "boolean",
                "Deadlines",
                "Give each job the deadline T_D - T_A (off: no deadlines).",
                default=True,
            ),
        ),
        detect=_looks_like_rm_csv,
        help="The paper-003 authors' Spark jobs: cores C and GB M per executor, E executors, arrival T_A, "
        "estimated run time T_est and absolute deadline T_D (seconds).",
    )
)
