"""API shapes of VM types. Values are checked by the service (the library's rules), not here."""

from __future__ import annotations

from rest_framework import serializers

from planner.teams.serializers import team_field


class VMTypeOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField()
    capacity = serializers.JSONField(help_text='{resource: amount}, e.g. {"cpu": 4, "mem": 16}')
    price_per_hour = serializers.FloatField()
    description = serializers.CharField()
    created_by = serializers.CharField(source="created_by.username", default=None)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class VMTypeInputSerializer(serializers.Serializer):
    team = team_field()
    name = serializers.JSONField(help_text="Unique in the team; no '#'.")
    capacity = serializers.JSONField(help_text='{resource: amount per VM}, e.g. {"cpu": 4, "mem": 16}')
    price_per_hour = serializers.JSONField(help_text="Price per hour while on (billed per second).")
    # Any JSON value (the service checks it); the stubs allow only an object as the default.
    description = serializers.JSONField(required=False, default="")  # type: ignore[arg-type]
