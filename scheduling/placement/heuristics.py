"""Heuristic executor placements: BFD (Algorithm 3 of paper 003), consolidate and spread.

Every policy takes the cluster, one executor's demand, the number of executors and the VM
types the job may use, and returns ``{machine index: executors}`` or ``None`` when the job
cannot be placed whole right now. Policies never change the cluster.
"""

from __future__ import annotations

import numpy as np

from ..cluster import Cluster, PlacementContext

Assignment = dict[int, int]


def capacity_available(cluster: Cluster, demand: np.ndarray, executors: int, allowed_types: np.ndarray) -> bool:
    """Whether the machines on and off together could hold the job now (a quick pre-check)."""
    fits = cluster.fits_all(demand)
    return int(fits[cluster.allowed_mask(allowed_types)].sum()) >= executors


def _smallest_first(keys: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` smallest keys in ascending order, position breaking ties.

    The same as ``np.argsort(keys, kind="stable")[:k]`` in O(n + k log k).
    """
    n = len(keys)
    if k >= n:
        return np.argsort(keys, kind="stable")
    kth = np.partition(keys, k - 1)[k - 1]
    below = np.flatnonzero(keys < kth)
    ties = np.flatnonzero(keys == kth)[: k - len(below)]
    chosen = np.concatenate([below, ties])
    return chosen[np.argsort(keys[chosen], kind="stable")]


def place_bfd(
    cluster: Cluster, demand: np.ndarray, executors: int, allowed_types: np.ndarray, ctx: PlacementContext
) -> Assignment | None:
    """Best-Fit-Decreasing placement (Algorithm 3 of paper 003).

    The VMs that are on are taken in ascending order of the RA (eq. 8) of their free
    capacity, each filled with as many executors as fit; if executors remain, the smallest
    unused VM (by RA of its full capacity, price breaking ties) that fits at least one
    executor is turned on, and so on. The job is placed whole or not at all.
    """
    fits = cluster.fits_all(demand)
    allowed = cluster.allowed_mask(allowed_types)
    cand = np.flatnonzero((fits > 0) & cluster.on & allowed)
    room_on = int(fits[cand].sum())
    type_fits = cluster.type_fit_counts(demand)
    if room_on + int((type_fits * cluster.idle_counts() * allowed_types).sum()) < executors:
        return None
    out: Assignment = {}
    remaining = executors
    if len(cand):
        # Every candidate takes at least one executor, so the `remaining` best-fitting
        # candidates are all BFD can reach: no need to sort the rest.
        ra = cluster.ra(cluster.free[cand], ctx.rut)
        for k in _smallest_first(ra, remaining):
            take = int(min(fits[cand[k]], remaining))
            out[int(cand[k])] = take
            remaining -= take
            if remaining == 0:
                return out
    type_ra = cluster.ra(cluster.type_capacity, ctx.rut)
    order = np.lexsort((np.arange(len(type_ra)), cluster.type_price, type_ra))
    idle = cluster.idle_counts()
    for t in order:
        if not allowed_types[t] or type_fits[t] == 0:
            continue
        n_new = min(int(idle[t]), -(-remaining // int(type_fits[t])))
        for v in cluster.idle_of_type(int(t), n_new):
            take = int(min(type_fits[t], remaining))
            out[v] = take
            remaining -= take
        if remaining == 0:
            return out
    return None  # unreachable after the capacity check


def place_consolidate(
    cluster: Cluster, demand: np.ndarray, executors: int, allowed_types: np.ndarray, ctx: PlacementContext
) -> Assignment | None:
    """Price-blind packing: machines in listed order, each filled before the next.

    This is Spark's executor consolidation as the paper's FIFO baseline uses it: it neither
    knows nor cares which VMs are on or what they cost.
    """
    idx = np.flatnonzero(cluster.allowed_mask(allowed_types))
    fits = cluster.fits_all(demand)[idx].astype(np.int64)
    if int(fits.sum()) < executors:
        return None
    cum = np.cumsum(fits)
    last = int(np.searchsorted(cum, executors))
    out: Assignment = {}
    remaining = executors
    for k in range(last + 1):
        take = int(min(fits[k], remaining))
        if take:
            out[int(idx[k])] = take
            remaining -= take
    return out


def place_spread(
    cluster: Cluster, demand: np.ndarray, executors: int, allowed_types: np.ndarray, ctx: PlacementContext
) -> Assignment | None:
    """Round-robin over all machines (Spark's default spread-out placement, Fig. 3a of paper 003).

    Executors are dealt one at a time to the next machine in listed order that still has
    room, resuming after the machine that took the previous job's last executor, so that
    consecutive jobs spread over the whole cluster. The dealing is computed in closed form:
    the smallest level ``L`` with ``sum(min(fit, L)) >= executors``.
    """
    idx = np.flatnonzero(cluster.allowed_mask(allowed_types))
    fits = cluster.fits_all(demand)[idx].astype(np.int64)
    if int(fits.sum()) < executors:
        return None
    shift = int(np.searchsorted(idx, ctx.spread_cursor % cluster.n_machines))
    idx, fits = np.roll(idx, -shift), np.roll(fits, -shift)
    keep = fits > 0
    idx, fits = idx[keep], fits[keep]
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
    return {int(v): int(c) for v, c in zip(idx, counts, strict=True) if c > 0}
