"""API shapes of teams and memberships."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from planner.core.fields import ScopedPrimaryKeyField

from .models import Membership
from .selectors import team_list


def team_field(**kwargs: Any) -> ScopedPrimaryKeyField:
    """The optional ``team`` of a create request: one of the user's teams (default: their first)."""
    kwargs.setdefault("required", False)
    kwargs.setdefault("allow_null", True)
    kwargs.setdefault("help_text", "Id of one of your teams; defaults to your only (or first) team.")
    return ScopedPrimaryKeyField(scope=lambda user: team_list(user=user), label_text="team", **kwargs)


class TeamOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    my_role = serializers.CharField(help_text="Your role in the team: owner or member.")
    member_count = serializers.IntegerField()
    currency = serializers.CharField(help_text="How money is shown (display only), e.g. $, €, CHF.")
    created_at = serializers.DateTimeField()


class TeamInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    currency = serializers.CharField(max_length=8, required=False)


class TeamUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100, required=False)
    currency = serializers.CharField(max_length=8, required=False)


class MemberOutputSerializer(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    joined_at = serializers.DateTimeField(source="created_at")


class MemberCreateSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices, default=Membership.Role.MEMBER)


class MemberUpdateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class InvitationOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    team_name = serializers.CharField(source="team.name")
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    invited_by = serializers.CharField(source="invited_by.username", default=None)
    created_at = serializers.DateTimeField()
