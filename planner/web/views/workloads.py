"""Workloads: a list, the editor (frameworks and a jobs grid), imports, generator, JSON import/export.

The jobs grid is edited in the browser, loaded from the API (``GET /api/workloads/<id>/``)
and saved by posting JSON to the editor's own page, which answers with the errors and
warnings both as document paths (``jobs[3].executor.cpu``, for the grid to find the cell)
and as the grid counts them (``job 4 (id j-17): executor.cpu``, to show). Bulk operations
(an importer's file, the generator, a scenario document) are plain forms handled here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from planner.catalogue.selectors import vm_type_list
from planner.core.errors import InputError, field_errors
from planner.core.queries import query_id_or_none
from planner.scenarios.jobstore import INLINE_JOBS_MAX, StoredJobs, job_chunks
from planner.scenarios.models import Workload
from planner.scenarios.selectors import cluster_get, cluster_list, workload_get, workload_list
from planner.scenarios.serializers import WorkloadDetailOutputSerializer
from planner.scenarios.services import (
    inline_import_check,
    scenario_document_chunked,
    scenario_import,
    workload_create,
    workload_delete,
    workload_generate,
    workload_import,
    workload_update,
    workload_update_page,
)
from scheduling import FieldError, ScenarioError
from scheduling.exports import jobs_csv_text, scenario_json_text
from scheduling.scenario import OFFER_POLICIES
from scheduling.scenario.document import DEFAULT_HOLD_S, DEFAULT_OFFER_POLICY, DEFAULT_REFUSE_S

from ..context import TeamRequest, follow_team, may_change, team_page
from ..errors import attach_errors, grid_errors, grid_problems
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
def workload_index(request: TeamRequest) -> HttpResponse:
    workloads = list(workload_list(user=request.user, team=request.team))
    return render(request, "web/workload_list.html", {"workloads": workloads})


@team_page
@require_http_methods(["GET", "POST"])
def workload_new(request: TeamRequest) -> HttpResponse:
    form = WorkloadForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            workload = workload_create(team=request.team, user=request.user, **form.cleaned_data)
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
    request: TeamRequest,
    workload: Workload,
    *,
    csv_form: JobsCsvForm | None = None,
    generator_form: GeneratorForm | None = None,
    status: int = 200,
) -> HttpResponse:
    team = request.team
    can_change = may_change(request, workload)
    vm_types = list(vm_type_list(user=request.user, team=team).values_list("name", flat=True))
    clusters = _clusters(request)
    return render(
        request,
        "web/workload_edit.html",
        {
            "workload": workload,
            "can_change": can_change,
            "clusters": clusters,
            "csv_form": csv_form or JobsCsvForm(),
            "generator_form": generator_form
            or GeneratorForm(resources=list(workload.resources), clusters=clusters),
            "open_panel": "csv"
            if csv_form is not None
            else "generator"
            if generator_form is not None
            else "",
            "editor_config": {
                "id": workload.pk,
                "api": reverse("api:workload-detail", args=[workload.pk]),
                "save": reverse("web:workload-edit", args=[workload.pk]),
                "resources": list(workload.resources),
                "frameworks": workload.frameworks,
                "vm_types": vm_types,
                # A framework's sharing fields (docs/scenario.md, "Version 2"); empty = the default.
                "offer_policies": list(OFFER_POLICIES),
                "sharing_defaults": {
                    "offer_policy": DEFAULT_OFFER_POLICY,
                    "refuse_s": DEFAULT_REFUSE_S,
                    "hold_s": DEFAULT_HOLD_S,
                },
                "can_change": can_change,
                "job_count": workload.job_count,
                # More jobs than the browser should hold: read and saved a page at a time.
                "paged": workload.job_count > INLINE_JOBS_MAX,
                "jobs_api": reverse("api:workload-jobs", args=[workload.pk]),
            },
        },
        status=status,
    )


def _clusters(request: TeamRequest) -> list[tuple[int, str]]:
    return list(cluster_list(user=request.user, team=request.team).values_list("pk", "name"))


def _warn(
    request: HttpRequest, warnings: Sequence[FieldError], jobs: Sequence[Any], frameworks: Sequence[Any]
) -> None:
    """The warnings of a save as one message, counted as the grid counts jobs."""
    if not warnings:
        return
    shown = grid_errors(warnings[:5], jobs, frameworks)
    more = f" (and {len(warnings) - 5} more)" if len(warnings) > 5 else ""
    messages.warning(
        request,
        f"Saved, with {len(warnings)} warning{'s' if len(warnings) != 1 else ''}: "
        + "; ".join(str(w) for w in shown)
        + more,
    )


@team_page
@require_http_methods(["GET", "POST"])
def workload_edit(request: TeamRequest, pk: int) -> HttpResponse:
    """The editor; a POST of JSON (``name``, ``description``, ``frameworks``, ``jobs``) saves it."""
    if request.method == "POST":
        return _workload_save(request, pk)
    workload = _workload_without_jobs(request, pk)
    follow_team(request, workload.team_id)
    return _editor(request, workload)


_SAVED_FIELDS = ("name", "description", "frameworks", "jobs", "page")
_PAGE_FIELDS = ("offset", "count", "jobs")


class _PageJobs(Sequence[Any]):
    """The jobs of a workload as a saved page sees them: the page's own where it lies, none
    elsewhere (for counting its errors as the grid does, ``job 50,004 (id j-50003)``)."""

    def __init__(self, offset: int, jobs: list[Any], total: int):
        self.offset, self.jobs, self.total = offset, jobs, total

    def __len__(self) -> int:
        return max(self.total, self.offset + len(self.jobs))

    def __getitem__(self, index: Any) -> Any:
        k = index - self.offset
        return self.jobs[k] if 0 <= k < len(self.jobs) else {}


def _page(body: dict[str, Any]) -> dict[str, Any]:
    """The ``page`` object of a paged save, checked for its fields."""
    page = body["page"]
    if "jobs" in body:
        raise InputError.single("page", "send the jobs, or a page of them, not both")
    if not isinstance(page, dict):
        raise InputError.single("page", "must be an object of offset, count and jobs")
    problems = [FieldError(f"page.{k}", "unknown field") for k in page if k not in _PAGE_FIELDS]
    problems += [FieldError(f"page.{k}", "is required") for k in _PAGE_FIELDS if k not in page]
    if problems:
        raise InputError(problems)
    return page


def _workload_save(request: HttpRequest, pk: int) -> JsonResponse:
    """Save the editor's JSON; errors and warnings come back with both paths (see the module)."""
    workload = workload_get(user=request.user, pk=pk)
    body: Any = {}
    if request.content_type != "application/json":  # a form's body was read already: no .body
        return JsonResponse({"detail": "The editor saves JSON (Content-Type: application/json).",
                             "errors": [{"path": "", "message": "the body must be application/json"}]},
                            status=415)
    try:
        try:
            text = request.body.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError.single("", "the body must be UTF-8 JSON") from None
        body = parse_json_document(text, "")
        if not isinstance(body, dict):
            raise InputError.single("", "the body must be a JSON object")
        unknown = [FieldError(str(k), "unknown field") for k in body if k not in _SAVED_FIELDS]
        if unknown:
            raise InputError(unknown)
        if "page" in body:
            rest = {k: v for k, v in body.items() if k != "page"}
            workload = workload_update_page(workload=workload, user=request.user, **_page(body), **rest)
        else:
            workload = workload_update(workload=workload, user=request.user, **body)
    except RequestDataTooBig:
        return JsonResponse({"detail": "The workload is larger than the limit.", "errors": []}, status=413)
    except PermissionDenied as exc:
        return JsonResponse(
            {"detail": str(exc) or "You may not change this workload.", "errors": []}, status=403
        )
    except (InputError, ScenarioError) as exc:
        errors = grid_problems(field_errors(exc), *_lists(body, workload))
        return JsonResponse({"detail": "Not saved.", "errors": errors}, status=400)
    data = dict(WorkloadDetailOutputSerializer(workload).data)
    data["warnings"] = grid_problems(workload.warnings, _lists(body, workload)[0], workload.frameworks)
    return JsonResponse(data)


def _lists(body: Any, workload: Workload | None = None) -> tuple[Sequence[Any], list[Any]]:
    """The jobs and frameworks a posted body holds, for labelling its errors (a page's jobs at
    their places in the workload)."""
    page = body.get("page") if isinstance(body, dict) else None
    if isinstance(page, dict) and isinstance(page.get("jobs"), list) and isinstance(page.get("offset"), int):
        total = workload.job_count if workload is not None else 0
        frameworks = body.get("frameworks") if isinstance(body.get("frameworks"), list) else []
        return _PageJobs(page["offset"], page["jobs"], total), frameworks
    if isinstance(body, dict) and "jobs" not in body and workload is not None:
        return StoredJobs(workload), list(workload.frameworks)
    jobs = body.get("jobs") if isinstance(body, dict) else None
    frameworks = body.get("frameworks") if isinstance(body, dict) else None
    return (jobs if isinstance(jobs, list) else [], frameworks if isinstance(frameworks, list) else [])


@team_page
@require_POST
def workload_csv(request: TeamRequest, pk: int) -> HttpResponse:
    """Add (or replace) jobs from pasted or uploaded text, in any format of the importer registry."""
    workload = workload_get(user=request.user, pk=pk)
    follow_team(request, workload.team_id)
    form = JobsCsvForm(request.POST, request.FILES)
    if form.is_valid():
        source = "file" if form.cleaned_data.get("file") else "csv"
        replace = form.cleaned_data["mode"] == "replace"
        before = list(workload.jobs)
        try:
            if source == "file":
                inline_import_check(int(form.cleaned_data["file"].size or 0), "file")
            text = (
                form.cleaned_data["csv"]
                if source == "csv"
                else read_upload(form.cleaned_data["file"], "file")
            )
            workload = workload_import(
                workload=workload,
                user=request.user,
                text=text,
                format=form.cleaned_data["format"],
                replace=replace,
                options=form.importer_options(),
            )
        except (InputError, ScenarioError) as exc:
            # Errors about imported jobs are on their file's line; the others count as the grid does.
            attach_errors(form, grid_errors(field_errors(exc), before), form.field_for(source))
        else:
            added = workload.job_count - (0 if replace else len(before))
            messages.success(
                request, f"Imported {added:,} jobs; the workload now has {workload.job_count:,}."
            )
            _warn(request, workload.warnings, workload.jobs, workload.frameworks)
            return redirect("web:workload-edit", pk=workload.pk)
    return _editor(request, _workload_without_jobs(request, pk), csv_form=form, status=400)


@team_page
@require_POST
def workload_generator(request: TeamRequest, pk: int) -> HttpResponse:
    """Replace the jobs with synthetic ones (the same settings and seed give the same jobs)."""
    workload = workload_get(user=request.user, pk=pk)
    follow_team(request, workload.team_id)
    form = GeneratorForm(request.POST, resources=list(workload.resources), clusters=_clusters(request))
    if form.is_valid():
        seed, spec = form.spec()
        cluster_pk = form.cleaned_data.get("cluster")
        try:
            cluster = cluster_get(user=request.user, pk=cluster_pk) if cluster_pk is not None else None
            workload = workload_generate(
                workload=workload, user=request.user, seed=seed, spec=spec, cluster=cluster
            )
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc, form.field_for)
        else:
            fitted = f", fitted to cluster “{cluster.name}”" if cluster is not None else ""
            messages.success(request, f"Generated {workload.job_count:,} jobs (seed {seed}{fitted}).")
            _warn(request, workload.warnings, workload.jobs, workload.frameworks)
            return redirect("web:workload-edit", pk=workload.pk)
    return _editor(request, _workload_without_jobs(request, pk), generator_form=form, status=400)


@team_page
@require_GET
def workload_export(request: TeamRequest, pk: int) -> HttpResponseBase:
    """The scenario document of this workload on a cluster, as a JSON download."""
    workload = workload_get(user=request.user, pk=pk)
    follow_team(request, workload.team_id)
    cluster_id = query_id_or_none(request.GET, "cluster")
    if cluster_id is None:
        messages.error(request, "Choose the cluster to export the workload with.")
        return redirect("web:workload-edit", pk=workload.pk)
    cluster = cluster_get(user=request.user, pk=cluster_id)
    try:
        head, chunks = scenario_document_chunked(cluster, workload)
    except (InputError, ScenarioError) as exc:
        messages.error(
            request,
            f"This workload does not fit cluster “{cluster.name}”: "
            + _first(grid_errors(field_errors(exc), StoredJobs(workload), workload.frameworks)),
        )
        return redirect("web:workload-edit", pk=workload.pk)
    response = _text_response(scenario_json_text(head, chunks()), workload, "application/json; charset=utf-8")
    filename = (
        f"scenario-{slugify(workload.name) or workload.pk}-on-{slugify(cluster.name) or cluster.pk}.json"
    )
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@team_page
@require_GET
def workload_jobs_csv(request: TeamRequest, pk: int) -> HttpResponseBase:
    """The workload's jobs as the jobs CSV (what the ``jobs`` importer reads), a chunk at a time."""
    workload = _workload_without_jobs(request, pk)
    follow_team(request, workload.team_id)
    text = jobs_csv_text(job_chunks(workload), list(workload.resources))
    response = _text_response(text, workload, "text/csv; charset=utf-8")
    filename = f"jobs-{slugify(workload.name) or workload.pk}.csv"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


def _text_response(pieces: Iterator[str], workload: Workload, content_type: str) -> HttpResponseBase:
    """A download written a piece at a time: a paged workload's (a million jobs are about 200 MB
    of text) is streamed, never one string; a smaller one is sent whole, with its length."""
    if workload.job_count > INLINE_JOBS_MAX:
        return StreamingHttpResponse((p.encode() for p in pieces), content_type=content_type)
    return HttpResponse("".join(pieces).encode(), content_type=content_type)


def _first(errors: Iterable[FieldError], n: int = 5) -> str:
    """The first ``n`` errors (a summary comes first), and how many more there are."""
    errors = list(errors)
    more = f" (and {len(errors) - n} more)" if len(errors) > n else ""
    return "; ".join(str(e) for e in errors[:n]) + more


@team_page
@require_POST
def workload_remove(request: TeamRequest, pk: int) -> HttpResponse:
    workload = _workload_without_jobs(request, pk)
    follow_team(request, workload.team_id)
    workload_delete(workload=workload, user=request.user)
    messages.success(
        request, f"Deleted workload “{workload.name}”. Runs made from it keep their copy of the scenario."
    )
    return redirect("web:workloads")


@team_page
@require_http_methods(["GET", "POST"])
def scenario_upload(request: TeamRequest) -> HttpResponse:
    """A scenario document becomes a new cluster and a new workload of the current team."""
    form = ScenarioUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        source = "file" if form.cleaned_data.get("file") else "document"
        try:
            upload = form.cleaned_data.get("file")
            if upload is not None:
                inline_import_check(int(upload.size or 0), "file")
            text: Any = (
                form.cleaned_data["document"]
                if source == "document"
                else read_upload(upload, "file")
            )
            inline_import_check(len(text), source)
            doc = parse_json_document(text, source)
            outcome = scenario_import(
                team=request.team,
                user=request.user,
                doc=doc,
                name=form.cleaned_data["name"] or None,
            )
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc, lambda path: "name" if path == "name" else source)
        else:
            parts = [f"Created cluster “{outcome.cluster.name}” and workload “{outcome.workload.name}”."]
            if outcome.vm_types_created:
                parts.append(f"New VM types: {', '.join(outcome.vm_types_created)}.")
            if outcome.vm_types_renamed:
                parts.append(
                    "Renamed (the name was taken by a different VM type): "
                    + ", ".join(f"{old} → {new}" for old, new in outcome.vm_types_renamed.items())
                    + "."
                )
            messages.success(request, " ".join(parts))
            _warn(request, outcome.warnings, outcome.workload.jobs, outcome.workload.frameworks)
            return redirect("web:workload-edit", pk=outcome.workload.pk)
    return render(request, "web/scenario_upload.html", {"form": form}, status=400 if form.errors else 200)
