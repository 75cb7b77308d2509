"""Signing in to the API: the token endpoint, throttled per address and locked per username.

A wrong password counts towards django-axes' lockout (``AXES_FAILURE_LIMIT`` per username and
address); a locked-out username gets 429 whether or not the password is right. Every call
also counts towards the ``sign-in`` throttle (per address, in the shared cache).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from planner.core.apis import validated
from planner.core.errors import InputError

from . import services
from .lockout import cooloff_seconds, lockout_message
from .serializers import CredentialsSerializer, TokenOutputSerializer
from .throttles import SignInThrottle


def signed_in_user(request: Request, username: str, password: str) -> Any:
    """The user the credentials name, through Django's backends (the lockout first);
    ``None`` for wrong credentials or a locked-out username."""
    return authenticate(request._request, username=username, password=password)


def _locked_out(request: Request) -> bool:
    return bool(getattr(request._request, "axes_locked_out", False))


class TokenObtainApi(APIView):
    """Username and password in, a token out."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [SignInThrottle]
    # api_settings imports the setting's dotted paths: these are classes, which the stubs type as str.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: TokenOutputSerializer, 400: OpenApiResponse(description="Wrong credentials."),
                   429: OpenApiResponse(description="Too many attempts: locked out or throttled.")},
        tags=["auth"],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validated(CredentialsSerializer, request)
        user = signed_in_user(request, data["username"], data["password"])
        if _locked_out(request):
            message = lockout_message()
            return Response({"detail": message, "errors": [{"path": "", "message": message}]},
                            status=429, headers={"Retry-After": str(cooloff_seconds())})
        if user is None or not user.is_active:
            raise InputError.single("", "Unable to log in with provided credentials.")
        return Response({"token": services.token_issue(user=user)})
