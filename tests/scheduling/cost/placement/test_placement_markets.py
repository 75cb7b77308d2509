"""The exact placement with reserved and spot prices (scenario version 4) stays exact for its
objective, the summed marginal price of the VMs it turns on (a reserved VM's is 0): every method
against brute force on small random clusters, as for on-demand prices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scheduling.cost.cluster import Cluster
from scheduling.cost.placement.exact import METHODS, exact_placement, place_ilp

from .test_placement_exact import brute_force_min_cost, check_assignment, ctx_for, make_cluster


@st.composite
def market_instances(draw: st.DrawFn) -> tuple[Cluster, np.ndarray, int, np.ndarray]:
    n_types = draw(st.integers(1, 3))
    counts = [draw(st.integers(1, 3)) for _ in range(n_types)]
    while sum(counts) > 6:
        counts[counts.index(max(counts))] -= 1
    vm_types: list[dict[str, Any]] = []
    for t in range(n_types):
        vt: dict[str, Any] = {
            "name": f"t{t}",
            "capacity": {"cpu": draw(st.sampled_from([1, 2, 3, 4, 6, 8])),
                         "mem": draw(st.sampled_from([1, 2, 4, 8, 16]))},
            "price_per_hour": draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0])),
            "count": counts[t],
        }
        reserved = draw(st.integers(0, counts[t]))
        if reserved:
            vt["reserved"] = {"price_per_hour": draw(st.sampled_from([0.2, 0.7, 1.0])), "count": reserved}
        if draw(st.booleans()):
            spot: dict[str, Any] = {"price_per_hour": draw(st.sampled_from([0.1, 0.4, 1.0, 2.5]))}
            if draw(st.booleans()):
                spot["count"] = draw(st.integers(0, counts[t] - reserved))
            vt["spot"] = spot
        vm_types.append(vt)
    cluster = make_cluster(vm_types)
    for v in range(cluster.n_machines):  # some machines on, partly used (maybe by nothing)
        if draw(st.booleans()):
            d = np.array([draw(st.sampled_from([0.5, 1.0, 2.0])), draw(st.sampled_from([0.5, 1.0, 4.0]))])
            room = int(cluster.fit_counts(np.array([v]), d)[0])
            cluster.apply({v: draw(st.integers(0, room))}, d)
    demand = np.array([draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0])),
                       draw(st.sampled_from([0.5, 1.0, 2.0, 3.0, 4.0]))])
    executors = draw(st.integers(1, 8))
    allowed = np.array([draw(st.booleans()) or t == 0 for t in range(n_types)])
    return cluster, demand, executors, allowed


@settings(max_examples=200, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(market_instances())
def test_every_method_reaches_the_brute_force_optimum_at_marginal_prices(
    instance: tuple[Cluster, np.ndarray, int, np.ndarray],
) -> None:
    cluster, demand, executors, allowed = instance
    # brute_force_min_cost and check_assignment price a machine turned on at cluster.price:
    # its marginal price (0 reserved, else its spot or on-demand price).
    want = brute_force_min_cost(cluster, demand, executors, allowed)
    event("infeasible" if want is None else "reserved" if cluster.reserved.any() else "no reserved")
    placements = []
    for method in METHODS:
        ctx = ctx_for(cluster, method)
        found = exact_placement(cluster, demand, executors, allowed, ctx.rut, method=method, time_limit_s=60)
        got = place_ilp(cluster, demand, executors, allowed, ctx)
        if want is None:
            assert found is None and got is None, method
            continue
        assert found is not None and got == found.assignment, method
        assert found.solver_cost == pytest.approx(want[0], abs=1e-9), method
        cost, new = check_assignment(cluster, found.assignment, demand, executors, allowed)
        assert cost == pytest.approx(want[0], abs=1e-9), method
        assert new == want[1] == found.new_machines, method
        placements.append(found.assignment)
    assert all(p == placements[0] for p in placements)
