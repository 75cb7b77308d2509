"""The start page of an MRSU sizing run (paper 002): requirements, units, a sweep; presets.

The presets are the paper's set-ups, from the library (:func:`scheduling.mrsu.setups.presets`,
through :meth:`MrsuKind.presets <planner.kinds.mrsu.kind.MrsuKind.presets>`): the Fig. 2
snapshot and the Figs. 3-5 sweep, each as its input document and a run's parameters.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from planner.runs.kinds import get_kind
from planner.web.context import TeamRequest, team_page
from planner.web.start import start_page

from .forms import MrsuForm


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new MRSU sizing run."""
    kind = get_kind("mrsu")
    return start_page(request, kind=kind, template="kinds/mrsu/start.html", form_class=MrsuForm,
                      presets=kind.presets())
