"""Teams: services, selectors and the API for the owner, a member and an outsider."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404

from planner.catalogue.models import VMType
from planner.core.errors import InputError
from planner.teams import access, selectors, services
from planner.teams.models import Membership, Team
from scheduling.presets import VM_PRESETS

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- services


def test_team_create_makes_the_creator_owner_and_seeds_the_presets(owner: Any) -> None:
    team = services.team_create(owner=owner, name="  Research  ")
    assert team.name == "Research"
    assert access.role_of(owner, team) == Membership.Role.OWNER
    expected = {t["name"]: t for _, types in VM_PRESETS.values() for t in types}
    stored = {t.name: t for t in VMType.objects.filter(team=team)}
    assert (
        set(stored) == set(expected) == {"m1.large", "m1.xlarge", "m2.xlarge", "type-1", "type-2", "type-3"}
    )
    assert stored["m1.large"].capacity == {"cpu": 4, "mem": 16}
    assert stored["m1.large"].price_per_hour == 0.24


def test_team_create_rejects_an_empty_name(owner: Any) -> None:
    with pytest.raises(InputError) as exc:
        services.team_create(owner=owner, name="   ")
    assert exc.value.errors[0].path == "name"
    assert not Team.objects.exists()


def test_only_owners_add_members(team: Team, member: Any, outsider: Any, make_user: Any) -> None:
    newcomer = make_user("nina")
    with pytest.raises(PermissionDenied):
        services.membership_create(team=team, user=member, username=newcomer.username)
    with pytest.raises(Http404):
        services.membership_create(team=team, user=outsider, username=newcomer.username)
    assert access.role_of(newcomer, team) is None


def test_membership_create_reports_unknown_and_duplicate_users(team: Team, owner: Any, member: Any) -> None:
    with pytest.raises(InputError) as exc:
        services.membership_create(team=team, user=owner, username="nobody")
    assert exc.value.errors[0].path == "username"
    with pytest.raises(InputError):
        services.membership_create(team=team, user=owner, username=member.username)
    with pytest.raises(InputError) as exc:
        services.membership_create(team=team, user=owner, username=member.username, role="admin")
    assert exc.value.errors[0].path == "role"


def test_a_team_keeps_at_least_one_owner(team: Team, owner: Any) -> None:
    own = Membership.objects.get(team=team, user=owner)
    with pytest.raises(InputError):
        services.membership_update(membership=own, user=owner, role=Membership.Role.MEMBER)
    with pytest.raises(InputError):
        services.membership_delete(membership=own, user=owner)
    assert Membership.objects.get(pk=own.pk).role == Membership.Role.OWNER


def test_members_may_leave_but_not_remove_others(team: Team, owner: Any, member: Any) -> None:
    with pytest.raises(PermissionDenied):
        services.membership_delete(membership=Membership.objects.get(team=team, user=owner), user=member)
    services.membership_delete(membership=Membership.objects.get(team=team, user=member), user=member)
    assert access.role_of(member, team) is None


def test_can_change_rule() -> None:
    class U:
        pk = 7

    assert access.can_change("owner", U(), created_by_id=1)
    assert access.can_change("member", U(), created_by_id=7)
    assert not access.can_change("member", U(), created_by_id=1)
    assert not access.can_change("member", U(), created_by_id=None)
    assert not access.can_change(None, U(), created_by_id=7)


def test_selectors_show_only_the_users_teams(trio: dict[str, Any], team: Team, other_team: Team) -> None:
    assert [t.pk for t in selectors.team_list(user=trio["member"])] == [team.pk]
    assert [t.pk for t in selectors.team_list(user=trio["outsider"])] == [other_team.pk]
    with pytest.raises(Http404):
        selectors.team_get(user=trio["outsider"], pk=team.pk)
    listed = selectors.team_list(user=trio["owner"]).get()
    assert (listed.my_role, listed.member_count) == ("owner", 2)


# --------------------------------------------------------------------------- API


def test_unauthenticated_requests_get_401(api: Any, team: Team) -> None:
    for url in ("/api/teams/", f"/api/teams/{team.pk}/", "/api/vm-types/", "/api/runs/"):
        response = api(None).get(url)
        assert response.status_code == 401, url
        assert response["WWW-Authenticate"].startswith("Token")


@pytest.mark.parametrize("who, status", [("owner", 200), ("member", 200), ("outsider", 404)])
def test_team_detail_and_members(api: Any, trio: dict[str, Any], team: Team, who: str, status: int) -> None:
    client = api(trio[who])
    assert client.get(f"/api/teams/{team.pk}/").status_code == status
    response = client.get(f"/api/teams/{team.pk}/members/")
    assert response.status_code == status
    if status == 200:
        assert {m["username"]: m["role"] for m in response.json()["results"]} == {
            "olivia": "owner",
            "mario": "member",
        }


def test_team_list_shows_role(api: Any, trio: dict[str, Any], team: Team) -> None:
    data = api(trio["member"]).get("/api/teams/").json()
    assert data["count"] == 1
    assert data["results"][0]["my_role"] == "member"


def test_anyone_may_create_a_team_and_owns_it(api: Any, outsider: Any) -> None:
    response = api(outsider).post("/api/teams/", {"name": "New"}, format="json")
    assert response.status_code == 201
    assert response.json()["my_role"] == "owner"


@pytest.mark.parametrize("who, status", [("owner", 202), ("member", 403), ("outsider", 404)])
def test_adding_members_is_by_invitation(
    api: Any, trio: dict[str, Any], team: Team, make_user: Any, who: str, status: int
) -> None:
    nina = make_user("nina")
    response = api(trio[who]).post(f"/api/teams/{team.pk}/members/", {"username": "nina"}, format="json")
    assert response.status_code == status
    assert not Membership.objects.filter(team=team, user__username="nina").exists()  # not before she accepts
    if status == 202:
        (invitation,) = api(nina).get("/api/invitations/").json()["results"]
        assert api(nina).post(f"/api/invitations/{invitation['id']}/accept/").status_code == 201
        assert Membership.objects.filter(team=team, user__username="nina").exists()


@pytest.mark.parametrize("who, status", [("owner", 200), ("member", 403), ("outsider", 404)])
def test_changing_roles(api: Any, trio: dict[str, Any], team: Team, who: str, status: int) -> None:
    member = trio["member"]
    response = api(trio[who]).patch(
        f"/api/teams/{team.pk}/members/{member.pk}/", {"role": "owner"}, format="json"
    )
    assert response.status_code == status
    assert access.role_of(member, team) == ("owner" if status == 200 else "member")


@pytest.mark.parametrize("who, status", [("owner", 204), ("member", 403), ("outsider", 404)])
def test_removing_the_owner_or_a_member(
    api: Any, trio: dict[str, Any], team: Team, who: str, status: int
) -> None:
    target = trio["member"] if who != "member" else trio["owner"]
    response = api(trio[who]).delete(f"/api/teams/{team.pk}/members/{target.pk}/")
    assert response.status_code == status


def test_removing_the_last_owner_is_a_400_with_a_reason(api: Any, trio: dict[str, Any], team: Team) -> None:
    owner = trio["owner"]
    response = api(owner).delete(f"/api/teams/{team.pk}/members/{owner.pk}/")
    assert response.status_code == 400
    assert "at least one owner" in response.json()["errors"][0]["message"]


def test_renaming_a_team_is_for_owners(api: Any, trio: dict[str, Any], team: Team) -> None:
    assert (
        api(trio["member"]).patch(f"/api/teams/{team.pk}/", {"name": "X"}, format="json").status_code == 403
    )
    assert (
        api(trio["outsider"]).patch(f"/api/teams/{team.pk}/", {"name": "X"}, format="json").status_code == 404
    )
    assert (
        api(trio["owner"]).patch(f"/api/teams/{team.pk}/", {"name": "X"}, format="json").json()["name"] == "X"
    )


def test_team_list_query_count_does_not_grow_with_teams(api: Any, owner: Any, count_queries: Any) -> None:
    client = api(owner)
    services.team_create(owner=owner, name="A")
    few = count_queries(lambda: client.get("/api/teams/"))
    for i in range(5):
        services.team_create(owner=owner, name=f"T{i}")
    many = count_queries(lambda: client.get("/api/teams/"))
    assert few == many
