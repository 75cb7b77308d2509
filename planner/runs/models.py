"""A run keeps its own copy of the scenario, so later edits of the catalogue, the cluster or
the workload never change what an old run compared.

``scenario``, ``figures`` and ``RunResult.result`` can be megabytes: list queries defer them
(see ``selectors.py``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from planner.scenarios.models import Cluster, Workload
from planner.teams.models import Team


class Run(models.Model):
    class Kind(models.TextChoices):
        COMPARE = "compare", "Scheduler comparison"
        # Later: "fairness", "mrsu", "sweep" slot in here with their own task code.

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    FINISHED = (Status.SUCCEEDED, Status.FAILED, Status.CANCELLED)

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="runs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.COMPARE)
    name = models.CharField(max_length=200)
    # The validated version-1 scenario document, exactly as it was run.
    scenario = models.JSONField()
    scenario_name = models.CharField(max_length=100, blank=True, default="")
    job_count = models.PositiveIntegerField(default=0)
    # Where the scenario came from, when it came from stored objects (kept if they are deleted).
    cluster = models.ForeignKey(Cluster, on_delete=models.SET_NULL, null=True, blank=True, related_name="runs")
    workload = models.ForeignKey(Workload, on_delete=models.SET_NULL, null=True, blank=True, related_name="runs")
    # {"schedulers": [...], "baseline": "...", "seed": N, "options": {...SimulationOptions...} | null}
    options = models.JSONField(default=dict)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(default=0.0)  # 0..1
    error = models.TextField(blank=True, default="")
    cancel_requested = models.BooleanField(default=False)
    task_id = models.CharField(max_length=255, blank=True, default="")
    # Plotly figures of the comparison (scheduling.charts.all_figures), built when the run ends.
    figures = models.JSONField(null=True, blank=True)
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
        return self.status in self.FINISHED

    @property
    def schedulers(self) -> list[str]:
        return list(self.options.get("schedulers", []))

    @property
    def baseline(self) -> str | None:
        return self.options.get("baseline")


class RunResult(models.Model):
    """One scheduler's outcome in a run."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="results")
    scheduler = models.CharField(max_length=255)  # the spec as given, e.g. "edf-bfd:rut.cpu=0.5,rut.mem=0.5"
    position = models.PositiveIntegerField()  # order in the run's list of schedulers
    # Headline metrics (total_cost, gap_to_lower_bound, deadline_miss_pct, ...): small, listed often.
    summary = models.JSONField(default=dict)
    # The whole SimulationResult.to_dict() (docs/results.md): large, loaded one at a time.
    result = models.JSONField()

    class Meta:
        ordering = ["run_id", "position"]
        constraints = [models.UniqueConstraint(fields=["run", "scheduler"], name="runresult_unique_scheduler_per_run")]

    def __str__(self) -> str:
        return f"{self.run_id}: {self.scheduler}"
