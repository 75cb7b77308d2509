"""API shapes of runs. The services (and the library) check the values."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from rest_framework import serializers
from rest_framework.reverse import reverse

from planner.core.fields import ScopedPrimaryKeyField
from planner.core.param_serializers import params_serializer
from planner.scenarios.selectors import cluster_list, workload_list
from planner.teams.serializers import team_field

from .kinds import all_kinds, get_kind
from .models import Run, RunResult


class RunRequestSerializer(serializers.Serializer):
    """The fields of a run request that every kind shares: where the scenario comes from, the
    kind and the run's name. The kind's own parameters are declared by the kind (in the library)
    and documented per kind (:func:`run_request_serializers`)."""

    GENERIC = ("team", "name", "kind", "cluster", "workload", "scenario")

    team = team_field(help_text="With an inline scenario: one of your teams (default: your first). "
                      "With a cluster: must be the cluster's team, or omitted.")
    name = serializers.JSONField(required=False, allow_null=True, default=None,
                                 help_text="The run's name (default: the scenario and the variants).")
    # Any JSON value (the kind registry checks it); the stubs allow only an object as the default.
    kind = serializers.JSONField(
        required=False,
        default="compare",  # type: ignore[arg-type]
        help_text="The kind of run (default: compare, a scheduler comparison); the other fields are "
        "its parameters.",
    )
    cluster = ScopedPrimaryKeyField(
        scope=lambda user: cluster_list(user=user), label_text="cluster", required=False, allow_null=True
    )
    workload = ScopedPrimaryKeyField(
        scope=lambda user: workload_list(user=user), label_text="workload", required=False, allow_null=True
    )
    scenario = serializers.JSONField(
        required=False, allow_null=True, default=None,
        help_text="A whole scenario document (docs/scenario.md), instead of cluster + workload.",
    )


class RunCreateSerializer(RunRequestSerializer):
    """A run request as the API reads it: the generic fields, and every other field as the
    kind's parameters (``RunKind.plan`` reads them by the kind's declarations, with paths)."""

    extra_fields = True  # the kind's parameters: the kind refuses those it does not declare

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        validated = super().to_internal_value(data)
        params = {k: validated.pop(k) for k in list(validated) if k not in self.GENERIC}
        if isinstance(data, Mapping):  # the kind's parameters: the kind reads them
            params.update({k: v for k, v in data.items() if k not in self.fields})
        validated["params"] = params
        return validated


def _camel(key: str) -> str:
    return "".join(part.capitalize() for part in key.replace("-", "_").split("_"))


def run_request_serializers() -> dict[str, serializers.Serializer | type[serializers.Serializer]]:
    """One request serializer per registered kind, for the OpenAPI schema: the generic fields and
    the kind's declared parameters (types, ranges, choices, defaults, help), built from the
    same declarations that check them (:mod:`planner.core.param_serializers`)."""
    out: dict[str, serializers.Serializer | type[serializers.Serializer]] = {}
    for kind in all_kinds():
        base = type(f"{_camel(kind.key)}RunBase", (RunRequestSerializer,), {
            "kind": serializers.ChoiceField(choices=[kind.key], help_text=f"{kind.key}: {kind.label}."),
            "__module__": __name__,
        })
        out[kind.key] = params_serializer(f"{_camel(kind.key)}Run", kind.params, base=base,
                                          doc=f"{kind.label}: {kind.__doc__ or ''}".strip())
    return out


_SENTINEL = 987654321


class RunResultSummarySerializer(serializers.Serializer):
    variant = serializers.CharField()
    position = serializers.IntegerField()
    summary = serializers.JSONField()
    url = serializers.SerializerMethodField()

    def get_url(self, result: RunResult) -> str | None:
        request = self.context.get("request")
        return reverse("api:run-result", args=[result.run_id, result.variant], request=request)


class RunListEntrySerializer(serializers.Serializer):
    """A run as the list shows it: its own fields, its kind's (a comparison's schedulers, a sweep's
    number of points) and links. The results' summaries are in its detail (``links.detail``), so
    an entry's size does not grow with the run's results (a 100-point sweep is as small as a
    comparison) and a list reads no result."""

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
    parameters = serializers.JSONField(source="options", help_text="The kind's parameters as validated.")
    created_by = serializers.CharField(source="created_by_name", allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    links = serializers.SerializerMethodField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # One instance serialises every run of a list (``many=True`` makes it the child).
        self._url_templates: dict[str, str] = {}

    def get_links(self, run: Run) -> dict[str, str]:
        return {
            name: self._url(f"api:run-{name}", run.pk)
            for name in ("detail", "progress", "figures", "scenario", "cancel")
        }

    def _url(self, name: str, pk: int) -> str:
        """``reverse(name, args=[pk])``, resolving the pattern once per response.

        A list of runs needs several links per run; reversing each one costs more than the
        rest of the run's serialisation, so each URL is reversed once with a sentinel id and
        reused.
        """
        if name not in self._url_templates:
            url = reverse(name, args=[_SENTINEL], request=self.context.get("request"))
            self._url_templates[name] = str(url)
        return self._url_templates[name].replace(str(_SENTINEL), str(pk), 1)

    def to_representation(self, run: Run) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(run)
        with suppress(KeyError):  # a kind no longer registered shows its generic fields only
            data.update(get_kind(run.kind).api_fields(run))  # e.g. a comparison's schedulers and baseline
        return data


class RunOutputSerializer(RunListEntrySerializer):
    """A run with every result's summary and the link to its full document."""

    results = RunResultSummarySerializer(many=True, source="results.all")


class _ProgressSerializer(serializers.Serializer):
    """What a run and each of its parts report while they execute."""

    id = serializers.IntegerField()
    status = serializers.CharField()
    progress = serializers.FloatField()
    error = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class RunPartSerializer(_ProgressSerializer):
    position = serializers.IntegerField()
    # A declared field, not Field.label: the serializer's metaclass takes it out of the class.
    label = serializers.CharField()  # type: ignore[assignment]
    attempts = serializers.IntegerField()
    worker = serializers.CharField(help_text="The worker that ran (or runs) the last attempt: node:pid.")


class RunProgressSerializer(_ProgressSerializer):
    cancel_requested = serializers.BooleanField()
    finished = serializers.BooleanField()
    parts = RunPartSerializer(many=True)


class RunFiguresSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    figures = serializers.JSONField(
        allow_null=True, help_text="name -> Plotly figure; null until the run has ended."
    )
    preparing = serializers.BooleanField(
        help_text="The run has ended and a worker is building its figures: ask again shortly."
    )
