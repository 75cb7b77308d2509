"""Exact (cost-optimal) executor placement for one job: the "ILP" placement of paper 003.

Algorithm 2 of paper 003 solves, for each job, the integer programme of its Section 4.2:

* eq. 1: minimise ``sum_k P_k sum_j y_jk``, the price of the VMs used;
* eq. 2: every executor ``i`` goes to exactly one VM (``sum_jk x_ijk = 1``);
* eqs. 3-4: the executors on a VM fit in its free capacity, for every resource, and only on a
  VM that is used (``sum_i x_ijk tau^r <= omega^r_jk y_jk``);

with the VMs already on fixed at ``y_jk = 1``, so their price is a constant (sunk) and the
objective is really the summed hourly price of the VMs newly turned on.

With reserved and spot prices (scenario version 4) ``P`` is each VM's *marginal* price: its spot
or on-demand price, and 0 for a reserved VM (billed for the whole horizon whether on or not).
Identical VMs are pooled by VM type *and market* (:class:`~scheduling.cost.cluster.Cluster`'s
pools), so every method below reads "type" as "pool"; without those prices a pool is a type.

Three methods solve it, chosen by ``PlacementContext.ilp_method``:

``"knapsack"`` (default)
    The exact special-case algorithm. A job's executors are identical, so VM ``v`` holds at most
    ``k_v = floor(min_r free_vr / d_r)`` of them and the VMs are otherwise independent. Putting
    an executor on a VM that is already on costs nothing, so an optimum fills those first; the
    ``need`` executors left over are covered by idle VMs, and identical idle VMs of one type are
    interchangeable. What remains is a bounded covering knapsack over VM types (type ``t``: holds
    ``k_t`` executors, costs ``P_t``, ``n_t`` idle), solved exactly by
    :func:`scheduling.cost.placement.knapsack.min_new_vm_cost`.
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

import time
from dataclasses import dataclass

import highspy
import numpy as np
import pulp

from ...errors import SolverFailure, SolverTimeout
from ..cluster import BfdKeys, BoolArray, Cluster, FloatArray, PlacementContext
from .heuristics import Assignment, place_bfd, used_vms
from .knapsack import min_new_vm_cost

METHODS = ("knapsack", "integer", "binary")


@dataclass(frozen=True)
class ExactPlacement:
    """An optimal placement and what the method found (used by tests and the benchmark)."""

    assignment: Assignment
    new_cost: float  # hourly price of the machines this placement turns on
    new_machines: int
    method: str
    solver_cost: float  # the new-VM price of the method's own optimum, before the tie-break


# --------------------------------------------------------------------------- the public entry


def place_ilp(
    cluster: Cluster, demand: FloatArray, executors: int, allowed_types: BoolArray, ctx: PlacementContext
) -> Assignment | None:
    """Cost-optimal executor placement (Algorithm 2 of paper 003).

    Minimises the summed hourly price of the machines newly turned on (eq. 1 with the VMs
    already on fixed at ``y = 1``), every executor on exactly one machine (eq. 2) within its free
    capacity for every resource (eqs. 3-4), on machines whose type the job may use. The method is
    ``ctx.ilp_method`` (``"knapsack"``, ``"integer"`` or ``"binary"``; see the module docstring).
    If the method reaches ``ctx.ilp_time_limit_s`` without proving optimality, the BFD placement
    (:func:`~scheduling.cost.placement.heuristics.place_bfd`) is returned instead, and
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
    >>> from scheduling.cost.cluster import Cluster, PlacementContext
    >>> from scheduling.scenario import parse_scenario
    >>> scenario = parse_scenario({"resources": ["cpu"], "vm_types": [
    ...     {"name": f"vm{i}", "capacity": {"cpu": 2 * i}, "price_per_hour": i} for i in (1, 2, 3, 4)],
    ...     "jobs": [{"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 1}]})
    >>> cluster, ctx, every_type = Cluster(scenario), PlacementContext(rut=np.array([1.0])), np.ones(4, bool)
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
    except (SolverTimeout, SolverFailure) as exc:
        ctx.count("ilp_fallbacks")
        ctx.events.append({"kind": "ilp_fallback", "job": ctx.job_id, "reason": str(exc), "method": method})
        return place_bfd(cluster, demand, executors, allowed_types, ctx)
    return None if found is None else found.assignment


def exact_placement(
    cluster: Cluster,
    demand: FloatArray,
    executors: int,
    allowed_types: BoolArray,
    rut: FloatArray,
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
    >>> from scheduling.cost.cluster import Cluster
    >>> from scheduling.scenario import parse_scenario
    >>> scenario = parse_scenario({"resources": ["cpu"], "vm_types": [
    ...     {"name": "small", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 2},
    ...     {"name": "big", "capacity": {"cpu": 6}, "price_per_hour": 1.2}],
    ...     "jobs": [{"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 1}]})
    >>> p = exact_placement(Cluster(scenario), np.array([1.0]), 6, np.ones(2, bool), np.array([1.0]))
    >>> p.assignment, p.new_cost  # BFD would turn on both small VMs, for 2.0 an hour
    ({2: 6}, 1.2)
    """
    if method not in METHODS:
        raise ValueError(f"unknown ILP method {method!r}; expected one of {', '.join(METHODS)}")
    if executors <= 0:
        return ExactPlacement({}, 0.0, 0, method, 0.0)
    demand = np.asarray(demand, dtype=float)
    allowed_types = np.asarray(allowed_types, bool)
    keys = cluster.bfd_keys(demand, allowed_types, rut)
    if not cluster.may_hold_values(keys.demand, executors):
        return None  # not enough room in the whole cluster: no need to look at machines
    start = time.perf_counter()
    deadline = start + time_limit_s
    snap = _Snapshot.take(cluster, demand, executors, keys, every_machine_on=method != "knapsack")
    need = executors - snap.room
    if need > sum(k * n for k, n in zip(snap.type_fits, snap.idle, strict=True)):
        return None  # ordinary infeasibility: not enough room, on and off together
    if method == "knapsack":
        cover = min_new_vm_cost(
            need, snap.type_fits, cluster.pool_price, snap.idle, order=snap.type_order, deadline=deadline
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


# --------------------------------------------------------------------------- the cluster snapshot


@dataclass
class _Snapshot:
    """What every method needs about the cluster for one job, computed once."""

    demand: FloatArray  # one executor's demand per resource
    on_idx: list[int]  # allowed machines already on that fit an executor, in BFD order
    on_fits: list[int]  # executors each of them still holds
    room: int  # executors the allowed machines already on hold in all
    type_fits: list[int]  # executors an empty VM of each pool holds (0 if not allowed)
    idle: list[int]  # idle VMs per pool (0 if not allowed)
    type_order: list[int]  # BFD's order of pools for new VMs

    @classmethod
    def take(
        cls,
        cluster: Cluster,
        demand: FloatArray,
        executors: int,
        keys: BfdKeys,
        *,
        every_machine_on: bool,
    ) -> _Snapshot:
        """Read the cluster for one job (``keys``: :meth:`Cluster.bfd_keys` of its demand, its
        allowed VM types and the RUT).

        With ``every_machine_on`` false only the ``executors`` machines already on that come
        first in BFD order are kept: each holds at least one executor, so the others can never
        receive one (the solver models keep them all, as the paper's model does).
        """
        limit = cluster.n_machines if every_machine_on else executors
        machines, fits_of, room = used_vms(cluster, keys, limit)
        # Per pool, as Python ints (a handful of pools: numpy's per-call cost would dominate).
        allowed_pools, fits = keys.allowed_pools, keys.pool_fits
        type_fits = [k if ok else 0 for k, ok in zip(fits, allowed_pools, strict=True)]
        idle = [cluster.idle_count(p) if ok else 0 for p, ok in enumerate(allowed_pools)]
        return cls(demand, machines, fits_of, room, type_fits, idle, keys.pool_order)

    def realise(
        self, cluster: Cluster, counts: tuple[int, ...], executors: int
    ) -> tuple[Assignment, float, int]:
        """Fill the machines already on in BFD order, then ``counts`` new VMs per type."""
        out: Assignment = {}
        remaining = executors
        for v, k in zip(self.on_idx, self.on_fits, strict=True):
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
            for v in cluster.idle_of_pool(t, counts[t]):
                if remaining == 0:
                    break  # an over-full choice: the VM left empty is not turned on
                take = min(k_t, remaining)
                out[v] = take
                remaining -= take
                new_cost += float(cluster.pool_price[t])
                new_machines += 1
        if remaining:
            raise SolverFailure(f"the chosen VMs hold {executors - remaining} of {executors} executors")
        return out, new_cost, new_machines


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
        for v, k in zip(snap.on_idx, snap.on_fits, strict=True)
    ]
    # Identical idle VMs of a type pooled: c_t of them turned on, e_t executors on them.
    c_new: dict[int, pulp.LpVariable] = {}
    e_new: dict[int, pulp.LpVariable] = {}
    for t in [t for t, (k, n) in enumerate(zip(snap.type_fits, snap.idle, strict=True)) if k > 0 and n > 0]:
        n_t, k_t = int(snap.idle[t]), int(snap.type_fits[t])
        c_new[t] = pulp.LpVariable(f"c_{t}", 0, n_t, cat=pulp.LpInteger)
        e_new[t] = pulp.LpVariable(f"e_{t}", 0, n_t * k_t, cat=pulp.LpInteger)
        prob += e_new[t] <= k_t * c_new[t], f"fit_{t}"  # eqs. 3-4, per pooled type
    prob += pulp.lpSum(float(cluster.pool_price[t]) * c for t, c in c_new.items())  # eq. 1
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
        raise SolverFailure(f"HiGHS ended with status {prob.solverModel.modelStatusToString(status)}")
    counts = [0] * cluster.n_pools
    for t, c in c_new.items():
        counts[t] = round(c.varValue or 0.0)
    cost = float(sum(counts[t] * float(cluster.pool_price[t]) for t in c_new))
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
        for v in cluster.idle_of_pool(t, int(snap.idle[t]))
    ]
    on_v = list(snap.on_idx)
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
        raise SolverFailure(f"CBC ended with status {pulp.LpStatus[prob.status]}")
    counts = [0] * cluster.n_pools
    for j in range(n_on, len(machines)):
        if any((x[i][j].varValue or 0.0) > 0.5 for i in range(executors)):
            counts[int(cluster.pool_of[machines[j]])] += 1
    cost = float(sum(c * float(cluster.pool_price[t]) for t, c in enumerate(counts)))
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
            need, snap.type_fits, cluster.pool_price, snap.idle, order=snap.type_order, deadline=deadline
        )
    except (SolverTimeout, SolverFailure):
        return counts
    if cover is not None and abs(cover.cost - cost) <= 1e-9 * max(1.0, cost):
        return cover.counts
    return counts
