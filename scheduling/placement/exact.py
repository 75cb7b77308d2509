"""Exact (cost-optimal) executor placement for one job: the "ILP" placement of paper 003.

Algorithm 2 of paper 003 solves, for each job, the integer programme of its Section 4.2:

* eq. 1: minimise ``sum_k P_k sum_j y_jk``, the price of the VMs used;
* eq. 2: every executor ``i`` goes to exactly one VM (``sum_jk x_ijk = 1``);
* eqs. 3-4: the executors on a VM fit in its free capacity, for every resource, and only on a
  VM that is used (``sum_i x_ijk tau^r <= omega^r_jk y_jk``);

with the VMs already on fixed at ``y_jk = 1``, so their price is a constant (sunk) and the
objective is really the summed hourly price of the VMs newly turned on.

Three methods solve it, chosen by ``PlacementContext.ilp_method``:

``"knapsack"`` (default)
    The exact special-case algorithm. A job's executors are identical, so VM ``v`` holds at most
    ``k_v = floor(min_r free_vr / d_r)`` of them and the VMs are otherwise independent. Putting
    an executor on a VM that is already on costs nothing, so an optimum fills those first; the
    ``need`` executors left over are covered by idle VMs, and identical idle VMs of one type are
    interchangeable. What remains is a bounded covering knapsack over VM types (type ``t``: holds
    ``k_t`` executors, costs ``P_t``, ``n_t`` idle), solved exactly by :func:`min_new_vm_cost`.
``"integer"``
    A PuLP model with an integer executor count per VM already on and, per VM type, integer counts
    of new VMs and of the executors on them (identical idle VMs aggregated), solved in-process by
    HiGHS.
``"binary"``
    The paper's own formulation (eqs. 1-4, binary ``x_ijk`` and ``y_jk``) solved by PuLP's
    bundled CBC. It is highly symmetric and slow on large clusters; it is kept as the reference
    the other methods are checked against.

Among optimal placements, ties are broken the same way by every method: the fewest new VMs, then
the most VMs of the first type in BFD's type order (ascending RA of the full capacity, eq. 8, then
price), then of the next type, and so on; executors go first to the VMs already on, in BFD order
(ascending RA of their free capacity, index breaking ties), then to the new VMs, taken lowest
index first within a type and in BFD's type order. The solver methods take the knapsack's cover
when it has the price the solver proved optimal, so every method returns the same placement
whenever it finds the optimum (prices proportional to size, as in Table 3 of paper 003, make
such ties common).

If a solver stops at ``ilp_time_limit_s`` without proving optimality, the placement falls back to
BFD (Algorithm 3), as the paper's discussion proposes, and the context records that it did.
"""

from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass
from typing import Any, NamedTuple

import highspy
import numpy as np
import pulp

from ..cluster import Cluster, PlacementContext
from ..errors import SolverTimeout
from .heuristics import Assignment, place_bfd

METHODS = ("knapsack", "integer", "binary")

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


@dataclass(frozen=True)
class ExactPlacement:
    """An optimal placement and what the method found (used by tests and the benchmark)."""

    assignment: Assignment
    new_cost: float  # hourly price of the machines this placement turns on
    new_machines: int
    method: str
    solver_cost: float  # the new-VM price of the method's own optimum, before the tie-break


class _SolverFailure(Exception):
    """A solver ended without a usable proven optimum (for a reason other than its time limit)."""


# --------------------------------------------------------------------------- the public entry


def place_ilp(
    cluster: Cluster, demand: np.ndarray, executors: int, allowed_types: np.ndarray, ctx: PlacementContext
) -> Assignment | None:
    """Cost-optimal executor placement (Algorithm 2 of paper 003).

    Minimises the summed hourly price of the machines newly turned on (eq. 1 with the VMs
    already on fixed at ``y = 1``), every executor on exactly one machine (eq. 2) within its free
    capacity for every resource (eqs. 3-4), on machines whose type the job may use. The method is
    ``ctx.ilp_method`` (``"knapsack"``, ``"integer"`` or ``"binary"``; see the module docstring).
    If the method reaches ``ctx.ilp_time_limit_s`` without proving optimality, the BFD placement
    (:func:`~scheduling.placement.heuristics.place_bfd`) is returned instead, and
    ``ctx.stats["ilp_fallbacks"]`` and an ``"ilp_fallback"`` event record it. Every call counts
    in ``ctx.stats["ilp_decisions"]``. The cluster is not changed.

    Parameters
    ----------
    cluster : Cluster
        The cluster's current state.
    demand : numpy.ndarray
        One executor's demand per resource, in the scenario's resource order.
    executors : int
        How many executors the job needs; it is placed whole or not at all.
    allowed_types : numpy.ndarray
        Boolean mask over VM types: the types the job's framework may use.
    ctx : PlacementContext
        RUT weights, the method, its time limit and the stats sink.

    Returns
    -------
    dict[int, int] or None
        ``{machine index: executors}``, or ``None`` when the job cannot be placed whole now.

    Examples
    --------
    The example of Figs. 2-3 of paper 003: VMs of 2, 4, 6 and 8 cores priced 1, 2, 3 and 4.
    Job 1 (two 1-core executors) goes to VM-1; job 2 (two 2-core executors) then to VM-2.

    >>> import numpy as np
    >>> from scheduling.cluster import Cluster, PlacementContext
    >>> from scheduling.scenario import parse_scenario
    >>> sc = parse_scenario({"resources": ["cpu"], "vm_types": [
    ...     {"name": f"vm{i}", "capacity": {"cpu": 2 * i}, "price_per_hour": i} for i in (1, 2, 3, 4)],
    ...     "jobs": [{"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 1}]})
    >>> cluster, ctx, every_type = Cluster(sc), PlacementContext(rut=np.array([1.0])), np.ones(4, bool)
    >>> job1 = place_ilp(cluster, np.array([1.0]), 2, every_type, ctx)
    >>> job1
    {0: 2}
    >>> _ = cluster.apply(job1, np.array([1.0]))
    >>> place_ilp(cluster, np.array([2.0]), 2, every_type, ctx)
    {1: 2}
    >>> place_ilp(cluster, np.array([2.0]), 10, every_type, ctx) is None  # 9 slots of 2 cores left
    True
    >>> ctx.stats
    {'ilp_decisions': 3}
    """
    ctx.count("ilp_decisions")
    method = ctx.ilp_method
    try:
        found = exact_placement(
            cluster,
            demand,
            executors,
            allowed_types,
            ctx.rut,
            method=method,
            time_limit_s=ctx.ilp_time_limit_s,
        )
    except (SolverTimeout, _SolverFailure) as exc:
        ctx.count("ilp_fallbacks")
        ctx.events.append({"kind": "ilp_fallback", "reason": str(exc), "method": method})
        return place_bfd(cluster, demand, executors, allowed_types, ctx)
    return None if found is None else found.assignment


def exact_placement(
    cluster: Cluster,
    demand: np.ndarray,
    executors: int,
    allowed_types: np.ndarray,
    rut: np.ndarray,
    *,
    method: str = "knapsack",
    time_limit_s: float = 10.0,
) -> ExactPlacement | None:
    """The optimal placement and its new-VM price, or ``None`` if the job cannot be placed now.

    This is :func:`place_ilp` without the fallback: it raises
    :class:`~scheduling.errors.SolverTimeout` when the method stops at ``time_limit_s`` without
    proving optimality.

    Examples
    --------
    >>> import numpy as np
    >>> from scheduling.cluster import Cluster
    >>> from scheduling.scenario import parse_scenario
    >>> sc = parse_scenario({"resources": ["cpu"], "vm_types": [
    ...     {"name": "small", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 2},
    ...     {"name": "big", "capacity": {"cpu": 6}, "price_per_hour": 1.2}],
    ...     "jobs": [{"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 1}]})
    >>> p = exact_placement(Cluster(sc), np.array([1.0]), 6, np.ones(2, bool), np.array([1.0]))
    >>> p.assignment, p.new_cost  # BFD would turn on both small VMs, for 2.0 an hour
    ({2: 6}, 1.2)
    """
    if method not in METHODS:
        raise ValueError(f"unknown ILP method {method!r}; expected one of {', '.join(METHODS)}")
    if executors <= 0:
        return ExactPlacement({}, 0.0, 0, method, 0.0)
    start = time.perf_counter()
    deadline = start + time_limit_s
    snap = _Snapshot.take(
        cluster,
        np.asarray(demand, dtype=float),
        executors,
        np.asarray(allowed_types, bool),
        rut,
        every_machine_on=method != "knapsack",
    )
    need = executors - snap.room
    if need > int((snap.type_fits * snap.idle).sum()):
        return None  # ordinary infeasibility: not enough room, on and off together
    if method == "knapsack":
        cover = min_new_vm_cost(
            need, snap.type_fits, cluster.type_price, snap.idle, order=snap.type_order, deadline=deadline
        )
        if cover is None:  # unreachable after the check above
            return None
        solver_cost = cover.cost
        counts = cover.counts
    else:
        if method == "integer":
            solver_cost, counts = _solve_integer(cluster, snap, executors, deadline, time_limit_s)
        else:
            solver_cost, counts = _solve_binary(cluster, snap, executors, deadline, time_limit_s)
        counts = _canonical_counts(cluster, snap, need, counts, solver_cost, deadline)
    assignment, new_cost, new_machines = snap.realise(cluster, counts, executors)
    return ExactPlacement(assignment, new_cost, new_machines, method, solver_cost)


# --------------------------------------------------------------------------- the covering knapsack


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


# --------------------------------------------------------------------------- the cluster snapshot


@dataclass
class _Snapshot:
    """What every method needs about the cluster for one job, computed once."""

    demand: np.ndarray  # one executor's demand per resource
    on_idx: np.ndarray  # allowed machines already on that fit an executor, in BFD order
    on_fits: np.ndarray  # executors each of them still holds
    room: int  # executors the allowed machines already on hold in all
    type_fits: np.ndarray  # executors an empty VM of each type holds (0 if not allowed)
    idle: np.ndarray  # idle VMs per type (0 if not allowed)
    type_order: list[int]  # BFD's order of types for new VMs

    @classmethod
    def take(
        cls,
        cluster: Cluster,
        demand: np.ndarray,
        executors: int,
        allowed: np.ndarray,
        rut: np.ndarray,
        *,
        every_machine_on: bool,
    ) -> _Snapshot:
        """Read the cluster for one job.

        With ``every_machine_on`` false only the ``executors`` machines already on that come
        first in BFD order are kept: each holds at least one executor, so the others can never
        receive one (the solver models keep them all, as the paper's model does).
        """
        fits_all = cluster.fits_all(demand)
        cand = np.flatnonzero((fits_all > 0) & cluster.on & cluster.allowed_mask(allowed))
        fits = fits_all[cand].astype(np.int64)
        room = int(fits.sum())
        if len(cand) > 1:
            # Algorithm 3's order: ascending RA (eq. 8) of the free capacity, index breaking ties.
            ra = cluster.ra(cluster.free[cand], rut)
            first = _smallest_first(ra, len(cand) if every_machine_on else executors)
            cand, fits = cand[first], fits[first]
        type_fits = cluster.type_fit_counts(demand) * allowed
        idle = cluster.idle_counts() * allowed
        return cls(demand, cand, fits, room, type_fits, idle, _type_order(cluster, rut))

    def realise(
        self, cluster: Cluster, counts: tuple[int, ...], executors: int
    ) -> tuple[Assignment, float, int]:
        """Fill the machines already on in BFD order, then ``counts`` new VMs per type."""
        out: Assignment = {}
        remaining = executors
        for v, k in zip(self.on_idx.tolist(), self.on_fits.tolist(), strict=True):
            if remaining == 0:
                break
            take = min(k, remaining)
            out[v] = take
            remaining -= take
        new_cost, new_machines = 0.0, 0
        for t in self.type_order:
            if remaining == 0:
                break
            if counts[t] <= 0:
                continue
            k_t = int(self.type_fits[t])
            for v in cluster.idle_of_type(t, counts[t]):
                if remaining == 0:
                    break  # an over-full choice: the VM left empty is not turned on
                take = min(k_t, remaining)
                out[v] = take
                remaining -= take
                new_cost += float(cluster.type_price[t])
                new_machines += 1
        if remaining:
            raise _SolverFailure(f"the chosen VMs hold {executors - remaining} of {executors} executors")
        return out, new_cost, new_machines


def _smallest_first(keys: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` smallest keys in ascending order, position breaking ties.

    The same as ``np.argsort(keys, kind="stable")[:k]``, in O(n + k log k).
    """
    if k >= len(keys):
        return np.argsort(keys, kind="stable")
    kth = np.partition(keys, k - 1)[k - 1]
    below = np.flatnonzero(keys < kth)
    chosen = np.concatenate([below, np.flatnonzero(keys == kth)[: k - len(below)]])
    return chosen[np.argsort(keys[chosen], kind="stable")]


_TYPE_ORDERS: weakref.WeakKeyDictionary[Cluster, dict[bytes, list[int]]] = weakref.WeakKeyDictionary()


def _type_order(cluster: Cluster, rut: np.ndarray) -> list[int]:
    """BFD's order of VM types for new VMs: ascending RA of the full capacity, then price, index.

    It depends only on the VM types and the RUT, so it is computed once per cluster and RUT.
    """
    per_rut = _TYPE_ORDERS.setdefault(cluster, {})
    key = np.asarray(rut, dtype=float).tobytes()
    order = per_rut.get(key)
    if order is None:
        type_ra = cluster.ra(cluster.type_capacity, rut)
        order = per_rut[key] = np.lexsort((np.arange(len(type_ra)), cluster.type_price, type_ra)).tolist()
    return order


# --------------------------------------------------------------------------- solver methods


def _remaining(deadline: float, what: str, limit: float) -> float:
    left = deadline - time.perf_counter()
    if left <= 0:
        raise SolverTimeout(f"the time limit ({limit:g} s) was reached while building the {what} model")
    return left


def _solve_integer(
    cluster: Cluster, snap: _Snapshot, executors: int, deadline: float, limit: float
) -> tuple[float, tuple[int, ...]]:
    """Aggregated integer model in PuLP, solved in-process by HiGHS; returns (price, VMs per type)."""
    prob = pulp.LpProblem("exact_placement_integer", pulp.LpMinimize)
    # Executors on each machine already on: their capacity rows (eqs. 3-4) reduce to a bound,
    # since executors are identical: d_r x_v <= free_vr for all r <=> x_v <= k_v.
    x_on = [
        pulp.LpVariable(f"x_on_{v}", 0, int(k), cat=pulp.LpInteger)
        for v, k in zip(snap.on_idx.tolist(), snap.on_fits.tolist(), strict=True)
    ]
    # Identical idle VMs of a type pooled: c_t of them turned on, e_t executors on them.
    c_new: dict[int, pulp.LpVariable] = {}
    e_new: dict[int, pulp.LpVariable] = {}
    for t in np.flatnonzero((snap.type_fits > 0) & (snap.idle > 0)).tolist():
        n_t, k_t = int(snap.idle[t]), int(snap.type_fits[t])
        c_new[t] = pulp.LpVariable(f"c_{t}", 0, n_t, cat=pulp.LpInteger)
        e_new[t] = pulp.LpVariable(f"e_{t}", 0, n_t * k_t, cat=pulp.LpInteger)
        prob += e_new[t] <= k_t * c_new[t], f"fit_{t}"  # eqs. 3-4, per pooled type
    prob += pulp.lpSum(float(cluster.type_price[t]) * c for t, c in c_new.items())  # eq. 1
    prob += pulp.lpSum(x_on) + pulp.lpSum(e_new.values()) == executors, "place_all"  # eq. 2
    solver = pulp.HiGHS(
        msg=False,
        timeLimit=_remaining(deadline, "integer", limit),
        gapRel=0.0,
        gapAbs=1e-9,
        mip_heuristic_run_feasibility_jump=False,  # ~4 ms on every small MIP, no help here
    )
    prob.solve(solver)
    # PuLP maps HiGHS's time-limit stop to "Optimal": read the real status from HiGHS.
    status = prob.solverModel.getModelStatus()
    if status == highspy.HighsModelStatus.kTimeLimit:
        raise SolverTimeout(f"HiGHS reached the time limit ({limit:g} s) without proving optimality")
    if status != highspy.HighsModelStatus.kOptimal:
        raise _SolverFailure(f"HiGHS ended with status {prob.solverModel.modelStatusToString(status)}")
    counts = [0] * len(cluster.type_names)
    for t, c in c_new.items():
        counts[t] = round(c.varValue or 0.0)
    cost = float(sum(counts[t] * float(cluster.type_price[t]) for t in c_new))
    return cost, tuple(counts)


def _solve_binary(
    cluster: Cluster, snap: _Snapshot, executors: int, deadline: float, limit: float
) -> tuple[float, tuple[int, ...]]:
    """The paper's model (eqs. 1-4) solved by CBC; returns (price, new VMs used per type)."""
    demand_rows = np.flatnonzero(snap.demand > 0).tolist()
    # Machines that can hold an executor at all (an exact reduction: eqs. 3-4 force x = 0 on
    # the others): the ones already on (y fixed at 1, so omega is their free capacity) and the
    # idle ones of allowed types (y free, omega their full capacity).
    idle_v = [
        v
        for t in range(len(snap.idle))
        if snap.type_fits[t] > 0
        for v in cluster.idle_of_type(t, int(snap.idle[t]))
    ]
    on_v = snap.on_idx.tolist()
    machines = on_v + idle_v
    n_on = len(on_v)
    prob = pulp.LpProblem("exact_placement_binary", pulp.LpMinimize)
    x = [[pulp.LpVariable(f"x_{i}_{v}", cat=pulp.LpBinary) for v in machines] for i in range(executors)]
    y = {v: pulp.LpVariable(f"y_{v}", cat=pulp.LpBinary) for v in idle_v}
    # eq. 1 (the VMs already on contribute a constant and are left out)
    prob += pulp.lpSum(float(cluster.price[v]) * y[v] for v in idle_v)
    for i in range(executors):  # eq. 2
        prob += pulp.lpSum(x[i]) == 1, f"place_{i}"
    for j, v in enumerate(machines):  # eqs. 3-4, one row per resource the executor uses
        for r in demand_rows:
            load = pulp.lpSum(float(snap.demand[r]) * x[i][j] for i in range(executors))
            if j < n_on:
                prob += load <= float(cluster.free[v, r]), f"cap_{v}_{r}"
            else:
                prob += load <= float(cluster.capacity[v, r]) * y[v], f"cap_{v}_{r}"
    left = _remaining(deadline, "binary", limit)
    prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=max(left, 0.01)))
    # CBC stopped by its time limit with a solution reports status Optimal but solution status
    # "integer feasible": only LpSolutionOptimal is a proof.
    if prob.sol_status != pulp.LpSolutionOptimal:
        if prob.sol_status == pulp.LpSolutionIntegerFeasible:
            raise SolverTimeout(
                f"CBC reached the time limit ({limit:g} s) with a placement it had not proved optimal"
            )
        if prob.sol_status == pulp.LpSolutionNoSolutionFound:
            raise SolverTimeout(f"CBC reached the time limit ({limit:g} s) without finding a placement")
        raise _SolverFailure(f"CBC ended with status {pulp.LpStatus[prob.status]}")
    counts = [0] * len(cluster.type_names)
    for j in range(n_on, len(machines)):
        if any((x[i][j].varValue or 0.0) > 0.5 for i in range(executors)):
            counts[int(cluster.type_of[machines[j]])] += 1
    cost = float(sum(c * float(cluster.type_price[t]) for t, c in enumerate(counts)))
    return cost, tuple(counts)


def _canonical_counts(
    cluster: Cluster, snap: _Snapshot, need: int, counts: tuple[int, ...], cost: float, deadline: float
) -> tuple[int, ...]:
    """The tie-break for the solver methods: the knapsack's cover if it has the solver's price.

    Every method then returns the same placement whenever it finds the same optimal price. If
    the prices differ (a solver's "optimum" that is not, or a bug), the solver's own choice is
    kept, so that its price is what the caller sees.
    """
    try:
        cover = min_new_vm_cost(
            need, snap.type_fits, cluster.type_price, snap.idle, order=snap.type_order, deadline=deadline
        )
    except (SolverTimeout, _SolverFailure):
        return counts
    if cover is not None and abs(cover.cost - cost) <= 1e-9 * max(1.0, cost):
        return cover.counts
    return counts


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
    cheapest = float(pp @ np.round(x))
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
    h = highspy.Highs()
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
    raise _SolverFailure(f"HiGHS ended with status {h.modelStatusToString(status)} on the covering knapsack")
