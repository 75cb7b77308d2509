"""The document's dataclasses: VM types, frameworks, jobs, a workload and a whole scenario.

Build them with :func:`~scheduling.scenario.parse_scenario` and
:func:`~scheduling.scenario.parse_workload`, which check every field; ``to_dict`` gives the
document back: version 1 when it uses no version-2 field (task ``queues``, ``offer_policy``,
``refuse_s``, ``hold_s`` of the online sharing simulator), version 2 when it uses no
version-3 field (machine classes, complex jobs, network sensitivities), version 3 when it
uses no version-4 field (reserved and spot prices of VM types), else version 4.

>>> from scheduling.scenario import parse_workload
>>> workload = parse_workload({"jobs": [{"id": "j1", "arrival_s": 0, "executors": 2,
...                                      "executor": {"cpu": 2, "mem": 4}, "duration_s": 60}]})
>>> workload.to_dict()["jobs"][0]["executor"]
{'cpu': 2, 'mem': 4}
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..errors import FieldError
from .checks import plain
from .limits import SCENARIO_VERSION
from .options import SimulationOptions

__all__ = [
    "MARKETS",
    "ComplexJob",
    "ComplexTask",
    "Framework",
    "Job",
    "ReservedPrice",
    "Scenario",
    "SpotPrice",
    "TaskQueue",
    "VMType",
    "Workload",
]

#: The framework of a job that names none.
DEFAULT_FRAMEWORK = "default"

#: A framework's offer answer, refuse-offer seconds and holding period when it names none
#: (bin packing; Mesos' default filter of 5 s; no holding).
DEFAULT_OFFER_POLICY = "bin-packing"
DEFAULT_REFUSE_S = 5.0
DEFAULT_HOLD_S = 0.0


#: The markets a VM is billed in (version 4), in the order a VM type's machines are given to
#: them: the first ``reserved.count`` machines are reserved, the next ``spot.count`` spot, the rest
#: on demand.
MARKETS = ("reserved", "spot", "on_demand")


@dataclass(frozen=True)
class ReservedPrice:
    """Reserved (committed) VMs of a type (version 4): the type's first ``count`` machines, each
    billed ``price_per_hour`` for the whole horizon of a run, whether it is on or not."""

    price_per_hour: float
    count: int


@dataclass(frozen=True)
class SpotPrice:
    """Spot VMs of a type (version 4), billed ``price_per_hour`` per second while on.

    ``count`` spot machines follow the reserved ones (``None``: every machine beyond them). Each
    may be reclaimed: a Poisson process of ``interruptions_per_hour`` per machine (0: never).
    """

    price_per_hour: float
    count: int | None = None
    interruptions_per_hour: float = 0.0


@dataclass(frozen=True)
class VMType:
    name: str
    capacity: tuple[float, ...]  # in the scenario's resource order
    price_per_hour: float  # on demand
    count: int
    machine_class: str | None = None  # version 3; None: the VM type is a class of its own
    reserved: ReservedPrice | None = None  # version 4
    spot: SpotPrice | None = None  # version 4

    @property
    def class_name(self) -> str:
        """The machine class the VM type's machines belong to (paper 004)."""
        return self.machine_class if self.machine_class is not None else self.name

    def market_counts(self) -> dict[str, int]:
        """How many of the type's machines each market has, in :data:`MARKETS` order.

        >>> VMType("m", (4.0,), 0.24, 10, reserved=ReservedPrice(0.15, 2), spot=SpotPrice(0.07, 3)
        ...        ).market_counts()
        {'reserved': 2, 'spot': 3, 'on_demand': 5}
        >>> VMType("m", (4.0,), 0.24, 10, reserved=ReservedPrice(0.15, 2), spot=SpotPrice(0.07)
        ...        ).market_counts()
        {'reserved': 2, 'spot': 8, 'on_demand': 0}
        """
        reserved = self.reserved.count if self.reserved is not None else 0
        spot = 0
        if self.spot is not None:
            spot = self.spot.count if self.spot.count is not None else self.count - reserved
        return {"reserved": reserved, "spot": spot, "on_demand": self.count - reserved - spot}

    def market_price(self, market: str) -> float:
        """The hourly price of one machine of the type in ``market``."""
        if market == "reserved" and self.reserved is not None:
            return self.reserved.price_per_hour
        if market == "spot" and self.spot is not None:
            return self.spot.price_per_hour
        return self.price_per_hour

    @property
    def interruptions_per_hour(self) -> float:
        """The rate at which each spot machine of the type is reclaimed (0 without spot)."""
        return self.spot.interruptions_per_hour if self.spot is not None else 0.0

    @property
    def uses_version_4(self) -> bool:
        return self.reserved is not None or self.spot is not None

    def prices_doc(self) -> dict[str, Any]:
        """The ``reserved`` and ``spot`` fields as the document writes them (none when unset)."""
        out: dict[str, Any] = {}
        if self.reserved is not None:
            out["reserved"] = {"price_per_hour": self.reserved.price_per_hour, "count": self.reserved.count}
        if self.spot is not None:
            spot: dict[str, Any] = {"price_per_hour": self.spot.price_per_hour}
            if self.spot.count is not None:
                spot["count"] = self.spot.count
            if self.spot.interruptions_per_hour:
                spot["interruptions_per_hour"] = self.spot.interruptions_per_hour
            out["spot"] = spot
        return out


@dataclass(frozen=True)
class ComplexTask:
    """One task of a complex job (version 3): ``count`` copies, each demanding ``demand`` on a
    machine of ``machine_class``."""

    machine_class: str
    demand: tuple[float, ...]
    count: int = 1


@dataclass(frozen=True)
class ComplexJob:
    """A user's job of one or more tasks that must all run together (paper 004, version 3).

    It must run ``runs`` times, each run taking ``duration_s`` once started; it arrives at
    ``arrival_s``.
    """

    id: str
    tasks: tuple[ComplexTask, ...]
    runs: int = 1
    duration_s: float = 60.0
    arrival_s: float = 0.0

    @property
    def classes(self) -> tuple[str, ...]:
        """The machine classes the job needs, in order of first mention."""
        return tuple(dict.fromkeys(t.machine_class for t in self.tasks))


@dataclass(frozen=True)
class TaskQueue:
    """A queue of identical tasks of one framework (version 2; the online sharing simulator).

    The queue's ``tasks`` come in *jobs* of ``tasks_per_job`` tasks (1 by default; the last
    job holds the rest). A job's tasks join the framework's pending tasks together, by one
    arrival rule: every ``interval_s`` seconds from ``start_s``; as a Poisson process of
    ``rate_per_s`` jobs per second from ``start_s`` (drawn from the run's seed); at the
    listed ``arrival_s`` times (seconds after ``start_s``, one per job); ``sequential``: the
    first job at ``start_s``, each next one when every task of the one before has finished
    (one job at a time, as paper 000's Spark submission queues); or, with no rule, all at
    ``start_s``. Each task runs ``duration_s`` seconds once started and is never preempted.
    """

    tasks: int
    duration_s: float
    tasks_per_job: int | None = None
    task_demand: tuple[float, ...] | None = None  # None: the framework's task_demand
    start_s: float = 0.0
    interval_s: float | None = None
    rate_per_s: float | None = None
    arrival_s: tuple[float, ...] | None = None
    sequential: bool = False

    @property
    def job_size(self) -> int:
        return self.tasks_per_job or 1

    @property
    def jobs(self) -> int:
        """How many jobs the tasks make (the last one may be smaller)."""
        return math.ceil(self.tasks / self.job_size)

    @property
    def arrival_rule(self) -> str:
        """``interval``, ``rate``, ``list``, ``sequential`` or ``batch`` (all at ``start_s``)."""
        if self.interval_s is not None:
            return "interval"
        if self.rate_per_s is not None:
            return "rate"
        if self.arrival_s is not None:
            return "list"
        return "sequential" if self.sequential else "batch"


@dataclass(frozen=True)
class Framework:
    name: str
    weight: float = 1.0
    task_demand: tuple[float, ...] | None = None
    allowed_vm_types: tuple[str, ...] | None = None  # None: every type
    queues: tuple[TaskQueue, ...] = ()
    offer_policy: str = DEFAULT_OFFER_POLICY
    refuse_s: float = DEFAULT_REFUSE_S
    hold_s: float = DEFAULT_HOLD_S
    complex_jobs: tuple[ComplexJob, ...] = ()  # version 3 (paper 004's users' jobs)
    # Version 3: the network sensitivity of the framework's jobs that set none (notes §8).
    network_sensitivity: float = 0.0

    @property
    def uses_version_2(self) -> bool:
        """Whether the framework sets a field that version 1 does not have."""
        return bool(self.queues) or (self.offer_policy, self.refuse_s, self.hold_s) != (
            DEFAULT_OFFER_POLICY, DEFAULT_REFUSE_S, DEFAULT_HOLD_S)


@dataclass(frozen=True, slots=True)
class Job:
    id: str
    arrival_s: float
    executors: int
    executor: tuple[float, ...]  # per-executor demand, in resource order
    duration_s: float
    framework: str = DEFAULT_FRAMEWORK
    deadline_s: float | None = None  # relative to arrival
    # Version 3: sigma >= 0 of notes §8 (paper 003's network-bound jobs); None: the framework's.
    network_sensitivity: float | None = None

    @property
    def absolute_deadline_s(self) -> float | None:
        return None if self.deadline_s is None else self.arrival_s + self.deadline_s


def _vector(resources: tuple[str, ...], values: tuple[float, ...]) -> dict[str, float | int]:
    return {r: plain(x) for r, x in zip(resources, values, strict=True)}


def _queue_doc(resources: tuple[str, ...], q: TaskQueue) -> dict[str, Any]:
    d: dict[str, Any] = {"tasks": q.tasks}
    if q.tasks_per_job is not None:
        d["tasks_per_job"] = q.tasks_per_job
    d["duration_s"] = plain(q.duration_s)
    if q.task_demand is not None:
        d["task_demand"] = _vector(resources, q.task_demand)
    if q.start_s:
        d["start_s"] = plain(q.start_s)
    if q.interval_s is not None:
        d["interval_s"] = plain(q.interval_s)
    if q.rate_per_s is not None:
        d["rate_per_s"] = plain(q.rate_per_s)
    if q.arrival_s is not None:
        d["arrival_s"] = [plain(a) for a in q.arrival_s]
    if q.sequential:
        d["sequential"] = True
    return d


def _complex_job_doc(resources: tuple[str, ...], j: ComplexJob) -> dict[str, Any]:
    tasks = []
    for t in j.tasks:
        td: dict[str, Any] = {"machine_class": t.machine_class, "demand": _vector(resources, t.demand)}
        if t.count != 1:
            td["count"] = t.count
        tasks.append(td)
    return {"id": j.id, "tasks": tasks, "runs": j.runs, "duration_s": plain(j.duration_s),
            "arrival_s": plain(j.arrival_s)}


def _frameworks_doc(resources: tuple[str, ...], frameworks: tuple[Framework, ...]) -> list[dict[str, Any]]:
    out = []
    for f in frameworks:
        d: dict[str, Any] = {"name": f.name, "weight": plain(f.weight)}
        if f.task_demand is not None:
            d["task_demand"] = _vector(resources, f.task_demand)
        if f.allowed_vm_types is not None:
            d["allowed_vm_types"] = list(f.allowed_vm_types)
        if f.queues:
            d["queues"] = [_queue_doc(resources, q) for q in f.queues]
        if f.offer_policy != DEFAULT_OFFER_POLICY:
            d["offer_policy"] = f.offer_policy
        if f.refuse_s != DEFAULT_REFUSE_S:
            d["refuse_s"] = plain(f.refuse_s)
        if f.hold_s != DEFAULT_HOLD_S:
            d["hold_s"] = plain(f.hold_s)
        if f.complex_jobs:
            d["complex_jobs"] = [_complex_job_doc(resources, j) for j in f.complex_jobs]
        if f.network_sensitivity:
            d["network_sensitivity"] = plain(f.network_sensitivity)
        out.append(d)
    return out


def _jobs_doc(
    resources: tuple[str, ...], frameworks: tuple[Framework, ...], jobs: tuple[Job, ...]
) -> list[dict[str, Any]]:
    default_declared = any(f.name == DEFAULT_FRAMEWORK for f in frameworks)
    out = []
    for j in jobs:
        jd: dict[str, Any] = {"id": j.id}
        if j.framework != DEFAULT_FRAMEWORK or default_declared:
            jd["framework"] = j.framework
        jd.update(
            arrival_s=plain(j.arrival_s),
            executors=j.executors,
            executor=_vector(resources, j.executor),
            duration_s=plain(j.duration_s),
        )
        if j.deadline_s is not None:
            jd["deadline_s"] = plain(j.deadline_s)
        if j.network_sensitivity is not None:
            jd["network_sensitivity"] = plain(j.network_sensitivity)
        out.append(jd)
    return out


@dataclass(frozen=True)
class Workload:
    """Frameworks and their jobs, without a cluster. Build it with :func:`parse_workload`.

    ``warnings`` lists what is valid but probably not meant (a deadline shorter than the
    job's duration, ...), each with its path, like an error.
    """

    resources: tuple[str, ...]
    frameworks: tuple[Framework, ...]
    jobs: tuple[Job, ...]
    warnings: tuple[FieldError, ...] = field(default=(), compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """``{"resources", "frameworks", "jobs"}`` as a scenario document writes them."""
        return {
            "resources": list(self.resources),
            "frameworks": _frameworks_doc(self.resources, self.frameworks),
            "jobs": _jobs_doc(self.resources, self.frameworks, self.jobs),
        }


@dataclass(frozen=True)
class Scenario:
    """A validated scenario. Build it with :func:`parse_scenario`.

    ``warnings`` lists what is valid but probably not meant, each with its path.
    """

    name: str
    resources: tuple[str, ...]
    vm_types: tuple[VMType, ...]
    frameworks: tuple[Framework, ...]
    jobs: tuple[Job, ...]
    options: SimulationOptions = field(default_factory=SimulationOptions)
    description: str = ""
    warnings: tuple[FieldError, ...] = field(default=(), compare=False, repr=False)

    def machine_names(self) -> list[str]:
        """Machines are named ``<vm type>#<k>``, k = 1..count, in listed order."""
        return [f"{t.name}#{k}" for t in self.vm_types for k in range(1, t.count + 1)]

    def framework_map(self) -> dict[str, Framework]:
        """The declared frameworks, plus ``default`` (weight 1) for jobs that name none."""
        out = {f.name: f for f in self.frameworks}
        for j in self.jobs:
            if j.framework not in out:
                out[j.framework] = Framework(name=j.framework)
        return out

    def network_sensitivities(self) -> tuple[float, ...]:
        """Each job's network sensitivity (notes §8): its own, else its framework's, else 0.

        >>> from scheduling.scenario import parse_scenario
        >>> s = parse_scenario({"vm_types": [{"name": "a", "capacity": {"cpu": 4, "mem": 16},
        ...     "price_per_hour": 1}], "frameworks": [{"name": "pr", "network_sensitivity": 0.3}],
        ...     "jobs": [{"id": j, "framework": "pr", "arrival_s": 0, "executors": 1,
        ...               "executor": {"cpu": 1, "mem": 1}, "duration_s": 60, **extra}
        ...              for j, extra in (("a", {}), ("b", {"network_sensitivity": 0}))]})
        >>> s.network_sensitivities(), s.version
        ((0.3, 0.0), 3)
        """
        frameworks = self.framework_map()
        return tuple(
            j.network_sensitivity if j.network_sensitivity is not None
            else frameworks[j.framework].network_sensitivity
            for j in self.jobs
        )

    @property
    def has_market_prices(self) -> bool:
        """Whether some VM type has reserved or spot prices (version 4)."""
        return any(t.uses_version_4 for t in self.vm_types)

    def total_capacity(self) -> tuple[float, ...]:
        return tuple(sum(t.capacity[r] * t.count for t in self.vm_types) for r in range(len(self.resources)))

    def machine_classes(self) -> dict[str, list[VMType]]:
        """The machine classes (paper 004), each with its VM types, in order of first mention."""
        out: dict[str, list[VMType]] = {}
        for t in self.vm_types:
            out.setdefault(t.class_name, []).append(t)
        return out

    def class_capacity(self) -> dict[str, tuple[float, ...]]:
        """Every machine class's capacity: the sum of its machines', per resource."""
        return {
            cls: tuple(sum(t.capacity[r] * t.count for t in types) for r in range(len(self.resources)))
            for cls, types in self.machine_classes().items()
        }

    @property
    def version(self) -> int:
        """The version :meth:`to_dict` writes: the lowest that has every field the scenario
        uses (4: reserved or spot prices; 3: machine classes, complex jobs or network
        sensitivities; 2: task queues or offer answers), so that older readers keep reading
        every document they could before."""
        if any(t.uses_version_4 for t in self.vm_types):
            return SCENARIO_VERSION
        if (
            any(f.complex_jobs or f.network_sensitivity for f in self.frameworks)
            or any(t.machine_class for t in self.vm_types)
            or any(j.network_sensitivity is not None for j in self.jobs)
        ):
            return 3
        return 2 if any(f.uses_version_2 for f in self.frameworks) else 1

    def to_dict(self) -> dict[str, Any]:
        """The scenario as a document (:attr:`version`); ``parse_scenario(s.to_dict()) == s``."""
        res = self.resources
        doc: dict[str, Any] = {"version": self.version, "name": self.name}
        if self.description:
            doc["description"] = self.description
        doc["resources"] = list(res)
        doc["vm_types"] = [
            {
                "name": t.name,
                "capacity": _vector(res, t.capacity),
                "price_per_hour": t.price_per_hour,
                "count": t.count,
                **({"machine_class": t.machine_class} if t.machine_class is not None else {}),
                **t.prices_doc(),
            }
            for t in self.vm_types
        ]
        doc["frameworks"] = _frameworks_doc(res, self.frameworks)
        doc["jobs"] = _jobs_doc(res, self.frameworks, self.jobs)
        if self.options != SimulationOptions():
            doc["options"] = self.options.to_dict()
        return doc
