"""Allocations of paper 002: the weighted-fair MRSU allocation and the VM-static and optimal baselines.

All functions work on numpy arrays with leading batch axes so the sweep runs thousands of slots
at once; :func:`mrsu_allocate` is the front door for one :class:`~scheduling.mrsu.model.MrsuProblem`.

A hand-worked weighted-fair allocation: 10 units, priorities 1:1:2 (normalised 1/4, 1/4, 1/2),
needs 1, 6, 8. Round 1 offers floor(2.5), floor(2.5), floor(5) = 2, 2, 5; the first application
needs only 1 and gives one back, so 2 units remain (the one taken back plus the rounding
remainder). Round 2 renormalises over the two unsatisfied (1/3, 2/3): floor(2/3) = 0 and
floor(4/3) = 1; one unit is left and no round hands it out, so it goes to the unsatisfied
application of highest priority.

>>> weighted_fair(np.array([1, 6, 8]), np.array([1.0, 1.0, 2.0]), np.array(10)).tolist()
[1, 2, 7]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .compose import Composition, Mode, compose, units_available, units_needed
from .model import MrsuProblem

__all__ = [
    "MrsuAllocation",
    "mrsu_allocate",
    "optimal_allocation",
    "vm_scaled_allocation",
    "vm_static_allocation",
    "weighted_fair",
    "windows",
]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

# Floors of w * X / sum(w) that are integers on paper must not fall one short in floating point.
_EPS = 1e-9


def weighted_fair(need: IntArray, weights: FloatArray, units: IntArray) -> IntArray:
    """The weighted-fair MRSU allocation (Part II of paper 002's algorithm), batched.

    Parameters
    ----------
    need : int array (..., N)
        Units each application needs (``ceil`` of its requirement over the unit).
    weights : float array (N,) or (..., N)
        Priorities, positive; they are normalised over the unsatisfied in every round.
    units : int array (...)
        Units available ``X``.

    Returns
    -------
    int array (..., N)
        Units allocated; never above ``need``, summing to at most ``units``.

    Notes
    -----
    Each round gives every unsatisfied application ``floor(omega_n * X_left)`` (step 1), takes
    back what exceeds its need (step 2), and repeats with the priorities renormalised over the
    unsatisfied (step 4) until no unit is left or everyone is satisfied (step 3). The paper
    does not say what happens when units are left but every ``floor`` is 0 (its loop would not
    end); we then hand them out one each to the unsatisfied in decreasing priority (input
    order among equals), as weighted fair queueing serves the heaviest queue first.

    >>> weighted_fair(np.array([[3, 3], [9, 9]]), np.array([1.0, 3.0]), np.array([4, 4])).tolist()
    [[1, 3], [1, 3]]
    """
    need = np.asarray(need, dtype=np.int64)
    shape = need.shape
    n = shape[-1]
    need2 = need.reshape(-1, n)
    b = need2.shape[0]
    w2 = np.broadcast_to(np.asarray(weights, dtype=np.float64), shape).reshape(-1, n)
    left = np.broadcast_to(np.asarray(units, dtype=np.int64), shape[:-1]).reshape(-1).copy()
    alloc = np.zeros((b, n), dtype=np.int64)
    rows = np.arange(b)
    # The order of service when a round hands out nothing: heaviest first, input order among equals.
    order = np.argsort(-w2, axis=1, kind="stable")
    while True:
        gap_all = need2[rows] - alloc[rows]
        active = (left[rows] > 0) & (gap_all > 0).any(axis=1)
        rows = rows[active]
        if rows.size == 0:
            break
        gap = gap_all[active]
        unsat = gap > 0
        w = np.where(unsat, w2[rows], 0.0)
        share = np.floor(w * (left[rows] / w.sum(axis=1))[:, None] + _EPS).astype(np.int64)
        give = np.minimum(share, gap)
        # Never more than is left, whatever floating point did (a cumulative cap).
        before = np.cumsum(give, axis=1) - give
        give = np.clip(np.minimum(give, left[rows][:, None] - before), 0, None)
        total = give.sum(axis=1)
        stalled = total == 0
        if stalled.any():
            s_rows = np.nonzero(stalled)[0]
            o = order[rows[s_rows]]
            uns = np.take_along_axis(unsat[s_rows], o, axis=1)
            rank = np.cumsum(uns, axis=1)
            one = uns & (rank <= left[rows[s_rows]][:, None])
            extra = np.zeros_like(one)
            np.put_along_axis(extra, o, one, axis=1)
            give[s_rows] = extra.astype(np.int64)
            total[s_rows] = give[s_rows].sum(axis=1)
        alloc[rows] += give
        left[rows] -= total
    return alloc.reshape(shape)


def vm_scaled_allocation(requirements: IntArray, capacity: IntArray) -> FloatArray:
    """A second VM-static baseline (not the notes'): every application's peak VM, all scaled down
    in proportion per dimension when the peaks exceed the capacity, for the whole horizon.

    The paper does not define its VM-based scheduler; its Fig. 4a (VM-static less short than
    MRSU-FT above capacity, yet more applications short, Fig. 5) fits a VM baseline that spreads
    its shortage like this one. The sweep reports it as ``vm-scaled`` next to ``vm-static``.

    >>> req = np.array([[[2, 1], [4, 1]], [[3, 3], [1, 1]]])
    >>> vm_scaled_allocation(req, np.array([6, 6]))[:, 0].tolist()
    [[3.4285714285714284, 1.0], [2.571428571428571, 3.0]]
    """
    req = np.asarray(requirements, dtype=np.float64)
    peak = req.max(axis=-2, keepdims=True)  # (..., N, 1, D)
    total = peak.sum(axis=-3, keepdims=True)
    cap = np.asarray(capacity, dtype=np.float64)
    scale = np.minimum(1.0, np.divide(cap, total, out=np.ones_like(total), where=total > 0))
    return np.asarray(np.broadcast_to(peak * scale, req.shape), dtype=np.float64)


def vm_static_allocation(requirements: IntArray, capacity: IntArray, weights: FloatArray) -> IntArray:
    """The VM-static baseline: each application's peak over the horizon, for the whole horizon.

    ``requirements`` is ``(..., N, S, D)``. Applications are served in decreasing priority
    (input order among equals); one whose peak VM no longer fits the capacity left gets nothing
    (a VM is all or nothing) and the next is tried (notes §6: "while capacity lasts").

    >>> req = np.array([[[2, 1], [4, 1]], [[3, 3], [1, 1]], [[1, 1], [1, 1]]])  # 3 apps, 2 slots
    >>> vm_static_allocation(req, np.array([6, 6]), np.array([3.0, 2.0, 1.0]))[:, 0].tolist()
    [[4, 1], [0, 0], [1, 1]]
    """
    req = np.asarray(requirements, dtype=np.int64)
    peak = req.max(axis=-2)  # (..., N, D)
    lead = peak.shape[:-2]
    left = np.broadcast_to(np.asarray(capacity, dtype=np.int64), lead + peak.shape[-1:]).copy()
    got = np.zeros_like(peak)
    for n in np.argsort(-np.asarray(weights, dtype=np.float64), kind="stable"):
        fits = (peak[..., n, :] <= left).all(axis=-1, keepdims=True)
        take = np.where(fits, peak[..., n, :], 0)
        got[..., n, :] = take
        left -= take
    return np.broadcast_to(got[..., None, :], req.shape).copy()


def optimal_allocation(requirements: IntArray, capacity: IntArray) -> FloatArray:
    """The optimal bound: every slot exactly the requirement, scaled down in proportion per dimension
    when the slot's total exceeds the capacity (notes §6).

    >>> optimal_allocation(np.array([[[6, 1]], [[2, 1]]]), np.array([4, 4]))[:, 0].tolist()
    [[3.0, 1.0], [1.0, 1.0]]
    """
    req = np.asarray(requirements, dtype=np.float64)
    total = req.sum(axis=-3, keepdims=True)
    cap = np.asarray(capacity, dtype=np.float64)
    scale = np.minimum(1.0, np.divide(cap, total, out=np.ones_like(total), where=total > 0))
    return np.asarray(req * scale, dtype=np.float64)


def windows(slots: int, slots_valid: int | None) -> list[tuple[int, int]]:
    """Validity windows ``[start, end)`` of ``slots_valid`` slots (the MRSU is recomputed in each).

    >>> windows(7, 3), windows(2, None)
    ([(0, 3), (3, 6), (6, 7)], [(0, 2)])
    """
    t = slots if slots_valid is None else max(1, int(slots_valid))
    return [(s, min(s + t, slots)) for s in range(0, slots, t)]


@dataclass(frozen=True, eq=False)
class MrsuAllocation:
    """One MRSU allocation: the unit and units of each validity window, the units per slot.

    ``units[n, t]`` (FT) or ``units[n, t, d]`` (ID) are the units allocated; ``allocated`` is
    the resources they amount to, ``(N, S, D)``.
    """

    composition: Composition
    mode: Mode
    windows: tuple[tuple[int, int], ...]
    unit: IntArray  # (W, D)
    available: IntArray  # (W,) for FT, (W, D) for ID
    units: IntArray
    allocated: IntArray


def mrsu_allocate(
    problem: MrsuProblem,
    *,
    composition: Composition = "gcd",
    mode: Mode = "ft",
    slots_valid: int | None = None,
) -> MrsuAllocation:
    """Compose the MRSU per validity window and allocate it weighted-fairly in every slot.

    Parameters
    ----------
    problem : MrsuProblem
    composition : {"gcd", "min"}
    mode : {"ft", "id"}
        Full tuples (one unit count per application) or independent dimensions.
    slots_valid : int, optional
        The validity interval ``T`` in slots; the MRSU is recomputed from the requirements of
        each window of ``T`` slots. Default: the whole horizon.

    >>> from scheduling.mrsu.model import parse_mrsu_input
    >>> p = parse_mrsu_input({"capacity": {"cpu": 12, "mem": 12}, "applications": [
    ...     {"name": "a", "priority": 1, "requirements": [{"cpu": 4, "mem": 2}]},
    ...     {"name": "b", "priority": 1, "requirements": [{"cpu": 2, "mem": 6}]}]})
    >>> r = mrsu_allocate(p, composition="gcd", mode="ft")
    >>> r.unit.tolist(), r.available.tolist(), r.units.tolist(), r.allocated.tolist()
    ([[2, 2]], [6], [[2], [3]], [[[4, 4]], [[6, 6]]])
    """
    req = problem.requirements
    n, s, d = req.shape
    wins = windows(s, slots_valid)
    units_w = np.zeros((len(wins), d), dtype=np.int64)
    avail_w = np.zeros((len(wins),) if mode == "ft" else (len(wins), d), dtype=np.int64)
    units = np.zeros((n, s) if mode == "ft" else (n, s, d), dtype=np.int64)
    allocated = np.zeros_like(req)
    for k, (a, b) in enumerate(wins):
        chunk = req[:, a:b]
        unit = compose(chunk.reshape(-1, d), problem.capacity, composition)
        x = units_available(unit, problem.capacity, mode)
        need = units_needed(chunk, unit, mode)  # (N, T) or (N, T, D)
        if mode == "ft":
            got = weighted_fair(need.T, problem.priorities, np.broadcast_to(x, (b - a,))).T
            allocated[:, a:b] = got[..., None] * unit
        else:
            # One problem per slot and dimension: (T, D, N).
            got_tdn = weighted_fair(
                need.transpose(1, 2, 0), problem.priorities, np.broadcast_to(x, (b - a, d))
            )
            got = got_tdn.transpose(2, 0, 1)
            allocated[:, a:b] = got * unit
        units[:, a:b] = got
        units_w[k] = unit
        avail_w[k] = x
    return MrsuAllocation(composition, mode, tuple(wins), units_w, avail_w, units, allocated)
