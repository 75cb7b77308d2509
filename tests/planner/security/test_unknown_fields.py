"""Issue 21: a create or edit request with a field the endpoint does not know is a 400 that
names the field's path (``prise_per_hour``), as scenario documents already are, and changes
nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from planner.catalogue.models import VMType
from planner.scenarios.models import Cluster, Workload
from planner.teams.models import Membership, Team

ENTRY = {"vm_type": "m1.large", "count": 2}


def cases(team: Team, cluster: Cluster, workload: Workload, member: Any) -> list[tuple[str, str, Any, str]]:
    """(method, path, body, the unknown field's path)."""
    vm_type = VMType.objects.filter(team=team).first()
    assert vm_type is not None
    jobs_csv = "id,arrival_s,executors,cpu,mem,duration_s\nj1,0,1,1,1,10\n"
    return [
        ("post", "/api/teams/", {"name": "T", "colour": "red"}, "colour"),
        ("patch", f"/api/teams/{team.pk}/", {"name": "T", "colour": "red"}, "colour"),
        ("post", f"/api/teams/{team.pk}/members/", {"username": "nobody", "rank": 1}, "rank"),
        ("patch", f"/api/teams/{team.pk}/members/{member.pk}/", {"role": "owner", "rank": 1}, "rank"),
        (
            "post",
            "/api/vm-types/",
            {"name": "v", "capacity": {"cpu": 1, "mem": 1}, "price_per_hour": 1, "prise_per_hour": 2},
            "prise_per_hour",
        ),
        ("patch", f"/api/vm-types/{vm_type.pk}/", {"prise_per_hour": 9}, "prise_per_hour"),
        (
            "put",
            f"/api/vm-types/{vm_type.pk}/",
            {"name": vm_type.name, "capacity": vm_type.capacity, "price_per_hour": 1, "prise_per_hour": 9},
            "prise_per_hour",
        ),
        ("post", "/api/clusters/", {"name": "c", "entries": [ENTRY], "size": 3}, "size"),
        ("patch", f"/api/clusters/{cluster.pk}/", {"size": 3}, "size"),
        ("patch", f"/api/clusters/{cluster.pk}/", {"entries": [{**ENTRY, "cnt": 3}]}, "entries[0].cnt"),
        ("post", "/api/workloads/", {"name": "w", "joobs": []}, "joobs"),
        ("patch", f"/api/workloads/{workload.pk}/", {"joobs": []}, "joobs"),
        (
            "post",
            f"/api/workloads/{workload.pk}/import-csv/",
            {"csv": jobs_csv, "replace_all": True},
            "replace_all",
        ),
        ("post", f"/api/workloads/{workload.pk}/generate/", {"seed": 1, "jbos": 5}, "jbos"),
        ("post", "/api/scenarios/import/", {"scenario": {}, "nmae": "x"}, "nmae"),
    ]


@pytest.fixture
def all_cases(
    team: Team, cluster: Cluster, workload: Workload, member: Any
) -> list[tuple[str, str, Any, str]]:
    return cases(team, cluster, workload, member)


def snapshot() -> list[Any]:
    return [
        list(Team.objects.values()),
        list(Membership.objects.values()),
        list(VMType.objects.values()),
        list(Cluster.objects.values()),
        list(Workload.objects.values()),
    ]


def test_every_create_and_edit_endpoint_refuses_an_unknown_field(
    api: Callable[[Any], Any], owner: Any, all_cases: list[tuple[str, str, Any, str]]
) -> None:
    client = api(owner)
    wrong = []
    for method, path, body, field in all_cases:
        before = snapshot()
        response = getattr(client, method)(path, body, format="json")
        paths = [e["path"] for e in response.json().get("errors", [])] if response.status_code == 400 else []
        if response.status_code != 400 or field not in paths:
            wrong.append((method, path, response.status_code, response.content[:200]))
        assert snapshot() == before, (method, path)
    assert not wrong


def test_the_message_says_the_field_is_unknown(api: Callable[[Any], Any], owner: Any, team: Team) -> None:
    vm_type = VMType.objects.filter(team=team).first()
    assert vm_type is not None
    response = api(owner).patch(f"/api/vm-types/{vm_type.pk}/", {"prise_per_hour": 2}, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["path"] == "prise_per_hour"
    assert "unknown field" in error["message"]


def test_a_multipart_upload_with_an_unknown_field_is_refused(
    api: Callable[[Any], Any], owner: Any, workload: Workload
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("jobs.csv", b"id,arrival_s,executors,cpu,mem,duration_s\nj1,0,1,1,1,10\n")
    response = api(owner).post(
        f"/api/workloads/{workload.pk}/import-csv/", {"file": upload, "fromat": "jobs"}, format="multipart"
    )
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["fromat"]
