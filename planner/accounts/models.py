"""API tokens: django-rest-knox's token (only a SHA-512 digest is stored, with an expiry), named."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from knox.models import AbstractAuthToken


class ApiToken(AbstractAuthToken):
    """One of a user's API tokens (``KNOX_TOKEN_MODEL``). The token itself is shown once, when it
    is issued; what is stored is its digest and its first 15 characters (``token_key``, the id
    by which it is listed and revoked)."""

    name = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        ordering = ["created", "token_key"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name or self.token_key} ({self.user})"


class SignedInSession(models.Model):
    """A web session a user signed in with, so that "sign out everywhere" can end it
    (Django's sessions do not say whose they are without decoding every one)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signed_in_sessions"
    )
    session_key = models.CharField(max_length=40, db_index=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
