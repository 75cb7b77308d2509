"""The comparison's report content (planner.kinds.compare.report): the library's comparison and
detail rows laid out as the tables of every format, the run page's figures, the jobs on demand;
and a stored run's downloads through the one report shell."""

from __future__ import annotations

import copy
import csv
import io
from typing import Any

import pytest
from django.urls import reverse

from planner.kinds.compare.report import PDF_FIGURES, SHEET_CHARTS, comparison_report, jobs_table
from planner.reports import report_content
from planner.runs.kinds import get_kind
from scheduling import compare, parse_scenario
from scheduling.cost.document import iter_jobs, job_count, to_columnar
from scheduling.cost.tables import COST_METRICS, UNUSED_CAPACITY, job_rows, placement_text
from scheduling.tables import comparison_table

SCHEDULERS = ["fifo-spread", "morpheus", "edf-bfd"]


@pytest.fixture(scope="module")
def results() -> dict[str, dict[str, Any]]:
    doc = {
        "name": "small",
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
            {"name": "large", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.5, "count": 2},
        ],
        "frameworks": [{"name": "etl", "weight": 2}, {"name": "reports", "weight": 1}],
        "jobs": [
            {"id": f"job-{i}", "framework": ("etl", "reports")[i % 2], "arrival_s": i * 700,
             "executors": 1 + i % 3, "executor": {"cpu": 2, "mem": 4 + 2 * (i % 2)},
             "duration_s": 900 + 100 * i, "deadline_s": 600 if i % 3 == 0 else 4000}
            for i in range(10)
        ],
    }
    return {k: v.to_dict() for k, v in compare(parse_scenario(doc), schedulers=SCHEDULERS).items()}


def _by_scheduler(table: Any, key: str) -> dict[str, float]:
    sums: dict[str, float] = {}
    i, j = table.index("scheduler"), table.index(key)
    for row in table.rows:
        sums[row[i]] = sums.get(row[i], 0.0) + row[j]
    return sums


def test_the_body_holds_the_comparison_the_tables_and_the_figures(results: dict[str, dict[str, Any]]) -> None:
    body = comparison_report(results, baseline="morpheus", currency="€")
    assert [t.key for t in body.tables] == ["summary", "vm_types", "frameworks", "hours"]
    assert body.comparison == comparison_table(
        results, baseline="morpheus", currency="€", detail=True, metrics=COST_METRICS
    )
    assert body.records is not None and body.records(5).key == "jobs"
    details = dict(body.details)
    assert details["Baseline"] == "morpheus" and details["Jobs"] == 10 and "€" in str(details["Units"])
    # The PDF draws the page's own figures, the XLSX charts two of them natively.
    assert list(body.figures)[:3] == ["cumulative_cost", "cost_by_hour", "utilisation"]
    assert "fairness:edf-bfd" in body.figures and body.sheet_charts == SHEET_CHARTS
    assert not comparison_report(results, figures=()).figures  # the CSV draws none


def test_the_shell_adds_the_header_and_the_kinds_settings(results: dict[str, dict[str, Any]]) -> None:
    kind = get_kind("compare")
    options = {"schedulers": list(results), "baseline": "fifo-spread", "seed": 3,
               "options": {"boot_time_s": 30}}
    meta = {"run_name": "Nightly", "run_id": 12, "scenario_name": "small", "created_at": "2026-11-22"}
    content = report_content(comparison_report(results, baseline="morpheus", figures=()), meta=meta,
                             settings=kind.settings(options), currency="$", variants=list(results))
    assert [label for label, _ in content.details] == [
        "Run", "Run id", "Scenario", "Created at",  # the shell's
        "Schedulers", "Options", "Seed",  # the kind's settings
        "Baseline", "Recommendation", "Jobs", "Units",  # the body's
    ]
    rows = dict(content.details)
    assert rows["Run id"] == 12 and rows["Schedulers"] == "fifo-spread, morpheus, edf-bfd"
    assert rows["Options"] == "boot_time_s=30" and rows["Baseline"] == "morpheus"  # the page's choice
    assert content.keywords == "fifo-spread, morpheus, edf-bfd"


def test_the_baseline_defaults_to_the_first_and_must_exist(results: dict[str, dict[str, Any]]) -> None:
    assert comparison_report(results, figures=()).comparison["baseline"] == "fifo-spread"
    with pytest.raises(ValueError, match="nope"):
        comparison_report(results, baseline="nope")


def test_the_cost_tables_add_up_to_each_total(results: dict[str, dict[str, Any]]) -> None:
    _, vm_types, frameworks, hours = comparison_report(results, currency="€", figures=()).tables
    assert {row[1] for row in vm_types.rows} == {"small", "large"}
    assert vm_types.header("€")[2:6] == ["Price per hour (€/h)", "Machines", "VM-hours (h)", "Cost (€)"]
    for table in (vm_types, frameworks):
        for spec, total in _by_scheduler(table, "cost").items():
            assert total == pytest.approx(results[spec]["total_cost"])
    assert [row[1] for row in frameworks.rows if row[0] == "edf-bfd"] == ["etl", "reports", UNUSED_CAPACITY]
    assert frameworks.notes and hours.notes == ["Hour 0 starts at the scenario's start."]
    assert hours.header("€")[2:] == [f"{spec} (€)" for spec in results]
    for spec, r in results.items():
        assert sum(hours.values(f"cost:{spec}")) == pytest.approx(r["total_cost"])  # type: ignore[arg-type]


def test_the_jobs_table_and_its_cap(results: dict[str, dict[str, Any]]) -> None:
    table = jobs_table(results)
    assert jobs_table({k: to_columnar(r) for k, r in results.items()}).rows == table.rows  # format 2 too
    assert len(table.rows) == sum(job_count(r) for r in results.values()) and not table.notes
    assert table.rows == [list(row.values()) for row in job_rows(results)]
    first, job = table.rows[0], next(iter_jobs(results["fifo-spread"]))
    assert first[table.index("job")] == job["id"] and first[table.index("cost")] == job["cost"]
    assert first[table.index("placement")] == placement_text(job["placement"])
    assert set(table.values("met_deadline")) == {"yes", "no"}
    capped = jobs_table(results, max_rows=7)
    assert len(capped.rows) == 7 and {row[0] for row in capped.rows} == set(results)  # shared fairly
    assert capped.notes and capped.notes[0].startswith("Truncated: 7 of 30 job rows")


def test_tables_tolerate_missing_and_junk_fields() -> None:
    junk: dict[str, dict[str, Any]] = {
        "a": {"total_cost": float("nan"), "cost_by_vm_type": {"x": "1"}, "jobs": [{}, {"id": 3}]},
        "b": {},
    }
    body = comparison_report(junk, figures=())
    assert body.records is not None
    for table in [*body.tables, body.records(100)]:
        for row in table.rows:
            assert len(row) == len(table.columns)
    assert body.tables[0].rows[0][1] is None


def test_the_figures_are_the_run_pages(results: dict[str, dict[str, Any]]) -> None:
    from scheduling.cost.charts import all_figures

    body = comparison_report(copy.deepcopy(results))
    page = all_figures(results)
    assert [k for k in body.figures if not k.startswith("fairness:")] == [k for k in PDF_FIGURES if k in page]
    assert all(body.figures[k] == page[k] for k in body.figures)


@pytest.mark.django_db
def test_a_stored_runs_csv_has_its_settings_and_the_chosen_baseline(
    owner_client: Any, start_run: Any
) -> None:
    run = start_run(schedulers=["fifo-spread", "edf-bfd"], seed=4, options={"boot_time_s": 30}, name="Two")
    response = owner_client.get(reverse("web:run-report", args=[run.pk, "csv"]), {"baseline": "edf-bfd"})
    assert response.status_code == 200
    rows = {r[0]: r[1] for r in csv.reader(io.StringIO(response.content.decode("utf-8-sig"))) if len(r) == 2}
    assert rows["Run"] == "Two" and rows["Schedulers"] == "fifo-spread, edf-bfd"
    assert (rows["Options"], rows["Seed"], rows["Baseline"]) == ("boot_time_s=30", "4", "edf-bfd")


def test_the_jobs_table_shows_each_job_s_network_stretch_when_some_job_is_network_bound(
    results: dict[str, dict[str, Any]],
) -> None:
    assert all(c.key != "stretch" for c in jobs_table(results).columns)
    doc = {
        "resources": ["cpu"],
        "vm_types": [{"name": "vm", "capacity": {"cpu": 2}, "price_per_hour": 1, "count": 2}],
        "jobs": [{"id": "pr", "arrival_s": 0, "executors": 4, "executor": {"cpu": 1}, "duration_s": 300,
                  "network_sensitivity": 0.3}],
    }
    network = {k: v.to_dict() for k, v in compare(parse_scenario(doc), schedulers=["edf-bfd"]).items()}
    table = jobs_table(network)
    # 4 executors on the 2 VMs: 1 + 0.3 x 1/3.
    assert table.columns[-1].key == "stretch" and table.values("stretch") == [pytest.approx(1.1)]
