"""Who may do what with a team's objects; every service checks through here.

* An outsider learns nothing: any object of a team they are not in is "not found" (404).
* A member views, creates and runs, and changes or deletes what they created.
* An owner also changes or deletes what others created, and manages the members.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404

from .models import Membership, Team


def role_of(user: Any, team: Team | int) -> str | None:
    """The user's role in the team, or ``None`` for an outsider (or an anonymous user)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    team_id = team.pk if isinstance(team, Team) else team
    return Membership.objects.filter(team_id=team_id, user=user).values_list("role", flat=True).first()


def require_member(user: Any, team: Team | int) -> str:
    """The user's role; an outsider gets :class:`Http404`, as if the object did not exist."""
    role = role_of(user, team)
    if role is None:
        raise Http404("No such object in your teams.")
    return role


def require_owner(user: Any, team: Team | int, *, action: str = "manage this team") -> None:
    if require_member(user, team) != Membership.Role.OWNER:
        raise PermissionDenied(f"Only an owner of the team may {action}.")


def can_change(role: str | None, user: Any, created_by_id: int | None) -> bool:
    """Owners change anything of their team; members what they created themselves."""
    if role == Membership.Role.OWNER:
        return True
    return role == Membership.Role.MEMBER and created_by_id is not None and created_by_id == user.pk


def require_can_change(user: Any, team: Team | int, created_by_id: int | None, *, what: str) -> None:
    role = require_member(user, team)
    if not can_change(role, user, created_by_id):
        raise PermissionDenied(
            f"Only the team's owners or the person who created {what} may change or delete it."
        )
