"""Dashboard, team switching and creation, and the locally served Plotly.js."""

from __future__ import annotations

import gzip
import hashlib
from functools import lru_cache
from pathlib import Path

import plotly
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from planner.catalogue.selectors import vm_type_list
from planner.core.errors import InputError
from planner.runs.selectors import run_list
from planner.scenarios.selectors import cluster_list, workload_list
from planner.scenarios.services.common import totals_row
from planner.teams.invitations import invitations_for
from planner.teams.selectors import team_list
from planner.teams.services import team_create
from scheduling.glossary import TERMS
from scheduling.scenario.totals import cluster_totals

from ..context import SESSION_KEY, TeamRequest, switch_team, team_page
from ..errors import attach_errors
from ..forms import TeamForm
from .runs import with_headlines

DASHBOARD_RUNS = 8


@login_required
@require_GET
def glossary(request: HttpRequest) -> HttpResponse:
    """The planner's words, from the library's one definition (:data:`scheduling.glossary.TERMS`,
    which the command line's ``--help`` shows too)."""
    return render(request, "web/glossary.html", {"terms": TERMS})


@team_page
@require_GET
def dashboard(request: TeamRequest) -> HttpResponse:
    team = request.team
    runs = with_headlines(list(run_list(user=request.user, team=team)[:DASHBOARD_RUNS]))
    clusters = list(cluster_list(user=request.user, team=team))
    for c in clusters:
        c.totals = cluster_totals(  # type: ignore[attr-defined]  # shown by the template
            totals_row(e) for e in c.entries.all()
        )
    workloads = list(workload_list(user=request.user, team=team))
    return render(request, "web/dashboard.html", {
        "runs": runs,
        "clusters": clusters,
        "workloads": workloads,
        "vm_type_count": vm_type_list(user=request.user, team=team).count(),
        "invitations": list(invitations_for(user=request.user)),
        "active_runs": run_list(user=request.user, team=team)
        .filter(status__in=["queued", "running"])
        .count(),
    })


@login_required
def team_new(request: HttpRequest) -> HttpResponse:
    """Create a team (the first page of a user who belongs to none)."""
    form = TeamForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            team = team_create(owner=request.user, name=form.cleaned_data["name"])
        except InputError as exc:
            attach_errors(form, exc)
        else:
            request.session[SESSION_KEY] = team.pk
            messages.success(
                request, f"Team “{team.name}” created, with the papers' VM types in its catalogue."
            )
            return redirect("web:dashboard")
    teams = list(team_list(user=request.user))
    return render(request, "web/team_new.html",
                  {"form": form, "teams": teams, "invitations": list(invitations_for(user=request.user))},
                  status=400 if form.errors else 200)


@login_required
@require_POST
def team_switch(request: HttpRequest) -> HttpResponse:
    if not switch_team(request, request.POST.get("team")):
        raise Http404("No such team.")
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    if target.startswith("/teams/") and target.endswith("/members/"):  # the new team's members
        return redirect("web:team-members", pk=request.session[SESSION_KEY])
    # Pages of objects belong to the previous team: go to the matching list instead.
    for prefix in ("/clusters/", "/workloads/", "/runs/"):
        if target.startswith(prefix) and target != prefix:
            target = prefix
    return redirect(target)


# --------------------------------------------------------------------------- Plotly.js

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


@lru_cache(maxsize=1)
def _plotly_bundle() -> tuple[bytes, bytes, str]:
    raw = PLOTLY_JS.read_bytes()
    return raw, gzip.compress(raw, compresslevel=6), hashlib.sha256(raw).hexdigest()[:16]


def plotly_version() -> str:
    return str(plotly.__version__)


@require_GET
def plotly_js(request: HttpRequest, version: str) -> HttpResponse:
    """The Plotly.js bundled with the installed ``plotly`` package: no CDN, no network.

    The URL carries the package's version, so the file is cached for a year and a new
    version is a new URL. Sent gzip-compressed when the browser accepts it (1.4 MB
    instead of 4.8 MB).
    """
    if version != plotly_version():
        raise Http404("Unknown Plotly version.")
    raw, compressed, etag = _plotly_bundle()
    if request.headers.get("If-None-Match") == f'"{etag}"':
        response = HttpResponse(status=304)
    elif "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(compressed, content_type="text/javascript; charset=utf-8")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(raw, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    response["ETag"] = f'"{etag}"'
    response["Vary"] = "Accept-Encoding"
    return response
