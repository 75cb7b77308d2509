"""Writes of the VM type catalogue, validated by the library's rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from django.db import transaction

from planner.core.errors import FieldError, InputError, scenario_errors_as_input
from planner.core.names import UNSET, check_name_free, clean_description, name_kept_free
from planner.teams.access import require_can_change, require_member
from planner.teams.models import Team
from scheduling import parse_scenario
from scheduling.presets import VM_PRESETS

from .models import VMType


def _plain(x: float) -> int | float:
    """Whole amounts stay integers (``4`` rather than ``4.0``), as in the scenario document."""
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else float(x)


#: The document's version-4 price fields (of the one-VM-type document checked below) as the VM
#: type's own fields.
_MARKET_FIELDS = {
    "vm_types[0].reserved.price_per_hour": "reserved_price_per_hour",
    "vm_types[0].spot.price_per_hour": "spot_price_per_hour",
    "vm_types[0].spot.interruptions_per_hour": "spot_interruptions_per_hour",
}


@dataclass(frozen=True)
class MarketPrices:
    """A VM type's reserved and spot prices and spot interruption rate (scenario version 4)."""

    reserved_price_per_hour: float | None = None
    spot_price_per_hour: float | None = None
    spot_interruptions_per_hour: float = 0.0


def _vm_type_path(path: str) -> str:
    """A path of the one-VM-type document checked below, as a path of the VM type's fields."""
    if path in _MARKET_FIELDS:
        return _MARKET_FIELDS[path]
    if path.startswith("vm_types[0]."):
        return path[len("vm_types[0].") :]
    if path.startswith("resources"):
        return "capacity"
    return path if path not in ("vm_types", "vm_types[0]") else ""


def vm_type_validate(
    *,
    name: Any,
    capacity: Any,
    price_per_hour: Any,
    reserved_price_per_hour: Any = None,
    spot_price_per_hour: Any = None,
    spot_interruptions_per_hour: Any = 0.0,
) -> tuple[str, dict[str, int | float], float, MarketPrices]:
    """Check a VM type exactly as a scenario document's ``vm_types`` entry would be checked.

    Returns the cleaned ``(name, capacity, price_per_hour, market prices)``; raises
    :class:`InputError` with paths such as ``capacity.cpu``, ``price_per_hour`` or
    ``spot_price_per_hour``. A reserved or spot price of ``None`` means the VM type has none.
    """
    if not isinstance(capacity, Mapping) or not capacity:
        raise InputError.single(
            "capacity", 'must be an object mapping resources to amounts, e.g. {"cpu": 4, "mem": 16}'
        )
    entry: dict[str, Any] = {"name": name, "capacity": dict(capacity), "price_per_hour": price_per_hour,
                             "count": 1}
    if reserved_price_per_hour is not None:
        entry["reserved"] = {"price_per_hour": reserved_price_per_hour, "count": 0}
    if spot_interruptions_per_hour is None:
        spot_interruptions_per_hour = 0.0
    if spot_price_per_hour is not None or spot_interruptions_per_hour != 0.0:
        entry["spot"] = {"price_per_hour": spot_price_per_hour, "count": 0,
                         "interruptions_per_hour": spot_interruptions_per_hour}
        if spot_price_per_hour is None:
            raise InputError.single("spot_price_per_hour", "is required with spot_interruptions_per_hour")
    doc = {"version": 4, "resources": list(capacity), "vm_types": [entry], "jobs": []}
    with scenario_errors_as_input(_vm_type_path):
        parse_scenario(doc)
    markets = MarketPrices(
        None if reserved_price_per_hour is None else float(reserved_price_per_hour),
        None if spot_price_per_hour is None else float(spot_price_per_hour),
        float(spot_interruptions_per_hour),
    )
    return str(name), {str(r): _plain(v) for r, v in capacity.items()}, float(price_per_hour), markets


@transaction.atomic
def vm_type_create(
    *,
    team: Team,
    user: Any,
    name: Any,
    capacity: Any,
    price_per_hour: Any,
    description: Any = "",
    reserved_price_per_hour: Any = None,
    spot_price_per_hour: Any = None,
    spot_interruptions_per_hour: Any = 0.0,
) -> VMType:
    """A VM type of the team's catalogue; reserved and spot prices are optional (version 4)."""
    require_member(user, team)
    name, capacity, price, markets = vm_type_validate(
        name=name, capacity=capacity, price_per_hour=price_per_hour,
        reserved_price_per_hour=reserved_price_per_hour, spot_price_per_hour=spot_price_per_hour,
        spot_interruptions_per_hour=spot_interruptions_per_hour,
    )
    description = clean_description(description)
    check_name_free(VMType, team, name)
    with name_kept_free(VMType, name):
        return VMType.objects.create(
            team=team,
            name=name,
            capacity=capacity,
            price_per_hour=price,
            **asdict(markets),
            description=description,
            created_by=user,
        )


@transaction.atomic
def vm_type_update(
    *,
    vm_type: VMType,
    user: Any,
    name: Any = UNSET,
    capacity: Any = UNSET,
    price_per_hour: Any = UNSET,
    description: Any = UNSET,
    reserved_price_per_hour: Any = UNSET,
    spot_price_per_hour: Any = UNSET,
    spot_interruptions_per_hour: Any = UNSET,
) -> VMType:
    """Change a VM type; clusters that use it must keep every resource they model, and a
    reserved or spot price while some cluster has reserved or spot VMs of it.

    Runs already made keep their own copy of the scenario, so they do not change.
    """
    from planner.scenarios.models import ClusterEntry  # scenarios depend on the catalogue

    require_can_change(user, vm_type.team_id, vm_type.created_by_id, what="this VM type")
    def given(value: Any, field: str) -> Any:
        return getattr(vm_type, field) if value is UNSET else value

    new_name, new_capacity, new_price, new_markets = vm_type_validate(
        name=given(name, "name"),
        capacity=given(capacity, "capacity"),
        price_per_hour=given(price_per_hour, "price_per_hour"),
        reserved_price_per_hour=given(reserved_price_per_hour, "reserved_price_per_hour"),
        spot_price_per_hour=given(spot_price_per_hour, "spot_price_per_hour"),
        spot_interruptions_per_hour=given(spot_interruptions_per_hour, "spot_interruptions_per_hour"),
    )
    new_description = vm_type.description if description is UNSET else clean_description(description)
    if new_name != vm_type.name:
        check_name_free(VMType, vm_type.team_id, new_name, exclude_pk=vm_type.pk)
    errors = []
    for entry in (
        ClusterEntry.objects.filter(vm_type=vm_type).select_related("cluster").order_by("cluster__name")
    ):
        missing = [r for r in entry.cluster.resources if r not in new_capacity]
        if missing:
            errors.append(
                FieldError(
                    f"capacity.{missing[0]}",
                    f"is required: cluster {entry.cluster.name!r} uses this VM type and models "
                    f"{', '.join(missing)}",
                )
            )
        for field, market, count in (("reserved_price_per_hour", "reserved", entry.reserved_count),
                                     ("spot_price_per_hour", "spot", entry.spot_count)):
            if count and getattr(new_markets, field) is None:
                errors.append(FieldError(field, f"is required: cluster {entry.cluster.name!r} has {count} "
                                                f"{market} VMs of this type"))
    if errors:
        raise InputError(errors)
    vm_type.name, vm_type.capacity, vm_type.price_per_hour = new_name, new_capacity, new_price
    for field, value in asdict(new_markets).items():
        setattr(vm_type, field, value)
    vm_type.description = new_description
    with name_kept_free(VMType, new_name):
        vm_type.save()
    return vm_type


@transaction.atomic
def vm_type_delete(*, vm_type: VMType, user: Any) -> None:
    """Delete a VM type that no cluster uses."""
    require_can_change(user, vm_type.team_id, vm_type.created_by_id, what="this VM type")
    clusters = sorted({e.cluster.name for e in vm_type.cluster_entries.select_related("cluster")})
    if clusters:
        raise InputError.single(
            "",
            f"VM type {vm_type.name!r} is used by the clusters {', '.join(map(repr, clusters))}; "
            "remove it from them first",
        )
    vm_type.delete()


def vm_types_seed_presets(*, team: Team, user: Any) -> list[VMType]:
    """Add the papers' VM types (``scheduling.presets.VM_PRESETS``) the team does not have yet.

    Types whose name the team already uses are left alone, so seeding twice changes nothing.
    """
    existing = set(VMType.objects.filter(team=team).values_list("name", flat=True))
    new: list[VMType] = []
    for description, vm_types in VM_PRESETS.values():
        for t in vm_types:
            if t["name"] in existing:
                continue
            existing.add(t["name"])
            new.append(
                VMType(
                    team=team,
                    name=t["name"],
                    capacity=dict(t["capacity"]),
                    price_per_hour=float(t["price_per_hour"]),
                    description=description,
                    created_by=user,
                )
            )
    return VMType.objects.bulk_create(new)
