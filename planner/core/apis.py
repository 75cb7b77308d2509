"""Helpers every API module uses: validate a request body with a serializer."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.serializers import BaseSerializer


def validated(serializer_class: type[BaseSerializer[Any]], request: Request, *, partial: bool = False) -> dict[str, Any]:
    """The request body checked by ``serializer_class`` (400 with paths when it is not valid).

    With ``partial`` only the fields present are returned (PATCH).
    """
    serializer = serializer_class(data=request.data, partial=partial, context={"request": request})
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def team_filter(request: Request) -> int | None:
    """The ``?team=<id>`` filter of a list request (ignored when it is not an integer)."""
    raw = request.query_params.get("team", "")
    return int(raw) if raw.isdigit() else None


def request_object(request: Request) -> dict[str, Any]:
    """The request body, which must be a JSON object."""
    from rest_framework.exceptions import ValidationError

    if not isinstance(request.data, dict):
        raise ValidationError({"non_field_errors": ["The request body must be a JSON object."]})
    return dict(request.data)
