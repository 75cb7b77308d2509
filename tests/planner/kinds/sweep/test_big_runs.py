"""A sweep of a run that keeps its jobs apart (``Run.jobs_stored``; the line lowered here): a
point opens as a comparison that reuses the run's chunks (longer jobs scaled column by column),
never the jobs read into one document in the request, and runs as the same point of the same
sweep with its jobs inline."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.urls import reverse

from planner.kinds.sweep import kind as sweep_kind
from planner.runs.models import Run, RunJobChunk, RunResult
from planner.runs.selectors import run_scenario_document
from planner.runs.services import run_start
from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import scenario_document
from planner.teams.models import Team
from scheduling import parse_scenario

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("jobs_apart")]

#: Point 1: m1.large x2 and jobs 1.5 times longer; point 2: m1.large x2 and 2 times as many jobs.
PARAMS = {"vary": {"counts.m1.large": [2], "load.sizes": [1.5]}, "schedulers": ["edf-bfd"], "seeds": 1}
MORE_JOBS = {"vary": {"load.jobs": [2]}, "schedulers": ["edf-bfd"], "seeds": 1}


@pytest.fixture(autouse=True)
def one_part(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep_kind, "TARGET_PART_S", 100.0)


def test_a_point_of_a_big_sweep_opens_as_a_comparison_on_its_jobs(
    owner: Any, team: Team, cluster: Cluster, workload: Workload, client_for: Callable[[Any], Any],
    execute_run: Callable[[int], str], no_whole_jobs: Callable[[], AbstractContextManager[None]],
) -> None:
    sweep = run_start(user=owner, cluster=cluster, workload=workload, kind="sweep", params=PARAMS)
    inline = run_start(user=owner, team=team, scenario=scenario_document(cluster, workload), kind="sweep",
                       params=PARAMS)
    assert sweep.jobs_stored and not inline.jobs_stored
    assert execute_run(sweep.pk) == execute_run(inline.pk) == "succeeded"
    with no_whole_jobs():
        response = client_for(owner).post(reverse("web:sweep-point-compare", args=[sweep.pk, 1]))
    assert response.status_code == 302
    comparison = Run.objects.get(kind="compare")
    assert comparison.jobs_stored and comparison.job_count == 30 and "point 1" in comparison.name
    assert RunJobChunk.objects.filter(run=comparison).count() == RunJobChunk.objects.filter(run=sweep).count()
    assert client_for(owner).post(reverse("web:sweep-point-compare", args=[inline.pk, 1])).status_code == 302
    twin = Run.objects.filter(kind="compare").exclude(pk=comparison.pk).get()
    assert parse_scenario(run_scenario_document(comparison)) == parse_scenario(twin.scenario)
    assert comparison.options == twin.options

    assert execute_run(comparison.pk) == execute_run(twin.pk) == "succeeded"
    costs = [RunResult.objects.get(run=r, variant="edf-bfd").summary["total_cost"]
             for r in (comparison, twin)]
    point = RunResult.objects.get(run=sweep, variant="point 1").summary["total_cost"]
    assert costs[0] == pytest.approx(costs[1]) and costs[0] == pytest.approx(point)


def test_a_point_that_draws_more_jobs_from_a_big_sweep_is_refused_naming_the_load(
    owner: Any, cluster: Cluster, workload: Workload, client_for: Callable[[Any], Any],
    execute_run: Callable[[int], str], no_whole_jobs: Callable[[], AbstractContextManager[None]],
) -> None:
    sweep = run_start(user=owner, cluster=cluster, workload=workload, kind="sweep", params=MORE_JOBS)
    assert execute_run(sweep.pk) == "succeeded"
    client = client_for(owner)
    with no_whole_jobs():
        response = client.post(reverse("web:sweep-point-compare", args=[sweep.pk, 1]), follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Point 1 cannot be compared: load: more jobs cannot be drawn from a run of 30 jobs" in text
    assert not Run.objects.filter(kind="compare").exists()
