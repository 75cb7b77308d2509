"""The lower bound with reserved and spot prices (scenario version 4): hand-worked, and never above
any scheduler's cost on random small scenarios (hypothesis, a fixed seed)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scheduling import compare, lower_bound_cost, parse_scenario

SCHEDULERS = ["edf-bfd", "edf-ilp", "fifo-spread", "fifo-consolidate", "morpheus"]


def test_reserved_capacity_is_free_but_its_horizon_is_paid() -> None:
    # One type, 4 cpu, $1.00 on demand; 2 reserved at $0.70. One job: 3 executors of 4 cpu for
    # 2 h, W = 24 cpu-h = 6 VM-hours. H >= 2 h. LP: 2 x 0.70 x H + (6 - 2H)^+ on demand; at
    # H = 2 that is 2.80 + 2.00 = 4.80, at H = 3 (all reserved) 4.20: the bound is 4.20, and the
    # real schedule (3 VMs for 2 h: 2 reserved, 1 on demand) costs 2.80 + 2.00 = 4.80.
    doc = {"version": 4, "resources": ["cpu"],
           "vm_types": [{"name": "m", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 3,
                         "reserved": {"price_per_hour": 0.7, "count": 2}}],
           "jobs": [{"id": "a", "arrival_s": 0, "executors": 3, "executor": {"cpu": 4}, "duration_s": 7200}]}
    scenario = parse_scenario(doc)
    assert lower_bound_cost(scenario) == pytest.approx(4.2)
    for name, result in compare(scenario, schedulers=SCHEDULERS).items():
        assert result.total_cost == pytest.approx(4.8), name


def test_spot_hours_are_priced_at_the_spot_price() -> None:
    # 8 cpu-h of work; spot $0.25 (4 cpu) beats on demand $1.00: 2 VM-hours x $0.25.
    doc = {"version": 4, "resources": ["cpu"],
           "vm_types": [{"name": "m", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 2,
                         "spot": {"price_per_hour": 0.25, "count": 1}}],
           "jobs": [{"id": "a", "arrival_s": 0, "executors": 2, "executor": {"cpu": 4}, "duration_s": 3600}]}
    assert lower_bound_cost(parse_scenario(doc)) == pytest.approx(0.5)


@st.composite
def market_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    vm_types = []
    for t in range(draw(st.integers(1, 3))):
        count = draw(st.integers(1, 3))
        vt: dict[str, Any] = {
            "name": f"t{t}",
            # The first type holds any job whole (3 executors of 2 cpu and 4 GB at most).
            "capacity": {"cpu": 8, "mem": 16} if t == 0 else
                        {"cpu": draw(st.sampled_from([2, 4, 8])), "mem": draw(st.sampled_from([4, 8, 16]))},
            "price_per_hour": draw(st.sampled_from([0.2, 0.5, 1.0, 2.0])),
            "count": count,
        }
        reserved = draw(st.integers(0, count))
        if reserved:
            price = draw(st.sampled_from([0.0, 0.1, 0.4, 1.5]))
            vt["reserved"] = {"price_per_hour": price, "count": reserved}
        if draw(st.booleans()):
            vt["spot"] = {"price_per_hour": draw(st.sampled_from([0.05, 0.3, 1.2])),
                          "interruptions_per_hour": draw(st.sampled_from([0.0, 0.5, 3.0]))}
        vm_types.append(vt)
    jobs = [
        {"id": f"j{k}", "arrival_s": draw(st.integers(0, 7200)), "executors": draw(st.integers(1, 3)),
         "executor": {"cpu": draw(st.sampled_from([1, 2])), "mem": draw(st.sampled_from([1, 2, 4]))},
         "duration_s": draw(st.integers(60, 5400))}
        for k in range(draw(st.integers(1, 6)))
    ]
    return {"version": 4, "vm_types": vm_types, "jobs": jobs,
            "options": {"billing_granularity_s": draw(st.sampled_from([0, 60, 3600])),
                        "boot_time_s": draw(st.sampled_from([0, 30]))}}


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(market_scenarios(), st.integers(0, 3))
def test_no_scheduler_beats_the_bound_with_reserved_and_spot_prices(doc: dict[str, Any], seed: int) -> None:
    scenario = parse_scenario(doc)
    bound = lower_bound_cost(scenario)
    for name, result in compare(scenario, schedulers=SCHEDULERS, seed=seed, lower_bound=bound).items():
        assert result.total_cost >= bound - 1e-9 * max(1.0, bound), name
        split = result.to_dict().get("cost_by_market")  # with reserved or spot prices only
        assert split is None or sum(split.values()) == pytest.approx(result.total_cost), name
