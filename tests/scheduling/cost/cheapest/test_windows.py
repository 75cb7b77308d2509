"""The demand-window test: hand-worked windows, compulsory parts, and never a feasible cluster pruned."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduling import parse_scenario, simulate
from scheduling.cost.cheapest.space import cluster_scenario, fits
from scheduling.cost.cheapest.windows import DemandDensity, demand_density, passes_demand_windows

VM = {"name": "v", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 10}


def test_hand_worked_windows() -> None:
    # Three deadline jobs (cpu-seconds of work = executors x cpu x duration):
    #   a: arrives 0,   due 400, 2 x 2 cpu x 100 s =  400 cpu-s
    #   b: arrives 100, due 200, 3 x 2 cpu x 100 s =  600 cpu-s   (due exactly one duration after arrival)
    #   c: arrives 150, due 300, 1 x 4 cpu x 100 s =  400 cpu-s
    # Windows [a, d] between an arrival and a deadline, and the work of the jobs inside them:
    #   [0, 200]:   b          600 / 200 = 3.0       [0, 300]:   b, c   1000 / 300 = 3.33
    #   [0, 400]:   a, b, c   1400 / 400 = 3.5       [100, 200]: b       600 / 100 = 6.0
    #   [100, 300]: b, c      1000 / 200 = 5.0       [150, 300]: c       400 / 150 = 2.67
    # The densest is [100, 200] at 6 cpu. Memory: 1 GB per cpu, the same windows at the same ratio.
    # Compulsory parts [due - duration, arrival + duration]: a: [300, 100] none; b: [100, 200]
    # (6 cpu); c: [200, 250] (4 cpu): they never overlap (b's ends at 200, c's starts there), so 6 cpu.
    jobs = [
        {
            "id": "a",
            "arrival_s": 0,
            "executors": 2,
            "executor": {"cpu": 2, "mem": 2},
            "duration_s": 100,
            "deadline_s": 400,
        },
        {
            "id": "b",
            "arrival_s": 100,
            "executors": 3,
            "executor": {"cpu": 2, "mem": 2},
            "duration_s": 100,
            "deadline_s": 100,
        },
        {
            "id": "c",
            "arrival_s": 150,
            "executors": 1,
            "executor": {"cpu": 4, "mem": 4},
            "duration_s": 100,
            "deadline_s": 150,
        },
    ]
    d = demand_density(parse_scenario({"vm_types": [VM], "jobs": jobs}))
    assert d.density == (6.0, 6.0) and d.windows == ((100.0, 200.0), (100.0, 200.0))
    assert d.compulsory == (6.0, 6.0) and d.instants == (100.0, 100.0)
    assert d.need == (6.0, 6.0)
    capacity = np.array([[6.0, 6.0], [5.9, 100.0], [100.0, 5.0]])
    assert passes_demand_windows(capacity, d).tolist() == [True, False, False]


def test_compulsory_parts_add_up_where_windows_do_not() -> None:
    # Two jobs with long windows but tight deadlines overlapping in the middle: each alone needs
    # 4 cpu over [0, 150] (600 cpu-s / 150 s), together 1200 / 150 = 8 cpu in the window [0, 150]...
    # but both run through [50, 100] whatever they do (compulsory parts), so 8 cpu at once.
    jobs = [
        {
            "id": k,
            "arrival_s": 0,
            "executors": 2,
            "executor": {"cpu": 3, "mem": 1},
            "duration_s": 100,
            "deadline_s": 150,
        }
        for k in ("a", "b")
    ]
    d = demand_density(parse_scenario({"vm_types": [VM], "jobs": jobs}))
    assert math.isclose(d.density[0], 1200 / 150) and d.compulsory[0] == 12.0 and d.need[0] == 12.0


def test_a_deadline_shorter_than_the_job_fails_every_cluster() -> None:
    jobs = [
        {
            "id": "late",
            "arrival_s": 0,
            "executors": 1,
            "executor": {"cpu": 1, "mem": 1},
            "duration_s": 100,
            "deadline_s": 50,
        }
    ]
    d = demand_density(parse_scenario({"vm_types": [VM], "jobs": jobs}))
    assert d.impossible_job == "late" and d.need == (math.inf, math.inf)
    assert not passes_demand_windows(np.array([[1e9, 1e9]]), d).any()


def test_no_deadline_no_window() -> None:
    jobs = [
        {"id": "free", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1, "mem": 1}, "duration_s": 100}
    ]
    d = demand_density(parse_scenario({"vm_types": [VM], "jobs": jobs}))
    assert d.need == (0.0, 0.0) and passes_demand_windows(np.zeros((1, 2)), d).all()
    assert isinstance(DemandDensity(("cpu",), (1.0,), (None,)).to_dict(), dict)


job = st.fixed_dictionaries(
    {
        "arrival_s": st.integers(0, 300),
        "executors": st.integers(1, 3),
        "cpu": st.integers(1, 4),
        "duration_s": st.integers(10, 120),
        "slack": st.integers(0, 200),
    }
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(job, min_size=1, max_size=8),
    st.integers(1, 6),
    st.integers(0, 3),
    st.sampled_from(["edf-bfd", "fifo-consolidate", "edf-ilp"]),
)
def test_a_cluster_that_meets_every_deadline_passes_the_test(jobs, small, big, scheduler) -> None:
    # Soundness: the test prunes only clusters that miss a deadline under every scheduler.
    doc = {
        "resources": ["cpu"],
        "vm_types": [
            {"name": "s", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 6},
            {"name": "b", "capacity": {"cpu": 8}, "price_per_hour": 2.2, "count": 3},
        ],
        "jobs": [
            {
                "id": f"j{k}",
                "arrival_s": j["arrival_s"],
                "executors": j["executors"],
                "executor": {"cpu": j["cpu"]},
                "duration_s": j["duration_s"],
                "deadline_s": j["duration_s"] + j["slack"],
            }
            for k, j in enumerate(jobs)
        ],
    }
    scenario = parse_scenario(doc)
    counts = np.array([[small, big]])
    if not fits(scenario, counts)[0]:
        return
    result = simulate(cluster_scenario(scenario, counts[0]), scheduler=scheduler)
    capacity = counts @ np.array([[4.0], [8.0]])
    if result.deadline_missed == 0:
        assert passes_demand_windows(capacity, demand_density(scenario))[0]
