"""Reserved and spot VMs of a cluster (scenario version 4): entries' counts at the catalogue's
prices, checked with paths into the request, exported, imported, run and reported."""

from __future__ import annotations

import copy
import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.catalogue.models import VMType
from planner.catalogue.services import vm_type_update
from planner.core.errors import InputError
from planner.runs.models import Run
from planner.runs.services import run_start
from planner.scenarios import services
from planner.scenarios.models import Cluster, Workload
from planner.teams.models import Team
from scheduling import parse_scenario, simulate

pytestmark = pytest.mark.django_db


@pytest.fixture
def priced(team: Team, owner: Any) -> VMType:
    """m1.large with a reserved ($0.15/h) and a spot price ($0.07/h, reclaimed 0.5 times an hour)."""
    t = VMType.objects.get(team=team, name="m1.large")
    return vm_type_update(vm_type=t, user=owner, reserved_price_per_hour=0.15, spot_price_per_hour=0.07,
                          spot_interruptions_per_hour=0.5)


def test_entries_say_how_many_vms_are_reserved_and_spot(team: Team, owner: Any, priced: VMType,
                                                        workload: Workload) -> None:
    cluster = services.cluster_create(team=team, user=owner, name="Mixed", entries=[
        {"vm_type": "m1.large", "count": 6, "reserved_count": 2, "spot_count": 3},
        {"vm_type": "m1.xlarge", "count": 5},
    ])
    large, xlarge = cluster.entries.order_by("position")
    assert (large.reserved_count, large.spot_count, xlarge.reserved_count, xlarge.spot_count) == (2, 3, 0, 0)
    doc = services.scenario_document(cluster, workload)
    assert doc["version"] == 4
    assert doc["vm_types"][0]["reserved"] == {"price_per_hour": 0.15, "count": 2}
    assert doc["vm_types"][0]["spot"] == {"price_per_hour": 0.07, "count": 3, "interruptions_per_hour": 0.5}
    assert "reserved" not in doc["vm_types"][1] and "spot" not in doc["vm_types"][1]
    assert parse_scenario(doc).vm_types[0].market_counts() == {"reserved": 2, "spot": 3, "on_demand": 1}


def test_a_cluster_without_reserved_or_spot_vms_stays_an_older_version(
    cluster: Cluster, workload: Workload, priced: VMType
) -> None:
    # A catalogue price alone changes nothing: the entries have no reserved or spot VMs.
    doc = services.scenario_document(cluster, workload)
    assert doc["version"] == 1 and all("reserved" not in t and "spot" not in t for t in doc["vm_types"])


@pytest.mark.parametrize(
    "entry, path, message",
    [
        ({"vm_type": "m1.xlarge", "count": 5, "reserved_count": 1}, "entries[0].reserved_count",
         "has no reserved price"),
        ({"vm_type": "m1.xlarge", "count": 5, "spot_count": 1}, "entries[0].spot_count", "has no spot price"),
        ({"vm_type": "m1.large", "count": 6, "reserved_count": 7}, "entries[0].reserved_count",
         "must be <= "),
        ({"vm_type": "m1.large", "count": 6, "reserved_count": 2, "spot_count": 5}, "entries[0].spot_count",
         "must be <= "),
        ({"vm_type": "m1.large", "count": 6, "reserved_count": -1}, "entries[0].reserved_count",
         "must be >= 0"),
        ({"vm_type": "m1.large", "count": 6, "spot_count": "many"}, "entries[0].spot_count", "must be a"),
    ],
)
def test_bad_counts_are_named_and_nothing_is_written(
    team: Team, owner: Any, priced: VMType, entry: dict[str, Any], path: str, message: str
) -> None:
    with pytest.raises(InputError) as exc:
        services.cluster_create(team=team, user=owner, name="Bad", entries=[entry])
    errors = {e.path: e.message for e in exc.value.errors}
    assert path in errors and message in errors[path], errors
    assert not Cluster.objects.filter(name="Bad").exists()


def test_import_then_export_keeps_reserved_and_spot_vms(
    team: Team, owner: Any, scenario_doc: dict[str, Any]
) -> None:
    doc = copy.deepcopy(scenario_doc)
    doc["version"] = 4
    doc["vm_types"][0]["reserved"] = {"price_per_hour": 0.15, "count": 1}
    doc["vm_types"][0]["spot"] = {"price_per_hour": 0.07, "interruptions_per_hour": 0.5}  # the other 2 VMs
    outcome = services.scenario_import(team=team, user=owner, doc=doc)
    small = outcome.cluster.entries.get(vm_type__name="small")
    assert (small.reserved_count, small.spot_count) == (1, 2)
    assert (small.vm_type.reserved_price_per_hour, small.vm_type.spot_price_per_hour) == (0.15, 0.07)
    exported = services.scenario_document(outcome.cluster, outcome.workload)
    # The same VMs in the same markets; the cluster states how many are spot.
    explicit = copy.deepcopy(doc)
    explicit["vm_types"][0]["spot"]["count"] = 2
    assert parse_scenario(exported) == parse_scenario({**explicit, "name": exported["name"]})
    again = services.scenario_import(team=team, user=owner, doc=doc)
    assert again.vm_types_reused == ["small", "big"]  # same prices: the same catalogue types
    # A catalogue type without the document's spot price is not the same VM type.
    doc["vm_types"][0]["spot"]["price_per_hour"] = 0.05
    assert services.scenario_import(team=team, user=owner, doc=doc).vm_types_created == ["small (2)"]


def test_old_documents_import_unchanged(team: Team, owner: Any, scenario_doc: dict[str, Any]) -> None:
    outcome = services.scenario_import(team=team, user=owner, doc=scenario_doc)
    assert all((e.reserved_count, e.spot_count) == (0, 0) for e in outcome.cluster.entries.all())
    assert services.scenario_document(outcome.cluster, outcome.workload)["version"] == 1


def test_the_cluster_editor_posts_reserved_and_spot_counts(
    owner_client: Any, team: Team, priced: VMType
) -> None:
    page = owner_client.get(reverse("web:cluster-new")).content.decode()
    assert 'name="entry_reserved_count"' in page and 'name="entry_spot_count"' in page
    response = owner_client.post(reverse("web:cluster-new"), {
        "name": "Mixed", "resources": "cpu, mem", "entry_vm_type": [str(priced.pk)], "entry_count": ["6"],
        "entry_machine_class": [""], "entry_reserved_count": ["2"], "entry_spot_count": ["3"],
    })
    assert response.status_code == 302
    entry = Cluster.objects.get(name="Mixed").entries.get()
    assert (entry.reserved_count, entry.spot_count) == (2, 3)
    edit = owner_client.get(reverse("web:cluster-edit", args=[entry.cluster_id])).content.decode()
    assert 'name="entry_reserved_count" min="0" step="1" value="2"' in edit
    bad = owner_client.post(reverse("web:cluster-edit", args=[entry.cluster_id]), {
        "name": "Mixed", "resources": "cpu, mem", "entry_vm_type": [str(priced.pk)], "entry_count": ["6"],
        "entry_machine_class": [""], "entry_reserved_count": ["9"], "entry_spot_count": [""],
    })
    assert bad.status_code == 400 and "must be &lt;= the type&#x27;s count (6)" in bad.content.decode()


def test_a_run_shows_the_split_and_its_reports_too(
    team: Team, owner: Any, priced: VMType, workload: Workload, owner_client: Any,
    execute_run: Callable[[int], str], api: Callable[[Any], Any],
) -> None:
    cluster = services.cluster_create(team=team, user=owner, name="Mixed", entries=[
        {"vm_type": "m1.large", "count": 6, "reserved_count": 2, "spot_count": 3},
        {"vm_type": "m1.xlarge", "count": 5}, {"vm_type": "m2.xlarge", "count": 3},
    ])
    run = run_start(user=owner, cluster=cluster, workload=workload, kind="compare",
                    schedulers=["fifo-spread", "edf-bfd"], baseline="fifo-spread", seed=4)
    assert execute_run(run.pk) == "succeeded"
    run = Run.objects.get(pk=run.pk)
    page = owner_client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    for label in ("Reserved cost", "On-demand cost", "Spot cost", "Reserved idle cost", "Spot interruptions"):
        assert label in page, label
    # The planner shows what the library computes: the same result as simulate() on the run's copy.
    scenario = parse_scenario(run.scenario)
    direct = simulate(scenario, scheduler="edf-bfd", seed=4).to_dict()
    csv_report = api(owner).get(f"/api/runs/{run.pk}/report/csv/")
    assert csv_report.status_code == 200, csv_report.content[:300]
    text = csv_report.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    header = next(r for r in rows if r[:2] == ["Scheduler", "Total cost ($)"])
    row = next(r for r in rows[rows.index(header):] if r and r[0] == "edf-bfd")
    stored = float(row[header.index("Reserved idle cost ($)")])
    assert stored == pytest.approx(direct["reserved_idle_cost"], rel=1e-3)  # the precision the page shows


def test_runs_of_clusters_without_them_show_no_split(
    owner_client: Any, start_run: Callable[..., Run]
) -> None:
    run = start_run()
    page = owner_client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    assert "Reserved cost" not in page and "Spot interruptions" not in page


def test_the_cluster_list_prices_every_vm_on_in_its_market(owner_client: Any, team: Team, owner: Any,
                                                            priced: VMType) -> None:
    services.cluster_create(team=team, user=owner, name="Mixed", entries=[
        {"vm_type": "m1.large", "count": 6, "reserved_count": 2, "spot_count": 3}])
    # 2 x $0.15 reserved + 3 x $0.07 spot + 1 x $0.24 on demand = $0.75 an hour.
    page = owner_client.get(reverse("web:clusters")).content.decode()
    assert "0.75" in page and "1.44" not in page  # not every VM at the on-demand price
