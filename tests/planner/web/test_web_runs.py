"""The run page (fast: summaries only), cancel and delete, and report downloads."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from planner.runs.models import Run, RunResult

pytestmark = pytest.mark.django_db


def selected_columns(queries: list[dict], table: str) -> set[str]:
    """Columns of ``table`` that the SELECTs read (Django names them "table"."column")."""
    out = set()
    for q in queries:
        sql = q["sql"]
        if not sql.lstrip().upper().startswith("SELECT"):
            continue
        head = sql.split(" FROM ", 1)[0]
        for part in head.split(","):
            if f'"{table}".' in part:
                out.add(part.split(f'"{table}".', 1)[1].strip().strip('"').split('"')[0])
    return out


def test_run_page_reads_summaries_never_full_results(
    owner_client, succeeded_run, django_assert_max_num_queries
):
    url = reverse("web:run-detail", args=[succeeded_run.pk])
    with CaptureQueriesContext(connection) as ctx, django_assert_max_num_queries(12):
        response = owner_client.get(url)
    assert response.status_code == 200
    result_columns = selected_columns(ctx.captured_queries, "runs_runresult")
    assert "summary" in result_columns
    assert "result" not in result_columns
    run_columns = selected_columns(ctx.captured_queries, "runs_run")
    assert run_columns and not run_columns & {"scenario", "figures"}
    assert not selected_columns(ctx.captured_queries, "scenarios_workload") & {"jobs"}
    # The results on the page are deferred: touching .result would cost a query each.
    for result in response.context["run"].results.all():
        assert "result" in result.get_deferred_fields()


def test_run_page_query_count_does_not_grow_with_schedulers(owner_client, start_run, count_queries):
    small = start_run(schedulers=["fifo-spread"], baseline="fifo-spread")
    large = start_run(schedulers=[
        "fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"
    ])
    n_small = count_queries(lambda: owner_client.get(reverse("web:run-detail", args=[small.pk])))
    n_large = count_queries(lambda: owner_client.get(reverse("web:run-detail", args=[large.pk])))
    assert n_small == n_large


def test_run_page_summary_table(owner_client, succeeded_run):
    response = owner_client.get(reverse("web:run-detail", args=[succeeded_run.pk]))
    table = response.context["table"]["rows"]
    keys = [row["key"] for row in table]
    for key in ("total_cost", "saving_pct", "gap_to_lower_bound_pct", "makespan_s", "deadline_miss_pct",
                "deadline_violation_eq12", "mean_completion_s", "ilp_fallbacks"):
        assert key in keys
    saving = next(row for row in table if row["key"] == "saving_pct")
    assert saving["label"] == "Saving vs fifo-spread"  # the unit is in the values
    assert saving["cells"][0]["shown"] == "baseline"
    page = response.content.decode()
    # The eq. 12 row reads as the paper's ratio, its meaning in a note under the table.
    assert "Eq. 12" in page or "eq. 12" in page
    assert 'id="baseline-select"' in page and 'id="summary-table"' in page
    data = json.loads(
        page.split('<script id="run-data" type="application/json">', 1)[1].split("</script>", 1)[0]
    )
    assert data["variants"] == ["fifo-spread", "morpheus", "edf-bfd"]
    assert data["figures_url"] == reverse("api:run-figures", args=[succeeded_run.pk])
    for fmt in ("csv", "xlsx", "pdf"):
        assert reverse("web:run-report", args=[succeeded_run.pk, fmt]) in page


def test_figures_come_from_the_api(owner_client, succeeded_run):
    response = owner_client.get(reverse("api:run-figures", args=[succeeded_run.pk]))
    assert response.status_code == 200
    figures = response.json()["figures"]
    expected = {"utilisation", "active_vms", "cumulative_cost", "completion", "deadlines", "cost_breakdown"}
    assert expected <= set(figures)
    assert any(k.startswith("gantt:") for k in figures) and any(k.startswith("fairness:") for k in figures)


def test_queued_run_page_polls_and_offers_cancel(owner_client, queued_run):
    page = owner_client.get(reverse("web:run-detail", args=[queued_run.pk])).content.decode()
    assert 'role="progressbar"' in page and "Cancel run" in page
    assert reverse("api:run-progress", args=[queued_run.pk]) in page
    assert "plotly" not in page  # no charts to draw yet
    progress = owner_client.get(reverse("api:run-progress", args=[queued_run.pk])).json()
    assert progress["status"] == "queued" and progress["finished"] is False


def test_cancel_a_queued_run(owner_client, queued_run):
    response = owner_client.post(reverse("web:run-cancel", args=[queued_run.pk]), follow=True)
    assert response.status_code == 200
    assert "was cancelled" in response.content.decode()
    queued_run.refresh_from_db()
    assert queued_run.status == Run.Status.CANCELLED


def test_delete_a_finished_run(owner_client, succeeded_run):
    response = owner_client.post(reverse("web:run-delete", args=[succeeded_run.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("web:runs")
    assert not Run.objects.filter(pk=succeeded_run.pk).exists()
    assert not RunResult.objects.filter(run_id=succeeded_run.pk).exists()


def test_runs_list_filters_by_status(owner_client, succeeded_run, failed_run):
    page = owner_client.get(reverse("web:runs"), {"status": "failed"}).content.decode()
    assert reverse("web:run-detail", args=[failed_run.pk]) in page
    assert reverse("web:run-detail", args=[succeeded_run.pk]) not in page
    everything = owner_client.get(reverse("web:runs"), {"status": "bogus"}).content.decode()
    assert reverse("web:run-detail", args=[succeeded_run.pk]) in everything


# --------------------------------------------------------------------------- reports


@pytest.mark.parametrize(("fmt", "content_type", "magic"), [
    ("csv", "text/csv", None),
    ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", b"PK"),
    ("pdf", "application/pdf", b"%PDF"),
])
def test_report_downloads(owner_client, succeeded_run, fmt, content_type, magic):
    response = owner_client.get(reverse("web:run-report", args=[succeeded_run.pk, fmt]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith(content_type)
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="run-{succeeded_run.pk}-nightly-bwhat-ifb.{fmt}"'
    )
    body = response.content
    assert len(body) > 200
    if magic:
        assert body.startswith(magic)
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
        assert any("edf-bfd" in cell for row in rows for cell in row)
    if fmt == "xlsx":
        assert zipfile.ZipFile(io.BytesIO(body)).testzip() is None


def test_reports_of_unfinished_runs_and_unknown_formats_are_404(owner_client, queued_run, succeeded_run):
    assert owner_client.get(reverse("web:run-report", args=[queued_run.pk, "pdf"])).status_code == 404
    assert owner_client.get(reverse("web:run-report", args=[succeeded_run.pk, "docx"])).status_code == 404


def test_members_download_reports(client_for, member, succeeded_run):
    response = client_for(member).get(reverse("web:run-report", args=[succeeded_run.pk, "csv"]))
    assert response.status_code == 200 and response.content


def test_the_run_list_names_the_fewest_misses_beside_a_cheaper_scheduler_that_misses_more(
    owner_client, succeeded_run
):
    from scheduling.cost.tables import RECOMMENDATION_RULE

    # Issue 22: edf-ilp (11 misses) was named cheapest while morpheus missed 6.
    heads = {"fifo-spread": (0.61, 9), "morpheus": (0.52, 6), "edf-bfd": (0.4352, 11)}
    for result in succeeded_run.results.all():
        cost, missed = heads[result.variant]
        result.summary = {**result.summary, "total_cost": cost, "deadline_jobs": 40,
                          "deadline_missed": missed}
        result.save(update_fields=["summary"])
    page = owner_client.get(reverse("web:runs")).content.decode()
    assert "fewest misses (6): morpheus $0.5200 · cheapest (11 missed): edf-bfd $0.4352" in page
    assert "cheapest: edf-bfd" not in page
    from django.utils.html import escape

    assert f'title="{escape(RECOMMENDATION_RULE)}"' in page
