"""What the cluster, workload and scenario services share: VM type entries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from planner.catalogue.models import VMType

from ..models import Cluster, ClusterEntry


class EntrySpec(NamedTuple):
    """One entry of a cluster being written: a VM type of the team, its raw count and label.

    ``machine_class`` is the document's ``vm_types[].machine_class`` (``None``: the VM type is
    a class of its own); the library checks it with the count when the cluster is validated.
    ``reserved_count`` and ``spot_count`` (raw too) are how many of the VMs are reserved and
    spot, at the VM type's reserved and spot prices (scenario version 4).
    """

    vm_type: VMType
    count: Any
    machine_class: Any = None
    reserved_count: Any = 0
    spot_count: Any = 0


def uses_market_prices(vm_type: VMType, reserved_count: Any, spot_count: Any) -> bool:
    """Whether the entry writes ``reserved`` or ``spot`` (a version-4 field) into a document."""
    return bool(reserved_count) or (bool(spot_count) and vm_type.spot_price_per_hour is not None)


def vm_type_entry(
    vm_type: VMType,
    resources: Sequence[str],
    count: Any,
    machine_class: Any = None,
    reserved_count: Any = 0,
    spot_count: Any = 0,
) -> dict[str, Any]:
    """A VM type as a document ``vm_types`` entry; capacities of unmodelled resources are left out,
    ``machine_class`` is written only when there is one, ``reserved`` when some VMs are reserved
    and ``spot`` when some are spot and the VM type has a spot price (version 4)."""
    entry = {
        "name": vm_type.name,
        "capacity": {r: vm_type.capacity[r] for r in resources if r in vm_type.capacity},
        "price_per_hour": vm_type.price_per_hour,
        "count": count,
    }
    if machine_class is not None:
        entry["machine_class"] = machine_class
    if reserved_count:
        entry["reserved"] = {"price_per_hour": vm_type.reserved_price_per_hour, "count": reserved_count}
    if spot_count and vm_type.spot_price_per_hour is not None:
        spot: dict[str, Any] = {"price_per_hour": vm_type.spot_price_per_hour, "count": spot_count}
        if vm_type.spot_interruptions_per_hour:
            spot["interruptions_per_hour"] = vm_type.spot_interruptions_per_hour
        entry["spot"] = spot
    return entry


def totals_row(entry: ClusterEntry) -> tuple[Any, ...]:
    """A stored entry as a row of :func:`scheduling.scenario.totals.cluster_totals`: capacity,
    on-demand price, count and the reserved and spot VMs at their prices."""
    doc = vm_type_entry(entry.vm_type, [], entry.count, None, entry.reserved_count, entry.spot_count)
    markets = {k: doc[k] for k in ("reserved", "spot") if k in doc}
    return (entry.vm_type.capacity, entry.vm_type.price_per_hour, entry.count, markets)


def spec_entry(spec: EntrySpec, resources: Sequence[str]) -> dict[str, Any]:
    """:func:`vm_type_entry` of an entry being written."""
    return vm_type_entry(spec.vm_type, resources, spec.count, spec.machine_class, spec.reserved_count,
                         spec.spot_count)


def cluster_entries_replace(cluster: Cluster, specs: Sequence[EntrySpec]) -> None:
    cluster.entries.all().delete()
    ClusterEntry.objects.bulk_create(
        ClusterEntry(cluster=cluster, vm_type=s.vm_type, count=int(s.count), position=i,
                     machine_class=s.machine_class, reserved_count=int(s.reserved_count or 0),
                     spot_count=int(s.spot_count or 0))
        for i, s in enumerate(specs)
    )
