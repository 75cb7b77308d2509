"""Weighted proportional fairness (paper 000, eq. 8 with ``a = 1``; notes §3), exactly: maximise
``sum_n phi_n log(x_n)`` with ``log`` replaced by tangent (fractional) or chord (whole tasks)
cutting planes added until the approximation is within the tolerance.
:mod:`scheduling.fairness.exact` is the front door.
"""

from __future__ import annotations

import math
import time
from typing import Any

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
    _Row,
    _solver_name,
    _spread,
    _tolerance,
)
from .model import FairnessProblem

__all__ = ["DEFAULT_PF_INTEGER_TOLERANCE", "DEFAULT_PF_TOLERANCE", "pf_allocation"]

FloatArray = NDArray[np.float64]

#: PF: the largest overestimate of any ``log(x_n)`` by the cutting planes at the solution.
DEFAULT_PF_TOLERANCE = 1e-4
#: PF with whole tasks: the gap of ``sum_n phi_n log x_n`` to the optimum, over ``sum_n phi_n``,
#: at which the mixed-integer search stops. Closing the last 1e-3 took HiGHS over 30 s on 5
#: frameworks x 6 servers (many near-optimal packings of identical servers to rule out), 1e-2
#: about 0.2 s.
DEFAULT_PF_INTEGER_TOLERANCE = 1e-2


#: PF's cutting planes stop (with an error) after this many rounds.
MAX_ROUNDS = 500
#: PF (fractional) goes on adding tangents until the log gap is this fraction of the tolerance,
#: when it can within :data:`MAX_ROUNDS` rounds (it stops at the tolerance itself otherwise).
POLISH = 1e-4


# ---------------------------------------------------------------------------- PF


def pf_allocation(problem: FairnessProblem, *, integer: bool, tolerance: float | None = None) -> ExactResult:
    """The weighted proportional-fair allocation: maximise ``sum_n phi_n log(x_n)`` s.t. (1).

    Each framework's ``log`` is replaced by a variable ``z_n`` under cutting planes, and the
    linear program maximises ``sum_n phi_n z_n``; after each solve, a plane is added where
    ``z_n`` overestimates ``log(x_n)`` by more than ``tolerance``.

    * Fractional: tangents ``log a + (x - a) / a``. They lie above ``log``, so the program's
      optimum bounds the true one from above. At the end every ``z_n - log(x_n) <= tolerance``:
      ``sum_n phi_n log(x_n)`` is within ``tolerance * sum_n phi_n`` of the optimum (the
      weighted geometric mean of the ``x_n`` within a factor ``exp(tolerance)``), and the
      allocation satisfies inequality (9) against every feasible allocation up to
      ``1.1 sqrt(2 tolerance) sum_n phi_n |x_n - x*_n| / x*_n`` (the slack
      :func:`~scheduling.fairness.exact.pf_inequality` allows).
    * Integer: chords between consecutive whole numbers, ``log k + (x - k) log((k + 1) / k)``,
      which equal ``log`` at every whole ``x``; planes are added until ``z_n = log(x_n)`` at the
      solution, so the only error is the MIP gap, set to ``tolerance * sum_n phi_n`` (default
      :data:`DEFAULT_PF_INTEGER_TOLERANCE`: the weighted geometric mean within 1%). Every
      framework that fits somewhere gets at least one task when that is possible together;
      when it is not, the most frameworks that can each get one task are kept (``x_n >= 1``)
      and the others are excluded (``meta["excluded"]``), since ``log 0`` is ``-inf``.

    Parameters
    ----------
    problem : FairnessProblem
    integer : bool
        Whole tasks (mixed-integer programs, a variable per framework and server) or fractional.
    tolerance : float, optional
        The guaranteed gap described above (default :data:`DEFAULT_PF_TOLERANCE`, or
        :data:`DEFAULT_PF_INTEGER_TOLERANCE` for whole tasks).

    Returns
    -------
    ExactResult
        ``x`` (N, I); ``meta`` with ``method`` "pf", ``integer``, ``tolerance``, ``solver``,
        ``status`` "optimal", ``objective`` (``sum_n phi_n log x_n`` over the included
        frameworks), ``upper_bound`` (the cutting-plane program's optimum), ``gap``
        (``upper_bound - objective``), ``guarantee`` (in words), ``cuts``, ``rounds``,
        ``solves``, ``excluded``, ``server_pools``, ``seconds``.

    Raises
    ------
    ScenarioError
        (path ``policy``) as :func:`~scheduling.fairness.exact_mmf.mmf_allocation`, or when the
        cutting planes do not reach the tolerance in :data:`MAX_ROUNDS` rounds; (path
        ``tolerance``) for a tolerance out of range.

    Examples
    --------
    One server of 12 cpu, weights 2 and 1: PF gives each framework a share of the *resource*
    in proportion to its weight (8 and 4 cpu), unlike MMF, which shares tasks.

    >>> p = FairnessProblem(resources=("cpu",), machines=("s#1",), machine_types=("s",),
    ...     capacity=np.array([[12.0]]), frameworks=("a", "b"), demand=np.array([[1.0], [2.0]]),
    ...     weight=np.array([2.0, 1.0]), allowed=np.ones((2, 1), bool))
    >>> np.round(pf_allocation(p, integer=False).x[:, 0], 2).tolist()
    [8.0, 2.0]
    >>> pf_allocation(p, integer=True).x[:, 0].tolist()
    [8.0, 2.0]
    """
    start = time.perf_counter()
    tol = _tolerance(tolerance, DEFAULT_PF_INTEGER_TOLERANCE if integer else DEFAULT_PF_TOLERANCE)
    _check(problem)
    if integer:
        x, meta = _pf_integer(problem, tol)
    else:
        x, meta = _pf_fractional(problem, tol)
    return ExactResult(x, {
        "method": "pf",
        "integer": bool(integer),
        "tolerance": tol,
        "solver": _solver_name(),
        "status": "optimal",
        **meta,
        "seconds": time.perf_counter() - start,
    })


def _log_objective(weight: FloatArray, xn: FloatArray) -> float:
    with np.errstate(divide="ignore"):
        return float((weight * np.log(np.maximum(xn, 0.0))).sum())


def _pf_fractional(problem: FairnessProblem, tol: float) -> tuple[FloatArray, dict[str, Any]]:
    lay = _layout(problem, integer=False)
    model = _base_model(problem, lay, "proportional-fair allocation", integer=False)
    inc = np.flatnonzero(lay.included)
    n_pairs = len(lay.pairs)
    meta: dict[str, Any] = {
        "excluded": [f for n, f in enumerate(problem.frameworks) if not lay.included[n]],
        "server_pools": len(lay.size),
    }
    if not len(inc):
        return np.zeros(problem.allowed.shape), {**meta, "objective": 0.0, "upper_bound": 0.0, "gap": 0.0,
                                                 "largest_log_gap": 0.0, "cuts": 0, "rounds": 0, "solves": 0,
                                                 "guarantee": _GUARANTEE}
    phi = problem.weight[inc]
    z_first = model.add_cols(-phi, np.full(len(inc), -_INF), np.full(len(inc), _INF))
    tasks = lay.tasks_rows(0)
    # First tangents where each framework would have an equal part of what it could run alone.
    alone = criteria.tasks_alone(problem)[inc]
    points = np.maximum(alone / len(inc), 1e-9)
    smallest = points.copy()
    cuts = 0

    def add_tangents(which: NDArray[np.int64], at: FloatArray) -> None:
        # z_n <= log a + (x_n - a) / a   <=>   z_n - x_n / a <= log a - 1
        rows = []
        for j, a in zip(which.tolist(), at.tolist(), strict=True):
            cols, ones = tasks[int(inc[j])]
            rows.append((np.append(cols, z_first + j).astype(np.int32), np.append(-ones / a, 1.0)))
        model.add_rows(np.full(len(rows), -_INF), np.log(at) - 1.0, rows)

    target = max(tol * POLISH, 1e-10)
    add_tangents(np.arange(len(inc)), points)
    cuts += len(inc)
    for rounds in range(1, MAX_ROUNDS + 1):
        values, _ = model.solve()
        xn = np.array([values[tasks[n][0]].sum() for n in inc.tolist()])
        z = values[z_first: z_first + len(inc)]
        with np.errstate(divide="ignore"):
            gap = z - np.log(np.maximum(xn, 0.0))
        # The guarantee needs gap <= tol; going on to tol * POLISH costs a few more rounds and
        # brings x itself close to the optimum (x moves with about the square root of the gap).
        if gap.max() <= target or (gap.max() <= tol and rounds >= MAX_ROUNDS):
            objective = _log_objective(phi, xn)
            upper = float((phi * z).sum())
            return _spread(problem, lay, values[:n_pairs], False), {
                **meta, "objective": objective, "upper_bound": upper, "gap": max(upper - objective, 0.0),
                "largest_log_gap": max(float(gap.max()), 0.0), "cuts": cuts, "rounds": rounds,
                "solves": model.solves, "guarantee": _GUARANTEE,
            }
        which = np.flatnonzero(gap > target)
        # A framework left at (almost) nothing: a tangent further left, where log is steeper.
        at = np.where(xn[which] > 1e-12, xn[which], smallest[which] / 4)
        smallest[which] = np.minimum(smallest[which], at)
        add_tangents(which, at)
        cuts += len(which)
    raise ScenarioError.single("policy", _NOT_CONVERGED)


_NOT_CONVERGED = f"proportional fairness: the cutting planes missed the tolerance after {MAX_ROUNDS} rounds"
_GUARANTEE = (
    "every log(x_n) overestimated by at most the tolerance at the solution: sum_n phi_n log x_n "
    "within tolerance * sum_n phi_n of the optimum"
)
_GUARANTEE_INTEGER = (
    "chords exact at whole numbers; sum_n phi_n log x_n within tolerance * sum_n phi_n of the optimum"
)


def _pf_integer(problem: FairnessProblem, tol: float) -> tuple[FloatArray, dict[str, Any]]:
    lay = _layout(problem, integer=True)
    inc = np.flatnonzero(lay.included)
    meta: dict[str, Any] = {"server_pools": len(lay.size)}
    if not len(inc):
        return np.zeros(problem.allowed.shape), {
            **meta, "excluded": list(problem.frameworks), "objective": 0.0, "upper_bound": 0.0, "gap": 0.0,
            "largest_log_gap": 0.0, "cuts": 0, "rounds": 0, "solves": 0, "guarantee": _GUARANTEE_INTEGER}
    phi = problem.weight[inc]
    deadline = _integer_deadline(time.perf_counter())
    model = _base_model(problem, lay, "proportional-fair allocation (whole tasks)", integer=True,
                        mip_abs_gap=tol * float(phi.sum()), deadline=deadline)
    n_pairs = len(lay.pairs)
    tasks = lay.tasks_rows(0)
    most = model.h.getLp().col_upper_
    # log 0 = -inf: w_n = 1 marks a framework served (x_n >= 1); as many are served as can be
    # at once (all of them, unless whole tasks make that impossible), and only they count.
    served = _most_served(problem, lay, inc, deadline)
    everyone = served == len(inc)
    w_first = model.add_cols(np.zeros(len(inc)), np.full(len(inc), 1.0 if everyone else 0.0),
                             np.ones(len(inc)), integer=True)
    z_first = model.add_cols(-phi, np.full(len(inc), -_INF), np.full(len(inc), _INF))
    rows: list[_Row] = []
    lower, upper = [], []
    for j, n in enumerate(inc.tolist()):
        cols, ones = tasks[n]
        rows.append((np.append(cols, w_first + j).astype(np.int32), np.append(ones, -1.0)))  # x_n >= w_n
        lower.append(0.0)
        upper.append(_INF)
        # z_n <= w_n log(most tasks): an unserved framework adds nothing
        bound = math.log(max(1.0, float(np.sum(np.asarray(most)[cols]))))
        rows.append((np.array([z_first + j, w_first + j], np.int32), np.array([1.0, -bound])))
        lower.append(-_INF)
        upper.append(0.0)
    if not everyone:
        rows.append((np.arange(w_first, w_first + len(inc), dtype=np.int32), np.ones(len(inc))))
        lower.append(float(served))
        upper.append(_INF)
    model.add_rows(np.asarray(lower), np.asarray(upper), rows)
    have: list[set[int]] = [set() for _ in inc]
    cuts = 0

    def add_chords(j: int, ks: list[int]) -> int:
        # z_n <= log k + (x_n - k) s + M (1 - w_n), s = log((k + 1) / k), M = max(0, k s - log k)
        # (the chord's value at x = 0 is log k - k s: M lifts it to 0 for an unserved framework)
        chord_rows, chord_upper = [], []
        for k in ks:
            if k < 1 or k in have[j]:
                continue
            have[j].add(k)
            s = math.log((k + 1) / k)
            m = max(0.0, k * s - math.log(k))
            cols, ones = tasks[int(inc[j])]
            chord_rows.append((np.concatenate([cols, [z_first + j, w_first + j]]).astype(np.int32),
                               np.concatenate([-s * ones, [1.0, m]])))
            chord_upper.append(math.log(k) - k * s + m)
        model.add_rows(np.full(len(chord_rows), -_INF), np.asarray(chord_upper, float), chord_rows)
        return len(chord_rows)

    # Start from the fractional optimum (pooled, cheap): chords around it.
    guess = _pf_fractional(problem, 1e-2)[0].sum(axis=1)[inc]
    for j, g in enumerate(guess.tolist()):
        f = max(1, math.floor(g))
        cuts += add_chords(j, [1, *range(f - 3, f + 4)])  # a few each side: fewer integer solves
    for rounds in range(1, MAX_ROUNDS + 1):
        values, _ = model.solve()
        xn = np.round([values[tasks[n][0]].sum() for n in inc.tolist()])
        z = values[z_first: z_first + len(inc)]
        gap = z - np.log(np.maximum(xn, 1.0))  # log 1 = 0 is also what an unserved one adds
        if gap.max() <= 1e-9:
            objective = _log_objective(phi[xn > 0], xn[xn > 0])
            bound = float((phi * z).sum())
            excluded = set(inc[xn == 0].tolist()) | set(np.flatnonzero(~lay.included).tolist())
            return _spread(problem, lay, values[:n_pairs], True), {
                **meta, "excluded": [f for n, f in enumerate(problem.frameworks) if n in excluded],
                "objective": objective, "upper_bound": bound, "gap": max(bound - objective, 0.0),
                "largest_log_gap": max(float(gap.max()), 0.0), "cuts": cuts, "rounds": rounds,
                "solves": model.solves, "guarantee": _GUARANTEE_INTEGER,
            }
        for j in np.flatnonzero(gap > 1e-9).tolist():
            k = max(1, int(xn[j]))
            cuts += add_chords(j, [k - 1, k])
    raise ScenarioError.single("policy", _NOT_CONVERGED)


def _most_served(problem: FairnessProblem, lay: _Layout, inc: NDArray[np.int64], deadline: float) -> int:
    """The most frameworks (of ``inc``) that can each have a whole task at once."""
    tasks = lay.tasks_rows(0)
    model = _base_model(problem, lay, "allocation giving one task to the most frameworks", integer=True,
                        deadline=deadline)
    served = model.add_cols(-np.ones(len(inc)), np.zeros(len(inc)), np.ones(len(inc)), integer=True)
    rows = []
    for j, n in enumerate(inc.tolist()):
        cols, ones = tasks[n]
        rows.append((np.append(cols, served + j).astype(np.int32), np.append(ones, -1.0)))  # x_n >= w_n
    model.add_rows(np.zeros(len(rows)), np.full(len(rows), _INF), rows)
    values, _ = model.solve()
    return round(float(values[served: served + len(inc)].sum()))
