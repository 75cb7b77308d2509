"""Reads of API tokens, from the requesting user's point of view."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from .models import ApiToken


def token_list(*, user: Any) -> QuerySet[ApiToken]:
    """The user's unexpired tokens, oldest first."""
    return (
        ApiToken.objects.filter(user=user).exclude(expiry__lt=timezone.now()).order_by("created", "token_key")
    )


def token_get(*, user: Any, token_id: str) -> ApiToken:
    """One of the user's tokens by its id (its first 15 characters); 404 for anyone else's."""
    return get_object_or_404(token_list(user=user), token_key=token_id)
