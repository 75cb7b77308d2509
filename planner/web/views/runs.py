"""Runs: the list, the run page (progress, results, charts), cancelling, deleting, reports.

The run page is one shell for every kind of run (header, progress of each part, failure
reasons, settings) around the kind's own results section (``RunKind.results_template``).
It never loads the full results (``RunResult.result``) nor the figures: the table is built
from ``RunResult.summary`` and the page fetches the cached figures from
``/api/runs/<id>/figures/``, so it stays fast for a 10,000-job, five-scheduler run.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_POST

from planner.runs.kinds import get_kind
from planner.runs.models import Run
from planner.runs.reporting import run_report as build_run_report
from planner.runs.selectors import run_currency, run_get, run_list, run_parts, run_summaries
from planner.runs.services import run_cancel, run_delete

from ..context import TeamRequest, follow_team, may_change, team_page

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
            "settings": kind.settings(run.options or {}),
            "clone_url": kind.start_link(f"?clone={run.pk}") if run.is_finished else None,
            "restart_url": kind.start_link(
                f"?cluster={run.cluster_id}&workload={run.workload_id}"
                if run.cluster_id and run.workload_id else ""
            ),
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
