"""The cost tables shared by the CSV, XLSX and PDF reports."""

from __future__ import annotations

import copy
from typing import Any, cast

import pytest

from planner.reports import REPORT_FORMATS, run_report_csv, run_report_pdf, run_report_xlsx
from planner.reports.tables import (
    UNUSED_CAPACITY,
    framework_table,
    hourly_table,
    jobs_table,
    meta_rows,
    neutralise,
    placement_text,
    report_tables,
    resolve_baseline,
    summary_table,
    vm_type_table,
)


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


def test_summary_savings_against_the_baseline(results: dict[str, dict[str, Any]]) -> None:
    table = summary_table(results, "fifo-spread")
    assert [row[0] for row in table.rows] == list(results)
    base = results["fifo-spread"]["total_cost"]
    rows: list[list[Any]] = table.rows
    for row in rows:
        r = results[row[0]]
        assert row[table.index("total_cost")] == r["total_cost"]
        assert row[table.index("saving")] == pytest.approx(base - r["total_cost"])
        assert row[table.index("saving_pct")] == pytest.approx((base - r["total_cost"]) / base * 100)
        assert row[table.index("lower_bound_cost")] == r["lower_bound_cost"]
        assert row[table.index("gap_pct")] == pytest.approx(r["gap_to_lower_bound"] * 100)
        assert row[table.index("deadline_jobs")] == r["deadline_jobs"]
        assert row[table.index("deadline_missed")] == r["deadline_missed"]
        assert row[table.index("deadline_violation_eq12_pct")] == r["deadline_violation_eq12_pct"]
        assert row[table.index("mean_completion_s")] == r["mean_completion_s"]
        assert row[table.index("mean_wait_s")] == r["mean_wait_s"]
        assert row[table.index("ilp_fallbacks")] is None  # no ILP scheduler in the run
    assert table.column("saving").label == "Saving vs fifo-spread"
    # The scenario is built so that the cheaper schedulers save money and some deadlines are missed.
    assert rows[1][table.index("saving")] > 0
    assert all(v > 0 for v in cast(list[int], table.values("deadline_missed")))


def test_summary_negative_saving_and_ilp_fallbacks(results: dict[str, dict[str, Any]]) -> None:
    res = copy.deepcopy(results)
    res["edf-bfd"]["ilp"] = {
        "decisions": 10,
        "fallbacks": 2,
        "fallback_jobs": ["a", "b"],
        "method": "knapsack",
    }
    table = summary_table(res, "edf-bfd")
    savings: dict[Any, Any] = dict(zip(table.values("scheduler"), table.values("saving"), strict=True))
    assert savings["fifo-spread"] < 0  # costs more than the baseline
    assert savings["edf-bfd"] == 0
    assert table.values("ilp_fallbacks") == [None, None, 2]


def test_baseline_defaults_to_the_first_and_must_exist(results: dict[str, dict[str, Any]]) -> None:
    assert resolve_baseline(results, None) == "fifo-spread"
    assert resolve_baseline({}, None) is None
    with pytest.raises(ValueError, match="nope"):
        summary_table(results, "nope")
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
    assert len(table.rows) == sum(len(r["jobs"]) for r in results.values())
    assert not table.notes
    first = table.rows[0]
    job = results["fifo-spread"]["jobs"][0]
    assert first[table.index("job")] == job["id"] == names.job
    assert first[table.index("cost")] == job["cost"]
    assert first[table.index("placement")] == placement_text(job["placement"])
    assert set(table.values("met_deadline")) == {"yes", "no"}
    capped = jobs_table(results, max_rows=7)
    assert len(capped.rows) == 7
    assert 2 <= len(results) <= 7 and {row[0] for row in capped.rows} == set(results)  # shared fairly
    assert capped.notes and "7" in capped.notes[0]


def test_report_tables_and_meta(results: dict[str, dict[str, Any]], meta: dict[str, Any]) -> None:
    keys = [t.key for t in report_tables(results, None)]
    assert keys == ["summary", "vm_types", "frameworks", "hours"]
    assert [t.key for t in report_tables(results, None, include_jobs=True)][-1] == "jobs"
    rows = dict(meta_rows(meta, results, "morpheus"))
    assert rows["Run"] == meta["run_name"]
    assert rows["Run id"] == 12
    assert rows["Baseline"] == "morpheus"
    assert rows["Schedulers"] == "fifo-spread, morpheus, edf-bfd"
    # Without a scenario name in meta, the results' own name is used.
    assert dict(meta_rows({}, results, None))["Scenario"] == results["edf-bfd"]["scenario_name"]


def test_tables_tolerate_missing_and_junk_fields() -> None:
    junk: dict[str, dict[str, Any]] = {
        "a": {"total_cost": float("nan"), "cost_by_vm_type": {"x": "1"}, "jobs": [None, {"id": 3}]},
        "b": {},
    }
    for table in report_tables(junk, None, include_jobs=True):
        for row in table.rows:
            assert len(row) == len(table.columns)
    assert summary_table(junk, None).rows[0][1] is None


def test_report_formats(results: dict[str, dict[str, Any]], meta: dict[str, Any]) -> None:
    assert set(REPORT_FORMATS) == {"csv", "xlsx", "pdf"}
    magic = {"csv": b"\xef\xbb\xbf", "xlsx": b"PK", "pdf": b"%PDF"}
    for name, (fn, content_type, ext) in REPORT_FORMATS.items():
        assert ext == f".{name}"
        assert "/" in content_type
        assert fn(meta, results, None).startswith(magic[name])
