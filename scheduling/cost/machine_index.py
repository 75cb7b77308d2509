"""Indexes of the cluster's machines that answer BFD's questions without scanning every machine.

Two questions are asked at every placement decision (Algorithm 3 of paper 003):

* *Which VMs that are on can hold an executor of this job, best fit first?* :class:`OnIndex`
  groups the machines that are on by (VM type, free capacity): machines of one group are
  interchangeable except for their index, so their fit, their RA (eq. 8) and whether a job may
  use them are computed once per group, and the groups are kept in ascending RA. A query walks
  groups in that order and stops as soon as the best ``limit`` machines are known; the machines
  of groups of equal RA are merged by index, the engine's tie-break. It starts past the groups
  of RA below the demand's own (less a margin), which cannot hold an executor: on a busy
  cluster of thousands of VMs most groups are nearly full, and were walked one by one.
* *Which idle VMs of a type come first?* :class:`IdlePool` keeps a type's idle machines sorted,
  so the first ``k`` are a slice and a machine is taken or given back in O(log n) (a binary
  search and a move of the list's tail, done by ``memmove``).

Both are plain Python: measured on recorded decisions (``benchmarks/engine_prototype.py``), a
query of the groups is as fast as a compiled scan of every machine at 1,400 and 20,000 VMs and
faster at 14 (a compiled call's fixed cost), without a compiler to install or warm up.

>>> index = OnIndex(total=[16.0, 64.0])
>>> index.add(0, 0, (2.0, 8.0)); index.add(1, 0, (4.0, 16.0)); index.add(2, 1, (2.0, 8.0))
>>> index.best_fits((1.0, 4.0), [True, True], rut=(0.5, 0.5), limit=2)
([0, 2], [2, 2], 4)
>>> index.move(0, 0, (2.0, 8.0), (0.0, 0.0))  # machine 0 filled up
>>> index.best_fits((1.0, 4.0), [True, False], rut=(0.5, 0.5), limit=5)
([1], [4], 4)
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from collections.abc import Sequence

from ..numbers import weighted_sum

__all__ = ["EPS", "IdlePool", "OnIndex", "executors_fitting", "resource_availability"]

EPS = 1e-9
#: Moves remembered per group (:meth:`OnIndex.move`): past that many, its memory starts again.
MOVES_KEPT = 64

Shape = tuple[float, ...]
Group = tuple[int, Shape]  # (VM type, free capacity)


def executors_fitting(free: Shape, demand: Shape) -> int:
    """Executors of ``demand`` that fit in ``free``: ``floor(min_r free_r / d_r + EPS)``.

    The engine's rule (``Cluster.fits_all``), in the same floating-point operations, so both
    give the same count. Resources the executor does not use do not limit it.

    >>> executors_fitting((4.0, 10.0), (1.0, 4.0)), executors_fitting((0.5, 9.0), (1.0, 0.0))
    (2, 0)
    """
    k = math.inf
    for r in range(len(demand)):
        d = demand[r]
        if d > 0:
            x = free[r] / d
            if x < k:
                k = x
    return max(math.floor(k + EPS), 0) if k != math.inf else 0


def resource_availability(free: Shape, total: Shape, rut: Shape) -> float:
    """RA (eq. 8 of paper 003) of a free capacity: ``sum_r free_r / total_r * rut_r``, by
    :func:`~scheduling.numbers.weighted_sum` (the same floats on every machine; a resource of
    no capacity counts as 1).

    >>> resource_availability((4.0, 16.0), (16.0, 64.0), (0.5, 0.5))
    0.25
    """
    shares: list[float] = []
    for r in range(len(free)):
        t = total[r]
        shares.append(free[r] / (t if t > 0 else 1.0))
    return weighted_sum(shares, rut)


class _Group:
    """The machines that are on of one VM type with one free capacity (ascending), and the
    executors of the last demand asked about that one of them holds.

    A group is kept a while after its last machine left (a machine often comes back to a free
    capacity it had), then forgotten (:meth:`OnIndex.remove`). Its ``id`` (never reused)
    orders groups of equal RA.
    """

    __slots__ = ("demand", "fit", "free", "id", "machines", "moves", "vm_type")

    def __init__(self, gid: int, vm_type: int, free: Shape) -> None:
        self.id = gid
        self.vm_type = vm_type
        self.free = free
        self.machines: list[int] = []
        self.demand: Shape = ()  # the demand ``fit`` was counted for
        self.fit = 0
        self.moves: dict[int, _Group] = {}  # per move key: the group a machine of this one went to

    def fits(self, demand: Shape) -> int:
        """:func:`executors_fitting` of this group's free capacity, remembered for the last demand."""
        if self.demand is not demand:
            self.fit = executors_fitting(self.free, demand)
            self.demand = demand
        return self.fit


class _Order:
    """The groups that have machines, in ascending (RA, id) for one RUT, and each group's RA.

    Two parallel lists, the RAs (floats, searched by bisection) and the groups: (RA, id) is
    unique, so a group is found again by a binary search for its RA and a step over the groups
    of equal RA (as many as VM types with one free capacity, at most) to its id. Compiled, the
    search compares unboxed floats, where a list of ``(RA, id, group)`` tuples had every step
    compare two tuples.
    """

    __slots__ = ("floors", "keys", "members", "monotone", "ra", "rut")

    def __init__(self, rut: Shape) -> None:
        self.rut = rut
        self.ra: dict[int, float] = {}  # per group id, while the group is kept
        self.keys: list[float] = []  # the RA of each group below, ascending
        self.members: list[_Group] = []  # the groups that have machines, in (RA, id) order
        self.floors: dict[Shape, float] = {}  # per demand: no group of lower RA holds one
        # RA grows with every free amount only when no weight is negative.
        self.monotone = all(w >= 0 for w in rut)

    def floor_of(self, demand: Shape, total: Shape) -> float:
        """An RA below which no free capacity holds an executor of ``demand``.

        A free capacity that holds one has every amount at least the demand's, less the
        tolerance of :func:`executors_fitting` (a relative ``EPS``), and RA rounds monotonically
        with each amount when no weight is negative; the margin below the demand's own RA
        covers both many times over. Without that monotony there is no floor.
        """
        found = self.floors.get(demand)
        if found is None:
            ra = resource_availability(demand, total, self.rut)
            found = self.floors[demand] = ra - abs(ra) * 1e-6 - 1e-12 if self.monotone else -math.inf
        return found

    def _position(self, ra: float, gid: int) -> int:
        """Where the group of RA ``ra`` and id ``gid`` is, or would go: the first entry not
        below ``(ra, gid)``."""
        keys, members = self.keys, self.members
        # Bisection written out: compiled, it compares unboxed floats (``bisect_left`` calls
        # the generic comparison at every step: 2 % of a whole simulation, measured).
        lo, hi = 0, len(keys)
        while lo < hi:
            mid = (lo + hi) // 2
            if keys[mid] < ra:
                lo = mid + 1
            else:
                hi = mid
        n = len(keys)
        while lo < n and keys[lo] == ra and members[lo].id < gid:
            lo += 1
        return lo

    def insert(self, group: _Group, total: Shape) -> None:
        ra = self.ra.get(group.id)
        if ra is None:
            ra = self.ra[group.id] = resource_availability(group.free, total, self.rut)
        i = self._position(ra, group.id)
        self.keys.insert(i, ra)
        self.members.insert(i, group)

    def delete(self, group: _Group) -> None:
        i = self._position(self.ra[group.id], group.id)
        self.keys.pop(i)  # ``pop``: compiled, a list primitive (``del`` is the generic protocol)
        self.members.pop(i)


class OnIndex:
    """The machines that are on, grouped by (VM type, free capacity), groups in ascending RA."""

    def __init__(self, total: Sequence[float]) -> None:
        self.total: Shape = tuple(float(x) for x in total)
        self._groups: dict[Group, _Group] = {}  # the groups kept, with machines or not
        self._group_of: list[_Group | None] = []  # per machine: its group while it is on
        self._orders: dict[Shape, _Order] = {}  # per RUT (one per simulation in practice)
        self._last_order: _Order | None = None
        self._next_id = 0
        self._on = 0  # machines that are on
        self._empty = 0  # groups kept without machines

    def __len__(self) -> int:
        return self._on

    # ------------------------------------------------------------------ changes

    def add(self, machine: int, vm_type: int, free: Shape) -> None:
        """A machine that is on, with ``free`` capacity left."""
        key = (vm_type, free)
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = _Group(self._next_id, vm_type, free)
            self._next_id += 1
            self._empty += 1  # a new group is empty until the machine joins it
        self._join(machine, group)
        group_of = self._group_of
        if machine >= len(group_of):
            group_of.extend([None] * (machine + 1 - len(group_of)))
        group_of[machine] = group
        self._on += 1

    def remove(self, machine: int, vm_type: int, free: Shape) -> None:
        """A machine turned off (or about to change group)."""
        group = self._group_of[machine]
        if group is None:
            raise KeyError(f"machine {machine} is not in the index")
        self._group_of[machine] = None
        self._on -= 1
        self._leave(machine, group)

    def _join(self, machine: int, group: _Group) -> None:
        """``machine`` joins ``group``; a group kept empty is in the RA orders again."""
        if group.machines:
            insort(group.machines, machine)
            return
        group.machines.append(machine)
        self._empty -= 1
        for order in self._orders.values():
            order.insert(group, self.total)

    def _leave(self, machine: int, group: _Group) -> None:
        """``machine`` leaves ``group``. A group left without machines is kept, out of the RA
        orders; past a thousand such groups they are forgotten in bulk."""
        members = group.machines
        if len(members) > 1:
            members.pop(bisect_left(members, machine))
            return
        members.clear()  # the group's last machine
        for order in self._orders.values():
            order.delete(group)
        self._empty += 1
        if self._empty > 1024 and 2 * self._empty > len(self._groups):
            self._forget_empty()

    def _forget_empty(self) -> None:
        """Drop the groups kept without machines (and their RA): as many kept as have machines,
        at most, beyond the first thousand."""
        self._groups = {key: group for key, group in self._groups.items() if group.machines}
        for group in self._groups.values():  # no remembered move leads to a group forgotten
            group.moves.clear()
        for order in self._orders.values():
            order.ra = {group.id: order.ra[group.id] for group in order.members}
        self._empty = 0

    def move(self, machine: int, vm_type: int, before: Shape, after: Shape, key: int = -1) -> None:
        """A machine whose free capacity changed from ``before`` to ``after``: :meth:`remove`
        then :meth:`add` (the engine's most frequent change).

        ``key`` (``>= 0``) names the change when the caller can: one key from one free
        capacity always leads to the same other (``Cluster`` keys an executor shape, a count and
        whether they start or end). The move is then remembered in the group left, so that the
        next machine of that group changed so is moved by :meth:`moved`, without working out
        its free capacity and looking its group up again.
        """
        if before != after:
            source = self._group_of[machine]
            self.remove(machine, vm_type, before)
            self.add(machine, vm_type, after)
            dest = self._group_of[machine]
            if key >= 0 and source is not None and dest is not None:
                moves = source.moves
                if len(moves) >= MOVES_KEPT:
                    moves.clear()
                moves[key] = dest

    def moved(self, machine: int, key: int) -> Shape | None:
        """Move ``machine`` (on) as the change ``key`` moved a machine of its group before, and
        return its free capacity after; ``None``, changing nothing, if no such move is
        remembered (then the caller works it out and calls :meth:`move` with the key)."""
        group = self._group_of[machine]
        if group is None:
            raise KeyError(f"machine {machine} is not in the index")
        dest = group.moves.get(key)
        if dest is None:
            return None
        # Join first, then leave: leaving may forget the groups kept empty, ``dest`` among them.
        self._join(machine, dest)
        self._group_of[machine] = dest
        self._leave(machine, group)
        return dest.free

    # ------------------------------------------------------------------ queries

    def _order(self, rut: Shape) -> _Order:
        last = self._last_order
        if last is not None and last.rut is rut:  # the RUT asked last (one per simulation)
            return last
        order = self._orders.get(rut)
        if order is None:
            order = self._orders[rut] = _Order(rut)
            for group in self._groups.values():
                if group.machines:
                    order.insert(group, self.total)
        self._last_order = order
        return order

    def best_fits(
        self, demand: Shape, allowed: Sequence[bool], *, rut: Shape, limit: int
    ) -> tuple[list[int], list[int], int]:
        """BFD's used VMs for one job: the first ``limit`` machines that are on, of a type in
        ``allowed``, with room for an executor, in ascending RA of their free capacity (index
        breaking ties); the executors each holds; and the executors they all hold together,
        counted over every such machine unless the first ``limit`` were found first (then it is
        at least ``limit``, which is all a caller needs: each chosen machine holds one or more).
        """
        ranked = self._order(rut)
        keys, ranked_groups = ranked.keys, ranked.members
        machines: list[int] = []
        counts: list[int] = []
        room = 0
        # Groups of too little free capacity come first in RA order: start past them (they
        # would all be skipped below, one look-up each).
        i, n = bisect_left(keys, ranked.floor_of(demand, self.total)), len(keys)
        while i < n and len(machines) < limit:  # else the best ``limit`` are known
            ra = keys[i]
            j = i + 1
            while j < n and keys[j] == ra:
                j += 1
            run: list[tuple[int, int]] = []  # (machine, executors) of the groups of this RA
            for e in range(i, j):
                group = ranked_groups[e]
                if not allowed[group.vm_type]:
                    continue
                k = group.fits(demand)
                if k <= 0:
                    continue
                members = group.machines
                room += k * len(members)
                if j - i == 1:  # one group: its machines are in index order already
                    take = members[: limit - len(machines)]
                    machines += take
                    counts += [k] * len(take)
                else:
                    run.extend([(v, k) for v in members[:limit]])
            if run:  # groups of one RA: their machines merged by index
                run.sort()
                del run[limit - len(machines) :]
                machines += [v for v, _ in run]
                counts += [k for _, k in run]
            i = j
        return machines, counts, room


class IdlePool:
    """The idle machines of one VM type, ascending: the first ``k`` in listed order at once.

    >>> pool = IdlePool([3, 4, 5]); pool.take(3); pool.first(2)
    [4, 5]
    >>> pool.put(3); pool.first(5), len(pool)
    ([3, 4, 5], 3)
    """

    __slots__ = ("_machines",)

    def __init__(self, machines: Sequence[int] = ()) -> None:
        self._machines = sorted(machines)

    def __len__(self) -> int:
        return len(self._machines)

    def first(self, k: int) -> list[int]:
        """The first ``k`` idle machines in listed order (fewer if there are fewer)."""
        return self._machines[:k] if k > 0 else []

    def take(self, machine: int) -> None:
        """A machine turned on."""
        machines = self._machines
        if machines and machines[0] == machine:
            machines.pop(0)
        else:
            machines.pop(bisect_left(machines, machine))

    def put(self, machine: int) -> None:
        """A machine turned off."""
        insort(self._machines, machine)
