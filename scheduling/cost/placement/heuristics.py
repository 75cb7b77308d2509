"""Heuristic executor placements: BFD (Algorithm 3 of paper 003), consolidate and spread.

Every policy takes the cluster, one executor's demand, the number of executors and the VM
types the job may use, and returns ``{machine index: executors}`` or ``None`` when the job
cannot be placed whole right now. Policies never change the cluster.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..cluster import BfdKeys, BoolArray, Cluster, FloatArray, PlacementContext

Assignment = dict[int, int]


class UsedVMs(NamedTuple):
    """The VMs that are on and may take an executor of a job, in Algorithm 3's order."""

    machines: list[int]  # machine indices, ascending RA (eq. 8) of the free capacity, index next
    fits: list[int]  # executors each of them still holds (>= 1)
    room: int  # executors all of them hold together (at least ``limit`` if the list was cut)


def used_vms_in_bfd_order(
    cluster: Cluster, demand: FloatArray, allowed_types: BoolArray, rut: FloatArray, limit: int
) -> UsedVMs:
    """Algorithm 3's "list of used VMs" for one job, sorted; only its first ``limit`` entries.

    The VMs that are on, of a type the job may use, with room for at least one executor, in
    ascending RA of their free capacity (index breaking ties). Every one of them takes at least
    one executor, so a job of ``E`` executors never reaches past the first ``E``: ``limit``
    saves looking at the others (pass the number of machines to keep them all). The cluster's
    :attr:`~scheduling.cost.cluster.Cluster.on_index` answers without scanning every machine;
    ``room`` counts every candidate's executors unless the list was cut at ``limit`` (then it
    is at least ``limit``: enough to know that the job fits).

    >>> from scheduling.scenario import parse_scenario
    >>> cluster = Cluster(parse_scenario({"resources": ["cpu"], "vm_types": [{"name": "vm",
    ...     "capacity": {"cpu": 4}, "price_per_hour": 1, "count": 3}], "jobs": [{"id": "j",
    ...     "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 1}]}))
    >>> _ = cluster.apply({0: 1, 1: 3}, np.array([1.0]))  # vm#1 has 3 cpu free, vm#2 1, vm#3 is off
    >>> used = used_vms_in_bfd_order(cluster, np.array([1.0]), np.ones(1, bool), np.ones(1), 5)
    >>> used.machines, used.fits, used.room
    ([1, 0], [1, 3], 4)
    """
    return UsedVMs(*used_vms(cluster, cluster.bfd_keys(demand, allowed_types, rut), limit))


def used_vms(cluster: Cluster, keys: BfdKeys, limit: int) -> tuple[list[int], list[int], int]:
    """:func:`used_vms_in_bfd_order` of a job's :meth:`~Cluster.bfd_keys`, as a plain tuple
    (machines, executors each, room): what the placements ask at every decision, without
    building a named tuple (whose constructor is generated Python even when compiled)."""
    return cluster.on_index.best_fits(keys.demand, keys.allowed_types, rut=keys.rut, limit=limit)


def place_bfd(
    cluster: Cluster, demand: FloatArray, executors: int, allowed_types: BoolArray, ctx: PlacementContext
) -> Assignment | None:
    """Best-Fit-Decreasing placement (Algorithm 3 of paper 003).

    The VMs that are on are taken in ascending order of the RA (eq. 8) of their free
    capacity, each filled with as many executors as fit; if executors remain, the smallest
    unused VM (by RA of its full capacity, price breaking ties) that fits at least one
    executor is turned on, and so on. The job is placed whole or not at all.

    With reserved and spot prices (scenario version 4) new VMs are taken per pool
    (:meth:`~scheduling.cost.cluster.Cluster.new_vm_pool_order`): idle reserved VMs first, as
    they cost nothing at the margin, and of one VM type the cheaper of spot and on demand.
    """
    keys = cluster.bfd_keys(demand, allowed_types, ctx.rut)
    if not cluster.may_hold_values(keys.demand, executors):
        return None
    machines, fits_of, room = used_vms(cluster, keys, executors)
    # Per pool, as Python ints (a handful of pools: numpy's per-call cost would dominate).
    pool_fits, allowed_pools = keys.pool_fits, keys.allowed_pools
    idle: list[int] = []
    if room < executors:  # new VMs are needed: are there enough idle ones?
        idle = cluster.idle_counts_list()
        new_room = 0
        for p in range(len(pool_fits)):
            if allowed_pools[p]:
                new_room += pool_fits[p] * idle[p]
        if room + new_room < executors:
            return None
    out: Assignment = {}
    remaining = executors
    for i in range(len(machines)):
        v, fits = machines[i], fits_of[i]
        take = min(fits, remaining)
        out[v] = take
        remaining -= take
        if remaining == 0:
            return out
    for p in keys.pool_order:
        k = pool_fits[p]
        if not allowed_pools[p] or k == 0:
            continue
        n_new = min(idle[p], -(-remaining // k))
        for v in cluster.idle_of_pool(p, n_new):
            take = min(k, remaining)
            out[v] = take
            remaining -= take
        if remaining == 0:
            return out
    return None  # unreachable after the capacity check


def place_consolidate(
    cluster: Cluster, demand: FloatArray, executors: int, allowed_types: BoolArray, ctx: PlacementContext
) -> Assignment | None:
    """Price-blind packing: machines in listed order, each filled before the next.

    This is Spark's executor consolidation as the paper's FIFO baseline uses it: it neither
    knows nor cares which VMs are on or what they cost.
    """
    if not cluster.may_hold(demand, executors):
        return None
    idx = cluster.allowed_machines(allowed_types)
    fits = cluster.fits_all(demand)[idx].astype(np.int64)
    if int(fits.sum()) < executors:
        return None
    cum = np.cumsum(fits)
    last = int(np.searchsorted(cum, executors))
    some = np.flatnonzero(fits[: last + 1])  # full machines take nothing: skip them at once
    out: Assignment = {}
    remaining = executors
    for v, fit in zip(idx[some].tolist(), fits[some].tolist(), strict=True):
        take = min(fit, remaining)
        if take:
            out[v] = take
            remaining -= take
    return out


def place_spread(
    cluster: Cluster, demand: FloatArray, executors: int, allowed_types: BoolArray, ctx: PlacementContext
) -> Assignment | None:
    """Round-robin over all machines (Spark's default spread-out placement, Fig. 3a of paper 003).

    Executors are dealt one at a time to the next machine in listed order that still has
    room, resuming after the machine that took the previous job's last executor, so that
    consecutive jobs spread over the whole cluster. The dealing is computed in closed form:
    the smallest level ``L`` with ``sum(min(fit, L)) >= executors``.
    """
    if not cluster.may_hold(demand, executors):
        return None
    idx = cluster.allowed_machines(allowed_types)
    fits = cluster.fits_all(demand)[idx].astype(np.int64)
    if int(fits.sum()) < executors:
        return None
    keep = np.flatnonzero(fits > 0)
    idx, fits = idx[keep], fits[keep]
    # The machines from the cursor on, then those before it (idx is ascending: a binary search).
    shift = int(np.searchsorted(idx, ctx.spread_cursor % cluster.n_machines))
    if shift:
        idx, fits = np.concatenate((idx[shift:], idx[:shift])), np.concatenate((fits[shift:], fits[:shift]))
    lo, hi = 1, int(fits.max())
    while lo < hi:  # smallest level L whose rounds deal enough executors
        mid = (lo + hi) // 2
        if int(np.minimum(fits, mid).sum()) >= executors:
            hi = mid
        else:
            lo = mid + 1
    level = lo
    counts = np.minimum(fits, level - 1)
    extra = executors - int(counts.sum())
    if extra > 0:
        takers = np.flatnonzero(fits >= level)[:extra]
        counts[takers] += 1
        last = int(takers[-1])
    else:
        last = int(np.flatnonzero(fits >= level - 1)[-1])
    ctx.spread_cursor = int(idx[last]) + 1
    dealt = np.flatnonzero(counts)  # the machines dealt at least one executor, in dealing order
    return dict(zip(idx[dealt].tolist(), counts[dealt].tolist(), strict=True))
