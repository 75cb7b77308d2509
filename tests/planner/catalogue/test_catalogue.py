"""VM type catalogue: validation by the library's rules, permissions, API."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from planner.catalogue import services
from planner.catalogue.models import VMType
from planner.core.errors import InputError
from planner.scenarios.models import Cluster
from planner.teams.models import Team

pytestmark = pytest.mark.django_db


def paths(exc: InputError) -> dict[str, str]:
    return {e.path: e.message for e in exc.errors}


def test_vm_type_create_cleans_values(team: Team, member: Any) -> None:
    t = services.vm_type_create(
        team=team, user=member, name="c5.large", capacity={"cpu": 2.0, "mem": 4}, price_per_hour=0.1
    )
    assert t.capacity == {"cpu": 2, "mem": 4}
    assert isinstance(t.capacity["cpu"], int)
    assert t.created_by == member


@pytest.mark.parametrize(
    "fields, path, message",
    [
        ({"capacity": {"cpu": -1, "mem": 4}}, "capacity.cpu", "must be >= 0"),
        ({"capacity": {"cpu": 0, "mem": 0}}, "capacity", "must have some resource > 0"),
        ({"capacity": {"cpu": float("nan"), "mem": 4}}, "capacity.cpu", "must be a finite number"),
        ({"capacity": []}, "capacity", "must be an object"),
        ({"capacity": {"cpu": "4"}}, "capacity.cpu", "must be a number"),
        ({"price_per_hour": -0.5}, "price_per_hour", "must be >= 0"),
        ({"price_per_hour": 1e7}, "price_per_hour", "must be <= 1e+06"),
        ({"name": "has#hash"}, "name", "must not contain '#'"),
        ({"name": ""}, "name", "must not be empty"),
    ],
)
def test_vm_type_validation_errors_have_field_paths(
    team: Team, owner: Any, fields: dict[str, Any], path: str, message: str
) -> None:
    values = {"name": "x1", "capacity": {"cpu": 2, "mem": 4}, "price_per_hour": 0.1, **fields}
    before = VMType.objects.count()
    with pytest.raises(InputError) as exc:
        services.vm_type_create(team=team, user=owner, **values)
    assert path in paths(exc.value), exc.value.errors
    assert message in paths(exc.value)[path]
    assert VMType.objects.count() == before


def test_names_are_unique_per_team(team: Team, other_team: Team, owner: Any, outsider: Any) -> None:
    with pytest.raises(InputError) as exc:
        services.vm_type_create(team=team, user=owner, name="m1.large", capacity={"cpu": 1}, price_per_hour=1)
    assert "name" in paths(exc.value)
    # another team may use the same name
    assert VMType.objects.filter(team=other_team, name="m1.large").exists()


def test_members_change_only_their_own_vm_types(team: Team, owner: Any, member: Any) -> None:
    theirs = VMType.objects.get(team=team, name="type-1")  # seeded by the owner
    with pytest.raises(PermissionDenied):
        services.vm_type_update(vm_type=theirs, user=member, price_per_hour=1.0)
    with pytest.raises(PermissionDenied):
        services.vm_type_delete(vm_type=theirs, user=member)
    mine = services.vm_type_create(
        team=team, user=member, name="mine", capacity={"cpu": 1, "mem": 1}, price_per_hour=1
    )
    services.vm_type_update(vm_type=mine, user=member, price_per_hour=2)
    assert VMType.objects.get(pk=mine.pk).price_per_hour == 2.0
    services.vm_type_delete(vm_type=theirs, user=owner)  # owners may
    assert not VMType.objects.filter(pk=theirs.pk).exists()


def test_a_vm_type_in_use_cannot_be_deleted_or_lose_a_resource(cluster: Cluster, owner: Any) -> None:
    used = VMType.objects.get(team=cluster.team, name="m1.large")
    with pytest.raises(InputError) as exc:
        services.vm_type_delete(vm_type=used, user=owner)
    assert "Table 3" in exc.value.errors[0].message
    with pytest.raises(InputError) as exc:
        services.vm_type_update(vm_type=used, user=owner, capacity={"cpu": 4})
    assert "capacity.mem" in paths(exc.value)
    assert VMType.objects.get(pk=used.pk).capacity == {"cpu": 4, "mem": 16}


def test_seeding_twice_adds_nothing(team: Team, owner: Any) -> None:
    before = VMType.objects.filter(team=team).count()
    assert services.vm_types_seed_presets(team=team, user=owner) == []
    assert VMType.objects.filter(team=team).count() == before


# --------------------------------------------------------------------------- API


def test_list_shows_only_the_users_teams(
    api: Any, trio: dict[str, Any], team: Team, other_team: Team
) -> None:
    data = api(trio["member"]).get("/api/vm-types/").json()
    assert data["count"] == 6
    assert {t["team"] for t in data["results"]} == {team.pk}
    assert api(trio["outsider"]).get(f"/api/vm-types/?team={team.pk}").json()["count"] == 0


@pytest.mark.parametrize("who, status", [("owner", 200), ("member", 200), ("outsider", 404)])
def test_detail(api: Any, trio: dict[str, Any], team: Team, who: str, status: int) -> None:
    t = VMType.objects.get(team=team, name="m1.large")
    assert api(trio[who]).get(f"/api/vm-types/{t.pk}/").status_code == status


@pytest.mark.parametrize("who, status", [("owner", 200), ("member", 403), ("outsider", 404)])
def test_patch_of_the_owners_vm_type(
    api: Any, trio: dict[str, Any], team: Team, who: str, status: int
) -> None:
    t = VMType.objects.get(team=team, name="type-2")
    response = api(trio[who]).patch(f"/api/vm-types/{t.pk}/", {"price_per_hour": 0.5}, format="json")
    assert response.status_code == status
    assert VMType.objects.get(pk=t.pk).price_per_hour == (0.5 if status == 200 else 0.0)


@pytest.mark.parametrize("who, status", [("owner", 204), ("member", 403), ("outsider", 404)])
def test_delete_of_the_owners_vm_type(
    api: Any, trio: dict[str, Any], team: Team, who: str, status: int
) -> None:
    t = VMType.objects.get(team=team, name="type-2")
    assert api(trio[who]).delete(f"/api/vm-types/{t.pk}/").status_code == status
    assert VMType.objects.filter(pk=t.pk).exists() == (status != 204)


def test_create_defaults_to_the_users_team(api: Any, member: Any, team: Team) -> None:
    response = api(member).post(
        "/api/vm-types/",
        {"name": "g1", "capacity": {"cpu": 8, "mem": 32, "gpu": 1}, "price_per_hour": 2.5},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["team"] == team.pk
    assert response.json()["created_by"] == "mario"


def test_create_in_a_team_of_someone_else_is_a_400_that_reveals_nothing(
    api: Any, outsider: Any, team: Team
) -> None:
    response = api(outsider).post(
        "/api/vm-types/",
        {"team": team.pk, "name": "g1", "capacity": {"cpu": 1}, "price_per_hour": 1},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == "team"
    assert not VMType.objects.filter(team=team, name="g1").exists()


def test_create_errors_are_paths(api: Any, owner: Any, team: Team) -> None:
    response = api(owner).post(
        "/api/vm-types/",
        {"name": "bad", "capacity": {"cpu": -2, "mem": 4}, "price_per_hour": -1},
        format="json",
    )
    assert response.status_code == 400
    errors = {e["path"]: e["message"] for e in response.json()["errors"]}
    assert errors == {"capacity.cpu": "must be >= 0", "price_per_hour": "must be >= 0"}


def test_list_query_count_is_constant(api: Any, owner: Any, team: Team, count_queries: Any) -> None:
    client = api(owner)
    few = count_queries(lambda: client.get("/api/vm-types/"))
    for i in range(10):
        services.vm_type_create(
            team=team, user=owner, name=f"extra-{i}", capacity={"cpu": 1, "mem": 1}, price_per_hour=1
        )
    many = count_queries(lambda: client.get("/api/vm-types/"))
    assert few == many
