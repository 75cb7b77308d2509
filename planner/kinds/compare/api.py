"""The comparison's API endpoint beyond the shared ones: the replay of a variant at any instant."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, OpenApiTypes, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scheduling.cost.replay import parse_instant

from .selectors import run_replay


class RunReplayApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("variant", str, OpenApiParameter.PATH, description="The variant (a scheduler)."),
            OpenApiParameter(
                "t", float, required=True,
                description="Seconds from the scenario's start: a finite number >= 0. An instant after the "
                "last job's finish shows the end, with `clamped` true and `requested_t_s` as asked.",
            ),
        ],
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description=(
                    "The cluster at `t` (`scheduling.cost.replay`; per resource, values are keyed by "
                    "resource): `t_s`, `requested_t_s`, `clamped`, `end_s`, `scheduler`, `resources`; "
                    "`jobs` (counts: `total`, `not_arrived`, `queued`, `running` — placed and not "
                    "finished —, `booting`, `finished`); `vms`: each VM on (`vm`, `vm_type`, `on_s`, "
                    "`price_per_hour`, `capacity`, `used`, `free`, `executors`: `job`, `framework`, "
                    "`count`, `executor` (per-executor demand), `state` running or booting, `placed_s`, "
                    "`start_s`, `finish_s`); `vms_on`, `vms_on_by_type`; `queue` (`order`, `order_text`, "
                    "`truncated`, `jobs`: `job`, `framework`, `arrival_s`, `waited_s`, `deadline_s` "
                    "absolute, `overdue`, `met_deadline`, `executors`, `executor`); `cost` (`so_far`: "
                    "billed cost accrued by `t`, `rate_per_hour`, `total`); `used`, `capacity_on`, "
                    "`cluster_capacity`, `utilisation`, `utilisation_of_on`; "
                    "`time_axis` (`end_s` of the run, `divisor`, `unit`: the unit of the run's charts)."
                ),
            ),
            400: OpenApiResponse(description="`t` is missing or not a finite number >= 0 (error path: t)."),
        },
        tags=["runs"],
        summary="The cluster at one instant of a variant's result (a replay, no re-simulation)",
    )
    def get(self, request: Request, pk: int, variant: str) -> Response:
        t = parse_instant(request.query_params.get("t"), path="t")
        replay = run_replay(user=request.user, run_pk=pk, variant=variant)
        return Response({**replay.index.snapshot(t), "time_axis": replay.time_axis})
