"""Page-number pagination for every list endpoint (``?page=2&page_size=50``)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework import pagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView


class PageNumberPagination(pagination.PageNumberPagination):
    page_size = 25
    page_size_query_param = "page_size"
    max_page_size = 200


def paginated_response(
    *,
    request: Request,
    view: APIView,
    queryset: QuerySet[Any],
    serializer_class: type[BaseSerializer[Any]],
    context: dict[str, Any] | None = None,
) -> Response:
    """One page of ``queryset`` serialised, with ``count``, ``next`` and ``previous``."""
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    data = serializer_class(page, many=True, context={"request": request, **(context or {})}).data
    return paginator.get_paginated_response(data)
