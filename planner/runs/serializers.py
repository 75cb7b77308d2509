"""API shapes of runs. The services (and the library) check the values."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.reverse import reverse

from planner.core.fields import ScopedPrimaryKeyField
from planner.scenarios.selectors import cluster_list, workload_list
from planner.teams.serializers import team_field

from .models import Run, RunResult


class RunCreateSerializer(serializers.Serializer):  # type: ignore[type-arg]
    team = team_field(help_text="With an inline scenario: one of your teams (default: your first). "
                      "With a cluster: must be the cluster's team, or omitted.")
    name = serializers.JSONField(required=False, allow_null=True, default=None)
    kind = serializers.JSONField(required=False, default=Run.Kind.COMPARE, help_text='"compare" (the only kind so far)')
    cluster = ScopedPrimaryKeyField(
        scope=lambda user: cluster_list(user=user), label_text="cluster", required=False, allow_null=True
    )
    workload = ScopedPrimaryKeyField(
        scope=lambda user: workload_list(user=user), label_text="workload", required=False, allow_null=True
    )
    scenario = serializers.JSONField(
        required=False, allow_null=True, default=None, help_text="A whole version-1 scenario document, instead of cluster + workload."
    )
    schedulers = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text='Scheduler specs, e.g. ["fifo-consolidate", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"]; '
        "default fifo-consolidate and edf-bfd.",
    )
    options = serializers.JSONField(required=False, allow_null=True, default=None, help_text="SimulationOptions overrides.")
    baseline = serializers.JSONField(required=False, allow_null=True, default=None, help_text="Default: the first scheduler.")
    seed = serializers.JSONField(required=False, default=0)


_SENTINEL = 987654321


def _url(context: dict[str, Any], name: str, pk: int) -> str:
    """``reverse(name, args=[pk])``, resolving the pattern once per response.

    A list of runs needs several links per run; reversing each one costs more than the rest
    of the run's serialisation, so each URL is reversed once with a sentinel id and reused.
    """
    cache = context.setdefault("_url_templates", {})
    if name not in cache:
        cache[name] = str(reverse(name, args=[_SENTINEL], request=context.get("request")))
    return str(cache[name]).replace(str(_SENTINEL), str(pk), 1)


class RunResultSummarySerializer(serializers.Serializer):  # type: ignore[type-arg]
    scheduler = serializers.CharField()
    position = serializers.IntegerField()
    summary = serializers.JSONField()
    url = serializers.SerializerMethodField()

    def get_url(self, result: RunResult) -> str | None:
        request = self.context.get("request")
        return reverse("api:run-result", args=[result.run_id, result.scheduler], request=request)


class RunOutputSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField()
    kind = serializers.CharField()
    status = serializers.CharField()
    progress = serializers.FloatField()
    error = serializers.CharField()
    cancel_requested = serializers.BooleanField()
    scenario_name = serializers.CharField()
    job_count = serializers.IntegerField()
    cluster = serializers.IntegerField(source="cluster_id", allow_null=True)
    workload = serializers.IntegerField(source="workload_id", allow_null=True)
    schedulers = serializers.ListField(child=serializers.CharField())
    baseline = serializers.CharField(allow_null=True)
    seed = serializers.SerializerMethodField()
    options = serializers.SerializerMethodField()
    results = RunResultSummarySerializer(many=True, source="results.all")
    created_by = serializers.CharField(source="created_by.username", default=None)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    links = serializers.SerializerMethodField()

    def get_seed(self, run: Run) -> int:
        return int(run.options.get("seed") or 0)

    def get_options(self, run: Run) -> Any:
        return run.options.get("options")

    def get_links(self, run: Run) -> dict[str, str]:
        return {name: _url(self.context, f"api:run-{name}", run.pk) for name in ("detail", "progress", "figures", "scenario", "cancel")}


class RunProgressSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    status = serializers.CharField()
    progress = serializers.FloatField()
    error = serializers.CharField()
    cancel_requested = serializers.BooleanField()
    finished = serializers.BooleanField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class RunFiguresSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    status = serializers.CharField()
    figures = serializers.JSONField(allow_null=True, help_text="name -> Plotly figure; null until the run succeeds.")
