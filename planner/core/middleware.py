"""Refuse an oversized request body before any view reads it."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from .parsers import body_limit_message


class BodySizeLimitMiddleware:
    """413 for a declared ``Content-Length`` above ``PLANNER_MAX_BODY_BYTES``.

    Bodies without a length are bounded where they are read (the JSON parser, Django's
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` for forms).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = int(settings.PLANNER_MAX_BODY_BYTES)
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > limit:
            message = body_limit_message(limit)
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message, "errors": [{"path": "", "message": message}]}, status=413)
            return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
