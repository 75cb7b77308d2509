"""Uploads: files imported as a workload in the background, their progress, preview and save.

The upload page stores the files and queues the import (``services.upload_create``); the
upload's page follows it (``static/planner/upload.js`` polls ``GET /api/uploads/<id>/`` while it
is received or reading, and reloads when it ends), shows the errors naming the file and line,
or the preview (the first jobs, the machine types) with a price per machine type, and saves it
as a workload (``services.upload_save``).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from planner.core.errors import InputError
from planner.scenarios.importing import PREVIEW_JOBS
from planner.scenarios.models import Upload
from planner.scenarios.selectors import upload_get, upload_list, upload_vm_types
from planner.scenarios.services import upload_create, upload_delete, upload_save
from scheduling import ScenarioError

from ..context import TeamRequest, follow_team, may_change, team_page
from ..errors import attach_errors
from ..upload_forms import UploadForm, UploadPricesForm


@team_page
@require_http_methods(["GET", "POST"])
def upload_new(request: TeamRequest) -> HttpResponse:
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            upload = upload_create(
                team=request.team, user=request.user, name=form.cleaned_data["name"],
                format=form.cleaned_data["format"], options=form.importer_options(),
                files=form.cleaned_data["upload"],
            )
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc, form.field_for())
        else:
            return redirect("web:upload-detail", pk=upload.pk)
    uploads = list(upload_list(user=request.user, team=request.team)[:10])
    return render(
        request, "web/upload_new.html", {"form": form, "uploads": uploads},
        status=400 if form.errors else 200,
    )


def _prices_form(upload: Upload, data: object = None) -> UploadPricesForm:
    return UploadPricesForm(data, vm_types=upload_vm_types(upload), initial={"name": upload.name})


def _detail(request: TeamRequest, upload: Upload, form: UploadPricesForm | None = None,
            status: int = 200) -> HttpResponse:
    form = form or _prices_form(upload)
    return render(
        request,
        "web/upload_detail.html",
        {
            "upload": upload,
            "form": form,
            "can_change": may_change(request, upload),
            "preview_columns": _columns(upload),
            "preview_count": PREVIEW_JOBS,
            # Each price input and its price by every price list, for the "Fill prices" button.
            "price_fill": [
                {"input": field.auto_id, "suggested": entry["suggested_prices"]}
                for entry, field in form.price_rows()
            ],
            "poll": {
                "api": reverse("api:upload-detail", args=[upload.pk]),
                "waiting": upload.status in (Upload.Status.RECEIVED, Upload.Status.READING),
            },
        },
        status=status,
    )


def _columns(upload: Upload) -> list[str]:
    """The preview's columns: every key of its jobs, an executor's resources one column each."""
    seen: dict[str, None] = {}
    for job in upload.preview_jobs:
        for key, value in job.items():
            if isinstance(value, dict):
                for sub in value:
                    seen[f"{key}.{sub}"] = None
            else:
                seen[key] = None
    return list(seen)


@team_page
@require_http_methods(["GET", "POST"])
def upload_detail(request: TeamRequest, pk: int) -> HttpResponse:
    """The upload's progress, errors or preview; a POST saves it with the prices given."""
    upload = upload_get(user=request.user, pk=pk)
    follow_team(request, upload.team_id)
    if request.method == "GET":
        return _detail(request, upload)
    form = _prices_form(upload, request.POST)
    if form.is_valid():
        try:
            saved = upload_save(
                upload=upload, user=request.user, name=form.cleaned_data["name"], prices=form.prices()
            )
        except (InputError, ScenarioError) as exc:
            attach_errors(form, exc, form.field_for)
        except PermissionDenied as exc:
            form.add_error(None, str(exc))
        else:
            parts = [f"Saved workload “{saved.workload.name if saved.workload else upload.name}”"
                     f" with {saved.job_count:,} jobs."]
            if saved.cluster is not None:
                parts.append(f"Its machines are cluster “{saved.cluster.name}”.")
            messages.success(request, " ".join(parts))
            return redirect("web:workload-edit", pk=saved.workload_id)
    return _detail(request, upload, form, status=400)


@team_page
@require_POST
def upload_remove(request: TeamRequest, pk: int) -> HttpResponse:
    upload = upload_get(user=request.user, pk=pk)
    follow_team(request, upload.team_id)
    upload_delete(upload=upload, user=request.user)
    messages.success(request, f"Deleted the upload “{upload.name}”.")
    return redirect("web:upload-new")
