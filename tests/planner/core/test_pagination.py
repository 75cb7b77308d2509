"""Every list endpoint's pages (planner.core.pagination): Django's pages and errors, with the
count asked of the database only when a page is full."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from planner.catalogue.models import VMType
from planner.core.pagination import CountWhenFullPaginator
from planner.teams.models import Team

pytestmark = pytest.mark.django_db


def counts(ctx: CaptureQueriesContext) -> int:
    return sum("COUNT(" in q["sql"].upper() for q in ctx.captured_queries)


@pytest.fixture
def vm_types(team: Team) -> int:
    """How many VM types the team sees (its seeded catalogue)."""
    return VMType.objects.filter(team=team).count()


def test_a_list_that_fits_one_page_is_not_counted(api: Any, owner: Any, vm_types: int) -> None:
    with CaptureQueriesContext(connection) as ctx:
        body = api(owner).get(f"/api/vm-types/?page_size={vm_types + 1}").json()
    assert body["count"] == vm_types and len(body["results"]) == vm_types
    assert body["next"] is None and body["previous"] is None
    assert counts(ctx) == 0


def test_full_pages_are_counted_and_the_last_page_is_not(api: Any, owner: Any, vm_types: int) -> None:
    assert vm_types > 3
    client = api(owner)
    with CaptureQueriesContext(connection) as ctx:
        first = client.get("/api/vm-types/?page_size=2").json()
    assert first["count"] == vm_types and len(first["results"]) == 2 and first["next"]
    assert counts(ctx) == 1
    last_page = (vm_types + 1) // 2
    last = client.get(f"/api/vm-types/?page_size=2&page={last_page}").json()
    assert last["count"] == vm_types and last["next"] is None and last["previous"]
    assert [r["id"] for r in client.get("/api/vm-types/?page_size=2&page=last").json()["results"]] == [
        r["id"] for r in last["results"]
    ]
    seen = []
    for page in range(1, last_page + 1):
        seen += [r["id"] for r in client.get(f"/api/vm-types/?page_size=2&page={page}").json()["results"]]
    assert len(seen) == len(set(seen)) == vm_types


@pytest.mark.parametrize("page", ["0", "-1", "x", "1.5", "99"])
def test_a_page_that_does_not_exist_is_a_404(api: Any, owner: Any, team: Team, page: str) -> None:
    assert api(owner).get(f"/api/vm-types/?page={page}").status_code == 404


def test_an_empty_list_is_one_empty_page(api: Any, owner: Any, team: Team) -> None:
    with CaptureQueriesContext(connection) as ctx:
        body = api(owner).get("/api/runs/").json()
    assert body == {"count": 0, "next": None, "previous": None, "results": []}
    assert counts(ctx) == 0
    assert api(owner).get("/api/runs/?page=2").status_code == 404


def test_the_paginator_agrees_with_djangos() -> None:
    from django.core.paginator import InvalidPage, Paginator

    for total in range(0, 8):
        for per_page in (1, 2, 3, 5):
            numbers: tuple[Any, ...] = (1, 2, 3, 4, 9, "2", 2.0)
            for number in numbers:
                items = list(range(total))
                try:
                    expected = Paginator(items, per_page).page(number)
                except InvalidPage as exc:
                    with pytest.raises(type(exc)):
                        CountWhenFullPaginator(items, per_page).page(number)
                    continue
                page = CountWhenFullPaginator(items, per_page).page(number)
                assert list(page) == list(expected) and page.number == expected.number
                assert page.paginator.count == total and page.has_next() == expected.has_next()
