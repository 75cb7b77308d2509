"""Exact executor placement (Algorithm 2 of paper 003): hand-worked cases, brute force, fallback.

Every method (the covering knapsack, the aggregated integer model in HiGHS and the paper's binary
model in CBC) is checked against an exhaustive search on small random clusters.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scheduling import compiled
from scheduling.cost.cluster import Cluster, PlacementContext
from scheduling.cost.placement.exact import METHODS, exact_placement, place_ilp
from scheduling.cost.placement.heuristics import place_bfd
from scheduling.errors import SolverTimeout
from scheduling.scenario import parse_scenario

TOL = 1e-9


# --------------------------------------------------------------------------- helpers


def make_cluster(vm_types: list[dict[str, Any]], resources: tuple[str, ...] = ("cpu", "mem")) -> Cluster:
    """A cluster of the given VM types (a dummy job keeps the scenario valid)."""
    doc = {
        "resources": list(resources),
        "vm_types": vm_types,
        "jobs": [
            {
                "id": "dummy",
                "arrival_s": 0,
                "executors": 1,
                "executor": dict.fromkeys(resources, 0.001),
                "duration_s": 1,
            }
        ],
    }
    return Cluster(parse_scenario(doc))


def table3(scale: int = 1) -> Cluster:
    """The paper's 14-VM cluster (Table 3 of paper 003), optionally scaled."""
    return make_cluster(
        [
            {
                "name": "m1.large",
                "capacity": {"cpu": 4, "mem": 16},
                "price_per_hour": 0.24,
                "count": 6 * scale,
            },
            {
                "name": "m1.xlarge",
                "capacity": {"cpu": 8, "mem": 32},
                "price_per_hour": 0.48,
                "count": 5 * scale,
            },
            {
                "name": "m2.xlarge",
                "capacity": {"cpu": 12, "mem": 48},
                "price_per_hour": 0.72,
                "count": 3 * scale,
            },
        ]
    )


def ctx_for(cluster: Cluster, method: str = "knapsack", limit: float = 60.0) -> PlacementContext:
    rut = (
        np.array([0.8, 0.2])
        if len(cluster.resources) == 2
        else np.full(len(cluster.resources), 1 / len(cluster.resources))
    )
    return PlacementContext(rut=rut, ilp_method=method, ilp_time_limit_s=limit)


def max_on_machine(free: np.ndarray, demand: np.ndarray) -> int:
    """Executors that fit in ``free``, counted one by one (independent of ``Cluster.fit_counts``)."""
    k = 0
    while k < 64 and np.all(demand * (k + 1) <= free + TOL):
        k += 1
    return k


def brute_force_min_cost(
    cluster: Cluster, demand: np.ndarray, executors: int, allowed_types: np.ndarray
) -> tuple[float, int] | None:
    """Exhaustive search over executor counts per machine: (cheapest new-VM price, fewest new VMs).

    The price is the summed hourly price of the machines that are off and receive an executor
    (eq. 1 of paper 003 with the machines already on fixed at y = 1).
    """
    machines = [v for v in range(cluster.n_machines) if allowed_types[cluster.type_of[v]]]
    caps = [max_on_machine(cluster.free[v], demand) for v in machines]
    best: tuple[float, int] | None = None

    def walk(i: int, left: int, cost: float, new: int) -> None:
        nonlocal best
        if left == 0:
            if best is None or cost < best[0] - TOL or (cost <= best[0] + TOL and new < best[1]):
                best = (cost, new)
            return
        if i == len(machines):
            return
        v = machines[i]
        for k in range(min(caps[i], left), -1, -1):
            turned_on = k > 0 and not cluster.on[v]
            walk(i + 1, left - k, cost + (cluster.price[v] if turned_on else 0.0), new + int(turned_on))

    walk(0, executors, 0.0, 0)
    return best


def check_assignment(
    cluster: Cluster,
    assignment: dict[int, int],
    demand: np.ndarray,
    executors: int,
    allowed_types: np.ndarray,
) -> tuple[float, int]:
    """Assert the placement is valid; return its new-VM price and number of new VMs."""
    assert sum(assignment.values()) == executors
    cost, new = 0.0, 0
    for v, k in assignment.items():
        assert isinstance(v, int) and isinstance(k, int)
        assert k > 0, "a machine in the placement receives no executor"
        assert allowed_types[cluster.type_of[v]], f"{cluster.names[v]} is of a type the job may not use"
        assert np.all(demand * k <= cluster.free[v] + TOL), f"capacity exceeded on {cluster.names[v]}"
        if not cluster.on[v]:
            cost += float(cluster.price[v])
            new += 1
    return cost, new


def cluster_state(cluster: Cluster) -> tuple[Any, ...]:
    return (
        cluster.free.copy(),
        cluster.on.copy(),
        cluster.executors.copy(),
        [sorted(cluster.idle_of_pool(p, cluster.idle_count(p))) for p in range(cluster.n_pools)],
        cluster.on_count_by_type.copy(),
    )


def assert_same_state(a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y)
        else:
            assert x == y


# --------------------------------------------------------------------------- hand-worked cases


def fig2_cluster() -> Cluster:
    """Figs. 2-3 of paper 003: one resource, VMs of 2, 4, 6 and 8 cores priced 1, 2, 3 and 4."""
    return make_cluster(
        [{"name": f"VM-{i}", "capacity": {"cpu": 2 * i}, "price_per_hour": i} for i in (1, 2, 3, 4)],
        resources=("cpu",),
    )


@pytest.mark.parametrize("method", METHODS)
def test_paper_fig3_example(method: str) -> None:
    cluster = fig2_cluster()
    ctx = ctx_for(cluster, method)
    every = np.ones(4, bool)
    job1 = place_ilp(cluster, np.array([1.0]), 2, every, ctx)
    assert job1 == {0: 2}  # the cheapest VM the job fits on: VM-1
    cluster.apply(job1, np.array([1.0]))
    job2 = place_ilp(cluster, np.array([2.0]), 2, every, ctx)
    assert job2 == {1: 2}  # VM-1 is full: the second cheapest, VM-2
    assert ctx.stats == {"ilp_decisions": 2}
    assert ctx.events == []


@pytest.mark.parametrize("method", METHODS)
def test_exact_beats_bfd_on_new_vm_price(method: str) -> None:
    # BFD turns on the smallest VM first: two 4-core VMs (2.0/h) for six 1-core executors,
    # where one 6-core VM (1.2/h) holds them all.
    cluster = make_cluster(
        [
            {"name": "small", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 2},
            {"name": "big", "capacity": {"cpu": 6}, "price_per_hour": 1.2},
        ],
        resources=("cpu",),
    )
    demand, every = np.array([1.0]), np.ones(2, bool)
    bfd = place_bfd(cluster, demand, 6, every, ctx_for(cluster))
    assert bfd is not None
    assert check_assignment(cluster, bfd, demand, 6, every) == (2.0, 2)
    found = exact_placement(cluster, demand, 6, every, np.array([1.0]), method=method)
    assert found is not None
    assert found.assignment == {2: 6}
    assert (found.new_cost, found.new_machines, found.solver_cost) == (1.2, 1, 1.2)


@pytest.mark.parametrize("method", METHODS)
def test_machines_already_on_are_filled_first_in_bfd_order(method: str) -> None:
    cluster = table3()
    one = np.array([1.0, 4.0])
    cluster.apply({0: 1}, one)  # m1.large#1: 3 cores, 12 GB free (RA 0.030)
    cluster.apply({6: 7}, one)  # m1.xlarge#1: 1 core, 4 GB free (RA 0.010)
    cluster.apply({11: 2}, one)  # m2.xlarge#1: 10 cores, 40 GB free (RA 0.100)
    ctx = ctx_for(cluster, method)
    every = np.ones(3, bool)
    # The job fits on the machines already on: no new VM, least RA first (not index order).
    got = place_ilp(cluster, one, 3, every, ctx)
    assert got == {6: 1, 0: 2}
    assert got == place_bfd(cluster, one, 3, every, ctx)
    got = place_ilp(cluster, one, 8, every, ctx)
    assert got == {6: 1, 0: 3, 11: 4}
    # 14 executors fit on the machines on; 6 more need one m1.xlarge (two m1.large cost as much).
    got = place_ilp(cluster, np.array([1.0, 1.0]), 20, every, ctx)
    assert got == {6: 1, 0: 3, 11: 10, 7: 6}


@pytest.mark.parametrize("method", METHODS)
def test_infeasible_returns_none(method: str) -> None:
    cluster = fig2_cluster()
    ctx = ctx_for(cluster, method)
    every = np.ones(4, bool)
    assert place_ilp(cluster, np.array([2.0]), 11, every, ctx) is None  # 10 slots of 2 cores
    assert place_ilp(cluster, np.array([9.0]), 1, every, ctx) is None  # fits on no VM
    only_vm1 = np.array([True, False, False, False])
    assert place_ilp(cluster, np.array([1.0]), 3, only_vm1, ctx) is None
    assert place_ilp(cluster, np.array([1.0]), 1, np.zeros(4, bool), ctx) is None
    assert ctx.stats == {"ilp_decisions": 4}
    assert ctx.events == []


@pytest.mark.parametrize("method", METHODS)
def test_only_allowed_types_and_no_mutation(method: str) -> None:
    cluster = table3()
    cluster.apply({12: 1}, np.array([10.0, 10.0]))  # an m2.xlarge on, 2 cores free
    before = cluster_state(cluster)
    allowed = np.array([False, True, False])
    ctx = ctx_for(cluster, method)
    got = place_ilp(cluster, np.array([2.0, 4.0]), 8, allowed, ctx)  # 4 per m1.xlarge
    assert got is not None
    assert 12 not in got
    assert check_assignment(cluster, got, np.array([2.0, 4.0]), 8, allowed) == pytest.approx((0.96, 2))
    assert_same_state(before, cluster_state(cluster))


def test_prices_tied_with_table3_give_one_placement_for_every_method() -> None:
    # Table 3's prices are proportional to size, so optima tie often; every method breaks
    # the tie the same way (fewest new VMs, then the knapsack's canonical choice).
    rng = np.random.default_rng(3)
    for _ in range(12):
        cluster = table3()
        for v in np.flatnonzero(rng.random(cluster.n_machines) < 0.4).tolist():
            d = np.array([1.0, 2.0])
            cluster.apply({v: int(rng.integers(1, cluster.fit_counts(np.array([v]), d)[0] + 1))}, d)
        demand = np.array([float(rng.integers(1, 7)), float(rng.integers(4, 13))])
        executors = int(rng.integers(1, 9))
        every = np.ones(3, bool)
        found = [
            exact_placement(cluster, demand, executors, every, np.array([0.8, 0.2]), method=m)
            for m in METHODS
        ]
        if found[0] is None:
            assert all(f is None for f in found)
            continue
        assert all(f is not None for f in found)
        assert found[1] is not None and found[2] is not None
        assert found[1].assignment == found[0].assignment
        assert found[2].assignment == found[0].assignment


# --------------------------------------------------------------------------- random clusters, all methods


@st.composite
def instances(draw: st.DrawFn) -> tuple[Cluster, np.ndarray, int, np.ndarray]:
    n_types = draw(st.integers(1, 3))
    counts = [draw(st.integers(1, 3)) for _ in range(n_types)]
    while sum(counts) > 6:
        counts[counts.index(max(counts))] -= 1
    vm_types = [
        {
            "name": f"t{t}",
            "capacity": {
                "cpu": draw(st.sampled_from([1, 2, 3, 4, 6, 8])),
                "mem": draw(st.sampled_from([1, 2, 4, 8, 16])),
            },
            "price_per_hour": draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0])),
            "count": counts[t],
        }
        for t in range(n_types)
    ]
    cluster = make_cluster(vm_types)
    for v in range(cluster.n_machines):  # some machines on, partly used (maybe by nothing)
        if draw(st.booleans()):
            d = np.array([draw(st.sampled_from([0.5, 1.0, 2.0])), draw(st.sampled_from([0.5, 1.0, 4.0]))])
            room = int(cluster.fit_counts(np.array([v]), d)[0])
            cluster.apply({v: draw(st.integers(0, room))}, d)
    demand = np.array(
        [
            draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0])),
            draw(st.sampled_from([0.5, 1.0, 2.0, 3.0, 4.0])),
        ]
    )
    executors = draw(st.integers(1, 8))
    allowed = np.array([draw(st.booleans()) or t == 0 for t in range(n_types)])
    return cluster, demand, executors, allowed


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(instances())
def test_every_method_reaches_the_brute_force_optimum(
    instance: tuple[Cluster, np.ndarray, int, np.ndarray],
) -> None:
    cluster, demand, executors, allowed = instance
    want = brute_force_min_cost(cluster, demand, executors, allowed)
    event("infeasible" if want is None else "new VMs needed" if want[1] else "fits on machines already on")
    before = cluster_state(cluster)
    placements = []
    for method in METHODS:
        ctx = ctx_for(cluster, method)
        found = exact_placement(cluster, demand, executors, allowed, ctx.rut, method=method, time_limit_s=60)
        got = place_ilp(cluster, demand, executors, allowed, ctx)
        assert ctx.stats == {"ilp_decisions": 1}, method
        if want is None:
            assert found is None and got is None, method
            continue
        assert found is not None, method
        assert got == found.assignment
        # The method's own optimum (before the tie-break) is the true one ...
        assert found.solver_cost == pytest.approx(want[0], abs=1e-9), method
        # ... and the placement is valid, as cheap, and uses the fewest new VMs.
        cost, new = check_assignment(cluster, found.assignment, demand, executors, allowed)
        assert cost == pytest.approx(want[0], abs=1e-9), method
        assert new == want[1] == found.new_machines, method
        placements.append(found.assignment)
    assert all(p == placements[0] for p in placements)
    assert_same_state(before, cluster_state(cluster))


# --------------------------------------------------------------------------- the time limit


def busy_table3() -> tuple[Cluster, np.ndarray, int, np.ndarray]:
    cluster = table3(10)
    rng = np.random.default_rng(7)
    one = np.array([1.0, 4.0])
    for v in np.flatnonzero(rng.random(cluster.n_machines) < 0.5).tolist():
        cluster.apply({v: int(cluster.fit_counts(np.array([v]), one)[0])}, one)  # full
    return cluster, np.array([4.0, 6.0]), 8, np.ones(3, bool)  # needs new VMs


@pytest.mark.parametrize("method", METHODS)
def test_time_limit_falls_back_to_bfd(method: str) -> None:
    cluster, demand, executors, allowed = busy_table3()
    ctx = ctx_for(cluster, method, limit=1e-9)  # spent before any model is built or solved
    ctx.job_id = "j7"  # the simulator names the job before it asks for a placement
    got = place_ilp(cluster, demand, executors, allowed, ctx)
    assert got is not None
    assert got == place_bfd(cluster, demand, executors, allowed, ctx_for(cluster))
    check_assignment(cluster, got, demand, executors, allowed)
    assert ctx.stats == {"ilp_decisions": 1, "ilp_fallbacks": 1}
    assert len(ctx.events) == 1
    event = ctx.events[0]
    assert (event["kind"], event["job"], event["method"]) == ("ilp_fallback", "j7", method)
    assert "time limit" in str(event["reason"])
    with pytest.raises(SolverTimeout):
        exact_placement(cluster, demand, executors, allowed, ctx.rut, method=method, time_limit_s=1e-9)


def test_highs_time_limit_stop_is_not_taken_for_an_optimum(monkeypatch: pytest.MonkeyPatch) -> None:
    # HiGHS itself stops at its time limit (PuLP would call that "Optimal"): read the real status.
    cluster, demand, executors, allowed = busy_table3()
    source = compiled.source_module("scheduling.cost.placement.exact")  # its functions can be replaced
    monkeypatch.setattr(source, "_remaining", lambda deadline, what, limit: 1e-9)
    ctx = ctx_for(cluster, "integer")
    got = source.place_ilp(cluster, demand, executors, allowed, ctx)
    assert got == place_bfd(cluster, demand, executors, allowed, ctx_for(cluster))
    assert ctx.stats["ilp_fallbacks"] == 1
    assert "HiGHS reached the time limit" in str(ctx.events[0]["reason"])


def test_unknown_method_is_an_error() -> None:
    cluster = fig2_cluster()
    with pytest.raises(ValueError, match="unknown ILP method"):
        place_ilp(cluster, np.array([1.0]), 1, np.ones(4, bool), ctx_for(cluster, "simplex"))
