"""The allocation study's start page: the scenario, the policies (with the papers' set-ups as presets)."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from planner.runs.kinds import get_kind
from planner.web.context import TeamRequest, team_page
from planner.web.start import start_page

from .forms import AllocationStartForm


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new allocation study (paper 000): policies side by side on one cluster."""
    kind = get_kind("allocation")
    return start_page(request, kind=kind, template="kinds/allocation/start.html",
                      form_class=AllocationStartForm, presets=kind.presets())
