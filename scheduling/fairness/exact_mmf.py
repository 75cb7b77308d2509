"""Weighted U-MMF (paper 000, Definition 1; notes §3), exactly: water-filling over linear
programs (fractional) or the leximin over mixed-integer programs (whole tasks), of tasks per
weight or of DRF's or TSF's share (:data:`MMF_CRITERIA`). :mod:`scheduling.fairness.exact` is
the front door.
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from ..errors import ScenarioError
from . import criteria
from .exact_model import (
    _INF,
    ExactResult,
    _base_model,
    _check,
    _integer_deadline,
    _Layout,
    _layout,
    _Model,
    _solver_name,
    _spread,
    _tolerance,
)
from .model import FairnessProblem

__all__ = ["DEFAULT_MMF_TOLERANCE", "MMF_CRITERIA", "criterion_factor", "mmf_allocation"]

FloatArray = NDArray[np.float64]

#: MMF: how far (relatively) a frozen framework's level may sag below the level it froze at.
DEFAULT_MMF_TOLERANCE = 1e-7


# ---------------------------------------------------------------------------- MMF


#: The criteria ``U_n`` of U-MMF, each ``u_n x_n / phi_n`` (paper 000 eq. (2) with ``u_{n,i}``
#: the same on every server): tasks (``u_n = 1``), DRF's dominant share of the cluster (eq. (3),
#: ``u_n = max_r d[n][r] / sum_j c[j][r]``) and TSF's share of the tasks the framework could run
#: alone (``u_n = 1 / T_n``). PF is the same for all three (``log(u_n x_n)`` differs from
#: ``log x_n`` by a constant), so only U-MMF takes one.
MMF_CRITERIA: dict[str, str] = {
    "tasks": "tasks per weight",
    "drf": "dominant share per weight (DRF, eq. 3)",
    "tsf": "share of the tasks it could run alone, per weight (TSF)",
}


def criterion_factor(problem: FairnessProblem, criterion: str) -> FloatArray:
    """``u_n`` of :data:`MMF_CRITERIA` per framework (1 where it is not defined: a framework that
    fits nowhere is left out anyway), from the criteria's own functions.

    >>> p = FairnessProblem(resources=("cpu", "mem"), machines=("c1#1", "c2#1"), machine_types=("c1", "c2"),
    ...     capacity=np.array([[100.0, 30.0], [30.0, 100.0]]), frameworks=("f1", "f2"),
    ...     demand=np.array([[5.0, 1.0], [1.0, 5.0]]), weight=np.ones(2), allowed=np.ones((2, 2), bool))
    >>> criterion_factor(p, "drf").tolist()   # 5 / 130, 5 / 130
    [0.038461538461538464, 0.038461538461538464]
    """

    if criterion not in MMF_CRITERIA:
        raise ScenarioError.single("criterion", f"unknown U-MMF criterion {criterion!r} "
                                   f"(choose {', '.join(MMF_CRITERIA)})")
    if criterion == "tasks":
        return np.ones(len(problem.frameworks))
    per_task = getattr(criteria, criterion)(problem, np.ones(len(problem.frameworks))) * problem.weight
    out: FloatArray = np.where(np.isfinite(per_task) & (per_task > 0), per_task, 1.0)
    return out


def mmf_allocation(
    problem: FairnessProblem, *, integer: bool, tolerance: float | None = None, criterion: str = "tasks"
) -> ExactResult:
    """The weighted U-MMF allocation of paper 000 (Definition 1), ``U_n = u_n x_n / phi_n`` with
    ``u_n`` by ``criterion`` (:data:`MMF_CRITERIA`; ``tasks``: ``U_n = x_n / phi_n``).

    Fractional (``integer=False``): water-filling. Each stage is a linear program that maximises
    the common level ``t`` with ``x_n / phi_n >= t`` for every framework still growing and
    ``x_n / phi_n >= level_n`` for every frozen one, subject to (1). A framework whose level row
    has a positive dual value cannot rise above ``t`` without another growing framework falling
    below it (the duals of the level rows sum to 1 and certify that the duals' weighted mean of
    the growing levels is at most ``t``), so those are frozen at ``t``; at least one is frozen
    per stage. The last stage's solution is the allocation.

    Integer (``integer=True``): the leximin vector of the ``U_n`` over whole tasks. Water-filling
    does not carry over (with whole tasks each framework may be able to rise alone while no two
    can together, and which one stays behind decides the rest), so stage ``k`` maximises the sum
    of the ``k`` smallest levels (Ogryczak and Śliwiński's linear form of it: ``k r_k - sum_n
    d_kn`` with ``r_k - d_kn <= U_n``, ``d_kn >= 0``) with the sums of earlier stages kept: one
    mixed-integer program per framework, over a variable per framework and server, so it is
    meant for small problems.

    Parameters
    ----------
    problem : FairnessProblem
    integer : bool
        Whole tasks (``True``) or the paper's fractional relaxation.
    tolerance : float, optional
        How far (relatively) a level reached at one stage may sag in later stages, to absorb the
        solver's rounding (default :data:`DEFAULT_MMF_TOLERANCE`).
    criterion : str
        ``tasks`` (default), ``drf`` or ``tsf``: what is max-min fair (:data:`MMF_CRITERIA`).

    Returns
    -------
    ExactResult
        ``x`` (N, I); ``meta`` with ``method`` "mmf", ``integer``, ``tolerance``, ``solver``,
        ``status`` "optimal", ``objective`` (the smallest level ``min_n U_n`` over the included
        frameworks), ``levels`` (framework -> ``U_n``), ``criterion`` (in words, e.g. "tasks per
        weight"), ``stages``, ``solves``, ``excluded``, ``server_pools``, ``seconds``.

    Raises
    ------
    ScenarioError
        (path ``policy``) for a framework with no positive demand or weight, when the solver
        ends without an optimum, or when whole tasks take longer than
        :data:`~scheduling.fairness.exact_model.INTEGER_TIME_LIMIT_S`; (path ``tolerance``) for a
        tolerance out of range.

    Examples
    --------
    One server of 12 cpu, weights 2 and 1: tasks split 2 : 1 whatever the task sizes.

    >>> p = FairnessProblem(resources=("cpu",), machines=("s#1",), machine_types=("s",),
    ...     capacity=np.array([[12.0]]), frameworks=("a", "b"), demand=np.array([[1.0], [2.0]]),
    ...     weight=np.array([2.0, 1.0]), allowed=np.ones((2, 1), bool))
    >>> r = mmf_allocation(p, integer=False)
    >>> np.round(r.x[:, 0], 6).tolist(), r.meta["stages"]
    ([6.0, 3.0], 1)
    """
    start = time.perf_counter()
    tol = _tolerance(tolerance, DEFAULT_MMF_TOLERANCE)
    _check(problem)
    u = criterion_factor(problem, criterion)
    lay = _layout(problem, integer)
    deadline = _integer_deadline(start) if integer else None
    model = _base_model(problem, lay, "max-min fair allocation (whole tasks)" if integer
                        else "max-min fair allocation", integer, deadline=deadline)
    if integer:
        values, stages = _leximin(problem, lay, model, tol, u)
    else:
        values, stages = _water_filling(problem, lay, model, tol, u)
    x = _spread(problem, lay, values, integer)
    levels = u * x.sum(axis=1) / problem.weight
    inc = lay.included
    return ExactResult(x, {
        "method": "mmf",
        "integer": bool(integer),
        "tolerance": tol,
        "solver": _solver_name(),
        "status": "optimal",
        "objective": float(levels[inc].min()) if inc.any() else 0.0,
        "criterion": MMF_CRITERIA[criterion],
        "levels": {f: float(levels[n]) for n, f in enumerate(problem.frameworks)},
        "stages": stages,
        "solves": model.solves,
        "excluded": [f for n, f in enumerate(problem.frameworks) if not inc[n]],
        "server_pools": len(lay.size),
        "seconds": time.perf_counter() - start,
    })


def _water_filling(
    problem: FairnessProblem, lay: _Layout, model: _Model, tol: float, u: FloatArray
) -> tuple[FloatArray, int]:
    n_pairs = len(lay.pairs)
    t_col = model.add_cols(np.array([-1.0]), np.array([0.0]), np.array([_INF]))  # minimise -t
    inc = np.flatnonzero(lay.included)
    if not len(inc):
        return np.zeros(n_pairs), 0
    rows = []
    for n, (cols, ones) in enumerate(lay.tasks_rows(0)):
        if lay.included[n]:
            # u_n x_n / phi_n - t >= 0
            rows.append((np.append(cols, t_col).astype(np.int32),
                         np.append(ones * u[n] / problem.weight[n], -1.0)))
    first = model.add_rows(np.zeros(len(rows)), np.full(len(rows), _INF), rows)
    growing = np.ones(len(inc), dtype=bool)
    level = np.zeros(len(inc))
    stages = 0
    values = np.zeros(model.cols)
    while growing.any():
        values, duals = model.solve()
        stages += 1
        t = float(values[t_col])
        y = np.abs(duals[first: first + len(inc)])
        blocked = growing & (y > 1e-9 * max(1.0, float(y[growing].max())))
        if not blocked.any():  # numerically flat duals: the largest is certainly positive
            blocked = growing & (y == y[growing].max())
        floor = t * (1.0 - tol)  # relative: levels may be tiny
        for k in np.flatnonzero(blocked).tolist():
            model.h.changeCoeff(first + k, t_col, 0.0)
            model.h.changeRowBounds(first + k, floor, _INF)
            level[k] = t
        growing &= ~blocked
        model.h.changeColBounds(t_col, max(floor, 0.0), _INF)
    # Every level is now fixed, to within the tolerance; the last stage's vertex may leave a
    # frozen framework up to that tolerance below its level, and another that much above, so a
    # last program brings every framework back to its level: maximise the sum of the levels,
    # none above the level it froze at.
    for k in range(len(inc)):
        model.h.changeRowBounds(first + k, level[k] * (1.0 - tol), level[k])
    model.h.changeColCost(t_col, 0.0)
    pair_cost = -u[lay.pairs[:, 0]] / problem.weight[lay.pairs[:, 0]]
    model.h.changeColsCost(n_pairs, np.arange(n_pairs, dtype=np.int32), pair_cost)
    values, _ = model.solve()
    return values[:n_pairs], stages


def _leximin(
    problem: FairnessProblem, lay: _Layout, model: _Model, tol: float, u: FloatArray
) -> tuple[FloatArray, int]:
    n_pairs = len(lay.pairs)
    inc = np.flatnonzero(lay.included)
    tasks = lay.tasks_rows(0)
    values = np.zeros(n_pairs)
    previous: list[int] = []  # columns of every earlier stage's objective
    for k in range(1, len(inc) + 1):
        if previous:  # the last stage's objective becomes a floor
            model.h.changeColsCost(len(previous), np.asarray(previous, np.int32), np.zeros(len(previous)))
        # r_k (free), d_kn >= 0; minimise -(k r_k - sum_n d_kn)
        r_col = model.add_cols(np.array([-float(k)]), np.array([-_INF]), np.array([_INF]))
        d_first = model.add_cols(np.ones(len(inc)), np.zeros(len(inc)), np.full(len(inc), _INF))
        rows = []
        for j, n in enumerate(inc.tolist()):
            cols, ones = tasks[n]
            # U_n + d_kn - r_k >= 0
            rows.append((np.concatenate([cols, [d_first + j, r_col]]).astype(np.int32),
                         np.concatenate([ones * u[n] / problem.weight[n], [1.0, -1.0]])))
        model.add_rows(np.zeros(len(rows)), np.full(len(rows), _INF), rows)
        sol, _ = model.solve()
        values = sol[:n_pairs]
        theta = k * sol[r_col] - sol[d_first: d_first + len(inc)].sum()
        model.add_rows(np.array([theta - tol * max(1.0, abs(theta))]), np.array([_INF]), [(
            np.arange(d_first - 1, d_first + len(inc), dtype=np.int32),
            np.concatenate([[float(k)], -np.ones(len(inc))]),
        )])
        previous = [r_col, *range(d_first, d_first + len(inc))]
    return values, len(inc)
