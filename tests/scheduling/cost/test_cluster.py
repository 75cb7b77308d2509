"""The cluster's state: free capacity, VMs on and idle, executors fitting, BFD's type order."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from scheduling.cost.cluster import Cluster


@pytest.fixture
def two_types(cluster_of: Callable[..., Cluster]) -> Cluster:
    # small#1, small#2 (4 cpu, 16 GB, $0.24) and big#1 (8 cpu, 16 GB, $0.40): totals 16 cpu, 48 GB.
    return cluster_of([
        {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
        {"name": "big", "capacity": {"cpu": 8, "mem": 16}, "price_per_hour": 0.40},
    ])


def test_apply_release_and_turn_off_keep_the_books(two_types: Cluster) -> None:
    cluster = two_types
    demand = np.array([2.0, 4.0])
    assert cluster.apply({1: 2, 2: 1}, demand) == [1, 2]  # both turned on
    assert cluster.on.tolist() == [False, True, True]
    assert cluster.free.tolist() == [[4, 16], [0, 8], [6, 12]]
    assert cluster.used_total.tolist() == [6, 12]
    assert cluster.on_count_by_type.tolist() == [1, 1]
    assert cluster.idle_counts().tolist() == [1, 0]
    assert cluster.apply({2: 1}, demand) == []  # already on
    assert cluster.release({1: 2, 2: 1}, demand) == [1]  # small#2 is left idle, big#1 still runs one
    cluster.turn_off(1)
    cluster.turn_off(2)  # still runs an executor: stays on
    assert cluster.on.tolist() == [False, False, True]
    assert cluster.idle_of_pool(0, 2) == [0, 1]  # listed order, whatever order they went idle in
    assert cluster.free[1].tolist() == [4, 16]


def test_exceeding_a_vm_s_capacity_is_a_bug_not_a_placement(two_types: Cluster) -> None:
    cluster = two_types
    with pytest.raises(AssertionError, match="capacity exceeded on small#1"):
        cluster.apply({0: 3}, np.array([2.0, 4.0]))


def test_executors_that_fit(two_types: Cluster) -> None:
    cluster = two_types
    cluster.apply({2: 1}, np.array([3.0, 0.0]))
    demand = np.array([2.0, 5.0])  # small: min(4/2, 16/5) = 2; big with (5, 16) free: min(2, 3) = 2
    assert cluster.fits_all(demand).tolist() == [2, 2, 2]
    assert cluster.type_fit_counts(demand).tolist() == [2, 3]
    assert cluster.fit_counts(np.array([2]), np.array([0.0, 16.0])).tolist() == [1]  # cpu-free executor


def test_resource_availability_and_the_new_vm_pool_order(two_types: Cluster) -> None:
    cluster = two_types
    rut = np.array([0.8, 0.2])
    # eq. 8: small 0.8 x 4/16 + 0.2 x 16/48 = 0.2667; big 0.8 x 8/16 + 0.2 x 16/48 = 0.4667
    assert cluster.ra(cluster.type_capacity, rut).tolist() == pytest.approx(
        [0.8 / 4 + 0.2 / 3, 0.4 + 0.2 / 3]
    )
    assert cluster.new_vm_pool_order(rut) == [0, 1]
    # Weighing only memory, both types have the same RA: the cheaper one first.
    assert cluster.new_vm_pool_order(np.array([0.0, 1.0])) == [0, 1]
    assert cluster.new_vm_pool_order(np.array([1.0, 0.0])) == [0, 1]
