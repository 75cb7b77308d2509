"""Clusters: a list, and an editor of (VM type, count, machine class) rows with live totals."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from planner.catalogue.selectors import vm_type_list
from planner.core.errors import InputError
from planner.scenarios.models import Cluster
from planner.scenarios.selectors import cluster_get, cluster_list
from planner.scenarios.services import cluster_create, cluster_delete, cluster_update
from planner.scenarios.services.common import totals_row
from scheduling import ScenarioError
from scheduling.scenario.totals import cluster_totals

from ..context import TeamRequest, follow_team, may_change, team_page
from ..errors import attach_errors, split_rows
from ..forms import CLUSTER_OPTIONS, MACHINE_CLASS_HELP, ClusterForm, entries_for_service, entry_rows


def _with_totals(cluster: Cluster) -> Cluster:
    cluster.totals = cluster_totals(  # type: ignore[attr-defined]  # shown by the template
        totals_row(e) for e in cluster.entries.all()
    )
    return cluster


@team_page
@require_GET
def cluster_index(request: TeamRequest) -> HttpResponse:
    clusters = [_with_totals(c) for c in cluster_list(user=request.user, team=request.team)]
    return render(request, "web/cluster_list.html", {"clusters": clusters})


def _initial(cluster: Cluster) -> dict[str, Any]:
    initial: dict[str, Any] = {
        "name": cluster.name, "description": cluster.description, "resources": ", ".join(cluster.resources),
    }
    initial.update({k: v for k, v in cluster.options.items() if k in CLUSTER_OPTIONS})
    return initial


def _editor(
    request: TeamRequest, cluster: Cluster | None, form: ClusterForm, rows: list[dict[str, Any]],
    *, entries_errors: list[str] | None = None, status: int = 200,
) -> HttpResponse:
    vm_types = list(vm_type_list(user=request.user, team=request.team))
    return render(
        request,
        "web/cluster_edit.html",
        {
            "cluster": cluster,
            "form": form,
            "rows": rows,
            "entries_errors": entries_errors or [],
            "machine_class_help": MACHINE_CLASS_HELP,
            "vm_types": vm_types,
            "vm_type_data": [
                {"id": t.pk, "name": t.name, "capacity": t.capacity, "price_per_hour": t.price_per_hour}
                for t in vm_types
            ],
            "can_change": cluster is None or may_change(request, cluster),
            "other_options": {
                k: v for k, v in (cluster.options if cluster else {}).items() if k not in CLUSTER_OPTIONS
            },
        },
        status=status,
    )


def _save(request: TeamRequest, cluster: Cluster | None) -> HttpResponse:
    form = ClusterForm(request.POST)
    rows = entry_rows(request.POST)
    entries_errors: list[str] = []
    if form.is_valid():
        kwargs = {
            "name": form.cleaned_data["name"],
            "description": form.cleaned_data["description"],
            "resources": form.resource_list(),
            "options": form.options(cluster.options if cluster else None),
            "entries": entries_for_service(rows),
        }
        try:
            if cluster is None:
                cluster = cluster_create(team=request.team, user=request.user, **kwargs)
                messages.success(request, f"Created cluster “{cluster.name}”.")
            else:
                cluster_update(cluster=cluster, user=request.user, **kwargs)
                messages.success(request, f"Saved cluster “{cluster.name}”.")
        except (InputError, ScenarioError) as exc:
            row_errors, entries_errors, rest = split_rows(exc, "entries", len(rows))
            for index, errors in row_errors.items():
                rows[index]["errors"] = errors
            attach_errors(form, rest, form.field_for)
        else:
            return redirect("web:cluster-edit", pk=cluster.pk)
    return _editor(request, cluster, form, rows, entries_errors=entries_errors, status=400)


@team_page
@require_http_methods(["GET", "POST"])
def cluster_new(request: TeamRequest) -> HttpResponse:
    if request.method == "POST":
        return _save(request, None)
    form = ClusterForm(initial={"resources": "cpu, mem"})
    empty = {"vm_type": "", "count": "", "machine_class": "", "reserved_count": "", "spot_count": "",
             "errors": []}
    return _editor(request, None, form, [empty])


@team_page
@require_http_methods(["GET", "POST"])
def cluster_edit(request: TeamRequest, pk: int) -> HttpResponse:
    cluster = cluster_get(user=request.user, pk=pk)
    follow_team(request, cluster.team_id)
    if request.method == "POST":
        return _save(request, cluster)
    rows = [
        {"vm_type": str(e.vm_type_id), "count": str(e.count), "machine_class": e.machine_class or "",
         "reserved_count": str(e.reserved_count or ""), "spot_count": str(e.spot_count or ""), "errors": []}
        for e in cluster.entries.all()
    ]
    return _editor(request, cluster, ClusterForm(initial=_initial(cluster)), rows)


@team_page
@require_POST
def cluster_remove(request: TeamRequest, pk: int) -> HttpResponse:
    cluster = cluster_get(user=request.user, pk=pk)
    follow_team(request, cluster.team_id)
    cluster_delete(cluster=cluster, user=request.user)
    messages.success(
        request, f"Deleted cluster “{cluster.name}”. Runs made from it keep their copy of the scenario."
    )
    return redirect("web:clusters")
