"""What the cluster, workload and scenario services share: names taken, VM type entries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from planner.catalogue.models import VMType
from planner.core.errors import InputError
from planner.teams.models import Team

from ..models import Cluster, ClusterEntry, Workload

#: An argument that was not given (``None`` can be a value).
UNSET: Any = object()


def check_unique(
    model: type[Cluster] | type[Workload], team: Team | int, name: str, exclude_pk: int | None = None
) -> None:
    qs = model.objects.filter(team=team, name=name)
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    if qs.exists():
        raise InputError.single("name", f"the team already has a {model._meta.verbose_name} named {name!r}")


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
