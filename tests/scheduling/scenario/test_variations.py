"""Scenario variations (the what-if panel's and the sweeps'): load, prices and counts, seeded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scheduling import ScenarioError, parse_scenario
from scheduling.scenario.variations import scaled_durations, variation_text, vary, vary_apart

ROOT = Path(__file__).resolve().parents[3]
LIGHT = json.loads((ROOT / "examples" / "paper003-light.json").read_text())


def test_more_jobs_are_valid_new_ids_near_their_originals_and_seeded() -> None:
    doubled = vary(LIGHT, load=2.0, seed=3)
    jobs = doubled["jobs"]
    assert len(jobs) == 2 * len(LIGHT["jobs"])
    ids = [j["id"] for j in jobs]
    assert len(set(ids)) == len(ids)
    scenario = parse_scenario(doubled)  # still a valid scenario: same VM types, more jobs
    assert len(scenario.jobs) == 2000
    original = {j["id"]: j for j in LIGHT["jobs"]}
    gap = (LIGHT["jobs"][-1]["arrival_s"] - LIGHT["jobs"][0]["arrival_s"]) / (len(LIGHT["jobs"]) - 1)
    for job in jobs:
        if "~" in job["id"]:
            base = original[job["id"].split("~")[0]]
            assert base["arrival_s"] <= job["arrival_s"] <= base["arrival_s"] + gap
            assert job["deadline_s"] == base.get("deadline_s") and job["executor"] == base["executor"]
    assert vary(LIGHT, load=2.0, seed=3) == doubled and vary(LIGHT, load=2.0, seed=4) != doubled
    assert LIGHT["jobs"][0]["id"] == "job-0" and len(LIGHT["jobs"]) == 1000  # the input is not changed


@pytest.mark.parametrize("factor", [0.5, 1.5, 2.25])
def test_a_fractional_load_keeps_about_that_share_of_jobs(factor: float) -> None:
    n = len(vary(LIGHT, load=factor, seed=0)["jobs"])
    assert abs(n - factor * 1000) < 5 * (1000 * 0.25) ** 0.5  # five binomial standard deviations


def test_a_tiny_load_keeps_one_job_and_longer_jobs_keep_their_deadlines() -> None:
    assert len(vary(LIGHT, load=1e-6, seed=0)["jobs"]) == 1
    longer = vary(LIGHT, load=2.0, load_mode="sizes")
    assert [j["duration_s"] for j in longer["jobs"][:2]] == [2 * j["duration_s"] for j in LIGHT["jobs"][:2]]
    assert [j["deadline_s"] for j in longer["jobs"][:2]] == [j["deadline_s"] for j in LIGHT["jobs"][:2]]


def test_prices_and_counts_of_named_vm_types_and_errors_at_their_paths() -> None:
    varied = vary(LIGHT, price_factors={"m1.large": 0.4}, counts={"m2.xlarge": 0})
    types = {t["name"]: t for t in varied["vm_types"]}
    assert types["m1.large"]["price_per_hour"] == pytest.approx(0.096) and types["m2.xlarge"]["count"] == 0
    with pytest.raises(ScenarioError) as err:
        vary(LIGHT, load=0, price_factors={"m9": 2}, counts={"m1.large": -1})
    assert {e.path for e in err.value.errors} == {"load", "price_factors.m9", "counts.m1.large"}
    with pytest.raises(ScenarioError, match="the most is 1,000,000"):
        vary({**LIGHT, "jobs": LIGHT["jobs"] * 20}, load=100.0)


def test_a_variation_in_words() -> None:
    assert variation_text({"load": 1.0}) == "no change"
    assert variation_text({"load": 0.5, "load_mode": "sizes", "price_factors": {"m1.large": 0.4}}) == (
        "load x0.5 (longer jobs); m1.large price x0.4"
    )


def test_spot_and_reserved_prices_and_counts_per_vm_type() -> None:
    varied = vary(LIGHT, spot_discounts={"m1.large": 0.7}, spot_interruptions={"m1.large": 0.5},
                  reserved_counts={"m1.xlarge": 2}, reserved_discounts={"m1.xlarge": 0.4})
    assert varied["version"] == 4 and LIGHT["version"] == 1  # the input is not changed
    large, xlarge, m2 = varied["vm_types"]
    assert large["spot"] == {"price_per_hour": pytest.approx(0.072), "interruptions_per_hour": 0.5}
    assert xlarge["reserved"] == {"price_per_hour": pytest.approx(0.288), "count": 2}
    assert "spot" not in m2 and "reserved" not in m2
    scenario = parse_scenario(varied)
    assert scenario.vm_types[0].market_counts() == {"reserved": 0, "spot": 6, "on_demand": 0}
    assert scenario.vm_types[1].market_counts() == {"reserved": 2, "spot": 0, "on_demand": 3}
    # Price factors scale every market's price; fewer VMs trim the reserved ones to them.
    again = vary(varied, price_factors={"m1.xlarge": 0.5}, counts={"m1.xlarge": 1}, reserved_counts={})
    assert again["vm_types"][1]["reserved"] == {"price_per_hour": pytest.approx(0.144), "count": 1}
    assert again["vm_types"][1]["price_per_hour"] == pytest.approx(0.24)
    # 0 takes spot, or the reservation, away.
    plain = vary(varied, spot_discounts={"m1.large": 0}, reserved_counts={"m1.xlarge": 0})
    assert all("spot" not in t and "reserved" not in t for t in plain["vm_types"])
    assert variation_text({"spot_discounts": {"m1.large": 0.7}, "reserved_counts": {"m1.xlarge": 2},
                           "reserved_discounts": {"m1.xlarge": 0.4}}) == (
        "m1.large spot 70% off; m1.xlarge: 2 reserved VMs; m1.xlarge reserved 40% off")


def test_a_reserved_count_needs_a_reserved_price() -> None:
    with pytest.raises(ScenarioError) as info:
        vary(LIGHT, reserved_counts={"m1.large": 2}, spot_discounts={"m9": 0.5})
    assert sorted(e.path for e in info.value.errors) == ["reserved_counts.m1.large", "spot_discounts.m9"]
    with pytest.raises(ScenarioError) as info:
        vary(LIGHT, spot_discounts={"m1.large": 1.5})
    assert [e.path for e in info.value.errors] == ["spot_discounts.m1.large"]


def test_a_document_whose_jobs_are_kept_apart_varies_as_the_whole_document() -> None:
    """``vary_apart``: the varied document without its jobs, and the factor of their durations,
    give back what ``vary`` gives of the whole document; more jobs are refused at ``load``."""
    values = {"load": 1.7, "load_mode": "sizes", "price_factors": {LIGHT["vm_types"][0]["name"]: 0.5}}
    whole = vary(LIGHT, **values)
    head, factor = vary_apart({**LIGHT, "jobs": []}, jobs_apart=len(LIGHT["jobs"]), **values)
    assert factor == 1.7 and head == {**whole, "jobs": []}
    durations = scaled_durations([j["duration_s"] for j in LIGHT["jobs"]], factor)
    assert durations == [j["duration_s"] for j in whole["jobs"]]
    assert vary_apart(LIGHT, jobs_apart=0, **values) == (whole, 1.0)  # the jobs in the document
    with pytest.raises(ScenarioError) as refused:
        vary_apart({**LIGHT, "jobs": []}, jobs_apart=1000, load=2.0, load_mode="jobs")
    assert [e.path for e in refused.value.errors] == ["load"]
    assert "kept apart" in refused.value.errors[0].message
