"""Clusters, workloads and scenario import/export API."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, OpenApiTypes, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from planner.core.apis import refuse_unknown_fields, request_object, team_filter, validated
from planner.core.errors import InputError, PayloadTooLarge
from planner.core.pagination import paginated_response
from planner.core.queries import query_id
from planner.teams.selectors import team_or_default
from scheduling.importers import IMPORTERS

from . import selectors, services
from .jobstore import PAGE_SIZE_MAX, jobs_page
from .serializers import (
    ClusterInputSerializer,
    ClusterOutputSerializer,
    ImporterSerializer,
    JobsPageSerializer,
    ScenarioImportOutputSerializer,
    ScenarioImportSerializer,
    UploadInputSerializer,
    UploadOutputSerializer,
    UploadSaveSerializer,
    WorkloadDetailOutputSerializer,
    WorkloadDetailSavedOutputSerializer,
    WorkloadGenerateSerializer,
    WorkloadImportCsvSerializer,
    WorkloadInputSerializer,
    WorkloadOutputSerializer,
    WorkloadSavedOutputSerializer,
)

TEAM_PARAM = OpenApiParameter("team", int, description="Only this team's objects.")


# --------------------------------------------------------------------------- clusters


class ClusterListApi(APIView):
    @extend_schema(parameters=[TEAM_PARAM], responses=ClusterOutputSerializer(many=True), tags=["clusters"])
    def get(self, request: Request) -> Response:
        qs = selectors.cluster_list(user=request.user, team=team_filter(request))
        return paginated_response(
            request=request, view=self, queryset=qs, serializer_class=ClusterOutputSerializer
        )

    @extend_schema(
        request=ClusterInputSerializer, responses={201: ClusterOutputSerializer}, tags=["clusters"]
    )
    def post(self, request: Request) -> Response:
        data = validated(ClusterInputSerializer, request)
        team = team_or_default(user=request.user, team=data.pop("team", None))
        cluster = services.cluster_create(team=team, user=request.user, **data)
        return Response(
            ClusterOutputSerializer(selectors.cluster_get(user=request.user, pk=cluster.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class ClusterDetailApi(APIView):
    @extend_schema(responses=ClusterOutputSerializer, tags=["clusters"])
    def get(self, request: Request, pk: int) -> Response:
        return Response(ClusterOutputSerializer(selectors.cluster_get(user=request.user, pk=pk)).data)

    @extend_schema(request=ClusterInputSerializer, responses=ClusterOutputSerializer, tags=["clusters"])
    def put(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=False)

    @extend_schema(request=ClusterInputSerializer, responses=ClusterOutputSerializer, tags=["clusters"])
    def patch(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=True)

    def _update(self, request: Request, pk: int, *, partial: bool) -> Response:
        cluster = selectors.cluster_get(user=request.user, pk=pk)
        data = validated(ClusterInputSerializer, request, partial=partial)
        data.pop("team", None)
        services.cluster_update(cluster=cluster, user=request.user, **data)
        return Response(ClusterOutputSerializer(selectors.cluster_get(user=request.user, pk=pk)).data)

    @extend_schema(responses={204: None}, tags=["clusters"])
    def delete(self, request: Request, pk: int) -> Response:
        services.cluster_delete(cluster=selectors.cluster_get(user=request.user, pk=pk), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClusterExportApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "workload", int, required=True, description="The workload to run on this cluster."
            ),
            OpenApiParameter("download", bool, description="Send as a file attachment."),
        ],
        responses={200: OpenApiTypes.OBJECT},
        tags=["scenarios"],
        summary="The scenario document of this cluster and a workload",
    )
    def get(self, request: Request, pk: int) -> Response:
        cluster = selectors.cluster_get(user=request.user, pk=pk)
        workload_id = query_id(request.query_params, "workload", what="workload")
        if workload_id is None:
            raise InputError.single("workload", "is required: ?workload=<id>")
        workload = selectors.workload_get(user=request.user, pk=workload_id)
        doc = services.scenario_document(cluster, workload)
        response = Response(doc)
        if request.query_params.get("download") in ("1", "true", "yes"):
            response["Content-Disposition"] = (
                f'attachment; filename="scenario-{cluster.pk}-{workload.pk}.json"'
            )
        return response


# --------------------------------------------------------------------------- workloads


class WorkloadListApi(APIView):
    @extend_schema(parameters=[TEAM_PARAM], responses=WorkloadOutputSerializer(many=True), tags=["workloads"])
    def get(self, request: Request) -> Response:
        qs = selectors.workload_list(user=request.user, team=team_filter(request))
        return paginated_response(
            request=request, view=self, queryset=qs, serializer_class=WorkloadOutputSerializer
        )

    @extend_schema(
        request=WorkloadInputSerializer,
        responses={201: WorkloadDetailSavedOutputSerializer},
        tags=["workloads"],
    )
    def post(self, request: Request) -> Response:
        data = validated(WorkloadInputSerializer, request)
        team = team_or_default(user=request.user, team=data.pop("team", None))
        workload = services.workload_create(team=team, user=request.user, **data)
        return Response(WorkloadDetailSavedOutputSerializer(workload).data, status=status.HTTP_201_CREATED)


class WorkloadDetailApi(APIView):
    @extend_schema(responses=WorkloadDetailOutputSerializer, tags=["workloads"])
    def get(self, request: Request, pk: int) -> Response:
        return Response(WorkloadDetailOutputSerializer(selectors.workload_get(user=request.user, pk=pk)).data)

    @extend_schema(
        request=WorkloadInputSerializer, responses=WorkloadDetailSavedOutputSerializer, tags=["workloads"]
    )
    def put(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=False)

    @extend_schema(
        request=WorkloadInputSerializer, responses=WorkloadDetailSavedOutputSerializer, tags=["workloads"]
    )
    def patch(self, request: Request, pk: int) -> Response:
        return self._update(request, pk, partial=True)

    def _update(self, request: Request, pk: int, *, partial: bool) -> Response:
        workload = selectors.workload_get(user=request.user, pk=pk)
        data = validated(WorkloadInputSerializer, request, partial=partial)
        data.pop("team", None)
        workload = services.workload_update(workload=workload, user=request.user, **data)
        return Response(WorkloadDetailSavedOutputSerializer(workload).data)

    @extend_schema(responses={204: None}, tags=["workloads"])
    def delete(self, request: Request, pk: int) -> Response:
        services.workload_delete(workload=selectors.workload_get(user=request.user, pk=pk), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WorkloadGenerateApi(APIView):
    @extend_schema(
        request=WorkloadGenerateSerializer,
        responses=WorkloadSavedOutputSerializer,
        tags=["workloads"],
        summary="Replace the jobs with synthetic ones (same seed, same jobs)",
    )
    def post(self, request: Request, pk: int) -> Response:
        workload = selectors.workload_get(user=request.user, pk=pk)
        spec = request_object(request)
        seed = spec.pop("seed", 0)
        cluster_id = spec.pop("cluster", None)
        cluster = None
        if cluster_id is not None:
            if isinstance(cluster_id, bool) or not isinstance(cluster_id, int):
                raise InputError.single("cluster", "must be the id of a cluster")
            cluster = selectors.cluster_get(user=request.user, pk=cluster_id)
        workload = services.workload_generate(
            workload=workload, user=request.user, seed=seed, spec=spec, cluster=cluster
        )
        return Response(WorkloadSavedOutputSerializer(workload).data)


class WorkloadImportCsvApi(APIView):
    @extend_schema(
        request=WorkloadImportCsvSerializer,
        responses=WorkloadSavedOutputSerializer,
        tags=["workloads"],
        summary="Replace (or extend) the jobs with those of a file (CSV, or a scenario document)",
        description="Formats (the library's importers): "
        + "; ".join(f"`{i.name}`: {i.help}" for i in IMPORTERS.values())
        + " Errors about imported jobs name the file's line, the job and the column: `line 5 (job j-17), C`.",
    )
    def post(self, request: Request, pk: int) -> Response:
        workload = selectors.workload_get(user=request.user, pk=pk)
        data = validated(WorkloadImportCsvSerializer, request)
        text = data["csv"] if "csv" in data else _read_upload(data["file"])
        workload = services.workload_import(
            workload=workload,
            user=request.user,
            text=text,
            format=data["format"],
            replace=data["replace"],
            options=data["options"],
        )
        return Response(WorkloadSavedOutputSerializer(workload).data)


def _read_upload(upload: Any) -> str:
    limit = int(settings.PLANNER_MAX_BODY_BYTES)
    if upload.size > limit:
        raise PayloadTooLarge()
    services.inline_import_check(int(upload.size or 0), "file")
    try:
        return bytes(upload.read()).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError.single("file", "must be UTF-8 text") from None


# --------------------------------------------------------------------------- scenarios


class ScenarioImportApi(APIView):
    @extend_schema(
        request=ScenarioImportSerializer,
        responses={201: ScenarioImportOutputSerializer},
        parameters=[
            OpenApiParameter(
                "team", int, description="With a bare document: the team (default: your first)."
            ),
            OpenApiParameter(
                "name", str, description="With a bare document: the name (default: the document's)."
            ),
        ],
        tags=["scenarios"],
        summary="A cluster and a workload from a scenario document",
        description=(
            "The body is either a scenario document itself (as the CLI reads it) or "
            '`{"scenario": <document>, "team": id, "name": "..."}`. Errors inside the document have paths '
            "relative to it (`jobs[3].executor.cpu`)."
        ),
    )
    def post(self, request: Request) -> Response:
        services.inline_import_check(int(request.META.get("CONTENT_LENGTH") or 0), "scenario")
        body = request_object(request)
        if "scenario" not in body:  # a bare document: it has no "scenario" field of its own
            params = request.query_params
            body = {"scenario": body, "team": params.get("team"), "name": params.get("name")}
        serializer = ScenarioImportSerializer(data=body, context={"request": request})
        refuse_unknown_fields(serializer, body)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        team = team_or_default(user=request.user, team=data.get("team"))
        outcome = services.scenario_import(
            team=team, user=request.user, doc=data["scenario"], name=data.get("name")
        )
        payload = {
            "cluster": selectors.cluster_get(user=request.user, pk=outcome.cluster.pk),
            "workload": outcome.workload,
            "vm_types_created": outcome.vm_types_created,
            "vm_types_reused": outcome.vm_types_reused,
            "vm_types_renamed": outcome.vm_types_renamed,
            "warnings": outcome.warnings,
        }
        return Response(ScenarioImportOutputSerializer(payload).data, status=status.HTTP_201_CREATED)


class WorkloadJobsApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("page", int, description="The page, from 1 (default 1)."),
            OpenApiParameter(
                "page_size", int, description=f"Jobs per page (default 100, at most {PAGE_SIZE_MAX:,})."
            ),
        ],
        responses=JobsPageSerializer,
        tags=["workloads"],
        summary="One page of the workload's jobs",
        description="Reads only the stored chunk (or two) that hold the page, whatever the workload's size.",
    )
    def get(self, request: Request, pk: int) -> Response:
        workload = selectors.workload_get(user=request.user, pk=pk)
        page = _positive(request.query_params.get("page"), "page", 1)
        size = min(_positive(request.query_params.get("page_size"), "page_size", 100), PAGE_SIZE_MAX)
        offset = (page - 1) * size
        jobs = jobs_page(workload, offset=offset, limit=size)

        def link(number: int) -> str:
            return request.build_absolute_uri(
                f"{request.path}?{urlencode({'page': number, 'page_size': size})}"
            )

        data = {
            "count": workload.job_count,
            "offset": offset,
            "next": link(page + 1) if offset + size < workload.job_count else None,
            "previous": link(page - 1) if page > 1 else None,
            "results": jobs,
        }
        return Response(JobsPageSerializer(data).data)


def _positive(raw: Any, name: str, default: int) -> int:
    if raw in (None, ""):
        return default
    if not str(raw).isdigit() or int(raw) < 1:
        raise InputError.single(name, "must be a whole number >= 1")
    return int(raw)


# --------------------------------------------------------------------------- uploads


class ImporterListApi(APIView):
    @extend_schema(responses=ImporterSerializer(many=True), tags=["uploads"],
                   summary="The input formats an upload may name, with their options")
    def get(self, request: Request) -> Response:
        return Response(ImporterSerializer(list(IMPORTERS.values()), many=True).data)


class UploadListApi(APIView):
    @extend_schema(parameters=[TEAM_PARAM], responses=UploadOutputSerializer(many=True), tags=["uploads"])
    def get(self, request: Request) -> Response:
        qs = selectors.upload_list(user=request.user, team=team_filter(request))
        return paginated_response(
            request=request, view=self, queryset=qs, serializer_class=UploadOutputSerializer
        )

    @extend_schema(
        request={"multipart/form-data": UploadInputSerializer},
        responses={202: UploadOutputSerializer},
        tags=["uploads"],
        summary="Upload files to import as a workload, in the background",
        description="The request only stores the files and queues the import; follow the upload "
        "(`GET /api/uploads/<id>/`) from `received` through `reading` (with `progress`) to `ready` "
        "(a preview of the jobs and of the machine types, to price) or `failed` (errors naming the "
        "file and line), then `POST /api/uploads/<id>/save/`. Formats: "
        + "; ".join(f"`{i.name}`: {i.help}" for i in IMPORTERS.values()),
    )
    def post(self, request: Request) -> Response:
        data = validated(UploadInputSerializer, request)
        team = team_or_default(user=request.user, team=data.pop("team", None))
        upload = services.upload_create(team=team, user=request.user, **data)
        return Response(
            UploadOutputSerializer(selectors.upload_get(user=request.user, pk=upload.pk)).data,
            status=status.HTTP_202_ACCEPTED,
        )


class UploadDetailApi(APIView):
    @extend_schema(responses=UploadOutputSerializer, tags=["uploads"])
    def get(self, request: Request, pk: int) -> Response:
        return Response(UploadOutputSerializer(selectors.upload_get(user=request.user, pk=pk)).data)

    @extend_schema(responses={204: None}, tags=["uploads"])
    def delete(self, request: Request, pk: int) -> Response:
        services.upload_delete(upload=selectors.upload_get(user=request.user, pk=pk), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class UploadSaveApi(APIView):
    @extend_schema(
        request=UploadSaveSerializer,
        responses={201: UploadOutputSerializer},
        tags=["uploads"],
        summary="Save a ready upload as a workload (and its machines as VM types and a cluster)",
    )
    def post(self, request: Request, pk: int) -> Response:
        upload = selectors.upload_get(user=request.user, pk=pk)
        data = validated(UploadSaveSerializer, request)
        services.upload_save(upload=upload, user=request.user, **data)
        return Response(
            UploadOutputSerializer(selectors.upload_get(user=request.user, pk=pk)).data,
            status=status.HTTP_201_CREATED,
        )
