"""A team's members in the pages: the owner manages them, a member sees them, an outsider gets 404."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from planner.teams.models import Invitation, Membership, Team

pytestmark = pytest.mark.django_db


def members_url(team: Team) -> str:
    return reverse("web:team-members", args=[team.pk])


def role_url(team: Team, user: Any) -> str:
    return reverse("web:team-member-role", args=[team.pk, user.pk])


def remove_url(team: Team, user: Any) -> str:
    return reverse("web:team-member-remove", args=[team.pk, user.pk])


def roles(team: Team) -> dict[str, str]:
    return {m.user.username: m.role for m in Membership.objects.filter(team=team).select_related("user")}


@pytest.fixture
def as_user(client_for: Callable[[Any], Client], trio: dict[str, Any]) -> Callable[[str], Client]:
    """``as_user("owner" | "member" | "outsider")``: a signed-in client."""
    return lambda who: client_for(trio[who])


# --------------------------------------------------------------------------- the list


def test_the_owner_sees_the_members_and_the_controls(as_user: Callable[[str], Client], team: Team) -> None:
    page = as_user("owner").get(members_url(team))
    assert page.status_code == 200
    html = page.content.decode()
    assert [r["membership"].user.username for r in page.context["rows"]] == ["olivia", "mario"]
    assert 'id="add-member-form"' in html
    assert html.count("Change role") == 2
    assert html.count("Remove</button>") == 1 and html.count("Leave team</button>") == 1  # mario; olivia
    assert "the only owner" in html


def test_a_member_sees_the_list_without_the_controls(as_user: Callable[[str], Client], team: Team) -> None:
    page = as_user("member").get(members_url(team))
    assert page.status_code == 200
    html = page.content.decode()
    assert "olivia" in html and "mario" in html
    assert 'id="add-member-form"' not in html and "Change role" not in html
    assert "Leave team" in html  # their own row only
    assert "Only the team's owners add members" in html


def test_an_outsider_gets_404_everywhere(
    as_user: Callable[[str], Client], team: Team, owner: Any, member: Any, make_user: Any
) -> None:
    client = as_user("outsider")
    make_user("nina")
    assert client.get(members_url(team)).status_code == 404
    assert client.post(members_url(team), {"username": "nina"}).status_code == 404
    assert client.post(role_url(team, member), {f"m{member.pk}-role": "owner"}).status_code == 404
    assert client.post(remove_url(team, member)).status_code == 404
    assert client.post(remove_url(team, owner)).status_code == 404
    assert roles(team) == {"olivia": "owner", "mario": "member"}


def test_anonymous_users_are_sent_to_sign_in(client_for: Callable[[Any], Client], team: Team) -> None:
    response = client_for(None).get(members_url(team))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_list_costs_the_same_queries_for_2_or_12_members(
    as_user: Callable[[str], Client], team: Team, owner: Any, make_user: Any, count_queries: Any
) -> None:
    from planner.teams.services import membership_create

    client = as_user("owner")
    client.get(members_url(team))  # the session's first page sets the current team
    few = count_queries(lambda: client.get(members_url(team)))
    for i in range(10):
        membership_create(team=team, user=owner, username=make_user(f"user{i}").username)
    many = count_queries(lambda: client.get(members_url(team)))
    assert many == few
    assert len(client.get(members_url(team)).context["rows"]) == 12


def test_the_navigation_links_to_the_current_teams_members(
    as_user: Callable[[str], Client], team: Team
) -> None:
    html = as_user("member").get(reverse("web:dashboard")).content.decode()
    assert f'href="{members_url(team)}"' in html


def test_switching_team_on_the_members_page_shows_the_new_teams_members(
    client_for: Callable[[Any], Client], team: Team, owner: Any
) -> None:
    from planner.teams.services import team_create

    second = team_create(owner=owner, name="Second")
    client = client_for(owner)
    client.get(members_url(team))
    response = client.post(reverse("web:team-switch"), {"team": second.pk, "next": members_url(team)})
    assert response.status_code == 302 and response["Location"] == members_url(second)
    assert client.get(response["Location"]).context["team"].pk == second.pk


# --------------------------------------------------------------------------- adding


@pytest.mark.parametrize("who, status", [("owner", 302), ("member", 403), ("outsider", 404)])
def test_only_owners_invite_members(
    as_user: Callable[[str], Client], team: Team, make_user: Any, who: str, status: int
) -> None:
    make_user("nina")
    client = as_user(who)
    response = client.post(members_url(team), {"username": "nina", "role": "member"})
    assert response.status_code == status
    assert "nina" not in roles(team)  # not before she accepts
    assert Invitation.objects.filter(team=team, username="nina").exists() == (who == "owner")
    if who == "owner":
        assert response["Location"] == members_url(team)
        page = client.get(members_url(team)).content.decode()
        assert "Invited nina as member: they join when they accept." in page
        assert 'data-invited="nina"' in page


def test_the_invited_user_accepts_on_the_dashboard(
    as_user: Callable[[str], Client], team: Team, make_user: Any
) -> None:
    nina = make_user("nina")
    as_user("owner").post(members_url(team), {"username": "nina", "role": "owner"})
    client = Client()
    client.force_login(nina)
    page = client.get(reverse("web:team-new")).content.decode()  # she has no team yet
    assert 'data-invitation="Platform"' in page
    invitation = Invitation.objects.get(username="nina")
    response = client.post(reverse("web:invitation-accept", args=[invitation.pk]))
    assert response.status_code == 302
    assert roles(team)["nina"] == "owner"
    assert not Invitation.objects.filter(username="nina").exists()


def test_inviting_says_nothing_about_whether_the_user_exists(
    as_user: Callable[[str], Client], team: Team, make_user: Any
) -> None:
    make_user("nina")
    client = as_user("owner")
    answers = [
        client.post(members_url(team), {"username": name, "role": "member"}) for name in ("nina", "nobody")
    ]
    assert [a.status_code for a in answers] == [302, 302]
    page = client.get(members_url(team)).content.decode()
    assert 'data-invited="nina"' in page and 'data-invited="nobody"' in page


@pytest.mark.parametrize(
    "username, message",
    [
        ("mario", "'mario' is already a member of this team"),
        ("", "This field is required."),
    ],
)
def test_inviting_names_the_problem_on_the_username_field(
    as_user: Callable[[str], Client], team: Team, username: str, message: str
) -> None:
    response = as_user("owner").post(members_url(team), {"username": username, "role": "member"})
    assert response.status_code == 400
    assert response.context["add_form"].errors["username"] == [message]
    assert message.replace("'", "&#x27;") in response.content.decode()
    assert roles(team) == {"olivia": "owner", "mario": "member"}


def test_an_unknown_role_is_a_form_error(
    as_user: Callable[[str], Client], team: Team, make_user: Any
) -> None:
    make_user("nina")
    response = as_user("owner").post(members_url(team), {"username": "nina", "role": "admin"})
    assert response.status_code == 400
    assert "role" in response.context["add_form"].errors
    assert "nina" not in roles(team)
    assert not Invitation.objects.filter(username="nina").exists()


# --------------------------------------------------------------------------- roles


@pytest.mark.parametrize("who, status", [("owner", 302), ("member", 403), ("outsider", 404)])
def test_only_owners_change_roles(
    as_user: Callable[[str], Client], team: Team, member: Any, who: str, status: int
) -> None:
    response = as_user(who).post(role_url(team, member), {f"m{member.pk}-role": "owner"})
    assert response.status_code == status
    assert roles(team)["mario"] == ("owner" if who == "owner" else "member")


def test_the_last_owner_cannot_be_demoted(as_user: Callable[[str], Client], team: Team, owner: Any) -> None:
    response = as_user("owner").post(role_url(team, owner), {f"m{owner.pk}-role": "member"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "a team needs at least one owner; make someone else an owner first" in html
    failed = [r for r in response.context["rows"] if r["errors"]]
    assert [r["membership"].user.username for r in failed] == ["olivia"]
    assert roles(team) == {"olivia": "owner", "mario": "member"}


def test_an_owner_may_step_down_once_there_is_another(
    as_user: Callable[[str], Client], team: Team, owner: Any, member: Any
) -> None:
    client = as_user("owner")
    client.post(role_url(team, member), {f"m{member.pk}-role": "owner"})
    response = client.post(role_url(team, owner), {f"m{owner.pk}-role": "member"})
    assert response.status_code == 302
    assert roles(team) == {"olivia": "member", "mario": "owner"}
    # No longer an owner: the controls are gone and the services refuse.
    assert "Change role" not in client.get(members_url(team)).content.decode()
    assert client.post(role_url(team, member), {f"m{member.pk}-role": "member"}).status_code == 403


def test_a_role_that_does_not_exist_names_the_field(
    as_user: Callable[[str], Client], team: Team, member: Any
) -> None:
    response = as_user("owner").post(role_url(team, member), {f"m{member.pk}-role": "admin"})
    assert response.status_code == 400
    assert (
        "role: Select a valid choice. admin is not one of the available choices." in response.content.decode()
    )
    assert roles(team)["mario"] == "member"


# --------------------------------------------------------------------------- removing


@pytest.mark.parametrize("who, status", [("owner", 302), ("member", 403), ("outsider", 404)])
def test_only_owners_remove_others(
    as_user: Callable[[str], Client], team: Team, make_user: Any, owner: Any, who: str, status: int
) -> None:
    from planner.teams.services import membership_create

    nina = make_user("nina")
    membership_create(team=team, user=owner, username="nina")
    response = as_user(who).post(remove_url(team, nina))
    assert response.status_code == status
    assert ("nina" in roles(team)) == (who != "owner")


def test_the_last_owner_cannot_be_removed_or_leave(
    as_user: Callable[[str], Client], team: Team, owner: Any
) -> None:
    response = as_user("owner").post(remove_url(team, owner))
    assert response.status_code == 400
    assert "a team needs at least one owner; make someone else an owner first" in response.content.decode()
    assert roles(team) == {"olivia": "owner", "mario": "member"}


def test_a_member_may_leave(as_user: Callable[[str], Client], team: Team, member: Any) -> None:
    client = as_user("member")
    response = client.post(remove_url(team, member))
    assert response.status_code == 302 and response["Location"] == reverse("web:dashboard")
    assert "mario" not in roles(team)
    # Without a team, every team page asks for a new one, the old team's members page too.
    assert client.get(reverse("web:dashboard"))["Location"] == reverse("web:team-new")
    assert client.get(members_url(team))["Location"] == reverse("web:team-new")


def test_the_pages_only_take_posts_for_changes(
    as_user: Callable[[str], Client], team: Team, member: Any
) -> None:
    client = as_user("owner")
    assert client.get(role_url(team, member)).status_code == 405
    assert client.get(remove_url(team, member)).status_code == 405
    assert roles(team) == {"olivia": "owner", "mario": "member"}
