"""manage.py planner_demo: the demo user, team, cluster and workload; idempotent."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from planner.catalogue.models import VMType
from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import scenario_document
from planner.teams.models import Membership, Team
from scheduling import parse_scenario

pytestmark = pytest.mark.django_db


def test_demo_is_complete_and_idempotent() -> None:
    call_command("planner_demo", verbosity=0)
    counts = [m.objects.count() for m in (Team, Membership, VMType, Cluster, Workload)]
    call_command("planner_demo", verbosity=0)
    assert [m.objects.count() for m in (Team, Membership, VMType, Cluster, Workload)] == counts

    user = authenticate(username="demo", password="demo-planner")
    assert user is not None
    team = Team.objects.get(name="Demo team")
    assert Membership.objects.get(team=team, user=user).role == "owner"
    cluster = Cluster.objects.get(team=team, name="Paper 003 cluster (Table 3)")
    workload = Workload.objects.get(team=team)
    assert workload.job_count == 1000
    scenario = parse_scenario(scenario_document(cluster, workload))
    expected = [("m1.large", 6), ("m1.xlarge", 5), ("m2.xlarge", 3)]
    assert [(t.name, t.count) for t in scenario.vm_types] == expected


def test_demo_restores_the_password() -> None:
    call_command("planner_demo", verbosity=0)
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="demo")
    user.set_password("changed")
    user.save()
    call_command("planner_demo", verbosity=0)
    assert authenticate(username="demo", password="demo-planner") is not None


def test_demo_generates_jobs_when_the_csv_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    from pathlib import Path

    from planner.core.management.commands import planner_demo

    monkeypatch.setattr(planner_demo, "DEMO_CSV", Path(str(tmp_path)) / "missing.csv")
    call_command("planner_demo", verbosity=0)
    assert Workload.objects.get().job_count == 200
