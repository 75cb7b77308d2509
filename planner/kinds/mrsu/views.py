"""The start page of an MRSU sizing run (paper 002): requirements, units, a sweep; presets.

Presets: the paper's set-ups from the library's registry (:data:`scheduling.mrsu.setups.SETUPS`:
the Fig. 2 snapshot, the Figs. 3-5 sweep), each as its input document and run parameters.
Nothing about them is written here.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from planner.runs.selectors import run_with_scenario
from planner.web.context import TeamRequest, team_page
from planner.web.views.studies import study_choices, study_start
from scheduling.mrsu.params import input_scenario
from scheduling.mrsu.setups import SETUPS, MrsuSetup
from scheduling.params import Preset as StudyPreset

from .forms import MrsuForm


def setup_preset(setup: MrsuSetup) -> StudyPreset:
    """A set-up of the registry as a button: its input document and the kind's parameters."""
    document = setup.input_document()
    params: dict[str, Any] = {
        "requirements": "input",
        "input": document,
        "compositions": list(setup.compositions),
        "modes": list(setup.modes),
    }
    if setup.sweep is not None:
        params["sweep"] = {k: list(v) if isinstance(v, tuple | list) else v for k, v in setup.sweep.items()}
    return StudyPreset(
        setup.key,
        f"Paper {setup.paper}: {setup.label or setup.figure}",
        f"{setup.description} The paper: {setup.paper_claim}",
        input_scenario(document),
        params,
    )


@cache
def mrsu_presets() -> list[StudyPreset]:
    """The page's buttons: one per set-up of the registry, in its order."""
    return [setup_preset(s) for s in SETUPS.values()]


def _preset(key: str | None) -> StudyPreset | None:
    return next((p for p in mrsu_presets() if p.key == key), None) if key else None


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new MRSU sizing run."""
    clusters, workloads = study_choices(request)
    if request.method == "POST":
        form = MrsuForm(request.POST, request.FILES, clusters=clusters, workloads=workloads)
        if form.is_valid():
            run = study_start(request, form, "mrsu", clusters, workloads, form.params())
            if run is not None:
                messages.success(request, f"Queued “{run.name}”.")
                return redirect("web:run-detail", pk=run.pk)
    else:
        form = MrsuForm(clusters=clusters, workloads=workloads)
    preset = cloned = None
    if request.method != "POST":
        preset = _preset(request.GET.get("preset"))
        if preset is not None:
            form.initial["name"] = preset.title
            form.fill(preset.params)
        clone = request.GET.get("clone", "")
        if preset is None and clone.isdigit():
            cloned = run_with_scenario(user=request.user, pk=int(clone))
            if cloned.options.get("requirements") == "scenario":
                form.initial_from_scenario(cloned.scenario)
            form.initial["name"] = f"Copy of {cloned.name}"[:200]
            form.fill(cloned.options)
    context: dict[str, Any] = {
        "form": form,
        "presets": mrsu_presets(),
        "preset": preset,
        "cloned_from": cloned,
        "has_sources": bool(clusters and workloads),
    }
    status = 400 if request.method == "POST" and form.errors else 200
    return render(request, "kinds/mrsu/start.html", context, status=status)
