"""The run page (fast: summaries only), cancel and delete, report downloads, and compare."""

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
from planner.scenarios.services import cluster_create

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


# --------------------------------------------------------------------------- compare


def test_compare_two_runs(owner_client, owner, team, workload, start_run, execute_run):
    before = start_run(name="Before", schedulers=["fifo-spread", "edf-bfd"])
    bigger = cluster_create(team=team, user=owner, name="Bigger", entries=[
        {"vm_type": "m1.large", "count": 12}, {"vm_type": "m2.xlarge", "count": 3}])
    from planner.runs.services import run_start

    after = run_start(
        user=owner, cluster=bigger, workload=workload, schedulers=["edf-bfd", "morpheus"], name="After"
    )
    execute_run(after.pk)
    response = owner_client.get(reverse("web:run-compare"), {"a": before.pk, "b": after.pk})
    assert response.status_code == 200
    deltas = {d["scheduler"]: d for d in response.context["deltas"]}
    assert set(deltas) == {"fifo-spread", "edf-bfd", "morpheus"}
    assert deltas["edf-bfd"]["in_a"] and deltas["edf-bfd"]["in_b"]
    assert not deltas["morpheus"]["in_a"] and not deltas["fifo-spread"]["in_b"]
    cost = deltas["edf-bfd"]["metrics"][0]
    assert cost["key"] == "total_cost" and cost["pct"].endswith("%")
    figures = response.context["figures"]
    names = [t["name"] for t in figures["cumulative_cost"]["data"]]
    assert any(n.startswith("A · edf-bfd") for n in names) and any(n.startswith("B · edf-bfd") for n in names)
    assert set(figures) == {"cumulative_cost", "utilisation", "active_vms"}
    page = response.content.decode()
    assert 'id="compare-figures"' in page and 'id="deltas-table"' in page


def test_compare_defaults_to_the_two_latest_runs(owner_client, start_run):
    first = start_run(name="First")
    second = start_run(name="Second")
    response = owner_client.get(reverse("web:run-compare"))
    assert response.context["a"].pk == first.pk and response.context["b"].pk == second.pk
    # The same cluster and workload: nothing to warn about.
    assert response.context["differences"] == [] and 'id="same-scenario"' in response.content.decode()


def test_compare_warns_when_the_runs_differ_and_says_how(owner_client, owner, team, start_run, execute_run):
    from planner.runs.services import run_start
    from planner.scenarios.services import cluster_create

    before = start_run(name="Before")
    bigger = cluster_create(
        team=team,
        user=owner,
        name="Bigger",
        entries=[
            {"vm_type": "m1.large", "count": 12},
            {"vm_type": "m1.xlarge", "count": 5},
            {"vm_type": "m2.xlarge", "count": 3},
        ],
    )
    after = run_start(
        user=owner, cluster=bigger, workload=before.workload, schedulers=["edf-bfd"], name="After"
    )
    execute_run(after.pk)
    response = owner_client.get(reverse("web:run-compare"), {"a": before.pk, "b": after.pk})
    page = response.content.decode()
    assert 'id="run-differences"' in page and "m1.large: 6 → 12 VMs" in page
    assert [d.title for d in response.context["differences"]] == ["Cluster"]


def test_compare_refuses_unfinished_runs(owner_client, succeeded_run, queued_run):
    response = owner_client.get(reverse("web:run-compare"), {"a": succeeded_run.pk, "b": queued_run.pk})
    assert response.status_code == 400
    assert "Run B is not a finished run" in response.content.decode()


def test_a_finished_run_is_cloned_into_a_new_form(owner_client, client_for, outsider, start_run, workload):
    from planner.scenarios.models import Workload

    run = start_run(
        schedulers=["fifo-spread", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"],
        baseline="edf-bfd:rut.cpu=0.5,rut.mem=0.5",
        seed=7,
        options={"rut": {"cpu": 0.6, "mem": 0.4}, "edf_backfill": True},
        name="Nightly",
    )
    page = owner_client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    clone_url = f"{reverse('web:run-new')}?clone={run.pk}"
    assert clone_url in page
    response = owner_client.get(clone_url)
    assert response.status_code == 200
    initial = response.context["form"].initial
    assert (
        initial["source"] == "stored"
        and initial["cluster"] == run.cluster_id
        and initial["workload"] == workload.pk
    )
    assert initial["schedulers"] == ["fifo-spread"] and initial["custom"] == "edf-bfd:rut.cpu=0.5,rut.mem=0.5"
    assert (initial["baseline"], initial["seed"], initial["name"]) == (
        "edf-bfd:rut.cpu=0.5,rut.mem=0.5",
        7,
        "Copy of Nightly",
    )
    assert (initial["rut_cpu"], initial["rut_mem"], initial["edf_backfill"]) == (0.6, 0.4, True)
    assert 'id="cloned-from"' in response.content.decode()

    # Its workload gone: the clone starts from the scenario document the run used.
    Workload.objects.filter(pk=workload.pk).delete()
    initial = owner_client.get(clone_url).context["form"].initial
    assert initial["source"] == "document" and json.loads(initial["document"])["jobs"] == run.scenario["jobs"]

    assert client_for(outsider).get(clone_url).status_code in (302, 404)


def test_a_clone_started_as_it_is_runs_the_same_comparison(owner_client, start_run, execute_run,
                                                           django_capture_on_commit_callbacks):
    from unittest import mock

    from planner.runs.models import Run

    run = start_run(schedulers=["fifo-spread", "edf-bfd"], seed=3, options={"billing_granularity_s": 60})
    form = owner_client.get(f"{reverse('web:run-new')}?clone={run.pk}").context["form"]
    data = {name: value for name, value in form.initial.items() if value not in (None, "")}
    with (
        mock.patch("planner.runs.tasks.run_part_execute.apply_async"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = owner_client.post(reverse("web:run-new"), data)
    assert response.status_code == 302, response.context["form"].errors
    copy = Run.objects.exclude(pk=run.pk).get()
    assert (
        copy.options == run.options and copy.scenario == run.scenario and copy.name == f"Copy of {run.name}"
    )
