"""Reads of the VM type catalogue."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from planner.teams.selectors import team_ids_of

from .models import VMType


def vm_type_list(*, user: Any, team: Any = None) -> QuerySet[VMType]:
    """The VM types of the user's teams (of one of them when ``team`` is given)."""
    qs = VMType.objects.filter(team_id__in=team_ids_of(user)).select_related("created_by")
    if team is not None:
        qs = qs.filter(team=team)
    return qs.order_by("team_id", "name", "id")


def vm_type_get(*, user: Any, pk: Any) -> VMType:
    return get_object_or_404(vm_type_list(user=user), pk=pk)
