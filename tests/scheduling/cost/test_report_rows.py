"""The detail rows of a comparison's reports (scheduling.cost.tables): cost per VM type, per
framework and per hour add up to each scheduler's total cost; one row per job, capped fairly."""

from __future__ import annotations

from typing import Any

import pytest

from scheduling import compare, parse_scenario
from scheduling.cost.document import iter_jobs, job_count, to_columnar
from scheduling.cost.tables import (
    FRAMEWORK_COLUMNS,
    JOB_COLUMNS,
    UNUSED_CAPACITY,
    VM_TYPE_COLUMNS,
    framework_rows,
    framework_table,
    hourly_columns,
    hourly_rows,
    hourly_table,
    job_rows,
    jobs_listed,
    placement_text,
    vm_type_rows,
    vm_type_table,
)

SCHEDULERS = ["fifo-spread", "morpheus", "edf-bfd"]
FRAMEWORKS = ("etl", "reports")


def small_scenario() -> dict[str, Any]:
    """2 VM types, 2 frameworks, 10 jobs over about 2 hours, some deadlines impossible to meet."""
    return {
        "name": "small",
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
            {"name": "large", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.5, "count": 2},
        ],
        "frameworks": [{"name": FRAMEWORKS[0], "weight": 2}, {"name": FRAMEWORKS[1], "weight": 1}],
        "jobs": [
            {"id": f"job-{i}", "framework": FRAMEWORKS[i % 2], "arrival_s": i * 700, "executors": 1 + i % 3,
             "executor": {"cpu": 2, "mem": 4 + 2 * (i % 2)}, "duration_s": 900 + 100 * i,
             # Every third job has a deadline shorter than its run time: always missed.
             "deadline_s": 600 if i % 3 == 0 else 4000}
            for i in range(10)
        ],
    }


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, Any]]:
    compared = compare(parse_scenario(small_scenario()), schedulers=SCHEDULERS)
    return {k: v.to_dict() for k, v in compared.items()}


def _sums(rows: list[dict[str, Any]], key: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for row in rows:
        out[row["scheduler"]] = out.get(row["scheduler"], 0.0) + row[key]
    return out


def test_vm_type_costs_sum_to_total_cost(results: dict[str, dict[str, Any]]) -> None:
    rows = vm_type_rows(results)
    assert {row["vm_type"] for row in rows} == {"small", "large"}
    assert len(rows) == 2 * len(results)  # every VM type for every scheduler, used or not
    for spec, total in _sums(rows, "cost").items():
        assert total == pytest.approx(results[spec]["total_cost"])
    for row in rows:
        r = results[row["scheduler"]]
        assert row["vm_hours"] == pytest.approx(r["vm_hours_by_type"].get(row["vm_type"], 0.0))
    assert all(v == pytest.approx(100.0) for v in _sums(rows, "share_pct").values())
    assert [set(row) for row in rows] == [{c.key for c in VM_TYPE_COLUMNS}] * len(rows)


def test_framework_costs_include_unused_capacity(results: dict[str, dict[str, Any]]) -> None:
    rows = framework_rows(results)
    names = [row["framework"] for row in rows if row["scheduler"] == "edf-bfd"]
    assert names == [*FRAMEWORKS, UNUSED_CAPACITY]
    for spec, total in _sums(rows, "cost").items():
        assert total == pytest.approx(results[spec]["total_cost"])
    assert set(rows[0]) == {c.key for c in FRAMEWORK_COLUMNS}


def test_hourly_costs(results: dict[str, dict[str, Any]]) -> None:
    rows = hourly_rows(results)
    hours = max(len(r["cost_by_hour"]) for r in results.values())
    assert hours >= 2
    assert [row["hour"] for row in rows] == list(range(hours))
    assert [row["from_s"] for row in rows] == [h * 3600.0 for h in range(hours)]
    for spec, r in results.items():
        column = [row[f"cost:{spec}"] for row in rows]
        assert column[: len(r["cost_by_hour"])] == r["cost_by_hour"]
        assert sum(column) == pytest.approx(r["total_cost"])
    assert [c.key for c in hourly_columns(results)] == ["hour", "from_s", *(f"cost:{s}" for s in results)]


def test_jobs_and_the_fair_cap(results: dict[str, dict[str, Any]]) -> None:
    rows = job_rows(results)
    assert job_rows({k: to_columnar(r) for k, r in results.items()}) == rows  # format 2 too
    assert len(rows) == jobs_listed(results) == sum(job_count(r) for r in results.values())
    job = next(iter_jobs(results["fifo-spread"]))
    first = rows[0]
    assert first["job"] == job["id"] and first["cost"] == job["cost"]
    assert first["placement"] == placement_text(job["placement"])
    assert {row["met_deadline"] for row in rows} == {"yes", "no"}
    assert set(first) == {c.key for c in JOB_COLUMNS}
    capped = job_rows(results, max_rows=7)
    assert len(capped) == 7
    # Shared fairly: 3 schedulers, 7 rows: 2, 2 and 3, each scheduler's first jobs.
    counts = {spec: sum(1 for row in capped if row["scheduler"] == spec) for spec in results}
    assert sorted(counts.values()) == [2, 2, 3]
    assert [row["job"] for row in capped if row["scheduler"] == "morpheus"] == ["job-0", "job-1", "job-2"][
        : counts["morpheus"]
    ]


def test_the_fair_cap_passes_leftovers_on() -> None:
    docs = {"few": {"jobs": [{"id": "a"}]}, "many": {"jobs": [{"id": str(i)} for i in range(9)]}}
    rows = job_rows(docs, max_rows=6)
    assert [row["scheduler"] for row in rows] == ["few"] + ["many"] * 5


def test_the_tables_lay_the_rows_out(results: dict[str, dict[str, Any]]) -> None:
    table = vm_type_table(results, currency="€")
    assert (table["key"], table["title"]) == ("vm_types", "Cost per VM type")
    assert [c["unit_label"] for c in table["columns"]][2] == "€/h"
    assert framework_table(results)["notes"] and hourly_table(results)["key"] == "hours"
    assert hourly_table(results)["rows"][0][:2] == [0, 0.0]


def test_rows_tolerate_missing_and_junk_fields() -> None:
    junk: dict[str, dict[str, Any]] = {
        "a": {"total_cost": float("nan"), "cost_by_vm_type": {"x": "1"}, "jobs": [{}, {"id": 3}]},
        "b": {},
    }
    assert vm_type_rows(junk)[0]["vm_type"] == "x"
    assert framework_rows(junk) == [] and hourly_rows(junk) == []
    assert [row["job"] for row in job_rows(junk)] == ["", "3"]
