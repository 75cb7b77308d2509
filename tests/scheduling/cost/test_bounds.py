"""The lower bound on any scheduler's cost: the cheapest fractional VM mix covering the work."""

from __future__ import annotations

import numpy as np
import pytest

from scheduling import compare, lower_bound_cost, parse_scenario
from scheduling.cost.bounds import cheapest_cover_cost, work_resource_hours

# small: 4 cpu, 16 GB at $0.24/h; big: 8 cpu, 16 GB at $0.40/h.
VM_TYPES = [
    {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 10},
    {"name": "big", "capacity": {"cpu": 8, "mem": 16}, "price_per_hour": 0.40, "count": 10},
]
# Four executors of (3 cpu, 8 GB) for two hours: W = (4 x 3 x 2, 4 x 8 x 2) = (24 cpu-h, 64 GB-h).
JOBS = [{"id": "a", "arrival_s": 0, "executors": 4, "executor": {"cpu": 3, "mem": 8}, "duration_s": 7200}]


def test_hand_worked_lp() -> None:
    # minimise 0.24 y_small + 0.40 y_big  (VM-hours of each type)
    # s.t.     4 y_small +  8 y_big >= 24   (cpu-hours)
    #         16 y_small + 16 y_big >= 64   (GB-hours)
    #          y >= 0
    # The feasible region's vertices: (y_small, y_big) = (6, 0): cpu binds, 96 GB-h >= 64, cost
    # $1.44; (0, 4): memory binds, 32 cpu-h >= 24, cost $1.60; (2, 2): both bind
    # (y_small + y_big = 4 and y_small + 2 y_big = 6), cost 0.48 + 0.80 = $1.28. The optimum
    # is the cheapest vertex: $1.28 (a mix no whole-VM schedule can match: it is a bound).
    scenario = parse_scenario({"vm_types": VM_TYPES, "jobs": JOBS})
    assert work_resource_hours(scenario).tolist() == [24.0, 64.0]
    assert lower_bound_cost(scenario) == pytest.approx(1.28)
    capacity = np.array([[4.0, 16.0], [8.0, 16.0]])
    price = np.array([0.24, 0.40])
    assert cheapest_cover_cost(capacity, price, np.array([24.0, 64.0])) == pytest.approx(1.28)
    # With memory alone to cover, the cheaper GB (small: $0.015/GB-h) wins: 64 / 16 x 0.24.
    assert cheapest_cover_cost(capacity, price, np.array([0.0, 64.0])) == pytest.approx(0.96)
    assert cheapest_cover_cost(capacity, price, np.zeros(2)) == 0.0


def test_no_scheduler_beats_the_bound() -> None:
    scenario = parse_scenario({"vm_types": VM_TYPES, "jobs": JOBS})
    for name, result in compare(scenario, schedulers=["fifo-spread", "edf-bfd", "edf-ilp"]).items():
        assert result.lower_bound_cost == pytest.approx(1.28)
        # The best real schedule: the four executors on two big VMs (2 x 2 fit) for two hours,
        # $1.60, or on four small VMs, $1.92; both are above the fractional $1.28.
        assert result.total_cost >= 1.28, name
    assert compare(scenario, schedulers=["edf-ilp"])["edf-ilp"].total_cost == pytest.approx(1.60)
