"""BFD (Algorithm 3 of paper 003), consolidate and spread on hand-worked cluster states."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from scheduling.cost.cluster import Cluster, PlacementContext
from scheduling.cost.placement.heuristics import (
    place_bfd,
    place_consolidate,
    place_spread,
    used_vms_in_bfd_order,
)

RUT = np.array([0.8, 0.2])  # the paper's alpha / beta


@pytest.fixture
def partly_used(cluster_of: Callable[..., Cluster]) -> Cluster:
    """Machines 0-1: small (4 cpu, 16 GB, $0.24); 2: medium (8, 32, $0.48); 3: large (12, 48, $0.72).

    Cluster totals: 28 cpu, 112 GB.
    """
    cluster = cluster_of([
        {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
        {"name": "medium", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48},
        {"name": "large", "capacity": {"cpu": 12, "mem": 48}, "price_per_hour": 0.72},
    ])
    # small#1 runs (2 cpu, 8 GB) and has (2, 8) free; medium#1 runs (5, 20) and has (3, 12) free.
    # RA of the free capacity (eq. 8): small#1 0.8 x 2/28 + 0.2 x 8/112 = 0.0714,
    # medium#1 0.8 x 3/28 + 0.2 x 12/112 = 0.1071: Algorithm 3 fills small#1 first.
    cluster.apply({0: 1}, np.array([2.0, 8.0]))
    cluster.apply({2: 1}, np.array([5.0, 20.0]))
    return cluster


EVERY_TYPE = np.ones(3, dtype=bool)


def test_bfd_fills_the_used_vms_in_ascending_ra_of_their_free_capacity(partly_used: Cluster) -> None:
    # Five executors of (1 cpu, 4 GB): small#1 holds min(2/1, 8/4) = 2, medium#1 min(3/1, 12/4) = 3.
    # Both are on, so no VM is turned on; small#1 (lower RA) is filled before medium#1.
    cluster = partly_used
    assert used_vms_in_bfd_order(cluster, np.array([1.0, 4.0]), EVERY_TYPE, RUT, 5).machines == [
        0,
        2,
    ]
    assert place_bfd(cluster, np.array([1.0, 4.0]), 5, EVERY_TYPE, PlacementContext(rut=RUT)) == {0: 2, 2: 3}


def test_bfd_turns_on_the_smallest_unused_vm_for_what_is_left(partly_used: Cluster) -> None:
    # Four executors of (2 cpu, 4 GB): small#1 holds 1, medium#1 holds 1 (3 cpu free); two are
    # left. The unused VM types by RA of their full capacity: small 0.143 < medium 0.286 <
    # large 0.429, so small#2 is turned on; it holds min(4/2, 16/4) = 2.
    cluster = partly_used
    ctx = PlacementContext(rut=RUT)
    assert place_bfd(cluster, np.array([2.0, 4.0]), 4, EVERY_TYPE, ctx) == {0: 1, 2: 1, 1: 2}
    # A framework that may use only medium and large: medium#1 holds 1; no medium is idle, so
    # the large VM is turned on for the other three (it would hold six).
    only_bigger = np.array([False, True, True])
    assert place_bfd(cluster, np.array([2.0, 4.0]), 4, only_bigger, ctx) == {2: 1, 3: 3}
    # Nothing is changed by a placement, and a job that does not fit whole is not placed.
    assert cluster.on.tolist() == [True, False, True, False]
    assert place_bfd(cluster, np.array([2.0, 4.0]), 13, EVERY_TYPE, ctx) is None  # room for 12


def test_bfd_breaks_a_tie_in_ra_by_price_then_listed_order(cluster_of: Callable[..., Cluster]) -> None:
    cluster = cluster_of(
        [
            {"name": "dear", "capacity": {"cpu": 4}, "price_per_hour": 2.0},
            {"name": "cheap", "capacity": {"cpu": 4}, "price_per_hour": 1.0},
            {"name": "cheap-too", "capacity": {"cpu": 4}, "price_per_hour": 1.0},
        ],
        resources=["cpu"],
    )
    ctx = PlacementContext(rut=np.array([1.0]))
    assert cluster.new_vm_pool_order(ctx.rut) == [1, 2, 0]
    assert place_bfd(cluster, np.array([1.0]), 6, np.ones(3, dtype=bool), ctx) == {1: 4, 2: 2}


@pytest.fixture
def spread_cluster(cluster_of: Callable[..., Cluster]) -> Cluster:
    # Machines a#1 (2 cpu), b#1 (4 cpu), c#1 (4 cpu); executors of 1 cpu.
    sizes = (("a", 2), ("b", 4), ("c", 4))
    vm_types = [{"name": name, "capacity": {"cpu": cpu}, "price_per_hour": 1.0} for name, cpu in sizes]
    return cluster_of(vm_types, resources=["cpu"])


def test_spread_deals_executors_round_robin_and_resumes_after_the_last(spread_cluster: Cluster) -> None:
    cluster, ctx, one, every = (
        spread_cluster,
        PlacementContext(rut=np.array([1.0])),
        np.array([1.0]),
        np.ones(3, bool),
    )
    # Job 1, four executors from a#1: a, b, c, then a again -> a 2, b 1, c 1; it ends on a#1,
    # so the next job starts at b#1.
    first = place_spread(cluster, one, 4, every, ctx)
    assert (first, ctx.spread_cursor) == ({0: 2, 1: 1, 2: 1}, 1)
    assert first is not None
    cluster.apply(first, one)
    # Job 2, three executors from b#1: b, c, (a is full) b -> b 2, c 1; it ends on b#1.
    second = place_spread(cluster, one, 3, every, ctx)
    assert (second, ctx.spread_cursor) == ({1: 2, 2: 1}, 2)
    assert second is not None
    cluster.apply(second, one)
    # Five executors no longer fit (c has 2 free, b 1, a none): not placed, the cursor stays.
    assert place_spread(cluster, one, 5, every, ctx) is None and ctx.spread_cursor == 2
    # Job 3, three executors from c#1: c, b, c -> c 2, b 1; it ends on c#1, the last machine.
    assert (place_spread(cluster, one, 3, every, ctx), ctx.spread_cursor) == ({2: 2, 1: 1}, 3)


def test_consolidate_fills_machines_in_listed_order_whatever_they_cost(spread_cluster: Cluster) -> None:
    cluster, ctx, one = spread_cluster, PlacementContext(rut=np.array([1.0])), np.array([1.0])
    assert place_consolidate(cluster, one, 5, np.ones(3, bool), ctx) == {0: 2, 1: 3}
    assert place_consolidate(cluster, one, 5, np.array([False, True, True]), ctx) == {1: 4, 2: 1}
    assert place_consolidate(cluster, one, 11, np.ones(3, bool), ctx) is None

