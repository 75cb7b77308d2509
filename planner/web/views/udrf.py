"""The start page of a UDRF study (paper 004): machine classes and users' jobs, or a scenario
document; UDRF against DRF offline, and optionally online.

The preset is the library's example of the paper's Fig. 1 (``examples/paper004-fig1.json``),
read from the examples folder, never copied here.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from planner.core.errors import InputError
from planner.runs.selectors import run_with_scenario
from planner.runs.services import run_start
from scheduling import ScenarioError
from scheduling.udrf.synthetic import synthetic_document

from ..context import TeamRequest, team_page
from ..forms import parse_json_document, read_upload
from ..study_presets import StudyPreset
from ..udrf_form import UdrfForm

EXAMPLE = Path(settings.BASE_DIR) / "examples" / "paper004-fig1.json"


@cache
def udrf_presets() -> list[StudyPreset]:
    """The page's buttons: the paper's Fig. 1 offline and online, and a synthetic trace with the
    shape of its evaluation, online."""
    try:
        example = json.loads(EXAMPLE.read_text())
    except OSError:  # pragma: no cover - an install without the examples
        return []
    out = [
        StudyPreset(
            "004-fig1",
            "udrf",
            "Paper 004, Fig. 1",
            "Four users on four machine classes (hadoop, standard, public-IP, high-memory): DRF lets "
            "u1 run 8 + 8 jobs, UDRF 28 + 8 (examples/paper004-fig1.json).",
            example,
            {"compare_drf": True, "online": False},
        )
    ]
    out.append(
        StudyPreset(
            "004-fig1-online",
            "udrf",
            "Paper 004, Fig. 1 online",
            "The same users and classes, simulated online: one decision a second.",
            example,
            {"compare_drf": True, "online": True, "interval_s": 1.0},
        )
    )
    out.append(
        StudyPreset(
            "004-synthetic-online",
            "udrf",
            "Synthetic trace (§V), online",
            "A trace drawn with the shape of the paper's evaluation (scheduling.udrf.synthetic, seed 0): "
            "50 users, 200 jobs on 60 machine classes, 65% of jobs on one or two classes, runs of "
            "10-100 s, a waiting queue of 100 jobs (Figs. 9-10).",
            synthetic_document(users=50, jobs=200, classes=60, seed=0),
            {"compare_drf": True, "online": True, "interval_s": 1.0, "queue_capacity": 100},
        )
    )
    return out


def _preset(key: str | None) -> StudyPreset | None:
    return next((p for p in udrf_presets() if p.key == key), None) if key else None


def _start(request: TeamRequest, form: UdrfForm) -> Any:
    data = form.cleaned_data
    try:
        if data["source"] == "forms":
            scenario = form.scenario()
        else:
            upload = data.get("document_file")
            field = "document_file" if upload else "document"
            text = read_upload(upload, field) if upload else data["document"]
            scenario = parse_json_document(text or "", field)
        return run_start(
            user=request.user,
            team=request.team,
            scenario=scenario,
            kind="udrf",
            params=form.params(),
            name=data.get("name") or None,
        )
    except (InputError, ScenarioError) as exc:
        form.add_service_errors(exc)
        return None


@team_page
@require_http_methods(["GET", "POST"])
def udrf_new(request: TeamRequest) -> HttpResponse:
    """A new UDRF study."""
    if request.method == "POST":
        form = UdrfForm(request.POST, request.FILES)
        if form.is_valid():
            run = _start(request, form)
            if run is not None:
                messages.success(request, f"Queued “{run.name}”.")
                return redirect("web:run-detail", pk=run.pk)
    else:
        form = UdrfForm()
    preset = cloned = None
    if request.method != "POST":
        preset = _preset(request.GET.get("preset"))
        if preset is not None:
            form.initial_from_scenario(preset.scenario)
            form.initial["name"] = preset.title
            form.fill(preset.params)
        clone = request.GET.get("clone", "")
        if preset is None and clone.isdigit():
            cloned = run_with_scenario(user=request.user, pk=int(clone))  # 404 beyond the user's teams
            form.initial_from_scenario(cloned.scenario)
            form.initial["name"] = f"Copy of {cloned.name}"[:200]
            form.fill(cloned.options)
    errors = bool(form.errors) or form.has_row_errors
    return render(
        request,
        "web/udrf_new.html",
        {
            "form": form,
            "presets": udrf_presets(),
            "preset": preset,
            "cloned_from": cloned,
        },
        status=400 if request.method == "POST" and errors else 200,
    )
