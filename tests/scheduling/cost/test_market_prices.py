"""Reserved and spot prices (scenario version 4, issue 18): billing by market, placement at
marginal prices, spot interruptions and the cost split of the result document."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from scheduling import compare, parse_scenario, simulate
from scheduling.cost.cluster import Cluster, PlacementContext
from scheduling.cost.document import iter_vm_intervals, machine_prices, vm_interval_column
from scheduling.cost.placement import place_bfd, place_ilp
from scheduling.errors import ScenarioError
from scheduling.scenario import LIMITS

SCHEDULERS = ["edf-bfd", "edf-ilp", "fifo-spread", "fifo-consolidate", "morpheus"]


def job(job_id: str, *, framework: str | None = None, arrival: float = 0, executors: int = 1,
        cpu: float = 4, duration: float = 1800) -> dict[str, Any]:
    out: dict[str, Any] = {"id": job_id, "arrival_s": arrival, "executors": executors,
                           "executor": {"cpu": cpu}, "duration_s": duration}
    if framework is not None:
        out["framework"] = framework
    return out


def two_reserved_scenario() -> dict[str, Any]:
    """Two reserved VMs ($0.60/h reserved, $1.00/h on demand) and one on-demand VM of another
    type; job A (30 min) may use only the reserved type, job B (2 h) only the other."""
    return {
        "version": 4,
        "resources": ["cpu"],
        "vm_types": [
            {"name": "r", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 2,
             "reserved": {"price_per_hour": 0.6, "count": 2}},
            {"name": "od", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 1},
        ],
        "frameworks": [{"name": "a", "allowed_vm_types": ["r"]}, {"name": "b", "allowed_vm_types": ["od"]}],
        "jobs": [job("A", framework="a", duration=1800), job("B", framework="b", duration=7200)],
    }


# --------------------------------------------------------------------------- the hand-worked split


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_two_reserved_vms_over_a_two_hour_horizon_one_used_half_an_hour(scheduler: str) -> None:
    # The horizon ends when the last job (B) finishes: 2 h. Both reserved VMs are billed for
    # it whether used or not: 2 x $0.60 x 2 h = $2.40. r#1 runs A for 30 min, so it is idle
    # 1.5 h ($0.90) and r#2 the whole 2 h ($1.20): reserved idle cost $2.10. B runs 2 h on
    # demand: $2.00. Total $4.40; no spot VM.
    doc = simulate(parse_scenario(two_reserved_scenario()), scheduler=scheduler).to_dict()
    assert doc["horizon_s"] == 7200.0
    assert doc["cost_by_market"] == pytest.approx({"reserved": 2.4, "on_demand": 2.0, "spot": 0.0})
    assert doc["reserved_idle_cost"] == pytest.approx(2.1)
    assert doc["total_cost"] == pytest.approx(4.4)
    assert doc["cost_by_vm_type"] == pytest.approx({"r": 2.4, "od": 2.0})
    assert doc["vm_hours_by_type"] == pytest.approx({"r": 4.0, "od": 2.0})  # billed VM-hours
    # Reserved VMs accrue from 0 ($1.20/h), B's VM for 2 h ($1.00/h): $2.20 in each hour.
    assert doc["cost_by_hour"] == pytest.approx([2.2, 2.2])
    assert doc["timeline"]["cumulative_cost"][-1] == pytest.approx(4.4)
    assert doc["timeline"]["cost_rate_per_hour"][0] == pytest.approx(2.2)
    # Each job pays its share of its VM at the VM's rate in its market; the rest is unused.
    assert doc["cost_by_framework"] == pytest.approx({"a": 0.3, "b": 2.0, "(unused capacity)": 2.1})
    assert doc["machines"]["market"] == ["reserved", "reserved", "on_demand"]
    # A reserved VM's on-interval costs nothing beyond its reservation.
    assert machine_prices(doc) == [0.0, 0.0, 1.0]
    costs = {iv["vm"]: iv["cost"] for iv in iter_vm_intervals(doc)}
    assert costs == pytest.approx({"r#1": 0.0, "od#1": 2.0})
    assert vm_interval_column(doc, "interrupted") == [False, False]
    assert doc["spot_interruptions"]["interruptions"] == 0
    assert doc["total_cost"] >= doc["lower_bound_cost"] - 1e-9


def test_scenarios_without_market_prices_keep_their_result_layout() -> None:
    scenario = two_reserved_scenario()
    del scenario["vm_types"][0]["reserved"]
    scenario["version"] = 1
    doc = simulate(parse_scenario(scenario), scheduler="edf-bfd").to_dict()
    for key in ("horizon_s", "cost_by_market", "reserved_idle_cost", "spot_interruptions"):
        assert key not in doc
    assert "market" not in doc["machines"] and "interrupted" not in doc["vm_intervals"]
    assert "lost_executors" not in doc["jobs"]


# --------------------------------------------------------------------------- placement at marginal prices


def market_cluster() -> Cluster:
    # Type "m": m#1 reserved, m#2-m#3 spot ($0.30), m#4 on demand ($1.00); 4 cpu each.
    return Cluster(parse_scenario({
        "resources": ["cpu"],
        "vm_types": [{"name": "m", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 4,
                      "reserved": {"price_per_hour": 0.6, "count": 1},
                      "spot": {"price_per_hour": 0.3, "count": 2}}],
        "jobs": [job("j")],
    }))


def test_pools_and_marginal_prices() -> None:
    cluster = market_cluster()
    assert cluster.market == ["reserved", "spot", "spot", "on_demand"]
    assert cluster.price.tolist() == [0.0, 0.3, 0.3, 1.0]  # what turning each on adds per hour
    assert cluster.rate.tolist() == [0.6, 0.3, 0.3, 1.0]  # what each costs an hour in its market
    assert cluster.pool_market == ["reserved", "spot", "on_demand"]
    assert cluster.new_vm_pool_order(np.ones(1)) == [0, 1, 2]


@pytest.mark.parametrize("place", [place_bfd, place_ilp])
def test_reserved_capacity_first_then_the_cheaper_of_spot_and_on_demand(place: Any) -> None:
    cluster = market_cluster()
    ctx = PlacementContext(rut=np.ones(1))
    every = np.ones(1, dtype=bool)
    assert place(cluster, np.array([4.0]), 1, every, ctx) == {0: 1}  # the reserved VM
    assert place(cluster, np.array([4.0]), 3, every, ctx) == {0: 1, 1: 1, 2: 1}  # then spot
    assert place(cluster, np.array([4.0]), 4, every, ctx) == {0: 1, 1: 1, 2: 1, 3: 1}


def test_bfd_prefers_on_demand_when_it_is_cheaper_than_spot() -> None:
    cluster = Cluster(parse_scenario({
        "resources": ["cpu"],
        "vm_types": [{"name": "m", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 3,
                      "spot": {"price_per_hour": 1.5, "count": 2}}],
        "jobs": [job("j")],
    }))
    assert cluster.market == ["spot", "spot", "on_demand"]
    ctx = PlacementContext(rut=np.ones(1))
    assert place_bfd(cluster, np.array([4.0]), 1, np.ones(1, bool), ctx) == {2: 1}
    assert place_ilp(cluster, np.array([4.0]), 1, np.ones(1, bool), ctx) == {2: 1}


def test_the_ilp_prefers_a_free_reserved_vm_to_a_smaller_paid_one() -> None:
    # One executor of 2 cpu: BFD's "smallest VM" is a paid small VM, but a big reserved VM costs
    # nothing more; BFD still takes reserved capacity first (its pools' order), and so does the ILP.
    cluster = Cluster(parse_scenario({
        "resources": ["cpu"],
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 2}, "price_per_hour": 0.5, "count": 2},
            {"name": "big", "capacity": {"cpu": 8}, "price_per_hour": 2.0, "count": 1,
             "reserved": {"price_per_hour": 1.2, "count": 1}},
        ],
        "jobs": [job("j", cpu=2)],
    }))
    ctx = PlacementContext(rut=np.ones(1))
    every = np.ones(2, bool)
    assert place_ilp(cluster, np.array([2.0]), 1, every, ctx) == {2: 1}
    assert place_bfd(cluster, np.array([2.0]), 1, every, ctx) == {2: 1}


# --------------------------------------------------------------------------- spot interruptions


def spot_only(rate: float, duration: float, seed: int = 0) -> tuple[dict[str, Any], list[float]]:
    """One spot VM, one job; and the machine's first interruption instants drawn by hand."""
    doc = {
        "version": 4,
        "resources": ["cpu"],
        "vm_types": [{"name": "s", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 1,
                      "spot": {"price_per_hour": 0.25, "interruptions_per_hour": rate}}],
        "jobs": [job("a", executors=2, cpu=2, duration=duration)],
    }
    rng = np.random.default_rng([seed, 0])  # the run's seed and the machine's index
    instants, t = [], 0.0
    for _ in range(200):
        t += float(rng.exponential(3600.0 / rate))
        instants.append(t)
    return doc, instants


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_reclaimed_spot_vm_loses_its_executors_which_start_again(seed: int) -> None:
    # Rate 2 per hour, a 30-minute job of two executors on the only (spot) VM. Each reclaim at
    # instant T_k loses both executors' work since their start (T_{k-1}, or 0), they are placed
    # again at once on the slot's new spot VM, and the job finishes 30 min after the first start
    # not followed by an instant within 30 min.
    doc, instants = spot_only(2.0, 1800.0, seed)
    start, reclaims = 0.0, []
    for t in instants:
        if t - start >= 1800.0:
            break
        reclaims.append(t)
        start = t
    finish = start + 1800.0
    result = simulate(parse_scenario(doc), scheduler="edf-bfd", seed=seed).to_dict()
    losses = result["spot_interruptions"]
    assert losses["interruptions"] == len(reclaims)
    assert losses["lost_executors"] == losses["replaced_executors"] == 2 * len(reclaims)
    assert losses["lost_executor_s"] == pytest.approx(2 * (reclaims[-1] if reclaims else 0.0))
    assert losses["lost_resource_s"]["cpu"] == pytest.approx(2 * 2 * (reclaims[-1] if reclaims else 0.0))
    assert result["jobs"]["finish_s"] == [pytest.approx(finish)]
    assert result["jobs"]["lost_executors"] == [2 * len(reclaims)]
    assert result["vm_intervals"]["interrupted"] == [True] * len(reclaims) + [False]
    # Billed per second while on, at the spot price, interrupted intervals included.
    assert result["total_cost"] == pytest.approx(0.25 * finish / 3600.0)
    assert result["cost_by_market"]["spot"] == pytest.approx(result["total_cost"])
    assert result["total_cost"] >= result["lower_bound_cost"] - 1e-9


def test_some_seed_reclaims_and_the_seed_decides() -> None:
    doc, _ = spot_only(2.0, 1800.0)
    scenario = parse_scenario(doc)
    runs = {seed: simulate(scenario, scheduler="edf-bfd", seed=seed).to_dict() for seed in range(4)}
    assert any(r["spot_interruptions"]["interruptions"] for r in runs.values())
    again = simulate(parse_scenario(doc), scheduler="edf-bfd", seed=1).to_dict()
    assert again["jobs"] == runs[1]["jobs"] and again["vm_intervals"] == runs[1]["vm_intervals"]


def test_without_a_rate_spot_vms_are_never_reclaimed() -> None:
    doc, _ = spot_only(1.0, 1800.0)
    del doc["vm_types"][0]["spot"]["interruptions_per_hour"]
    result = simulate(parse_scenario(doc), scheduler="edf-bfd").to_dict()
    assert result["spot_interruptions"]["interruptions"] == 0
    assert "lost_executors" not in result["jobs"]


def test_endless_interruptions_stop_the_run_with_the_field_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LIMITS, "interruptions", 5)
    doc, _ = spot_only(3600.0, 36000.0)  # once a second, for a ten-hour job: it never finishes
    with pytest.raises(ScenarioError) as info:
        simulate(parse_scenario(doc), scheduler="edf-bfd")
    assert info.value.errors[0].path == "vm_types[0].spot.interruptions_per_hour"


def test_interruptions_with_co_located_jobs_and_several_vms() -> None:
    doc = {
        "version": 4,
        "resources": ["cpu"],
        "vm_types": [{"name": "s", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 4,
                      "spot": {"price_per_hour": 0.3, "count": 3, "interruptions_per_hour": 1.5}}],
        "jobs": [job(f"j{k}", arrival=600 * k, executors=1 + k % 3, cpu=1 + k % 2, duration=1500 + 300 * k)
                 for k in range(12)],
    }
    scenario = parse_scenario(doc)
    for name, result in compare(scenario, schedulers=SCHEDULERS, seed=5).items():
        d = result.to_dict()
        losses = d["spot_interruptions"]
        lost = sum(d["jobs"]["lost_executors"])
        assert losses["lost_executors"] == losses["replaced_executors"] == lost, name
        assert d["total_cost"] == pytest.approx(sum(d["cost_by_market"].values())), name
        assert d["timeline"]["cumulative_cost"][-1] == pytest.approx(d["total_cost"]), name
        assert d["total_cost"] >= d["lower_bound_cost"] - 1e-9, name
        durations = [j["duration_s"] for j in doc["jobs"]]
        columns = zip(d["jobs"]["finish_s"], d["jobs"]["arrival_s"], durations, strict=True)
        assert all(f >= a + dur - 1e-9 for f, a, dur in columns)


def test_the_replay_counts_reservations_and_marginal_prices() -> None:
    from scheduling.cost.replay import ReplayIndex

    doc = simulate(parse_scenario(two_reserved_scenario()), scheduler="edf-bfd").to_dict()
    index = ReplayIndex(doc)
    for t in (0.0, 900.0, 3600.0, 7200.0):
        cost = index.snapshot(t)["cost"]
        # $1.20/h of reservations all along, $1.00/h for B's on-demand VM, nothing more for A's.
        assert cost["rate_per_hour"] == pytest.approx(2.2 if t < 7200 else 1.2)
        assert cost["so_far"] == pytest.approx(2.2 * t / 3600.0)
