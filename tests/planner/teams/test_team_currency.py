"""A team's currency symbol: display only, set by owners, shown wherever money is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.teams.models import Team

pytestmark = pytest.mark.django_db


def test_owners_set_the_currency_through_the_api(api: Callable[[Any], Any], owner: Any, member: Any,
                                                 team: Team) -> None:
    assert api(owner).get(f"/api/teams/{team.pk}/").json()["currency"] == "$"
    response = api(owner).patch(f"/api/teams/{team.pk}/", {"currency": " € "}, format="json")
    assert response.status_code == 200 and response.json()["currency"] == "€"
    assert response.json()["name"] == "Platform"  # the name is left as it was
    assert api(member).patch(f"/api/teams/{team.pk}/", {"currency": "£"}, format="json").status_code == 403
    assert Team.objects.get(pk=team.pk).currency == "€"


@pytest.mark.parametrize("currency", ["", "DOLLARS!!", "\x07"])
def test_a_bad_currency_is_refused_and_nothing_changes(api: Callable[[Any], Any], owner: Any, team: Team,
                                                       currency: str) -> None:
    response = api(owner).patch(f"/api/teams/{team.pk}/", {"currency": currency}, format="json")
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["currency"]
    assert Team.objects.get(pk=team.pk).currency == "$"


def test_a_new_team_with_a_bad_currency_is_not_created(
    api: Callable[[Any], Any], owner: Any, team: Team
) -> None:
    response = api(owner).post("/api/teams/", {"name": "Second", "currency": "x" * 9}, format="json")
    assert response.status_code == 400
    assert not Team.objects.filter(name="Second").exists()
    response = api(owner).post("/api/teams/", {"name": "Second", "currency": "CHF"}, format="json")
    assert response.status_code == 201 and response.json()["currency"] == "CHF"


def test_the_settings_form_on_the_members_page(client: Any, owner: Any, member: Any, team: Team) -> None:
    client.force_login(owner)
    page = client.get(reverse("web:team-members", args=[team.pk])).content.decode()
    assert 'id="team-settings-form"' in page
    response = client.post(
        reverse("web:team-settings", args=[team.pk]), {"name": "Platform", "currency": "€"}
    )
    assert response.status_code == 302 and Team.objects.get(pk=team.pk).currency == "€"
    response = client.post(reverse("web:team-settings", args=[team.pk]), {"name": "Platform", "currency": ""})
    assert response.status_code == 400 and Team.objects.get(pk=team.pk).currency == "€"
    client.force_login(member)
    assert (
        'id="team-settings-form"'
        not in client.get(reverse("web:team-members", args=[team.pk])).content.decode()
    )
    response = client.post(reverse("web:team-settings", args=[team.pk]), {"name": "Mine", "currency": "£"})
    assert response.status_code == 403 and Team.objects.get(pk=team.pk).name == "Platform"


def test_the_run_list_shows_costs_in_the_team_currency(client: Any, owner: Any, team: Team, scenario_doc: Any,
                                                       execute_run: Callable[[int], str]) -> None:
    from planner.runs.services import run_start

    Team.objects.filter(pk=team.pk).update(currency="€")
    run = run_start(user=owner, team=team, scenario=scenario_doc, schedulers=["edf-bfd"])
    execute_run(run.pk)
    client.force_login(owner)
    assert "€0." in client.get(reverse("web:runs")).content.decode()


def test_every_page_with_prices_shows_the_teams_currency(client: Any, owner: Any, team: Team, cluster: Any,
                                                          workload: Any) -> None:
    Team.objects.filter(pk=team.pk).update(currency="€")
    client.force_login(owner)
    for url in (reverse("web:catalogue"), reverse("web:clusters"), reverse("web:dashboard"),
                reverse("web:cluster-edit", args=[cluster.pk])):
        page = client.get(url).content.decode()
        assert "€/h" in page and "$/h" not in page, url
    edit = client.get(reverse("web:cluster-edit", args=[cluster.pk])).content.decode()
    assert 'data-currency="€"' in edit and "€/day" in edit  # the editor's script writes totals with it
