"""Writes of teams and memberships."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction

from planner.core.errors import InputError
from planner.core.names import clean_name

from .access import require_member, require_owner
from .models import Membership, Team

CURRENCY_MAX_CHARS = 8


@transaction.atomic
def team_create(*, owner: Any, name: str, currency: Any = "$") -> Team:
    """A new team with ``owner`` as its owner and the papers' VM types in its catalogue."""
    from planner.catalogue.services import vm_types_seed_presets  # the catalogue depends on teams

    team = Team.objects.create(
        name=clean_name(name), currency=clean_name(currency, "currency", max_chars=CURRENCY_MAX_CHARS)
    )
    Membership.objects.create(team=team, user=owner, role=Membership.Role.OWNER)
    vm_types_seed_presets(team=team, user=owner)
    return team


def team_update(*, team: Team, user: Any, name: Any = None, currency: Any = None) -> Team:
    """Rename the team and/or set its currency symbol (display only: ``$``, ``€``, ``CHF``)."""
    require_owner(user, team, action="change the team's settings")
    fields = []
    if name is not None:
        team.name = clean_name(name)
        fields.append("name")
    if currency is not None:
        team.currency = clean_name(currency, "currency", max_chars=CURRENCY_MAX_CHARS)
        fields.append("currency")
    if fields:
        with transaction.atomic():
            if (
                "currency" in fields
                and Team.objects.filter(pk=team.pk).exclude(currency=team.currency).exists()
            ):
                # The runs' cached figures label money in the old symbol: built again when next shown.
                from planner.runs.models import Run  # runs depend on teams

                Run.objects.filter(team=team).update(figures=None)
            team.save(update_fields=fields)
    return team


def _check_role(role: Any) -> str:
    if role not in Membership.Role.values:
        raise InputError.single("role", f"must be one of {', '.join(Membership.Role.values)}")
    return str(role)


@transaction.atomic
def membership_create(*, team: Team, user: Any, username: str, role: str = "member") -> Membership:
    """Add the user named ``username`` to the team (owners only)."""
    require_owner(user, team, action="add members")
    role = _check_role(role)
    User = get_user_model()
    new_member = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
    if new_member is None:
        raise InputError.single("username", f"there is no user named {username!r}")
    if Membership.objects.filter(team=team, user=new_member).exists():
        raise InputError.single("username", f"{username!r} is already a member of this team")
    return Membership.objects.create(team=team, user=new_member, role=role)


def _owners_left_without(membership: Membership) -> int:
    return (
        Membership.objects.select_for_update()
        .filter(team_id=membership.team_id, role=Membership.Role.OWNER)
        .exclude(pk=membership.pk)
        .count()
    )


@transaction.atomic
def membership_update(*, membership: Membership, user: Any, role: str) -> Membership:
    """Change a member's role (owners only); a team always keeps at least one owner."""
    require_owner(user, membership.team_id, action="change roles")
    role = _check_role(role)
    demoting_owner = role != Membership.Role.OWNER and membership.role == Membership.Role.OWNER
    if demoting_owner and _owners_left_without(membership) == 0:
        raise InputError.single("role", "a team needs at least one owner; make someone else an owner first")
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_delete(*, membership: Membership, user: Any) -> None:
    """Remove a member: owners remove anyone, members only themselves (leaving the team)."""
    role = require_member(user, membership.team_id)
    if role != Membership.Role.OWNER and membership.user_id != user.pk:
        raise PermissionDenied("Only an owner of the team may remove other members.")
    if membership.role == Membership.Role.OWNER and _owners_left_without(membership) == 0:
        raise InputError.single("", "a team needs at least one owner; make someone else an owner first")
    membership.delete()
