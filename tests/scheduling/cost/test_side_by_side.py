"""Two comparisons side by side: B − A of the headlines (scheduling.cost.tables) and the timelines
overlaid (scheduling.cost.charts.side_by_side), on hand-worked headlines and real results."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scheduling import compare, parse_scenario
from scheduling.cost.charts import side_by_side_figures
from scheduling.cost.tables import COST_METRICS, SIDE_BY_SIDE_METRICS, side_by_side_deltas

SUMMARY_A = {
    "total_cost": 10.0, "lower_bound_cost": 8.0, "gap_to_lower_bound": 0.25, "makespan_s": 3600.0,
    "jobs_total": 10, "deadline_jobs": 4, "deadline_met": 3, "deadline_missed": 1, "deadline_miss_pct": 25.0,
    "deadline_violation_eq12_pct": 33.3, "mean_completion_s": 120.0, "mean_wait_s": 10.0,
    "ilp_decisions": None, "ilp_fallbacks": None,
}
SUMMARY_B = {**SUMMARY_A, "total_cost": 8.5, "gap_to_lower_bound": 0.0625, "deadline_missed": 0,
             "deadline_miss_pct": 0.0, "deadline_violation_eq12_pct": 0.0, "mean_completion_s": 150.0,
             "ilp_decisions": 12, "ilp_fallbacks": 2}


def test_deltas_are_b_minus_a_in_each_metrics_unit() -> None:
    rows = side_by_side_deltas(
        {"edf-bfd": SUMMARY_A, "fifo": SUMMARY_A}, {"edf-bfd": SUMMARY_B}, currency="€"
    )
    edf = {m["key"]: m for m in rows[0]["metrics"]}
    assert edf["total_cost"]["a"] == "€10.0000" and edf["total_cost"]["b"] == "€8.5000"
    assert edf["total_cost"]["delta"] == "−€1.5000" and edf["total_cost"]["pct"] == "−15.0%"
    assert edf["total_cost"]["trend"] == "better"
    assert edf["deadline_missed"]["delta"] == "−1" and edf["deadline_missed"]["pct"] == "−100.0%"
    assert edf["mean_completion_s"]["trend"] == "worse" and edf["mean_completion_s"]["delta"] == "+30.0 s"
    assert edf["makespan_s"]["trend"] is None and edf["makespan_s"]["delta"] == "0.0 s"
    fifo = rows[1]
    assert fifo["in_a"] and not fifo["in_b"]
    assert all(m["b"] == "—" and m["delta"] == "—" for m in fifo["metrics"])


def test_the_deltas_metrics_are_the_comparisons_own() -> None:
    rows = side_by_side_deltas({"x": SUMMARY_A}, {"x": SUMMARY_B})
    declared = {m.key: m for m in COST_METRICS}
    assert [m["key"] for m in rows[0]["metrics"]] == list(SIDE_BY_SIDE_METRICS)
    assert [m["label"] for m in rows[0]["metrics"]] == [declared[k].label for k in SIDE_BY_SIDE_METRICS]


def test_a_scheduler_in_run_b_only_comes_after_run_as() -> None:
    rows = side_by_side_deltas({"a": SUMMARY_A}, {"b": SUMMARY_B, "a": SUMMARY_B})
    assert [(r["scheduler"], r["in_a"], r["in_b"]) for r in rows] == [("a", True, True), ("b", False, True)]
    assert all(m["a"] == "—" and m["pct"] == "—" for m in rows[1]["metrics"])


@pytest.fixture(scope="module")
def two_runs() -> tuple[dict[str, Any], dict[str, Any]]:
    doc: dict[str, Any] = {
        "vm_types": [
            {"name": "small<b>", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.2, "count": 3}
        ],
        "jobs": [
            {"id": f"j{i}", "arrival_s": 60 * i, "executors": 2, "executor": {"cpu": 1, "mem": 2},
             "duration_s": 600}
            for i in range(6)
        ],
    }
    a = {
        k: v.to_dict() for k, v in compare(parse_scenario(doc), schedulers=["fifo-spread", "edf-bfd"]).items()
    }
    doc["vm_types"][0]["price_per_hour"] = 0.3  # after: a dearer cluster
    b = {k: v.to_dict() for k, v in compare(parse_scenario(doc), schedulers=["edf-bfd"]).items()}
    return a, b


def test_figures_keep_colours_and_dot_run_b(two_runs: tuple[dict[str, Any], dict[str, Any]]) -> None:
    a, b = two_runs
    figures = side_by_side_figures(a, b)
    assert set(figures) == {"cumulative_cost", "utilisation", "active_vms"}
    json.dumps(figures, allow_nan=False)
    lines = {t["name"]: t["line"] for t in figures["active_vms"]["data"]}
    assert set(lines) == {"A · fifo-spread", "A · edf-bfd", "B · edf-bfd"}
    assert lines["A · edf-bfd"]["color"] == lines["B · edf-bfd"]["color"] == "#D55E00"
    assert lines["B · edf-bfd"]["dash"] == "dot" and "dash" not in lines["A · edf-bfd"]
    cost_names = [t["name"] for t in figures["cumulative_cost"]["data"]]
    assert any(n.startswith("B · edf-bfd (total") for n in cost_names)
    # One lower bound per run (the two runs' clusters differ), not one per scheduler.
    bounds = [n for n in cost_names if n.startswith("Lower bound")]
    assert (
        len(bounds) == 2 and bounds[0].startswith("Lower bound A:") and bounds[1].startswith("Lower bound B:")
    )
    assert len(figures["cumulative_cost"]["layout"]["annotations"]) == 2
    assert all(f["layout"]["title"]["text"].endswith("A solid, B dotted") for f in figures.values())


def test_one_shared_bound_and_the_currency(two_runs: tuple[dict[str, Any], dict[str, Any]]) -> None:
    a, _ = two_runs
    figure = side_by_side_figures(a, a, currency="€<")["cumulative_cost"]
    bounds = [t for t in figure["data"] if t["name"].startswith("Lower bound")]
    value = a["edf-bfd"]["lower_bound_cost"]
    assert len(bounds) == 1 and bounds[0]["y"] == [value, value]
    assert bounds[0]["name"].startswith("Lower bound A and B: €&lt;")  # the team's symbol, escaped
    assert figure["layout"]["yaxis"]["title"]["text"] == "Cumulative cost (€&lt;)"
