"""Who sees what: anonymous users sign in first, outsiders get 404, members change only their own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from planner.catalogue.models import VMType
from planner.runs.models import Run
from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import cluster_create

pytestmark = pytest.mark.django_db


def object_urls(cluster: Cluster, workload: Workload, run: Run, vm_type: VMType) -> dict[str, list[str]]:
    """Pages of one team's objects, by method."""
    return {
        "get": [
            reverse("web:cluster-edit", args=[cluster.pk]),
            reverse("web:workload-edit", args=[workload.pk]),
            reverse("web:workload-export", args=[workload.pk]) + f"?cluster={cluster.pk}",
            reverse("web:run-detail", args=[run.pk]),
            reverse("web:run-report", args=[run.pk, "csv"]),
            reverse("web:run-report", args=[run.pk, "pdf"]),
        ],
        "post": [
            reverse("web:vm-type-edit", args=[vm_type.pk]),
            reverse("web:vm-type-delete", args=[vm_type.pk]),
            reverse("web:cluster-edit", args=[cluster.pk]),
            reverse("web:cluster-delete", args=[cluster.pk]),
            reverse("web:workload-csv", args=[workload.pk]),
            reverse("web:workload-generate", args=[workload.pk]),
            reverse("web:workload-delete", args=[workload.pk]),
            reverse("web:run-cancel", args=[run.pk]),
            reverse("web:run-delete", args=[run.pk]),
        ],
    }


LIST_PAGES = [
    "web:dashboard", "web:catalogue", "web:clusters", "web:cluster-new", "web:workloads", "web:workload-new",
    "web:scenario-upload", "web:runs", "web:compare-start", "web:compare-side-by-side",
]


@pytest.mark.parametrize("name", [*LIST_PAGES, "web:team-new"])
def test_anonymous_users_are_sent_to_sign_in(client_for, name):
    response = client_for(None).get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


def test_anonymous_users_cannot_reach_objects(client_for, succeeded_run, cluster, workload, team):
    client = client_for(None)
    urls = object_urls(cluster, workload, succeeded_run, team.vm_types.first())
    for url in urls["get"]:
        assert client.get(url).status_code == 302, url
    for url in urls["post"]:
        response = client.post(url)
        assert response.status_code == 302 and reverse("login") in response["Location"], url
    assert Cluster.objects.filter(pk=cluster.pk).exists()
    assert Run.objects.filter(pk=succeeded_run.pk).exists()


def test_sign_in_page_renders_and_signs_in(client_for, owner, team):
    client = client_for(None)
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert b'name="username"' in page.content and b"csrfmiddlewaretoken" in page.content
    response = client.post(
        reverse("login"), {"username": owner.username, "password": f"{owner.username}-password"}
    )
    assert response.status_code == 302
    assert client.get(reverse("web:dashboard")).status_code == 200


def test_bad_password_is_refused(client_for, owner, team):
    response = client_for(None).post(reverse("login"), {"username": owner.username, "password": "wrong"})
    assert response.status_code == 200
    assert b"message-error" in response.content


def test_sign_out_is_a_post(owner_client):
    response = owner_client.post(reverse("logout"))
    assert response.status_code == 302
    assert owner_client.get(reverse("web:dashboard")).status_code == 302


def test_outsiders_get_404_on_another_teams_objects(
    client_for, outsider, other_team, succeeded_run, cluster, workload, team
):
    client = client_for(outsider)
    vm_type = team.vm_types.first()
    urls = object_urls(cluster, workload, succeeded_run, vm_type)
    for url in urls["get"]:
        response = client.get(url)
        assert response.status_code == 404, url
        assert b"There is no such page in your teams" in response.content, url
    for url in urls["post"]:
        assert client.post(url, {"name": "taken over"}).status_code == 404, url
    # Nothing changed, nothing was deleted.
    assert Cluster.objects.get(pk=cluster.pk).name == cluster.name
    assert Workload.objects.filter(pk=workload.pk).exists()
    assert VMType.objects.get(pk=vm_type.pk).name == vm_type.name
    assert Run.objects.get(pk=succeeded_run.pk).status == Run.Status.SUCCEEDED


def test_outsiders_lists_show_only_their_own_team(
    client_for, outsider, other_team, succeeded_run, cluster, workload
):
    client = client_for(outsider)
    for name in LIST_PAGES:
        response = client.get(reverse(name))
        assert response.status_code == 200, name
        text = response.content.decode()
        assert reverse("web:cluster-edit", args=[cluster.pk]) not in text, name
        assert reverse("web:workload-edit", args=[workload.pk]) not in text, name
        assert reverse("web:run-detail", args=[succeeded_run.pk]) not in text, name
        assert "Nightly" not in text, name


def test_outsider_cannot_compare_another_teams_runs(client_for, outsider, other_team, succeeded_run):
    response = client_for(outsider).get(
        reverse("web:compare-side-by-side"), {"a": succeeded_run.pk, "b": succeeded_run.pk}
    )
    assert response.status_code == 400
    assert b"not a finished run" in response.content
    assert b"Nightly" not in response.content


def test_outsider_cannot_start_a_run_on_another_teams_cluster(
    client_for, outsider, other_team, cluster, workload
):
    response = client_for(outsider).post(
        reverse("web:compare-start"),
        {
            "source": "stored",
            "cluster": cluster.pk,
            "workload": workload.pk,
            "schedulers": ["edf-bfd"],
            "seed": 0,
        },
    )
    assert response.status_code == 400  # the choices are the outsider's own team's: none
    assert not Run.objects.exists()


def test_members_see_the_teams_pages(client_for, member, succeeded_run, cluster, workload, team):
    client = client_for(member)
    for name in LIST_PAGES:
        assert client.get(reverse(name)).status_code == 200, name
    for url in object_urls(cluster, workload, succeeded_run, team.vm_types.first())["get"]:
        assert client.get(url).status_code == 200, url


def test_members_cannot_change_what_others_made(
    client_for, member, owner, cluster, workload, succeeded_run, team
):
    client = client_for(member)
    page = client.get(reverse("web:cluster-edit", args=[cluster.pk]))
    assert b"Read-only" in page.content
    response = client.post(reverse("web:cluster-edit", args=[cluster.pk]), {
        "name": "Renamed by a member", "resources": "cpu, mem",
        "entry_vm_type": [str(cluster.entries.first().vm_type_id)], "entry_count": ["1"],
    })
    assert response.status_code == 403
    assert b"may change or delete it" in response.content  # the reason, on the 403 page
    assert Cluster.objects.get(pk=cluster.pk).name == "Table 3"
    assert client.post(reverse("web:workload-delete", args=[workload.pk])).status_code == 403
    assert client.post(reverse("web:run-delete", args=[succeeded_run.pk])).status_code == 403
    assert (
        Workload.objects.filter(pk=workload.pk).exists() and Run.objects.filter(pk=succeeded_run.pk).exists()
    )
    vm_type = team.vm_types.first()
    assert client.post(reverse("web:vm-type-delete", args=[vm_type.pk])).status_code == 403
    assert VMType.objects.filter(pk=vm_type.pk).exists()


def test_members_change_what_they_made(client_for, member, team):
    client = client_for(member)
    mine = cluster_create(team=team, user=member, name="Mine", entries=[{"vm_type": "m1.large", "count": 2}])
    large = team.vm_types.get(name="m1.large")
    response = client.post(reverse("web:cluster-edit", args=[mine.pk]), {
        "name": "Still mine", "resources": "cpu, mem", "entry_vm_type": [str(large.pk)], "entry_count": ["4"],
    })
    assert response.status_code == 302
    mine.refresh_from_db()
    assert mine.name == "Still mine" and mine.entries.get().count == 4


def test_a_user_in_several_teams_switches_between_them(
    client_for, owner, team, cluster, outsider, other_team
):
    from planner.teams.services import membership_create

    membership_create(team=other_team, user=outsider, username=owner.username)
    cluster_create(
        team=other_team,
        user=outsider,
        name="Elsewhere cluster",
        entries=[{"vm_type": "m1.large", "count": 1}],
    )
    client = client_for(owner)
    page = client.get(reverse("web:clusters")).content.decode()
    assert 'id="team-select"' in page  # the switcher shows with two teams
    assert reverse("web:cluster-edit", args=[cluster.pk]) in page and "Elsewhere cluster" not in page
    response = client.post(
        reverse("web:team-switch"), {"team": other_team.pk, "next": reverse("web:clusters")}
    )
    assert response.status_code == 302 and response["Location"] == reverse("web:clusters")
    page = client.get(reverse("web:clusters")).content.decode()
    assert "Elsewhere cluster" in page and reverse("web:cluster-edit", args=[cluster.pk]) not in page
    # A link to an object of the other team switches back to that team.
    client.get(reverse("web:cluster-edit", args=[cluster.pk]))
    assert (
        reverse("web:cluster-edit", args=[cluster.pk]) in client.get(reverse("web:clusters")).content.decode()
    )


def test_switching_to_a_team_one_is_not_in_is_404(client_for, owner, team, other_team):
    client = client_for(owner)
    assert client.post(reverse("web:team-switch"), {"team": other_team.pk}).status_code == 404
    assert client.post(reverse("web:team-switch"), {"team": "x"}).status_code == 404


def test_team_switch_ignores_offsite_next(client_for, owner, team):
    response = client_for(owner).post(reverse("web:team-switch"), {"team": team.pk, "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_a_user_without_a_team_creates_one(client_for, make_user):
    lonely = make_user("lonely")
    client = client_for(lonely)
    response = client.get(reverse("web:dashboard"))
    assert response.status_code == 302 and response["Location"] == reverse("web:team-new")
    assert client.post(reverse("web:team-new"), {"name": "   "}).status_code == 400
    response = client.post(reverse("web:team-new"), {"name": "Data platform"})
    assert response.status_code == 302
    page = client.get(reverse("web:catalogue")).content.decode()
    assert "m1.large" in page  # seeded with the presets

