"""Reserved and spot prices of a catalogue VM type (scenario version 4): checked by the library's
rules with the VM type's own paths, kept while a cluster uses them, in the API and the editor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.catalogue import services
from planner.catalogue.models import VMType
from planner.core.errors import InputError
from planner.scenarios.services import cluster_create
from planner.teams.models import Team

pytestmark = pytest.mark.django_db

BASE = {"name": "c5.large", "capacity": {"cpu": 2, "mem": 4}, "price_per_hour": 0.1}


def test_a_vm_type_may_have_reserved_and_spot_prices(team: Team, member: Any) -> None:
    t = services.vm_type_create(team=team, user=member, **BASE, reserved_price_per_hour=0.06,
                                spot_price_per_hour=0.03, spot_interruptions_per_hour=0.5)
    assert t.reserved_price_per_hour == 0.06
    assert (t.spot_price_per_hour, t.spot_interruptions_per_hour) == (0.03, 0.5)
    plain = services.vm_type_create(team=team, user=member, **{**BASE, "name": "c5.xlarge"})
    assert (plain.reserved_price_per_hour, plain.spot_price_per_hour) == (None, None)
    t = services.vm_type_update(vm_type=t, user=member, spot_price_per_hour=None,
                                spot_interruptions_per_hour=0)
    assert t.spot_price_per_hour is None and t.reserved_price_per_hour == 0.06


@pytest.mark.parametrize(
    "fields, path, message",
    [
        ({"reserved_price_per_hour": -1}, "reserved_price_per_hour", "must be >= 0"),
        ({"spot_price_per_hour": "cheap"}, "spot_price_per_hour", "must be a number"),
        ({"spot_price_per_hour": 0.1, "spot_interruptions_per_hour": -2}, "spot_interruptions_per_hour",
         "must be >= 0"),
        ({"spot_interruptions_per_hour": 1}, "spot_price_per_hour", "is required"),
    ],
)
def test_bad_prices_are_named_and_nothing_is_written(
    team: Team, owner: Any, fields: dict[str, Any], path: str, message: str
) -> None:
    before = VMType.objects.count()
    with pytest.raises(InputError) as exc:
        services.vm_type_create(team=team, user=owner, **BASE, **fields)
    errors = {e.path: e.message for e in exc.value.errors}
    assert message in errors[path], errors
    assert VMType.objects.count() == before


def test_a_price_a_cluster_bills_cannot_be_taken_away(team: Team, owner: Any) -> None:
    t = services.vm_type_create(team=team, user=owner, **BASE, reserved_price_per_hour=0.06,
                                spot_price_per_hour=0.03)
    cluster_create(team=team, user=owner, name="c", entries=[
        {"vm_type": t.name, "count": 4, "reserved_count": 1, "spot_count": 2}])
    with pytest.raises(InputError) as exc:
        services.vm_type_update(vm_type=t, user=owner, reserved_price_per_hour=None, spot_price_per_hour=None)
    assert {e.path for e in exc.value.errors} == {"reserved_price_per_hour", "spot_price_per_hour"}
    t.refresh_from_db()
    assert t.reserved_price_per_hour == 0.06


def test_the_api_carries_the_prices(api: Callable[[Any], Any], owner: Any, team: Team) -> None:
    client = api(owner)
    created = client.post("/api/vm-types/", {**BASE, "team": team.pk, "reserved_price_per_hour": 0.06,
                                             "spot_price_per_hour": 0.03}, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    prices = ("reserved_price_per_hour", "spot_price_per_hour", "spot_interruptions_per_hour")
    assert [body[k] for k in prices] == [0.06, 0.03, 0.0]
    patched = client.patch(f"/api/vm-types/{body['id']}/", {"spot_interruptions_per_hour": 2}, format="json")
    assert patched.status_code == 200 and patched.json()["spot_interruptions_per_hour"] == 2.0
    assert patched.json()["reserved_price_per_hour"] == 0.06  # a PATCH keeps what it does not name
    bad = client.patch(f"/api/vm-types/{body['id']}/", {"spot_price_per_hour": -1}, format="json")
    assert bad.status_code == 400
    assert [e["path"] for e in bad.json()["errors"]] == ["spot_price_per_hour"]


def test_the_catalogue_page_edits_the_prices(owner_client: Any, team: Team) -> None:
    t = VMType.objects.get(team=team, name="m1.large")
    page = owner_client.get(reverse("web:catalogue")).content.decode()
    assert "Reserved" in page and f'name="vm{t.pk}-spot_price_per_hour"' in page
    data = {f"vm{t.pk}-{k}": v for k, v in {
        "name": t.name, "price_per_hour": t.price_per_hour, "cap_cpu": 4, "cap_mem": 16,
        "reserved_price_per_hour": "0.15", "spot_price_per_hour": "0.07",
        "spot_interruptions_per_hour": "0.2",
    }.items()}
    response = owner_client.post(reverse("web:vm-type-edit", args=[t.pk]), {**data, "resources": "cpu,mem"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.reserved_price_per_hour == 0.15
    assert (t.spot_price_per_hour, t.spot_interruptions_per_hour) == (0.07, 0.2)
    data[f"vm{t.pk}-spot_price_per_hour"] = "-1"
    bad = owner_client.post(reverse("web:vm-type-edit", args=[t.pk]), {**data, "resources": "cpu,mem"})
    assert bad.status_code == 400 and "must be &gt;= 0" in bad.content.decode()
