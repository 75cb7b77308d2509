"""The pure functions behind the pages' tables and compare figures (no database)."""

from __future__ import annotations

import doctest
import json

import pytest

from planner.web import errors, presentation
from planner.web.views import runs as run_views
from scheduling import compare, parse_scenario

SUMMARY_A = {
    "total_cost": 10.0, "lower_bound_cost": 8.0, "gap_to_lower_bound": 0.25, "makespan_s": 3600.0,
    "jobs_total": 10, "deadline_jobs": 4, "deadline_met": 3, "deadline_missed": 1, "deadline_miss_pct": 25.0,
    "deadline_violation_eq12_pct": 33.3, "mean_completion_s": 120.0, "mean_wait_s": 10.0,
    "ilp_decisions": None, "ilp_fallbacks": None,
}
SUMMARY_B = {**SUMMARY_A, "total_cost": 8.5, "gap_to_lower_bound": 0.0625, "deadline_missed": 0,
             "deadline_miss_pct": 0.0, "deadline_violation_eq12_pct": 0.0, "mean_completion_s": 150.0,
             "ilp_decisions": 12, "ilp_fallbacks": 2}


@pytest.mark.parametrize("module", [presentation, errors, run_views])
def test_doctests(module):
    failures, _ = doctest.testmod(module)
    assert failures == 0


def page_table(summaries, asked):
    """The run page's table of a comparison, as the page asks its kind for it."""
    from planner.runs.kinds import get_kind

    kind = get_kind("compare")
    baseline = kind.baseline(list(summaries), {}, asked)
    rows = kind.table(summaries, options={}, baseline=baseline, currency="$")["rows"]
    return {row["key"]: row for row in rows}


def test_the_run_page_table_marks_the_best_and_the_baseline():
    rows = page_table({"fifo-spread": SUMMARY_A, "edf-ilp": SUMMARY_B}, "fifo-spread")
    cost = {c["variant"]: c for c in rows["total_cost"]["cells"]}
    assert cost["edf-ilp"]["best"] and not cost["fifo-spread"]["best"]
    saving = {c["variant"]: c["shown"] for c in rows["saving_pct"]["cells"]}
    assert saving == {"fifo-spread": "baseline", "edf-ilp": "+15.0%"}
    completion = {c["variant"]: c["best"] for c in rows["mean_completion_s"]["cells"]}
    assert completion == {"fifo-spread": True, "edf-ilp": False}
    fallbacks = {c["variant"]: c["shown"] for c in rows["ilp_fallbacks"]["cells"]}
    assert fallbacks == {"fifo-spread": "—", "edf-ilp": "2 / 12 decisions"}
    # Equal values: nobody is "best".
    assert not any(c["best"] for c in rows["makespan_s"]["cells"])


def test_the_run_page_table_marks_no_best_where_values_read_the_same():
    a = {**SUMMARY_A, "mean_wait_s": 0.01}
    b = {**SUMMARY_A, "mean_wait_s": 0.02}
    c = {**SUMMARY_A, "mean_wait_s": 0.03, "deadline_missed": 2, "deadline_miss_pct": 50.0}
    rows = page_table({"a": a, "b": b, "c": c}, "a")
    assert not any(cell["best"] for cell in rows["mean_wait_s"]["cells"])  # all show "0.0 s"
    misses = {cell["variant"]: cell["best"] for cell in rows["deadline_miss_pct"]["cells"]}
    assert misses == {"a": True, "b": True, "c": False}


def test_an_unknown_baseline_falls_back_to_the_runs_then_the_first():
    rows = page_table({"a": SUMMARY_A, "b": SUMMARY_B}, "gone")
    assert rows["saving_pct"]["label"] == "Saving vs a"  # the unit is in the values ("+15.0%")


def test_compare_deltas():
    rows = presentation.compare_deltas({"edf-bfd": SUMMARY_A, "fifo": SUMMARY_A}, {"edf-bfd": SUMMARY_B},
                                       currency="€")
    edf = {m["key"]: m for m in rows[0]["metrics"]}
    assert edf["total_cost"]["a"] == "€10.00" and edf["total_cost"]["b"] == "€8.50"
    assert edf["total_cost"]["delta"] == "−€1.50" and edf["total_cost"]["pct"] == "−15.0%"
    assert edf["total_cost"]["trend"] == "better"
    assert edf["deadline_missed"]["delta"] == "−1" and edf["deadline_missed"]["pct"] == "−100.0%"
    assert edf["mean_completion_s"]["trend"] == "worse" and edf["mean_completion_s"]["delta"] == "+30.0 s"
    assert edf["makespan_s"]["trend"] is None and edf["makespan_s"]["delta"] == "0.0 s"
    fifo = rows[1]
    assert fifo["in_a"] and not fifo["in_b"]
    assert all(m["b"] == "—" and m["delta"] == "—" for m in fifo["metrics"])


@pytest.fixture(scope="module")
def two_runs():
    doc = {
        "vm_types": [
            {"name": "small<b>", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.2, "count": 3}
        ],
        "jobs": [
            {
                "id": f"j{i}",
                "arrival_s": 60 * i,
                "executors": 2,
                "executor": {"cpu": 1, "mem": 2},
                "duration_s": 600,
            }
            for i in range(6)
        ],
    }
    a = {
        k: v.to_dict() for k, v in compare(parse_scenario(doc), schedulers=["fifo-spread", "edf-bfd"]).items()
    }
    doc["vm_types"][0]["price_per_hour"] = 0.3  # after: a dearer cluster
    b = {k: v.to_dict() for k, v in compare(parse_scenario(doc), schedulers=["edf-bfd"]).items()}
    return a, b


def test_compare_figures_keep_colours_and_dot_run_b(two_runs):
    a, b = two_runs
    figures = presentation.compare_figures(a, b)
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


def test_cluster_totals():
    totals = presentation.cluster_totals([({"cpu": 4, "mem": 16, "gpu": 1}, 1.5, 2), ({"cpu": 8}, 0.5, 0)])
    assert totals == {"machines": 2, "capacity": {"cpu": 8, "mem": 32, "gpu": 2}, "price_per_hour": 3.0}


def test_split_rows():
    from planner.core.errors import InputError
    from scheduling import FieldError

    exc = InputError([FieldError("entries[1].count", "must be >= 0"), FieldError("entries", "too many"),
                      FieldError("name", "taken"), FieldError("entries[9].count", "out of range")])
    rows, whole, rest = errors.split_rows(exc, "entries", 3)
    assert rows == {1: ["count: must be >= 0"]}
    assert whole == ["too many"]
    assert [e.path for e in rest] == ["name", "entries[9].count"]
