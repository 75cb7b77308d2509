"""The current team of a page: every page shows one team's objects.

A user who belongs to several teams picks one with the switcher in the navigation; the
choice is kept in the session. Opening a link to an object of another of the user's teams
switches to that team, so that a shared link shows the object with its own team's menus.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect

from planner.teams.access import can_change
from planner.teams.models import Team
from planner.teams.selectors import team_default, team_list

SESSION_KEY = "planner_team_id"

View = Callable[..., HttpResponseBase]


class TeamRequest(HttpRequest):
    """The request of a page behind :func:`team_page`, which sets these attributes."""

    team: Team
    teams: list[Team]
    role: str | None  # the user's role in ``team``


def team_page(view: View) -> View:
    """Login required; sets ``request.team``, ``request.teams`` and ``request.role``.

    A user without a team is sent to the page that creates one.
    """

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        teams = list(team_list(user=request.user))
        if not teams:
            return redirect("web:team-new")
        wanted = request.session.get(SESSION_KEY)
        if wanted is None:  # the first page of a session: the team the user joined first
            default = team_default(user=request.user)
            wanted = default.pk if default else None
        team = next((t for t in teams if t.pk == wanted), teams[0])
        if wanted != team.pk:
            request.session[SESSION_KEY] = team.pk
        page_request = cast(TeamRequest, request)  # this decorator is what makes it one
        page_request.teams = teams
        _set_team(page_request, team)
        return view(page_request, *args, **kwargs)

    return wrapper


def _set_team(request: TeamRequest, team: Team) -> None:
    request.team = team
    request.role = getattr(team, "my_role", None)


def follow_team(request: TeamRequest, team_id: int) -> None:
    """Make the object's team the current one (the selectors already checked membership)."""
    if team_id == request.team.pk:
        return
    for team in request.teams:
        if team.pk == team_id:
            request.session[SESSION_KEY] = team.pk
            _set_team(request, team)
            return


def switch_team(request: HttpRequest, team_id: Any) -> bool:
    """Make ``team_id`` current if it is one of the user's teams."""
    for team in team_list(user=request.user):
        if str(team.pk) == str(team_id):
            request.session[SESSION_KEY] = team.pk
            return True
    return False


def may_change(request: HttpRequest, obj: Any) -> bool:
    """Whether the user may change or delete ``obj`` (owners: anything; members: their own)."""
    return can_change(getattr(request, "role", None), request.user, getattr(obj, "created_by_id", None))


def team_currency(request: HttpRequest) -> dict[str, str]:
    """Template context: ``currency``, the symbol the current team shows money in (``$`` without
    a team), so that every page labels prices as the run pages and reports do."""
    team = getattr(request, "team", None)
    return {"currency": str(getattr(team, "currency", None) or "$")}
