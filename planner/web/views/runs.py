"""Runs: the list, a new comparison, the run page (progress, results, charts), reports.

The run page is one shell for every kind of run (header, progress of each part, failure
reasons, settings) around the kind's own results section (``RunKind.results_template``).
It never loads the full results (``RunResult.result``) nor the figures: the table is built
from ``RunResult.summary`` and the page fetches the cached figures from
``/api/runs/<id>/figures/``, so it stays fast for a 10,000-job, five-scheduler run.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from planner.catalogue.selectors import vm_type_list
from planner.core.errors import InputError
from planner.runs.kinds import get_kind
from planner.runs.models import Run
from planner.runs.reporting import run_report as build_run_report
from planner.runs.selectors import (
    run_currency,
    run_get,
    run_list,
    run_parts,
    run_summaries,
    run_with_scenario,
)
from planner.runs.services import run_cancel, run_delete, run_start
from planner.scenarios.selectors import cluster_list, workload_get, workload_list
from scheduling import DEFAULT_RESOURCES, SCHEDULERS, ScenarioError
from scheduling.cost.orderings import ORDERING_CLASSES
from scheduling.cost.placement import PLACEMENT_DESCRIPTIONS
from scheduling.cost.schedulers import describe_scheduler

from ..context import TeamRequest, follow_team, may_change, team_page
from ..forms import RunForm, parse_json_document, read_upload

RUNS_PER_PAGE = 25


def with_headlines(runs: list[Run]) -> list[Run]:
    """Each run with ``headline``: its kind's one-line outcome (no query: summaries are prefetched)."""
    for run in runs:
        try:
            kind = get_kind(run.kind)
        except KeyError:
            run.headline = None  # type: ignore[attr-defined]  # for the template, as below
            continue
        run.kind_label = kind.label  # type: ignore[attr-defined]
        run.headline = kind.headline(run_summaries(run), currency=run_currency(run))  # type: ignore[attr-defined]
    return runs


@team_page
@require_GET
def run_index(request: TeamRequest) -> HttpResponse:
    status = request.GET.get("status") or None
    if status not in Run.Status.values:
        status = None
    qs = run_list(user=request.user, team=request.team, status=status)
    page = Paginator(qs, RUNS_PER_PAGE).get_page(request.GET.get("page"))
    with_headlines(list(page.object_list))
    return render(
        request, "web/run_list.html", {"page": page, "status": status, "statuses": Run.Status.choices}
    )


def _choices(request: TeamRequest) -> tuple[list[Any], list[Any]]:
    team = request.team
    clusters = list(cluster_list(user=request.user, team=team).prefetch_related(None))
    workloads = list(workload_list(user=request.user, team=team))
    return clusters, workloads


def _resources(request: TeamRequest) -> list[str]:
    """The resources of the team's VM types (the defaults first): one RUT weight field each."""
    names = dict.fromkeys(DEFAULT_RESOURCES)
    for capacity in vm_type_list(user=request.user, team=request.team).values_list(
        "capacity", flat=True
    ):
        names.update(dict.fromkeys(capacity or {}))
    return list(names)


@team_page
@require_http_methods(["GET", "POST"])
def run_new(request: TeamRequest) -> HttpResponse:
    """A new comparison; ``?clone=<run id>`` starts from the settings of an earlier run."""
    clusters, workloads = _choices(request)
    cloned_from = None
    if request.method == "POST":
        form = RunForm(request.POST, request.FILES, clusters=clusters, workloads=workloads,
                       resources=_resources(request))
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
        clone = request.GET.get("clone", "")
        if clone.isdigit():
            source = run_with_scenario(user=request.user, pk=int(clone))  # 404 beyond the user's teams
            initial = RunForm.initial_from_run(
                source, cluster_ids={c.pk for c in clusters}, workload_ids={w.pk for w in workloads}
            )
            cloned_from = source
        form = RunForm(initial=initial, clusters=clusters, workloads=workloads, resources=_resources(request))
    return render(request, "web/run_new.html", {
        "form": form,
        "named_schedulers": list(SCHEDULERS),
        "descriptions": {name: describe_scheduler(name) for name in SCHEDULERS},
        "parts_described": [(f"{name}-…", cls.description) for name, cls in ORDERING_CLASSES.items()]
        + [(f"…-{name}", what) for name, what in PLACEMENT_DESCRIPTIONS.items()],
        "has_sources": bool(clusters and workloads),
        "cloned_from": cloned_from,
    }, status=400 if form.errors else 200)


def _start(request: TeamRequest, form: RunForm, clusters: list[Any], workloads: list[Any]) -> Run | None:
    """Call ``run_start`` with the form's values; on bad input, errors go on the form."""
    data = form.cleaned_data
    kwargs: dict[str, Any] = {
        "kind": "compare",
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
            kwargs["team"] = request.team
        return run_start(user=request.user, **kwargs)
    except (InputError, ScenarioError) as exc:
        form.add_service_errors(exc)
        return None


@team_page
@require_GET
def run_detail(request: TeamRequest, pk: int) -> HttpResponse:
    run = run_get(user=request.user, pk=pk)  # defers the scenario, the figures and full results
    follow_team(request, run.team_id)
    kind = get_kind(run.kind)
    summaries = run_summaries(run)
    parts = run_parts(run=run)
    variants = list(summaries) or [p.label for p in parts]
    currency = run_currency(run)
    baseline = kind.baseline(list(summaries), run.options, request.GET.get("baseline"))
    table = (
        kind.table(summaries, options=run.options, baseline=baseline, currency=currency)
        if summaries
        else None
    )
    duration = None
    if run.finished_at and run.started_at:
        duration = (run.finished_at - run.started_at).total_seconds()
    page_data = {
        "id": run.pk,
        "status": run.status,
        "finished": run.is_finished,
        "progress_url": reverse("api:run-progress", args=[run.pk]),
        "figures_url": reverse("api:run-figures", args=[run.pk]),
        "variants": variants,
        "baseline": baseline,
    }
    return render(
        request,
        "web/run_detail.html",
        {
            "run": run,
            "kind": kind,
            "parts": parts,
            "variants": variants,
            "summaries": summaries,
            "table": table,
            "baseline": baseline,
            "currency": currency,
            "page_data": page_data,
            "kind_context": kind.page_context(run, summaries, baseline=baseline, currency=currency),
            "can_change": may_change(request, run),
            "report_formats": kind.report_formats if run.is_finished and summaries else (),
            "cluster_name": run.cluster_name,  # type: ignore[attr-defined]  # annotated by run_list
            "workload_name": run.workload_name,  # type: ignore[attr-defined]
            "duration": duration,
        },
    )


@team_page
@require_POST
def run_cancel_view(request: TeamRequest, pk: int) -> HttpResponse:
    run = run_get(user=request.user, pk=pk)
    follow_team(request, run.team_id)
    run = run_cancel(run=run, user=request.user)
    if run.status == Run.Status.CANCELLED:
        messages.info(request, "The run was cancelled.")
    else:
        messages.info(request, f"The run had already finished ({run.get_status_display().lower()}).")
    return redirect("web:run-detail", pk=run.pk)


@team_page
@require_POST
def run_remove(request: TeamRequest, pk: int) -> HttpResponse:
    run = run_get(user=request.user, pk=pk)
    follow_team(request, run.team_id)
    run_delete(run=run, user=request.user)
    messages.success(request, f"Deleted run “{run.name}”.")
    return redirect("web:runs")


@team_page
@require_GET
def run_report(request: TeamRequest, pk: int, fmt: str) -> HttpResponse:
    """A report of a finished run in one of its kind's formats (``planner.runs.reporting``)."""
    run = run_get(user=request.user, pk=pk)
    follow_team(request, run.team_id)
    report = build_run_report(
        run=run, fmt=fmt, baseline=request.GET.get("baseline"), currency=run_currency(run)
    )
    response = HttpResponse(report.body, content_type=report.content_type)
    response["Content-Disposition"] = content_disposition_header(True, report.filename)
    response["Cache-Control"] = "private, no-store"
    return response
