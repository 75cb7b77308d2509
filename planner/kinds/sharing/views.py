"""The sharing study's start page: the scenario and up to six configurations side by side (with
the papers' set-ups as presets)."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from planner.runs.kinds import get_kind
from planner.web.context import TeamRequest, team_page
from planner.web.start import start_page


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new sharing study (paper 001): configurations of the offer cycle side by side."""
    kind = get_kind("sharing")
    return start_page(request, kind=kind, template="kinds/sharing/start.html", presets=kind.presets())
