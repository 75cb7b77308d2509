"""What the cluster, workload and scenario services share: VM type entries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from planner.catalogue.models import VMType

from ..models import Cluster, ClusterEntry


def vm_type_entry(vm_type: VMType, resources: Sequence[str], count: Any) -> dict[str, Any]:
    """A VM type as a document ``vm_types`` entry; capacities of unmodelled resources are left out."""
    return {
        "name": vm_type.name,
        "capacity": {r: vm_type.capacity[r] for r in resources if r in vm_type.capacity},
        "price_per_hour": vm_type.price_per_hour,
        "count": count,
    }


def cluster_entries_replace(cluster: Cluster, pairs: list[tuple[VMType, Any]]) -> None:
    cluster.entries.all().delete()
    ClusterEntry.objects.bulk_create(
        ClusterEntry(cluster=cluster, vm_type=t, count=int(count), position=i)
        for i, (t, count) in enumerate(pairs)
    )
