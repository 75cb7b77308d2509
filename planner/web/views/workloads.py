"""Workloads: a list, the editor (frameworks and a jobs grid), CSV, generator, JSON import/export.

The jobs grid is edited in the browser and saved through the API
(``PATCH /api/workloads/<id>/``), whose ``errors`` paths (``jobs[3].executor.cpu``) the
grid highlights row by row. Bulk operations (CSV, the generator, a scenario document) are
plain forms handled here.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from planner.catalogue.selectors import vm_type_list
from planner.core.errors import InputError
from planner.scenarios.models import Workload
from planner.scenarios.selectors import cluster_get, cluster_list, workload_get, workload_list
from planner.scenarios.services import (
    scenario_document,
    scenario_import,
    workload_create,
    workload_delete,
    workload_generate,
    workload_import_csv,
)
from scheduling import ScenarioError

from ..context import follow_team, may_change, team_page
from ..errors import attach_errors
from ..forms import (
    GeneratorForm,
    JobsCsvForm,
    ScenarioUploadForm,
    WorkloadForm,
    parse_json_document,
    read_upload,
)


@team_page
@require_GET
def workload_index(request: HttpRequest) -> HttpResponse:
    workloads = list(workload_list(user=request.user, team=request.team))  # type: ignore[attr-defined]
    return render(request, "web/workload_list.html", {"workloads": workloads})


@team_page
@require_http_methods(["GET", "POST"])
def workload_new(request: HttpRequest) -> HttpResponse:
    form = WorkloadForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            workload = workload_create(team=request.team, user=request.user, **form.cleaned_data)  # type: ignore[attr-defined]
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc)
        else:
            messages.success(request, f"Created workload “{workload.name}”. Add jobs below.")
            return redirect("web:workload-edit", pk=workload.pk)
    return render(request, "web/workload_new.html", {"form": form}, status=400 if form.errors else 200)


def _workload_without_jobs(request: HttpRequest, pk: int) -> Workload:
    """The workload for the editor page; its jobs are fetched by the page from the API."""
    return get_object_or_404(workload_list(user=request.user), pk=pk)


def _editor(
    request: HttpRequest,
    workload: Workload,
    *,
    csv_form: JobsCsvForm | None = None,
    generator_form: GeneratorForm | None = None,
    status: int = 200,
) -> HttpResponse:
    team = request.team  # type: ignore[attr-defined]
    can_change = may_change(request, workload)
    vm_types = list(vm_type_list(user=request.user, team=team).values_list("name", flat=True))
    clusters = list(cluster_list(user=request.user, team=team).values_list("pk", "name"))
    return render(request, "web/workload_edit.html", {
        "workload": workload,
        "can_change": can_change,
        "clusters": clusters,
        "csv_form": csv_form or JobsCsvForm(),
        "generator_form": generator_form or GeneratorForm(resources=list(workload.resources)),
        "open_panel": "csv" if csv_form is not None else "generator" if generator_form is not None else "",
        "editor_config": {
            "id": workload.pk,
            "api": reverse("api:workload-detail", args=[workload.pk]),
            "resources": list(workload.resources),
            "frameworks": workload.frameworks,
            "vm_types": vm_types,
            "can_change": can_change,
            "job_count": workload.job_count,
        },
    }, status=status)


@team_page
@require_GET
def workload_edit(request: HttpRequest, pk: int) -> HttpResponse:
    workload = _workload_without_jobs(request, pk)
    follow_team(request, workload.team_id)
    return _editor(request, workload)


@team_page
@require_POST
def workload_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Add (or replace) jobs from pasted or uploaded CSV, in the planner's or RM-Simulator's format."""
    workload = workload_get(user=request.user, pk=pk)
    follow_team(request, workload.team_id)
    form = JobsCsvForm(request.POST, request.FILES)
    if form.is_valid():
        source = "file" if form.cleaned_data.get("file") else "csv"
        try:
            text = form.cleaned_data["csv"] if source == "csv" else read_upload(form.cleaned_data["file"], "file")
            before = workload.job_count
            workload = workload_import_csv(
                workload=workload, user=request.user, text=text, format=form.cleaned_data["format"],
                replace=form.cleaned_data["mode"] == "replace",
            )
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc, lambda path: "format" if path == "format" else source)
        else:
            added = workload.job_count - (0 if form.cleaned_data["mode"] == "replace" else before)
            messages.success(request, f"Imported {added:,} jobs; the workload now has {workload.job_count:,}.")
            return redirect("web:workload-edit", pk=workload.pk)
    return _editor(request, _workload_without_jobs(request, pk), csv_form=form, status=400)


@team_page
@require_POST
def workload_generator(request: HttpRequest, pk: int) -> HttpResponse:
    """Replace the jobs with synthetic ones (the same settings and seed give the same jobs)."""
    workload = workload_get(user=request.user, pk=pk)
    follow_team(request, workload.team_id)
    form = GeneratorForm(request.POST, resources=list(workload.resources))
    if form.is_valid():
        seed, spec = form.spec()
        try:
            workload = workload_generate(workload=workload, user=request.user, seed=seed, spec=spec)
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc, form.field_for)
        else:
            messages.success(request, f"Generated {workload.job_count:,} jobs (seed {seed}).")
            return redirect("web:workload-edit", pk=workload.pk)
    return _editor(request, _workload_without_jobs(request, pk), generator_form=form, status=400)


@team_page
@require_GET
def workload_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The scenario document of this workload on a cluster, as a JSON download."""
    workload = workload_get(user=request.user, pk=pk)
    follow_team(request, workload.team_id)
    raw = request.GET.get("cluster", "")
    if not raw.isdigit():
        messages.error(request, "Choose the cluster to export the workload with.")
        return redirect("web:workload-edit", pk=workload.pk)
    cluster = cluster_get(user=request.user, pk=int(raw))
    try:
        doc = scenario_document(cluster, workload)
    except (InputError, ScenarioError) as exc:
        errors = getattr(exc, "errors", [])
        shown = "; ".join(str(e) for e in errors[:5]) + (f" (and {len(errors) - 5} more)" if len(errors) > 5 else "")
        messages.error(request, f"This workload does not fit cluster “{cluster.name}”: {shown}")
        return redirect("web:workload-edit", pk=workload.pk)
    body = json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False).encode()
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"scenario-{slugify(workload.name) or workload.pk}-on-{slugify(cluster.name) or cluster.pk}.json"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@team_page
@require_POST
def workload_remove(request: HttpRequest, pk: int) -> HttpResponse:
    workload = _workload_without_jobs(request, pk)
    follow_team(request, workload.team_id)
    workload_delete(workload=workload, user=request.user)
    messages.success(request, f"Deleted workload “{workload.name}”. Runs made from it keep their copy of the scenario.")
    return redirect("web:workloads")


@team_page
@require_http_methods(["GET", "POST"])
def scenario_upload(request: HttpRequest) -> HttpResponse:
    """A scenario document becomes a new cluster and a new workload of the current team."""
    form = ScenarioUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        source = "file" if form.cleaned_data.get("file") else "document"
        try:
            text: Any = form.cleaned_data["document"] if source == "document" else read_upload(
                form.cleaned_data["file"], "file"
            )
            doc = parse_json_document(text, source)
            outcome = scenario_import(
                team=request.team, user=request.user, doc=doc, name=form.cleaned_data["name"] or None  # type: ignore[attr-defined]
            )
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc, lambda path: "name" if path == "name" else source)
        else:
            parts = [f"Created cluster “{outcome.cluster.name}” and workload “{outcome.workload.name}”."]
            if outcome.vm_types_created:
                parts.append(f"New VM types: {', '.join(outcome.vm_types_created)}.")
            if outcome.vm_types_renamed:
                parts.append("Renamed (the name was taken by a different VM type): " + ", ".join(
                    f"{old} → {new}" for old, new in outcome.vm_types_renamed.items()) + ".")
            messages.success(request, " ".join(parts))
            return redirect("web:workload-edit", pk=outcome.workload.pk)
    return render(request, "web/scenario_upload.html", {"form": form}, status=400 if form.errors else 200)
