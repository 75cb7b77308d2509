"""The MRSU sizing start page (planner/kinds/mrsu/forms.py, views.py) on the shared machinery.

Its parameter fields are the kind's declarations (labels, help, bounds, defaults); the page
adds where the requirements come from: an MRSU input (pasted or uploaded; without a scenario
the run records the input's machine) or the scenario's frameworks. Errors come back onto the
field that caused them, with their paths; presets are the library's set-ups; a clone of a run
on an input fills the input, not a scenario document.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from planner.kinds.mrsu.forms import MrsuForm
from planner.runs.models import Run
from scheduling.mrsu.params import MRSU_PARAMS, SWEEP_PARAMS, input_scenario
from scheduling.mrsu.setups import SETUPS
from scheduling.params import describe, param_named

pytestmark = pytest.mark.django_db

URL = "/runs/new/mrsu/"


def form_data(form: Any) -> dict[str, Any]:
    """What a browser posts of a form as it is shown (ticked boxes and filled fields only)."""
    values = {name: form[name].value() for name in form.fields}
    return {k: v for k, v in values.items() if v not in (None, "", False)}


def test_the_page_is_the_kinds_start_page(client: Any, owner: Any, team: Any) -> None:
    client.force_login(owner)
    assert reverse("web:mrsu-start") == URL
    response = client.get(URL)
    assert response.status_code == 200 and isinstance(response.context["form"], MrsuForm)
    assert response.templates[0].name == "kinds/mrsu/start.html"
    page = response.content.decode()
    assert 'data-preset="002-fig-2"' in page and 'data-preset="002-figs-3-5"' in page
    assert URL in client.get(reverse("web:runs")).content.decode()  # the navigation links to it
    assert 'name="requirements" value="input"' in page and 'id="id_input_file"' in page
    assert response.context["form"]["requirements"].value() == "input"  # the page's default


def test_the_fields_are_the_declared_parameters(client: Any, owner: Any, team: Any) -> None:
    client.force_login(owner)
    form = client.get(URL).context["form"]
    seeds = param_named(SWEEP_PARAMS, "seeds")
    assert form.fields["sweep_seeds"].help_text == describe(seeds)
    assert form.fields["sweep_seeds"].widget.attrs["max"] == 1000 and form["sweep_seeds"].value() == 100
    assert form["sweep_loads"].value() == "10 20 30 40 50 60 70 80 90 100 110 125"
    assert form.fields["slots_valid"].help_text == describe(param_named(MRSU_PARAMS, "slots_valid"))
    assert form["compositions"].value() == ["gcd", "min"] and form["modes"].value() == ["ft", "id"]
    assert [c for c, _ in form.fields["compositions"].choices] == ["gcd", "min"]
    assert form.fields["sweep"].label == param_named(MRSU_PARAMS, "sweep").label


def test_the_start_page_puts_errors_on_fields_and_starts_a_preset(
    client: Any, owner: Any, team: Any, execute_run: Callable[[int], str], mrsu_input: dict[str, Any]
) -> None:
    client.force_login(owner)
    url = reverse("web:mrsu-start")
    filled = client.get(url + "?preset=002-fig-2")
    assert filled.status_code == 200
    form = filled.context["form"]
    assert json.loads(form["input"].value()) == SETUPS["002-fig-2"].input_document()
    assert "Fig. 2" in filled.content.decode() and not form.initial.get("sweep")
    assert not form["document"].value()  # the input carries its own machine
    data = {
        "requirements": "input",
        "input": json.dumps({**mrsu_input, "capacity": {"cpu": -1}}),
        "compositions": ["gcd"],
        "modes": ["ft", "id"],
        "slots": "30",
    }
    bad = client.post(url, data)
    assert bad.status_code == 400
    assert any("input.capacity.cpu" in e for e in bad.context["form"].errors["input"])
    wide = {"capacity": {f"d{k}": 1 for k in range(17)}, "applications": [{"requirements": [{}]}]}
    bad = client.post(url, {**data, "input": json.dumps(wide)})
    assert bad.status_code == 400
    assert bad.context["form"].errors["input"] == ["input.capacity: has 17 dimensions; the limit is 16"]
    assert "document" not in bad.context["form"].errors
    bad = client.post(
        url,
        {
            **data,
            "input": json.dumps(mrsu_input),
            "sweep": "on",
            "sweep_loads": "50 0",
            "sweep_seeds": "2",
            "sweep_applications": "5",
            "sweep_slots": "4",
        },
    )
    assert bad.status_code == 400 and "sweep_loads" in bad.context["form"].errors
    # a word among the loads is refused on the field, never replaced by the paper's loads
    bad = client.post(url, {**data, "input": json.dumps(mrsu_input), "sweep": "on", "sweep_loads": "50 abc",
                            "sweep_seeds": "2", "sweep_applications": "5", "sweep_slots": "4"})
    assert bad.status_code == 400 and not Run.objects.exists()
    assert bad.context["form"].errors["sweep_loads"] == [
        "loads[1]: 'abc' is not a number (percentages of capacity, e.g. 50)"]
    response = client.post(url, {**data, "input": json.dumps(mrsu_input)})
    assert response.status_code == 302
    run = Run.objects.get()
    assert run.kind == "mrsu" and run.options["modes"] == ["ft", "id"]
    assert run.scenario == input_scenario(mrsu_input)  # no scenario given: the input's machine
    assert execute_run(run.pk) == "succeeded"
    clone = client.get(url + f"?clone={run.pk}")
    assert clone.status_code == 200 and clone.context["form"].initial["modes"] == ["ft", "id"]


def test_the_start_page_with_a_scenario_puts_unit_errors_on_the_unit(
    client: Any, owner: Any, team: Any, jobs_scenario: dict[str, Any], mrsu_input: dict[str, Any]
) -> None:
    client.force_login(owner)
    url = reverse("web:mrsu-start")
    data = {
        "requirements": "scenario",
        "source": "document",
        "document": json.dumps(jobs_scenario),
        "compositions": ["gcd", "min"],
        "modes": ["ft"],
        "slots": "4",
        "unit": "cpu=0,mem=4",
    }
    bad = client.post(url, data)
    assert bad.status_code == 400 and "unit" in bad.context["form"].errors
    assert bad.context["form"].errors["unit"] == ["cpu: must be a positive number"]
    no_jobs = {**jobs_scenario, "jobs": []}
    bad = client.post(url, {**data, "unit": "", "document": json.dumps(no_jobs)})
    assert bad.status_code == 400 and "no jobs" in " ".join(bad.context["form"].errors["document"])
    bad = client.post(url, {**data, "document": ""})  # the scenario's requirements need a scenario
    assert bad.status_code == 400 and bad.context["form"].errors["document"]
    # an input left in its box is not read when the requirements are the scenario's
    response = client.post(url, {**data, "unit": "cpu=1,mem=4", "input": json.dumps(mrsu_input)})
    assert response.status_code == 302
    run = Run.objects.get()
    assert run.options["unit"] == {"cpu": 1.0, "mem": 4.0} and run.options["requirements"] == "scenario"
    assert run.options["input"] is None and run.scenario == jobs_scenario


def test_an_input_is_uploaded_or_pasted_and_the_unit_is_the_scenarios_only(
    client: Any, owner: Any, team: Any, mrsu_input: dict[str, Any]
) -> None:
    client.force_login(owner)
    data = {"requirements": "input", "compositions": ["gcd"], "modes": ["ft"], "unit": "cpu=1"}
    bad = client.post(URL, data)
    assert bad.status_code == 400
    assert bad.context["form"].errors["input"] == ["Paste an MRSU input document or choose a file."]
    bad = client.post(URL, {**data, "input": "{nope"})
    assert bad.status_code == 400 and bad.context["form"].errors["input"][0].startswith("is not valid JSON")
    upload = SimpleUploadedFile("bad.json", b"\xff\xfe", content_type="application/json")
    bad = client.post(URL, {**data, "input_file": upload})
    assert bad.status_code == 400
    assert bad.context["form"].errors["input_file"] == ["must be a UTF-8 text file"]
    upload = SimpleUploadedFile("input.json", json.dumps(mrsu_input).encode(),
                                content_type="application/json")
    assert client.post(URL, {**data, "input_file": upload}).status_code == 302
    run = Run.objects.get()
    assert run.options["input"] == mrsu_input and run.options["unit"] is None
    assert run.scenario == input_scenario(mrsu_input)


def test_an_input_beside_a_scenario_runs_on_that_scenario(
    client: Any, owner: Any, team: Any, cluster: Any, workload: Any, mrsu_input: dict[str, Any],
    jobs_scenario: dict[str, Any],
) -> None:
    client.force_login(owner)
    data = {"requirements": "input", "input": json.dumps(mrsu_input), "compositions": ["gcd"],
            "modes": ["ft"]}
    # a stored source without its objects: the input's machine (the requirements are the input's)
    assert client.post(URL, {**data, "source": "stored"}).status_code == 302
    assert client.post(URL, {**data, "source": "stored", "cluster": cluster.pk, "workload": workload.pk}
                       ).status_code == 302
    assert client.post(URL, {**data, "source": "document", "document": json.dumps(jobs_scenario)}
                       ).status_code == 302
    machine, stored, document = Run.objects.order_by("pk")
    assert machine.scenario == input_scenario(mrsu_input) and machine.cluster is None
    assert stored.cluster == cluster and stored.workload == workload
    assert document.scenario == jobs_scenario
    assert {r.options["requirements"] for r in (machine, stored, document)} == {"input"}
    # a clone fills the input, and the scenario only when it was not the input's own machine
    clone = client.get(URL + f"?clone={machine.pk}").context["form"]
    assert json.loads(clone["input"].value()) == mrsu_input and not clone["document"].value()
    clone = client.get(URL + f"?clone={document.pk}").context["form"]
    assert json.loads(clone["input"].value()) == mrsu_input
    assert json.loads(clone["document"].value()) == jobs_scenario


def test_the_presets_are_the_librarys_set_ups_and_start_as_they_are(
    client: Any, api: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    client.force_login(owner)
    url = reverse("web:mrsu-start")
    presets = client.get(url).context["presets"]
    assert [p.key for p in presets] == list(SETUPS)
    sweep_preset = next(p for p in presets if p.key == "002-figs-3-5")
    assert sweep_preset.params["sweep"] == {**SETUPS["002-figs-3-5"].sweep}
    assert "Figs. 3-5" in sweep_preset.title
    filled = client.get(url + "?preset=002-figs-3-5").context["form"]
    assert filled["sweep"].value() is True and filled["sweep_seeds"].value() == 100
    # Fig. 2's preset, as filled, starts as it is: ten applications, thirty slots, every unit
    form = client.get(url + "?preset=002-fig-2").context["form"]
    response = client.post(url, form_data(form))
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.options["compositions"] == ["gcd", "min"] and run.options["modes"] == ["ft", "id"]
    assert run.options["sweep"] is None and len(run.options["input"]["applications"]) == 10
    assert run.name == "Paper 002: Fig. 2 snapshot"
    assert execute_run(run.pk) == "succeeded"
    figures = api(owner).get(f"/api/runs/{run.pk}/figures/").json()["figures"]
    # Fig. 2: 10 applications x 4 dimensions x 30 slots of coefficients, MRSU's and VM-static's
    assert [len(t["y"]) for t in figures["snapshot:gcd-ft"]["data"]] == [1200, 1200]


def test_the_sweeps_t_is_its_own_field(
    client: Any, owner: Any, team: Any, mrsu_input: dict[str, Any]
) -> None:
    """T of the operator's own requirements does not change the paper's sweep (one MRSU for the
    whole horizon) unless the sweep's own T is set."""
    client.force_login(owner)
    url = reverse("web:mrsu-start")
    data = {"requirements": "input", "input": json.dumps(mrsu_input), "compositions": ["gcd"],
            "modes": ["ft"], "slots": "30", "slots_valid": "2", "sweep": "on", "sweep_loads": "50 100",
            "sweep_seeds": "2", "sweep_applications": "5", "sweep_slots": "4"}
    assert client.post(url, data).status_code == 302
    assert client.post(url, {**data, "sweep_slots_valid": "3"}).status_code == 302
    first, second = Run.objects.order_by("pk")
    assert first.options["slots_valid"] == 2 and first.options["sweep"]["slots_valid"] is None
    assert second.options["sweep"]["slots_valid"] == 3 and second.options["sweep"]["loads"] == [0.5, 1.0]
    clone = client.get(url + f"?clone={second.pk}")
    assert clone.context["form"].initial["sweep_slots_valid"] == 3
    # a clone, as filled, starts the same run again
    assert client.post(url, form_data(clone.context["form"])).status_code == 302
    third = Run.objects.order_by("pk").last()
    assert third is not None and third.options == second.options and third.scenario == second.scenario


def test_a_sweep_past_one_load_points_cells_is_refused_on_the_seeds(
    client: Any, owner: Any, team: Any, mrsu_input: dict[str, Any]
) -> None:
    client.force_login(owner)
    data = {"requirements": "input", "input": json.dumps(mrsu_input), "compositions": ["gcd"],
            "modes": ["ft"], "sweep": "on", "sweep_seeds": "1000", "sweep_applications": "2000",
            "sweep_slots": "30"}
    bad = client.post(URL, data)
    assert bad.status_code == 400 and not Run.objects.exists()
    assert bad.context["form"].errors["sweep_seeds"] == [
        "seeds x applications x slots is 60,000,000; the limit of one load point is 3,000,000"]
    bad = client.post(URL, {**data, "sweep_seeds": "1001", "sweep_applications": "1"})
    assert bad.status_code == 400 and bad.context["form"].errors["sweep_seeds"]  # the declared maximum
