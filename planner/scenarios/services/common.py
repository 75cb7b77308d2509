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
    """

    vm_type: VMType
    count: Any
    machine_class: Any = None


def vm_type_entry(
    vm_type: VMType, resources: Sequence[str], count: Any, machine_class: Any = None
) -> dict[str, Any]:
    """A VM type as a document ``vm_types`` entry; capacities of unmodelled resources are left out,
    and ``machine_class`` is written only when there is one."""
    entry = {
        "name": vm_type.name,
        "capacity": {r: vm_type.capacity[r] for r in resources if r in vm_type.capacity},
        "price_per_hour": vm_type.price_per_hour,
        "count": count,
    }
    if machine_class is not None:
        entry["machine_class"] = machine_class
    return entry


def cluster_entries_replace(cluster: Cluster, specs: Sequence[EntrySpec]) -> None:
    cluster.entries.all().delete()
    ClusterEntry.objects.bulk_create(
        ClusterEntry(cluster=cluster, vm_type=s.vm_type, count=int(s.count), position=i,
                     machine_class=s.machine_class)
        for i, s in enumerate(specs)
    )
