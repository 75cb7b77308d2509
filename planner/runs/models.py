"""Runs, their parts and their results.

A run keeps its own copy of the scenario, so later edits of the catalogue, the cluster or
the workload never change what an old run computed. What a run computes depends on its
*kind* (the registry ``planner.runs.kinds``; each kind is a package under ``planner/kinds/``);
the models are the same for every kind:

* :class:`Run` is the user's request and the truth about its outcome (status, error);
* :class:`RunPart` is one unit of work, executed by its own Celery task with its own claim,
  attempts, progress and lease (a scheduler of a comparison, a load point of an MRSU sweep);
* :class:`RunResult` is one variant's result document (a scheduler's simulation, a policy's
  allocation, a sharing configuration's timelines), written by the part that computed it.

``scenario``, ``figures``, ``context`` and ``RunResult.result`` can be megabytes: list
queries defer them (see ``selectors.py``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from planner.core.dbfields import PackedJSONField
from planner.scenarios.models import Cluster, StoredJobChunk, Workload
from planner.teams.models import Team


class Status(models.TextChoices):
    """The states of runs and of their parts."""

    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


FINISHED = (Status.SUCCEEDED, Status.FAILED, Status.CANCELLED)
UNFINISHED = (Status.QUEUED, Status.RUNNING)
#: How a part's error starts when its worker process died under it (``execution.part_process_lost``).
PROCESS_LOST = "its worker process died"


class Run(models.Model):
    Status = Status
    FINISHED = FINISHED

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="runs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # A key of the run-kind registry (planner.runs.kinds); checked there, so no choices here.
    kind = models.CharField(max_length=40, default="compare")
    name = models.CharField(max_length=200)
    # The validated scenario document, exactly as it was run; when ``jobs_stored``, its jobs are
    # this run's own job chunks (:class:`RunJobChunk`) and the document has ``"jobs": []``
    # at their place: read it whole through ``selectors.run_scenario_document``.
    scenario = models.JSONField()
    # Whether the jobs are kept apart from ``scenario`` (a run on a stored workload of more than
    # ``PLANNER_RUN_INLINE_JOBS_MAX`` jobs, copied as chunks when it started).
    jobs_stored = models.BooleanField(default=False)
    scenario_name = models.CharField(max_length=100, blank=True, default="")
    job_count = models.PositiveIntegerField(default=0)
    # Where the scenario came from, when it came from stored objects (kept if they are deleted).
    cluster = models.ForeignKey(
        Cluster, on_delete=models.SET_NULL, null=True, blank=True, related_name="runs"
    )
    workload = models.ForeignKey(
        Workload, on_delete=models.SET_NULL, null=True, blank=True, related_name="runs"
    )
    # The kind's validated parameters (for a comparison: schedulers, baseline, seed, options).
    options = models.JSONField(default=dict)
    # What the kind computed once for the whole run before its parts (e.g. the lower bound).
    context = models.JSONField(default=dict)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    # The parts' mean progress, 0..1, written when a part reports (see execution.py).
    progress = models.FloatField(default=0.0)
    # Why the run failed: one line per failed part, "<label>: <reason>".
    error = models.TextField(blank=True, default="")
    cancel_requested = models.BooleanField(default=False)
    # Plotly figures of the results (the kind's figures), stored before the run is marked ended.
    figures = models.JSONField(null=True, blank=True)
    # When the figures were last asked to be built in the background (a missing cache: after a
    # change of the team's currency); a second request within a minute sends nothing.
    figures_requested_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["team", "-created_at"], name="run_team_created_idx"),
            models.Index(fields=["status", "started_at"], name="run_status_started_idx"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED

    @property
    def seed(self) -> int:
        return int(self.options.get("seed") or 0)


class RunPart(models.Model):
    """One unit of a run's work, executed by one Celery task (``tasks.run_part_execute``).

    A worker claims a QUEUED part with a conditional update (so a duplicate delivery does
    nothing) and holds a *lease* on it, renewed by a heartbeat while it works. A part whose
    lease lapsed lost its worker: ``services.runs_reap`` queues it again (up to
    ``PLANNER_PART_MAX_ATTEMPTS``) or fails it. ``attempts`` numbers the claims; every write
    of a worker is conditional on its own attempt, so a worker that was given up on cannot
    overwrite the attempt that replaced it.
    """

    Status = Status

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="parts")
    position = models.PositiveIntegerField()
    # What the part computes, in the kind's words (a scheduler spec for a comparison).
    label = models.CharField(max_length=255)
    # The kind's input of this part (JSON); with the run's options and context, all it needs.
    payload = models.JSONField(default=dict)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0)
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    # The Celery message last sent for the part, when, and how many were sent.
    task_id = models.CharField(max_length=255, blank=True, default="")
    sent_at = models.DateTimeField(null=True, blank=True)
    sends = models.PositiveIntegerField(default=0)
    # The claim: who holds it and until when (renewed by the worker's heartbeat).
    worker = models.CharField(max_length=255, blank=True, default="")
    lease_until = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run_id", "position"]
        constraints = [models.UniqueConstraint(fields=["run", "position"], name="runpart_unique_position")]
        indexes = [
            models.Index(fields=["status", "lease_until"], name="runpart_status_lease_idx"),
            models.Index(fields=["status", "sent_at"], name="runpart_status_sent_idx"),
            # A label's recent running times (``selectors.part_seconds_per_job``).
            models.Index(fields=["label", "-finished_at"], name="runpart_label_finished_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.run_id}/{self.position}: {self.label}"

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED


class RunResult(models.Model):
    """One variant's outcome in a run (a scheduler of a comparison, a policy, a sweep point)."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="results")
    part = models.ForeignKey(
        RunPart, on_delete=models.SET_NULL, null=True, blank=True, related_name="results"
    )
    # The variant's label: a scheduler spec as given for a comparison ("edf-bfd:rut.cpu=0.5").
    variant = models.CharField(max_length=255)
    position = models.PositiveIntegerField()  # order in the run's list of variants
    # Headline figures (the kind's summary of the document): small, listed often.
    summary = models.JSONField(default=dict)
    # The whole result document (for a comparison, docs/results.md): large, loaded one at a time;
    # stored with its numeric columns packed, read back as it was written.
    result = PackedJSONField()
    # This variant's share of the run's figures (the kind's ``variant_figures``), built by its
    # part; the run's figures are joined from these. Null for kinds that build them at the end.
    figures = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["run_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["run", "variant"], name="runresult_unique_variant_per_run")
        ]

    def __str__(self) -> str:
        return f"{self.run_id}: {self.variant}"


class RunJobChunk(StoredJobChunk):
    """A run's own copy of a chunk of its stored workload's jobs (``Run.jobs_stored``).

    Copied from the workload's chunks when the run starts (``jobstore.jobs_copy``: one
    ``INSERT ... SELECT``) and never written again: a later edit or deletion of the workload
    leaves what the run runs alone; deleting the run deletes them. Read through
    :mod:`planner.scenarios.jobstore`, as a workload's chunks are.
    """

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="job_chunks")

    class Meta:
        ordering = ["run_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["run", "first_job"], name="runjobchunk_unique_first_job")
        ]

    def __str__(self) -> str:
        return f"run {self.run_id}: jobs {self.first_job}..{self.first_job + self.job_count - 1}"
