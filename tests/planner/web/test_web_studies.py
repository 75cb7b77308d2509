"""Start pages of the fairness studies: presets, starting a run, errors next to their fields."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from planner.runs.kinds import all_kinds
from planner.runs.models import Run
from planner.web.study_forms import overrides_text, parse_overrides
from planner.web.study_presets import preset_get, study_presets

pytestmark = pytest.mark.django_db


def table_one() -> Any:
    preset = preset_get("allocation", "000-table-1")
    assert preset is not None
    return preset


def test_the_allocation_page_offers_the_table_one_preset(owner_client: Client) -> None:
    page = owner_client.get(reverse("web:allocation-new")).content.decode()
    assert 'data-preset="000-table-1"' in page and "Paper 000, Table I" in page
    filled = owner_client.get(reverse("web:allocation-new") + "?preset=000-table-1").content.decode()
    assert 'id="preset-note"' in filled
    # The scenario and the five policies, 200 trials, in the form.
    assert "&quot;task_demand&quot;" in filled and "c2" in filled
    for spec in table_one().params["variants"]:
        assert re.search(rf'value="{re.escape(spec)}"[^>]*checked', filled), spec
    assert not re.search(r'value="pf/fractional"[^>]*checked', filled)
    assert 'name="trials" value="200"' in filled


def test_the_allocation_page_starts_a_run(owner_client: Client, execute_run: Callable[[int], str]) -> None:
    response = owner_client.post(reverse("web:allocation-new"), {
        "source": "document", "document": json.dumps(table_one().scenario),
        "variants": ["rpsdsf/joint", "drf/rrr"], "trials": "10", "seed": "3", "name": "",
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    run = Run.objects.get()
    assert run.kind == "allocation" and run.options["variants"] == ["drf/rrr", "rpsdsf/joint"]
    assert execute_run(run.pk) == "succeeded"
    page = owner_client.get(response["Location"]).content.decode()
    assert 'data-prefix="heatmap:"' in page and "rPS-DSF (joint)" in page


def test_errors_of_the_scenario_and_the_fields_are_shown_next_to_them(owner_client: Client) -> None:
    scenario = json.loads(json.dumps(table_one().scenario))
    del scenario["frameworks"][1]["task_demand"]
    response = owner_client.post(reverse("web:allocation-new"), {
        "source": "document", "document": json.dumps(scenario), "variants": ["drf/rrr"], "trials": "5",
        "seed": "0",
    })
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors["document"] == ["frameworks[1].task_demand: required by the fairness engine"]
    response = owner_client.post(reverse("web:allocation-new"), {
        "source": "document", "document": json.dumps(table_one().scenario), "trials": "0", "seed": "0",
    })
    assert response.status_code == 400
    assert set(response.context["form"].errors) == {"variants", "trials"}
    assert not Run.objects.exists()


def test_the_navigation_links_the_study_pages(owner_client: Client) -> None:
    page = owner_client.get(reverse("web:runs")).content.decode()
    assert reverse("web:allocation-new") in page
    registered = {k.key for k in all_kinds()}
    assert (reverse("web:sharing-new") in page) == ("sharing" in registered)


def test_the_sharing_page_is_missing_without_the_engine(owner_client: Client, monkeypatch: Any) -> None:
    from planner.runs import kinds

    kind = kinds._KINDS.pop("sharing", None)
    try:
        assert owner_client.get(reverse("web:sharing-new")).status_code == 404
        page = owner_client.get(reverse("web:runs")).content.decode()
        assert reverse("web:sharing-new") not in page
    finally:
        if kind is not None:
            kinds.register(kind)


def _setup(key: str, section: str, document: dict[str, Any], study: str = "sharing", **more: Any) -> Any:
    """A set-up shaped as scheduling.fairness.setups.Setup."""
    import types

    fields = {"key": key, "paper": "001", "section": section, "title": more.pop("title", key),
              "document": document, "study": study, "figure": "Scylla's unfairness (%)",
              "measure": ("unfairness", "b"), "paper_value": None, "share_args": {"mode": "offers"},
              "notes": ""}
    return types.SimpleNamespace(**{**fields, **more})


def _two(policy_b: str = "first-fit", refuse_b: float = 5, demand_b: float = 1) -> dict[str, Any]:
    fw = {"offer_policy": "first-fit", "queues": [{"tasks": 4, "duration_s": 10}]}
    return {"version": 2, "name": "Two tenants", "resources": ["cpu", "mem"],
            "vm_types": [{"name": "n", "capacity": {"cpu": 4, "mem": 4}, "price_per_hour": 0, "count": 2}],
            "frameworks": [{"name": "a", "task_demand": {"cpu": 1, "mem": 1}, **fw},
                           {"name": "b", "task_demand": {"cpu": demand_b, "mem": 1}, **fw,
                            "offer_policy": policy_b, "refuse_s": refuse_b}]}


def test_the_registrys_set_ups_become_presets_side_by_side(monkeypatch: Any) -> None:
    import sys
    import types

    registry = types.ModuleType("scheduling.fairness.setups")
    registry.SETUPS = {s.key: s for s in [  # type: ignore[attr-defined]
        _setup("001-v-b-first-fit", "§V-B, Figure 1", _two(), paper_value=38.0, title="b first fit"),
        _setup("001-v-b-bin-packing", "§V-B, Figure 6", _two("bin-packing", 0), title="b bin packing"),
        _setup("001-v-b-bigger", "§V-B, Figure 9", _two(demand_b=2), title="b bigger tasks"),
        _setup("000-table-1-drf", "§IV, Table I", table_one().scenario, study="allocation", paper="000",
               share_args={"policy": "drf", "servers": "rrr", "trials": 200}),
        _setup("000-table-1-bf-drf", "§IV, Table I", table_one().scenario, study="allocation", paper="000",
               share_args={"policy": "bf-drf", "servers": "best-fit", "trials": 200}),
        _setup("broken", "§V-Z", {"vm_types": "nope"}),
    ]}
    monkeypatch.setitem(sys.modules, "scheduling.fairness.setups", registry)
    sharing = study_presets("sharing")
    # The first two differ by b's offer answer and refusal only: one preset, two configurations.
    assert [p.key for p in sharing] == ["001-v-b", "001-v-b-bigger"]
    configurations = sharing[0].params["configurations"]
    assert [c["label"] for c in configurations] == ["b first fit", "b bin packing"]
    assert configurations[1]["overrides"] == {"b": {"offer_policy": "bin-packing", "refuse_s": 0.0}}
    assert "38 in the paper" in sharing[0].description  # the registry's value, not the planner's
    # The registry's Table I replaces the planner's own preset of the same key.
    allocation = study_presets("allocation")
    assert [p.key for p in allocation] == ["000-table-1"]
    assert allocation[0].params == {"variants": ["drf/rrr", "bf-drf"], "trials": 200, "seed": 0}


def test_a_sharing_preset_fills_the_configurations(owner_client: Client, monkeypatch: Any) -> None:
    import sys
    import types

    registry = types.ModuleType("scheduling.fairness.setups")
    registry.SETUPS = {s.key: s for s in [  # type: ignore[attr-defined]
        _setup("001-v-b-first-fit", "§V-B, Figure 1", _two(), title="b first fit"),
        _setup("001-v-b-bin-packing", "§V-B, Figure 6", _two("bin-packing", 0), title="b bin packing"),
    ]}
    monkeypatch.setitem(sys.modules, "scheduling.fairness.setups", registry)
    response = owner_client.get(reverse("web:sharing-new") + "?preset=001-v-b")
    if response.status_code == 404:
        pytest.skip("the library has no sharing engine")
    rows = response.context["form"].rows
    assert [r.initial.get("use") for r in rows] == [True, True, False, False, False, False]
    assert [r.initial.get("label") for r in rows[:2]] == ["b first fit", "b bin packing"]
    assert rows[1].initial["overrides"] == "b: offer_policy=bin-packing, refuse_s=0"
    assert 'data-preset="001-v-b"' in response.content.decode()


def test_the_librarys_own_registry_gives_presets_that_start() -> None:
    import importlib.util

    if importlib.util.find_spec("scheduling.fairness.setups") is None:
        pytest.skip("the library has no set-ups registry yet (scheduling.fairness.setups)")
    sharing = study_presets("sharing")
    assert sharing and all(p.params["configurations"] for p in sharing)
    assert any(p.key.startswith("000-table-1") for p in study_presets("allocation"))


def test_overrides_are_written_and_read_back() -> None:
    text = "scylla: refuse_s=5, offer_policy=first-fit; aurora: hold_s=2.5"
    assert parse_overrides(text) == {"scylla": {"refuse_s": 5.0, "offer_policy": "first-fit"},
                                     "aurora": {"hold_s": 2.5}}
    assert parse_overrides(overrides_text(parse_overrides(text))) == parse_overrides(text)
    with pytest.raises(ValueError):
        parse_overrides("scylla refuse_s 5")


def test_a_finished_study_can_be_cloned(owner_client: Client, execute_run: Callable[[int], str]) -> None:
    owner_client.post(reverse("web:allocation-new"), {
        "source": "document", "document": json.dumps(table_one().scenario),
        "variants": ["bf-drf", "tsf/joint"], "trials": "7", "seed": "2",
    })
    run = Run.objects.get()
    execute_run(run.pk)
    page = owner_client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    clone_url = f"{reverse('web:allocation-new')}?clone={run.pk}"
    assert clone_url in page
    form = owner_client.get(clone_url).context["form"]
    assert form.initial["variants"] == ["tsf/joint", "bf-drf"] and form.initial["trials"] == 7
    assert json.loads(form.initial["document"])["name"] == table_one().scenario["name"]


def test_a_study_of_a_stored_cluster_and_workload(
    owner_client: Client, owner: Any, team: Any, cluster: Any, execute_run: Callable[[int], str]
) -> None:
    from planner.scenarios.services import workload_create

    frameworks = [{"name": "web", "weight": 2, "task_demand": {"cpu": 1, "mem": 2}},
                  {"name": "batch", "task_demand": {"cpu": 2, "mem": 1}, "allowed_vm_types": ["m1.xlarge"]}]
    workload = workload_create(team=team, user=owner, name="Tenants", frameworks=frameworks, jobs=[])
    page = owner_client.get(f"{reverse('web:allocation-new')}?cluster={cluster.pk}&workload={workload.pk}")
    assert page.context["form"].initial["source"] == "stored"
    response = owner_client.post(reverse("web:allocation-new"), {
        "source": "stored", "cluster": str(cluster.pk), "workload": str(workload.pk),
        "variants": ["drf/joint", "psdsf/joint"], "trials": "3", "seed": "0",
    })
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.cluster_id == cluster.pk and execute_run(run.pk) == "succeeded"
    doc = run.results.get(variant="DRF (joint)").result
    # batch may use the m1.xlarge servers only.
    assert all(v == 0 for mid, v in doc["mean"]["batch"].items() if not mid.startswith("m1.xlarge#"))


def test_an_outsider_cannot_clone_a_teams_study(
    owner_client: Client, client_for: Callable[[Any], Client], outsider: Any, other_team: Any,
    execute_run: Callable[[int], str],
) -> None:
    owner_client.post(reverse("web:allocation-new"), {
        "source": "document", "document": json.dumps(table_one().scenario), "variants": ["bf-drf"],
        "trials": "1", "seed": "0",
    })
    run = Run.objects.get()
    outsider_client = client_for(outsider)
    assert outsider_client.get(f"{reverse('web:allocation-new')}?clone={run.pk}").status_code == 404
    assert outsider_client.get(reverse("web:run-detail", args=[run.pk])).status_code == 404


# --------------------------------------------------------------------------- frameworks from the editor


def _editor_save(client: Client, workload_pk: int, body: dict[str, Any]) -> Any:
    """Save in the workload editor as its page does: the workload as JSON, posted to the page."""
    return client.post(reverse("web:workload-edit", args=[workload_pk]), json.dumps(body),
                       content_type="application/json")


def _new_workload(client: Client, name: str) -> int:
    response = client.post(reverse("web:workload-new"), {"name": name})
    assert response.status_code == 302
    return int(response["Location"].rstrip("/").split("/")[-1])


EDITED = [
    {"name": "web", "weight": 2, "task_demand": {"cpu": 1, "mem": 2}},
    {"name": "batch", "weight": 1, "task_demand": {"cpu": 2, "mem": 1}, "allowed_vm_types": ["m1.xlarge"]},
]


def test_an_allocation_study_of_frameworks_defined_in_the_editor(
    owner_client: Client, cluster: Any, execute_run: Callable[[int], str]
) -> None:
    pk = _new_workload(owner_client, "Tenants")
    response = _editor_save(owner_client, pk, {"name": "Tenants", "description": "", "frameworks": EDITED,
                                               "jobs": []})
    assert response.status_code == 200, response.content
    response = owner_client.post(reverse("web:allocation-new"), {
        "source": "stored", "cluster": str(cluster.pk), "workload": str(pk),
        "variants": ["drf/joint", "tsf/joint"], "trials": "2", "seed": "0",
    })
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.scenario["frameworks"] == EDITED
    assert execute_run(run.pk) == "succeeded"
    doc = run.results.get(variant="DRF (joint)").result
    assert set(doc["mean"]) == {"web", "batch"}
    assert sum(doc["mean"]["web"].values()) > 0 and sum(doc["mean"]["batch"].values()) > 0
    assert all(v == 0 for mid, v in doc["mean"]["batch"].items() if not mid.startswith("m1.xlarge#"))


def test_a_framework_without_a_task_demand_is_named_next_to_the_workload(
    owner_client: Client, cluster: Any
) -> None:
    pk = _new_workload(owner_client, "Half done")
    frameworks = [EDITED[0], {"name": "batch", "weight": 1}]
    assert _editor_save(owner_client, pk, {"frameworks": frameworks}).status_code == 200  # a valid workload
    response = owner_client.post(reverse("web:allocation-new"), {
        "source": "stored", "cluster": str(cluster.pk), "workload": str(pk),
        "variants": ["drf/joint"], "trials": "1", "seed": "0",
    })
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors["workload"] == [
        "does not fit the study: frameworks[1].task_demand: required by the fairness engine"
    ]
    assert set(form.errors) == {"workload"}
    page = response.content.decode()
    editor = reverse("web:workload-edit", args=[pk])
    assert re.search(rf'id="edit-workload">[^<]*<a href="{re.escape(editor)}">the workload editor</a>', page)
    assert not Run.objects.exists()
    # Set in the editor, the same request starts.
    assert _editor_save(owner_client, pk, {"frameworks": EDITED}).status_code == 200
    response = owner_client.post(reverse("web:allocation-new"), {
        "source": "stored", "cluster": str(cluster.pk), "workload": str(pk),
        "variants": ["drf/joint"], "trials": "1", "seed": "0",
    })
    assert response.status_code == 302


def test_a_sharing_study_reads_the_sharing_fields_set_in_the_editor(
    owner_client: Client, cluster: Any, workload: Any, execute_run: Callable[[int], str]
) -> None:
    if not any(kind.key == "sharing" for kind in all_kinds()):
        pytest.skip("the library has no sharing engine")
    frameworks = [
        {"name": "analytics", "weight": 1, "task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "greedy"},
        {"name": "etl", "weight": 2, "task_demand": {"cpu": 1, "mem": 2}, "offer_policy": "hold",
         "refuse_s": 0, "hold_s": 2},
    ]
    response = _editor_save(owner_client, workload.pk, {"frameworks": frameworks, "jobs": workload.jobs})
    assert response.status_code == 200, response.content
    response = owner_client.post(reverse("web:sharing-new"), {
        "source": "stored", "cluster": str(cluster.pk), "workload": str(workload.pk),
        "c0-use": "on", "c0-mode": "offers", "c0-criterion": "drf", "c0-allocation_interval_s": "1",
        "c0-seed": "0",
    })
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.scenario["version"] == 2 and run.scenario["frameworks"] == frameworks
    assert execute_run(run.pk) == "succeeded"
