"""The per-candidate lower bound: hand-worked, below every simulated cost that meets the target,
and no lower for a smaller cluster."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduling import parse_scenario, simulate
from scheduling.cost.cheapest.candidate_bounds import CandidateBounds
from scheduling.cost.cheapest.search import Target
from scheduling.cost.cheapest.space import cluster_scenario, fits

# cheap: 4 cpu at $1/h; dear: 4 cpu at $3/h.
TYPES = [
    {"name": "cheap", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 4},
    {"name": "dear", "capacity": {"cpu": 4}, "price_per_hour": 3.0, "count": 4},
]


def test_hand_worked_bound() -> None:
    # Two deadline jobs, 8 cpu-hours each, both due within the same 2-hour horizon [0, 7200]:
    # W_in = 16 cpu-h. The global bound: 16 / 4 cheap VM-hours = $4.
    # With n cheap VMs the horizon gives at most 2n cheap VM-hours (8n cpu-h), the rest dear:
    #   n = 2: 16 cpu-h of cheap: $4;  n = 1: 8 cpu-h cheap ($2) + 8 cpu-h dear (2 VM-h, $6) = $8;
    #   n = 0, 1 dear: 8 cpu-h at most < 16: inf;  n = 0, 2 dear: 4 VM-h dear = $12.
    # One miss allowed (k = 1): the largest job's 8 cpu-h may run late: W_in = 8 cpu-h, so
    #   n = 1: $2 (but never below the global bound, $4); n = 0, 1 dear: 2 VM-h = $6.
    jobs = [
        {
            "id": k,
            "arrival_s": 0,
            "executors": 2,
            "executor": {"cpu": 2},
            "duration_s": 7200,
            "deadline_s": 7200,
        }
        for k in ("a", "b")
    ]
    scenario = parse_scenario({"resources": ["cpu"], "vm_types": TYPES, "jobs": jobs})
    none_missed = CandidateBounds(scenario, max_missed=0)
    assert none_missed.global_bound == pytest.approx(4.0) and none_missed.horizon_s == 7200
    got = none_missed.bounds(np.array([[2, 0], [1, 4], [0, 1], [0, 2]]))
    assert got[:2] == pytest.approx([4.0, 8.0]) and math.isinf(got[2]) and got[3] == pytest.approx(12.0)
    one_missed = CandidateBounds(scenario, max_missed=1)
    assert one_missed.bounds(np.array([[1, 0], [0, 1]])) == pytest.approx([4.0, 6.0])
    assert CandidateBounds(scenario, max_missed=2).bounds(np.array([[0, 0]])) == pytest.approx([4.0])


def test_hand_worked_bound_with_reserved_and_spot_prices() -> None:
    # One type, 4 cpu, on demand $1/h; its first 2 machines reserved at $0.5/h (billed for the
    # whole horizon, used or not), the next one spot at $0.25/h. One job: 8 cpu for one hour, due
    # within it: W = W_in = 8 cpu-h, H_min = 1 h.
    #   n = 4: 2 reserved + 1 spot + 1 on demand. Whole term (bounds.py): R = 2 x $0.5, H >= 1:
    #          $1 of reservations, whose 2 VM-hours cover all 8 cpu-h: $1.
    #   n = 2: 2 reserved: $1, the 8 cpu-h on them.
    #   n = 1: 1 reserved and nothing else: 4 cpu-h in the hour at most: inf.
    # Over every shape, each type at its cheapest market ($0.25/h spot): 2 VM-h = $0.50.
    doc = {
        "resources": ["cpu"],
        "vm_types": [
            {
                "name": "v",
                "capacity": {"cpu": 4},
                "price_per_hour": 1.0,
                "count": 4,
                "reserved": {"price_per_hour": 0.5, "count": 2},
                "spot": {"price_per_hour": 0.25, "count": 1},
            },
        ],
        "jobs": [
            {
                "id": "a",
                "arrival_s": 0,
                "executors": 2,
                "executor": {"cpu": 4},
                "duration_s": 3600,
                "deadline_s": 3600,
            }
        ],
    }
    bounds = CandidateBounds(parse_scenario(doc), max_missed=0)
    assert bounds.global_bound == pytest.approx(0.5)
    got = bounds.bounds(np.array([[4], [2], [1]]))
    assert got[:2] == pytest.approx([1.0, 1.0]) and math.isinf(got[2])
    # One machine reserved: a candidate of 3 pays $0.5 of reservation (1 VM-h, 4 cpu-h), then the
    # spot machine ($0.25/h) for the other 4 cpu-h: $0.75.
    doc["vm_types"][0]["reserved"]["count"] = 1
    assert CandidateBounds(parse_scenario(doc), max_missed=0).bounds(np.array([[3]])) == pytest.approx([0.75])


job = st.fixed_dictionaries(
    {
        "arrival_s": st.integers(0, 3600),
        "executors": st.integers(1, 3),
        "cpu": st.integers(1, 4),
        "mem": st.integers(1, 12),
        "duration_s": st.integers(60, 3600),
        "slack": st.one_of(st.none(), st.integers(0, 3600)),
    }
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(job, min_size=1, max_size=8),
    st.lists(st.integers(0, 4), min_size=3, max_size=3),
    st.sampled_from([0.0, 20.0, 50.0]),
    st.sampled_from(["edf-bfd", "edf-ilp", "fifo-spread"]),
    st.sampled_from([None, (0.15, 2, None, None), (None, None, 0.1, 2), (0.3, 1, 0.05, None)]),
)
def test_no_simulation_that_meets_the_target_costs_less_than_its_bound(
    jobs, counts, pct, scheduler, markets
) -> None:
    # ``markets``: the first type's reserved price and count, spot price and count (None: none).
    doc = {
        "vm_types": [
            {"name": "s", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 6},
            {"name": "c", "capacity": {"cpu": 8, "mem": 16}, "price_per_hour": 0.40, "count": 6},
            {"name": "m", "capacity": {"cpu": 4, "mem": 32}, "price_per_hour": 0.35, "count": 6},
        ],
        "jobs": [
            {
                "id": f"j{k}",
                "arrival_s": j["arrival_s"],
                "executors": j["executors"],
                "executor": {"cpu": j["cpu"], "mem": j["mem"]},
                "duration_s": j["duration_s"],
                **({} if j["slack"] is None else {"deadline_s": j["duration_s"] + j["slack"]}),
            }
            for k, j in enumerate(jobs)
        ],
    }
    if markets is not None:
        reserved_price, reserved_count, spot_price, spot_count = markets
        if reserved_price is not None:
            doc["vm_types"][0]["reserved"] = {"price_per_hour": reserved_price, "count": reserved_count}
        if spot_price is not None:
            doc["vm_types"][0]["spot"] = {
                "price_per_hour": spot_price,
                **({"count": spot_count} if spot_count else {}),
            }
    scenario = parse_scenario(doc)
    n = np.array([counts])
    if not fits(scenario, n)[0]:
        return
    target = Target(max_miss_pct=pct)
    deadline_jobs = sum(1 for j in scenario.jobs if j.deadline_s is not None)
    bounds = CandidateBounds(scenario, max_missed=target.max_missed(deadline_jobs))
    bound = float(bounds.bounds(n)[0])
    # Monotone: a cluster with fewer VMs of one type never has a lower bound (unless it has fewer
    # reservations to pay for).
    for t in range(3 if markets is None or markets[0] is None else 0):
        if counts[t]:
            smaller = n.copy()
            smaller[0, t] -= 1
            assert bounds.bounds(smaller)[0] >= bound - 1e-12
    result = simulate(cluster_scenario(scenario, counts), scheduler=scheduler)
    p95 = result.to_dict()["p95_completion_s"]
    if target.met(result.deadline_missed, result.deadline_jobs, result.mean_completion_s, p95):
        assert result.total_cost >= bound - 1e-9
    assert result.total_cost >= bounds.global_bound - 1e-9
