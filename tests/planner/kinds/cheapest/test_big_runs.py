"""A search of a run that keeps its jobs apart (``Run.jobs_stored``; the line lowered here): a
candidate opens as a comparison that reuses the run's chunks, never the jobs read into one
document in the request, with the cluster the same candidate of the same search inline has."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.urls import reverse

from planner.runs.models import Run, RunJobChunk
from planner.runs.selectors import run_scenario_document
from planner.runs.services import run_start
from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import scenario_document
from planner.teams.models import Team
from scheduling import parse_scenario

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("jobs_apart")]

PARAMS = {"counts": {"m1.large": [0, 4], "m2.xlarge": [1, 3]}, "max_miss_pct": 10, "workers": 2}


def test_a_candidate_of_a_big_search_opens_as_a_comparison_on_its_jobs(
    owner: Any, team: Team, cluster: Cluster, workload: Workload, client_for: Callable[[Any], Any],
    execute_run: Callable[[int], str], no_whole_jobs: Callable[[], AbstractContextManager[None]],
) -> None:
    search = run_start(user=owner, cluster=cluster, workload=workload, kind="cheapest", params=PARAMS)
    inline = run_start(user=owner, team=team, scenario=scenario_document(cluster, workload), kind="cheapest",
                       params=PARAMS)
    assert search.jobs_stored and not inline.jobs_stored
    client = client_for(owner)
    with no_whole_jobs():  # any candidate opens, whether or not the search has finished
        response = client.post(reverse("web:cheapest-candidate-compare", args=[search.pk, 3]))
        missing = client.post(reverse("web:cheapest-candidate-compare", args=[search.pk, 999]))
    assert missing.status_code == 404
    assert response.status_code == 302
    comparison = Run.objects.get(kind="compare")
    assert comparison.jobs_stored and comparison.job_count == 30
    chunks = RunJobChunk.objects.filter(run=search).count()
    assert RunJobChunk.objects.filter(run=comparison).count() == chunks
    assert client.post(reverse("web:cheapest-candidate-compare", args=[inline.pk, 3])).status_code == 302
    twin = Run.objects.filter(kind="compare").exclude(pk=comparison.pk).get()
    assert parse_scenario(run_scenario_document(comparison)) == parse_scenario(twin.scenario)
    assert comparison.options == twin.options and comparison.name.split(" — ")[1] == twin.name.split(" — ")[1]
    assert execute_run(comparison.pk) == "succeeded"
