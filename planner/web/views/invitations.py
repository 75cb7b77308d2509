"""Invitations to a team: the invited user accepts or declines, an owner withdraws one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from planner.teams import invitations
from planner.teams.selectors import team_get

from ..context import SESSION_KEY


@login_required
@require_POST
def invitation_accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = invitations.invitation_get(user=request.user, pk=invitation_id)
    membership = invitations.invitation_accept(invitation=invitation, user=request.user)
    request.session[SESSION_KEY] = membership.team_id
    role = membership.get_role_display().lower()
    messages.success(request, f"You joined “{membership.team.name}” as {role}.")
    return redirect("web:dashboard")


@login_required
@require_POST
def invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = invitations.invitation_get(user=request.user, pk=invitation_id)
    name = invitation.team.name
    invitations.invitation_decline(invitation=invitation, user=request.user)
    messages.info(request, f"You declined the invitation to “{name}”.")
    return redirect("web:dashboard")


@login_required
@require_POST
def invitation_withdraw(request: HttpRequest, pk: int, invitation_id: int) -> HttpResponse:
    team = team_get(user=request.user, pk=pk)
    invitation = invitations.team_invitation_get(user=request.user, team=team, pk=invitation_id)
    invitations.invitation_revoke(invitation=invitation, user=request.user)
    messages.info(request, f"Withdrew the invitation of {invitation.username}.")
    return redirect("web:team-members", pk=team.pk)
