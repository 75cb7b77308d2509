"""Later pages of a paged figure (a comparison's Gantt charts) through the API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from planner.runs import services
from planner.runs.models import Run
from scheduling.cost.charts import gantt_figure

pytestmark = pytest.mark.django_db


@pytest.fixture
def run(team: Any, owner: Any, scenario_doc: dict[str, Any], execute_run: Callable[[int], str]) -> Run:
    run = services.run_start(
        user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd", "fifo-spread"]
    )
    execute_run(run.pk)
    return Run.objects.get(pk=run.pk)


def test_every_page_of_a_gantt_chart_is_served(
    api: Callable[[Any], Any], owner: Any, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from planner.kinds.compare import kind as compare

    monkeypatch.setattr(compare, "gantt_page_size", lambda schedulers: 8)  # 30 jobs: four pages
    first = api(owner).get(f"/api/runs/{run.pk}/figure-page/", {"figure": "gantt:edf-bfd", "page": 0}).json()
    meta = first["layout"]["meta"]
    assert (meta["page"], meta["pages"], meta["jobs"], meta["jobs_per_page"]) == (0, 4, 30, 8)
    seen = []
    for page in range(meta["pages"]):
        body = (
            api(owner)
            .get(f"/api/runs/{run.pk}/figure-page/", {"figure": "gantt:edf-bfd", "page": page})
            .json()
        )
        expected = gantt_figure(run.results.get(variant="edf-bfd").result, 8, page=page)
        assert body == expected
        seen.append((body["layout"]["meta"]["first_job"], body["layout"]["meta"]["last_job"]))
    assert seen == [(1, 8), (9, 16), (17, 24), (25, 30)]


@pytest.mark.parametrize(
    ("query", "status", "path"),
    [
        ({"figure": "gantt:edf-bfd", "page": "x"}, 400, "page"),
        ({"figure": "gantt:edf-bfd", "page": "-1"}, 400, "page"),
        ({"figure": "gantt:edf-bfd", "page": "99"}, 400, "page"),
        ({"figure": "utilisation", "page": "1"}, 404, None),
        ({"figure": "gantt:no-such-scheduler", "page": "0"}, 404, None),
    ],
)
def test_bad_pages_are_named(
    api: Callable[[Any], Any], owner: Any, run: Run, query: dict[str, str], status: int, path: str | None
) -> None:
    response = api(owner).get(f"/api/runs/{run.pk}/figure-page/", query)
    assert response.status_code == status
    if path:
        assert [e["path"] for e in response.json()["errors"]] == [path]


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404)])
def test_pages_for_the_trio(
    api: Callable[[Any], Any], trio: dict[str, Any], run: Run, who: str, status: int
) -> None:
    response = api(trio[who]).get(f"/api/runs/{run.pk}/figure-page/", {"figure": "gantt:edf-bfd", "page": 0})
    assert response.status_code == status


def test_the_first_page_is_the_one_cached_with_the_run(
    api: Callable[[Any], Any], owner: Any, run: Run
) -> None:
    """Later pages follow the cached first page: the same number of jobs per page."""
    served = (
        api(owner).get(f"/api/runs/{run.pk}/figure-page/", {"figure": "gantt:fifo-spread", "page": 0}).json()
    )
    assert run.figures is not None and served == run.figures["gantt:fifo-spread"]
