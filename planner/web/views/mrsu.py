"""The start page of an MRSU sizing run (paper 002): requirements, units, a sweep; presets.

Presets: the library's example input (``examples/mrsu/example.json``) alone, and with the
paper's sweep set-up (Section IV: 12 loads, 100 seeds, 50 applications, 30 slots).
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

from planner.runs.kinds.mrsu import PAPER_SWEEP, input_scenario
from planner.runs.selectors import run_with_scenario

from ..context import TeamRequest, team_page
from ..mrsu_form import MrsuForm
from ..study_presets import StudyPreset
from .studies import _choices, _start

EXAMPLE = Path(settings.BASE_DIR) / "examples" / "mrsu" / "example.json"


@cache
def mrsu_presets() -> list[StudyPreset]:
    """The page's buttons: the example input, and the example with the paper's sweep."""
    try:
        example = json.loads(EXAMPLE.read_text())
    except OSError:  # pragma: no cover - an install without the examples
        return []
    base = {"requirements": "input", "input": example, "compositions": ["gcd", "min"], "modes": ["ft", "id"]}
    return [
        StudyPreset(
            "002-example",
            "mrsu",
            "Example input",
            "Three applications, four dimensions, four slots (examples/mrsu/example.json).",
            input_scenario(example),
            base,
        ),
        StudyPreset(
            "002-sweep",
            "mrsu",
            "Paper 002 sweep (Figs. 3-5)",
            "The example input and the paper's sweep: loads 10-125 %, 100 seeds, 50 applications, "
            "30 slots, every method.",
            input_scenario(example),
            {**base, "sweep": dict(PAPER_SWEEP)},
        ),
    ]


def _preset(key: str | None) -> StudyPreset | None:
    return next((p for p in mrsu_presets() if p.key == key), None) if key else None


@team_page
@require_http_methods(["GET", "POST"])
def mrsu_new(request: TeamRequest) -> HttpResponse:
    """A new MRSU sizing run."""
    clusters, workloads = _choices(request)
    if request.method == "POST":
        form = MrsuForm(request.POST, request.FILES, clusters=clusters, workloads=workloads)
        if form.is_valid():
            run = _start(request, form, "mrsu", clusters, workloads, form.params())
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
    return render(
        request, "web/mrsu_new.html", context, status=400 if request.method == "POST" and form.errors else 200
    )
