"""The sweep's pages: its start page (the shared start page with :class:`~.forms.SweepForm`), and
a point opened as an ordinary comparison (its cluster, load and run options; the sweep's
schedulers and the point's seed)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST

from planner.catalogue.selectors import vm_type_list
from planner.core.errors import InputError, field_errors
from planner.runs.kinds import get_kind
from planner.runs.selectors import run_with_scenario
from planner.web.context import TeamRequest, follow_team, team_page
from planner.web.start import StartForm, start_page
from scheduling import ScenarioError
from scheduling.sweep.axes import AXES

from .forms import SweepForm
from .kind import SweepKind
from .services import sweep_point_compare, sweep_point_get


def _start_context(request: TeamRequest) -> Any:
    types = vm_type_list(user=request.user, team=request.team)
    names = list(dict.fromkeys(types.values_list("name", flat=True)))

    def context(form: StartForm) -> dict[str, Any]:
        return {"axes": AXES, "vm_type_names": names}

    return context


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new sweep; ``?preset=`` fills it with the paper's cluster and workload."""
    kind = get_kind(SweepKind.key)
    return start_page(request, kind=kind, template="kinds/sweep/start.html", form_class=SweepForm,
                      presets=kind.presets(), context=_start_context(request))


@team_page
@require_POST
def point_compare(request: TeamRequest, pk: int, point: int) -> HttpResponse:
    """Point ``point`` of sweep ``pk`` as a comparison of the sweep's schedulers on the point's
    cluster (:func:`~.services.sweep_point_compare`), started at once; the new run's page follows."""
    run = run_with_scenario(user=request.user, pk=pk, kind=SweepKind.key)  # 404: not a sweep of theirs
    follow_team(request, run.team_id)
    found = sweep_point_get(run=run, point=point)
    if found is None:
        raise Http404("no such point of a sweep")
    try:
        started = sweep_point_compare(user=request.user, team=request.team, run=run, point=found)
    except (InputError, ScenarioError) as exc:
        for e in field_errors(exc):
            messages.error(request, f"Point {point} cannot be compared: {e}")
        return redirect("web:run-detail", pk=run.pk)
    messages.success(request, f"Queued “{started.name}”: the sweep's schedulers on point {point}'s cluster.")
    return redirect("web:run-detail", pk=started.pk)
