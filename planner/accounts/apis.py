"""Signing in to the API and managing one's API tokens.

The token endpoint is throttled per address (``sign-in``, in the shared cache) and a wrong
password counts towards django-axes' lockout (``AXES_FAILURE_LIMIT`` per username and
address); a locked-out username gets 429 whether or not the password is right.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from planner.core.apis import validated
from planner.core.errors import InputError
from planner.core.pagination import paginated_response

from . import selectors, services
from .lockout import cooloff_seconds, lockout_message
from .models import ApiToken
from .serializers import (
    CredentialsSerializer,
    SignedOutSerializer,
    TokenIssuedSerializer,
    TokenOutputSerializer,
)
from .throttles import SignInThrottle


def signed_in_user(request: Request, username: str, password: str) -> Any:
    """The user the credentials name, through Django's backends (the lockout first);
    ``None`` for wrong credentials or a locked-out username."""
    return authenticate(request._request, username=username, password=password)


def _locked_out(request: Request) -> bool:
    return bool(getattr(request._request, "axes_locked_out", False))


class TokenObtainApi(APIView):
    """Username and password in, a new named token out (shown once)."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [SignInThrottle]
    # api_settings imports the setting's dotted paths: these are classes, which the stubs type as str.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]

    @extend_schema(
        request=CredentialsSerializer,
        responses={
            200: TokenIssuedSerializer,
            400: OpenApiResponse(description="Wrong credentials."),
            429: OpenApiResponse(description="Too many attempts: locked out or throttled."),
        },
        tags=["auth"],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validated(CredentialsSerializer, request)
        user = signed_in_user(request, data["username"], data["password"])
        if _locked_out(request):
            message = lockout_message()
            return Response(
                {"detail": message, "errors": [{"path": "", "message": message}]},
                status=429,
                headers={"Retry-After": str(cooloff_seconds())},
            )
        if user is None or not user.is_active:
            raise InputError.single("", "Unable to log in with provided credentials.")
        token, secret = services.token_issue(user=user, name=data.get("name", ""))
        return Response(
            TokenIssuedSerializer(
                {**TokenOutputSerializer(token).data, "token": secret, "token_key": token.token_key}
            ).data
        )


class TokenListApi(APIView):
    """Your unexpired API tokens (their ids and names, never the tokens)."""

    throttle_classes = [SignInThrottle]

    @extend_schema(responses=TokenOutputSerializer(many=True), tags=["auth"])
    def get(self, request: Request) -> Response:
        return paginated_response(
            request=request,
            view=self,
            queryset=selectors.token_list(user=request.user),
            serializer_class=TokenOutputSerializer,
        )


class TokenDetailApi(APIView):
    @extend_schema(responses={204: None}, tags=["auth"], summary="Revoke one of your tokens")
    def delete(self, request: Request, token_id: str) -> Response:
        services.token_revoke(token=selectors.token_get(user=request.user, token_id=token_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SignOutApi(APIView):
    @extend_schema(
        request=None,
        responses={204: None},
        tags=["auth"],
        summary="Revoke the token this request carries (or end this web session)",
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, ApiToken):
            services.token_revoke(token=request.auth)
        else:
            from django.contrib.auth import logout

            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SignOutEverywhereApi(APIView):
    @extend_schema(
        request=None,
        responses=SignedOutSerializer,
        tags=["auth"],
        summary="Revoke every token and end every web session of yours",
    )
    def post(self, request: Request) -> Response:
        counts = services.sign_out_everywhere(user=request.user)
        return Response(SignedOutSerializer(counts).data)
