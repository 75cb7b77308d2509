"""Issue 21: owners add members by an invitation the invited user accepts; inviting tells the
owner nothing about which usernames exist."""

from __future__ import annotations

from typing import Any

import pytest

from planner.teams.models import Invitation, Membership, Team


def invite(api: Any, who: Any, team: Team, username: str, role: str = "member") -> Any:
    return api(who).post(
        f"/api/teams/{team.pk}/invitations/", {"username": username, "role": role}, format="json"
    )


def test_an_invitation_is_the_same_answer_for_a_user_or_nobody(
    api: Any, owner: Any, team: Team, make_user: Any
) -> None:
    make_user("nina")
    real, nobody = invite(api, owner, team, "nina"), invite(api, owner, team, "nobody-at-all")
    assert (real.status_code, nobody.status_code) == (202, 202)
    strip = lambda d: {k: v for k, v in d.items() if k not in ("id", "username", "created_at")}  # noqa: E731
    assert strip(real.json()) == strip(nobody.json())
    listed = api(owner).get(f"/api/teams/{team.pk}/invitations/").json()["results"]
    assert [i["username"] for i in listed] == ["nina", "nobody-at-all"]


def test_the_invited_user_accepts_and_joins_with_the_role(
    api: Any, owner: Any, team: Team, make_user: Any
) -> None:
    nina = make_user("nina")
    invite(api, owner, team, "nina", "owner")
    (invitation,) = api(nina).get("/api/invitations/").json()["results"]
    assert invitation["team_name"] == "Platform" and invitation["invited_by"] == "olivia"
    assert Membership.objects.filter(team=team, user=nina).count() == 0
    response = api(nina).post(f"/api/invitations/{invitation['id']}/accept/")
    assert response.status_code == 201 and response.json()["role"] == "owner"
    assert api(nina).get(f"/api/teams/{team.pk}/").status_code == 200
    assert not Invitation.objects.exists()


def test_declining_leaves_the_team_unchanged(api: Any, owner: Any, team: Team, make_user: Any) -> None:
    nina = make_user("nina")
    invite(api, owner, team, "nina")
    (invitation,) = api(nina).get("/api/invitations/").json()["results"]
    assert api(nina).post(f"/api/invitations/{invitation['id']}/decline/").status_code == 204
    assert api(nina).get(f"/api/teams/{team.pk}/").status_code == 404
    assert not Invitation.objects.exists()


@pytest.mark.parametrize("who", ["owner", "member", "outsider"])
def test_nobody_but_the_invited_user_may_accept(
    api: Any, trio: dict[str, Any], team: Team, make_user: Any, who: str
) -> None:
    make_user("nina")
    invitation = invite(api, trio["owner"], team, "nina").json()
    response = api(trio[who]).post(f"/api/invitations/{invitation['id']}/accept/")
    assert response.status_code == 404
    assert Invitation.objects.filter(pk=invitation["id"]).exists()


@pytest.mark.parametrize(("who", "status"), [("member", 403), ("outsider", 404)])
def test_only_owners_invite_see_and_withdraw_invitations(
    api: Any, trio: dict[str, Any], team: Team, who: str, status: int
) -> None:
    invitation = invite(api, trio["owner"], team, "nina").json()
    assert invite(api, trio[who], team, "nina2").status_code == status
    assert api(trio[who]).get(f"/api/teams/{team.pk}/invitations/").status_code == status
    assert (
        api(trio[who]).delete(f"/api/teams/{team.pk}/invitations/{invitation['id']}/").status_code == status
    )
    assert (
        api(trio["owner"]).delete(f"/api/teams/{team.pk}/invitations/{invitation['id']}/").status_code == 204
    )
    assert not Invitation.objects.exists()


def test_inviting_a_member_again_is_refused_and_a_bad_role_named(
    api: Any, owner: Any, member: Any, team: Team
) -> None:
    response = invite(api, owner, team, member.username)
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "username"
    response = invite(api, owner, team, "nina", role="admin")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "role"
