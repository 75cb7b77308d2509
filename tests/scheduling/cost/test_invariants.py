"""Invariants that hold for every scheduler on every valid scenario (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scheduling import ScenarioError, compare, parse_scenario
from scheduling.scenario import Scenario
from tests.scheduling.cost.simulation_checks import assert_edf_order, assert_fifo_order, assert_valid_run

ALL = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp", "morpheus-spread", "fifo-ilp"]


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    n_types = draw(st.integers(1, 3))
    vm_types = [
        {
            "name": f"t{k}",
            "capacity": {"cpu": draw(st.integers(1, 12)), "mem": draw(st.integers(1, 48))},
            "price_per_hour": draw(st.sampled_from([0.1, 0.24, 0.5, 0.72, 1.0, 3.6])),
            "count": draw(st.integers(1, 4)),
        }
        for k in range(n_types)
    ]
    frameworks = [{"name": "a", "weight": 2}, {"name": "b", "allowed_vm_types": ["t0"]}]
    jobs = []
    for i in range(draw(st.integers(1, 12))):
        job = {
            "id": f"j{i}",
            "framework": draw(st.sampled_from(["a", "b"])),
            "arrival_s": draw(st.integers(0, 200)),
            "executors": draw(st.integers(1, 4)),
            "executor": {"cpu": draw(st.integers(1, 4)), "mem": draw(st.integers(0, 8))},
            "duration_s": draw(st.integers(1, 300)),
        }
        if draw(st.booleans()):
            job["deadline_s"] = draw(st.integers(1, 600))
        jobs.append(job)
    options = draw(
        st.sampled_from(
            [
                {},
                {"billing_granularity_s": 60},
                {"min_billed_s": 120, "boot_time_s": 15},
                {"scheduling_interval_s": 10},
            ]
        )
    )
    doc = {"vm_types": vm_types, "frameworks": frameworks, "jobs": jobs, "options": options}
    try:
        return parse_scenario(doc)
    except ScenarioError:
        assume(False)  # a job that can never fit: validation rejects it (tested elsewhere)
        raise


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(scenarios())
def test_invariants(scenario: Scenario) -> None:
    results = compare(scenario, schedulers=ALL)
    for name, result in results.items():
        assert_valid_run(scenario, result.to_dict(), name)
    for name in ("fifo-spread", "fifo-consolidate", "fifo-ilp"):
        assert_fifo_order(scenario, results[name].to_dict(), name)
    for name in ("edf-bfd", "edf-ilp"):
        assert_edf_order(scenario, results[name].to_dict(), name)
