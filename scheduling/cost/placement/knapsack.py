"""The bounded covering knapsack behind the exact placement (paper 003, eq. 1).

Once a job's executors fill the VMs already on, what is left is: choose ``c_t`` idle VMs of each
type ``t`` (at most the ``n_t`` idle ones), each holding ``k_t`` executors at hourly price ``P_t``,
so that ``sum_t c_t k_t >= need`` at the least ``sum_t c_t P_t``. :func:`min_new_vm_cost` solves it
exactly: a memoised search on small instances, dynamic programming over the executors covered on
larger ones, and a two-stage MIP over VM types in HiGHS beyond :data:`DP_CELL_LIMIT` cells.

>>> min_new_vm_cost(6, [4, 6, 2], [1.0, 1.2, 0.5], [2, 1, 3])
Cover(cost=1.2, machines=1, counts=(0, 1, 0))
"""

from __future__ import annotations

import math
import time
from typing import Any, NamedTuple

import highspy
import numpy as np

from ...errors import SolverFailure, SolverTimeout
from ...numbers import weighted_sum

__all__ = ["DP_CELL_LIMIT", "SEARCH_CELL_LIMIT", "Cover", "min_new_vm_cost"]

#: Above this many DP cells (executors to cover x 0/1 items) the covering knapsack is handed to
#: HiGHS instead: a few integer variables per VM type, solved in milliseconds at any size.
DP_CELL_LIMIT = 4_000_000

#: Up to this many cells, the knapsack is solved by a memoised search in plain Python (faster
#: than numpy on the small instances a cluster's placement decisions mostly are).
SEARCH_CELL_LIMIT = 5_000

_BIG_COUNT = np.int64(1) << np.int64(50)  # "unreachable" machine count in the DP


class Cover(NamedTuple):
    """A choice of idle VMs that covers the executors left over: the cheapest, then the fewest."""

    cost: float  # summed hourly price of the new VMs
    machines: int  # number of new VMs
    counts: tuple[int, ...]  # new VMs per type


def min_new_vm_cost(
    need: int,
    fits: Any,
    prices: Any,
    counts: Any,
    *,
    order: Any = None,
    deadline: float | None = None,
) -> Cover | None:
    """The cheapest set of idle VMs that holds ``need`` more executors.

    A bounded covering knapsack: choose ``c_t`` in ``0..counts[t]`` VMs of each type ``t`` so that
    ``sum_t c_t fits[t] >= need`` and ``sum_t c_t prices[t]`` is least (eq. 1 of paper 003 once
    the VMs already on are full). Among the cheapest covers: the fewest VMs, then the most VMs of
    the first type in ``order``, then of the second, and so on. Solved exactly by dynamic
    programming over the executors covered; very large instances (more than
    :data:`DP_CELL_LIMIT` cells) go to HiGHS instead (cheapest, then fewest; the last tie-break
    is then HiGHS's).

    Parameters
    ----------
    need : int
        Executors still to place (``<= 0``: nothing to buy).
    fits, prices, counts : array-like
        Per VM type: executors one empty VM holds, hourly price, idle VMs available.
    order : array-like of int, optional
        A permutation of the types: their preference order for the last tie-break (default:
        index order).
    deadline : float, optional
        A ``time.perf_counter()`` value; past it, :class:`~scheduling.errors.SolverTimeout`.

    Returns
    -------
    Cover or None
        ``(cost, machines, counts per type)``, or ``None`` if the idle VMs cannot hold ``need``.

    Examples
    --------
    Six executors; type 0 holds 4 for 1.0, type 1 holds 6 for 1.2, type 2 holds 2 for 0.5:

    >>> min_new_vm_cost(6, [4, 6, 2], [1.0, 1.2, 0.5], [2, 1, 3])
    Cover(cost=1.2, machines=1, counts=(0, 1, 0))
    >>> min_new_vm_cost(6, [4, 6, 2], [1.0, 1.2, 0.4], [2, 1, 3])  # a tie: fewest VMs wins
    Cover(cost=1.2, machines=1, counts=(0, 1, 0))

    Prices proportional to size (Table 3 of paper 003) tie often: for 4 executors, one VM
    holding 1 and one holding 3 cost as much as two holding 2; the first type in ``order`` wins.

    >>> min_new_vm_cost(4, [1, 2, 3], [0.25, 0.5, 0.75], [6, 5, 3])
    Cover(cost=1.0, machines=2, counts=(1, 0, 1))
    >>> min_new_vm_cost(4, [1, 2, 3], [0.25, 0.5, 0.75], [6, 5, 3], order=[1, 0, 2])
    Cover(cost=1.0, machines=2, counts=(0, 2, 0))
    >>> min_new_vm_cost(15, [4, 6, 2], [1.0, 1.2, 0.5], [2, 1, 0]) is None
    True
    """
    k = [int(x) for x in np.asarray(fits).ravel().tolist()]
    p = [float(x) for x in np.asarray(prices).ravel().tolist()]
    n_types = len(k)
    if need <= 0:
        return Cover(0.0, 0, (0,) * n_types)
    # More than ceil(need / k_t) VMs of one type are never needed to cover ``need``.
    n_eff = [
        min(int(c), -(-need // kt)) if kt > 0 and c > 0 else 0
        for kt, c in zip(k, np.asarray(counts).ravel().tolist(), strict=True)
    ]
    if sum(c * kt for c, kt in zip(n_eff, k, strict=True)) < need:
        return None
    types = [t for t in (range(n_types) if order is None else (int(t) for t in order)) if n_eff[t] > 0]
    cells = sum(n_eff) * (need + 1)
    if cells > DP_CELL_LIMIT:
        return _cover_highs(need, np.array(k), np.array(p), np.array(n_eff), deadline=deadline)
    tol = 1e-9 * max(1.0, max(p))
    if cells <= SEARCH_CELL_LIMIT and len(types) <= 100:
        chosen = _cover_search(need, k, p, n_eff, types, tol)
    else:
        chosen = _cover_dp(need, np.array(k), np.array(p), np.array(n_eff), types, tol, deadline)
    if deadline is not None and time.perf_counter() > deadline:
        raise SolverTimeout("the covering knapsack reached the time limit")
    return Cover(float(sum(c * p[t] for t, c in enumerate(chosen))), sum(chosen), tuple(chosen))


def _cover_search(
    need: int, k: list[int], p: list[float], n_eff: list[int], types: list[int], tol: float
) -> list[int]:
    """Small instances: memoised recursion over (type position, executors left) in plain Python.

    The same optimum and tie-breaks as :func:`_cover_dp`, without numpy's per-call overhead.
    """
    memo: dict[tuple[int, int], tuple[float, int, int] | None] = {}
    last = len(types)

    def best(i: int, j: int) -> tuple[float, int, int] | None:
        """(price, VMs, VMs of types[i]) of the best cover of j with types[i:]."""
        if j <= 0:
            return (0.0, 0, 0)
        if i == last:
            return None
        key = (i, j)
        if key in memo:
            return memo[key]
        t = types[i]
        kt, pt = k[t], p[t]
        if i == last - 1:  # the last type alone: just enough VMs of it, if there are enough
            c = -(-j // kt)
            return (c * pt, c, c) if c <= n_eff[t] else None
        out: tuple[float, int, int] | None = None
        for c in range(min(n_eff[t], -(-j // kt)), -1, -1):  # most VMs first: ties keep the most
            sub = best(i + 1, j - c * kt)
            if sub is None:
                continue
            cost, cnt = sub[0] + c * pt, sub[1] + c
            if out is None or cost < out[0] - tol or (cost <= out[0] + tol and cnt < out[1]):
                out = (cost, cnt, c)
        memo[key] = out
        return out

    chosen = [0] * len(k)
    j = need
    for i, t in enumerate(types):
        if j <= 0:
            break
        found = best(i, j)
        assert found is not None  # the caller checked that a cover exists
        chosen[t] = found[2]
        j -= found[2] * k[t]
    return chosen


def _cover_dp(
    need: int,
    k: np.ndarray,
    p: np.ndarray,
    n_eff: np.ndarray,
    types: list[int],
    tol: float,
    deadline: float | None,
) -> list[int]:
    """DP over executors covered, lexicographic in (price, VMs); state j = "at least j covered".

    ``best[i]`` holds, for every j, the best (price, VMs) covering j with the types
    ``types[i:]``; the choice is then read forwards, taking as many VMs of each type as still
    allow an optimum (the last tie-break).
    """
    size = need + 1
    pos = np.arange(size)
    cost = np.full(size, np.inf)
    cost[0] = 0.0
    cnt = np.full(size, _BIG_COUNT, dtype=np.int64)
    cnt[0] = 0
    best: list[tuple[np.ndarray, np.ndarray]] = [(cost, cnt)]
    for t in reversed(types):
        base_cost, base_cnt = cost, cnt
        for c in range(1, int(n_eff[t]) + 1):  # c VMs of type t, on top of the later types
            src = np.maximum(pos - c * int(k[t]), 0)
            c_cost = base_cost[src] + c * p[t]
            c_cnt = base_cnt[src] + c
            better = (c_cost < cost - tol) | ((c_cost <= cost + tol) & (c_cnt < cnt))
            cost = np.where(better, c_cost, cost)
            cnt = np.where(better, c_cnt, cnt)
        best.append((cost, cnt))
        if deadline is not None and time.perf_counter() > deadline:
            raise SolverTimeout("the covering knapsack reached the time limit")
    best.reverse()  # best[i] now covers with types[i:]
    chosen = [0] * len(k)
    j = need
    for i, t in enumerate(types):
        rest_cost, rest_cnt = best[i + 1]
        cs = np.arange(int(n_eff[t]) + 1)
        src = np.maximum(j - cs * int(k[t]), 0)
        c_cost = rest_cost[src] + cs * p[t]
        c_cnt = rest_cnt[src] + cs
        ok = c_cost <= c_cost.min() + tol
        ok &= c_cnt == c_cnt[ok].min()
        c = int(cs[ok].max())
        chosen[t] = c
        j = max(j - c * int(k[t]), 0)
    return chosen


def _cover_highs(
    need: int, k: np.ndarray, p: np.ndarray, n_eff: np.ndarray, *, deadline: float | None
) -> Cover | None:
    """The covering knapsack as a MIP over VM types in HiGHS: the cheapest, then the fewest VMs."""
    cols = np.flatnonzero((k > 0) & (n_eff > 0))
    if len(cols) == 0:
        return None
    kk, pp, nn = k[cols].astype(float), p[cols].astype(float), n_eff[cols].astype(float)
    status, x = _highs_mip(pp, nn, [(kk, float(need), math.inf)], deadline)
    if status == "infeasible":
        return None
    cheapest = weighted_sum(pp.tolist(), np.round(x).tolist())
    tol = 1e-9 * max(1.0, cheapest)
    rows = [(kk, float(need), math.inf), (pp, -math.inf, cheapest + tol)]
    status, x2 = _highs_mip(np.ones(len(cols)), nn, rows, deadline)
    if status == "optimal":
        x = x2
    chosen = [0] * len(k)
    for c, value in zip(cols.tolist(), np.round(x).astype(np.int64).tolist(), strict=True):
        chosen[c] = value
    return Cover(float(sum(c * float(p[t]) for t, c in enumerate(chosen))), sum(chosen), tuple(chosen))


def _highs_mip(
    obj: np.ndarray, upper: np.ndarray, rows: list[tuple[np.ndarray, float, float]], deadline: float | None
) -> tuple[str, np.ndarray]:
    """Minimise ``obj @ x`` over integers ``0 <= x <= upper`` with dense rows ``lo <= a @ x <= hi``."""
    h = highspy.Highs()  # type: ignore[no-untyped-call]  # highspy's constructor has no hints
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 1e-9)
    h.setOptionValue("mip_heuristic_run_feasibility_jump", False)
    if deadline is not None:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise SolverTimeout("the covering knapsack reached the time limit")
        h.setOptionValue("time_limit", left)
    lp = highspy.HighsLp()
    n = len(obj)
    lp.num_col_ = n
    lp.num_row_ = len(rows)
    lp.col_cost_ = np.asarray(obj, dtype=float)
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.asarray(upper, dtype=float)
    lp.row_lower_ = np.array([max(r[1], -highspy.kHighsInf) for r in rows], dtype=float)
    lp.row_upper_ = np.array([min(r[2], highspy.kHighsInf) for r in rows], dtype=float)
    dense = np.array([r[0] for r in rows], dtype=float)  # rows x cols
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.arange(0, len(rows) * n + 1, len(rows), dtype=np.int32)
    lp.a_matrix_.index_ = np.tile(np.arange(len(rows), dtype=np.int32), n)
    lp.a_matrix_.value_ = dense.T.ravel()
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kOptimal:
        return "optimal", np.asarray(h.getSolution().col_value, dtype=float)
    if status == highspy.HighsModelStatus.kInfeasible:
        return "infeasible", np.zeros(n)
    if status == highspy.HighsModelStatus.kTimeLimit:
        raise SolverTimeout("HiGHS reached the time limit on the covering knapsack")
    raise SolverFailure(f"HiGHS ended with status {h.modelStatusToString(status)} on the covering knapsack")
