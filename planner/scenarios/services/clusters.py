"""Writes of clusters: VM types of the team's catalogue, counts (of them reserved and spot VMs),
machine-class labels, resources and run options.

Everything is checked by the library (:func:`scheduling.parse_scenario` reads the cluster as
a scenario document's ``resources``, ``vm_types`` and ``options``) before anything is stored;
a failed check raises :class:`~planner.core.errors.InputError` with paths into the request
(``entries[1].count``) and leaves the database unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from planner.catalogue.models import VMType
from planner.core.errors import FieldError, InputError, prefix_rewriter
from planner.core.names import (
    UNSET,
    check_name_free,
    clean_description,
    clean_name,
    name_and_description,
    name_kept_free,
)
from planner.teams.access import require_can_change, require_member
from planner.teams.models import Team
from scheduling import DEFAULT_RESOURCES, LIMITS, ScenarioError, parse_scenario

from ..models import Cluster
from .common import EntrySpec, cluster_entries_replace, spec_entry

__all__ = ["cluster_create", "cluster_delete", "cluster_update"]


ENTRY_KEYS = ("vm_type", "count", "machine_class", "reserved_count", "spot_count")


def _resolve_entries(team: Team, entries: Any) -> list[EntrySpec]:
    """``[{"vm_type": id or name, "count": n, "machine_class": label}, ...]`` as entries of VM
    types of the team; counts and labels are checked later, by the library."""
    if not isinstance(entries, list):
        raise InputError.single("entries", "must be a list of {vm_type, count} objects")
    if len(entries) > LIMITS["vm_types"]:
        raise InputError.single(
            "entries", f"has {len(entries)} entries; the limit is {int(LIMITS['vm_types']):,}"
        )
    catalogue = list(VMType.objects.filter(team=team))
    by_id = {t.pk: t for t in catalogue}
    by_name = {t.name: t for t in catalogue}
    errors: list[FieldError] = []
    specs: list[EntrySpec] = []
    seen: dict[int, int] = {}
    for i, entry in enumerate(entries):
        path = f"entries[{i}]"
        if not isinstance(entry, Mapping):
            errors.append(FieldError(path, "must be an object with vm_type and count"))
            continue
        for key in entry:
            if key not in ENTRY_KEYS:
                errors.append(FieldError(
                    f"{path}.{key}", f"unknown field (expected one of: {', '.join(sorted(ENTRY_KEYS))})"
                ))
        ref = entry.get("vm_type")
        vm_type: VMType | None = None
        if isinstance(ref, VMType):
            vm_type = by_id.get(ref.pk)
        elif isinstance(ref, int) and not isinstance(ref, bool):
            vm_type = by_id.get(ref)
        elif isinstance(ref, str):
            vm_type = by_name.get(ref)
        if "vm_type" not in entry:
            errors.append(FieldError(f"{path}.vm_type", "is required"))
            continue
        if vm_type is None:
            errors.append(
                FieldError(f"{path}.vm_type", f"the team has no VM type {ref!r} (give its id or name)")
            )
            continue
        if vm_type.pk in seen:
            errors.append(
                FieldError(
                    f"{path}.vm_type",
                    f"VM type {vm_type.name!r} is already listed in entries[{seen[vm_type.pk]}]",
                )
            )
            continue
        seen[vm_type.pk] = i
        if "count" not in entry:
            errors.append(FieldError(f"{path}.count", "is required"))
            continue
        reserved, spot = entry.get("reserved_count"), entry.get("spot_count")
        specs.append(EntrySpec(vm_type, entry["count"], entry.get("machine_class"),
                               0 if reserved is None else reserved, 0 if spot is None else spot))
    if errors:
        raise InputError(errors)
    return specs


def _cluster_validate(resources: Any, specs: list[EntrySpec], options: Any) -> None:
    """Check the cluster half of a scenario as the library would check the whole document
    (a ``machine_class`` label by :func:`scheduling.name_problem`, as in a document)."""
    if not isinstance(resources, list):
        raise InputError.single("resources", "must be a list of resource names")
    names = [s.vm_type.name for s in specs]
    missing_prices = [
        FieldError(f"entries[{i}].{field}", f"VM type {s.vm_type.name!r} has no {market} price: set one in "
                   "the catalogue, or make none of its VMs " + market)
        for i, s in enumerate(specs)
        for field, market, count, price in (
            ("reserved_count", "reserved", s.reserved_count, s.vm_type.reserved_price_per_hour),
            ("spot_count", "spot", s.spot_count, s.vm_type.spot_price_per_hour),
        )
        if count and price is None
    ]
    if missing_prices:
        raise InputError(missing_prices)

    def rewrite(e: FieldError) -> FieldError:
        path = e.path
        for market, field in (("reserved", "reserved_count"), ("spot", "spot_count")):
            if path.startswith("vm_types[") and path.endswith(f"].{market}.count"):
                return FieldError(f"entries[{path[len('vm_types['):].partition(']')[0]}].{field}", e.message)
        if path.startswith("vm_types[") and ".capacity" in path:  # the VM type lacks a resource
            index, _, rest = path[len("vm_types[") :].partition("]")
            vm_name = names[int(index)] if index.isdigit() and int(index) < len(names) else "?"
            return FieldError(
                f"entries[{index}].vm_type", f"VM type {vm_name!r}: {rest.lstrip('.')}: {e.message}"
            )
        return FieldError(prefix_rewriter("vm_types", "entries")(path), e.message)

    doc = {
        "resources": resources,
        "vm_types": [
            spec_entry(s, [r for r in resources if isinstance(r, str)]) for s in specs
        ],
        "jobs": [],
        "options": options if options else None,
    }
    try:
        parse_scenario(doc)
    except ScenarioError as exc:
        raise InputError([rewrite(e) for e in exc.errors]) from None


def _clean_options(options: Any) -> dict[str, Any]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InputError.single("options", "must be an object")
    return dict(options)


@transaction.atomic
def cluster_create(
    *,
    team: Team,
    user: Any,
    name: Any,
    entries: Any,
    resources: Any = None,
    description: Any = "",
    options: Any = None,
) -> Cluster:
    """A cluster of ``entries`` from the team's catalogue.

    ``entries`` is ``[{"vm_type": id or name, "count": n, "machine_class": label,
    "reserved_count": r, "spot_count": s}, ...]``, in order; ``machine_class`` is optional
    (``None``: the VM type is a class of its own); ``reserved_count`` and ``spot_count`` (default
    0) are how many of the ``count`` VMs are reserved and spot, at the VM type's prices.
    """
    require_member(user, team)
    name = clean_name(name)
    description = clean_description(description)
    resources = list(DEFAULT_RESOURCES) if resources is None else resources
    options = _clean_options(options)
    specs = _resolve_entries(team, entries)
    _cluster_validate(resources, specs, options)
    check_name_free(Cluster, team, name)
    with name_kept_free(Cluster, name):
        cluster = Cluster.objects.create(
            team=team,
            name=name,
            description=description,
            resources=list(resources),
            options=options,
            created_by=user,
        )
    cluster_entries_replace(cluster, specs)
    return cluster


@transaction.atomic
def cluster_update(
    *,
    cluster: Cluster,
    user: Any,
    name: Any = UNSET,
    entries: Any = UNSET,
    resources: Any = UNSET,
    description: Any = UNSET,
    options: Any = UNSET,
) -> Cluster:
    """Change a cluster; given ``entries`` replace the old ones all at once."""
    require_can_change(user, cluster.team_id, cluster.created_by_id, what="this cluster")
    new_name, new_description = name_and_description(cluster, name, description)
    if resources is UNSET:
        new_resources = cluster.resources
    else:
        new_resources = list(DEFAULT_RESOURCES) if resources is None else resources
    new_options = cluster.options if options is UNSET else _clean_options(options)
    if entries is UNSET:
        current = cluster.entries.select_related("vm_type").order_by("position", "id")
        specs = [EntrySpec(e.vm_type, e.count, e.machine_class, e.reserved_count, e.spot_count)
                 for e in current]
    else:
        specs = _resolve_entries(cluster.team, entries)
    _cluster_validate(new_resources, specs, new_options)
    if new_name != cluster.name:
        check_name_free(Cluster, cluster.team_id, new_name, exclude_pk=cluster.pk)
    cluster.name, cluster.description = new_name, new_description
    cluster.resources, cluster.options = list(new_resources), new_options
    with name_kept_free(Cluster, new_name):
        cluster.save()
    if entries is not UNSET:
        cluster_entries_replace(cluster, specs)
    return cluster


def cluster_delete(*, cluster: Cluster, user: Any) -> None:
    """Delete a cluster; runs made from it keep their copy of the scenario."""
    require_can_change(user, cluster.team_id, cluster.created_by_id, what="this cluster")
    cluster.delete()
