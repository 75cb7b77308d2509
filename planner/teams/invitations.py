"""Joining a team by invitation: an owner invites a username, that user accepts (or declines).

An owner no longer adds a user directly, which told them whether a username exists; an
invitation is stored whoever the name belongs to (nobody, perhaps), and the invited user sees
it on their dashboard and at ``GET /api/invitations/``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from planner.core.errors import InputError

from .access import require_owner
from .models import Invitation, Membership, Team

USERNAME_MAX_CHARS = 150


def _clean_username(value: Any) -> str:
    from scheduling import name_problem

    text = value.strip() if isinstance(value, str) else value
    problem = name_problem(text, max_chars=USERNAME_MAX_CHARS)
    if problem is not None:
        raise InputError.single("username", problem)
    assert isinstance(text, str)
    return text


def _check_role(role: Any) -> str:
    if role not in Membership.Role.values:
        raise InputError.single("role", f"must be one of {', '.join(Membership.Role.values)}")
    return str(role)


@transaction.atomic
def invitation_create(*, team: Team, user: Any, username: Any, role: Any = "member") -> Invitation:
    """Invite ``username`` to ``team`` as ``role`` (owners only); inviting again changes the role.

    Says nothing about whether the user exists. A current member is the one refusal (the
    owner sees the members anyway).
    """
    require_owner(user, team, action="invite members")
    username = _clean_username(username)
    role = _check_role(role)
    if Membership.objects.filter(team=team, user__username=username).exists():
        raise InputError.single("username", f"{username!r} is already a member of this team")
    invitation, _ = Invitation.objects.update_or_create(
        team=team, username=username, defaults={"role": role, "invited_by": user}
    )
    return invitation


def team_invitations(*, team: Team) -> QuerySet[Invitation]:
    """The team's open invitations (for its owners' page and API)."""
    return Invitation.objects.filter(team=team).select_related("invited_by").order_by("created_at", "id")


def invitations_for(*, user: Any) -> QuerySet[Invitation]:
    """The invitations addressed to ``user`` (by username), with their teams."""
    if not getattr(user, "is_authenticated", False):
        return Invitation.objects.none()
    return (
        Invitation.objects.filter(username=user.get_username())
        .select_related("team", "invited_by")
        .order_by("created_at", "id")
    )


def invitation_get(*, user: Any, pk: Any) -> Invitation:
    """One of the invitations addressed to ``user``; 404 otherwise."""
    return get_object_or_404(invitations_for(user=user), pk=pk)


def team_invitation_get(*, user: Any, team: Team, pk: Any) -> Invitation:
    """One of ``team``'s invitations, for its owners; 404 for another team's."""
    require_owner(user, team, action="manage invitations")
    return get_object_or_404(team_invitations(team=team), pk=pk)


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: Any) -> Membership:
    """The invited user joins the team with the invitation's role; the invitation is used up."""
    if invitation.username != user.get_username():
        raise InputError.single("", "this invitation is for someone else")
    membership, _ = Membership.objects.get_or_create(
        team=invitation.team, user=user, defaults={"role": invitation.role}
    )
    invitation.delete()
    return membership


def invitation_decline(*, invitation: Invitation, user: Any) -> None:
    """The invited user declines (the invitation is deleted)."""
    if invitation.username != user.get_username():
        raise InputError.single("", "this invitation is for someone else")
    invitation.delete()


def invitation_revoke(*, invitation: Invitation, user: Any) -> None:
    """An owner withdraws an invitation."""
    require_owner(user, invitation.team, action="withdraw invitations")
    invitation.delete()
