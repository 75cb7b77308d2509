"""The solver plumbing of the exact fair allocations (:mod:`scheduling.fairness.exact`): a
HiGHS model kept between solves, the allocation variables of a problem (one per framework and
server pool that fits) with the capacity rows of paper 000's eq. (1) over them, the checks
every method makes, and :class:`ExactResult`, what every method returns.

Whole tasks give up after :data:`INTEGER_TIME_LIMIT_S` seconds (:func:`_integer_deadline`;
read here only, so a test may change it here).
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
from .model import FairnessProblem

__all__ = ["INTEGER_TIME_LIMIT_S", "ExactResult"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
_Row = tuple[NDArray[np.int32], FloatArray]  # a sparse row: column indices, coefficients

#: Whole tasks (mixed-integer programs) give up, with an error, after this many seconds per call.
INTEGER_TIME_LIMIT_S = 60.0
#: A linear program with more columns than this is first solved by interior point.
LARGE_LP_COLUMNS = 20_000
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
    :func:`~scheduling.fairness.exact_mmf.mmf_allocation`,
    :func:`~scheduling.fairness.exact_pf.pf_allocation` and docs/results.md).
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


def _integer_deadline(start: float) -> float:
    """When whole tasks give up: :data:`INTEGER_TIME_LIMIT_S` after ``start`` (a ``perf_counter``)."""
    return start + INTEGER_TIME_LIMIT_S


def _tolerance(tolerance: float | None, default: float) -> float:
    if tolerance is None:
        return default
    if not (isinstance(tolerance, int | float) and math.isfinite(tolerance) and 0 < tolerance < 1):
        raise ScenarioError.single("tolerance", "must be a number between 0 and 1 (exclusive)")
    return float(tolerance)
