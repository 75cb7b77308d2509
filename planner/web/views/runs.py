"""Runs: the list, a new comparison, the run page (progress, summary, charts), reports.

The run page never loads the full results (``RunResult.result``) nor the figures: the
summary table is built from ``RunResult.summary`` and the page fetches the cached figures
from ``/api/runs/<id>/figures/``, so it stays fast for a 10,000-job, five-scheduler run.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from planner.core.errors import InputError
from planner.reports import REPORT_FORMATS
from planner.runs.models import Run
from planner.runs.reporting import run_report as build_run_report
from planner.runs.selectors import run_get, run_list
from planner.runs.services import run_cancel, run_delete, run_start
from planner.scenarios.selectors import cluster_list, workload_get, workload_list
from scheduling import SCHEDULERS, ScenarioError
from scheduling.charts import scheduler_colours

from ..context import follow_team, may_change, team_page
from ..forms import RunForm, parse_json_document, read_upload
from ..presentation import cheapest, escaped, summary_table

RUNS_PER_PAGE = 25


@team_page
@require_GET
def run_index(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status") or None
    if status not in Run.Status.values:
        status = None
    qs = run_list(user=request.user, team=request.team, status=status)  # type: ignore[attr-defined]
    page = Paginator(qs, RUNS_PER_PAGE).get_page(request.GET.get("page"))
    for run in page.object_list:
        run.cheapest = cheapest({r.scheduler: r.summary for r in run.results.all()})
    return render(request, "web/run_list.html", {"page": page, "status": status, "statuses": Run.Status.choices})


def _choices(request: HttpRequest) -> tuple[list[Any], list[Any]]:
    team = request.team  # type: ignore[attr-defined]
    clusters = list(cluster_list(user=request.user, team=team).prefetch_related(None))
    workloads = list(workload_list(user=request.user, team=team))
    return clusters, workloads


@team_page
@require_http_methods(["GET", "POST"])
def run_new(request: HttpRequest) -> HttpResponse:
    clusters, workloads = _choices(request)
    if request.method == "POST":
        form = RunForm(request.POST, request.FILES, clusters=clusters, workloads=workloads)
        if form.is_valid():
            run = _start(request, form, clusters, workloads)
            if run is not None:
                messages.success(request, f"Queued “{run.name}”.")
                return redirect("web:run-detail", pk=run.pk)
    else:
        initial: dict[str, Any] = {}
        if len(clusters) == 1:
            initial["cluster"] = clusters[0].pk
        if len(workloads) == 1:
            initial["workload"] = workloads[0].pk
        for key in ("cluster", "workload"):
            if request.GET.get(key, "").isdigit():
                initial[key] = int(request.GET[key])
        form = RunForm(initial=initial, clusters=clusters, workloads=workloads)
    return render(request, "web/run_new.html", {
        "form": form,
        "named_schedulers": list(SCHEDULERS),
        "has_sources": bool(clusters and workloads),
    }, status=400 if form.errors else 200)


def _start(request: HttpRequest, form: RunForm, clusters: list[Any], workloads: list[Any]) -> Run | None:
    """Call ``run_start`` with the form's values; on bad input, errors go on the form."""
    data = form.cleaned_data
    kwargs: dict[str, Any] = {
        "schedulers": form.scheduler_specs(),
        "options": form.options(),
        "baseline": data.get("baseline") or None,
        "seed": data.get("seed") or 0,
        "name": data.get("name") or None,
    }
    try:
        if data["source"] == "stored":
            kwargs["cluster"] = next(c for c in clusters if c.pk == data["cluster"])
            kwargs["workload"] = next(w for w in workloads if w.pk == data["workload"])
            # The service needs the workload's jobs: the list above deferred them.
            kwargs["workload"] = workload_get(user=request.user, pk=kwargs["workload"].pk)
        else:
            upload = data.get("document_file")
            field = "document_file" if upload else "document"
            text = read_upload(upload, field) if upload else data["document"]
            kwargs["scenario"] = parse_json_document(text or "", field)
            kwargs["team"] = request.team  # type: ignore[attr-defined]
        return run_start(user=request.user, **kwargs)
    except (InputError, ScenarioError) as exc:
        form.add_service_errors(exc)
        return None


@team_page
@require_GET
def run_detail(request: HttpRequest, pk: int) -> HttpResponse:
    run = run_get(user=request.user, pk=pk)  # defers the scenario, the figures and full results
    follow_team(request, run.team_id)
    results = list(run.results.all())
    summaries = {r.scheduler: r.summary for r in results}
    schedulers = [r.scheduler for r in results] or run.schedulers
    baseline = run.baseline if run.baseline in summaries else (schedulers[0] if schedulers else None)
    page_data = {
        "id": run.pk,
        "status": run.status,
        "finished": run.is_finished,
        "progress_url": reverse("api:run-progress", args=[run.pk]),
        "figures_url": reverse("api:run-figures", args=[run.pk]),
        "schedulers": schedulers,
        "escaped": {s: escaped(s) for s in schedulers},
        "colours": scheduler_colours(schedulers),
        "baseline": baseline,
        "costs": {s: summaries[s].get("total_cost") for s in summaries},
    }
    return render(request, "web/run_detail.html", {
        "run": run,
        "table": summary_table(summaries, baseline) if summaries else [],
        "schedulers": schedulers,
        "baseline": baseline,
        "page_data": page_data,
        "can_change": may_change(request, run),
        "report_formats": list(REPORT_FORMATS),
        "options": run.options.get("options") or {},
        "cluster_name": run.cluster_name,  # type: ignore[attr-defined]  # annotated by run_list
        "workload_name": run.workload_name,  # type: ignore[attr-defined]
        "duration": (run.finished_at - run.started_at).total_seconds() if run.finished_at and run.started_at else None,
    })


@team_page
@require_POST
def run_cancel_view(request: HttpRequest, pk: int) -> HttpResponse:
    run = run_get(user=request.user, pk=pk)
    follow_team(request, run.team_id)
    run = run_cancel(run=run, user=request.user)
    if run.status == Run.Status.CANCELLED:
        messages.info(request, "The run was cancelled.")
    elif run.cancel_requested and not run.is_finished:
        messages.info(request, "Cancelling: the worker stops at its next progress report.")
    else:
        messages.info(request, f"The run had already finished ({run.get_status_display().lower()}).")
    return redirect("web:run-detail", pk=run.pk)


@team_page
@require_POST
def run_remove(request: HttpRequest, pk: int) -> HttpResponse:
    run = run_get(user=request.user, pk=pk)
    follow_team(request, run.team_id)
    run_delete(run=run, user=request.user)
    messages.success(request, f"Deleted run “{run.name}”.")
    return redirect("web:runs")


@team_page
@require_GET
def run_report(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """The cost report of a succeeded run as CSV, XLSX or PDF (``planner.runs.reporting``)."""
    run = run_get(user=request.user, pk=pk)
    follow_team(request, run.team_id)
    report = build_run_report(run=run, fmt=fmt, baseline=request.GET.get("baseline"))
    response = HttpResponse(report.body, content_type=report.content_type)
    response["Content-Disposition"] = content_disposition_header(True, report.filename)
    response["Cache-Control"] = "private, no-store"
    return response
