"""API shapes of clusters, workloads and scenario import. The services check the values."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from planner.teams.serializers import team_field
from scheduling.importers import IMPORTERS

from .jobstore import INLINE_JOBS_MAX
from .models import Cluster, Workload

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
    jobs = serializers.SerializerMethodField(
        help_text="The scenario document's jobs; null for a workload of more than "
        f"{INLINE_JOBS_MAX:,} jobs, whose jobs are read a page at a time (`GET /api/workloads/<id>/jobs/`)."
    )
    jobs_url = serializers.SerializerMethodField(help_text="Where the jobs are paged.")

    @extend_schema_field(serializers.ListField(child=serializers.DictField(), allow_null=True))
    def get_jobs(self, workload: Workload) -> list[dict[str, Any]] | None:
        return workload.jobs if workload.job_count <= INLINE_JOBS_MAX else None

    def get_jobs_url(self, workload: Workload) -> str:
        return reverse("api:workload-jobs", args=[workload.pk])


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


# --------------------------------------------------------------------------- uploads


class ImporterOptionSerializer(serializers.Serializer):
    """One option an importer declares (``scheduling.importers``)."""

    name = serializers.CharField()
    kind = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    help = serializers.CharField()
    default = serializers.JSONField(allow_null=True)
    choices = serializers.ListField(child=serializers.CharField(), required=False)


class ImporterSerializer(serializers.Serializer):
    """An input format of the importer registry."""

    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    help = serializers.CharField()
    file_types = serializers.ListField(child=serializers.CharField())
    tables = serializers.SerializerMethodField(
        help_text="The tables of a multi-table trace, known by the names in its files' names; [] otherwise."
    )
    options = ImporterOptionSerializer(many=True)

    def get_tables(self, importer: Any) -> list[str]:
        return list(getattr(importer, "tables", ()) or ())


class UploadInputSerializer(serializers.Serializer):
    team = team_field()
    name = serializers.CharField(
        trim_whitespace=False, help_text="The workload's name (it must be free in the team)."
    )
    format = serializers.ChoiceField(
        choices=[(i.name, i.label) for i in IMPORTERS.values()],
        help_text="The importer (GET /api/importers/).",
    )
    options = serializers.JSONField(
        required=False, default=None, binary=True,
        help_text='The importer\'s options as a JSON object (in a multipart form: its text), e.g. '
        '{"with_deadlines": false}.',
    )
    files = serializers.ListField(
        child=serializers.FileField(), allow_empty=False,
        help_text="The file, or a trace's files (each table known by the name in its file's name).",
    )


class UploadFileSerializer(serializers.Serializer):
    name = serializers.CharField()
    size = serializers.IntegerField()


class UploadVMTypeSerializer(serializers.Serializer):
    name = serializers.CharField()
    capacity = serializers.DictField(child=serializers.FloatField())
    count = serializers.IntegerField()
    price_per_hour = serializers.FloatField(allow_null=True, help_text="The files' own price, if any.")
    suggested_prices = serializers.DictField(
        child=serializers.FloatField(), help_text="The price by capacity of each price list."
    )


class UploadOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField()
    format = serializers.CharField()
    options = serializers.JSONField()
    status = serializers.CharField(
        help_text="received (waiting for a worker), reading, ready (to save), saved or failed."
    )
    progress = serializers.FloatField(help_text="0 to 1 while reading.")
    stage = serializers.CharField(help_text="What the worker is doing.")
    # A field (DRF's metaclass takes it off the class), not Serializer.errors.
    errors = WarningSerializer(  # type: ignore[assignment]
        many=True, help_text="Why it failed; paths name the file and line."
    )
    warnings = WarningSerializer(many=True, help_text=_WARNINGS_HELP)
    job_count = serializers.IntegerField()
    total_bytes = serializers.IntegerField()
    files = UploadFileSerializer(many=True, source="files.all")
    preview_jobs = serializers.JSONField(help_text="The first jobs read, in the scenario document's format.")
    frameworks = serializers.JSONField(source="document.frameworks", default=list)  # type: ignore[arg-type]
    resources = serializers.JSONField(source="document.resources", default=list)  # type: ignore[arg-type]
    vm_types = serializers.SerializerMethodField(help_text="The machine types the files describe.")
    workload = serializers.IntegerField(source="workload_id", allow_null=True)
    cluster = serializers.IntegerField(source="cluster_id", allow_null=True)
    created_by = serializers.CharField(source="created_by.username", default=None)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(UploadVMTypeSerializer(many=True))
    def get_vm_types(self, upload: Any) -> Any:
        from .selectors import upload_vm_types

        return UploadVMTypeSerializer(upload_vm_types(upload), many=True).data


class UploadSaveSerializer(serializers.Serializer):
    name = serializers.JSONField(required=False, default=None, help_text="Default: the upload's name.")
    prices = serializers.JSONField(
        required=False, default=None,
        help_text='{"<machine type>": <hourly price>, ...}; a type not listed keeps the files\' price.',
    )


class JobsPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="Jobs in the workload.")
    offset = serializers.IntegerField(help_text="Index of the page's first job.")
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = serializers.JSONField(help_text="The page's jobs, in the scenario document's format.")
