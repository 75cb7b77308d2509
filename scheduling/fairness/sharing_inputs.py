"""What an online sharing run (:func:`scheduling.fairness.sharing.share`) starts from: the
scenario's task queues and jobs expanded into units of tasks that arrive together, and the
run's arguments checked (mode, criterion, server selection, interval, horizon, seed and the
per-framework offer-policy overrides), every problem reported on its field.
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

__all__ = ["SHARING_MODES"]

#: The allocation modes.
SHARING_MODES = ("offers", "characterized")


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
) -> tuple[str, dict[str, tuple[str, float, float]]]:
    errors: list[FieldError] = []
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
    if not any(f.queues for f in scenario.frameworks) and not scenario.jobs:
        errors.append(
            FieldError("frameworks", "the sharing simulator needs a framework with task queues or jobs")
        )
    if errors:
        raise ScenarioError(errors)
    return chosen, policies


def _positive(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 < value < math.inf
