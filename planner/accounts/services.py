"""Writes of API tokens."""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token


def token_issue(*, user: Any) -> str:
    """The user's API token."""
    token, _ = Token.objects.get_or_create(user=user)
    return str(token.key)
