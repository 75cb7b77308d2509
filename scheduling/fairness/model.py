"""The fairness engine's view of a scenario: servers, frameworks, demands, weights, allowances.

Papers 000 and 001 (notes §1-5) speak of frameworks ``n`` with a per-task demand ``d[n][r]``
and a weight ``phi[n]``, servers ``i`` with a capacity ``c[i][r]`` and server preferences
``delta[n][i]`` in {0, 1}. :func:`fairness_problem` builds those arrays from a validated
scenario: every machine of every VM type is a server named ``<vm type>#<k>``, every
declared framework with a ``task_demand`` is a framework, ``allowed_vm_types`` gives ``delta``.

>>> from scheduling.scenario import parse_scenario
>>> s = parse_scenario({"vm_types": [{"name": "c1", "capacity": {"cpu": 100, "mem": 30},
...                                   "price_per_hour": 0, "count": 1},
...                                  {"name": "c2", "capacity": {"cpu": 30, "mem": 100},
...                                   "price_per_hour": 0, "count": 1}],
...                     "frameworks": [{"name": "f1", "task_demand": {"cpu": 5, "mem": 1}},
...                                    {"name": "f2", "task_demand": {"cpu": 1, "mem": 5},
...                                     "allowed_vm_types": ["c2"]}],
...                     "jobs": []})
>>> p = fairness_problem(s)
>>> p.machines, p.frameworks
(('c1#1', 'c2#1'), ('f1', 'f2'))
>>> p.allowed.tolist()
[[True, True], [False, True]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..errors import FieldError, ScenarioError
from ..scenario import Scenario

__all__ = ["FairnessProblem", "fairness_problem"]


@dataclass(frozen=True, eq=False)
class FairnessProblem:
    """Arrays of one fairness problem; rows of ``demand`` and ``allowed`` follow ``frameworks``,
    rows of ``capacity`` and columns of ``allowed`` follow ``machines``, columns of
    ``demand`` and ``capacity`` follow ``resources``."""

    resources: tuple[str, ...]
    machines: tuple[str, ...]  # "<vm type>#<k>"
    machine_types: tuple[str, ...]  # the VM type of each machine
    capacity: NDArray[np.float64]  # (I, R)
    frameworks: tuple[str, ...]
    demand: NDArray[np.float64]  # (N, R), per task
    weight: NDArray[np.float64]  # (N,)
    allowed: NDArray[np.bool_]  # (N, I): delta[n][i]

    @property
    def total_capacity(self) -> NDArray[np.float64]:
        """``sum_i c[i][r]`` per resource."""
        total: NDArray[np.float64] = self.capacity.sum(axis=0)
        return total

    def fits_alone(self) -> NDArray[np.bool_]:
        """(N, I): one task of ``n`` fits on an empty ``i`` it is allowed on."""
        fit = (self.demand[:, None, :] <= self.capacity[None, :, :] + 1e-9).all(axis=2)
        return fit & self.allowed


def fairness_problem(scenario: Scenario) -> FairnessProblem:
    """The fairness problem of ``scenario``; refused with paths when it has none to solve.

    Every declared framework needs a ``task_demand`` (``frameworks[2].task_demand: required
    by the fairness engine``); at least one framework and one machine are needed.
    """
    errors: list[FieldError] = []
    if not scenario.vm_types:
        errors.append(FieldError("vm_types", "the fairness engine needs at least one VM type"))
    if not scenario.frameworks:
        errors.append(
            FieldError("frameworks", "the fairness engine needs at least one framework with a task_demand")
        )
    for k, f in enumerate(scenario.frameworks):
        if f.task_demand is None:
            errors.append(FieldError(f"frameworks[{k}].task_demand", "required by the fairness engine"))
    if errors:
        raise ScenarioError(errors)
    machines = tuple(scenario.machine_names())
    machine_types = tuple(t.name for t in scenario.vm_types for _ in range(t.count))
    capacity = np.array([t.capacity for t in scenario.vm_types for _ in range(t.count)], dtype=float)
    capacity = capacity.reshape(len(machines), len(scenario.resources))
    demand = np.array([f.task_demand for f in scenario.frameworks], dtype=float)
    weight = np.array([f.weight for f in scenario.frameworks], dtype=float)
    allowed = np.array(
        [
            [f.allowed_vm_types is None or vm in f.allowed_vm_types for vm in machine_types]
            for f in scenario.frameworks
        ],
        dtype=bool,
    ).reshape(len(scenario.frameworks), len(machines))
    return FairnessProblem(
        resources=scenario.resources,
        machines=machines,
        machine_types=machine_types,
        capacity=capacity,
        frameworks=tuple(f.name for f in scenario.frameworks),
        demand=demand,
        weight=weight,
        allowed=allowed,
    )
