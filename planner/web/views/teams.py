"""A team's members: everyone in the team sees them; owners add, re-role and remove them.

Outsiders get a 404 for every page here, as for any object of a team they are not in.
The rules (owners only, a team keeps at least one owner) are the services'
(``planner.teams.services``); these views parse, call one service and render.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from planner.core.errors import InputError, field_errors
from planner.teams.invitations import invitation_create, team_invitations
from planner.teams.models import Membership, Team
from planner.teams.selectors import membership_get, team_get, team_members
from planner.teams.services import membership_delete, membership_update, team_update

from ..context import TeamRequest, follow_team, team_page
from ..errors import attach_errors
from ..forms import MemberAddForm, MemberRoleForm, TeamSettingsForm


def _page(
    request: HttpRequest,
    team: Team,
    *,
    add_form: MemberAddForm | None = None,
    settings_form: TeamSettingsForm | None = None,
    failed: tuple[int, list[str]] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The members page; ``failed`` is (user id, messages) of a row whose change was refused."""
    is_owner = getattr(team, "my_role", None) == Membership.Role.OWNER
    members = list(team_members(team=team))
    settings = {"name": team.name, "currency": team.currency}
    rows = [
        {
            "membership": m,
            "is_me": m.user_id == request.user.pk,
            "role_form": MemberRoleForm(initial={"role": m.role}, prefix=f"m{m.user_id}"),
            "errors": failed[1] if failed and failed[0] == m.user_id else [],
        }
        for m in members
    ]
    return render(
        request,
        "web/team_members.html",
        {
            "team": team,
            "rows": rows,
            "is_owner": is_owner,
            "owner_count": sum(1 for m in members if m.role == Membership.Role.OWNER),
            "add_form": add_form or MemberAddForm(),
            "invitations": list(team_invitations(team=team)) if is_owner else [],
            "settings_form": settings_form or TeamSettingsForm(initial=settings),
        },
        status=status,
    )


@team_page
@require_http_methods(["GET", "POST"])
def team_members_page(request: TeamRequest, pk: int) -> HttpResponse:
    """The list (GET) and inviting a member by username (POST, owners): they join when they accept."""
    team = team_get(user=request.user, pk=pk)
    follow_team(request, team.pk)
    form = MemberAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            invitation = invitation_create(team=team, user=request.user, **form.cleaned_data)
        except InputError as exc:
            attach_errors(form, exc)
        else:
            role = invitation.get_role_display().lower()
            messages.success(
                request, f"Invited {invitation.username} as {role}: they join when they accept."
            )
            return redirect("web:team-members", pk=team.pk)
    return _page(request, team, add_form=form, status=400 if form.errors else 200)


@team_page
@require_POST
def team_member_role(request: TeamRequest, pk: int, user_id: int) -> HttpResponse:
    """Make a member an owner, or an owner a member (owners; a team keeps one owner)."""
    team = team_get(user=request.user, pk=pk)
    follow_team(request, team.pk)
    membership = membership_get(user=request.user, team_pk=pk, user_pk=user_id)
    form = MemberRoleForm(request.POST, prefix=f"m{user_id}")
    if form.is_valid():
        try:
            membership_update(membership=membership, user=request.user, role=form.cleaned_data["role"])
        except InputError as exc:
            failed = [e.message for e in field_errors(exc)]
        else:
            name = membership.user.get_username()
            messages.success(request, f"{name} is now {membership.get_role_display().lower()}.")
            return redirect("web:team-members", pk=pk)
    else:
        failed = [f"role: {e}" for e in form.errors.get("role", [])]
    return _page(request, team, failed=(user_id, failed), status=400)


@team_page
@require_POST
def team_member_remove(request: TeamRequest, pk: int, user_id: int) -> HttpResponse:
    """Remove a member (owners), or leave the team (anyone, unless the last owner)."""
    team = team_get(user=request.user, pk=pk)
    follow_team(request, team.pk)
    membership = membership_get(user=request.user, team_pk=pk, user_pk=user_id)
    try:
        membership_delete(membership=membership, user=request.user)
    except InputError as exc:
        failed = [e.message for e in field_errors(exc)]
        return _page(request, team, failed=(user_id, failed), status=400)
    if user_id == request.user.pk:
        messages.success(request, f"You left the team “{team.name}”.")
        return redirect("web:dashboard")
    messages.success(request, f"Removed {membership.user.get_username()} from the team.")
    return redirect("web:team-members", pk=pk)


@team_page
@require_POST
def team_settings(request: TeamRequest, pk: int) -> HttpResponse:
    """Rename the team or change its currency symbol (owners)."""
    team = team_get(user=request.user, pk=pk)
    follow_team(request, team.pk)
    form = TeamSettingsForm(request.POST)
    if form.is_valid():
        try:
            team_update(team=team, user=request.user, **form.cleaned_data)
        except InputError as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, "Saved the team's settings.")
            return redirect("web:team-members", pk=pk)
    return _page(request, team, settings_form=form, status=400)
