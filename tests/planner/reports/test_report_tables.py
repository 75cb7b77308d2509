"""The cost tables shared by the CSV, XLSX and PDF reports, and the report contract."""

from __future__ import annotations

import copy
from typing import Any, cast

import pytest

from planner.reports import (
    FORMATS,
    REPORT_FORMATS,
    cost_report,
    run_report_csv,
    run_report_pdf,
    run_report_xlsx,
)
from planner.reports.tables import (
    UNUSED_CAPACITY,
    framework_table,
    hourly_table,
    jobs_table,
    neutralise,
    placement_text,
    summary_table,
    vm_type_table,
)
from scheduling.cost.document import iter_jobs, job_count, to_columnar
from scheduling.cost.tables import COST_METRICS
from scheduling.tables import comparison_table


def _by_scheduler(table: Any, key: str) -> dict[str, float]:
    sums: dict[str, float] = {}
    i, j = table.index("scheduler"), table.index(key)
    for row in table.rows:
        sums[row[i]] = sums.get(row[i], 0.0) + row[j]
    return sums


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


def test_baseline_defaults_to_the_first_and_must_exist(results: dict[str, dict[str, Any]]) -> None:
    assert cost_report({}, results, figures=()).comparison["baseline"] == "fifo-spread"
    assert dict(cost_report({}, results, baseline="morpheus", figures=()).details)["Baseline"] == "morpheus"
    with pytest.raises(ValueError, match="nope"):
        cost_report({}, results, baseline="nope")
    for fn in (run_report_csv, run_report_xlsx, run_report_pdf):
        with pytest.raises(ValueError):
            fn({}, results, "nope")


def test_vm_type_costs_sum_to_total_cost(results: dict[str, dict[str, Any]], names: Any) -> None:
    table = vm_type_table(results)
    assert {row[1] for row in table.rows} == {"small", names.vm}
    for spec, total in _by_scheduler(table, "cost").items():
        assert total == pytest.approx(results[spec]["total_cost"])
    rows: list[list[Any]] = table.rows
    for row in rows:
        r = results[row[0]]
        assert row[table.index("vm_hours")] == pytest.approx(r["vm_hours_by_type"].get(row[1], 0.0))
    shares = _by_scheduler(table, "share_pct")
    assert all(v == pytest.approx(100.0) for v in shares.values())


def test_framework_costs_include_unused_capacity(results: dict[str, dict[str, Any]], names: Any) -> None:
    table = framework_table(results)
    fws = [row[1] for row in table.rows if row[0] == "edf-bfd"]
    assert fws == [*names.frameworks, UNUSED_CAPACITY]
    for spec, total in _by_scheduler(table, "cost").items():
        assert total == pytest.approx(results[spec]["total_cost"])


def test_hourly_costs(results: dict[str, dict[str, Any]]) -> None:
    table = hourly_table(results)
    hours = max(len(r["cost_by_hour"]) for r in results.values())
    assert hours >= 2
    assert table.values("hour") == list(range(hours))
    assert table.values("from_s") == [h * 3600.0 for h in range(hours)]
    for spec, r in results.items():
        column = cast(list[float], table.values(f"cost:{spec}"))
        assert column[: len(r["cost_by_hour"])] == r["cost_by_hour"]
        assert sum(column) == pytest.approx(r["total_cost"])


def test_jobs_table_and_cap(results: dict[str, dict[str, Any]], names: Any) -> None:
    table = jobs_table(results)
    assert jobs_table({k: to_columnar(r) for k, r in results.items()}).rows == table.rows  # format 2 too
    assert len(table.rows) == sum(job_count(r) for r in results.values())
    assert not table.notes
    first = table.rows[0]
    job = next(iter_jobs(results["fifo-spread"]))
    assert first[table.index("job")] == job["id"] == names.job
    assert first[table.index("cost")] == job["cost"]
    assert first[table.index("placement")] == placement_text(job["placement"])
    assert set(table.values("met_deadline")) == {"yes", "no"}
    capped = jobs_table(results, max_rows=7)
    assert len(capped.rows) == 7
    assert 2 <= len(results) <= 7 and {row[0] for row in capped.rows} == set(results)  # shared fairly
    assert capped.notes and "7" in capped.notes[0]


def test_cost_report_content(results: dict[str, dict[str, Any]], meta: dict[str, Any]) -> None:
    content = cost_report(meta, results, baseline="morpheus", currency="€")
    assert [t.key for t in content.tables] == ["summary", "vm_types", "frameworks", "hours"]
    assert content.records is not None and content.records(5).key == "jobs"
    assert content.comparison == comparison_table(
        results, baseline="morpheus", currency="€", detail=True, metrics=COST_METRICS
    )
    rows = dict(content.details)
    assert rows["Run"] == meta["run_name"]
    assert rows["Run id"] == 12
    assert rows["Baseline"] == "morpheus"
    assert rows["Schedulers"] == "fifo-spread, morpheus, edf-bfd"
    assert "€" in str(rows["Units"])
    # Without a scenario name in meta, the results' own name is used.
    assert (
        dict(cost_report({}, results, figures=()).details)["Scenario"] == results["edf-bfd"]["scenario_name"]
    )
    # The PDF draws the page's own figures, the XLSX charts two of them natively.
    assert list(content.figures)[:3] == ["cumulative_cost", "cost_by_hour", "utilisation"]
    assert "fairness:edf-bfd" in content.figures and content.sheet_charts == ("cost_breakdown", "utilisation")


def test_tables_tolerate_missing_and_junk_fields() -> None:
    junk: dict[str, dict[str, Any]] = {
        "a": {"total_cost": float("nan"), "cost_by_vm_type": {"x": "1"}, "jobs": [{}, {"id": 3}]},
        "b": {},
    }
    content = cost_report({}, junk, figures=())
    assert content.records is not None
    for table in [*content.tables, content.records(100)]:
        for row in table.rows:
            assert len(row) == len(table.columns)
    assert content.tables[0].rows[0][1] is None


def test_report_formats(results: dict[str, dict[str, Any]], meta: dict[str, Any]) -> None:
    assert set(REPORT_FORMATS) == set(FORMATS) == {"csv", "xlsx", "pdf"}
    magic = {"csv": b"\xef\xbb\xbf", "xlsx": b"PK", "pdf": b"%PDF"}
    content = cost_report(meta, results)
    for name, (fn, content_type, ext) in REPORT_FORMATS.items():
        assert ext == FORMATS[name].extension == f".{name}"
        assert "/" in content_type and content_type == FORMATS[name].content_type
        assert fn(meta, results, None).startswith(magic[name])
        assert FORMATS[name].build(content).startswith(magic[name])
