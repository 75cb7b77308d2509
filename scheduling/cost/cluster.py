"""The cluster's state during a simulation: which VMs are on and what is free on each.

Arrays are indexed by machine (in listed order: ``<vm type>#<k>``) and by resource, in the
scenario's resource order. Placement policies read this state and return an assignment;
only the simulator changes it, through :meth:`Cluster.apply`, :meth:`Cluster.release` and
:meth:`Cluster.turn_off`, which also keep the machine index up to date
(:mod:`~scheduling.cost.machine_index`: the machines that are on in BFD's order, each pool's idle
machines sorted), so BFD never scans every machine.

What changes at every event is kept in Python lists and floats (:attr:`Cluster.machine_on`,
:attr:`Cluster.machine_executors`, :attr:`Cluster.free_rows`, :attr:`Cluster.used`,
:attr:`Cluster.active_by_type`): on rows of two or three resources numpy's per-call cost is
most of the work, and the arithmetic is the same IEEE operations either way. The arrays of the
same state (``on``, ``executors``, ``free``, ``used_total``, ``on_count_by_type``) are built
when asked for; ``free`` copies only the rows changed since it was last read, so the policies
that scan every machine with numpy pay for the machines that changed, and BFD for none.

Machines are grouped in **pools**: the machines of one VM type in one market (reserved, spot or
on demand; scenario version 4). The machines of a pool are identical, capacity and price, so
placement policies reason per pool: a VM type with on-demand prices only is one pool. Each
machine has a **marginal price**, what turning it on adds to the bill per hour
(:attr:`Cluster.price`): its on-demand or spot price, and 0 for a reserved VM, which is billed
for the whole horizon whether it is on or not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..numbers import weighted_rows
from ..scenario import Scenario
from .machine_index import IdlePool, OnIndex

EPS = 1e-9

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


@dataclass
class PlacementContext:
    """What a placement policy may need besides the cluster: options, the job, a stats sink.

    The simulator sets ``job_id`` before each placement call, so that what a policy records
    (an ILP fallback) names the job it was placing.
    """

    rut: FloatArray  # RUT weight per resource (eq. 5 of paper 003)
    ilp_time_limit_s: float = 10.0
    ilp_method: str = "knapsack"
    job_id: str | None = None  # the job being placed
    stats: dict[str, int] = field(default_factory=dict)  # counts (ILP decisions, fallbacks)
    spread_cursor: int = 0  # where round-robin placement resumes (the next machine index)
    events: list[dict[str, object]] = field(default_factory=list)

    def count(self, key: str, by: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + by


class BfdKeys(NamedTuple):
    """One demand's questions to the machine index and the pools (:meth:`Cluster.bfd_keys`)."""

    demand: tuple[float, ...]  # one executor's demand per resource
    allowed_types: list[bool]  # per VM type: may the job use it?
    rut: tuple[float, ...]  # RUT weight per resource (eq. 5 of paper 003)
    pool_fits: list[int]  # per pool: executors an empty machine holds
    allowed_pools: list[bool]  # per pool: may the job use it?
    pool_order: list[int]  # the pools in BFD's order for new VMs (:meth:`Cluster.new_vm_pool_order`)


class Cluster:
    """Mutable cluster state for one simulation run.

    >>> from scheduling.scenario import parse_scenario
    >>> scenario = parse_scenario({"vm_types": [{"name": "a", "capacity": {"cpu": 4, "mem": 8},
    ...                            "price_per_hour": 1, "count": 2}], "jobs": [{"id": "j",
    ...                            "arrival_s": 0, "executors": 1, "executor": {"cpu": 1, "mem": 1},
    ...                            "duration_s": 1}]})
    >>> c = Cluster(scenario)
    >>> c.names, c.fit_counts(np.arange(2), np.array([1.0, 3.0])).tolist()
    (['a#1', 'a#2'], [2, 2])
    """

    def __init__(self, scenario: Scenario):
        self.resources = scenario.resources
        self.type_names = [t.name for t in scenario.vm_types]
        self.type_capacity: FloatArray = np.array([t.capacity for t in scenario.vm_types], dtype=float)
        self.type_price: FloatArray = np.array([t.price_per_hour for t in scenario.vm_types], dtype=float)
        counts = [t.count for t in scenario.vm_types]
        self.type_of: IntArray = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        # Pools: (VM type, market) with machines, in listed order (a type's machines are given to
        # the markets in MARKETS order, so a pool's machines are consecutive).
        pool_type: list[int] = []
        pool_counts: list[int] = []
        self.pool_market: list[str] = []
        pool_price: list[float] = []  # marginal: 0 for reserved
        pool_rate: list[float] = []  # what the machine costs an hour in its market
        pool_interruptions: list[float] = []
        for t, vt in enumerate(scenario.vm_types):
            for market, n in vt.market_counts().items():
                if n <= 0:
                    continue
                rate = vt.market_price(market)
                pool_type.append(t)
                pool_counts.append(n)
                self.pool_market.append(market)
                pool_price.append(0.0 if market == "reserved" else rate)
                pool_rate.append(rate)
                pool_interruptions.append(vt.interruptions_per_hour if market == "spot" else 0.0)
        self.pool_type: IntArray = np.array(pool_type, dtype=np.int64)
        self.pool_capacity: FloatArray = self.type_capacity[self.pool_type].reshape(
            len(pool_type), len(self.resources))
        self.pool_price: FloatArray = np.array(pool_price, dtype=float)
        self.pool_reserved: BoolArray = np.array([m == "reserved" for m in self.pool_market], dtype=bool)
        self.pool_of: IntArray = np.repeat(np.arange(len(pool_counts), dtype=np.int64), pool_counts)
        self.names = scenario.machine_names()
        self.capacity: FloatArray = self.type_capacity[self.type_of].copy()
        # Column-major: policies scan one resource over every machine at a time.
        self._free: FloatArray = np.asfortranarray(self.capacity)
        self._free_changed: set[int] = set()  # rows of ``free_rows`` not yet copied to ``_free``
        #: Per machine, its marginal price per hour: what turning it on adds to the bill.
        self.price: FloatArray = self.pool_price[self.pool_of].copy()
        #: Per machine, what it costs an hour in its market (a reserved VM's reserved price).
        self.rate: FloatArray = np.array(pool_rate, dtype=float)[self.pool_of]
        #: Per machine, the rate (per hour) at which it is reclaimed: spot VMs only.
        self.interruptions_per_hour: FloatArray = np.array(pool_interruptions, dtype=float)[self.pool_of]
        self.reserved: BoolArray = self.pool_reserved[self.pool_of]
        self.market: list[str] = [self.pool_market[p] for p in self.pool_of.tolist()]
        #: Per machine: is it on?
        self.machine_on: list[bool] = [False] * len(self.names)
        #: Per machine: the executors it runs.
        self.machine_executors: list[int] = [0] * len(self.names)
        self.total: FloatArray = self.capacity.sum(axis=0)
        self._total_list: list[float] = self.total.tolist()
        # Off machines of each pool, lowest index first: identical idle VMs are interchangeable,
        # so policies reason per pool and take the first one in listed order.
        first = np.concatenate([[0], np.cumsum(pool_counts)]).tolist()
        self._idle: list[IdlePool] = [IdlePool(range(a, b)) for a, b in pairwise(first)]
        #: The machines that are on, grouped by (VM type, free capacity) in BFD's order
        #: (:class:`~scheduling.cost.machine_index.OnIndex`): BFD asks it, not every machine.
        self.on_index = OnIndex(self.total.tolist())
        self._type_list: list[int] = self.type_of.tolist()
        #: Per machine, its capacity as a tuple of floats.
        self.capacity_rows: list[tuple[float, ...]] = [tuple(row) for row in self.capacity.tolist()]
        #: Per machine, its free capacity as a tuple of floats (the machine index's keys).
        self.free_rows: list[tuple[float, ...]] = list(self.capacity_rows)
        # How far below zero rounding may leave a machine's free capacity (else it is a bug).
        self._least_rows: list[tuple[float, ...]] = [
            tuple(-EPS * max(1.0, c) for c in row) for row in self.capacity_rows
        ]
        self._fit_counts: dict[tuple[int, bytes], IntArray] = {}
        self._pool_list: list[int] = self.pool_of.tolist()
        #: Per VM type: the machines that are on.
        self.active_by_type: list[int] = [0] * len(counts)
        self._allowed_machines: dict[bytes, IntArray] = {}
        self._pool_allowed: dict[bytes, BoolArray] = {}
        self._pool_orders: dict[bytes, list[int]] = {}
        self._multiples: dict[bytes, Multiples] = {}  # per demand (its bytes)
        self._bfd_keys: dict[tuple[bytes, bytes, bytes], BfdKeys] = {}
        self._ruts: dict[bytes, tuple[float, ...]] = {}
        # Per identity of a demand array: (demand, allowed types, RUT, their keys), for each
        # allowed types and RUT it came with.
        self._bfd_keys_of: dict[int, list[tuple[FloatArray, BoolArray, FloatArray, BfdKeys]]] = {}
        #: Per resource: what the executors running use in all.
        self.used: list[float] = [0.0] * len(self.resources)

    # ------------------------------------------------------------------ queries

    @property
    def n_machines(self) -> int:
        return len(self.names)

    @property
    def n_pools(self) -> int:
        return len(self.pool_type)

    @property
    def free(self) -> FloatArray:
        """Free capacity, (machines, resources): :attr:`free_rows` as an array (not to be changed)."""
        changed = self._free_changed
        if changed:
            free, rows = self._free, self.free_rows
            for v in changed:  # row by row: faster than numpy's fancy indexing for a few rows
                free[v] = rows[v]
            changed.clear()
        return self._free

    @property
    def on(self) -> BoolArray:
        """Per machine: is it on? (a copy of :attr:`machine_on`)"""
        return np.array(self.machine_on, dtype=bool)

    @property
    def executors(self) -> IntArray:
        """Per machine: the executors it runs (a copy of :attr:`machine_executors`)."""
        return np.array(self.machine_executors, dtype=np.int64)

    @property
    def used_total(self) -> FloatArray:
        """Per resource: what the executors running use in all (a copy of :attr:`used`)."""
        return np.array(self.used, dtype=float)

    @property
    def on_count_by_type(self) -> IntArray:
        """Per VM type: the machines that are on (a copy of :attr:`active_by_type`)."""
        return np.array(self.active_by_type, dtype=np.int64)

    def idle_count(self, p: int) -> int:
        """Idle machines of pool ``p``."""
        return len(self._idle[p])

    def idle_counts(self) -> IntArray:
        """Idle machines of each pool."""
        return np.array([len(p) for p in self._idle], dtype=np.int64)

    def idle_of_pool(self, p: int, k: int) -> list[int]:
        """The first ``k`` idle machines of pool ``p`` in listed order."""
        return self._idle[p].first(k)

    def allowed_machines(self, allowed_types: BoolArray) -> IntArray:
        """The machines a job restricted to ``allowed_types`` may use, ascending (remembered)."""
        key = allowed_types.tobytes()
        found = self._allowed_machines.get(key)
        if found is None:
            found = self._allowed_machines[key] = np.flatnonzero(allowed_types[self.type_of])
        return found

    def may_hold(self, demand: FloatArray, executors: int) -> bool:
        """Whether all the machines together may hold ``executors`` of ``demand``: ``False``
        only when they cannot (``True`` does not mean that they can).

        A few float operations, before a policy looks at machines: a machine holds at most
        ``free_r / d_r + EPS`` executors for every resource ``r`` the executor uses (the rule of
        :meth:`fits_all`), so all of them at most ``F_r / d_r + n EPS``, ``F_r`` the cluster's
        free capacity. ``F_r`` is taken as ``total - used`` plus a millionth of the total, far
        more than the rounding either sum carries.
        """
        return self.may_hold_values(demand.tolist(), executors)

    def may_hold_values(self, demand: Sequence[float], executors: int) -> bool:
        """:meth:`may_hold` of a demand given as Python floats (:attr:`BfdKeys.demand`)."""
        slack = EPS * len(self.names)
        totals, used = self._total_list, self.used
        for r in range(len(totals)):
            d = demand[r]
            if d > 0:
                total = totals[r]
                if (total - used[r] + 1e-6 * total) / d + slack < executors:
                    return False
        return True

    def fits_all(self, demand: FloatArray) -> FloatArray:
        """Executors of ``demand`` that still fit on every machine (float array of integers)."""
        pos = np.flatnonzero(demand > 0)
        free = self.free
        k: FloatArray = free[:, pos[0]] / demand[pos[0]]
        for r in pos[1:]:
            np.minimum(k, free[:, r] / demand[r], out=k)
        k += EPS
        np.floor(k, out=k)
        return k

    def fit_counts(self, idx: IntArray, demand: FloatArray) -> IntArray:
        """Executors of ``demand`` that still fit on each machine in ``idx``."""
        return _fits(self.free[idx], demand)

    def type_fit_counts(self, demand: FloatArray) -> IntArray:
        """Executors of ``demand`` an empty machine of each type holds (remembered per demand)."""
        key = (0, demand.tobytes())
        found = self._fit_counts.get(key)
        if found is None:
            found = self._fit_counts[key] = _fits(self.type_capacity, demand)
        return found

    def pool_fit_counts(self, demand: FloatArray) -> IntArray:
        """Executors of ``demand`` an empty machine of each pool holds (remembered per demand)."""
        key = (1, demand.tobytes())
        found = self._fit_counts.get(key)
        if found is None:
            found = self._fit_counts[key] = _fits(self.pool_capacity, demand)
        return found

    def pool_allowed(self, allowed_types: BoolArray) -> BoolArray:
        """Per pool: may a job restricted to ``allowed_types`` use it? (remembered; not to be changed)"""
        types = np.asarray(allowed_types, dtype=bool)
        key = types.tobytes()
        found = self._pool_allowed.get(key)
        if found is None:
            found = self._pool_allowed[key] = types[self.pool_type]
        return found

    def bfd_keys(self, demand: FloatArray, allowed_types: BoolArray, rut: FloatArray) -> BfdKeys:
        """What BFD asks the machine index and the pools with, for one demand, one set of allowed
        VM types and one RUT, as Python values (remembered: a run has few of each)."""
        # The simulator passes the same arrays at every decision (one per shape of executor, per
        # framework, per run): known by identity, they are not read again. An entry holds its
        # arrays, so an identity is never another array's while it is remembered.
        # (Looked up by the demand's identity alone, an int, then the others compared by
        # identity: a tuple of three identities was hashed at every decision.)
        seen = self._bfd_keys_of.get(id(demand))
        if seen is not None:
            for entry in seen:
                if entry[0] is demand and entry[1] is allowed_types and entry[2] is rut:
                    return entry[3]
        values = np.asarray(rut, dtype=float)
        key = (demand.tobytes(), allowed_types.tobytes(), values.tobytes())
        found = self._bfd_keys.get(key)
        if found is None:
            found = self._bfd_keys[key] = BfdKeys(
                demand=tuple(demand.tolist()),
                allowed_types=allowed_types.tolist(),
                # One tuple per RUT, shared by every demand's keys: the machine index knows it by identity.
                rut=self._ruts.setdefault(key[2], tuple(values.tolist())),
                pool_fits=self.pool_fit_counts(demand).tolist(),
                allowed_pools=self.pool_allowed(allowed_types).tolist(),
                pool_order=self.new_vm_pool_order(values),
            )
        if len(self._bfd_keys_of) >= 4096:  # callers that pass a new array each time
            self._bfd_keys_of.clear()
        entries = self._bfd_keys_of.setdefault(id(demand), [])
        if len(entries) >= 64:  # nor a new set of allowed types or RUT each time
            entries.clear()
        entries.append((demand, allowed_types, rut, found))
        return found

    def idle_counts_list(self) -> list[int]:
        """Idle machines of each pool, as Python ints."""
        return [len(p) for p in self._idle]

    def ra(self, amounts: FloatArray, rut: FloatArray) -> FloatArray:
        """Resource Availability (eq. 8 of paper 003) of rows of per-resource amounts."""
        ra: FloatArray = weighted_rows(amounts / np.where(self.total > 0, self.total, 1.0), rut)
        return ra

    def new_vm_pool_order(self, rut: FloatArray) -> list[int]:
        """BFD's order of pools for new VMs (Algorithm 3 of paper 003, "the smallest VM").

        Reserved pools first (their VMs cost nothing at the margin), then ascending RA (eq. 8)
        of the full capacity, then marginal price (of one type, the cheaper of spot and on
        demand first), then listed order. Without reserved and spot prices a pool is a VM type
        and this is the paper's order. It depends only on the pools and the RUT, so it is
        computed once per RUT.
        """
        key = np.asarray(rut, dtype=float).tobytes()
        order = self._pool_orders.get(key)
        if order is None:
            pool_ra = self.ra(self.pool_capacity, rut)
            ranked = np.lexsort((np.arange(len(pool_ra)), self.pool_price, pool_ra, ~self.pool_reserved))
            order = self._pool_orders[key] = [int(p) for p in ranked]
        return order

    # ------------------------------------------------------------------ changes

    def apply(
        self, assignment: dict[int, int], demand: FloatArray, times: Multiples | None = None
    ) -> list[int]:
        """Start executors; returns the machines this turned on. ``times``: the demand's
        :meth:`multiples_of`, when the caller has it at hand."""
        turned_on = []
        index = self.on_index
        rows, on, executors = self.free_rows, self.machine_on, self.machine_executors
        changed = self._free_changed
        if times is None:
            times = self.multiples_of(demand)
        starting = times.code << 33  # with k: the machine index's key of "k executors start"
        for v, k in assignment.items():
            after = index.moved(v, starting | k) if on[v] else None
            if after is None:
                before = rows[v]
                # The same operations as ``free[v] -= demand * k`` (IEEE doubles either way).
                m = times[k]
                after = tuple([before[r] - m[r] for r in range(len(before))])
                least = self._least_rows[v]
                for r in range(len(after)):  # a loop on unboxed floats, compiled: no call of min()
                    if after[r] < least[r]:
                        raise AssertionError(f"capacity exceeded on {self.names[v]}")
                t = self._type_list[v]
                if on[v]:
                    index.move(v, t, before, after, starting | k)
                else:
                    on[v] = True
                    self._idle[self._pool_list[v]].take(v)
                    index.add(v, t, after)
                    self.active_by_type[t] += 1
                    turned_on.append(v)
            rows[v] = after
            changed.add(v)
            executors[v] += k
        used, m = self.used, times[executors_in(assignment)]
        self.used = [used[r] + m[r] for r in range(len(used))]  # ``used_total += demand * n``
        return turned_on

    def release(
        self,
        assignment: dict[int, int],
        demand: FloatArray,
        times: Multiples | None = None,
        *,
        turn_off_idle: bool = False,
    ) -> list[int]:
        """End executors; returns the machines left idle. ``times`` as in :meth:`apply`.

        With ``turn_off_idle``, the machines left idle are also turned off (:meth:`turn_off`),
        as the simulator does with every one before its next placement: each leaves the
        machine index once, from where it was, instead of moving to the group of its whole
        capacity first (a third of the index's work, measured).
        """
        idle = []
        index = self.on_index
        rows, executors = self.free_rows, self.machine_executors
        changed = self._free_changed
        if times is None:
            times = self.multiples_of(demand)
        ending = (times.code << 33) | (1 << 32)  # with k: the key of "k executors end"
        for v, k in assignment.items():
            left = executors[v] - k
            executors[v] = left
            if left == 0:
                after = self.capacity_rows[v]  # drop floating-point residue
                idle.append(v)
                if turn_off_idle:
                    self._turn_off(v)
                else:
                    index.move(v, self._type_list[v], rows[v], after)
            else:
                found = index.moved(v, ending | k)
                if found is None:
                    before = rows[v]
                    m = times[k]
                    after = tuple([before[r] + m[r] for r in range(len(before))])
                    index.move(v, self._type_list[v], before, after, ending | k)
                else:
                    after = found
            rows[v] = after
            changed.add(v)
        used, m = self.used, times[executors_in(assignment)]
        self.used = [used[r] - m[r] for r in range(len(used))]  # ``used_total -= demand * n``
        return idle

    def multiples_of(self, demand: FloatArray) -> Multiples:
        """``demand * k`` per count ``k`` of executors, as tuples of floats (remembered per demand)."""
        key = demand.tobytes()
        found = self._multiples.get(key)
        if found is None:
            found = self._multiples[key] = Multiples(demand.tolist(), len(self._multiples))
        return found

    def turn_off(self, v: int) -> None:
        """Turn machine ``v`` off if it is on and runs no executor."""
        if self.machine_on[v] and self.machine_executors[v] == 0:
            self._turn_off(v)

    def _turn_off(self, v: int) -> None:
        self.machine_on[v] = False
        t = self._type_list[v]
        self.on_index.remove(v, t, self.free_rows[v])
        self._idle[self._pool_list[v]].put(v)
        self.active_by_type[t] -= 1


def executors_in(assignment: dict[int, int]) -> int:
    """The executors of an assignment (executors per machine): ``sum(assignment.values())``
    as a compiled loop, without a call of the builtin at every start and end.

    >>> executors_in({3: 2, 7: 1})
    3
    """
    n = 0
    for k in assignment.values():
        n += k
    return n


class Multiples(dict[int, tuple[float, ...]]):
    """``multiples[k]``: each amount of one executor's demand times ``k``, computed once per ``k``
    (``x * k``: the same IEEE operation as ``demand * k`` in numpy). The per-event arithmetic
    on free capacities is then one addition or subtraction per resource, written as a
    comprehension over the resources' indices: compiled (:mod:`scheduling.compiled`), that is a
    C loop on unboxed floats, 2.6x faster than ``map(operator.sub, ...)``."""

    def __init__(self, demand: list[float], code: int) -> None:
        super().__init__()
        self.demand = demand
        self.code = code  # this demand's number in its cluster (the machine index's move keys)

    def __missing__(self, k: int) -> tuple[float, ...]:
        found = self[k] = tuple([x * k for x in self.demand])
        return found


def _fits(free: FloatArray, demand: FloatArray) -> IntArray:
    pos = demand > 0
    if free.ndim == 1:
        free = free[None, :]
    ratios = np.floor(free[:, pos] / demand[pos] + EPS)
    fits: IntArray = np.maximum(ratios.min(axis=1), 0).astype(np.int64)
    return fits
