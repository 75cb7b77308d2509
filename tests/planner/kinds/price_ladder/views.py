from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from planner.runs.kinds import get_kind
from planner.web.context import TeamRequest, team_page
from planner.web.start import start_page


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new price ladder: the scenario and the factors (fields built from the declarations)."""
    kind = get_kind("ladder")
    return start_page(request, kind=kind, template="kinds/ladder/start.html", presets=kind.presets())
