"""VM types as a team prices them; clusters say how many of each they have."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from planner.teams.models import Team


class VMType(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="vm_types")
    name = models.CharField(max_length=100)
    # {resource: amount per VM}, e.g. {"cpu": 4, "mem": 16}: the scenario document's capacity.
    capacity = models.JSONField(default=dict)
    # Billed per second while the VM is on, in the team's price unit.
    price_per_hour = models.FloatField()
    # Scenario version 4: a reserved VM's price (billed for a run's whole horizon, on or not)
    # and a spot VM's (billed per second while on, reclaimed at a rate per hour); None: no such
    # market. How many VMs of a cluster are reserved or spot is the cluster entry's.
    reserved_price_per_hour = models.FloatField(null=True, blank=True, default=None)
    spot_price_per_hour = models.FloatField(null=True, blank=True, default=None)
    spot_interruptions_per_hour = models.FloatField(default=0.0)
    description = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "VM type"
        constraints = [models.UniqueConstraint(fields=["team", "name"], name="vmtype_unique_name_per_team")]

    def __str__(self) -> str:
        return self.name
