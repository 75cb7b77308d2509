"""A cluster and a workload together make a scenario document (``scenario_document``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from planner.catalogue.models import VMType
from planner.teams.models import Team
from scheduling import DEFAULT_RESOURCES, FieldError


def default_resources() -> list[str]:
    return list(DEFAULT_RESOURCES)


class Cluster(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="clusters")
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, default="")
    # The resources the scenario models, in order; every VM type must have a capacity for each.
    resources = models.JSONField(default=default_resources)
    # The scenario document's "options" (billing granularity, boot time, ...); {} for the defaults.
    options = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["team", "name"], name="cluster_unique_name_per_team")]

    def __str__(self) -> str:
        return self.name


class ClusterEntry(models.Model):
    """``count`` VMs of one type in a cluster; ``position`` keeps the document's order.

    ``machine_class`` is the document's ``vm_types[].machine_class`` (paper 004's UDRF: VM
    types with the same label form one class). It belongs to the VM type *in this cluster*:
    the same catalogue VM type may be labelled differently in another. ``None`` (never ``""``):
    the VM type is a class of its own, named after it.

    ``reserved_count`` and ``spot_count`` (scenario version 4) say how many of the ``count`` VMs
    are reserved and spot (the first, then the next; the rest on demand), at the VM type's
    reserved and spot prices.
    """

    cluster = models.ForeignKey(Cluster, on_delete=models.CASCADE, related_name="entries")
    vm_type = models.ForeignKey(VMType, on_delete=models.PROTECT, related_name="cluster_entries")
    count = models.PositiveIntegerField()
    position = models.PositiveIntegerField(default=0)
    # Checked by scheduling.name_problem (through parse_scenario) before it is stored.
    machine_class = models.CharField(max_length=100, null=True, blank=True, default=None)
    reserved_count = models.PositiveIntegerField(default=0)
    spot_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["cluster_id", "position", "id"]
        verbose_name_plural = "cluster entries"
        constraints = [
            models.UniqueConstraint(
                fields=["cluster", "vm_type"], name="clusterentry_unique_vm_type_per_cluster"
            )
        ]

    def __str__(self) -> str:
        return f"{self.count} x {self.vm_type_id}"


class Workload(models.Model):
    """Frameworks and jobs in the scenario document's format.

    The frameworks are a JSON list on the row; the jobs are stored compactly beside it, as
    :class:`JobChunk` rows (:mod:`planner.scenarios.jobstore`), and written only by the
    services (``jobstore.jobs_store``).
    """

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="workloads")
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, default="")
    # Exactly the scenario document's "frameworks" list.
    frameworks = models.JSONField(default=list, blank=True)
    # Kept with every write so that lists and pages never count the jobs themselves.
    job_count = models.PositiveIntegerField(default=0)
    resources = models.JSONField(default=default_resources)  # the resources the jobs demand, in order
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    #: Not stored: what the service that last checked this instance's jobs warned about
    #: (:func:`scheduling.parse_workload`'s warnings, with document paths); empty when loaded.
    warnings: tuple[FieldError, ...] = ()

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["team", "name"], name="workload_unique_name_per_team")]

    def __str__(self) -> str:
        return self.name

    @property
    def jobs(self) -> list[dict[str, Any]]:
        """Every job, as the scenario document's ``jobs`` list.

        Reads and decodes every chunk on first use (one query per chunk; seconds for a million
        jobs), then keeps the list on the instance. Pages, exports and labels of big workloads
        read chunks instead (``jobstore.jobs_page``, ``job_chunks``, ``StoredJobs``).
        """
        cached: list[dict[str, Any]] | None = self.__dict__.get("_jobs")
        if cached is None:
            from .jobstore import job_chunks

            cached = [] if self.pk is None else [job for chunk in job_chunks(self) for job in chunk]
            self.__dict__["_jobs"] = cached
        return cached

    def jobs_known(self, jobs: list[dict[str, Any]]) -> None:
        """Keep ``jobs`` as this instance's jobs (just stored by a service: no need to read them)."""
        self.__dict__["_jobs"] = jobs

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__.pop("_jobs", None)
        super().refresh_from_db(*args, **kwargs)


class StoredJobChunk(models.Model):
    """What every chunk of stored jobs holds, whoever owns it (a workload, an upload, a run).

    At most ``jobstore.JOBS_PER_CHUNK`` consecutive jobs as one Parquet file; ``first_job`` is
    the index of the chunk's first job in its owner's list, so a page finds its chunk with one
    indexed query; ``position`` is the order. Written and read only by
    :mod:`planner.scenarios.jobstore`, which finds an owner's chunks as its ``job_chunks``.
    """

    position = models.PositiveIntegerField()
    first_job = models.PositiveIntegerField()
    job_count = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        abstract = True


class JobChunk(StoredJobChunk):
    """Jobs of a workload (or of an upload being imported), as one Parquet file.

    A save of one page rewrites the chunks it touches and moves the ``first_job`` (and
    ``position``) of the chunks after them. The jobs of an upload being imported belong to the
    upload until it is saved as a workload (``upload`` set, ``workload`` null); saving moves them
    with one update. A run on a big stored workload copies them as its own
    (``runs.RunJobChunk``).
    """

    workload = models.ForeignKey(
        Workload, on_delete=models.CASCADE, related_name="job_chunks", null=True, blank=True
    )
    upload = models.ForeignKey(
        "Upload", on_delete=models.CASCADE, related_name="job_chunks", null=True, blank=True
    )

    class Meta:
        ordering = ["workload_id", "position"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(workload__isnull=True) | models.Q(upload__isnull=True),
                name="jobchunk_one_owner",
            ),
        ]
        indexes = [models.Index(fields=["workload", "first_job"], name="jobchunk_first_job_idx")]

    def __str__(self) -> str:
        return f"{self.workload_id}: jobs {self.first_job}..{self.first_job + self.job_count - 1}"


class Upload(models.Model):
    """Files uploaded to become a workload, imported by a background task (``tasks.upload_read``).

    The request only stores the files (:class:`UploadFile`, their bytes in :class:`UploadChunk`
    rows, so any worker reads them through the database). The task claims the upload
    (``received`` -> ``reading``), runs the format's importer, checks the jobs and stores them
    as the upload's :class:`JobChunk` rows, and ends ``ready`` with a preview (the first jobs,
    the VM types the files describe) or ``failed`` with the errors, each naming the file and
    line. Saving a ready upload (``services.upload_save``) makes the workload (and a cluster of
    the files' machines, at the prices the user sets) in one transaction.
    """

    class Status(models.TextChoices):
        RECEIVED = "received", "Waiting for a worker"
        READING = "reading", "Importing"
        READY = "ready", "Ready to save"
        SAVED = "saved", "Saved"
        FAILED = "failed", "Failed"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="uploads")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The workload's name when it is saved (checked free then).
    name = models.CharField(max_length=100)
    # A key of scheduling.importers.IMPORTERS and the importer's checked options.
    format = models.CharField(max_length=60)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.RECEIVED)
    progress = models.FloatField(default=0.0)  # 0..1 while reading
    stage = models.CharField(max_length=200, blank=True, default="")  # what the worker is doing
    # [{"path", "message"}]: why it failed (paths name the file and line), and the warnings.
    errors = models.JSONField(default=list, blank=True)
    warnings = models.JSONField(default=list, blank=True)
    # What the files hold besides the jobs: name, description, resources, frameworks, vm_types.
    document = models.JSONField(default=dict, blank=True)
    # The first jobs, for the preview.
    preview_jobs = models.JSONField(default=list, blank=True)
    job_count = models.PositiveIntegerField(default=0)
    total_bytes = models.PositiveBigIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    # The task's claim: a worker that dies leaves it "reading" with a lapsed lease.
    lease_until = models.DateTimeField(null=True, blank=True)
    workload = models.ForeignKey(
        Workload, on_delete=models.SET_NULL, null=True, blank=True, related_name="uploads"
    )
    cluster = models.ForeignKey(
        Cluster, on_delete=models.SET_NULL, null=True, blank=True, related_name="uploads"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.format}, {self.status})"


class UploadFile(models.Model):
    """One file of an upload (the multi-table trace formats take several), in order."""

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="files")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["upload_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "position"], name="uploadfile_unique_position")
        ]

    def __str__(self) -> str:
        return self.name


class UploadChunk(models.Model):
    """Consecutive bytes of an uploaded file (``uploads.UPLOAD_CHUNK_BYTES`` at most)."""

    file = models.ForeignKey(UploadFile, on_delete=models.CASCADE, related_name="chunks")
    position = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        ordering = ["file_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["file", "position"], name="uploadchunk_unique_position")
        ]

    def __str__(self) -> str:
        return f"{self.file_id}/{self.position}"
