"""The start-page machinery the MRSU and UDRF kinds still use (planner.web.start replaces it).

Each page parses its form, calls ``run_start`` with the kind's parameters and shows the
kind's field errors next to the fields. ``?preset=<key>`` fills the page with a paper's
set-up (``planner.web.study_presets``); ``?clone=<run id>`` with an earlier run's settings.
The sharing page exists only while the sharing kind is registered (the library has the
engine): otherwise it is a 404 and no page links to it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render

from planner.core.errors import InputError
from planner.runs.kinds import all_kinds
from planner.runs.models import Run
from planner.runs.selectors import run_with_scenario
from planner.runs.services import run_start
from planner.scenarios.selectors import cluster_list, workload_get, workload_list
from scheduling import ScenarioError
from scheduling.params import Preset

from ..context import TeamRequest
from ..forms import parse_json_document, read_upload
from ..study_forms import StudySourceForm


def study_choices(request: TeamRequest) -> tuple[list[Any], list[Any]]:
    clusters = list(cluster_list(user=request.user, team=request.team).prefetch_related(None))
    workloads = list(workload_list(user=request.user, team=request.team))
    return clusters, workloads


def _registered(key: str) -> bool:
    return any(kind.key == key for kind in all_kinds())


def study_start(request: TeamRequest, form: StudySourceForm, kind: str, clusters: list[Any],
                workloads: list[Any], params: dict[str, Any]) -> Run | None:
    """``run_start`` with the form's scenario and the kind's parameters; errors go on the form."""
    data = form.cleaned_data
    kwargs: dict[str, Any] = {"kind": kind, "params": params, "name": data.get("name") or None}
    try:
        if data["source"] == "stored":
            kwargs["cluster"] = next(c for c in clusters if c.pk == data["cluster"])
            kwargs["workload"] = workload_get(user=request.user, pk=data["workload"])
        else:
            scenario = form.entered_scenario()
            if scenario is None:
                upload = data.get("document_file")
                field = "document_file" if upload else "document"
                text = read_upload(upload, field) if upload else data["document"]
                scenario = parse_json_document(text or "", field)
            kwargs["scenario"] = scenario
            kwargs["team"] = request.team
        return run_start(user=request.user, **kwargs)
    except (InputError, ScenarioError) as exc:
        form.add_service_errors(exc)
        return None


def _initial(request: TeamRequest, form: StudySourceForm, presets: list[Preset]) -> tuple[Any, Any]:
    """Fill an unbound form from ``?preset=``, ``?cluster=&workload=`` or ``?clone=``; returns
    (preset, cloned run)."""
    key = request.GET.get("preset")
    preset = next((p for p in presets if p.key == key), None) if key else None
    cloned = None
    if preset is not None:
        if preset.scenario is not None:
            form.initial_from_scenario(preset.scenario)
        form.initial["name"] = preset.title
        form.fill(preset.params)
    for key in ("cluster", "workload"):  # "Start a new run" of a run on stored objects
        if request.GET.get(key, "").isdigit():
            form.initial.update({"source": "stored", key: int(request.GET[key])})
    clone = request.GET.get("clone", "")
    if preset is None and clone.isdigit():
        cloned = run_with_scenario(user=request.user, pk=int(clone))  # 404 beyond the user's teams
        form.initial_from_scenario(cloned.scenario)
        form.initial["name"] = f"Copy of {cloned.name}"[:200]
        form.fill(cloned.options)
    return preset, cloned


def study_page(request: TeamRequest, *, presets: list[Preset], template: str, form: StudySourceForm,
               kind: str, clusters: list[Any], workloads: list[Any], params: Any = None) -> HttpResponse:
    """A study's start page: start the run of a valid POST (and go to it), else show the form,
    filled from a preset, the stored objects of a run, or a cloned run."""
    if request.method == "POST" and form.is_valid():
        run = study_start(request, form, kind, clusters, workloads, params() if params else {})
        if run is not None:
            messages.success(request, f"Queued “{run.name}”.")
            return redirect("web:run-detail", pk=run.pk)
    preset = cloned = None
    if request.method != "POST":
        preset, cloned = _initial(request, form, presets)
    errors = bool(form.errors) or bool(getattr(form, "has_row_errors", False))
    return render(request, template, {
        "form": form,
        "presets": presets,
        "preset": preset,
        "cloned_from": cloned,
        "has_sources": bool(clusters and workloads),
    }, status=400 if request.method == "POST" and errors else 200)
