"""The comparison's pages: its start page (a stored cluster and workload, or a scenario document,
and the schedulers to compare) and two runs side by side (overlaid timelines, B − A of every
headline, how their scenarios differ)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from planner.catalogue.selectors import vm_type_list
from planner.core.errors import InputError
from planner.runs.models import Run
from planner.runs.selectors import run_currency, run_list, run_results_parts, run_summaries, run_with_scenario
from planner.runs.services import run_start
from planner.scenarios.selectors import cluster_list, workload_get, workload_list
from planner.web.context import TeamRequest, team_page
from planner.web.forms import parse_json_document, read_upload
from scheduling import DEFAULT_RESOURCES, SCHEDULERS, ScenarioError, parse_scenario
from scheduling.cost.orderings import ORDERING_CLASSES
from scheduling.cost.placement import PLACEMENT_DESCRIPTIONS
from scheduling.cost.schedulers import describe_scheduler
from scheduling.scenario import ScenarioDifference, scenario_differences

from .forms import RunForm
from .kind import CompareKind
from .side_by_side import compare_deltas, compare_figures

CHOICES_LIMIT = 200
COMPARISON = CompareKind.key


def run_differences(*, user: Any, a: Run, b: Run) -> list[ScenarioDifference]:
    """How the scenarios the two runs used differ (empty: the same cluster, jobs and options).

    Loads and parses both runs' scenario documents.
    """
    scenario_a = parse_scenario(run_with_scenario(user=user, pk=a.pk).scenario)
    scenario_b = parse_scenario(run_with_scenario(user=user, pk=b.pk).scenario)
    return scenario_differences(scenario_a, scenario_b)


def _pick(runs: dict[int, Run], raw: str | None) -> Run | None:
    return runs.get(int(raw)) if raw and raw.isdigit() else None


@team_page
@require_GET
def side_by_side(request: TeamRequest) -> HttpResponse:
    """Pick runs A and B among the current team's succeeded runs; B − A of every headline."""
    team = request.team
    # This page is the scheduler comparison's: its runs only.
    choices = list(run_list(user=request.user, team=team, status=str(Run.Status.SUCCEEDED),
                            kind=COMPARISON)[:CHOICES_LIMIT])
    by_id = {r.pk: r for r in choices}
    a, b = _pick(by_id, request.GET.get("a")), _pick(by_id, request.GET.get("b"))
    error = None
    for key, run in (("a", a), ("b", b)):
        if request.GET.get(key) and run is None:
            error = f"Run {key.upper()} is not a finished run of {team.name}."
    if a is None and b is None and len(choices) >= 2 and not request.GET:
        b, a = choices[0], choices[1]  # the two latest: "after" against "before"
    context: dict[str, Any] = {"choices": choices, "a": a, "b": b, "error": error}
    if a is not None and b is not None:
        context["deltas"] = compare_deltas(run_summaries(a), run_summaries(b), currency=run_currency(b))
        context["differences"] = run_differences(user=request.user, a=a, b=b)
        context["figures"] = compare_figures(run_results_parts(run=a), run_results_parts(run=b))
    return render(request, "kinds/compare/side_by_side.html", context, status=400 if error else 200)


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
def start(request: TeamRequest) -> HttpResponse:
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
    return render(request, "kinds/compare/start.html", {
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


