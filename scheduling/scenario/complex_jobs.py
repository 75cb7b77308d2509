"""Version 3 of the scenario: machine classes and users' multi-task ("complex") jobs (paper 004).

A VM type may name its ``machine_class`` (a label such as ``gpu`` or ``public-ip``; by default
the class is the VM type itself). Classes partition the machines, as paper 004 §V assigns each
machine of the Google trace to one class by its capacities and attributes; a class's capacity
is the sum of its machines'. A framework (a *user*, in paper 004's words) may list
``complex_jobs``: each job is one or more tasks, every task demanding an amount of every
resource on one machine class (``count`` copies of it, 1 by default), all of which must run
together; the job must run ``runs`` times (1 by default), each run taking ``duration_s``.

This module reads those fields; :mod:`.validation` calls it and checks them against the
cluster (:func:`check_complex_jobs_fit`).

>>> from scheduling.scenario.checks import Problems
>>> problems = Problems()
>>> jobs = read_complex_jobs([{"id": "etl", "tasks": [
...     {"machine_class": "hadoop", "demand": {"cpu": 1, "mem": 1}},
...     {"machine_class": "public-ip", "demand": {"cpu": 1, "mem": 0}, "count": 2}]}],
...     "frameworks[0].complex_jobs", ("cpu", "mem"), problems, [0])
>>> jobs[0].classes, jobs[0].runs, problems.items
(('hadoop', 'public-ip'), 1, [])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .checks import Problems, entries, first_of_its_name, listed, name, number, paths_with_key, vector
from .document import ComplexJob, ComplexTask
from .limits import LIMITS

if TYPE_CHECKING:
    from .document import Scenario

__all__ = ["COMPLEX_JOB_KEYS", "TASK_KEYS", "check_complex_jobs_fit", "read_complex_jobs"]

COMPLEX_JOB_KEYS = ("id", "tasks", "runs", "duration_s", "arrival_s")
TASK_KEYS = ("machine_class", "demand", "count")


def read_complex_jobs(
    raw: Any, path: str, resources: tuple[str, ...], problems: Problems, counted: list[int]
) -> tuple[ComplexJob, ...] | None:
    """A framework's ``complex_jobs`` at ``path``, or ``None`` when any is invalid.

    ``counted`` is a one-element list holding the complex jobs of the document read so far, to
    enforce ``LIMITS["complex_jobs"]`` across frameworks.
    """
    items = listed(raw, path, problems, "complex_jobs")
    if items is None:
        return None
    ok = True
    out: list[ComplexJob] = []
    seen: set[str] = set()
    time_max = LIMITS["time_s"]
    for p, j in entries(items, path, COMPLEX_JOB_KEYS, problems):
        counted[0] += 1
        if counted[0] > LIMITS["complex_jobs"]:
            problems.add(p, f"the document lists more than {int(LIMITS['complex_jobs']):,} complex jobs")
            return None
        job_id = None
        if "id" not in j:
            problems.add(f"{p}.id", "is required")
        else:
            job_id = first_of_its_name(
                name(j["id"], f"{p}.id", problems, allow_int=True), seen, f"{p}.id", "job id", problems
            )
        tasks = _read_tasks(j.get("tasks"), f"{p}.tasks", resources, problems) if "tasks" in j else None
        if "tasks" not in j:
            problems.add(f"{p}.tasks", "is required")
        runs: float | None = 1
        if "runs" in j and j["runs"] is not None:
            runs = number(j["runs"], f"{p}.runs", problems, minimum=1, maximum=LIMITS["runs"], integer=True)
        duration: float | None = 60.0
        if "duration_s" in j and j["duration_s"] is not None:
            duration = number(j["duration_s"], f"{p}.duration_s", problems, minimum=0, exclusive=True,
                              maximum=time_max)
        arrival: float | None = 0.0
        if "arrival_s" in j and j["arrival_s"] is not None:
            arrival = number(j["arrival_s"], f"{p}.arrival_s", problems, minimum=0, maximum=time_max)
        if job_id is None or tasks is None or runs is None or duration is None or arrival is None:
            ok = False
            continue
        out.append(ComplexJob(id=job_id, tasks=tasks, runs=int(runs), duration_s=duration, arrival_s=arrival))
    return tuple(out) if ok else None


def _read_tasks(
    raw: Any, path: str, resources: tuple[str, ...], problems: Problems
) -> tuple[ComplexTask, ...] | None:
    items = listed(raw, path, problems, "tasks_per_complex_job")
    if items is None:
        return None
    if not items:
        problems.add(path, "must list at least one task")
        return None
    ok = True
    out = []
    for p, t in entries(items, path, TASK_KEYS, problems):
        cls = None
        if "machine_class" not in t:
            problems.add(f"{p}.machine_class", "is required")
        else:
            cls = name(t["machine_class"], f"{p}.machine_class", problems)
        demand = None
        if "demand" not in t:
            problems.add(f"{p}.demand", "is required")
        else:
            demand = vector(t["demand"], resources, f"{p}.demand", problems, positive=False)
            if demand is not None and not any(d > 0 for d in demand):
                problems.add(f"{p}.demand", "must have some resource > 0")
                demand = None
        count: float | None = 1
        if "count" in t and t["count"] is not None:
            count = number(t["count"], f"{p}.count", problems, minimum=1,
                           maximum=LIMITS["executors_per_job"], integer=True)
        if cls is None or demand is None or count is None:
            ok = False
            continue
        out.append(ComplexTask(machine_class=cls, demand=demand, count=int(count)))
    if len(items) != len(out):
        ok = False
    return tuple(out) if ok else None


def check_complex_jobs_fit(scenario: Scenario, problems: Problems) -> None:
    """Every task names a machine class of the cluster and fits one of its machines, and every
    job fits its classes' whole capacity (else it could never run)."""
    classes = scenario.machine_classes()
    capacity = scenario.class_capacity()
    res = scenario.resources
    for k, f in enumerate(scenario.frameworks):
        for j, job in enumerate(f.complex_jobs):
            jp = f"frameworks[{k}].complex_jobs[{j}]"
            totals: dict[str, list[float]] = {}
            for t, task in enumerate(job.tasks):
                tp = f"{jp}.tasks[{t}]"
                if task.machine_class not in classes:
                    known = ", ".join(list(classes)[:8]) + (", ..." if len(classes) > 8 else "")
                    problems.add(f"{tp}.machine_class",
                                 f"unknown machine class {task.machine_class!r} (the cluster's: {known})")
                    continue
                if not any(all(d <= c + 1e-9 for d, c in zip(task.demand, v.capacity, strict=True))
                           for v in classes[task.machine_class]):
                    problems.add(f"{tp}.demand",
                                 f"does not fit on any machine of class {task.machine_class!r}")
                    continue
                acc = totals.setdefault(task.machine_class, [0.0] * len(res))
                for r, d in enumerate(task.demand):
                    acc[r] += d * task.count
            for cls, need in totals.items():
                over = [r for r, x in enumerate(need) if x > capacity[cls][r] * (1 + 1e-9)]
                if over:
                    what = " and ".join(f"{need[r]:g} {res[r]} of {capacity[cls][r]:g}" for r in over)
                    problems.add(f"{jp}.tasks", f"one run needs more of class {cls!r} than it has ({what})")


def uses_version_3(raw_vm_types: Any, raw_frameworks: Any, raw_jobs: Any = None) -> list[str]:
    """The paths of version-3 fields in raw sections (for a document that says an older version):
    machine classes, complex jobs and network sensitivities (notes §8)."""
    out = []
    for section, key, items in (("vm_types", "machine_class", raw_vm_types),
                                ("frameworks", "complex_jobs", raw_frameworks),
                                ("frameworks", "network_sensitivity", raw_frameworks),
                                ("jobs", "network_sensitivity", raw_jobs)):
        out += paths_with_key(section, key, items)
    return out
