"""API shapes of signing in and of API tokens."""

from __future__ import annotations

from rest_framework import serializers


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False,
                                     style={"input_type": "password"})


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")
