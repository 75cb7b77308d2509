"""A lower bound on what one candidate cluster can cost while it meets the target.

:mod:`scheduling.cost.bounds` bounds any schedule's cost by ``f(W)``: the cheapest fractional mix
of VM-hours covering the work ``W``. A candidate has at most ``n_t`` VMs of type ``t`` on at any
instant. The deadline jobs that meet their deadlines all run inside the *horizon* ``[a0, d1]``
(the first deadline job's arrival to the last absolute deadline, ``H = d1 - a0``), so their
work ``W_in`` is done with at most ``n_t * H`` VM-hours of each type:

    ``bound(n) = max( f(W), min p.y  s.t.  C^T y >= W_in,  0 <= y_t <= n_t H )``

The second term is the argument of :mod:`scheduling.cost.bounds` on the horizon (the cheapest
cover with at most ``n_t`` VMs of each type on is convex and zero at zero, so its integral over
the horizon is at least ``H`` times its value at the mean demand), and it is ``inf`` when even
every VM for the whole horizon cannot do ``W_in``: then the candidate cannot meet the target.
A target that allows ``k`` misses keeps only the work that at least the other deadline jobs do:
per resource, the deadline jobs' work less the ``k`` largest jobs' work of that resource.

**Reserved and spot prices** (version 4). A candidate's machines of a type are split between
its markets as :func:`.space.cluster_scenario` says (reserved first, then spot, then on demand).
The first term is then :func:`scheduling.cost.bounds.lower_bound_cost` of the candidate's scenario
(its reservations billed for the whole horizon, whatever is used); the second has one column
per type and market, at the market's price per hour, each bounded by that market's machines
times ``H`` (a reserved machine is billed at least its price for every hour it is used). The
bound over every cluster shape (:attr:`CandidateBounds.global_bound`, the gap's reference) is
``f(W)`` at each type's cheapest market price: no candidate beats it.

Fewer VMs only tighten the constraints, so without reservations ``bound(m) >= bound(n)`` when
``m <= n``: a bound holds for every cluster with at most those counts (with reserved machines a
smaller cluster may reserve fewer and have a lower bound; the search does not need monotony).
The value reported is the dual of the linear
program made feasible by construction (``mu_t = max(0, (C lambda)_t - p_t)``), so the solver's
tolerances can only make it lower, never higher, than the true minimum.

>>> from scheduling.scenario import parse_scenario
>>> s = parse_scenario({"resources": ["cpu"], "vm_types": [
...     {"name": "cheap", "capacity": {"cpu": 4}, "price_per_hour": 1},
...     {"name": "dear", "capacity": {"cpu": 4}, "price_per_hour": 2}], "jobs": [
...     {"id": "a", "arrival_s": 0, "executors": 8, "executor": {"cpu": 1}, "duration_s": 3600,
...      "deadline_s": 3600}]})
>>> b = CandidateBounds(s, max_missed=0)
>>> b.bounds(np.array([[2, 0], [1, 1], [1, 0], [0, 5]])).round(6).tolist()
[2.0, 3.0, inf, 4.0]
"""

from __future__ import annotations

import highspy
import numpy as np
from numpy.typing import NDArray

from ...scenario import MARKETS, Scenario
from ..bounds import cheapest_cover_cost, lower_bound_cost, work_resource_hours
from .space import cluster_scenario

__all__ = ["CandidateBounds"]

FloatArray = NDArray[np.float64]

#: Relative slack before a candidate's VM-hours are called too few for the horizon's work.
_SLACK = 1e-9


class CandidateBounds:
    """The bound of the module docstring for any candidate of ``scenario`` (counts in its VM
    types' order), given how many deadline misses the target allows (``max_missed``).

    One HiGHS model is built here and solved again per distinct candidate with new column
    bounds (a fraction of a millisecond each); results are cached per candidate. With reserved
    or spot prices the first term is one more small linear programme per distinct split of a
    candidate's machines between markets (cached too).
    """

    def __init__(self, scenario: Scenario, *, max_missed: int):
        self.scenario = scenario
        self.capacity = np.array([t.capacity for t in scenario.vm_types], dtype=float)  # (T, R)
        self.markets = scenario.has_market_prices
        #: The columns of the horizon's programme: (type, market) of every market a type has a price
        #: in (a candidate's split decides how many machines each gets: :meth:`_column_hours`).
        self.columns = [
            (t, m)
            for t, vt in enumerate(scenario.vm_types)
            for m, priced in zip(MARKETS, (vt.reserved is not None, vt.spot is not None, True), strict=True)
            if priced
        ]
        self.column_price = np.array(
            [scenario.vm_types[t].market_price(m) for t, m in self.columns], dtype=float
        )
        self.column_capacity = self.capacity[[t for t, _ in self.columns]]
        cheapest = np.array(
            [
                min(self.column_price[k] for k, (t2, _) in enumerate(self.columns) if t2 == t)
                for t in range(len(scenario.vm_types))
            ]
        )
        self.work = work = work_resource_hours(scenario)
        #: ``f(W)`` over every cluster shape, each type at its cheapest market's price: no candidate
        #: costs less (without markets, :func:`scheduling.cost.lower_bound_cost` of the scenario).
        self.global_bound = cheapest_cover_cost(self.capacity, cheapest, work)
        deadline_jobs = [j for j in scenario.jobs if j.deadline_s is not None]
        n_res = len(scenario.resources)
        self.horizon_s = 0.0
        self.work_in = np.zeros(n_res)
        if deadline_jobs and max_missed < len(deadline_jobs):
            self.horizon_s = max(j.arrival_s + float(j.deadline_s or 0.0) for j in deadline_jobs) - min(
                j.arrival_s for j in deadline_jobs
            )
            per_job = np.array(
                [
                    np.asarray(j.executor, dtype=float) * (j.executors * j.duration_s / 3600.0)
                    for j in deadline_jobs
                ]
            ).reshape(len(deadline_jobs), n_res)
            largest = -np.sort(-per_job, axis=0)[:max_missed].sum(axis=0) if max_missed > 0 else 0.0
            self.work_in = np.maximum(per_job.sum(axis=0) - largest, 0.0)
        self._cache: dict[tuple[int, ...], float] = {}
        self._market_cache: dict[tuple[tuple[int, int, int], ...], float] = {}
        self._highs: highspy.Highs | None = None

    def _model(self) -> highspy.Highs:
        if self._highs is None:
            h = highspy.Highs()  # type: ignore[no-untyped-call]  # highspy's constructor has no hints
            h.setOptionValue("output_flag", False)
            n_cols, n_res = self.column_capacity.shape
            h.addCols(
                n_cols,
                self.column_price,
                np.zeros(n_cols),
                np.full(n_cols, highspy.kHighsInf),
                0,
                np.zeros(n_cols + 1, np.int32),
                np.zeros(0, np.int32),
                np.zeros(0, float),
            )
            for r in range(n_res):
                if self.work_in[r] > 0:
                    h.addRow(
                        float(self.work_in[r]),
                        highspy.kHighsInf,
                        n_cols,
                        np.arange(n_cols, dtype=np.int32),
                        self.column_capacity[:, r].copy(),
                    )
            self._highs = h
        return self._highs

    def _column_hours(self, counts: NDArray[np.int64]) -> FloatArray:
        """Per column, the most VM-hours the candidate's machines of that market give in ``H``."""
        split = [t.market_counts() for t in cluster_scenario(self.scenario, list(counts)).vm_types]
        by_type = {
            vt.name: m
            for vt, m in zip(
                (t for t, n in zip(self.scenario.vm_types, counts, strict=True) if n > 0), split, strict=True
            )
        }
        hours = [by_type.get(self.scenario.vm_types[t].name, {}).get(m, 0) for t, m in self.columns]
        return np.asarray(hours, dtype=float) * (self.horizon_s / 3600.0)

    def horizon_bound(self, counts: NDArray[np.int64]) -> float:
        """The second term of the module docstring for one candidate (``inf``: it cannot do the
        horizon's work), without the first."""
        key = tuple(int(n) for n in counts)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        hours = self._column_hours(counts)
        reach = hours @ self.column_capacity  # resource-hours of every VM on for the whole horizon
        if (reach < self.work_in * (1 - _SLACK)).any():
            value = float("inf")
        elif not (self.work_in > 0).any():
            value = 0.0
        else:
            value = self._solve(hours)
        self._cache[key] = value
        return value

    def _solve(self, hours: FloatArray) -> float:
        h = self._model()
        n_cols = len(hours)
        h.changeColsBounds(n_cols, np.arange(n_cols, dtype=np.int32), np.zeros(n_cols), hours)
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            # Feasible (checked above) and bounded (prices >= 0): only a numerical failure of
            # the solver; the first term alone is still valid.
            return 0.0
        rows = [r for r in range(self.capacity.shape[1]) if self.work_in[r] > 0]
        lam = np.maximum(np.asarray(h.getSolution().row_dual, dtype=float), 0.0)
        # Dual feasible by construction: mu_k = max(0, (C lam)_k - p_k); its value bounds the LP below.
        mu = np.maximum(self.column_capacity[:, rows] @ lam - self.column_price, 0.0)
        return max(float(self.work_in[rows] @ lam - hours @ mu), 0.0)

    def whole_bound(self, counts: NDArray[np.int64]) -> float:
        """The first term: ``f(W)`` (the same for every candidate), or with reserved or spot
        prices :func:`scheduling.cost.lower_bound_cost` of the candidate's scenario."""
        if not self.markets:
            return self.global_bound
        candidate = cluster_scenario(self.scenario, list(counts))
        if not candidate.vm_types:  # no VM at all: no work gets done
            return float("inf") if (self.work > 0).any() else 0.0
        split = {t.name: t.market_counts() for t in candidate.vm_types}
        key = tuple(
            (m["reserved"], int(m["spot"] > 0), int(m["on_demand"] > 0))
            for m in (
                split.get(t.name, {"reserved": 0, "spot": 0, "on_demand": 0}) for t in self.scenario.vm_types
            )
        )
        value = self._market_cache.get(key)
        if value is None:
            value = self._market_cache[key] = lower_bound_cost(candidate)
        return value

    def bounds(self, counts: NDArray[np.int64]) -> FloatArray:
        """``bound(n)`` of every candidate (row of ``counts``)."""
        out = np.array([max(self.horizon_bound(row), self.whole_bound(row)) for row in counts], dtype=float)
        return np.asarray(np.maximum(out, self.global_bound), dtype=float)
