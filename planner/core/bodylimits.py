"""How large a request body may be, decided from the request's headers before it is read.

* Anonymous requests, and the sign-in endpoints whoever calls them (the login pages, the
  token endpoints, the admin's login), may send at most ``PLANNER_SMALL_BODY_BYTES``
  (64 KiB): nothing a person who has not signed in sends is larger, and a stranger can no
  longer make a worker read and parse 60 MB.
* A signed-in user (a session cookie, or a token in ``Authorization``) may send up to
  ``PLANNER_MAX_BODY_BYTES``: a scenario document as large as the library accepts.

Who is signed in is known before the body is read: a session is looked up from its cookie
(Django's ``AuthenticationMiddleware``, placed before
:class:`~planner.core.middleware.BodySizeLimitMiddleware`), a token by the API's own
authentication classes, asked only when the declared length is above the small limit (so a
small request costs nothing more). The limit is kept on the request
(:func:`request_body_limit`), and the JSON parser reads no more than it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest

_ATTRIBUTE = "planner_body_limit"


def sign_in_path(path: str) -> bool:
    """An endpoint that signs people in: small bodies only, whoever asks."""
    return any(path.startswith(prefix) for prefix in settings.PLANNER_SIGN_IN_PATHS)


def _token_user(request: HttpRequest) -> Any:
    """The user of the API token in ``Authorization``, or ``None`` (no token, or a bad one)."""
    from rest_framework.authentication import SessionAuthentication
    from rest_framework.exceptions import APIException
    from rest_framework.settings import api_settings

    if not request.META.get("HTTP_AUTHORIZATION"):
        return None
    # api_settings imports the setting's dotted paths: classes, which the stubs type as str.
    classes: list[Any] = list(api_settings.DEFAULT_AUTHENTICATION_CLASSES)
    for authentication_class in classes:
        if issubclass(authentication_class, SessionAuthentication):
            continue
        try:
            found = authentication_class().authenticate(request)
        except APIException:
            return None
        if found is not None:
            return found[0]
    return None


def signed_in(request: HttpRequest) -> bool:
    """Whether the request comes from a signed-in user, by session or by token."""
    if getattr(request, "_force_auth_user", None) is not None:  # DRF's test client
        return True
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return True
    if request.path.startswith("/api/"):
        user = _token_user(request)
        return user is not None and user.is_authenticated and user.is_active
    return False


def body_limit(request: HttpRequest, declared: int) -> int:
    """The most bytes ``request``'s body may hold; ``declared`` is its ``Content-Length``."""
    small = int(settings.PLANNER_SMALL_BODY_BYTES)
    large = int(settings.PLANNER_MAX_BODY_BYTES)
    if sign_in_path(request.path):
        limit = small
    elif declared <= small:
        limit = large  # within every limit: who is asking need not be known (no token lookup)
    else:
        limit = large if signed_in(request) else small
    setattr(request, _ATTRIBUTE, limit)
    return limit


def request_body_limit(request: Any) -> int:
    """The limit :func:`body_limit` decided for ``request`` (a Django or DRF request); the large
    limit for a request that did not pass the middleware (a parser called directly)."""
    limit = getattr(request, _ATTRIBUTE, None) if request is not None else None
    if limit is None and request is not None:
        limit = getattr(getattr(request, "_request", None), _ATTRIBUTE, None)
    return int(limit if limit is not None else settings.PLANNER_MAX_BODY_BYTES)
