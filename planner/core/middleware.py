"""Requests refused before any view reads them: oversized bodies, text that is not Unicode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from .bodylimits import body_limit
from .errors import FieldError, error_list
from .parsers import body_limit_message, check_form_text
from .queries import MAX_ID

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class BodySizeLimitMiddleware:
    """413 for a declared ``Content-Length`` above the request's limit, before anything reads
    the body: small for anonymous requests and sign-in endpoints, ``PLANNER_MAX_BODY_BYTES``
    for a signed-in user (:mod:`planner.core.bodylimits`). Placed after Django's
    ``AuthenticationMiddleware``, which finds a session's user without reading the body.

    Bodies without a length are bounded where they are read (the JSON parser, Django's
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` for forms).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        limit = body_limit(request, declared)
        if declared > limit:
            message = body_limit_message(limit)
            if request.path.startswith("/api/"):
                body = {"detail": message, "errors": [{"path": "", "message": message}]}
                return JsonResponse(body, status=413)
            return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class ViewCheckMiddleware:
    """A middleware that only answers in ``process_view`` (once the view is known): its
    subclasses check the request there and return a response, or ``None`` to go on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)


class ValidTextMiddleware(ViewCheckMiddleware):
    """400 for a query string, or a page's form, whose decoded text holds a lone surrogate.

    Django decodes both with the charset the request names. A browser sends UTF-8, whose
    invalid bytes Django replaces, but a client may name another charset, and UTF-7
    decodes ``+2AA-`` to a lone ``\\ud800``: a string that can be neither stored nor shown
    (a 500 wherever it went). The answer names the field: a JSON body like the API's
    other 400s for an API view, the 400 page for a page. Placed after the CSRF check.
    API bodies are checked by their parsers (:mod:`planner.core.parsers`), which is why a
    form posted to the API is left to them.
    """

    def process_view(
        self, request: HttpRequest, view_func: Callable[..., Any], view_args: Any, view_kwargs: Any
    ) -> HttpResponse | None:
        is_api = getattr(view_func, "cls", None) is not None  # DRF's as_view() sets it
        errors = check_form_text(request.GET)
        if not errors and not is_api and request.method == "POST" and request.content_type in FORM_TYPES:
            errors = check_form_text(request.POST, request.FILES)
        if not errors:
            return None
        return text_error_response(request, errors, api=is_api)


def text_error_response(request: HttpRequest, errors: list[FieldError], *, api: bool) -> HttpResponse:
    if api:
        return JsonResponse({"detail": "Invalid input.", "errors": error_list(errors)}, status=400)
    return render(request, "400.html", {"errors": errors}, status=400)


class IdRangeMiddleware(ViewCheckMiddleware):
    """404 for a URL whose id does not fit a database id (``/api/runs/<21 digits>/``).

    Django's ``int`` converter takes any number of digits; SQLite raises ``OverflowError`` for
    one beyond 64 bits (a 500), PostgreSQL a ``DataError``. No object has such an id, so it is
    "not found", answered before the view runs (JSON under ``/api/``: planner.core.handlers).
    """

    def process_view(
        self, request: HttpRequest, view_func: Callable[..., Any], view_args: Any, view_kwargs: Any
    ) -> HttpResponse | None:
        values = [*view_args, *view_kwargs.values()]
        if any(isinstance(v, int) and not isinstance(v, bool) and not 0 <= v <= MAX_ID for v in values):
            raise Http404("No such object.")
        return None
