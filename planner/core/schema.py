"""The OpenAPI schema says what the API really answers (a drf-spectacular post-processing hook).

* A list that is paginated (its view answers with :func:`planner.core.pagination.paginated_response`)
  is described as ``{count, next, previous, results: [...]}``, as it is sent.
* Every operation may answer with the API's error body (``{detail, errors: [{path, message}]}``)
  for bad input (400), no or a bad sign-in (401), a forbidden change (403), an object of no
  team of yours (404), a body too large (413) or of another type (415), and too many requests
  (429). Schemathesis checks every answer against this (tests/planner/security/test_schemathesis.py).
"""

from __future__ import annotations

import inspect
from typing import Any

ERRORS = {
    "400": "Invalid input: each problem with its path.",
    "401": "Not signed in, or the token is unknown, revoked or expired.",
    "403": "Signed in, but not allowed (an owner's or the creator's change).",
    "404": "No such object in your teams.",
    "413": "The request body is larger than the limit.",
    "415": "The body's media type is not one this endpoint reads.",
    "429": "Too many requests: throttled, or signing in is locked out for a while.",
}

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "detail": {"type": "string"},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"path": {"type": "string"}, "message": {"type": "string"}},
                "required": ["path", "message"],
            },
        },
    },
    "required": ["detail"],
}


def _page_of(items: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "count": {"type": "integer"},
            "next": {"type": "string", "format": "uri", "nullable": True},
            "previous": {"type": "string", "format": "uri", "nullable": True},
            "results": items,
        },
        "required": ["count", "next", "previous", "results"],
    }


def _paginated(generator: Any) -> set[str]:
    """The paths whose ``GET`` answers a page: the view's ``get`` calls ``paginated_response``."""
    out = set()
    for path, _regex, method, view in getattr(generator, "endpoints", None) or []:
        get = getattr(getattr(view, "cls", None), "get", None)
        if method.upper() != "GET" or get is None:
            continue
        try:
            source = inspect.getsource(get)
        except (OSError, TypeError):
            continue
        if "paginated_response(" in source:
            out.add(path.replace("{pk}", "{id}"))
    return out


def document_errors_and_pages(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``: pages and error answers, as sent."""
    paginated = _paginated(generator)
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    error_content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            ok = responses.get("200")
            if method == "get" and isinstance(ok, dict) and path in paginated:
                for media in ok.get("content", {}).values():
                    schema = media.get("schema", {})
                    if schema.get("type") == "array":
                        media["schema"] = _page_of(schema)
            for code, description in ERRORS.items():
                responses.setdefault(code, {"description": description, "content": error_content})
    return result
