"""A sweep end to end in the library: the varied scenarios, the records, the document, the
tables and the figures."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from scheduling import ScenarioError, parse_scenario, simulate
from scheduling.scenario.variations import vary
from scheduling.sweep import sweep, sweep_run
from scheduling.sweep.charts import all_figures
from scheduling.sweep.evaluate import evaluate_point, point_scenario
from scheduling.sweep.expand import Point
from scheduling.sweep.tables import point_columns, points_csv, points_table, scheduler_summaries


def test_a_point_is_the_varied_scenario_simulated(small_doc: dict[str, Any]) -> None:
    point = Point(1, {"counts.m1.large": 1, "prices.m1.xlarge": 0.5, "load.jobs": 1.5,
                      "options.boot_time_s": 30.0}, "morpheus", seed=2)
    scenario, options = point_scenario(small_doc, point)
    expected = parse_scenario(vary(small_doc, counts={"m1.large": 1}, price_factors={"m1.xlarge": 0.5},
                                   load=1.5, load_mode="jobs", seed=2))
    assert scenario == expected and options.boot_time_s == 30.0
    record = evaluate_point(small_doc, point)
    direct = simulate(expected, scheduler="morpheus", options=options, seed=2).to_dict()
    assert record["total_cost"] == pytest.approx(direct["total_cost"])
    assert record["deadline_missed"] == direct["deadline_missed"]
    assert record["vms"] == 3 and record["cluster"]["m1.xlarge"] == {"count": 2, "price_per_hour": 0.24}
    assert record["unfairness_area"] is not None  # two frameworks share the cluster


def test_a_sweep_document_has_every_point_its_fronts_and_bands(small_doc: dict[str, Any]) -> None:
    params = {"vary": {"counts.m1.large": [1, 3], "load.jobs": [1.0, 2.0]},
              "schedulers": ["edf-bfd", "fifo-spread"], "seeds": 2}
    doc = sweep(small_doc, params)
    assert len(doc["points"]) == 16 and doc["frameworks"] == 2
    assert doc == sweep(small_doc, params)  # seeded: the same twice
    front = doc["fronts"]["deadline_miss_pct"]
    assert front and all(isinstance(n, int) for n in front)
    # The seed draws the load's copies: two seeds at load 2 simulate different jobs.
    at_2 = [p for p in doc["points"] if p["settings"]["load.jobs"] == 2.0 and p["scheduler"] == "edf-bfd"]
    assert {p["jobs_total"] for p in at_2} - {48} or len({p["total_cost"] for p in at_2}) > 1
    lines = doc["bands"]["total_cost"]
    assert {(line["axis"], line["scheduler"]) for line in lines} == {
        (a, s) for a in params["vary"] for s in params["schedulers"]}
    assert all(line["seeds"] == [2, 2] for line in lines)
    json.dumps(doc, allow_nan=False)

    table = points_table(doc)
    assert len(table["rows"]) == 16 and sum(table["marked"]) >= len(front)
    assert "Unfairness area" in [c.label for c in point_columns(doc)]
    rows = list(csv.reader(io.StringIO(points_csv(doc))))
    assert rows[0][:4] == ["Point", "Scheduler", "VM count m1.large", "Load factor (more jobs)"]
    assert len(rows) == 17 and rows[1][0] == "1"
    summaries = scheduler_summaries(doc)
    assert summaries["edf-bfd"]["points"] == 8

    figures = all_figures(doc)
    assert {"cost-misses", "cost-unfairness", "band:total_cost:counts.m1.large",
            "band:deadline_miss_pct:load.jobs"} <= set(figures)
    front_trace = figures["cost-misses"]["data"][-1]
    assert front_trace["name"] == "Pareto front" and len(front_trace["x"]) == len(front)
    band = figures["band:total_cost:load.jobs"]["data"]
    assert [t.get("fill") for t in band[:3]] == [None, "tonexty", None]


def test_a_sample_of_the_grid_is_sampled_settings_times_schedulers(small_doc: dict[str, Any]) -> None:
    params = {"vary": {"counts.m1.large": [1, 2, 3], "prices.m1.large": [0.5, 1.0]}, "sample": 2, "seed": 5,
              "schedulers": ["edf-bfd", "morpheus"]}
    doc = sweep(small_doc, params)
    assert len(doc["points"]) == 4 and doc["sample"] == 2
    assert len({json.dumps(p["settings"]) for p in doc["points"]}) == 2


def test_bad_parameters_are_reported_at_their_paths(small_doc: dict[str, Any]) -> None:
    scenario = parse_scenario(small_doc)
    with pytest.raises(ScenarioError) as caught:
        sweep_run({"vary": {"counts.m9": [1], "prices.m1.large": [-1], "options.rut.cpu": [0.5],
                            "speed.x": [1]},
                   "schedulers": ["edf-bfd", "edf-bfd"], "seeds": 3, "colour": "red"}, scenario=scenario)
    paths = {e.path for e in caught.value.errors}
    assert paths == {"vary.prices.m1.large[0]", "vary.options.rut.cpu", "vary.speed.x", "colour",
                     "schedulers[1]"}
    with pytest.raises(ScenarioError) as caught:
        sweep_run({"vary": {"counts.m9": [1]}}, scenario=scenario)
    assert str(caught.value) == "vary.counts.m9: 'm9' is not a VM type of the scenario (m1.large, m1.xlarge)"
    with pytest.raises(ScenarioError) as caught:
        sweep_run({"vary": {f"counts.{t}": list(range(1, 51)) for t in ("m1.large", "m1.xlarge")}},
                  scenario=scenario)
    assert caught.value.errors[0].path == "vary" and "2,500 points" in caught.value.errors[0].message


def test_a_point_whose_cluster_cannot_run_a_job_is_kept_with_its_reason(small_doc: dict[str, Any]) -> None:
    doc = sweep(small_doc, {"vary": {"counts.m1.large": [0, 3], "counts.m1.xlarge": [0]}})
    broken, ok = doc["points"]
    assert broken["total_cost"] is None and "vm_types" in broken["error"]
    assert ok["total_cost"] is not None and "error" not in ok
    assert point_columns(doc)[-1].label == "Not run because"
    assert doc["fronts"]["deadline_miss_pct"] == [2]


def test_reserved_and_spot_axes_vary_the_scenario_as_vary_does(small_doc: dict[str, Any]) -> None:
    point = Point(1, {"reserved.m1.large": 2, "reserved_discount.m1.large": 0.4, "spot.m1.xlarge": 0.7,
                      "interruptions.m1.xlarge": 0.5}, "edf-bfd", seed=3)
    scenario, _ = point_scenario(small_doc, point)
    expected = parse_scenario(vary(small_doc, reserved_counts={"m1.large": 2},
                                   reserved_discounts={"m1.large": 0.4}, spot_discounts={"m1.xlarge": 0.7},
                                   spot_interruptions={"m1.xlarge": 0.5}, seed=3))
    assert scenario == expected
    doc = sweep(small_doc, {"vary": {"spot.m1.xlarge": [0.0, 0.7]}, "schedulers": ["edf-bfd"]})
    plain, spot = doc["points"]
    assert spot["total_cost"] < plain["total_cost"]  # the large VMs at 70 % off
    with pytest.raises(ScenarioError) as caught:
        sweep_run({"vary": {"spot.m1.large": [2.0]}}, scenario=parse_scenario(small_doc))
    assert str(caught.value) == "vary.spot.m1.large[0]: must be a number from 0 to 1"
