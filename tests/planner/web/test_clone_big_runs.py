"""``?clone=`` of a run that keeps its jobs apart (``Run.jobs_stored``; the line lowered here) on
every kind's start page: a form cannot hold a million jobs, so the page starts from the run's
cluster and workload and says so, or says why it cannot and links the run's own scenario; the
request never reads the run's jobs (``no_whole_jobs``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.urls import reverse

from planner.runs.services import run_start
from planner.scenarios.models import Cluster, Workload
from planner.teams.models import Team
from scheduling import parse_scenario

pytestmark = [pytest.mark.django_db]

Guard = Callable[[], AbstractContextManager[None]]
#: Start pages of kinds that fill the scenario's text box from a clone (the comparison's page
#: starts from a run's cluster and workload whatever its size: its own tests).
PAGES = ["web:sweep-start", "web:mrsu-start", "web:allocation-start"]


@pytest.mark.usefixtures("jobs_apart")
@pytest.mark.parametrize("page", PAGES)
def test_a_big_run_clones_by_its_cluster_and_workload_or_says_why_not(
    owner_client: Any, owner: Any, cluster: Cluster, workload: Workload, no_whole_jobs: Guard, page: str,
) -> None:
    run = run_start(user=owner, cluster=cluster, workload=workload, schedulers=["edf-bfd"])
    url = reverse(page) + f"?clone={run.pk}"
    with no_whole_jobs():
        response = owner_client.get(url)
    assert response.status_code == 200
    form = response.context["form"]
    assert form.initial["source"] == "stored" and not form.initial.get("document")
    assert (form.initial["cluster"], form.initial["workload"]) == (cluster.pk, workload.pk)
    text = response.content.decode()
    assert f"Run #{run.pk} has 30 jobs, too many to copy into this form" in text
    assert "as they are now" in text

    workload.delete()
    with no_whole_jobs():
        response = owner_client.get(url)
    assert response.status_code == 200
    assert not response.context["form"].initial.get("document")
    text = response.content.decode()
    assert "it did not run on a cluster and a workload that still exist" in text
    assert f'href="{reverse("api:run-scenario", args=[run.pk])}"' in text


@pytest.mark.parametrize("page", PAGES)
def test_a_small_run_still_clones_its_whole_document(
    owner_client: Any, owner: Any, team: Team, scenario_doc: dict[str, Any], page: str,
) -> None:
    run = run_start(user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd"])
    response = owner_client.get(reverse(page) + f"?clone={run.pk}")
    assert response.status_code == 200
    form = response.context["form"]
    assert form.initial["source"] == "document" and not form.clone_note
    assert parse_scenario(json.loads(form.initial["document"])) == parse_scenario(scenario_doc)
