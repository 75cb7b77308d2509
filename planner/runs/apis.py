"""Runs API: start, list, read, cancel, delete; progress for polling; results and figures."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.utils.http import content_disposition_header
from drf_spectacular.utils import OpenApiParameter, OpenApiTypes, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from planner.core.apis import team_filter, validated
from planner.core.errors import InputError
from planner.core.pagination import paginated_response
from planner.core.queries import query_choice, query_int
from planner.teams.selectors import team_or_default
from scheduling.exports import scenario_json_text

from . import selectors, services
from .kinds import all_kinds, get_kind
from .models import Run
from .reporting import run_report
from .serializers import (
    RunCreateSerializer,
    RunFiguresSerializer,
    RunListEntrySerializer,
    RunOutputSerializer,
    RunProgressSerializer,
    run_request_serializers,
)

#: The last page a paged figure may be asked for (far beyond any run's jobs).
MAX_FIGURE_PAGE = 1_000_000


class RunListApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("team", int, description="Only this team's runs."),
            OpenApiParameter("status", str, enum=Run.Status.values),
            OpenApiParameter("kind", str, description="Only runs of this kind (e.g. compare)."),
        ],
        responses=RunListEntrySerializer(many=True),
        tags=["runs"],
        description="Newest first. An entry holds the run's own fields, its kind's parameters and "
        "links; the run's detail (`links.detail`) lists its results with their summaries.",
    )
    def get(self, request: Request) -> Response:
        qs = selectors.run_list_entries(
            user=request.user,
            team=team_filter(request),
            status=query_choice(request.query_params, "status", Run.Status.values),
            kind=query_choice(request.query_params, "kind", [k.key for k in all_kinds()]),
        )
        return paginated_response(
            request=request, view=self, queryset=qs, serializer_class=RunListEntrySerializer
        )

    @extend_schema(
        request=PolymorphicProxySerializer(
            component_name="RunStart", serializers=run_request_serializers, resource_type_field_name="kind",
        ),
        responses={201: RunOutputSerializer},
        tags=["runs"],
        summary="Queue a run (by default a scheduler comparison)",
        description=(
            "Give either `cluster` and `workload` ids or a whole `scenario` document (run exactly as "
            "`python -m scheduling` runs the same file), and the parameters of the run's `kind`. Everything "
            "is validated before the run is queued: `schedulers[1]: unknown placement ...`, "
            "`jobs[3].executor.cpu: must be > 0`. The run is made of parts (one per scheduler for a "
            "comparison) that workers execute in parallel."
        ),
    )
    def post(self, request: Request) -> Response:
        data = validated(RunCreateSerializer, request)
        team = data.pop("team", None)
        if data.get("cluster") is None and data.get("workload") is None:
            team = team_or_default(user=request.user, team=team)
        run = services.run_start(user=request.user, team=team, **data)
        run = selectors.run_get(user=request.user, pk=run.pk)
        return Response(
            RunOutputSerializer(run, context={"request": request}).data, status=status.HTTP_201_CREATED
        )


class RunDetailApi(APIView):
    @extend_schema(responses=RunOutputSerializer, tags=["runs"])
    def get(self, request: Request, pk: int) -> Response:
        run = selectors.run_get(user=request.user, pk=pk)
        return Response(RunOutputSerializer(run, context={"request": request}).data)

    @extend_schema(responses={204: None}, tags=["runs"])
    def delete(self, request: Request, pk: int) -> Response:
        services.run_delete(run=selectors.run_get(user=request.user, pk=pk), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RunCancelApi(APIView):
    @extend_schema(
        request=None, responses=RunOutputSerializer, tags=["runs"], summary="Cancel a queued or running run"
    )
    def post(self, request: Request, pk: int) -> Response:
        services.run_cancel(run=selectors.run_get(user=request.user, pk=pk), user=request.user)
        run = selectors.run_get(user=request.user, pk=pk)
        return Response(RunOutputSerializer(run, context={"request": request}).data)


class RunProgressApi(APIView):
    @extend_schema(
        responses=RunProgressSerializer, tags=["runs"], summary="Status and progress of the run and its parts"
    )
    def get(self, request: Request, pk: int) -> Response:
        row = selectors.run_progress(user=request.user, pk=pk)
        row["finished"] = row["status"] in Run.FINISHED
        return Response(RunProgressSerializer(row).data)


class RunResultApi(APIView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        tags=["runs"],
        summary="One variant's full result document (a comparison's: docs/results.md)",
    )
    def get(self, request: Request, pk: int, variant: str) -> HttpResponseBase:
        # The stored text, its packed columns written out one at a time as they are sent:
        # parsing a big run's document to write it out again took seconds and gigabytes of a
        # web worker.
        chunks = selectors.run_result_chunks(user=request.user, run_pk=pk, variant=variant)
        return StreamingHttpResponse((chunk.encode() for chunk in chunks), content_type="application/json")


class RunFiguresApi(APIView):
    @extend_schema(responses=RunFiguresSerializer, tags=["runs"], summary="The run's Plotly figures")
    def get(self, request: Request, pk: int) -> Response:
        run = selectors.run_with_figures(user=request.user, pk=pk)
        figures, preparing = services.run_figures(run=run)
        return Response(RunFiguresSerializer(
            {"id": run.pk, "status": run.status, "figures": figures, "preparing": preparing}
        ).data)


class RunFigurePageApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("figure", str, description="A paged figure's key, e.g. gantt:edf-bfd."),
            OpenApiParameter("page", int, description="0 is the first page (the one in /figures/)."),
        ],
        responses={200: OpenApiTypes.OBJECT},
        tags=["runs"],
        summary="One page of a paged figure (a Gantt chart's later jobs)",
    )
    def get(self, request: Request, pk: int) -> Response:
        run = selectors.run_get(user=request.user, pk=pk)
        key = request.query_params.get("figure") or ""
        page = query_int(request.query_params, "page", default=0, maximum=MAX_FIGURE_PAGE)

        def load(variant: str) -> Any:
            return selectors.run_result_get(user=request.user, run_pk=pk, variant=variant).result

        try:
            figure = get_kind(run.kind).figure_page(
                key, page, load=load, variants=list(selectors.run_summaries(run)),
                currency=selectors.run_currency(run),
            )
        except ValueError as exc:
            raise InputError.single("page", str(exc)) from None
        if figure is None:
            raise Http404(f"No paged figure {key!r} in this run.")
        return Response(figure)


class RunScenarioApi(APIView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT}, tags=["runs"], summary="The scenario document the run used"
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        run = selectors.run_with_scenario(user=request.user, pk=pk)
        if run.jobs_stored:
            # A run that keeps its jobs apart has them written a chunk at a time (the same JSON
            # value, indented as the workload's export writes it): hundreds of MB as one value
            # would not fit a web worker's memory, and one rule serves every such run.
            head, chunks = selectors.run_scenario_chunked(run)
            return StreamingHttpResponse(
                (piece.encode() for piece in scenario_json_text(head, chunks)),
                content_type="application/json; charset=utf-8",
            )
        return Response(selectors.run_scenario_document(run))  # stored whole: no job read apart


class RunReportApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("fmt", str, OpenApiParameter.PATH, description="csv, xlsx or pdf (per kind)"),
            OpenApiParameter(
                "baseline", str, description="Variant to compute savings against (default: the run's)."
            ),
        ],
        responses={(200, "application/octet-stream"): OpenApiTypes.BINARY},
        tags=["runs"],
        summary="Download the run's cost report (CSV, XLSX or PDF)",
    )
    def get(self, request: Request, pk: int, fmt: str) -> HttpResponse:
        run = selectors.run_get(user=request.user, pk=pk)
        report = run_report(run=run, fmt=fmt, baseline=request.query_params.get("baseline"),
                            currency=selectors.run_currency(run))
        response = HttpResponse(report.body, content_type=report.content_type)
        response["Content-Disposition"] = content_disposition_header(True, report.filename)
        response["Cache-Control"] = "private, no-store"
        return response
