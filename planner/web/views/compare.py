"""Compare two runs of the same team: overlaid timelines and a table of deltas (B − A)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from planner.runs.kinds.compare import CompareKind
from planner.runs.models import Run
from planner.runs.selectors import run_currency, run_list, run_results_parts, run_summaries, run_with_scenario
from scheduling import parse_scenario
from scheduling.scenario import ScenarioDifference, scenario_differences

from ..context import TeamRequest, team_page
from ..presentation import compare_deltas, compare_figures

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
def run_compare(request: TeamRequest) -> HttpResponse:
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
    return render(request, "web/run_compare.html", context, status=400 if error else 200)
