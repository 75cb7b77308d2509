"""Django's error views, answering in JSON under ``/api/`` (the API's error body) and with the
pages' templates elsewhere: a URL the API's routes do not match (``/api/teams/-1/``) is a
JSON 404 like any other of the API's, not an HTML page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _json(detail: str, status: int) -> JsonResponse:
    return JsonResponse({"detail": detail, "errors": [{"path": "", "message": detail}]}, status=status)


def not_found(request: HttpRequest, exception: Any) -> HttpResponse:
    if _api(request):
        return _json("Not found.", 404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Any) -> HttpResponse:
    if _api(request):
        return _json("Bad request.", 400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Any) -> HttpResponse:
    if _api(request):
        return _json(str(exception) or "You do not have permission to perform this action.", 403)
    return defaults.permission_denied(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _api(request):
        return _json("Server error.", 500)
    return defaults.server_error(request)
