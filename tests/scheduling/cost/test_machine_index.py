"""The machine index answers BFD's used-VM query as the engine's scan of every machine does."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from scheduling.cost.cluster import Cluster
from scheduling.cost.machine_index import IdlePool, OnIndex, executors_fitting, resource_availability
from scheduling.cost.placement.heuristics import used_vms_in_bfd_order


@pytest.fixture
def three_types(cluster_of: Callable[..., Cluster]) -> Cluster:
    return cluster_of([
        {"name": "m1.large", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 30},
        {"name": "m1.xlarge", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 25},
        {"name": "m2.xlarge", "capacity": {"cpu": 12, "mem": 48}, "price_per_hour": 0.72, "count": 15},
    ])


@pytest.mark.parametrize("seed", range(8))
def test_best_fits_equal_the_scan_of_every_machine(three_types: Cluster, seed: int) -> None:
    """Random executors started and ended on a 70-VM cluster; after each change, random jobs
    (fractional demands too, some types not allowed, several RUTs) get the same machines, the
    same executors each and, when it matters (below ``limit``), the same room."""
    rng = random.Random(seed)
    cluster = three_types
    index = OnIndex(cluster.total.tolist())
    running: list[tuple[dict[int, int], np.ndarray]] = []
    ruts = [np.array([0.5, 0.5]), np.array([0.8, 0.2]), np.array([1.0, 0.0])]

    def shape(v: int) -> tuple[float, ...]:
        return tuple(cluster.free[v].tolist())

    for _ in range(150):
        if running and rng.random() < 0.4:
            assignment, demand = running.pop(rng.randrange(len(running)))
            before = {v: shape(v) for v in assignment}
            cluster.release(assignment, demand)
            for v in assignment:
                index.move(v, int(cluster.type_of[v]), before[v], shape(v))
                if cluster.executors[v] == 0 and rng.random() < 0.7:
                    index.remove(v, int(cluster.type_of[v]), shape(v))
                    cluster.turn_off(v)
        else:
            demand = np.array([rng.choice([1.0, 2.0, 0.5, 3.0]), rng.choice([2.0, 4.0, 8.0, 1.5])])
            fits = cluster.fits_all(demand)
            v = rng.choice([int(x) for x in np.flatnonzero(fits > 0)])
            assignment = {v: rng.randint(1, int(fits[v]))}
            was_on = bool(cluster.on[v])
            before = shape(v)
            cluster.apply(assignment, demand)
            if was_on:
                index.move(v, int(cluster.type_of[v]), before, shape(v))
            else:
                index.add(v, int(cluster.type_of[v]), shape(v))
            running.append((assignment, demand))
        for _ in range(3):
            demand = np.array([rng.choice([1.0, 2.0, 0.5, 4.0]), rng.choice([0.0, 2.0, 4.0, 6.0])])
            allowed = np.array([rng.random() < 0.8 for _ in range(3)])
            rut = ruts[rng.randrange(len(ruts))]
            limit = rng.randint(1, 12)
            scan = used_vms_in_bfd_order(cluster, demand, allowed, rut, limit)
            machines, fits, room = index.best_fits(
                tuple(demand.tolist()), allowed.tolist(), rut=tuple(rut.tolist()), limit=limit
            )
            assert machines == scan.machines and fits == scan.fits
            assert room == scan.room if scan.room < limit else room >= limit


def test_the_rules_are_the_engines() -> None:
    free, total, rut = (3.0, 7.5), (16.0, 48.0), (0.8, 0.2)
    amounts = np.array([free, free, (1.0, 2.0)])
    assert resource_availability(free, total, rut) == float(((amounts / np.array(total)) @ np.array(rut))[0])
    assert executors_fitting((3.0, 7.5), (1.5, 2.5)) == 2
    assert executors_fitting((3.0, 7.5), (0.0, 0.0)) == 0  # an executor of nothing: never placed here


def test_idle_pool_keeps_listed_order() -> None:
    pool = IdlePool([7, 2, 5])
    assert pool.first(2) == [2, 5] and pool.first(0) == [] and pool.first(9) == [2, 5, 7]
    pool.take(5)
    pool.put(1)
    assert pool.first(3) == [1, 2, 7] and len(pool) == 3


@pytest.mark.parametrize("seed", range(6))
def test_best_fits_equal_a_brute_force_sort_near_the_tolerance(seed: int) -> None:
    """The query starts past the groups whose RA is below the demand's (they cannot hold an
    executor): on free capacities at and just under a demand (within the fit's tolerance, and
    just past it), it gives what sorting every machine by (RA, index) gives."""
    rng = random.Random(seed)
    total = (64.0, 256.0)
    demands = [(2.0, 8.0), (1.0, 0.0), (0.5, 3.0), (3.0, 1.5)]
    index = OnIndex(total)
    free: dict[int, tuple[float, ...]] = {}
    for v in range(120):
        d = rng.choice(demands)
        scale = rng.choice([1.0, 1.0 - 1e-10, 1.0 - 1e-7, 2.0, 0.5, 3.0, 0.0])
        shape = tuple(x * scale + rng.choice([0.0, 0.0, 0.25]) for x in d)
        free[v] = shape
        index.add(v, v % 3, shape)
    for rut in ((0.5, 0.5), (1.0, 0.0), (0.2, 0.8), (0.0, 1.0)):
        for demand in demands:
            allowed = [rng.random() < 0.8 for _ in range(3)]
            limit = rng.randint(1, 40)
            fitting = sorted(
                (resource_availability(f, total, rut), v, executors_fitting(f, demand))
                for v, f in free.items()
                if allowed[v % 3] and executors_fitting(f, demand) > 0
            )
            machines, counts, room = index.best_fits(demand, allowed, rut=rut, limit=limit)
            assert machines == [v for _, v, _ in fitting[:limit]]
            assert counts == [k for _, _, k in fitting[:limit]]
            every = sum(k for _, _, k in fitting)
            assert room == every if len(fitting) < limit else room >= limit


def test_groups_left_empty_are_kept_then_forgotten_without_changing_an_answer() -> None:
    """Machines wander through thousands of free capacities (each left behind is a group kept
    empty, then forgotten in bulk) and come back to earlier ones: every answer stays the one
    of sorting every machine by (RA, index), and the kept groups stay bounded."""
    rng = random.Random(3)
    total, rut, demand = (64.0, 256.0), (0.5, 0.5), (1.0, 2.0)
    index = OnIndex(total)
    free: dict[int, tuple[float, ...]] = {}
    for step in range(6000):
        v = rng.randrange(40)
        # Half of the shapes recur (a small grid), half are new (fractional amounts).
        shape = (
            (float(rng.randrange(8)), float(rng.randrange(8)) * 4.0)
            if rng.random() < 0.5
            else (rng.random() * 8.0, rng.random() * 32.0)
        )
        if v in free and rng.random() < 0.2:
            index.remove(v, v % 2, free.pop(v))
        elif v in free:
            index.move(v, v % 2, free[v], shape)
            free[v] = shape
        else:
            index.add(v, v % 2, shape)
            free[v] = shape
        assert len(index) == len(free)
        if step % 97 == 0:
            fitting = sorted(
                (resource_availability(f, total, rut), v, executors_fitting(f, demand))
                for v, f in free.items()
                if executors_fitting(f, demand) > 0
            )
            machines, counts, room = index.best_fits(demand, [True, True], rut=rut, limit=15)
            assert machines == [v for _, v, _ in fitting[:15]]
            assert counts == [k for _, _, k in fitting[:15]]
            assert room == sum(k for _, _, k in fitting) if len(fitting) < 15 else room >= 15
    kept = index._groups  # the bound is the point of the test
    assert len(kept) <= 2 * (len(free) + 1025)
    assert index._next_id > len(kept) + 1024  # groups were forgotten


@pytest.mark.parametrize("seed", range(4))
def test_remembered_moves_give_what_working_each_move_out_gives(seed: int) -> None:
    """Machines started and ended by keyed changes (``move`` with a key, then ``moved`` when the
    same change comes again), on one index, and by plain moves on another: every answer is the
    same, and so is every machine's free capacity, through thousands of changes in which groups
    are left empty, forgotten in bulk, and their remembered moves with them."""
    rng = random.Random(seed)
    total, rut = (64.0, 256.0), (0.5, 0.5)
    keyed, plain = OnIndex(total), OnIndex(total)
    capacity = (8.0, 32.0)
    steps = [(1.0, 4.0), (0.5, 3.0), (2.0, 1.5)] + [(rng.random(), rng.random() * 4.0) for _ in range(400)]
    free: dict[int, tuple[float, ...]] = {}
    for v in range(30):
        keyed.add(v, v % 2, capacity)
        plain.add(v, v % 2, capacity)
        free[v] = capacity
    for _ in range(5000):
        v = rng.randrange(30)
        s = rng.randrange(3) if rng.random() < 0.7 else rng.randrange(len(steps))
        k = rng.randint(1, 2)
        sign = 1 if rng.random() < 0.5 else -1
        after = tuple(f + sign * d * k for f, d in zip(free[v], steps[s], strict=True))
        if min(after) < 0 or any(a > c for a, c in zip(after, capacity, strict=True)):
            continue
        key = ((s << 1 | (sign > 0)) << 32) | k
        found = keyed.moved(v, key)
        if found is None:
            keyed.move(v, v % 2, free[v], after, key)
        else:
            assert found == after
        plain.move(v, v % 2, free[v], after)
        free[v] = after
        demand = steps[rng.randrange(3)]
        assert keyed.best_fits(demand, [True, True], rut=rut, limit=8) == plain.best_fits(
            demand, [True, True], rut=rut, limit=8
        )
        # Every machine is in the group the index keeps for its free capacity (a remembered
        # move never leads to a group forgotten).
        group = keyed._group_of[v]
        assert group is not None and keyed._groups.get((v % 2, group.free)) is group
    assert keyed._next_id > len(keyed._groups) + 1024  # groups (and their moves) were forgotten
