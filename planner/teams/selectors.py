"""Reads of teams and memberships, always from the requesting user's point of view."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.shortcuts import get_object_or_404

from .models import Membership, Team


def team_ids_of(user: Any) -> QuerySet[Membership, int]:
    """A subquery of the ids of the user's teams: filter other tables with ``team_id__in``."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Membership.objects.none().values_list("team_id", flat=True)
    return Membership.objects.filter(user=user).values_list("team_id", flat=True)


def team_list(*, user: Any) -> QuerySet[Team]:
    """The user's teams, each annotated with ``my_role`` and ``member_count``."""
    return (
        Team.objects.filter(pk__in=team_ids_of(user))
        .annotate(
            my_role=Subquery(Membership.objects.filter(team=OuterRef("pk"), user=user).values("role")[:1]),
            member_count=Count("memberships", distinct=True),
        )
        .order_by("name", "id")
    )


def team_get(*, user: Any, pk: Any) -> Team:
    """One of the user's teams; 404 for anyone else's (whether or not it exists)."""
    return get_object_or_404(team_list(user=user), pk=pk)


def team_default(*, user: Any) -> Team | None:
    """The team a request means when it names none: the user's only (or first joined) team."""
    membership = (
        Membership.objects.filter(user=user).select_related("team").order_by("created_at", "id").first()
        if getattr(user, "is_authenticated", False)
        else None
    )
    return membership.team if membership else None


def team_members(*, team: Team) -> QuerySet[Membership]:
    return Membership.objects.filter(team=team).select_related("user").order_by("created_at", "id")


def membership_get(*, user: Any, team_pk: Any, user_pk: Any) -> Membership:
    """A membership of one of the user's teams; 404 otherwise."""
    return get_object_or_404(
        Membership.objects.select_related("user", "team").filter(team_id__in=team_ids_of(user)),
        team_id=team_pk,
        user_id=user_pk,
    )


def team_or_default(*, user: Any, team: Team | None) -> Team:
    """``team`` if the request named one, else the user's default team; 400 if they have none."""
    from planner.core.errors import InputError

    chosen = team if team is not None else team_default(user=user)
    if chosen is None:
        raise InputError.single(
            "team", "is required: you belong to no team yet (create one with POST /api/teams/)"
        )
    return chosen
