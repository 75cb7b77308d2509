"""Helpers every API module uses, and the endpoint of no app: the root.

(Signing in, the token endpoints, lives in :mod:`planner.accounts.apis`.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import URLPattern, get_resolver
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

from scheduling.jsontext import join_path

from .errors import FieldError, InputError
from .queries import query_id


def validated(
    serializer_class: type[BaseSerializer[Any]], request: Request, *, partial: bool = False
) -> dict[str, Any]:
    """The request body checked by ``serializer_class`` (400 with paths when it is not valid).

    With ``partial`` only the fields present are returned (PATCH). A field the serializer does
    not declare is refused (:func:`refuse_unknown_fields`), unless the serializer reads the
    others itself (``extra_fields = True``: a run request's kind parameters).
    """
    serializer = serializer_class(data=request.data, partial=partial, context={"request": request})
    if not getattr(serializer_class, "extra_fields", False):
        refuse_unknown_fields(serializer, request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def refuse_unknown_fields(serializer: BaseSerializer[Any], data: Any, path: str = "") -> None:
    """:class:`~planner.core.errors.InputError` naming each field of ``data`` (an object, or a
    form's fields and files) that ``serializer`` does not declare: a misspelt field
    (``prise_per_hour``) must not pass for a request that changes nothing."""
    if not isinstance(data, Mapping):
        return
    known = {name for name, field in getattr(serializer, "fields", {}).items() if not field.read_only}
    unknown = [key for key in data if key not in known]
    if unknown:
        expected = ", ".join(sorted(known))
        raise InputError([
            FieldError(join_path(path, str(key)), f"unknown field (expected one of: {expected})")
            for key in unknown
        ])


def team_filter(request: Request) -> int | None:
    """The ``?team=<id>`` filter of a list request (a 400 at ``team`` when it is not an id)."""
    return query_id(request.query_params, "team", what="team")


def request_object(request: Request) -> dict[str, Any]:
    """The request body, which must be a JSON object."""
    if not isinstance(request.data, dict):
        raise ValidationError({"non_field_errors": ["The request body must be a JSON object."]})
    return dict(request.data)


def endpoint_links(request: Request) -> dict[str, str]:
    """``{"teams": "http://host/api/teams/", ...}``: every endpoint of the request's URL
    namespace whose route takes no id (collections, imports, the token, the schema, the
    docs), in the URLconf's order, except the one answering."""
    match = request.resolver_match
    if match is None:  # only a view reached through the URLconf has links
        raise ValueError("endpoint_links() needs a request resolved by the URLconf")
    _, resolver = get_resolver().namespace_dict[match.namespace]
    links: dict[str, str] = {}
    for pattern in resolver.url_patterns:
        if not isinstance(pattern, URLPattern) or not pattern.name or pattern.name == match.url_name:
            continue
        if getattr(pattern.pattern, "converters", None) or "(?P<" in str(pattern.pattern):
            continue  # a route with an id
        links[str(pattern.pattern).strip("/")] = reverse(f"{match.namespace}:{pattern.name}", request=request)
    return links


class ApiRootApi(APIView):
    """The API's entry point: links to every collection, like DRF's router root."""

    @extend_schema(
        responses=OpenApiResponse(
            response={"type": "object", "additionalProperties": {"type": "string", "format": "uri"}},
            description="A link to each endpoint that takes no id, by its path: "
            '`{"teams": ".../api/teams/", "vm-types": ".../api/vm-types/", ...}`.',
        ),
        tags=["api"],
    )
    def get(self, request: Request) -> Response:
        return Response(endpoint_links(request))
