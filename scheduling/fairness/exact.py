"""Exact fair allocations (paper 000, Section III; notes §3): U-MMF and proportional fairness.

Both optimise over the capacity constraints (1) of paper 000: on every server ``i`` and resource
``r``, ``sum_n x[n][i] d[n][r] <= c[i][r]``, with ``x[n][i] = 0`` where ``delta[n][i] = 0``.

* :func:`mmf_allocation`, weighted U-MMF (Definition 1, computed as the leximin of notes §3)
  with ``U_n = x_n / phi_n`` (eq. 2 with ``u[n][i] = 1``: tasks per unit of weight, so one server
  of one resource is split in proportion to the weights), by water-filling: a sequence of linear
  programs, each maximising the common level ``t`` of the frameworks still growing, then freezing
  the ones that cannot rise above it. With ``integer=True``, whole tasks: the lexicographic
  max-min (leximin) of the ``U_n`` over integer allocations, by a sequence of mixed-integer
  programs.
* :func:`pf_allocation`, weighted proportional fairness (eq. 8 with ``a = 1``): maximise
  ``sum_n phi_n log(x_n)``, ``log`` replaced by tangent (fractional) or chord (integer) cutting
  planes added until the approximation is within ``tolerance``.
* :func:`pf_inequality`, paper 000's inequality (9) of an allocation against a PF allocation.

Frameworks whose task fits on no server they allow (not even a fraction of one, when
fractional) get nothing and are left out of the max-min and of the log objective: with them,
the smallest level and the sum of logs would be ``0`` and ``-inf`` whatever the others get.
``meta["excluded"]`` names them.

The solver is HiGHS, driven through ``highspy`` in-process, not through PuLP: water-filling and
cutting planes solve the same model many times with a few rows or bounds changed, and PuLP's
HiGHS interface rebuilds the whole model, one Python call per row and column, for every solve
(notes, "Solver facts"); highspy keeps the model and re-optimises from the previous basis. The
solver prints nothing (``output_flag`` off).

For fractional allocations, servers with the same capacity and the same set of frameworks
allowed on them are interchangeable, so they are pooled into one server with their summed
capacity, solved, and each gets an even share of the pool's allocation back: an exact
reformulation (any allocation of the pool split evenly is feasible on every member, and any
allocation of the members sums to one of the pool), which makes 1,000 servers of 10 types a
problem of at most 10 pools. A scenario's problem always pools by VM type (frameworks allow VM
types, not single machines), so only hand-built problems that allow single servers stay large.
Whole tasks do not pool (a pool's capacity may fit tasks that its servers, each alone, cannot),
so integer models have a variable per framework and server.

Paper 000's Table I set-up (servers ``c1 = (100, 30)``, ``c2 = (30, 100)``; demands
``d1 = (5, 1)``, ``d2 = (1, 5)``):

>>> from scheduling.fairness.model import FairnessProblem
>>> p = FairnessProblem(resources=("cpu", "mem"), machines=("c1#1", "c2#1"), machine_types=("c1", "c2"),
...     capacity=np.array([[100.0, 30.0], [30.0, 100.0]]), frameworks=("f1", "f2"),
...     demand=np.array([[5.0, 1.0], [1.0, 5.0]]), weight=np.ones(2), allowed=np.ones((2, 2), bool))
>>> mmf = mmf_allocation(p, integer=False)
>>> np.round(mmf.x, 4).tolist()   # c1 full in both resources: 5a + b = 100, a + 5b = 30
[[19.5833, 2.0833], [2.0833, 19.5833]]
>>> {f: round(v, 6) for f, v in mmf.meta["levels"].items()}   # 520/24 tasks each
{'f1': 21.666667, 'f2': 21.666667}
>>> mmf_allocation(p, integer=True).x.tolist()
[[19.0, 2.0], [2.0, 19.0]]
>>> pf = pf_allocation(p, integer=False)
>>> np.round(pf.x.sum(axis=1), 3).tolist()   # symmetric, so PF is MMF here
[21.667, 21.667]
>>> pf_inequality(p, np.array([[19.0, 2.0], [2.0, 19.0]]), pf.x)["holds"]
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import highspy
import numpy as np
from numpy.typing import NDArray

from ..errors import ScenarioError
from . import criteria
from .model import FairnessProblem

__all__ = [
    "DEFAULT_MMF_TOLERANCE",
    "DEFAULT_PF_INTEGER_TOLERANCE",
    "DEFAULT_PF_TOLERANCE",
    "INTEGER_TIME_LIMIT_S",
    "MMF_CRITERIA",
    "ExactResult",
    "criterion_factor",
    "mmf_allocation",
    "pf_allocation",
    "pf_inequality",
]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
_Row = tuple[NDArray[np.int32], FloatArray]  # a sparse row: column indices, coefficients

#: PF: the largest overestimate of any ``log(x_n)`` by the cutting planes at the solution.
DEFAULT_PF_TOLERANCE = 1e-4
#: PF with whole tasks: the gap of ``sum_n phi_n log x_n`` to the optimum, over ``sum_n phi_n``,
#: at which the mixed-integer search stops. Closing the last 1e-3 took HiGHS over 30 s on 5
#: frameworks x 6 servers (many near-optimal packings of identical servers to rule out), 1e-2
#: about 0.2 s.
DEFAULT_PF_INTEGER_TOLERANCE = 1e-2
#: MMF: how far (relatively) a frozen framework's level may sag below the level it froze at.
DEFAULT_MMF_TOLERANCE = 1e-7
#: Whole tasks (mixed-integer programs) give up, with an error, after this many seconds per call.
INTEGER_TIME_LIMIT_S = 60.0
#: A linear program with more columns than this is first solved by interior point.
LARGE_LP_COLUMNS = 20_000
#: PF's cutting planes stop (with an error) after this many rounds.
MAX_ROUNDS = 500
#: PF (fractional) goes on adding tangents until the log gap is this fraction of the tolerance,
#: when it can within :data:`MAX_ROUNDS` rounds (it stops at the tolerance itself otherwise).
POLISH = 1e-4
#: A task fits when every resource's capacity covers its demand to within this.
FIT_TOLERANCE = 1e-9

_INF = highspy.kHighsInf


@dataclass(frozen=True, eq=False)
class ExactResult:
    """One exact allocation: ``x`` (N, I) tasks of each framework on each server (floats, whole
    numbers when integer), and ``meta`` describing how it was found (JSON-ready).

    ``meta`` keys: ``method`` ("mmf" | "pf"), ``integer``, ``tolerance``, ``solver``,
    ``status``, ``objective``, ``stages`` (MMF) or ``cuts`` and ``rounds`` (PF), ``seconds``,
    ``excluded`` (frameworks that fit nowhere), ``server_pools`` and more per method (see
    :func:`mmf_allocation`, :func:`pf_allocation` and docs/results.md).
    """

    x: FloatArray
    meta: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------- the model


class _Model:
    """A HiGHS model kept between solves (columns and rows added, bounds and costs changed)."""

    def __init__(self, what: str, *, mip_abs_gap: float | None = None, deadline: float | None = None) -> None:
        self.what = what
        self.deadline = deadline
        self.h = highspy.Highs()  # type: ignore[no-untyped-call]  # highspy's constructor has no hints
        self.h.setOptionValue("output_flag", False)  # the CLI's stdout is JSON
        self.h.setOptionValue("mip_rel_gap", 0.0)
        self.h.setOptionValue("mip_abs_gap", 1e-7 if mip_abs_gap is None else mip_abs_gap)
        self.h.setOptionValue("mip_heuristic_run_feasibility_jump", False)  # ~4 ms per small MIP
        self.cols = 0
        self.rows = 0
        self.solves = 0
        self.integer = False

    def add_cols(self, cost: FloatArray, lower: FloatArray, upper: FloatArray, integer: bool = False) -> int:
        """Add columns without coefficients; returns the index of the first."""
        k = len(cost)
        first = self.cols
        self.h.addCols(k, np.asarray(cost, float), np.asarray(lower, float), np.asarray(upper, float),
                       0, np.zeros(k + 1, np.int32), np.zeros(0, np.int32), np.zeros(0, float))
        if integer and k:
            self.integer = True
            idx = np.arange(first, first + k, dtype=np.int32)
            self.h.changeColsIntegrality(k, idx, np.full(k, 1, np.uint8))  # kInteger
        self.cols += k
        return first

    def add_rows(self, lower: FloatArray, upper: FloatArray, rows: list[_Row]) -> int:
        """Add rows ``lower <= a @ x <= upper``, each ``a`` given sparse; returns the first index."""
        k = len(rows)
        first = self.rows
        if not k:
            return first
        starts = np.zeros(k, np.int32)
        starts[1:] = np.cumsum([len(ix) for ix, _ in rows])[:-1]
        index = np.concatenate([ix for ix, _ in rows]).astype(np.int32)
        value = np.concatenate([v for _, v in rows]).astype(float)
        lo, hi = np.asarray(lower, float), np.asarray(upper, float)
        self.h.addRows(k, lo, hi, len(index), starts, index, value)
        self.rows += k
        return first

    def solve(self) -> tuple[FloatArray, FloatArray]:
        """Optimise; returns (column values, row duals), or raises :class:`ScenarioError`."""
        if self.deadline is not None:
            left = self.deadline - time.perf_counter()
            if left <= 0:
                raise ScenarioError.single("policy", self._too_long())
            self.h.setOptionValue("time_limit", left)
        # A large first LP goes 4x faster by interior point (100 frameworks x 1,000 servers that
        # do not pool: 6.5 s against 26 s); later solves start from its basis by simplex.
        big = not self.integer and self.solves == 0 and self.cols > LARGE_LP_COLUMNS
        if big:
            self.h.setOptionValue("solver", "ipm")
        self.h.run()
        if big:
            self.h.setOptionValue("solver", "choose")
        self.solves += 1
        status = self.h.getModelStatus()
        if status == highspy.HighsModelStatus.kTimeLimit:
            raise ScenarioError.single("policy", self._too_long())
        if status != highspy.HighsModelStatus.kOptimal:
            text = self.h.modelStatusToString(status)
            raise ScenarioError.single("policy", f"the solver found no optimal {self.what} (HiGHS: {text})")
        sol = self.h.getSolution()
        return np.asarray(sol.col_value, float), np.asarray(sol.row_dual, float)

    def _too_long(self) -> str:
        return (f"the {self.what} took longer than {INTEGER_TIME_LIMIT_S:g} s: whole tasks make this an "
                "integer program, hard for large problems; use the fractional variant")


@dataclass(frozen=True)
class _Layout:
    """The allocation variables of a problem: one per (framework, server pool) pair that fits."""

    pool_of: NDArray[np.int64]  # (I,) the pool of each server
    size: NDArray[np.int64]  # (G,) servers per pool
    fits: BoolArray  # (N, G)
    pairs: NDArray[np.int64]  # (P, 2) framework, pool of each variable
    included: BoolArray  # (N,) frameworks with at least one variable

    def tasks_rows(self, first_col: int) -> list[_Row]:
        """For each framework: the columns (and unit coefficients) that sum to ``x_n``."""
        out = []
        for n in range(self.fits.shape[0]):
            cols = np.flatnonzero(self.pairs[:, 0] == n).astype(np.int32) + first_col
            out.append((cols, np.ones(len(cols))))
        return out


def _layout(problem: FairnessProblem, integer: bool) -> _Layout:
    n_srv = problem.allowed.shape[1]
    if integer:
        pool_of = np.arange(n_srv, dtype=np.int64)
        size = np.ones(n_srv, dtype=np.int64)
        cap = problem.capacity
        fits = (problem.demand[:, None, :] <= cap[None, :, :] + FIT_TOLERANCE).all(axis=2) & problem.allowed
    else:
        # Pools: servers with identical capacity and identical allowed columns.
        key = np.concatenate([problem.capacity, problem.allowed.T.astype(float)], axis=1)
        _, first, pool_of = np.unique(key, axis=0, return_index=True, return_inverse=True)
        pool_of = pool_of.reshape(-1).astype(np.int64)
        size = np.bincount(pool_of, minlength=len(first)).astype(np.int64)
        cap = problem.capacity[first]
        # A fraction of a task fits where every resource it needs is present.
        needs = problem.demand[:, None, :] > 0
        fits = (~needs | (cap[None, :, :] > 0)).all(axis=2) & problem.allowed[:, first]
    pairs = np.argwhere(fits).astype(np.int64)
    included: BoolArray = np.asarray(fits.any(axis=1), dtype=bool)
    return _Layout(pool_of, size, fits, pairs, included)


def _check(problem: FairnessProblem) -> None:
    if np.any(~(problem.weight > 0)):
        k = int(np.flatnonzero(~(problem.weight > 0))[0])
        raise ScenarioError.single("policy", f"framework {problem.frameworks[k]!r} needs a positive weight")
    idle = ~(problem.demand > 0).any(axis=1) & problem.allowed.any(axis=1)
    if idle.any():
        k = int(np.flatnonzero(idle)[0])
        raise ScenarioError.single(
            "policy",
            f"framework {problem.frameworks[k]!r} demands no resource per task, so it could run "
            "unboundedly many tasks",
        )


def _base_model(problem: FairnessProblem, lay: _Layout, what: str, integer: bool,
                mip_abs_gap: float | None = None, deadline: float | None = None) -> _Model:
    """Allocation columns (first) and capacity rows (eq. 1), per pool."""
    model = _Model(what, mip_abs_gap=mip_abs_gap, deadline=deadline)
    n_pairs = len(lay.pairs)
    if integer:
        # A server fits at most floor(min_r c / d) tasks of one framework: a bound that helps the MIP.
        d = problem.demand[lay.pairs[:, 0]]
        c = problem.capacity[lay.pairs[:, 1]]
        with np.errstate(divide="ignore", invalid="ignore"):
            most = np.where(d > 0, np.floor(c / d + FIT_TOLERANCE), np.inf).min(axis=1)
        upper = most
    else:
        upper = np.full(n_pairs, _INF)
    model.add_cols(np.zeros(n_pairs), np.zeros(n_pairs), upper, integer=integer)
    cap = np.zeros((len(lay.size), problem.capacity.shape[1]))
    np.add.at(cap, lay.pool_of, problem.capacity)
    rows: list[_Row] = []
    upper_rows = []
    for g in range(len(lay.size)):
        cols = np.flatnonzero(lay.pairs[:, 1] == g).astype(np.int32)
        if not len(cols):
            continue
        dem = problem.demand[lay.pairs[cols, 0]]  # (k, R)
        for r in range(dem.shape[1]):
            nz = dem[:, r] > 0
            if nz.any():
                rows.append((cols[nz], dem[nz, r]))
                upper_rows.append(cap[g, r])
    model.add_rows(np.full(len(rows), -_INF), np.asarray(upper_rows, float), rows)
    return model


def _spread(problem: FairnessProblem, lay: _Layout, values: FloatArray, integer: bool) -> FloatArray:
    """(N, I) from the pair variables: a pool's allocation split evenly over its servers."""
    pooled = np.zeros((problem.allowed.shape[0], len(lay.size)))
    pooled[lay.pairs[:, 0], lay.pairs[:, 1]] = np.maximum(values[: len(lay.pairs)], 0.0)
    if integer:
        pooled = np.round(pooled)
    x: FloatArray = pooled[:, lay.pool_of] / lay.size[lay.pool_of][None, :]
    return x


def _solver_name() -> str:
    return f"HiGHS {highspy.Highs().version()} (highspy)"  # type: ignore[no-untyped-call]


def _tolerance(tolerance: float | None, default: float) -> float:
    if tolerance is None:
        return default
    if not (isinstance(tolerance, int | float) and math.isfinite(tolerance) and 0 < tolerance < 1):
        raise ScenarioError.single("tolerance", "must be a number between 0 and 1 (exclusive)")
    return float(tolerance)


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
    from . import criteria

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
        :data:`INTEGER_TIME_LIMIT_S`; (path ``tolerance``) for a tolerance out of range.

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
    deadline = start + INTEGER_TIME_LIMIT_S if integer else None
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
      :func:`pf_inequality` allows).
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
        (path ``policy``) as :func:`mmf_allocation`, or when the cutting planes do not reach the
        tolerance in :data:`MAX_ROUNDS` rounds; (path ``tolerance``) for a tolerance out of range.

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
    deadline = time.perf_counter() + INTEGER_TIME_LIMIT_S
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


# ---------------------------------------------------------------------------- inequality (9)


def pf_inequality(
    problem: FairnessProblem, x: FloatArray, x_pf: FloatArray, *, tolerance: float | None = None
) -> dict[str, Any]:
    """Paper 000's inequality (9) (``a = 1``) of allocation ``x`` against the PF allocation ``x_pf``.

    ``Phi(x, x*) = sum_n phi_n (x_n - x*_n) / x*_n``, which is ``<= 0`` for every feasible ``x``
    when ``x*`` is proportional-fair (Proposition 2). Frameworks with ``x*_n = 0`` (excluded
    from PF: they fit nowhere) are left out of the sum. ``holds`` allows the slack that a PF
    allocation found to within ``tolerance`` guarantees (see :func:`pf_allocation`):
    ``1.1 sqrt(2 tolerance) sum_n phi_n |x_n - x*_n| / x*_n`` plus ``1e-9 sum_n phi_n``.

    Returns
    -------
    dict
        ``value`` (float), ``holds`` (bool), ``slack`` (float), ``reference`` ("pf"),
        ``per_framework`` (framework -> its term, ``None`` for a framework left out).

    Examples
    --------
    >>> p = FairnessProblem(resources=("cpu",), machines=("s#1",), machine_types=("s",),
    ...     capacity=np.array([[12.0]]), frameworks=("a", "b"), demand=np.array([[1.0], [2.0]]),
    ...     weight=np.array([2.0, 1.0]), allowed=np.ones((2, 1), bool))
    >>> d = pf_inequality(p, np.array([[6.0], [3.0]]), np.array([[8.0], [2.0]]))
    >>> d["value"], d["holds"], d["per_framework"]   # 2 (6 - 8) / 8 + (3 - 2) / 2
    (0.0, True, {'a': -0.5, 'b': 0.5})
    """
    tol = _tolerance(tolerance, DEFAULT_PF_TOLERANCE)
    xn = np.asarray(x, float).reshape(problem.allowed.shape).sum(axis=1)
    star = np.asarray(x_pf, float).reshape(problem.allowed.shape).sum(axis=1)
    phi = problem.weight
    counted = star > 0
    terms = np.zeros_like(xn)
    terms[counted] = phi[counted] * (xn[counted] - star[counted]) / star[counted]
    value = float(terms.sum())
    slack = 1.1 * math.sqrt(2 * tol) * float(np.abs(terms).sum()) + 1e-9 * float(phi.sum())
    return {
        "value": value,
        "holds": bool(value <= slack),
        "slack": slack,
        "reference": "pf",
        "per_framework": {
            f: (float(terms[n]) if counted[n] else None) for n, f in enumerate(problem.frameworks)
        },
    }
