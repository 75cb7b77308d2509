"""API shapes of signing in and of API tokens."""

from __future__ import annotations

from rest_framework import serializers


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})
    name = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="A name for the token, to tell your tokens apart (a script, a laptop).",
    )


class TokenOutputSerializer(serializers.Serializer):
    id = serializers.CharField(source="token_key", help_text="The token's id: its first 15 characters.")
    name = serializers.CharField()
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)


class TokenIssuedSerializer(TokenOutputSerializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`. Shown only once.")


class SignedOutSerializer(serializers.Serializer):
    tokens = serializers.IntegerField(help_text="API tokens revoked.")
    sessions = serializers.IntegerField(help_text="Web sessions ended.")
