"""Page-number pagination for every list endpoint (``?page=2&page_size=50``)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage, Page, PageNotAnInteger
from django.core.paginator import Paginator as DjangoPaginator
from django.db.models import QuerySet
from rest_framework import pagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView


class CountWhenFullPaginator(DjangoPaginator):
    """Django's paginator, which asks the database for the count only when it must.

    Django counts first (``SELECT COUNT(*)``), then reads the page. Here the page is read
    first: a page shorter than a full one is the last, so the count is the rows before it and
    on it, and a page with no rows is the empty first page or beyond the last. Only a full page
    needs the count. So a list that fits one page (a team's runs, most lists) is one query; the
    pages, their numbers and the errors for a page that does not exist are Django's.
    """

    def page(self, number: Any) -> Page:
        if self.orphans or "count" in self.__dict__:
            return super().page(number)
        number = self._whole(number)
        bottom = (number - 1) * self.per_page
        rows = list(self.object_list[bottom : bottom + self.per_page])
        if not rows and number > 1:
            raise EmptyPage(self.error_messages["no_results"])
        if len(rows) < self.per_page:
            self.count = bottom + len(rows)  # sets Django's cached property
        # Django's hook for the page class (not in the stubs).
        return self._get_page(rows, self.validate_number(number), self)  # type: ignore[attr-defined]

    def _whole(self, number: Any) -> int:
        """The page number as Django's ``validate_number`` reads it, without the upper bound
        (which needs the count)."""
        try:
            if isinstance(number, float) and not number.is_integer():
                raise ValueError
            number = int(number)
        except (TypeError, ValueError):
            raise PageNotAnInteger(self.error_messages["invalid_page"]) from None
        if number < 1:
            raise EmptyPage(self.error_messages["min_page"])
        return number


class PageNumberPagination(pagination.PageNumberPagination):
    django_paginator_class = CountWhenFullPaginator
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
    """One page of ``queryset`` serialised, with ``count``, ``next`` and ``previous``.

    One query for the page, and a second for the count only when the page is full
    (:class:`CountWhenFullPaginator`).
    """
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    data = serializer_class(page, many=True, context={"request": request, **(context or {})}).data
    return paginator.get_paginated_response(data)
