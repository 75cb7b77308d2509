"""The allocation study's start page (``web:allocation-start``): its fields derived from the
declared parameters, the papers' presets, a clone of a run, a stored cluster and workload,
starting a run, and each error next to the field (or the tick box) it is about."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from planner.runs.kinds import get_kind
from planner.runs.models import Run
from scheduling import ScenarioError
from scheduling.errors import FieldError
from scheduling.fairness.params import ALLOCATION_PARAMS, DEFAULT_VARIANTS
from scheduling.params import Preset, describe, param_named

from .documents import table_one

pytestmark = pytest.mark.django_db

URL = "/runs/new/allocation/"


def preset() -> Preset:
    found = next((p for p in get_kind("allocation").presets() if p.key == "000-table-1"), None)
    assert found is not None and found.scenario is not None
    return found


def post(client: Client, **fields: Any) -> Any:
    data = {"source": "document", "document": json.dumps(table_one()), "variants": ["drf/rrr"],
            "trials": "5", "seed": "0", **fields}
    return client.post(URL, {k: v for k, v in data.items() if v is not None})


def test_the_url_is_the_kinds() -> None:
    assert reverse("web:allocation-start") == URL


def test_the_page_shows_every_field_of_the_declared_parameters(owner_client: Client) -> None:
    response = owner_client.get(URL)
    assert response.status_code == 200
    page, form = response.content.decode(), response.context["form"]
    assert list(form.fields) == ["source", "cluster", "workload", "document", "document_file", "name",
                                 "variants", "trials", "seed", "baseline"]
    for name in form.fields:
        assert f'name="{name}"' in page, name
    # the declared choices, labels, help, bounds and defaults
    boxes = re.findall(r'<input type="checkbox" name="variants" value="([^"]+)"[^>]*?( checked)?>', page)
    assert [v for v, _ in boxes][:3] == ["drf/rrr", "drf/joint", "drf/best-fit"] and len(boxes) == 30
    assert [v for v, checked in boxes if checked] == list(DEFAULT_VARIANTS)
    assert "rPS-DSF (joint)" in page and "U-MMF (fractional)" in page
    assert describe(param_named(ALLOCATION_PARAMS, "trials")) in page
    assert "(1 to 100,000; default 1)" in page
    # the page's suggestion (an API request's default is 1), the bounds as the browser's hints
    assert re.search(r'<input type="number" name="trials" value="100" step="any" min="1" max="100000"', page)


def test_the_page_offers_the_table_one_preset(owner_client: Client) -> None:
    page = owner_client.get(URL).content.decode()
    assert 'data-preset="000-table-1"' in page and "Paper 000, Table I" in page
    filled = owner_client.get(URL + "?preset=000-table-1")
    text = filled.content.decode()
    assert 'id="preset-note"' in text
    # The scenario, the preset's policies and its 200 trials, in the form.
    assert "&quot;task_demand&quot;" in text and "c2" in text
    for spec in preset().params["variants"]:
        assert re.search(rf'value="{re.escape(spec)}"[^>]*checked', text), spec
    assert not re.search(r'value="pf/fractional"[^>]*checked', text)
    assert 'name="trials" value="200"' in text
    assert filled.context["form"].initial["name"] == "Paper 000, Table I"


def test_the_preset_starts_as_it_is_filled(owner_client: Client) -> None:
    filled = owner_client.get(URL + "?preset=000-table-1").context["form"]
    data = {"source": "document", "document": filled.initial["document"], "name": filled.initial["name"],
            "variants": filled.initial["variants"], "trials": filled.initial["trials"],
            "seed": filled.initial["seed"]}
    response = owner_client.post(URL, data)
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.name == "Paper 000, Table I" and run.options["trials"] == 200
    # the preset's policies, in the page's order (the boxes')
    assert run.options["variants"] == [
        "drf/rrr", "drf/rrr-task", "tsf/rrr-task", "psdsf/joint", "psdsf/rrr-task", "rpsdsf/joint",
        "rpsdsf/rrr-task", "bf-drf/best-fit-all"]
    assert sorted(run.options["variants"]) == sorted(preset().params["variants"])


def test_the_page_starts_a_run(owner_client: Client, execute_run: Callable[[int], str]) -> None:
    response = post(owner_client, variants=["rpsdsf/joint", "drf/rrr"], trials="10", seed="3", name="")
    assert response.status_code == 302, response.content.decode()[:3000]
    run = Run.objects.get()
    # ticked boxes in the page's order, whatever order they came in
    assert run.kind == "allocation" and run.options["variants"] == ["drf/rrr", "rpsdsf/joint"]
    assert (run.options["trials"], run.options["seed"], run.options["baseline"]) == (10, 3, "DRF (rrr)")
    assert execute_run(run.pk) == "succeeded"
    page = owner_client.get(response["Location"]).content.decode()
    assert 'data-prefix="heatmap:"' in page and "rPS-DSF (joint)" in page


def test_a_baseline_and_empty_fields_take_the_declared_defaults(owner_client: Client) -> None:
    response = post(owner_client, variants=["drf/rrr", "bf-drf"], trials="", seed="", baseline="bf-drf")
    assert response.status_code == 302, response.context["form"].errors
    options = Run.objects.get().options
    assert (options["trials"], options["seed"], options["baseline"]) == (1, 0, "BF-DRF")


def test_errors_of_the_scenario_and_the_fields_are_shown_next_to_them(owner_client: Client) -> None:
    scenario = table_one()
    del scenario["frameworks"][1]["task_demand"]
    response = post(owner_client, document=json.dumps(scenario))
    assert response.status_code == 400
    assert response.context["form"].errors == {
        "document": ["frameworks[1].task_demand: required by the fairness engine"]}
    # every problem of the fields at once, in the declarations' words
    response = post(owner_client, variants=None, trials="0", seed="-1")
    assert response.status_code == 400
    assert response.context["form"].errors == {
        "variants": ["must not be empty"],
        "trials": ["must be a whole number from 1 to 100,000"],
        "seed": ["must be a whole number from 0 to 9,223,372,036,854,775,807"],
    }
    response = post(owner_client, variants=["drf/rrr", "tsf/rrr"], baseline="bf-drf")
    assert response.context["form"].errors == {"baseline": ["must be one of the run's variants"]}
    response = post(owner_client, trials="many")
    assert response.context["form"].errors == {"trials": ["Enter a whole number."]}
    assert not Run.objects.exists()


def test_an_error_of_one_policy_names_it_on_the_boxes(owner_client: Client, settings: Any) -> None:
    settings.PLANNER_MAX_VARIANTS_PER_RUN = 1
    response = post(owner_client, variants=["tsf/rrr", "drf/rrr"])
    assert response.context["form"].errors == {"variants": ["lists 2; the limit is 1"]}
    # errors of single policies (paths variants[i]) name them, in the order sent (the page's)
    settings.PLANNER_MAX_VARIANTS_PER_RUN = 20
    form = post(owner_client, variants=["tsf/rrr", "drf/rrr", "bf-drf"], trials="0").context["form"]
    form.add_service_errors(ScenarioError([FieldError("variants[0]", "is broken"),
                                           FieldError("variants[2]", "is broken too")]))
    assert form.errors["variants"] == ["drf/rrr: is broken", "bf-drf: is broken too"]


def test_the_navigation_links_the_page(owner_client: Client) -> None:
    page = owner_client.get(reverse("web:runs")).content.decode()
    assert URL in page and "/runs/new/sharing/" in page


def test_a_finished_study_can_be_cloned(owner_client: Client, execute_run: Callable[[int], str]) -> None:
    post(owner_client, variants=["bf-drf", "tsf/joint"], trials="7", seed="2", baseline="bf-drf")
    run = Run.objects.get()
    execute_run(run.pk)
    page = owner_client.get(reverse("web:run-detail", args=[run.pk])).content.decode()
    clone_url = f"{URL}?clone={run.pk}"
    assert clone_url in page
    response = owner_client.get(clone_url)
    form = response.context["form"]
    assert form.initial["variants"] == ["tsf/joint", "bf-drf"] and form.initial["trials"] == 7
    assert form.initial["seed"] == 2 and form.initial["baseline"] == "BF-DRF"
    assert json.loads(form.initial["document"])["name"] == table_one()["name"]
    assert 'id="cloned-from"' in response.content.decode()
    # started as it is, the same study
    again = owner_client.post(URL, {"source": "document", "document": form.initial["document"],
                                    "variants": form.initial["variants"], "trials": "7", "seed": "2",
                                    "baseline": form.initial["baseline"]})
    assert again.status_code == 302, again.context["form"].errors
    assert Run.objects.order_by("-pk").first().options == run.options  # type: ignore[union-attr]


def test_a_study_of_a_stored_cluster_and_workload(
    owner_client: Client, owner: Any, team: Any, cluster: Any, execute_run: Callable[[int], str]
) -> None:
    from planner.scenarios.services import workload_create

    frameworks = [{"name": "web", "weight": 2, "task_demand": {"cpu": 1, "mem": 2}},
                  {"name": "batch", "task_demand": {"cpu": 2, "mem": 1}, "allowed_vm_types": ["m1.xlarge"]}]
    workload = workload_create(team=team, user=owner, name="Tenants", frameworks=frameworks, jobs=[])
    page = owner_client.get(f"{URL}?cluster={cluster.pk}&workload={workload.pk}")
    assert page.context["form"].initial["source"] == "stored"
    response = owner_client.post(URL, {
        "source": "stored", "cluster": str(cluster.pk), "workload": str(workload.pk),
        "variants": ["drf/joint", "psdsf/joint"], "trials": "3", "seed": "0",
    })
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.cluster_id == cluster.pk and execute_run(run.pk) == "succeeded"
    doc = run.results.get(variant="DRF (joint)").result
    # batch may use the m1.xlarge servers only.
    assert all(v == 0 for mid, v in doc["mean"]["batch"].items() if not mid.startswith("m1.xlarge#"))


def test_an_outsider_cannot_clone_a_teams_study(owner_client: Client, outsider: Any, other_team: Any,
                                                execute_run: Callable[[int], str]) -> None:
    post(owner_client, variants=["bf-drf"], trials="1")
    run = Run.objects.get()
    outsider_client = Client()
    outsider_client.force_login(outsider)
    assert outsider_client.get(f"{URL}?clone={run.pk}").status_code == 404
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
    response = owner_client.post(URL, {
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
    stored = {"source": "stored", "cluster": str(cluster.pk), "workload": str(pk), "variants": ["drf/joint"],
              "trials": "1", "seed": "0"}
    response = owner_client.post(URL, stored)
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors == {
        "workload": ["does not fit the run: frameworks[1].task_demand: required by the fairness engine"]}
    page = response.content.decode()
    editor = reverse("web:workload-edit", args=[pk])
    assert re.search(rf'id="edit-workload">[^<]*<a href="{re.escape(editor)}">the workload editor</a>', page)
    assert not Run.objects.exists()
    # Set in the editor, the same request starts.
    assert _editor_save(owner_client, pk, {"frameworks": EDITED}).status_code == 200
    assert owner_client.post(URL, stored).status_code == 302
