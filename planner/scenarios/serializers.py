"""API shapes of clusters, workloads and scenario import. The services check the values."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from planner.teams.serializers import team_field
from scheduling.importers import IMPORTERS

from .models import Cluster

#: What a cluster entry's machine_class is (the document's vm_types[].machine_class).
MACHINE_CLASS_HELP = (
    "Paper 004's UDRF: VM types with the same label form one machine class; null: the VM type is "
    "its own class. Only UDRF studies read it."
)


#: What a cluster entry's reserved and spot counts are (scenario version 4).
RESERVED_COUNT_HELP = ("How many of the entry's VMs (the first ones) are reserved, at the VM type's reserved "
                       "price for a run's whole horizon; 0 by default.")
SPOT_COUNT_HELP = ("How many of the entry's VMs (after the reserved ones) are spot VMs, at the VM type's "
                   "spot price; 0 by default. The rest are on demand.")


class ClusterEntryOutputSerializer(serializers.Serializer):
    vm_type = serializers.IntegerField(source="vm_type_id")
    vm_type_name = serializers.CharField(source="vm_type.name")
    count = serializers.IntegerField()
    machine_class = serializers.CharField(allow_null=True, help_text=MACHINE_CLASS_HELP)
    reserved_count = serializers.IntegerField(help_text=RESERVED_COUNT_HELP)
    spot_count = serializers.IntegerField(help_text=SPOT_COUNT_HELP)
    capacity = serializers.JSONField(source="vm_type.capacity")
    price_per_hour = serializers.FloatField(source="vm_type.price_per_hour")
    reserved_price_per_hour = serializers.FloatField(
        source="vm_type.reserved_price_per_hour", allow_null=True
    )
    spot_price_per_hour = serializers.FloatField(source="vm_type.spot_price_per_hour", allow_null=True)


class ClusterOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField()
    description = serializers.CharField()
    resources = serializers.ListField(child=serializers.CharField())
    options = serializers.JSONField(help_text="The scenario document's options: {} for the defaults.")
    entries = ClusterEntryOutputSerializer(many=True, source="entries.all")
    machines = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username", default=None)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_machines(self, cluster: Cluster) -> int:
        return sum(e.count for e in cluster.entries.all())


class ClusterInputSerializer(serializers.Serializer):
    team = team_field()
    name = serializers.JSONField()
    # Any JSON value (the service checks it); the stubs allow only an object as the default.
    description = serializers.JSONField(required=False, default="")  # type: ignore[arg-type]
    resources = serializers.JSONField(
        required=False, allow_null=True, default=None, help_text='Resource names, default ["cpu", "mem"].'
    )
    options = serializers.JSONField(
        required=False, allow_null=True, default=None, help_text="Simulation options of the scenario."
    )
    entries = serializers.JSONField(
        help_text='[{"vm_type": <id or name in the team\'s catalogue>, "count": n, "machine_class": '
        '<optional label>, "reserved_count": r, "spot_count": s}, ...], in order. ' + MACHINE_CLASS_HELP
        + " " + RESERVED_COUNT_HELP + " " + SPOT_COUNT_HELP
    )


class WorkloadOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField()
    description = serializers.CharField()
    resources = serializers.ListField(child=serializers.CharField())
    frameworks = serializers.JSONField()
    job_count = serializers.IntegerField()
    created_by = serializers.CharField(source="created_by.username", default=None)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class WorkloadDetailOutputSerializer(WorkloadOutputSerializer):
    jobs = serializers.JSONField(help_text="The scenario document's jobs.")


class WarningSerializer(serializers.Serializer):
    """Valid, but probably not meant: a path into the document and what is odd there."""

    path = serializers.CharField()
    message = serializers.CharField()


_WARNINGS_HELP = (
    "What the saved jobs have that is valid but probably not meant (a deadline shorter than the "
    "job's duration, a job without a framework beside declared ones), with document paths."
)


class WorkloadSavedOutputSerializer(WorkloadOutputSerializer):
    """A workload just written (generated, imported), with the warnings of its jobs."""

    warnings = WarningSerializer(many=True, read_only=True, help_text=_WARNINGS_HELP)


class WorkloadDetailSavedOutputSerializer(WorkloadDetailOutputSerializer):
    """A workload just written (created, changed), jobs included, with the warnings of its jobs."""

    warnings = WarningSerializer(many=True, read_only=True, help_text=_WARNINGS_HELP)


class WorkloadInputSerializer(serializers.Serializer):
    team = team_field()
    name = serializers.JSONField()
    # Any JSON value (the service checks it); the stubs allow only an object as the default.
    description = serializers.JSONField(required=False, default="")  # type: ignore[arg-type]
    frameworks = serializers.JSONField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The scenario document's frameworks, stored as given: name, weight, allowed_vm_types, "
        "task_demand (the allocation and sharing studies) and version 2's offer_policy, refuse_s, hold_s "
        "and queues.",
    )
    jobs = serializers.JSONField(
        required=False, allow_null=True, default=None, help_text="The scenario document's jobs."
    )


class WorkloadGenerateSerializer(serializers.Serializer):
    """Documentation of the generator's settings (scheduling.generators.WorkloadSpec); all optional."""

    seed = serializers.IntegerField(required=False, default=0)
    jobs = serializers.IntegerField(required=False, help_text="Number of jobs (default 100).")
    arrival_rate_per_s = serializers.FloatField(
        required=False, help_text="Poisson arrival rate (default 0.05)."
    )
    executors = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="[low, high]"
    )
    executor = serializers.JSONField(required=False, help_text='{"cpu": [1, 6], "mem": [2, 12]}')
    integer_sizes = serializers.BooleanField(required=False)
    duration_s = serializers.ListField(
        child=serializers.FloatField(), required=False, help_text="[low, high]"
    )
    deadline_fraction = serializers.FloatField(required=False)
    deadline_slack = serializers.ListField(
        child=serializers.FloatField(), required=False, help_text="[low, high]"
    )
    network_fraction = serializers.FloatField(
        required=False, help_text="Share of the jobs that are network-bound, 0 to 1 (default 0)."
    )
    network_sensitivity = serializers.FloatField(
        required=False,
        help_text="Their network sensitivity sigma, 0 to 100 (notes §8: a job on k VMs runs "
        "1 + sigma (k - 1) / (executors - 1) times its duration).",
    )
    frameworks = serializers.ListField(child=serializers.CharField(), required=False)
    start_s = serializers.FloatField(required=False)
    cluster = serializers.IntegerField(
        required=False,
        help_text="A cluster of the workload's team: executors are drawn only in sizes that fit one of its "
        "VM types the job's framework may use.",
    )


class WorkloadImportCsvSerializer(serializers.Serializer):
    csv = serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False, help_text="The file's text (CSV, or JSON)."
    )
    file = serializers.FileField(required=False, help_text="Or the file, uploaded (multipart).")
    format = serializers.ChoiceField(
        choices=[(i.name, i.label) for i in IMPORTERS.values()], default="jobs", help_text="The importer."
    )
    options = serializers.JSONField(
        required=False, default=None, help_text='The importer\'s options, e.g. {"with_deadlines": false}.'
    )
    replace = serializers.BooleanField(default=True, help_text="Replace the jobs (default) or add to them.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "csv" not in attrs and "file" not in attrs:
            raise serializers.ValidationError({"csv": ["give the CSV text, or upload it as file"]})
        return attrs


class ScenarioImportSerializer(serializers.Serializer):
    team = team_field()
    name = serializers.JSONField(
        required=False, allow_null=True, default=None, help_text="Default: the document's name."
    )
    scenario = serializers.JSONField(
        help_text="A scenario document (version 1, 2 or 3; machine-class labels are kept on the cluster)."
    )


class ScenarioImportOutputSerializer(serializers.Serializer):
    cluster = ClusterOutputSerializer()
    workload = WorkloadOutputSerializer()
    vm_types_created = serializers.ListField(child=serializers.CharField())
    vm_types_reused = serializers.ListField(child=serializers.CharField())
    vm_types_renamed = serializers.DictField(child=serializers.CharField())
    warnings = WarningSerializer(many=True, help_text=_WARNINGS_HELP)
