"""Add one paper's VM types to the catalogue (the "Add presets" buttons).

Built on :func:`planner.catalogue.services.vm_type_create`; the backend's
``vm_types_seed_presets`` adds every preset at once, this adds the one the operator chose.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from planner.catalogue.selectors import vm_type_list
from planner.catalogue.services import vm_type_create
from planner.teams.models import Team
from scheduling.presets import VM_PRESETS

__all__ = ["PRESET_CHOICES", "vm_types_add_preset"]

PRESET_CHOICES = [
    (name, description, [(t["name"], t["capacity"], t["price_per_hour"]) for t in types])
    for name, (description, types) in VM_PRESETS.items()
]


@transaction.atomic
def vm_types_add_preset(*, team: Team, user: Any, preset: str) -> tuple[list[str], list[str]]:
    """Create the preset's VM types whose names the team does not use yet.

    Returns ``(added, skipped)`` names; a name already in the catalogue is left alone.
    """
    if preset not in VM_PRESETS:
        raise KeyError(preset)
    existing = set(vm_type_list(user=user, team=team).values_list("name", flat=True))
    added, skipped = [], []
    for t in VM_PRESETS[preset][1]:
        if t["name"] in existing:
            skipped.append(t["name"])
            continue
        vm_type_create(
            team=team, user=user, name=t["name"], capacity=dict(t["capacity"]),
            price_per_hour=t["price_per_hour"], description=VM_PRESETS[preset][0],
        )
        added.append(t["name"])
    return added, skipped
