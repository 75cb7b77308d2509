"""API shapes of VM types. Values are checked by the service (the library's rules), not here."""

from __future__ import annotations

from rest_framework import serializers

from planner.teams.serializers import team_field

RESERVED_HELP = ("Price per hour of a reserved VM, billed for a run's whole horizon whether on or not; "
                 "null: none. A cluster entry's reserved_count says how many are reserved.")
SPOT_HELP = ("Price per hour of a spot VM, billed per second while on; null: none. A cluster entry's "
             "spot_count says how many are spot.")
INTERRUPTIONS_HELP = "How often each spot VM is reclaimed, per hour (a seeded Poisson process; 0: never)."


class VMTypeOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    name = serializers.CharField()
    capacity = serializers.JSONField(help_text='{resource: amount}, e.g. {"cpu": 4, "mem": 16}')
    price_per_hour = serializers.FloatField()
    reserved_price_per_hour = serializers.FloatField(allow_null=True, help_text=RESERVED_HELP)
    spot_price_per_hour = serializers.FloatField(allow_null=True, help_text=SPOT_HELP)
    spot_interruptions_per_hour = serializers.FloatField(help_text=INTERRUPTIONS_HELP)
    description = serializers.CharField()
    created_by = serializers.CharField(source="created_by.username", default=None)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class VMTypeInputSerializer(serializers.Serializer):
    team = team_field()
    name = serializers.JSONField(help_text="Unique in the team; no '#'.")
    capacity = serializers.JSONField(help_text='{resource: amount per VM}, e.g. {"cpu": 4, "mem": 16}')
    price_per_hour = serializers.JSONField(help_text="Price per hour while on (billed per second).")
    reserved_price_per_hour = serializers.JSONField(required=False, allow_null=True, default=None,
                                                    help_text=RESERVED_HELP)
    spot_price_per_hour = serializers.JSONField(required=False, allow_null=True, default=None,
                                                help_text=SPOT_HELP)
    spot_interruptions_per_hour = serializers.JSONField(required=False, default=0.0,  # type: ignore[arg-type]
                                                        help_text=INTERRUPTIONS_HELP)
    # Any JSON value (the service checks it); the stubs allow only an object as the default.
    description = serializers.JSONField(required=False, default="")  # type: ignore[arg-type]
