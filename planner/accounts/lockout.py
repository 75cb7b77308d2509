"""What a locked-out sign-in sees: a 429 that says for how long, as JSON for the API."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def cooloff_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_message() -> str:
    minutes = max(1, round(cooloff_seconds() / 60))
    return (
        f"Too many failed sign-in attempts for this username from your address: "
        f"try again in {minutes} minutes."
    )


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: JSON like the API's other errors under ``/api/``, a page elsewhere."""
    message = lockout_message()
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message, "errors": [{"path": "", "message": message}]}, status=429)
    else:
        response = render(request, "accounts/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(cooloff_seconds())
    return response
