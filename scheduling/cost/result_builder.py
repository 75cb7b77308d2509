"""Building a cost run's result document (format 2, docs/results.md) from what a run recorded.

The simulator hands over a :class:`RunRecord` (what happened: times, placements, on-intervals,
timelines, placement delays); the functions here compute the summary, the cost breakdowns and
the columnar per-job and per-interval detail that :mod:`scheduling.cost.document` reads.
Each section of the document has its own function.

>>> from scheduling import parse_scenario, simulate
>>> scenario = parse_scenario({"resources": ["cpu"], "vm_types": [{"name": "vm",
...     "capacity": {"cpu": 4}, "price_per_hour": 3.6, "count": 2}], "jobs": [{"id": "a",
...     "arrival_s": 0, "executors": 6, "executor": {"cpu": 1}, "duration_s": 100}]})
>>> doc = simulate(scenario, scheduler="edf-bfd").to_dict()  # build_result_document(record)
>>> doc["format"], doc["machines"]["name"], doc["jobs"]["placement"], doc["vm_intervals"]["machine"]
(2, ['vm#1', 'vm#2'], [[0, 4, 1, 2]], [0, 1])
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..metrics import cost_by_hour, percentile
from ..numbers import row_numbers, weighted_sum
from ..scenario import Scenario
from .billing import horizon_cost, vm_interval_cost
from .cluster import Cluster, FloatArray
from .document import FORMAT
from .job_table import JobTable
from .schedulers import SchedulerSpec
from .timeline import PENDING_ROWS, TimelineRecorder, copy_pending

__all__ = [
    "DELAY_DECIMALS",
    "Holdings",
    "Placements",
    "RunRecord",
    "SpotLosses",
    "VmInterval",
    "build_result_document",
]

#: Placement delays are wall-clock noise: samples are kept to the microsecond.
DELAY_DECIMALS = 3

#: Label of the bill no job's share covers, in ``cost_by_framework``.
UNUSED_CAPACITY = "(unused capacity)"


class VmInterval:
    """One VM on-interval: on at ``on_s``, off at ``off_s``, billed for ``billed_s`` seconds.

    A plain class: compiled (:mod:`scheduling.compiled`), its constructor is native, where a
    named tuple's is generated Python."""

    __slots__ = ("billed_s", "machine", "off_s", "on_s")

    def __init__(self, machine: int, on_s: float, off_s: float, billed_s: float) -> None:
        self.machine = machine
        self.on_s = on_s
        self.off_s = off_s
        self.billed_s = billed_s


class Holdings:
    """What jobs held of machines and when: one row per job and machine, ``executors`` of the
    job on ``machine`` from ``from_s`` to ``to_s``, in the order the holdings ended.

    Flat typed columns, 28 bytes a row: a run keeps every row until its document is built (a
    tuple in a list per job took about 200 bytes). Jobs, machines and a job's executors are
    counted in 32-bit integers (``LIMITS`` keeps each below a million). The newest rows, up to
    :data:`~scheduling.cost.timeline.PENDING_ROWS`, wait in lists and are copied into the
    columns a block at a time (appending to a typed array parses each value through CPython's
    general argument parser), as the timeline's rows are; :meth:`columns` copies the rest.

    >>> h = Holdings()
    >>> h.add(1, {0: 2, 4: 1}, from_s=0.0, to_s=10.0)
    >>> h.add(0, {3: 1}, from_s=5.0, to_s=7.5)
    >>> job, machine, executors, from_s, to_s = h.columns()
    >>> job.tolist(), machine.tolist(), executors.tolist(), to_s.tolist()
    ([1, 1, 0], [0, 4, 3], [2, 1, 1], [10.0, 10.0, 7.5])
    """

    def __init__(self) -> None:
        self._columns: tuple[array[Any], ...] = (array("i"), array("i"), array("i"), array("d"), array("d"))
        self._pending: tuple[list[Any], ...] = ([], [], [], [], [])

    def add(self, job: int, executors: dict[int, int], from_s: float, to_s: float) -> None:
        """Job ``job`` held ``executors`` (per machine, a row each in the dict's order) from
        ``from_s`` to ``to_s``."""
        jobs, machines, counts, froms, tos = self._pending
        for machine, count in executors.items():
            jobs.append(job)
            machines.append(machine)
            counts.append(count)
            froms.append(from_s)
            tos.append(to_s)
        if len(jobs) >= PENDING_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self._pending[0]:
            copy_pending(self._columns, self._pending)

    def columns(self) -> tuple[array[int], array[int], array[int], array[float], array[float]]:
        """Every row so far: the job, machine, executors, from_s and to_s columns."""
        self._flush()
        job, machine, executors, from_s, to_s = self._columns
        return job, machine, executors, from_s, to_s


class Placements:
    """Where each of ``n`` jobs started, as the document stores it: ``[machine, executors, ...]``
    pairs sorted by machine.

    The pairs of all jobs sit flat in one typed column (32-bit, as :class:`Holdings`), in the
    order the jobs started, and each job's slice of it is recorded (a dict per job took about
    250 bytes).

    >>> p = Placements(2)
    >>> p.add(1, {7: 2, 3: 1})
    >>> p.add(0, {5: 4})
    >>> p.column()
    [[5, 4], [3, 1, 7, 2]]
    """

    def __init__(self, n: int) -> None:
        self.pairs = array("i")
        self.first = np.full(n, -1, dtype=np.int64)  # where each job's pairs begin; -1 until it starts
        self.end = np.full(n, -1, dtype=np.int64)
        # The newest jobs' pairs and bounds wait in lists and are copied a block at a time, as
        # the holdings' rows are (a typed array parses each value it is given one by one).
        self._pending: list[int] = []
        self._jobs: list[int] = []
        self._bounds: list[int] = []  # each pending job's first and end
        self._size = 0  # pairs so far, copied or pending

    def add(self, job: int, assignment: dict[int, int]) -> None:
        """Job ``job`` started with ``assignment`` (executors per machine)."""
        pending, bounds = self._pending, self._bounds
        self._jobs.append(job)
        bounds.append(self._size)
        for v in sorted(assignment):
            pending.append(v)
            pending.append(assignment[v])
        self._size += 2 * len(assignment)
        bounds.append(self._size)
        if len(pending) >= PENDING_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self._jobs:
            jobs, bounds = np.array(self._jobs, dtype=np.int64), np.array(self._bounds, dtype=np.int64)
            self.first[jobs] = bounds[0::2]  # a job starts once: no index repeats
            self.end[jobs] = bounds[1::2]
            self._jobs.clear()
            self._bounds.clear()
        if self._pending:
            copy_pending((self.pairs,), (self._pending,))

    def column(self) -> list[list[int]]:
        """The ``placement`` column: each job's pairs, in job order."""
        self._flush()
        pairs = self.pairs.tolist()
        # One int object per machine, shared by every job's pairs: ``tolist`` makes one per pair
        # (28 bytes each past 256, most of a large document's placement column).
        machines = list(range(max(pairs[0::2], default=-1) + 1))
        pairs[0::2] = [machines[v] for v in pairs[0::2]]
        return [pairs[a:b] for a, b in zip(self.first.tolist(), self.end.tolist(), strict=True)]


@dataclass
class SpotLosses:
    """What reclaimed spot VMs cost a run in work (scenario version 4)."""

    n_resources: int
    interruptions: int = 0  # spot VMs reclaimed
    lost_executors: int = 0  # executors they ran, lost
    replaced: int = 0  # executors placed again
    lost_executor_s: float = 0.0  # executor-seconds of work lost
    lost_resource_s: FloatArray = field(init=False)  # resource-seconds of work lost, per resource

    def __post_init__(self) -> None:
        self.lost_resource_s = np.zeros(self.n_resources)

    def lose(self, executors: int, ran_s: float, demand: FloatArray) -> None:
        """``executors`` of one demand lost after running ``ran_s`` seconds."""
        self.lost_executors += executors
        self.lost_executor_s += executors * ran_s
        self.lost_resource_s += demand * (executors * ran_s)


@dataclass
class RunRecord:
    """What one simulation run recorded; :func:`build_result_document` turns it into the document."""

    scenario: Scenario
    spec: SchedulerSpec
    seed: int
    lower_bound: float
    cluster: Cluster
    jobs: JobTable
    rut: FloatArray
    placed_s: FloatArray
    start_s: FloatArray
    finish_s: FloatArray
    stretch: FloatArray  # each job's network stretch (notes §8): 1 unless it is network-bound
    placements: Placements  # where each job started
    holdings: Holdings  # what each job held of each machine and when
    intervals: list[VmInterval]
    interrupted: list[bool]  # per interval: ended by a spot interruption
    lost_executors: Any  # per job, executors lost to reclaimed spot VMs
    losses: SpotLosses
    timeline: TimelineRecorder
    delays_ms: Sequence[float]
    placement_stats: dict[str, int] = field(default_factory=dict)
    placement_events: list[dict[str, object]] = field(default_factory=list)

    @property
    def horizon_s(self) -> float:
        """The run's horizon: from 0 until the last job finishes (reserved VMs are billed for it)."""
        return float(self.finish_s.max()) if len(self.finish_s) else 0.0


def build_result_document(record: RunRecord) -> dict[str, Any]:
    """The JSON result document of one run (docs/results.md, format 2)."""
    scenario, jobs = record.scenario, record.jobs
    intervals = vm_interval_columns(record)
    interval_costs = vm_interval_costs(record)
    job_detail = job_columns(record)
    total_cost = 0.0
    for cost in interval_costs:  # in the order VMs were turned off, as the bill adds up
        total_cost += cost
    markets = scenario.has_market_prices
    reserved = reserved_costs(record) if markets else []
    for _, cost in reserved:
        total_cost += cost
    completion = record.finish_s - jobs.arrival_s
    met = sum(1 for ok in job_detail["met_deadline"] if ok is True)
    missed = sum(1 for ok in job_detail["met_deadline"] if ok is False)
    deadline_jobs = met + missed
    n = jobs.count
    makespan = float(record.finish_s.max()) - float(jobs.arrival_s.min()) if n else 0.0
    lower_bound = record.lower_bound
    return {
        "format": FORMAT,
        "scheduler": record.spec.spec,
        "ordering": record.spec.ordering,
        "placement": record.spec.placement,
        "options": record.spec.options.to_dict(),
        "seed": record.seed,
        "scenario_name": scenario.name,
        "resources": list(scenario.resources),
        "vm_types": [
            {"name": t.name, "price_per_hour": t.price_per_hour, "count": t.count,
             "capacity": dict(zip(scenario.resources, t.capacity, strict=True)), **t.prices_doc()}
            for t in scenario.vm_types
        ],
        "total_cost": total_cost,
        **(market_section(record, intervals, interval_costs, reserved) if markets else {}),
        "lower_bound_cost": lower_bound,
        "gap_to_lower_bound": (total_cost / lower_bound - 1.0) if lower_bound > 0 else None,
        "makespan_s": makespan,
        "jobs_total": n,
        "deadline_jobs": deadline_jobs,
        "deadline_met": met,
        "deadline_missed": missed,
        "deadline_miss_pct": 100.0 * missed / deadline_jobs if deadline_jobs else None,
        "deadline_violation_eq12_pct": 100.0 * missed / met if met else None,  # eq. 12 of paper 003
        "mean_completion_s": float(completion.mean()) if n else 0.0,
        "median_completion_s": percentile(completion, 50),
        "p95_completion_s": percentile(completion, 95),
        "mean_wait_s": float((record.start_s - jobs.arrival_s).mean()) if n else 0.0,
        **cost_breakdowns(record, intervals, interval_costs, job_detail["cost"], total_cost, reserved),
        "machines": {
            "name": list(record.cluster.names), "vm_type": record.cluster.type_of.tolist(),
            **({"market": list(record.cluster.market)} if markets else {}),
        },
        "jobs": job_detail,
        "vm_intervals": intervals,
        "timeline": record.timeline.timeline_section(),
        "fairness": record.timeline.fairness_section(jobs.framework_weight),
        "ilp": ilp_section(record),
        "scheduling_delay": scheduling_delay_section(record.delays_ms),
    }


def vm_interval_columns(record: RunRecord) -> dict[str, list[Any]]:
    """``vm_intervals``: one column per stored field; ``machine`` indexes ``machines``.

    With reserved or spot prices, ``interrupted`` says which intervals a spot interruption ended.
    """
    return {
        "machine": [interval.machine for interval in record.intervals],
        "on_s": [interval.on_s for interval in record.intervals],
        "off_s": [interval.off_s for interval in record.intervals],
        "billed_s": [interval.billed_s for interval in record.intervals],
        **({"interrupted": list(record.interrupted)} if record.scenario.has_market_prices else {}),
    }


def vm_interval_costs(record: RunRecord) -> list[float]:
    """The cost of each on-interval at the machine's marginal price (a reserved VM's on-intervals
    cost nothing beyond its reservation); not stored: readers derive it with the same rule."""
    price = record.cluster.price.tolist()
    return [vm_interval_cost(iv.billed_s, price[iv.machine]) for iv in record.intervals]


def reserved_costs(record: RunRecord) -> list[tuple[int, float]]:
    """``(machine, cost)`` of every reserved VM: its reserved price over the whole horizon."""
    cluster, horizon = record.cluster, record.horizon_s
    reserved = np.flatnonzero(cluster.reserved).tolist()
    return [(v, horizon_cost(horizon, float(cluster.rate[v]))) for v in reserved]


def job_costs(cluster: Cluster, demand: FloatArray, rut: FloatArray, holdings: Holdings) -> list[float]:
    """What each job pays: for each VM it holds, the VM's hourly cost in its market (a reserved
    VM's reserved price) for the time it holds it, times its share of the VM in the
    RUT-weighted unified form of eq. 8 (paper 003). Executors lost to a reclaimed spot VM are
    paid for until it was reclaimed, and again where they were placed next.

    Shares of co-located jobs add up to at most 1, so the attributed costs never exceed the bill.
    """
    capacity = np.where(cluster.type_capacity > 0, cluster.type_capacity, np.inf)
    job, machine, executors, held_from, held_to = (np.asarray(c) for c in holdings.columns())
    costs = np.zeros(len(demand))
    if not len(job):
        return costs.tolist()
    # A share depends on the executor's demand, their number and the VM type only: computed
    # once per such triple (jobs' demands repeat: few distinct ones), with the same arithmetic.
    shape_of = np.array(row_numbers(demand)[0], dtype=np.int64)
    row_type = cluster.type_of[machine]
    n_types = len(cluster.type_capacity)
    key = (shape_of[job].astype(np.int64) * (int(executors.max()) + 1) + executors) * n_types + row_type
    triples, first, triple_of = np.unique(key, return_index=True, return_inverse=True)
    weights = rut.tolist()
    shares = np.empty(len(triples))
    for u, r in enumerate(first.tolist()):
        amounts = (demand[int(job[r])] * int(executors[r]) / capacity[int(row_type[r])]).tolist()
        shares[u] = min(weighted_sum(amounts, weights), 1.0)
    # ``cost += rate * held / 3600 * share`` per row, in the order the rows were recorded (each
    # job's holdings in the order they ended): ``np.add.at`` adds repeated indices one after
    # another, so each job's sum is the same float as a loop's.
    np.add.at(costs, job, cluster.rate[machine] * (held_to - held_from) / 3600.0 * shares[triple_of.ravel()])
    return costs.tolist()


def job_columns(record: RunRecord) -> dict[str, Any]:
    """``jobs``: one column per field, placements as flat ``[machine, executors, ...]`` pairs.

    ``wait_s`` and ``completion_s`` are not stored: readers derive them
    (:func:`scheduling.cost.document.job_column`). When some job is network-bound (notes §8),
    ``network_sensitivity`` and ``stretch`` follow (the job's sigma and how much longer than its
    ``duration_s`` it ran); a document without them had no network-bound job, so every stretch
    was 1 (and its layout is the one it always had).
    """
    scenario, jobs = record.scenario, record.jobs
    finish_s: list[float] = record.finish_s.tolist()
    met_deadline: list[bool | None] = [
        None if deadline is None else finish_s[i] <= deadline + 1e-9
        for i, deadline in enumerate(jobs.deadline_s)
    ]
    # The scenario's values, from the engine's arrays of them (the parser makes each a float,
    # or an int for ``executors``: ``tolist`` gives them back as they were).
    framework_names = jobs.framework_names
    return {
        "id": list(jobs.ids),
        "framework": [framework_names[k] for k in jobs.framework.tolist()],
        "arrival_s": jobs.arrival_s.tolist(),
        "placed_s": record.placed_s.tolist(),
        "start_s": record.start_s.tolist(),
        "finish_s": finish_s,
        "executors": jobs.executors.tolist(),
        "executor": {r: jobs.demand[:, k].tolist() for k, r in enumerate(scenario.resources)},
        "deadline_s": list(jobs.deadline_s),
        "met_deadline": met_deadline,
        "cost": job_costs(record.cluster, jobs.demand, record.rut, record.holdings),
        "placement": record.placements.column(),
        **(
            {"network_sensitivity": jobs.network_sensitivity.tolist(), "stretch": record.stretch.tolist()}
            if jobs.network_bound
            else {}
        ),
        **({"lost_executors": [int(k) for k in record.lost_executors]} if _spot_reclaims(record) else {}),
    }


def _spot_reclaims(record: RunRecord) -> bool:
    """Whether some spot VM of the scenario may be reclaimed (a rate of interruptions > 0)."""
    return bool((record.cluster.interruptions_per_hour > 0).any())


def market_section(
    record: RunRecord,
    intervals: dict[str, list[Any]],
    interval_costs: list[float],
    reserved: list[tuple[int, float]],
) -> dict[str, Any]:
    """The cost split by market, the reserved VMs' idle cost and the spot VMs' interruptions
    (only in the documents of scenarios with reserved or spot prices, version 4).

    ``reserved_idle_cost``: each reserved VM's price for the part of the horizon it was off.
    """
    cluster, horizon = record.cluster, record.horizon_s
    by_market = {"reserved": 0.0, "on_demand": 0.0, "spot": 0.0}
    for machine, cost in zip(intervals["machine"], interval_costs, strict=True):
        by_market[cluster.market[machine]] += cost
    on_time = dict.fromkeys((v for v, _ in reserved), 0.0)
    for machine, on, off in zip(intervals["machine"], intervals["on_s"], intervals["off_s"], strict=True):
        if machine in on_time:
            on_time[machine] += off - on
    idle = 0.0
    for v, cost in reserved:
        by_market["reserved"] += cost
        idle += horizon_cost(max(0.0, horizon - on_time[v]), float(cluster.rate[v]))
    losses = record.losses
    return {
        "horizon_s": horizon,
        "cost_by_market": by_market,
        "reserved_idle_cost": idle,
        "spot_interruptions": {
            "interruptions": losses.interruptions,
            "lost_executors": losses.lost_executors,
            "replaced_executors": losses.replaced,
            "lost_executor_s": losses.lost_executor_s,
            "lost_resource_s": dict(
                zip(record.scenario.resources, losses.lost_resource_s.tolist(), strict=True)
            ),
        },
    }


def cost_breakdowns(
    record: RunRecord,
    intervals: dict[str, list[Any]],
    interval_costs: list[float],
    job_cost: list[float],
    total_cost: float,
    reserved: Sequence[tuple[int, float]] = (),
) -> dict[str, Any]:
    """VM-hours and cost per VM type, cost per framework (and unused capacity), cost per hour.

    A reserved VM counts its whole horizon, billed, in its type's VM-hours and cost (and its
    on-intervals none).
    """
    cluster = record.cluster
    machines, billed_s = intervals["machine"], intervals["billed_s"]
    # Sums per type in the intervals' order (``np.add.at`` adds repeated indices one after
    # another: the floats of a loop's ``+=``), reserved VMs' on-intervals left out.
    n_types = len(cluster.type_names)
    machine = np.asarray(machines, dtype=np.int64)
    counted = ~cluster.reserved[machine] if reserved else np.ones(len(machine), dtype=bool)
    interval_type = cluster.type_of[machine[counted]]
    hours = np.zeros(n_types)
    np.add.at(hours, interval_type, np.asarray(billed_s, dtype=float)[counted] / 3600.0)
    type_cost = np.zeros(n_types)
    np.add.at(type_cost, interval_type, np.asarray(interval_costs, dtype=float)[counted])
    vm_hours = dict(zip(cluster.type_names, hours.tolist(), strict=True))
    cost_by_type = dict(zip(cluster.type_names, type_cost.tolist(), strict=True))
    on_s, off_s, hour_billed, hour_cost = intervals["on_s"], intervals["off_s"], billed_s, interval_costs
    if reserved:
        horizon = record.horizon_s
        for v, cost in reserved:
            name = cluster.type_names[int(cluster.type_of[v])]
            vm_hours[name] += horizon / 3600.0
            cost_by_type[name] += cost
        on_s = [*on_s, *(0.0 for _ in reserved)]
        off_s = [*off_s, *(horizon for _ in reserved)]
        hour_billed = [*hour_billed, *(horizon for _ in reserved)]
        hour_cost = [*hour_cost, *(cost for _, cost in reserved)]
    framework_cost = np.zeros(len(record.jobs.framework_names))
    np.add.at(framework_cost, record.jobs.framework, np.asarray(job_cost, dtype=float))
    cost_by_framework = dict(zip(record.jobs.framework_names, framework_cost.tolist(), strict=True))
    cost_by_framework[UNUSED_CAPACITY] = max(0.0, total_cost - sum(cost_by_framework.values()))
    return {
        "vm_hours_by_type": vm_hours,
        "cost_by_vm_type": cost_by_type,
        "cost_by_framework": cost_by_framework,
        "cost_by_hour": cost_by_hour(on_s, off_s, hour_billed, hour_cost),
    }


def ilp_section(record: RunRecord) -> dict[str, Any] | None:
    """Decisions and fallbacks to BFD of the exact placement; ``None`` for other placements."""
    if record.spec.placement != "ilp":
        return None
    return {
        "decisions": int(record.placement_stats.get("ilp_decisions", 0)),
        "fallbacks": int(record.placement_stats.get("ilp_fallbacks", 0)),
        "fallback_jobs": [e.get("job") for e in record.placement_events if e.get("kind") == "ilp_fallback"],
        "method": record.spec.options.ilp_method,
    }


def scheduling_delay_section(delays_ms: Sequence[float]) -> dict[str, Any]:
    """Wall-clock time of each placement call: summary figures, and samples to the microsecond."""
    delays = np.asarray(delays_ms, dtype=float)
    return {
        "decisions": len(delays),
        "mean_ms": float(np.mean(delays)) if len(delays) else 0.0,
        "median_ms": percentile(delays, 50),
        "p99_ms": percentile(delays, 99),
        "max_ms": float(delays.max()) if len(delays) else 0.0,
        # numpy's rounding (scaled, rounded half to even): wall-clock samples, not results.
        "samples_ms": np.round(delays, DELAY_DECIMALS).tolist(),
    }
