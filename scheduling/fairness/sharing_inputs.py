"""What an online sharing run (:func:`scheduling.fairness.sharing.share`) starts from: the
scenario's task queues and jobs expanded into units of tasks that arrive together, the
offer cycle's rules (:class:`OfferRules`), and the run's arguments checked (mode, criterion,
server selection, interval, horizon, seed, the rules and the per-framework offer-policy
overrides), every problem reported on its field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import FieldError, ScenarioError
from ..numbers import seed_error
from ..scenario import OFFER_POLICIES, Scenario
from .filling import POLICIES, server_selection

__all__ = [
    "DRF_TIES", "MINIMUM_OFFERS", "OFFERS_COUNT", "REGISTRATIONS", "SHARING_MODES", "OfferRules",
    "registration_times",
]

#: The allocation modes.
SHARING_MODES = ("offers", "characterized")
#: When the master first knows a framework: when its first task queue starts (or its first job
#: arrives; 0 without either), or every framework from the start.
REGISTRATIONS = ("queues", "start")
#: What counts in a framework's share while the allocator decides: every offer it got, in
#: whole, until the decision ends; or only the tasks it launched (and offers it holds).
OFFERS_COUNT = ("decision", "launched")
#: Which agents are offered: Mesos' ``allocatable()`` (at least 0.01 cpu or 32 MB of memory
#: unallocated), or any agent with any resource unallocated.
MINIMUM_OFFERS = ("mesos", "none")
#: How DRF orders frameworks of equal share: fewest allocations (offers) so far, then name, as
#: Mesos' sorter does; or at random.
DRF_TIES = ("allocations", "random")
#: Mesos' ``MIN_CPUS`` and ``MIN_MEM`` (``src/master/constants.hpp``), mem in GB (32 MB).
MIN_CPU = 0.01
MIN_MEM_GB = 32 / 1024


@dataclass(frozen=True)
class OfferRules:
    """The offer cycle as Mesos 1.3 and Marathon 1.4 run it (notes §4), one option per rule so
    that each can be turned off to see what it changes; the defaults are Mesos' and Marathon's.

    ``max_tasks_per_offer``: the most tasks a *greedy* framework launches on one offer
    (Marathon's ``max_tasks_per_offer``, 5; 0: as many as fit). ``registration``, ``offers_count``,
    ``minimum_offer``, ``drf_ties``: one of :data:`REGISTRATIONS`, :data:`OFFERS_COUNT`,
    :data:`MINIMUM_OFFERS`, :data:`DRF_TIES`. The last three concern the offer cycle only;
    registration also holds in characterized mode.
    """

    max_tasks_per_offer: int = 5
    registration: str = "queues"
    offers_count: str = "decision"
    minimum_offer: str = "mesos"
    drf_ties: str = "allocations"

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_tasks_per_offer": self.max_tasks_per_offer, "registration": self.registration,
            "offers_count": self.offers_count, "minimum_offer": self.minimum_offer, "drf_ties": self.drf_ties,
        }


def _rule_errors(rules: OfferRules) -> list[FieldError]:
    errors = []
    most = rules.max_tasks_per_offer
    if isinstance(most, bool) or not isinstance(most, int) or not 0 <= most <= 1_000_000:
        errors.append(
            FieldError("max_tasks_per_offer", "must be a whole number from 0 to 1,000,000 (0: no limit)")
        )
    for name, choices in (("registration", REGISTRATIONS), ("offers_count", OFFERS_COUNT),
                          ("minimum_offer", MINIMUM_OFFERS), ("drf_ties", DRF_TIES)):
        if getattr(rules, name) not in choices:
            errors.append(FieldError(name, f"must be one of {', '.join(choices)}"))
    return errors


def registration_times(scenario: Scenario, names: list[str], rule: str) -> list[float]:
    """When each framework registers with the master (notes §4): its first task queue's start
    or first job's arrival, 0 without either (the idle frameworks of paper 001 §V-D); with
    ``rule="start"`` every framework at 0.

    >>> from scheduling.scenario import parse_scenario
    >>> node = {"name": "n", "capacity": {"cpu": 1, "mem": 1}, "price_per_hour": 0}
    >>> s = parse_scenario({"vm_types": [node],
    ...     "frameworks": [{"name": "a", "task_demand": {"cpu": 1, "mem": 1},
    ...                     "queues": [{"tasks": 1, "duration_s": 1, "start_s": 30}]},
    ...                    {"name": "idle", "task_demand": {"cpu": 1, "mem": 1}}]})
    >>> registration_times(s, ["a", "idle"], "queues"), registration_times(s, ["a", "idle"], "start")
    ([30.0, 0.0], [0.0, 0.0])
    """
    if rule == "start":
        return [0.0] * len(names)
    first: dict[str, float] = {}
    for f in scenario.frameworks:
        for q in f.queues:
            first[f.name] = min(first.get(f.name, math.inf), float(q.start_s))
    for job in scenario.jobs:
        first[job.framework] = min(first.get(job.framework, math.inf), float(job.arrival_s))
    return [first.get(name, 0.0) for name in names]


# --------------------------------------------------------------------------- the workload


@dataclass
class _Workload:
    """Every task of the run, grouped in units (a queue's job or a scenario job) that arrive together."""

    framework: list[int] = field(default_factory=list)
    shape: list[int] = field(default_factory=list)
    duration: list[float] = field(default_factory=list)
    unit_tasks: list[range] = field(default_factory=list)
    unit_arrival: list[float] = field(default_factory=list)  # nan: after the unit before it
    unit_next: list[int] = field(default_factory=list)  # the unit released when this one ends, or -1
    shapes: dict[tuple[float, ...], int] = field(default_factory=dict)

    def add_unit(
        self, fw: int, demand: tuple[float, ...], tasks: int, duration: float, arrival: float
    ) -> int:
        shape = self.shapes.setdefault(demand, len(self.shapes))
        first = len(self.framework)
        self.framework.extend([fw] * tasks)
        self.shape.extend([shape] * tasks)
        self.duration.extend([duration] * tasks)
        self.unit_tasks.append(range(first, first + tasks))
        self.unit_arrival.append(arrival)
        self.unit_next.append(-1)
        return len(self.unit_tasks) - 1


def _workload(scenario: Scenario, names: list[str], rng: np.random.Generator) -> _Workload:
    w = _Workload()
    index = {name: k for k, name in enumerate(names)}
    for f in scenario.frameworks:
        for q in f.queues:
            demand = q.task_demand if q.task_demand is not None else f.task_demand
            assert demand is not None  # validation requires one
            sizes = [q.job_size] * (q.tasks // q.job_size) + (
                [q.tasks % q.job_size] if q.tasks % q.job_size else []
            )
            if q.arrival_rule == "interval":
                assert q.interval_s is not None
                times = [q.start_s + k * q.interval_s for k in range(len(sizes))]
            elif q.arrival_rule == "rate":
                assert q.rate_per_s is not None
                times = (q.start_s + np.cumsum(rng.exponential(1.0 / q.rate_per_s, len(sizes)))).tolist()
            elif q.arrival_rule == "list":
                assert q.arrival_s is not None
                times = [q.start_s + a for a in q.arrival_s]
            elif q.arrival_rule == "sequential":
                times = [q.start_s] + [math.nan] * (len(sizes) - 1)
            else:
                times = [q.start_s] * len(sizes)
            before = -1
            for size, at in zip(sizes, times, strict=True):
                unit = w.add_unit(index[f.name], demand, size, q.duration_s, at)
                if q.arrival_rule == "sequential" and before >= 0:
                    w.unit_next[before] = unit
                before = unit
    for job in scenario.jobs:
        w.add_unit(index[job.framework], job.executor, job.executors, job.duration_s, job.arrival_s)
    return w


# --------------------------------------------------------------------------- arguments


def _settings(
    scenario: Scenario,
    mode: str,
    criterion: str,
    servers: str | None,
    interval: float,
    overrides: Mapping[str, Mapping[str, Any]] | None,
    horizon: float | None,
    seed: Any = 0,
    rules: OfferRules | None = None,
) -> tuple[str, dict[str, tuple[str, float, float]]]:
    errors: list[FieldError] = _rule_errors(rules) if rules is not None else []
    if seed_error(seed) is not None:
        errors.append(FieldError("seed", str(seed_error(seed))))
    if mode not in SHARING_MODES:
        errors.append(FieldError("mode", f"unknown mode {mode!r} (choose {', '.join(SHARING_MODES)})"))
    chosen = "rrr"
    if mode == "offers":
        if criterion != "drf":
            errors.append(FieldError("criterion", "the offer cycle sorts frameworks by DRF (criterion drf)"))
        if servers not in (None, "rrr"):
            errors.append(FieldError("servers", "the offer cycle visits the agents in random order (rrr)"))
    elif mode == "characterized":
        if criterion not in POLICIES:
            errors.append(FieldError("criterion", f"unknown criterion {criterion!r} ({', '.join(POLICIES)})"))
        else:
            try:
                chosen = server_selection(criterion, servers)
            except ScenarioError as exc:
                errors.extend(exc.errors)
    if not _positive(interval):
        errors.append(FieldError("allocation_interval_s", "must be a number > 0"))
    if horizon is not None and not _positive(horizon):
        errors.append(FieldError("horizon_s", "must be a number > 0"))
    policies = {f.name: (f.offer_policy, f.refuse_s, f.hold_s) for f in scenario.frameworks}
    for name in scenario.framework_map():
        policies.setdefault(name, ("bin-packing", 5.0, 0.0))
    for name, changes in (overrides or {}).items():
        path = f"overrides.{name}"
        if name not in policies:
            errors.append(FieldError(path, f"unknown framework {name!r}"))
            continue
        if not isinstance(changes, Mapping):
            errors.append(FieldError(path, "must be an object with offer_policy, refuse_s, hold_s"))
            continue
        policy, refuse, hold = policies[name]
        for key, value in changes.items():
            if key == "offer_policy":
                if value in OFFER_POLICIES:
                    policy = value
                else:
                    errors.append(FieldError(f"{path}.{key}", f"must be one of {', '.join(OFFER_POLICIES)}"))
            elif key in ("refuse_s", "hold_s"):
                if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
                    errors.append(FieldError(f"{path}.{key}", "must be a number >= 0"))
                elif key == "refuse_s":
                    refuse = float(value)
                else:
                    hold = float(value)
            else:
                errors.append(
                    FieldError(f"{path}.{key}", "unknown field (expected offer_policy, refuse_s, hold_s)")
                )
        policies[name] = (policy, refuse, hold)
    errors.extend(workload_problems(scenario))
    if errors:
        raise ScenarioError(errors)
    return chosen, policies


def workload_problems(scenario: Scenario) -> list[FieldError]:
    """What keeps ``scenario`` from being shared: the simulator needs task queues or jobs."""
    if not any(f.queues for f in scenario.frameworks) and not scenario.jobs:
        return [FieldError("frameworks", "the sharing simulator needs a framework with task queues or jobs")]
    return []


def _positive(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 < value < math.inf
