"""Reads of clusters and workloads; lists never load a workload's jobs."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from planner.teams.selectors import team_ids_of
from scheduling.price_lists import PRICE_LISTS, suggested_price

from .models import Cluster, ClusterEntry, Upload, Workload


def cluster_list(*, user: Any, team: Any = None) -> QuerySet[Cluster]:
    """The clusters of the user's teams with their entries and VM types (three queries in all)."""
    qs = (
        Cluster.objects.filter(team_id__in=team_ids_of(user))
        .select_related("created_by")
        .prefetch_related(
            Prefetch(
                "entries", queryset=ClusterEntry.objects.select_related("vm_type").order_by("position", "id")
            )
        )
    )
    if team is not None:
        qs = qs.filter(team=team)
    return qs.order_by("team_id", "name", "id")


def cluster_get(*, user: Any, pk: Any) -> Cluster:
    return get_object_or_404(cluster_list(user=user), pk=pk)


def workload_list(*, user: Any, team: Any = None) -> QuerySet[Workload]:
    """The workloads of the user's teams, without their jobs (``job_count`` says how many)."""
    qs = Workload.objects.filter(team_id__in=team_ids_of(user)).select_related("created_by")
    if team is not None:
        qs = qs.filter(team=team)
    return qs.order_by("team_id", "name", "id")


def workload_get(*, user: Any, pk: Any) -> Workload:
    """One workload; its jobs are read when first used (``Workload.jobs``) or a page at a time."""
    return get_object_or_404(
        Workload.objects.filter(team_id__in=team_ids_of(user)).select_related("created_by"), pk=pk
    )


def upload_list(*, user: Any, team: Any = None) -> QuerySet[Upload]:
    """The uploads of the user's teams, newest first, with their files (two queries)."""
    qs = (
        Upload.objects.filter(team_id__in=team_ids_of(user))
        .select_related("created_by", "workload", "cluster")
        .prefetch_related("files")
    )
    if team is not None:
        qs = qs.filter(team=team)
    return qs.order_by("-created_at", "-id")


def upload_get(*, user: Any, pk: Any) -> Upload:
    return get_object_or_404(upload_list(user=user), pk=pk)


def upload_vm_types(upload: Upload) -> list[dict[str, Any]]:
    """The machine types an upload's files describe, each with its price by every price list
    (:data:`scheduling.price_lists.PRICE_LISTS`): ``suggested_prices: {list name: price}``."""
    out = []
    for entry in (upload.document or {}).get("vm_types") or []:
        capacity = entry.get("capacity") or {}
        out.append({
            "name": entry.get("name"),
            "capacity": capacity,
            "count": entry.get("count", 1),
            "price_per_hour": entry.get("price_per_hour"),
            "suggested_prices": {
                name: suggested_price(capacity, prices) for name, prices in PRICE_LISTS.items()
            },
        })
    return out
