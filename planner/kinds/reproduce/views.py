"""The reproductions' start page: which papers, how many seeds."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from planner.runs.kinds import get_kind
from planner.web.context import TeamRequest, team_page
from planner.web.start import start_page

from .forms import ReproduceForm


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new reproduction of the papers' tables and figures."""
    return start_page(request, kind=get_kind("reproduce"), template="kinds/reproduce/start.html",
                      form_class=ReproduceForm)
