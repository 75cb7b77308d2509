"""A cluster and a workload together make a scenario document (``scenario_document``)."""

from __future__ import annotations

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
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="workloads")
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, default="")
    # Exactly the scenario document's "frameworks" and "jobs" lists.
    frameworks = models.JSONField(default=list, blank=True)
    jobs = models.JSONField(default=list, blank=True)
    # Kept with every write so that lists never load the jobs themselves.
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
