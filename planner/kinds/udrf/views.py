"""The start page of a UDRF study (paper 004): machine classes and users' jobs entered on the
page, a scenario document, or a stored cluster (classes from its entries' machine-class labels;
an unlabelled VM type is its own class) and workload (its frameworks' complex jobs); UDRF
against DRF offline, and optionally online. The page is the shared start page
(:func:`planner.web.start.start_page`) with the kind's form (:class:`.forms.UdrfForm`); its
presets are the library's (:func:`scheduling.udrf.setups.presets`).
"""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from planner.runs.kinds import get_kind
from planner.web.context import TeamRequest, team_page
from planner.web.start import start_page

from .forms import UdrfForm


@team_page
@require_http_methods(["GET", "POST"])
def start(request: TeamRequest) -> HttpResponse:
    """A new UDRF study."""
    kind = get_kind("udrf")
    return start_page(request, kind=kind, template="kinds/udrf/start.html", form_class=UdrfForm,
                      presets=kind.presets())
