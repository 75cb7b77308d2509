"""What every trace importer shares: which jobs are kept, their deadlines, the cluster, the report.

Public traces (SWIM, Google 2011 and 2019, Alibaba 2018) are read as streams of lines and
turned into scenario jobs by each format's own rule (:mod:`.swim`, :mod:`.google2011`, ...).
The rules here are the same for all of them and declared once, as
:class:`~scheduling.params.Param` (:data:`SELECTION_PARAMS`, :data:`DEADLINE_PARAMS`,
:data:`PRICE_PARAMS`), so the command line's flags, ``--option key=value`` and the planner's
form fields come from the same declarations:

* **which jobs** (:class:`Selection`): a job is kept when it arrives in the time window
  ``[start_s, start_s + window_s)`` of the trace (arrivals are then counted from ``start_s``),
  when a seeded draw of its id falls below ``sample`` (a hash of the seed and the id, so the
  same seed keeps the same jobs whatever the order or the window), and while fewer than
  ``max_jobs`` jobs have been admitted (the cap counts admitted jobs; one dropped later, as
  killed or too large for the cluster, is not replaced);
* **deadlines** (:func:`deadline_of`): no public trace has any; ``deadline=none`` (the
  default) gives none, ``factor`` gives ``deadline_factor`` x the job's duration after its
  arrival, ``range`` a factor drawn per job from ``[deadline_low, deadline_high]`` by the same
  seeded hash;
* **the cluster** (:func:`vm_types_of_machines`): machines grouped by capacity into VM types
  priced per core-hour and GB-hour; a job that cannot start on the cluster (its executor
  fits no VM type, or it needs more executors at once than all the VMs hold) is dropped and
  counted (:class:`ClusterFit`), so the import always validates;
* **the report** (:class:`Report`): the counts of jobs dropped by each rule and the trace's
  features left out (dependencies, DAGs), as warnings of the :class:`~.registry.Imported`.

>>> options = {"start_s": 100, "window_s": 50, "sample": 1.0, "seed": 0, "max_jobs": 2}
>>> selection, report = Selection(options), Report()
>>> [selection.admit(t, report) for t in (90, 100, 120, 149, 150)]
[False, True, True, False, False]
>>> report.warnings()[0].message
'1 job dropped: arrived before the window (--start-s)'
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import FieldError
from ..params import Param, seed_param
from ..presets import preset_vm_types
from ..scenario import DEFAULT_RESOURCES, LIMITS, executors_that_fit

__all__ = [
    "DEADLINE_PARAMS",
    "PRICE_PARAMS",
    "SELECTION_PARAMS",
    "ClusterFit",
    "Report",
    "Selection",
    "cluster_of",
    "deadline_of",
    "seeded_unit",
    "trace_job",
    "vm_types_of_machines",
]

_MAX_JOBS = int(LIMITS["jobs"])

SELECTION_PARAMS: tuple[Param, ...] = (
    Param(
        "start_s",
        "number",
        "Window start",
        "Keep jobs that arrive from this second of the trace on; arrivals are counted from it.",
        default=0.0,
        unit="s",
        minimum=0,
        maximum=LIMITS["time_s"],
        flag="--start-s",
    ),
    Param(
        "window_s",
        "number",
        "Window length",
        "Keep jobs that arrive within this many seconds of the "
        "window start (empty: to the end of the trace).",
        unit="s",
        minimum=0,
        exclusive_minimum=True,
        maximum=LIMITS["time_s"],
        flag="--window-s",
    ),
    Param(
        "sample",
        "number",
        "Sample",
        "Keep this share of the jobs, drawn by a seeded hash of each job's id (1: all).",
        default=1.0,
        minimum=0,
        exclusive_minimum=True,
        maximum=1,
        flag="--sample",
    ),
    seed_param("The seed of the sample and of drawn deadlines.", flag="--seed"),
    Param(
        "max_jobs",
        "integer",
        "Most jobs",
        "Stop admitting jobs after this many (in trace order).",
        default=_MAX_JOBS,
        minimum=1,
        maximum=_MAX_JOBS,
        flag="--max-jobs",
    ),
)

DEADLINE_PARAMS: tuple[Param, ...] = (
    Param(
        "deadline",
        "choice",
        "Deadlines",
        "The trace has none: none; factor (deadline_factor x the "
        "duration after arrival); range (a factor drawn per job, seeded, from deadline_low to "
        "deadline_high).",
        default="none",
        choices=("none", "factor", "range"),
    ),
    Param(
        "deadline_factor",
        "number",
        "Deadline factor",
        "deadline=factor: the deadline is this many times the job's duration after its arrival.",
        default=2.0,
        minimum=1,
        maximum=1000,
    ),
    Param(
        "deadline_low",
        "number",
        "Deadline factor, lowest",
        "deadline=range: the smallest factor drawn.",
        default=1.5,
        minimum=1,
        maximum=1000,
    ),
    Param(
        "deadline_high",
        "number",
        "Deadline factor, highest",
        "deadline=range: the largest factor drawn.",
        default=3.0,
        minimum=1,
        maximum=1000,
    ),
)


def _paper003_price_per_core_hour() -> float:
    """The cheapest price per core-hour of paper 003's VM types (Table 3: AWS Sydney on-demand)."""
    return float(min(t["price_per_hour"] / t["capacity"]["cpu"] for t in preset_vm_types("paper-003")))


PRICE_PARAMS: tuple[Param, ...] = (
    Param(
        "price_per_cpu_hour",
        "number",
        "Price per core-hour",
        "A VM type made from the trace's machines "
        "costs this per core and hour (the trace has no prices; default paper 003's AWS price).",
        default=round(_paper003_price_per_core_hour(), 6),
        minimum=0,
        maximum=1e4,
    ),
    Param(
        "price_per_gb_hour",
        "number",
        "Price per GB-hour",
        "... plus this per GB of memory and hour.",
        default=0.0,
        minimum=0,
        maximum=1e4,
    ),
)


def seeded_unit(seed: int, key: str, salt: str = "") -> float:
    """A number in [0, 1) drawn from ``seed`` and ``key`` alone (the same whatever the order read).

    >>> seeded_unit(0, "job-1") == seeded_unit(0, "job-1") != seeded_unit(1, "job-1")
    True
    """
    digest = hashlib.blake2b(f"{seed}\0{salt}\0{key}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


@dataclass
class Report:
    """What an import left out and why: jobs dropped by each rule, features of the trace ignored.

    ``vm_types`` is the cluster made from the trace's machines, once they are read;
    ``fallback_vm_types`` the caller's cluster for a trace that brings none (the command
    line's ``--preset``).
    """

    vm_types: list[dict[str, Any]] | None = None
    fallback_vm_types: list[dict[str, Any]] | None = None
    dropped: Counter[str] = field(default_factory=Counter)
    notes: dict[tuple[str, str], int | None] = field(default_factory=dict)

    def drop(self, reason: str, n: int = 1) -> None:
        self.dropped[reason] += n

    def note(self, path: str, message: str) -> None:
        """A feature of the trace the import ignores (said once)."""
        self.notes.setdefault((path, message), None)

    def count(self, path: str, what: str, n: int = 1) -> None:
        """``n`` more things the import ignores: said once, as ``<total> <what>``."""
        self.notes[(path, what)] = (self.notes.get((path, what)) or 0) + n

    def warnings(self) -> tuple[FieldError, ...]:
        out = [
            FieldError(path, message if n is None else f"{n:,} {message}")
            for (path, message), n in self.notes.items()
        ]
        for reason, n in self.dropped.items():
            out.append(FieldError("import", f"{n:,} job{'s' if n != 1 else ''} dropped: {reason}"))
        return tuple(out)


def cluster_of(report: Report, vm_types: Sequence[Mapping[str, Any]] | None) -> list[dict[str, Any]] | None:
    """The cluster of an import: the caller's VM types, else those made from the trace's
    machines (read before its jobs), else the caller's fallback, else none."""
    if vm_types is not None:
        return [dict(t) for t in vm_types]
    return report.vm_types if report.vm_types is not None else report.fallback_vm_types


class Selection:
    """The time window, the seeded sample and the cap, applied as jobs arrive (see the module)."""

    def __init__(self, options: Mapping[str, Any]):
        self.start_s = float(options["start_s"])
        window = options.get("window_s")
        self.end_s = math.inf if window is None else self.start_s + float(window)
        self.sample = float(options["sample"])
        self.seed = int(options["seed"])
        self.max_jobs = int(options["max_jobs"])
        self.admitted = 0

    def past(self, time_s: float) -> bool:
        """Whether ``time_s`` is at or after the window's end (or the cap is reached): a trace
        in time order admits no job from here on."""
        return time_s >= self.end_s or self.admitted >= self.max_jobs

    def admit(self, time_s: float, report: Report, key: str = "") -> bool:
        """Whether a job arriving at ``time_s`` (seconds of the trace) with id ``key`` is kept."""
        if time_s < self.start_s:
            report.drop("arrived before the window (--start-s)")
            return False
        if time_s >= self.end_s:
            report.drop("arrived after the window (--start-s + --window-s)")
            return False
        if not self.sampled(key):
            self.drop_unsampled(report)
            return False
        if self.admitted >= self.max_jobs:
            report.drop(f"over the cap (--max-jobs {self.max_jobs:,})")
            return False
        self.admitted += 1
        return True

    def sampled(self, key: str) -> bool:
        """Whether the job ``key`` is in the seeded sample (a property of the job alone)."""
        return self.sample >= 1 or seeded_unit(self.seed, key, "sample") < self.sample

    def drop_unsampled(self, report: Report, n: int = 1) -> None:
        report.drop(f"not in the sample (--sample {self.sample:g} --seed {self.seed})", n)

    def arrival(self, time_s: float) -> float:
        """A trace time as an arrival of the scenario: seconds from the window's start."""
        return round(time_s - self.start_s, 6)


def deadline_of(options: Mapping[str, Any], key: str, duration_s: float) -> float | None:
    """The deadline (seconds after arrival) of job ``key`` by the rule ``options["deadline"]``.

    >>> deadline_of({"deadline": "factor", "deadline_factor": 2.0}, "j1", 30.0)
    60.0
    >>> opts = {"deadline": "range", "deadline_low": 1.5, "deadline_high": 3.0, "seed": 0}
    >>> 45 <= deadline_of(opts, "j1", 30.0) <= 90
    True
    """
    rule = options.get("deadline", "none")
    if rule == "factor":
        factor = float(options["deadline_factor"])
    elif rule == "range":
        low, high = float(options["deadline_low"]), float(options["deadline_high"])
        factor = low + (max(high, low) - low) * seeded_unit(int(options["seed"]), key, "deadline")
    else:
        return None
    return round(factor * duration_s, 6)


def trace_job(
    options: Mapping[str, Any],
    *,
    job_id: str,
    arrival_s: float,
    executors: int,
    executor: Mapping[str, float],
    duration_s: float,
) -> dict[str, Any]:
    """A scenario job with the deadline of the rule (numbers rounded to the microsecond, whole
    ones written as integers)."""
    duration = _plain(duration_s)
    job: dict[str, Any] = {
        "id": job_id,
        "arrival_s": _plain(arrival_s),
        "executors": executors,
        "executor": {r: _plain(v) for r, v in executor.items()},
        "duration_s": duration,
    }
    deadline = deadline_of(options, job_id, duration)
    if deadline is not None:
        job["deadline_s"] = _plain(deadline)
    return job


def _plain(value: float) -> int | float:
    rounded = round(float(value), 6)
    return int(rounded) if rounded.is_integer() and abs(rounded) < 2**53 else rounded


class ClusterFit:
    """How many executors of a size the whole cluster holds at once (``None``: no cluster known).

    A job that cannot start on an empty cluster would be refused by the scenario's validation;
    a trace import drops it instead and counts it (:meth:`keeps`).
    """

    def __init__(
        self, vm_types: Sequence[Mapping[str, Any]] | None, resources: Sequence[str] = DEFAULT_RESOURCES
    ):
        self.resources = tuple(resources)
        self.types: list[tuple[tuple[float, ...], int]] | None = None
        self._cache: dict[tuple[float, ...], int] = {}
        if vm_types is None:
            return
        self.types = []
        for t in vm_types:
            try:
                capacity = tuple(float(t["capacity"].get(r, 0)) for r in self.resources)
                count = int(t.get("count", 1))
            except (AttributeError, KeyError, TypeError, ValueError):
                continue  # the scenario's validation names what is wrong with it
            self.types.append((capacity, count))

    def holds(self, executor: Mapping[str, float]) -> int | None:
        if self.types is None:
            return None
        demand = tuple(float(executor.get(r, 0)) for r in self.resources)
        if demand not in self._cache:
            self._cache[demand] = sum(executors_that_fit(c, demand) * n for c, n in self.types)
        return self._cache[demand]

    def keeps(self, job: Mapping[str, Any], report: Report) -> bool:
        """Whether ``job`` can start on the cluster; else it is counted as dropped."""
        if job["executors"] > LIMITS["executors_per_job"]:
            report.drop(f"more than {int(LIMITS['executors_per_job']):,} executors")
            return False
        if job["arrival_s"] + job["duration_s"] > LIMITS["time_s"]:
            report.drop(f"ends later than {LIMITS['time_s']:g} s")
            return False
        room = self.holds(job["executor"])
        if room is None:
            return True
        if room == 0:
            report.drop("its executor fits no VM type of the cluster")
            return False
        if room < job["executors"]:
            report.drop("needs more executors at once than the cluster holds")
            return False
        return True


def vm_types_of_machines(
    machines: Counter[tuple[float, float]],
    options: Mapping[str, Any],
    *,
    prefix: str,
    report: Report | None = None,
) -> list[dict[str, Any]]:
    """VM types of machines counted by capacity ``(cores, GB)``: one type per capacity, named
    ``<prefix>-<cores>c-<GB>g``, priced ``price_per_cpu_hour`` x cores + ``price_per_gb_hour`` x GB;
    the most common capacities first, at most the scenario's limit of VM types (``report`` says
    what is left out).

    >>> vm_types_of_machines(Counter({(16.0, 32.0): 3}), {"price_per_cpu_hour": 0.06, "price_per_gb_hour": 0},
    ...                      prefix="g")
    [{'name': 'g-16c-32g', 'capacity': {'cpu': 16.0, 'mem': 32.0}, 'price_per_hour': 0.96, 'count': 3}]
    """
    out: list[dict[str, Any]] = []
    for (cpu, mem), count in sorted(machines.items(), key=lambda kv: (-kv[1], kv[0])):
        price = cpu * float(options["price_per_cpu_hour"]) + mem * float(options["price_per_gb_hour"])
        out.append(
            {
                "name": f"{prefix}-{cpu:g}c-{mem:g}g",
                "capacity": {"cpu": cpu, "mem": mem},
                "price_per_hour": round(price, 6),
                "count": count,
            }
        )
    limit = int(LIMITS["vm_types"])
    if len(out) > limit and report is not None:
        left = sum(int(t["count"]) for t in out[limit:])
        report.note(
            "machines",
            f"{len(out) - limit:,} capacities held by the fewest machines ({left:,}) are "
            f"left out: a scenario has at most {limit:,} VM types",
        )
    return out[:limit]
