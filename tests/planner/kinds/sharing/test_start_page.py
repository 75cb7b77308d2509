"""The sharing study's start page (``web:sharing-start``): rows of configurations derived from
the declared parameters (``configurations0-mode`` ...), the papers' presets, a clone of a run,
starting a run, and each error of the library next to the row and field it is about."""

from __future__ import annotations

import json
import re
import sys
import types
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from planner.runs.kinds import get_kind
from planner.runs.models import Run
from scheduling.fairness.params import CONFIGURATION_PARAMS

from .documents import two_frameworks

pytestmark = pytest.mark.django_db

URL = "/runs/new/sharing/"
ROW_FIELDS = ["use", "label", "mode", "criterion", "servers", "allocation_interval_s", "seed", "horizon_s",
              "overrides", "max_tasks_per_offer", "registration", "offers_count", "minimum_offer", "drf_ties"]


def row(k: int, **fields: str) -> dict[str, str]:
    """The POST fields of configuration row ``k``, included."""
    return {f"configurations{k}-use": "on", **{f"configurations{k}-{name}": v for name, v in fields.items()}}


def page_data(*rows: dict[str, str], **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"source": "document", "document": json.dumps(two_frameworks()), **fields}
    for r in rows:
        data.update(r)
    return data


def filled(form: Any) -> dict[str, Any]:
    """What the browser posts of a filled page: the scenario, the name and the included rows."""
    data = {"source": "document", "document": form.initial["document"], "name": form.initial.get("name", "")}
    for k, r in enumerate(form.param_rows["configurations"]):
        if not r.initial.get("use"):
            continue
        data[f"configurations{k}-use"] = "on"
        for name in ROW_FIELDS[1:]:
            value = r[name].field.prepare_value(r[name].value())
            if value is not None:
                data[f"configurations{k}-{name}"] = value
    return data


def test_the_url_is_the_kinds() -> None:
    assert reverse("web:sharing-start") == URL


def test_the_page_shows_every_field_of_every_row(owner_client: Client) -> None:
    response = owner_client.get(URL)
    assert response.status_code == 200
    page, form = response.content.decode(), response.context["form"]
    assert list(form.fields) == [
        "source", "cluster", "workload", "document", "document_file", "name", "baseline"]
    for name in form.fields:
        assert f'name="{name}"' in page, name
    rows = form.param_rows["configurations"]
    assert len(rows) == 6 and [list(r.fields) for r in rows] == [ROW_FIELDS] * 6
    assert [p.name for p in CONFIGURATION_PARAMS] == ROW_FIELDS[1:]
    for k in range(6):
        for name in ROW_FIELDS:
            assert f'name="configurations{k}-{name}"' in page, (k, name)
    assert re.search(r'name="configurations0-use"[^>]*checked', page)
    assert not re.search(r'name="configurations1-use"[^>]*checked', page)
    # the declared defaults, choices and text forms
    assert re.search(r'<option value="offers" selected>offers</option>', page)
    assert '<option value="" selected>default</option>' in page  # servers: the library's choice
    assert 'name="configurations0-allocation_interval_s" value="1.0"' in page
    assert 'placeholder="scylla: refuse_s=5, offer_policy=first-fit"' in page
    assert "Seconds between allocation decisions (Mesos: 1). (s; &gt; 0; default 1)" in page
    assert "planner/kinds/sharing/start.css" in page  # the rows' help under the first row only


def test_the_page_starts_configurations_side_by_side(
    share_calls: list[dict[str, Any]], owner_client: Client, execute_run: Callable[[int], str]
) -> None:
    data = page_data(
        row(0, label="refuse 5 s", mode="offers", criterion="drf", allocation_interval_s="1", seed="0",
            overrides="a: refuse_s=5"),
        row(1, label="refuse 1 s", mode="offers", criterion="drf", allocation_interval_s="1", seed="0",
            overrides="a: refuse_s=1", horizon_s="300"),
        # rows not included are not read, whatever they hold
        {"configurations2-mode": "lottery", "configurations3-seed": "-1"},
    )
    bad = owner_client.post(URL, {**data, "configurations1-overrides": "zz: refuse_s=1"})
    assert bad.status_code == 400
    rows = bad.context["form"].param_rows["configurations"]
    assert rows[1].errors == {"overrides": ["zz: is not a framework of the scenario (a, b)"]}
    response = owner_client.post(URL, data)
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert [c["label"] for c in run.options["configurations"]] == ["refuse 5 s", "refuse 1 s"]
    assert [c["horizon_s"] for c in run.options["configurations"]] == [None, 300.0]
    assert [c["overrides"] for c in run.options["configurations"]] == [{"a": {"refuse_s": 5.0}},
                                                                      {"a": {"refuse_s": 1.0}}]
    assert run.options["baseline"] == "refuse 5 s"
    assert execute_run(run.pk) == "succeeded" and len(share_calls) == 2


def test_empty_fields_take_the_declared_defaults(owner_client: Client) -> None:
    response = owner_client.post(URL, page_data(row(0)))
    assert response.status_code == 302, response.context["form"].errors
    assert Run.objects.get().options["configurations"] == [{
        "mode": "offers", "criterion": "drf", "servers": None, "allocation_interval_s": 1.0, "seed": 0,
        "horizon_s": None, "overrides": {}, "max_tasks_per_offer": 5, "registration": "queues",
        "offers_count": "decision", "minimum_offer": "mesos", "drf_ties": "allocations",
        "label": "offers drf"}]


def test_each_error_lands_on_its_row_and_field(owner_client: Client) -> None:
    response = owner_client.post(URL, page_data(
        row(0, label="x", criterion="tsf", servers="joint"),
        row(1, label="x", allocation_interval_s="0", seed="-1"),
        row(2, mode="characterized", criterion="bf-drf", servers="rrr", overrides="a: colour=red"),
        baseline="nobody",
    ))
    assert response.status_code == 400
    form = response.context["form"]
    rows = form.param_rows["configurations"]
    assert rows[0].errors == {
        "criterion": ["the offer cycle sorts frameworks by DRF (criterion drf)"],
        "servers": ["the offer cycle visits the agents in random order (rrr)"],
    }
    assert rows[1].errors == {
        "allocation_interval_s": ["must be a number of seconds > 0"],
        "seed": ["must be a whole number from 0 to 9,223,372,036,854,775,807"],
        "label": ["'x' names two configurations: give each its own label"],
    }
    assert rows[2].errors == {
        "servers": ["bf-drf chooses servers by best fit (use policy drf with servers rrr for DRF under "
                    "randomised round robin)"],
        "overrides": ["a.colour: unknown field (override takes offer_policy, refuse_s, hold_s)"],
    }
    assert form.errors == {}  # the baseline is checked when every configuration reads
    page = response.content.decode()
    assert page.count('class="config-row has-error"') == 3
    response = owner_client.post(URL, page_data(row(0, label="a"), row(1, label="b"), baseline="c"))
    assert response.context["form"].errors == {
        "baseline": ["must be the label of one of the run's configurations"]}
    assert not Run.objects.exists()


def test_a_page_without_configurations_or_with_bad_text_says_so(owner_client: Client) -> None:
    response = owner_client.post(URL, page_data())
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == ["configurations: must not be empty"]
    response = owner_client.post(URL, page_data(row(0, overrides="a refuse_s 5", horizon_s="soon")))
    assert response.status_code == 400
    assert response.context["form"].param_rows["configurations"][0].errors == {
        "overrides": ["write <framework>: key=value, ... (not 'a refuse_s 5')"],
        "horizon_s": ["Enter a number."],
    }


def _setup(key: str, section: str, document: dict[str, Any], **more: Any) -> Any:
    """A set-up shaped as scheduling.fairness.setups.Setup."""
    fields = {"key": key, "paper": "001", "section": section, "title": more.pop("title", key),
              "document": document, "study": "sharing", "figure": "Scylla's unfairness (%)",
              "measure": ("unfairness", "b"), "paper_value": None, "share_args": {"mode": "offers"},
              "notes": ""}
    return types.SimpleNamespace(**{**fields, **more})


def _two(policy_b: str = "first-fit", refuse_b: float = 5) -> dict[str, Any]:
    fw = {"offer_policy": "first-fit", "queues": [{"tasks": 4, "duration_s": 10}]}
    return {"version": 2, "name": "Two tenants", "resources": ["cpu", "mem"],
            "vm_types": [{"name": "n", "capacity": {"cpu": 4, "mem": 4}, "price_per_hour": 0, "count": 2}],
            "frameworks": [{"name": "a", "task_demand": {"cpu": 1, "mem": 1}, **fw},
                           {"name": "b", "task_demand": {"cpu": 1, "mem": 1}, **fw,
                            "offer_policy": policy_b, "refuse_s": refuse_b}]}


def test_a_preset_fills_the_configurations(owner_client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    registry = types.ModuleType("scheduling.fairness.setups")
    registry.SETUPS = {s.key: s for s in [  # type: ignore[attr-defined]
        _setup("001-v-b-first-fit", "§V-B, Figure 1", _two(), title="b first fit"),
        _setup("001-v-b-bin-packing", "§V-B, Figure 6", _two("bin-packing", 0), title="b bin packing"),
    ]}
    monkeypatch.setitem(sys.modules, "scheduling.fairness.setups", registry)
    response = owner_client.get(URL + "?preset=001-v-b")
    rows = response.context["form"].param_rows["configurations"]
    assert [r.initial.get("use") for r in rows] == [True, True, False, False, False, False]
    assert [r.initial.get("label") for r in rows[:2]] == ["b first fit", "b bin packing"]
    page = response.content.decode()
    assert 'value="b: offer_policy=bin-packing, refuse_s=0"' in page  # the overrides' text form
    assert 'data-preset="001-v-b"' in page


def test_the_papers_preset_starts_as_it_is_filled(owner_client: Client) -> None:
    preset = next(p for p in get_kind("sharing").presets() if p.key == "001-v-b-greedy")
    response = owner_client.get(URL + "?preset=001-v-b-greedy")
    assert 'id="preset-note"' in response.content.decode()
    started = owner_client.post(URL, filled(response.context["form"]))
    assert started.status_code == 302, started.context["form"].errors
    run = Run.objects.get()
    assert run.name == preset.title
    configurations = run.options["configurations"]
    assert [c["label"] for c in configurations] == [c["label"] for c in preset.params["configurations"]]
    for stored, given in zip(configurations, preset.params["configurations"], strict=True):
        assert stored["overrides"] == given["overrides"] and stored["seed"] == given["seed"]
        assert (stored["mode"], stored["criterion"]) == (given["mode"], given["criterion"])


def test_a_finished_study_can_be_cloned(
    sharing_run: Run, owner_client: Client
) -> None:
    page = owner_client.get(reverse("web:run-detail", args=[sharing_run.pk])).content.decode()
    clone_url = f"{URL}?clone={sharing_run.pk}"
    assert clone_url in page
    response = owner_client.get(clone_url)
    form = response.context["form"]
    rows = form.param_rows["configurations"]
    assert [r.initial.get("use") for r in rows] == [True, True, False, False, False, False]
    text = response.content.decode()
    assert 'value="a: offer_policy=first-fit, refuse_s=5"' in text and 'value="a: refuse_s=1"' in text
    assert form.initial["baseline"] == "refuse 5 s" and 'id="cloned-from"' in text
    again = owner_client.post(URL, {**filled(form), "baseline": form.initial["baseline"]})
    assert again.status_code == 302, again.context["form"].errors
    assert Run.objects.order_by("-pk").first().options == sharing_run.options  # type: ignore[union-attr]


def test_a_sharing_study_reads_the_sharing_fields_set_in_the_editor(
    owner_client: Client, cluster: Any, workload: Any, execute_run: Callable[[int], str]
) -> None:
    frameworks = [
        {"name": "analytics", "weight": 1, "task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "greedy"},
        {"name": "etl", "weight": 2, "task_demand": {"cpu": 1, "mem": 2}, "offer_policy": "hold",
         "refuse_s": 0, "hold_s": 2},
    ]
    response = owner_client.post(reverse("web:workload-edit", args=[workload.pk]),
                                 json.dumps({"frameworks": frameworks, "jobs": workload.jobs}),
                                 content_type="application/json")
    assert response.status_code == 200, response.content
    response = owner_client.post(URL, {
        "source": "stored", "cluster": str(cluster.pk), "workload": str(workload.pk),
        **row(0, mode="offers", criterion="drf", allocation_interval_s="1", seed="0"),
    })
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.scenario["version"] == 2 and run.scenario["frameworks"] == frameworks
    assert execute_run(run.pk) == "succeeded"
