"""Network-bound jobs (notes §8): the stretch of a job spread over several VMs, in the simulation,
the result document, its readers, the reports' jobs table, the replay and the lower bound."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scheduling import compare, parse_scenario, simulate
from scheduling.cost.document import has_network_fields, iter_jobs, iter_vm_intervals, job_column, to_columnar
from scheduling.cost.job_table import network_stretch
from scheduling.cost.replay import replay_snapshot
from scheduling.cost.tables import JOB_COLUMNS, STRETCH_COLUMN, job_columns, job_rows
from scheduling.scenario import Scenario
from tests.scheduling.cost.simulation_checks import assert_valid_run
from tests.scheduling.cost.test_invariants import ALL, scenarios


def hand_scenario(sigma: float | None = 0.3, **framework: Any) -> dict[str, Any]:
    """One job of 4 one-cpu executors for 300 s, on a 4-cpu VM (price 1.5) and two 2-cpu VMs (1 each)."""
    job: dict[str, Any] = {"id": "pr", "framework": "pagerank", "arrival_s": 0, "executors": 4,
                           "executor": {"cpu": 1}, "duration_s": 300}
    if sigma is not None:
        job["network_sensitivity"] = sigma
    return {
        "resources": ["cpu"],
        "vm_types": [{"name": "big", "capacity": {"cpu": 4}, "price_per_hour": 1.5, "count": 1},
                     {"name": "small", "capacity": {"cpu": 2}, "price_per_hour": 1, "count": 2}],
        "frameworks": [{"name": "pagerank", **framework}],
        "jobs": [job],
    }


def test_the_stretch_is_one_plus_sigma_times_the_spread_of_the_executors() -> None:
    # 4 executors on 2 VMs with sigma 0.3: d * (1 + 0.3 * (2 - 1) / (4 - 1)) = 1.1 d.
    assert network_stretch(0.3, 4, 2) == pytest.approx(1.1)
    assert network_stretch(0.3, 4, 4) == pytest.approx(1.3)  # one VM per executor: 1 + sigma
    assert network_stretch(0.3, 4, 1) == 1.0  # all on one VM
    assert network_stretch(0.3, 1, 1) == 1.0  # one executor
    assert network_stretch(0.0, 4, 4) == 1.0  # not network-bound


def test_a_hand_worked_job_under_each_placement() -> None:
    # BFD turns on the smallest VMs first: both 2-cpu VMs, 2 executors each, so k = 2 and the job
    # lasts 300 x 1.1 = 330 s on two VMs at $1/h: 2 x 330 / 3600.
    # The exact placement takes the cheapest cover, the 4-cpu VM ($1.5/h < $2/h): k = 1, 300 s.
    # Round-robin deals the executors over all three VMs (2, 1, 1): k = 3, 300 x (1 + 0.3 x 2/3) = 360 s.
    results = compare(parse_scenario(hand_scenario()), schedulers=["edf-bfd", "edf-ilp", "fifo-spread"])
    bfd, ilp, spread = (results[s].to_dict() for s in ("edf-bfd", "edf-ilp", "fifo-spread"))
    assert job_column(bfd, "placement") == [{"small#1": 2, "small#2": 2}]
    assert job_column(bfd, "finish_s") == [pytest.approx(330.0)]
    assert job_column(bfd, "stretch") == [pytest.approx(1.1)]
    assert bfd["total_cost"] == pytest.approx(2 * 330 / 3600)
    assert job_column(ilp, "placement") == [{"big#1": 4}]
    assert job_column(ilp, "finish_s") == [300.0] and job_column(ilp, "stretch") == [1.0]
    assert ilp["total_cost"] == pytest.approx(1.5 * 300 / 3600)
    assert job_column(spread, "placement") == [{"big#1": 2, "small#1": 1, "small#2": 1}]
    assert job_column(spread, "finish_s") == [pytest.approx(360.0)]
    assert spread["total_cost"] == pytest.approx(3.5 * 360 / 3600)
    assert spread["mean_completion_s"] == pytest.approx(360.0)
    # The bound counts the unstretched work (4 cpu-hours x 300 s at $1.5/4 per cpu-hour): below all three.
    assert bfd["lower_bound_cost"] == pytest.approx(4 * 300 / 3600 * 1.5 / 4)
    assert all(d["lower_bound_cost"] <= d["total_cost"] for d in (bfd, ilp, spread))


def test_a_framework_s_sensitivity_applies_to_its_jobs_that_set_none() -> None:
    own = simulate(parse_scenario(hand_scenario(0.3)), scheduler="edf-bfd").to_dict()
    inherited = simulate(parse_scenario(hand_scenario(None, network_sensitivity=0.3)), scheduler="edf-bfd")
    assert job_column(inherited.to_dict(), "finish_s") == job_column(own, "finish_s")
    assert job_column(inherited.to_dict(), "network_sensitivity") == [0.3]
    # A job's own 0 wins: the job is not network-bound, and the document has no network columns.
    zero = simulate(parse_scenario(hand_scenario(0, network_sensitivity=0.3)), scheduler="edf-bfd").to_dict()
    assert job_column(zero, "finish_s") == [300.0] and not has_network_fields(zero)


def test_without_a_network_bound_job_the_document_is_the_one_it_always_was() -> None:
    plain = parse_scenario(hand_scenario(None))
    zero = parse_scenario(hand_scenario(0))
    for scheduler in ALL:
        a, b = simulate(plain, scheduler=scheduler).to_dict(), simulate(zero, scheduler=scheduler).to_dict()
        for doc in (a, b):
            del doc["scheduling_delay"]  # wall-clock
        assert a == b
        assert "stretch" not in a["jobs"] and "network_sensitivity" not in a["jobs"]
        assert job_column(a, "stretch") == [1.0] and job_column(a, "network_sensitivity") == [0.0]
        assert "stretch" not in next(iter_jobs(a))


def test_the_readers_show_each_job_s_stretch() -> None:
    doc = simulate(parse_scenario(hand_scenario()), scheduler="fifo-spread").to_dict()
    job = next(iter_jobs(doc))
    assert job["stretch"] == pytest.approx(1.2) and job["network_sensitivity"] == 0.3
    # A document of the older layout (a dict per job) converts with its network columns.
    old = {**doc, "jobs": list(iter_jobs(doc)), "vm_intervals": list(iter_vm_intervals(doc))}
    del old["format"], old["machines"]
    assert to_columnar(old)["jobs"]["stretch"] == doc["jobs"]["stretch"]
    assert job_column(old, "stretch") == job_column(doc, "stretch")
    # The reports' jobs table gains a column, only then.
    assert job_columns({"fifo-spread": doc}) == (*JOB_COLUMNS, STRETCH_COLUMN)
    assert job_rows({"fifo-spread": doc})[0]["stretch"] == pytest.approx(1.2)
    plain = simulate(parse_scenario(hand_scenario(None)), scheduler="fifo-spread").to_dict()
    assert job_columns({"fifo-spread": plain}) == JOB_COLUMNS and "stretch" not in job_rows({"x": plain})[0]
    mixed = job_rows({"plain": plain, "network": doc})
    assert [r["stretch"] for r in mixed] == [1.0, pytest.approx(1.2)]


def test_the_replay_lists_the_stretch_of_each_running_executor() -> None:
    doc = simulate(parse_scenario(hand_scenario()), scheduler="fifo-spread").to_dict()
    snapshot = replay_snapshot(doc, 350)  # past the unstretched end (300 s), before the real one (360 s)
    entries = [e for vm in snapshot["vms"] for e in vm["executors"]]
    assert [(e["job"], e["count"], e["stretch"], e["job_vms"]) for e in entries] == [
        ("pr", 2, pytest.approx(1.2), 3), ("pr", 1, pytest.approx(1.2), 3), ("pr", 1, pytest.approx(1.2), 3)]
    assert snapshot["jobs"]["running"] == 1 and replay_snapshot(doc, 360)["jobs"]["finished"] == 1
    plain = simulate(parse_scenario(hand_scenario(None)), scheduler="fifo-spread").to_dict()
    assert "stretch" not in replay_snapshot(plain, 100)["vms"][0]["executors"][0]


def with_sensitivities(scenario: Scenario, sigmas: list[float | None]) -> Scenario:
    doc = copy.deepcopy(scenario.to_dict())
    for job, sigma in zip(doc["jobs"], sigmas, strict=False):
        if sigma is not None:
            job["network_sensitivity"] = sigma
    doc["version"] = 3
    return parse_scenario(doc)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenarios(), st.lists(st.one_of(st.none(), st.sampled_from([0.0, 0.25, 1.0, 3.0])), max_size=12))
def test_every_scheduler_stays_valid_with_network_bound_jobs(
    scenario: Scenario, sigmas: list[float | None]
) -> None:
    """Capacity, the bill, the lower bound, and every job's run time its stretched duration
    (simulation_checks.assert_valid_run recomputes the stretch from the placement)."""
    network = with_sensitivities(scenario, sigmas)
    for name, result in compare(network, schedulers=ALL).items():
        assert_valid_run(network, result.to_dict(), name)
