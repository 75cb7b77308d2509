"""The start page of a UDRF study (paper 004): machine classes and users' jobs entered on the
page, a scenario document, or a stored cluster (classes from its entries' machine-class labels;
an unlabelled VM type is its own class) and workload (its frameworks' complex jobs); UDRF
against DRF offline, and optionally online. The page itself is the fairness studies'
(:func:`planner.web.views.studies.study_page`).

The preset is the library's example of the paper's Fig. 1 (``examples/paper004-fig1.json``),
read from the examples folder, never copied here.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from planner.web.context import TeamRequest, team_page
from planner.web.views.studies import study_choices, study_page
from scheduling.params import Preset as StudyPreset
from scheduling.udrf.synthetic import synthetic_document

from .forms import UdrfForm

EXAMPLE = Path(settings.BASE_DIR) / "examples" / "paper004-fig1.json"
#: The runs of every job in the online preset of Fig. 1.
ONLINE_RUNS = 100


@cache
def udrf_presets() -> list[StudyPreset]:
    """The page's buttons: the paper's Fig. 1 offline, and online with many runs a job, and a
    synthetic trace with the shape of its evaluation, online."""
    try:
        example = json.loads(EXAMPLE.read_text())
    except OSError:  # pragma: no cover - an install without the examples
        return []
    out = [
        StudyPreset(
            "004-fig1",
            "Paper 004, Fig. 1",
            "Four users on four machine classes (hadoop, standard, public-IP, high-memory): DRF lets "
            "u1 run 8 + 8 jobs, UDRF 28 + 8 (examples/paper004-fig1.json).",
            example,
            {"compare_drf": True, "online": False},
        )
    ]
    # Online, every job of Fig. 1 run once would fit at once and show nothing: each must run
    # ONLINE_RUNS times (not in the paper), so that how many run together decides when it ends.
    repeated = json.loads(json.dumps(example))
    for user in repeated["frameworks"]:
        for job in user.get("complex_jobs", []):
            job["runs"] = ONLINE_RUNS
    repeated["name"] = f"{example.get('name') or 'Paper 004, Fig. 1'}, each job run {ONLINE_RUNS} times"
    out.append(
        StudyPreset(
            "004-fig1-online",
            f"Paper 004, Fig. 1 online, {ONLINE_RUNS} runs a job",
            f"The same users and classes, each job run {ONLINE_RUNS} times (the paper gives no runs for "
            "Fig. 1), simulated online with one decision a second: u1's job1 ends sooner under UDRF, which "
            "runs it 28 at a time where DRF runs 8.",
            repeated,
            {"compare_drf": True, "online": True, "interval_s": 1.0},
        )
    )
    out.append(
        StudyPreset(
            "004-synthetic-online",
            "Synthetic trace (§V), online",
            "A trace drawn with the shape of the paper's evaluation (scheduling.udrf.synthetic, seed 0): "
            "50 users, 200 jobs on 60 machine classes, 65% of jobs on one or two classes, runs of "
            "10-100 s, a waiting queue of 100 jobs (Figs. 9-10).",
            synthetic_document(users=50, jobs=200, classes=60, seed=0),
            {"compare_drf": True, "online": True, "interval_s": 1.0, "queue_capacity": 100},
        )
    )
    return out


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new UDRF study."""
    clusters, workloads = study_choices(request)
    if request.method == "POST":
        form = UdrfForm(request.POST, request.FILES, clusters=clusters, workloads=workloads)
    else:
        form = UdrfForm(clusters=clusters, workloads=workloads)
    return study_page(request, presets=udrf_presets(), template="kinds/udrf/start.html", form=form,
                      kind="udrf", clusters=clusters, workloads=workloads, params=lambda: form.params())
