"""What if, from a finished comparison: its scenario varied, compared again with the same schedulers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.runs.models import Run

pytestmark = pytest.mark.django_db


def test_a_finished_comparison_offers_what_if_and_starts_the_varied_run(
    owner_client: Any, start_run: Callable[..., Run], execute_run: Callable[[int], str],
) -> None:
    original = start_run(name="Nightly")
    page = owner_client.get(reverse("web:run-detail", args=[original.pk])).content.decode()
    url = reverse("web:compare-what-if", args=[original.pk])
    assert url in page and "What if…" in page
    form_page = owner_client.get(url).content.decode()
    types = [t["name"] for t in original.scenario["vm_types"]]
    assert all(f'name="price_factors.{t}"' in form_page and f'name="counts.{t}"' in form_page for t in types)

    response = owner_client.post(url, {"load": "2", "load_mode": "jobs", "seed": "1",
                                       f"price_factors.{types[0]}": "0.5", f"counts.{types[1]}": "1"})
    assert response.status_code == 302
    varied = Run.objects.exclude(pk=original.pk).get()
    assert varied.kind == "compare" and varied.options["schedulers"] == original.options["schedulers"]
    assert varied.options["baseline"] == original.options["baseline"]
    assert len(varied.scenario["jobs"]) == 2 * len(original.scenario["jobs"])
    by_name = {t["name"]: t for t in varied.scenario["vm_types"]}
    before = {t["name"]: t for t in original.scenario["vm_types"]}
    assert by_name[types[0]]["price_per_hour"] == pytest.approx(before[types[0]]["price_per_hour"] / 2)
    assert by_name[types[1]]["count"] == 1
    assert "what if load x2 (more jobs)" in varied.name and f"{types[0]} price x0.5" in varied.name
    assert execute_run(varied.pk) == "succeeded"

    side = owner_client.get(reverse("web:compare-side-by-side") + f"?a={original.pk}&b={varied.pk}")
    text = side.content.decode()
    assert side.status_code == 200 and types[0] in text  # the page names what changed


def test_bad_values_are_refused_on_their_field_and_start_nothing(
    owner_client: Any, start_run: Callable[..., Run],
) -> None:
    original = start_run()
    url = reverse("web:compare-what-if", args=[original.pk])
    name = original.scenario["vm_types"][0]["name"]
    bad = owner_client.post(url, {"load": "0", f"counts.{name}": "-3"})
    assert bad.status_code == 400
    errors = bad.context["form"].errors
    assert "load" in errors and f"counts.{name}" in errors
    assert Run.objects.count() == 1


def test_what_if_is_the_teams_own(client_for: Callable[[Any], Any], outsider: Any, other_team: Any,
                                  start_run: Callable[..., Run]) -> None:
    original = start_run()
    url = reverse("web:compare-what-if", args=[original.pk])
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 302  # to sign in


def test_what_if_sets_spot_and_reserved_prices_and_names_them(
    owner_client: Any, start_run: Callable[..., Run], execute_run: Callable[[int], str],
) -> None:
    original = start_run(name="Nightly")
    url = reverse("web:compare-what-if", args=[original.pk])
    types = [t["name"] for t in original.scenario["vm_types"]]
    form_page = owner_client.get(url).content.decode()
    for key in ("spot_discounts", "spot_interruptions", "reserved_counts", "reserved_discounts"):
        assert f'name="{key}.{types[0]}"' in form_page, key
    response = owner_client.post(url, {
        "load": "1", "load_mode": "jobs", "seed": "0", f"spot_discounts.{types[0]}": "0.7",
        f"spot_interruptions.{types[0]}": "0.5", f"reserved_counts.{types[1]}": "2",
        f"reserved_discounts.{types[1]}": "0.4",
    })
    assert response.status_code == 302
    varied = Run.objects.exclude(pk=original.pk).get()
    by_name = {t["name"]: t for t in varied.scenario["vm_types"]}
    before = {t["name"]: t for t in original.scenario["vm_types"]}
    assert varied.scenario["version"] == 4
    spot = by_name[types[0]]["spot"]
    assert spot["price_per_hour"] == pytest.approx(0.3 * before[types[0]]["price_per_hour"])
    assert by_name[types[1]]["reserved"]["count"] == 2
    assert (f"{types[0]} spot 70% off" in varied.name and f"{types[1]}: 2 reserved VMs" in varied.name
            and f"{types[1]} reserved 40% off" in varied.name)
    assert execute_run(varied.pk) == "succeeded"
    page = owner_client.get(reverse("web:run-detail", args=[varied.pk])).content.decode()
    assert "Reserved idle cost" in page and "Spot cost" in page
    side = owner_client.get(reverse("web:compare-side-by-side") + f"?a={original.pk}&b={varied.pk}")
    text = side.content.decode()
    assert f"{types[1]}: reserved none → 2 at" in text.replace("&gt;", ">")  # what changed, named


def test_a_reserved_count_without_a_price_is_refused_on_its_field(
    owner_client: Any, start_run: Callable[..., Run],
) -> None:
    original = start_run()
    url = reverse("web:compare-what-if", args=[original.pk])
    name = original.scenario["vm_types"][0]["name"]
    bad = owner_client.post(url, {"load": "1", f"reserved_counts.{name}": "2", f"spot_discounts.{name}": "2"})
    assert bad.status_code == 400
    errors = bad.context["form"].errors
    assert f"reserved_counts.{name}" in errors and f"spot_discounts.{name}" in errors
    assert Run.objects.count() == 1
