"""Writes of API tokens and of signing out.

Tokens are django-rest-knox's: a random 64-character string shown once, stored as its SHA-512
digest with an expiry (``REST_KNOX["TOKEN_TTL"]``). A user has several, each with a name, and
revokes any of them; changing the password revokes them all (:mod:`planner.accounts.signals`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

from planner.core.errors import InputError
from planner.core.names import clean_name

from .models import ApiToken, SignedInSession


@transaction.atomic
def token_issue(*, user: Any, name: Any = "") -> tuple[ApiToken, str]:
    """A new token of ``user`` named ``name``; returns the row and the token (shown once).

    At most ``PLANNER_TOKENS_PER_USER`` unexpired tokens (400 beyond: revoke one first).
    """
    name = clean_name(name) if name not in (None, "") else ""
    limit = int(settings.PLANNER_TOKENS_PER_USER)

    ApiToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()
    if ApiToken.objects.select_for_update().filter(user=user).count() >= limit:
        raise InputError.single(
            "", f"you already have {limit} API tokens: revoke one (DELETE /api/auth/tokens/<id>/) first"
        )
    token: ApiToken
    token, secret = ApiToken.objects.create(user=user, name=name)
    return token, secret


def token_revoke(*, token: ApiToken) -> None:
    token.delete()


def tokens_revoke_all(*, user: Any) -> int:
    """Revoke every API token of ``user``; how many there were."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted


def sessions_end_all(*, user: Any) -> int:
    """End every signed-in web session of ``user`` (recorded when they signed in)."""
    keys = list(SignedInSession.objects.filter(user=user).values_list("session_key", flat=True))
    ended, _ = Session.objects.filter(session_key__in=keys).delete()
    SignedInSession.objects.filter(user=user).delete()
    return ended


@transaction.atomic
def sign_out_everywhere(*, user: Any) -> dict[str, int]:
    """Revoke every token and end every web session of ``user``."""
    return {"tokens": tokens_revoke_all(user=user), "sessions": sessions_end_all(user=user)}
