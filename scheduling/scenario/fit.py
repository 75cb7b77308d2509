"""Whether the jobs fit the cluster: the one rule, read from per-field arrays of the jobs.

:func:`~scheduling.scenario.parse_scenario` rejects jobs that could never start even on an
empty cluster (they would block queues): a job whose executor fits no VM type its framework may
use, or that needs more executors at once than those VMs hold. The rule reads three fields of
each job (framework, executor, executors), so it is written over arrays of them
(:class:`JobShapes`): a parsed scenario's jobs give theirs (:meth:`JobShapes.of_jobs`), and a
caller that keeps a million jobs as columns (the planner's stored workloads) gives its columns
as they are and checks them with :func:`check_jobs_fit`, without making a million objects.

>>> import numpy as np
>>> from scheduling.scenario import parse_scenario
>>> cluster = parse_scenario({"vm_types": [{"name": "small", "capacity": {"cpu": 4, "mem": 16},
...     "price_per_hour": 0.24, "count": 2}], "jobs": []})
>>> shapes = JobShapes(frameworks=np.array(["default", "default"]),
...                    executor=np.array([[2.0, 4.0], [6.0, 4.0]]), executors=np.array([2, 1]))
>>> check_jobs_fit(cluster, shapes, job_id=lambda i: f"j{i}")
Traceback (most recent call last):
...
scheduling.errors.ScenarioError: jobs: 1 of 2 jobs need an executor larger than any VM type: \
largest executor 6 cpu, largest VM 4 cpu
jobs[1].executor: does not fit on any VM type the job's framework may use
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..numbers import row_numbers
from .checks import Problems
from .document import Job, Scenario
from .limits import LIMITS
from .workload_fields import job_fields

__all__ = ["JobShapes", "add_fit_problems", "check_jobs_fit", "executors_that_fit"]


def executors_that_fit(capacity: tuple[float, ...], demand: tuple[float, ...]) -> int:
    """How many executors of ``demand`` an empty machine of ``capacity`` holds.

    >>> executors_that_fit((4, 16), (1, 6))
    2
    """
    k = math.inf
    for c, d in zip(capacity, demand, strict=True):
        if d > 0:
            k = min(k, math.floor(c / d + 1e-9))
    return int(k) if k != math.inf else 0


def executor_matrix(jobs: Sequence[Job], width: int) -> np.ndarray:
    """The jobs' executor demands, one float row per job (``width`` resources each).

    Read by :func:`~scheduling.scenario.workload_fields.job_fields` as one flat list (numpy's
    discovery of a nested list's shape is about ten times slower; the values are the same).

    >>> executor_matrix([Job(id="a", arrival_s=0.0, executors=1, executor=(2.0, 4.0), duration_s=1.0)], 2)
    array([[2., 4.]])
    """
    return np.array(job_fields(jobs)[1], dtype=float).reshape(len(jobs), width)


@dataclass(frozen=True)
class JobShapes:
    """The jobs' fields the fit reads, one array each, in the jobs' order.

    ``frameworks``: each job's framework name (``"default"`` for none); ``executor``: one row
    per job, its executor's demand in the scenario's resource order (float); ``executors``: how
    many executors each job runs at once (int).
    """

    frameworks: np.ndarray
    executor: np.ndarray
    executors: np.ndarray

    @classmethod
    def of_jobs(cls, jobs: Sequence[Job]) -> JobShapes:
        width = len(jobs[0].executor) if jobs else 0
        frameworks, demands, executors = job_fields(jobs)  # each job read once, compiled
        return cls(
            frameworks=np.array(frameworks, dtype=object),
            executor=np.array(demands, dtype=float).reshape(len(jobs), width),
            executors=np.array(executors, dtype=np.int64),
        )


def _holdable(scenario: Scenario, shapes: JobShapes) -> np.ndarray:
    """How many executors of each job's shape the VMs its framework may use hold, all at once."""
    n = len(shapes.executors)
    holdable = np.zeros(n, dtype=np.int64)
    if n == 0:
        return holdable
    frameworks = {f.name: f for f in scenario.frameworks}
    names, which = np.unique(np.asarray(shapes.frameworks, dtype=object).astype(str), return_inverse=True)
    which = which.reshape(-1)
    for k, framework_name in enumerate(names):
        rows = np.flatnonzero(which == k)
        framework = frameworks.get(str(framework_name))  # an undeclared one ("default") may use all
        allowed = framework.allowed_vm_types if framework is not None else None
        types = [t for t in scenario.vm_types if allowed is None or t.name in allowed]
        # Workloads repeat executor shapes: each distinct one is measured once.
        distinct, inverse = _distinct_rows(np.asarray(shapes.executor, dtype=float)[rows])
        room = np.array(
            [
                sum(executors_that_fit(t.capacity, tuple(float(x) for x in shape)) * t.count for t in types)
                for shape in distinct
            ],
            dtype=np.int64,
        )
        holdable[rows] = room[inverse.reshape(-1)]
    return holdable


def _distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows and, for each row, the index of its own among them.

    Each row is read as one opaque value of its bytes (:func:`~scheduling.numbers.row_numbers`:
    a row of ``-0.0`` stands apart from one of ``0.0``; both are measured, alike)."""
    rows = np.ascontiguousarray(rows)
    if rows.shape[1] == 0:
        return rows[:1], np.zeros(len(rows), dtype=np.int64)
    numbers, first = row_numbers(rows)
    return rows[first], np.array(numbers, dtype=np.int64)


def _id_text(value: Any) -> Any:
    # A job id may be given as an integer (17 reads as "17": checks.name(allow_int=True)).
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def add_fit_problems(
    scenario: Scenario, shapes: JobShapes, job_id: Callable[[int], Any], problems: Problems
) -> None:
    """Add to ``problems`` every job of ``shapes`` that could never start on ``scenario``'s cluster.

    The detail of each job comes after one summary line per kind of misfit, so that a workload
    meant for a bigger cluster reads as one problem, not as 200. ``job_id(i)`` is job ``i``'s id
    (read for the one job the summary names).
    """
    holdable = _holdable(scenario, shapes)
    executors = np.asarray(shapes.executors, dtype=np.int64)
    misfits = np.flatnonzero(holdable == 0)
    crowded = np.flatnonzero((holdable > 0) & (holdable < executors))
    if not len(misfits) and not len(crowded):
        return
    for line in _misfit_summary(scenario, shapes, holdable, misfits, crowded, job_id):
        problems.add("jobs", line)
    details = np.union1d(misfits, crowded)
    room_left = max(0, int(LIMITS["errors_reported"]) - len(problems.items))
    for i in details[:room_left].tolist():
        if holdable[i] == 0:
            problems.add(f"jobs[{i}].executor", "does not fit on any VM type the job's framework may use")
        else:
            problems.add(
                f"jobs[{i}].executors",
                f"needs {int(executors[i])} executors "
                f"but the VMs it may use hold at most {int(holdable[i])} at once",
            )
    # Past the report limit a problem is only counted (Problems.add): count the rest at once.
    problems.dropped += max(0, len(details) - room_left)


def check_jobs_fit(scenario: Scenario, shapes: JobShapes, *, job_id: Callable[[int], Any]) -> None:
    """Raise :class:`~scheduling.errors.ScenarioError` when some job of ``shapes`` could never start
    on ``scenario``'s cluster (paths ``jobs[i]`` into the jobs of ``shapes``), as
    :func:`~scheduling.scenario.parse_scenario` does for its own jobs; the jobs of ``scenario``
    itself are not read (it may have none: the cluster and the frameworks of a scenario whose
    jobs are kept apart)."""
    problems = Problems()
    add_fit_problems(scenario, shapes, job_id, problems)
    problems.raise_if_any()


def _misfit_summary(
    scenario: Scenario,
    shapes: JobShapes,
    holdable: np.ndarray,
    misfits: np.ndarray,
    crowded: np.ndarray,
    job_id: Callable[[int], Any],
) -> list[str]:
    resources = scenario.resources
    total = len(shapes.executors)
    executor = np.asarray(shapes.executor, dtype=float)
    largest_vm = [max(t.capacity[r] for t in scenario.vm_types) for r in range(len(resources))]
    too_big = misfits[(executor[misfits] > np.array(largest_vm, dtype=float)).any(axis=1)]
    lines = []
    if len(too_big):
        largest_executor = [float(x) for x in executor[too_big].max(axis=0)]
        over = [r for r in range(len(resources)) if largest_executor[r] > largest_vm[r]]
        executor_part = " and ".join(f"{largest_executor[r]:g} {resources[r]}" for r in over)
        vm_part = " and ".join(f"{largest_vm[r]:g} {resources[r]}" for r in over)
        lines.append(
            f"{len(too_big):,} of {total:,} jobs need an executor larger than any VM type: "
            f"largest executor {executor_part}, largest VM {vm_part}"
        )
    if len(misfits) > len(too_big):
        lines.append(
            f"{len(misfits) - len(too_big):,} of {total:,} jobs have an executor that fits no single VM type "
            "their framework may use"
        )
    if len(crowded):
        executors = np.asarray(shapes.executors, dtype=np.int64)
        worst = int(crowded[int(np.argmax(executors[crowded] / holdable[crowded]))])
        lines.append(
            f"{len(crowded):,} of {total:,} jobs need more executors at once than the VMs they may use hold "
            f"(the most: job {_id_text(job_id(worst))!r}, {int(executors[worst])} executors "
            f"for room of {int(holdable[worst])})"
        )
    return lines
