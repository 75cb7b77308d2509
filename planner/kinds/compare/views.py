"""The comparison's pages: its start page (a stored cluster and workload, or a scenario document,
and the schedulers to compare: the shared start page with :class:`~.forms.CompareForm`) and two
runs side by side (the library's overlaid timelines and B − A of the headlines, and how their
scenarios differ)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from planner.catalogue.selectors import vm_type_list
from planner.core.errors import InputError, field_errors
from planner.core.queries import query_id_or_none
from planner.runs.kinds import get_kind
from planner.runs.models import Run
from planner.runs.selectors import (
    run_currency,
    run_list,
    run_results_parts,
    run_scenario,
    run_scenarios_compared,
    run_summaries,
    run_with_scenario,
)
from planner.runs.services import run_start
from planner.web.context import TeamRequest, follow_team, team_page
from planner.web.start import StartForm, start_page
from scheduling import DEFAULT_RESOURCES, SCHEDULERS, ScenarioError
from scheduling.cost.charts import side_by_side_figures
from scheduling.cost.orderings import ORDERING_CLASSES
from scheduling.cost.placement import PLACEMENT_DESCRIPTIONS
from scheduling.cost.schedulers import describe_scheduler
from scheduling.cost.tables import side_by_side_deltas
from scheduling.scenario import ScenarioDifference, scenario_differences
from scheduling.scenario.variations import variation_text, vary_apart

from .forms import CompareForm, WhatIfForm
from .kind import CompareKind

CHOICES_LIMIT = 200
COMPARISON = CompareKind.key


def run_differences(*, user: Any, a: Run, b: Run) -> list[ScenarioDifference]:
    """How the scenarios the two runs used differ (empty: the same cluster, jobs and options).

    Loads and parses both runs' scenario documents; the jobs of a run that keeps them apart are
    compared by columns (:func:`~planner.runs.selectors.run_scenarios_compared`: about a second
    for a million jobs, and once when both runs keep the same stored jobs), never read into one
    document.
    """
    (scenario_a, jobs_a), (scenario_b, jobs_b) = run_scenarios_compared(
        run_with_scenario(user=user, pk=a.pk), run_with_scenario(user=user, pk=b.pk)
    )
    return scenario_differences(scenario_a, scenario_b, jobs=(jobs_a, jobs_b))


def _pick(runs: dict[int, Run], raw: str | None) -> Run | None:
    run_id = query_id_or_none({"run": raw}, "run") if raw else None
    return runs.get(run_id) if run_id is not None else None


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
        currency = run_currency(b)
        context["deltas"] = side_by_side_deltas(run_summaries(a), run_summaries(b), currency=currency)
        context["differences"] = run_differences(user=request.user, a=a, b=b)
        context["figures"] = side_by_side_figures(run_results_parts(run=a), run_results_parts(run=b),
                                                  currency=currency)
    return render(request, "kinds/compare/side_by_side.html", context, status=400 if error else 200)


def _resources(request: TeamRequest) -> list[str]:
    """The resources of the team's VM types (the defaults first): one RUT weight field each."""
    names = dict.fromkeys(DEFAULT_RESOURCES)
    for capacity in vm_type_list(user=request.user, team=request.team).values_list("capacity", flat=True):
        names.update(dict.fromkeys(capacity or {}))
    return list(names)


def _start_context(form: StartForm) -> dict[str, Any]:
    """What the page says of each named scheduler and of the parts of a spec of one's own."""
    return {
        "descriptions": {name: describe_scheduler(name) for name in SCHEDULERS},
        "parts_described": [(f"{name}-…", cls.description) for name, cls in ORDERING_CLASSES.items()]
        + [(f"…-{name}", what) for name, what in PLACEMENT_DESCRIPTIONS.items()],
    }


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new comparison; ``?clone=<run id>`` starts from the settings of an earlier run."""
    kind = get_kind(COMPARISON)
    return start_page(
        request, kind=kind, template="kinds/compare/start.html", form_class=CompareForm,
        presets=kind.presets(), form_kwargs={"resources": _resources(request)}, context=_start_context,
    )


#: What a what-if run keeps of the comparison it starts from (its stored options).
KEPT = ("schedulers", "options", "baseline", "seed")


@team_page
@require_http_methods(["GET", "POST"])
def what_if(request: TeamRequest, pk: int) -> HttpResponse:
    """What if, from a comparison: its scenario with the load scaled, prices multiplied and counts
    set (:func:`scheduling.scenario.variations.vary`), compared again with the same schedulers; the
    runs side by side then name what changed.

    The page is the comparison's own, like a sweep's points and a search's candidates: a run of
    another kind has no what-if, and is not found here (no link leads to it; a redirect would have
    dropped a POST's fields without a word)."""
    run = run_with_scenario(user=request.user, pk=pk, kind=COMPARISON)  # 404: not a comparison of theirs
    follow_team(request, run.team_id)
    types = [str(t.get("name")) for t in (run.scenario or {}).get("vm_types") or []]
    form = WhatIfForm(request.POST or None, vm_types=types)
    if request.method == "POST" and form.is_valid():
        values = form.param_values()
        try:
            # A run that keeps its jobs apart is varied without them, and the new run reuses its
            # chunks (longer jobs: scaled column by column); more jobs are refused at "load".
            source = run_scenario(run)
            doc, factor = vary_apart(source.document, jobs_apart=source.jobs_apart, **values)
            started = run_start(
                user=request.user, team=request.team, scenario=doc, kind=COMPARISON,
                params={k: v for k, v in (run.options or {}).items() if k in KEPT and v is not None},
                name=f"{run.name} — what if {variation_text(values)}"[:200],
                jobs_of=source.jobs_of, duration_factor=factor,
            )
        except (InputError, ScenarioError) as exc:
            for e in field_errors(exc):
                if not form.place_param_error(e.path, e.message, str(e)):
                    form.add_error(None, str(e))
        else:
            messages.success(request, f"Queued “{started.name}”. Compare it with #{run.pk} once it has run.")
            return redirect("web:run-detail", pk=started.pk)
    vm_types = (run.scenario or {}).get("vm_types") or []
    return render(request, "kinds/compare/what_if.html", {
        "run": run, "form": form,
        "jobs": run.job_count if run.jobs_stored else len((run.scenario or {}).get("jobs") or []),
        "prices": {str(t.get("name")): t.get("price_per_hour") for t in vm_types},
        "counts": {str(t.get("name")): t.get("count") for t in vm_types},
        "markets": {str(t.get("name")): _markets_now(t) for t in vm_types},
        "market_keys": WhatIfForm.MARKET_KEYS,
    }, status=400 if request.method == "POST" else 200)


def _markets_now(vm_type: Mapping[str, Any]) -> dict[str, str]:
    """A VM type's reserved and spot VMs today, in words, for the what-if page (version 4)."""
    reserved, spot = vm_type.get("reserved"), vm_type.get("spot")
    out = {"reserved": "none", "spot": "none"}
    if isinstance(reserved, Mapping):
        out["reserved"] = f"{reserved.get('count')} at {reserved.get('price_per_hour')}/h"
    if isinstance(spot, Mapping):
        count = spot.get("count", "the rest")
        rate = spot.get("interruptions_per_hour")
        out["spot"] = f"{count} at {spot.get('price_per_hour')}/h"
        if rate:
            out["spot"] += f", {rate} interruptions/h"
    return out
