"""The cheapest-cluster search's pages: its start page (the shared start page with
:class:`~.forms.CheapestForm`), and a candidate opened as an ordinary comparison (the run's
scenario with that candidate's VM counts, the search's scheduler and seed)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST

from planner.catalogue.selectors import vm_type_list
from planner.core.errors import InputError, field_errors
from planner.runs.kinds import get_kind
from planner.runs.selectors import run_scenario, run_with_scenario
from planner.runs.services import run_start
from planner.web.context import TeamRequest, follow_team, team_page
from planner.web.start import StartForm, start_page
from scheduling import ScenarioError, parse_scenario
from scheduling.cost.cheapest import cluster_document, search_space
from scheduling.cost.cheapest.space import counts_text, with_reserved

from .forms import CheapestForm
from .kind import CheapestKind

#: The kind a candidate opens as (by its key: kinds do not import each other).
COMPARISON = "compare"


def _start_context(request: TeamRequest) -> Any:
    names = list(
        dict.fromkeys(vm_type_list(user=request.user, team=request.team).values_list("name", flat=True))
    )

    def context(form: StartForm) -> dict[str, Any]:
        return {"vm_type_names": names}

    return context


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new search; ``?preset=`` fills it with the paper's VM types and the shipped 1,000-job workload."""
    kind = get_kind(CheapestKind.key)
    return start_page(
        request,
        kind=kind,
        template="kinds/cheapest/start.html",
        form_class=CheapestForm,
        presets=kind.presets(),
        context=_start_context(request),
    )


@team_page
@require_POST
def candidate_compare(request: TeamRequest, pk: int, index: int) -> HttpResponse:
    """Candidate ``index`` of search ``pk`` as a comparison: the search's scenario with the
    candidate's VM counts (:func:`scheduling.cost.cheapest.cluster_document`), the search's
    scheduler and seed, started at once; the new run's page follows.

    A search of a run that keeps its jobs apart is read without them (the candidates are
    clusters: the jobs are the same), and the comparison reuses its chunks."""
    run = run_with_scenario(user=request.user, pk=pk, kind=CheapestKind.key)  # 404: not a search of theirs
    follow_team(request, run.team_id)
    options = run.options or {}
    source = run_scenario(run)
    try:
        scenario = with_reserved(parse_scenario(source.document), options.get("reserved") or {})
        space = search_space(scenario, options.get("counts") or {})
    except ScenarioError as exc:
        raise Http404("the search's scenario no longer reads") from exc
    if not 0 <= index < space.size:
        raise Http404("no such candidate")
    counts = space.counts()[index].tolist()
    cluster = counts_text(space, counts)
    try:
        started = run_start(
            user=request.user,
            team=request.team,
            scenario=cluster_document(scenario, counts),
            kind=COMPARISON,
            params={
                "schedulers": [options.get("scheduler") or "edf-bfd"],
                "seed": int(options.get("seed") or 0),
            },
            name=f"{run.name} — {cluster}"[:200],
            jobs_of=source.jobs_of,
        )
    except (InputError, ScenarioError) as exc:
        for e in field_errors(exc):
            messages.error(request, f"The cluster {cluster} cannot be compared: {e}")
        return redirect("web:run-detail", pk=run.pk)
    messages.success(request, f"Queued “{started.name}”: the search's scheduler on {cluster}.")
    return redirect("web:run-detail", pk=started.pk)
