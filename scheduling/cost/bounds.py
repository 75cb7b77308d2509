"""A lower bound on the cost of running a whole scenario, whatever the scheduler.

Let ``f(D)`` be the cheapest *fractional* mix of VM types whose capacity covers a demand
vector ``D`` (a linear program: minimise ``sum_t p_t y_t`` subject to
``sum_t c_tr y_t >= D_r``, ``y >= 0``). Any schedule pays at least ``f(D(t))`` per unit of
time at every instant ``t``, where ``D(t)`` is the demand of the executors running then.
``f`` is convex and positively homogeneous, so ``integral f(D(t)) dt >= f(integral D(t) dt)``,
and ``integral D(t) dt`` is at least the work ``W_r = sum_jobs executors * demand_r * duration``.
Hence ``f(W)``, with ``W`` in resource-hours and ``y`` in VM-hours, bounds every scheduler's
cost from below. It relaxes VM counts, framework VM-type restrictions and the packing of whole
executors, so it is valid but not always tight; billing options only raise real costs.

A network-bound job (notes §8) whose executors span several VMs runs longer than its
``duration_s`` (its stretch is at least 1) and holds its executors all that time, so the work it
does is at least its unstretched work: ``W`` counts every job at its ``duration_s``, which stays
a lower bound whatever placement a scheduler chooses (and is the bound of a scheduler that puts
every such job on one VM).
"""

from __future__ import annotations

import numpy as np
import pulp

from ..scenario import Scenario


def work_resource_hours(scenario: Scenario) -> np.ndarray:
    """The scenario's total work per resource, in resource-hours, every job at its unstretched
    ``duration_s`` (a network-bound job's stretch only adds to it: see the module docstring)."""
    w = np.zeros(len(scenario.resources))
    for j in scenario.jobs:
        w += np.asarray(j.executor) * (j.executors * j.duration_s / 3600.0)
    return w


def cheapest_cover_cost(capacity: np.ndarray, price: np.ndarray, demand: np.ndarray) -> float:
    """``f(demand)``: the cheapest fractional VM mix covering ``demand``.

    >>> cheapest_cover_cost(np.array([[4.0, 16.0], [8.0, 32.0]]), np.array([0.24, 0.50]),
    ...                     np.array([8.0, 8.0]))
    0.48
    """
    if not (demand > 0).any():
        return 0.0
    prob = pulp.LpProblem("lower_bound", pulp.LpMinimize)
    y = [pulp.LpVariable(f"y{t}", lowBound=0) for t in range(len(price))]
    prob += pulp.lpSum(float(price[t]) * y[t] for t in range(len(price)))
    for r in range(capacity.shape[1]):
        if demand[r] > 0:
            prob += pulp.lpSum(float(capacity[t, r]) * y[t] for t in range(len(price))) >= float(demand[r])
    # HiGHS runs in-process (no subprocess, no model file); CBC is PuLP's bundled fallback.
    solver = pulp.HiGHS(msg=False) if pulp.HiGHS().available() else pulp.PULP_CBC_CMD(msg=False)
    status = prob.solve(solver)
    if pulp.LpStatus[status] != "Optimal":  # cannot happen for a validated scenario
        raise RuntimeError(f"lower-bound LP ended {pulp.LpStatus[status]}")
    return round(float(pulp.value(prob.objective)), 9)


def lower_bound_cost(scenario: Scenario) -> float:
    """A cost no scheduler can beat on this scenario (see the module docstring)."""
    capacity = np.array([t.capacity for t in scenario.vm_types], dtype=float)
    price = np.array([t.price_per_hour for t in scenario.vm_types], dtype=float)
    return cheapest_cover_cost(capacity, price, work_resource_hours(scenario))
