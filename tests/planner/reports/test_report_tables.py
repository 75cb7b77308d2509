"""The tables every report format lays out (neutralised text, the summary of the library's comparison)
and the formats' contract, on a scheduler comparison's content as the sample."""

from __future__ import annotations

import copy
from typing import Any, cast

import pytest

from planner.reports import FORMATS
from planner.reports.tables import neutralise, summary_table
from scheduling.cost.tables import COST_METRICS
from scheduling.tables import comparison_table


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("@SUM(1)", "'@SUM(1)"),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("\n=1", "'\n=1"),
        ("m1.large", "m1.large"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_neutralise(text: str, expected: str) -> None:
    assert neutralise(text) == expected


def _three(costs: tuple[float, float, float]) -> dict[str, dict[str, Any]]:
    names = ("fifo-spread", "morpheus", "edf-bfd")
    return {
        n: {"total_cost": c, "lower_bound_cost": 5.0, "gap_to_lower_bound": c / 5.0 - 1}
        for n, c in zip(names, costs, strict=True)
    }


def test_summary_savings_against_the_baseline() -> None:
    # Hand-worked: costs 10, 8 and 12.5 against fifo-spread (10): savings 0, 2, -2.5,
    # i.e. 0 %, +20 % and -25 %; against edf-bfd (12.5): 2.5 (+20 %), 4.5 (+36 %), 0.
    results = _three((10.0, 8.0, 12.5))
    table = summary_table(
        comparison_table(results, baseline="fifo-spread", detail=True, metrics=COST_METRICS)
    )
    assert table.values("scheduler") == list(results)
    assert table.values("total_cost") == [10.0, 8.0, 12.5]
    assert table.values("saving") == ["baseline", 2.0, -2.5]
    assert table.values("saving_pct") == ["baseline", 20.0, -25.0]
    assert table.values("lower_bound_cost") == [5.0, 5.0, 5.0]
    assert table.values("gap_to_lower_bound_pct") == pytest.approx([100.0, 60.0, 150.0])
    assert table.column("saving").label == "Money saved vs fifo-spread"
    assert table.header("€")[table.index("saving")] == "Money saved vs fifo-spread (€)"
    assert table.header()[table.index("saving_pct")] == "Saving vs fifo-spread (%)"
    other = summary_table(comparison_table(results, baseline="edf-bfd", detail=True, metrics=COST_METRICS))
    assert other.values("saving") == [2.5, 4.5, "baseline"]
    assert other.values("saving_pct") == pytest.approx([20.0, 36.0, "baseline"])


def test_summary_of_real_results(results: dict[str, dict[str, Any]]) -> None:
    table = summary_table(
        comparison_table(results, baseline="fifo-spread", detail=True, metrics=COST_METRICS)
    )
    header = table.header()
    assert header[:2] == ["Scheduler", "Total cost ($)"] and "Makespan (s)" in header
    for row in table.rows:
        r = results[str(row[0])]
        assert row[table.index("total_cost")] == r["total_cost"]
        assert row[table.index("deadline_missed")] == r["deadline_missed"]
        eq12 = r["deadline_violation_eq12_pct"] / 100  # missed / met, a ratio
        assert row[table.index("deadline_violation_eq12")] == pytest.approx(eq12)
        assert row[table.index("mean_completion_s")] == r["mean_completion_s"]
        assert row[table.index("ilp_fallbacks")] is None  # no ILP scheduler in the run
    # The scenario is built so that the cheaper schedulers save money and some deadlines are missed.
    assert cast(float, table.rows[1][table.index("saving")]) > 0
    assert all(cast(int, v) > 0 for v in table.values("deadline_missed"))
    assert any("eq. 12" in note for note in table.notes)


def test_summary_negative_saving_and_ilp_fallbacks(results: dict[str, dict[str, Any]]) -> None:
    res = copy.deepcopy(results)
    res["edf-bfd"]["ilp"] = {
        "decisions": 10,
        "fallbacks": 2,
        "fallback_jobs": ["a", "b"],
        "method": "knapsack",
    }
    table = summary_table(comparison_table(res, baseline="edf-bfd", detail=True, metrics=COST_METRICS))
    savings: dict[Any, Any] = dict(zip(table.values("scheduler"), table.values("saving"), strict=True))
    assert savings["fifo-spread"] < 0  # costs more than the baseline
    assert savings["edf-bfd"] == "baseline"
    assert table.values("ilp_fallbacks") == [None, None, 2]


def test_report_formats(results: dict[str, dict[str, Any]], meta: dict[str, Any], report: Any) -> None:
    assert set(FORMATS) == {"csv", "xlsx", "pdf"}
    magic = {"csv": b"\xef\xbb\xbf", "xlsx": b"PK", "pdf": b"%PDF"}
    content = report(meta, results)
    for name, fmt in FORMATS.items():
        assert fmt.extension == f".{name}" and "/" in fmt.content_type
        assert fmt.build(content).startswith(magic[name])


def test_summary_table_lays_out_any_variants_name(results: dict[str, dict[str, Any]]) -> None:
    table = summary_table(comparison_table(results, detail=True, metrics=COST_METRICS), "Policy")
    assert table.header()[0] == "Policy" and table.values("scheduler") == list(results)
