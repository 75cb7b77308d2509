"""The fairness criteria of paper 000 (notes §1), as numbers per framework (and server).

Progressive filling serves the framework with the smallest value. ``x`` is the number of
tasks per framework (``x_n = sum_i x[n][i]``); ``residual`` the unallocated capacity per server.
A value that is not defined (a framework that fits nowhere, a server it may not use or that
lacks a resource it needs) is ``inf``, so that it is never the smallest.

Check against paper 000's Table I set-up (servers ``c1 = (100, 30)``, ``c2 = (30, 100)``,
demands ``d1 = (5, 1)``, ``d2 = (1, 5)``), after framework 1 has 3 tasks and 2 has none:

>>> import numpy as np
>>> from scheduling.fairness.model import FairnessProblem
>>> p = FairnessProblem(resources=("cpu", "mem"), machines=("c1#1", "c2#1"), machine_types=("c1", "c2"),
...     capacity=np.array([[100.0, 30.0], [30.0, 100.0]]), frameworks=("f1", "f2"),
...     demand=np.array([[5.0, 1.0], [1.0, 5.0]]), weight=np.ones(2), allowed=np.ones((2, 2), bool))
>>> x = np.array([3.0, 0.0])
>>> drf(p, x).tolist()   # 3 * 5 / 130
[0.11538461538461539, 0.0]
>>> round(float(tsf(p, x)[0]), 4)   # 3 / (min(20, 30) + min(6, 100)) = 3 / 26
0.1154
>>> psdsf(p, x).tolist()   # 3 * max(5/100, 1/30), 3 * max(5/30, 1/100)
[[0.15000000000000002, 0.5], [0.0, 0.0]]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .model import FairnessProblem

__all__ = ["CRITERIA", "best_fit_distance", "drf", "per_task_share", "psdsf", "rpsdsf", "tasks_alone", "tsf"]

FloatArray = NDArray[np.float64]

#: The criteria by name; ``bf-drf`` orders frameworks by ``drf`` and servers by
#: :func:`best_fit_distance`.
CRITERIA = ("drf", "tsf", "psdsf", "rpsdsf")


def per_task_share(demand: FloatArray, capacity: FloatArray) -> FloatArray:
    """``max_r d[r] / c[r]`` over the last axis (broadcasting the others), ``inf`` where a needed
    resource is missing: one task's share of a capacity, the factor every criterion multiplies
    by the task count.

    >>> per_task_share(np.array([5.0, 1.0]), np.array([[100.0, 30.0], [30.0, 0.0]])).tolist()
    [0.05, inf]
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(demand > 0, demand / capacity, 0.0)
    ratio = np.where((demand > 0) & (capacity <= 0), np.inf, ratio)
    out: FloatArray = ratio.max(axis=-1)
    return out


def drf(problem: FairnessProblem, x: FloatArray) -> FloatArray:
    """Multi-server DRF (as in Mesos): ``x_n max_r d[n][r] / sum_j c[j][r] / phi[n]``, shape (N,)."""
    out: FloatArray = x * per_task_share(problem.demand, problem.total_capacity) / problem.weight
    return out


def tasks_alone(problem: FairnessProblem) -> FloatArray:
    """``T_n = sum_{i allowed} min_r c[i][r] / d[n][r]``: tasks ``n`` could run alone (fractional)."""
    d = problem.demand[:, None, :]
    c = problem.capacity[None, :, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        per = np.where(d > 0, c / d, np.inf).min(axis=2)  # (N, I)
    per = np.where(problem.allowed & np.isfinite(per), per, 0.0)
    out: FloatArray = per.sum(axis=1)
    return out


def tsf(problem: FairnessProblem, x: FloatArray) -> FloatArray:
    """TSF: ``x_n / (phi[n] T_n)``, shape (N,); ``inf`` for a framework that fits nowhere."""
    alone = tasks_alone(problem)
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = np.where(alone > 0, x / (problem.weight * alone), np.inf)
    return out


def psdsf(problem: FairnessProblem, x: FloatArray) -> FloatArray:
    """PS-DSF: ``K[n][j] = x_n max_r d[n][r] / c[j][r] / phi[n]``, shape (..., N, I) for ``x`` (..., N)."""
    return _per_server(problem, x, problem.capacity)


def rpsdsf(problem: FairnessProblem, x: FloatArray, residual: FloatArray) -> FloatArray:
    """rPS-DSF: PS-DSF with the servers' residual capacity ``residual`` (..., I, R) as denominator;
    shape (..., N, I) for ``x`` (..., N)."""
    return _per_server(problem, x, residual)


def _per_server(problem: FairnessProblem, x: FloatArray, capacity: FloatArray) -> FloatArray:
    share = per_task_share(problem.demand[:, None, :], capacity[..., None, :, :])  # (..., N, I)
    with np.errstate(invalid="ignore"):
        k = np.where(np.isinf(share), np.inf, x[..., None] * share / problem.weight[:, None])
    out: FloatArray = np.where(problem.allowed, k, np.inf)
    return out


def best_fit_distance(demand: FloatArray, residual: FloatArray) -> FloatArray:
    """``H(n, i) = sum_r |d[r] / d[0] - res[i][r] / res[i][0]|``: demand (..., R) against the
    residuals (..., I, R), shape (..., I).

    The demand and each residual vector divided by their first component, compared in L1
    (Wang et al.'s DRFH best fit). When a first component is 0 the vectors are normalised
    by their largest component instead, so that every server gets a finite distance.

    >>> best_fit_distance(np.array([5.0, 1.0]), np.array([[100.0, 30.0], [30.0, 100.0]])).round(3).tolist()
    [0.1, 3.133]
    """
    d0 = np.where(demand[..., 0] > 0, demand[..., 0], demand.max(axis=-1))
    d = demand / d0[..., None]
    first = residual[..., 0]
    norm = np.where(first > 0, first, residual.max(axis=-1))
    with np.errstate(divide="ignore", invalid="ignore"):
        res = np.where(norm[..., None] > 0, residual / norm[..., None], 0.0)
    out: FloatArray = np.abs(res - d[..., None, :]).sum(axis=-1)
    return out
