"""The UDRF study's start page (paper 004): the shared start page with the kind's form.

What is checked: the parameter fields are the declarations' (labels, help, defaults); the rows
build the version-3 scenario; the library's presets fill the rows, the document and the
parameters; a run starts from the rows, a document or a stored cluster and workload; a clone
fills everything from an earlier run (old runs too); the library's errors land on the rows and
fields that caused them (never a 500).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from planner.kinds.udrf.forms import UdrfForm
from planner.runs import kinds
from planner.runs.models import Run
from scheduling.params import describe, param_named
from scheduling.udrf.params import UDRF_PARAMS

from .conftest import EXAMPLE, start_udrf

pytestmark = pytest.mark.django_db

URL = "web:udrf-start"


def _rows(form_data: dict[str, Any]) -> dict[str, Any]:
    """The start page's POST for the paper's Fig. 1, entered as rows."""
    classes = [
        ("hadoop", 8, "cpu=7, mem=8"),
        ("standard", 4, "cpu=4, mem=10"),
        ("public-ip", 3, "cpu=8, mem=16"),
        ("high-memory", 4, "cpu=8, mem=256"),
    ]
    jobs = [
        ("u1", "job1", "hadoop: cpu=1, mem=1"),
        ("u1", "job2", "standard: cpu=1, mem=2"),
        ("u2", "job", "standard: cpu=1, mem=1\npublic-ip: cpu=1, mem=1"),
        ("u3", "job", "public-ip: cpu=1, mem=4"),
        ("u4", "job", "high-memory: cpu=1, mem=25"),
    ]
    data = {
        "source": "forms",
        "scenario_name": "Fig. 1 by hand",
        "resources": "cpu, mem",
        "compare_drf": "on",
        "interval_s": "1",
        "queue_capacity": "100",
        "seed": "0",
    }
    for k, (name, count, cap) in enumerate(classes):
        data.update({f"m{k}-name": name, f"m{k}-count": str(count), f"m{k}-capacity": cap})
    for k, (user, job, tasks) in enumerate(jobs):
        data.update({f"j{k}-user": user, f"j{k}-id": job, f"j{k}-tasks": tasks})
    data.update(form_data)
    return data


def _form(data: dict[str, Any] | None = None) -> UdrfForm:
    return UdrfForm(data, kind=kinds.get_kind("udrf"), clusters=[], workloads=[])


def test_the_parameter_fields_are_the_declarations() -> None:
    form = _form()
    for name in ("online", "compare_drf", "interval_s", "horizon_s", "queue_capacity", "seed"):
        p = param_named(UDRF_PARAMS, name)
        field = form.fields[name]
        assert field.help_text == describe(p), name
        assert str(field.label).startswith(p.label), name
        assert field.initial == (bool(p.default) if p.kind == "boolean" else p.default), name
    assert form.fields["compare_drf"].initial is True and form.fields["online"].initial is False
    assert form.fields["interval_s"].label == "Decision interval (s)"
    assert form.fields["source"].initial == "forms"


def test_the_rows_build_the_version_3_scenario() -> None:
    form = _form(_rows({"j0-runs": "3", "j0-duration_s": "30", "j0-arrival_s": "5"}))
    assert form.is_valid(), form.errors
    scenario = form.entered_scenario()
    assert scenario is not None
    assert scenario["version"] == 3 and scenario["name"] == "Fig. 1 by hand"
    assert scenario["resources"] == ["cpu", "mem"]
    assert [(v["machine_class"], v["count"], v["capacity"]) for v in scenario["vm_types"]] == [
        (v["machine_class"], v["count"], v["capacity"]) for v in EXAMPLE["vm_types"]
    ]
    assert [f["name"] for f in scenario["frameworks"]] == ["u1", "u2", "u3", "u4"]
    job1 = scenario["frameworks"][0]["complex_jobs"][0]
    assert job1 == {"id": "job1", "tasks": [{"machine_class": "hadoop", "demand": {"cpu": 1, "mem": 1}}],
                    "runs": 3, "duration_s": 30.0, "arrival_s": 5.0}
    assert form.params() == {"online": False, "compare_drf": True, "interval_s": 1.0, "queue_capacity": 100,
                             "seed": 0}
    document = _form({**_rows({}), "source": "document", "document": "{}"})
    assert document.is_valid() and document.entered_scenario() is None


def test_the_start_page_fills_the_preset_and_starts_a_study(
    client: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    client.force_login(owner)
    url = reverse(URL)
    page = client.get(url).content.decode()
    assert 'data-preset="004-fig1"' in page and 'id="class-rows"' in page
    assert 'data-preset="004-fig1-online"' in page and 'data-preset="004-synthetic-online"' in page
    filled = client.get(url + "?preset=004-fig1")
    form = filled.context["form"]
    assert filled.status_code == 200 and form.initial["source"] == "forms"
    assert [r.initial.get("name") for r in form.class_rows[:4]] == [
        "hadoop",
        "standard",
        "public-ip",
        "high-memory",
    ]
    assert form.job_rows[2].initial["tasks"] == "standard: cpu=1, mem=1\npublic-ip: cpu=1, mem=1"
    assert json.loads(form.initial["document"]) == EXAMPLE
    assert form.initial["name"] == "Paper 004, Fig. 1" and form.initial["online"] is False
    response = client.post(url, _rows({}))
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert run.kind == "udrf" and run.options["policies"] == ["udrf", "drf"]
    assert [v["machine_class"] for v in run.scenario["vm_types"]] == [
        "hadoop",
        "standard",
        "public-ip",
        "high-memory",
    ]
    assert execute_run(run.pk) == "succeeded"
    doc = run.results.get(variant="offline").result
    assert doc["policies"]["udrf"]["users"][0]["jobs"] == {"job1": 28.0, "job2": 8.0}
    clone = client.get(url + f"?clone={run.pk}")
    assert clone.status_code == 200 and clone.context["form"].job_rows[0].initial["id"] == "job1"


def test_the_online_preset_fills_the_parameters(client: Any, owner: Any, team: Any) -> None:
    client.force_login(owner)
    filled = client.get(reverse(URL) + "?preset=004-fig1-online")
    form = filled.context["form"]
    assert form.initial["online"] is True and form.initial["compare_drf"] is True
    assert form.initial["interval_s"] == 1.0
    assert {r.initial.get("runs") for r in form.job_rows if r.initial.get("id")} == {100}
    page = filled.content.decode()
    assert 'id="preset-note"' in page
    assert re.search(r'<input type="checkbox" name="online"[^>]* checked>', page)
    assert re.search(r'<input type="number" name="interval_s" value="1.0"', page)


def test_a_clone_fills_the_options_and_the_rows(
    client: Any, api: Any, owner: Any, team: Any
) -> None:
    response = start_udrf(api, owner, scenario=EXAMPLE, online=True, compare_drf=False, interval_s=2,
                          horizon_s=900, queue_capacity=7, seed=11)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    client.force_login(owner)
    clone = client.get(reverse(URL) + f"?clone={run.pk}")
    assert clone.status_code == 200
    form = clone.context["form"]
    assert {k: form.initial[k] for k in ("online", "compare_drf", "interval_s", "horizon_s", "queue_capacity",
                                         "seed")} == {
        "online": True, "compare_drf": False, "interval_s": 2.0, "horizon_s": 900.0, "queue_capacity": 7,
        "seed": 11}
    assert form.initial["source"] == "forms" and form.class_rows[0].initial["name"] == "hadoop"
    assert form.initial["name"] == f"Copy of {run.name}"
    assert 'id="cloned-from"' in clone.content.decode()
    # an old run's options (before the declarations: no horizon, a bare int) clone as well
    old_options = {"online": True, "compare_drf": True, "interval_s": 1, "queue_capacity": 100, "seed": 0,
                   "policies": ["udrf", "drf"]}
    Run.objects.filter(pk=run.pk).update(options=old_options)
    old = client.get(reverse(URL) + f"?clone={run.pk}")
    assert old.status_code == 200 and old.context["form"].initial["online"] is True


def test_the_start_page_puts_the_librarys_errors_on_rows_and_fields(
    client: Any, owner: Any, team: Any
) -> None:
    client.force_login(owner)
    url = reverse(URL)
    # the library's errors: a negative capacity and a bad option in one response ...
    bad = client.post(url, _rows({"m2-capacity": "cpu=-8, mem=16", "interval_s": "0"}))
    assert bad.status_code == 400
    form = bad.context["form"]
    assert form.class_rows[2].errors["capacity"] == ["cpu: must be >= 0"]
    assert form.errors["interval_s"] == ["must be a number of seconds in (0, 3600]"]
    # ... then, on a valid cluster, an unknown class in a job's second task
    bad = client.post(url, _rows({"j1-tasks": "standard: cpu=1, mem=2\ngpu: cpu=1, mem=1"}))
    assert bad.status_code == 400
    errors = bad.context["form"].job_rows[1].errors["tasks"]
    assert any(e.startswith("task 2 machine_class: unknown machine class 'gpu'") for e in errors)
    page = bad.content.decode()
    assert "unknown machine class" in page and 'class="row-error"' in page
    # the form's own parsing: text that is no task, no capacity
    bad = client.post(url, _rows({"j0-tasks": "hadoop cpu 1", "m0-capacity": "cpu: 7"}))
    assert bad.status_code == 400
    assert (
        bad.context["form"].job_rows[0].errors["tasks"]
        and bad.context["form"].class_rows[0].errors["capacity"]
    )
    # a job that needs more of a class than it has: on the job's tasks
    bad = client.post(url, _rows({"j0-tasks": "hadoop: cpu=7, mem=8 x9"}))
    assert bad.status_code == 400 and "more of class 'hadoop'" in " ".join(
        bad.context["form"].job_rows[0].errors["tasks"]
    )
    # a document: its errors on the document, with the library's paths
    no_jobs = {**EXAMPLE, "frameworks": []}
    bad = client.post(
        url,
        {
            "source": "document",
            "document": json.dumps(no_jobs),
            "resources": "cpu",
            "interval_s": "1",
            "queue_capacity": "100",
            "seed": "0",
        },
    )
    assert bad.status_code == 400 and bad.context["form"].errors["document"] == [
        "jobs: is required, or task queues (version 2) or complex jobs (version 3) on a framework"]
    bad = client.post(
        url,
        {
            "source": "document",
            "document": "{not json",
            "resources": "cpu",
            "interval_s": "1",
            "queue_capacity": "100",
            "seed": "0",
        },
    )
    assert bad.status_code == 400 and bad.context["form"].errors["document"]
    # nothing entered, and garbage: field errors, never a 500
    assert client.post(url, {"source": "forms"}).status_code == 400
    garbage = {
        "source": "forms",
        "m0-count": "many",
        "j0-runs": "-1",
        "j7-user": "x",
        "j499-tasks": "a: b=c",
        "resources": "",
        "seed": "-1",
        "queue_capacity": "1e99",
        "interval_s": "nan",
    }
    assert client.post(url, garbage).status_code == 400
    assert not Run.objects.exists()


def test_the_declared_checks_put_each_option_error_on_its_field(client: Any, owner: Any, team: Any) -> None:
    """What the form lets through, the library refuses, on the field of the parameter's path; with
    a document too."""
    client.force_login(owner)
    url = reverse(URL)
    bad = client.post(url, _rows({"interval_s": "4000", "horizon_s": "-5", "online": "on"}))
    assert bad.status_code == 400
    errors = bad.context["form"].errors
    assert errors["interval_s"] == ["must be a number of seconds in (0, 3600]"]
    assert errors["horizon_s"] == ["must be a number of seconds in (0, 2.592e+06]"]
    # a whole number's bounds are the field's own too (the declared ones)
    bad = client.post(url, _rows({"queue_capacity": "100001"}))
    assert bad.status_code == 400 and bad.context["form"].errors["queue_capacity"]
    document = {"source": "document", "document": json.dumps(EXAMPLE), "resources": "cpu, mem",
                "interval_s": "7200"}
    bad = client.post(url, document)
    assert bad.status_code == 400
    assert bad.context["form"].errors["interval_s"] == ["must be a number of seconds in (0, 3600]"]
    assert "document" not in bad.context["form"].errors
    assert not Run.objects.exists()
    # empty option fields take the declared defaults
    ok = client.post(url, {**document, "interval_s": "", "queue_capacity": "", "seed": ""})
    assert ok.status_code == 302, ok.context["form"].errors
    run = Run.objects.get()
    assert (run.options["interval_s"], run.options["queue_capacity"], run.options["seed"]) == (1.0, 100, 0)
    assert run.options["compare_drf"] is False  # a box not ticked is a choice


def test_the_synthetic_preset_fills_every_row_and_runs_online(
    client: Any, api: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    client.force_login(owner)
    filled = client.get(reverse(URL) + "?preset=004-synthetic-online")
    assert filled.status_code == 200
    form = filled.context["form"]
    document = json.loads(form.initial["document"])
    assert len([r for r in form.class_rows if r.initial.get("name")]) == len(document["vm_types"]) == 60
    assert len([r for r in form.job_rows if r.initial.get("id")]) == 200
    assert form.initial["online"] is True
    response = start_udrf(api, owner, scenario=document, online=True)
    assert response.status_code == 201, response.json()
    run = Run.objects.get(pk=response.json()["id"])
    assert execute_run(run.pk) == "succeeded"
    online = run.results.get(variant="online udrf").result
    assert online["policies"]["udrf"]["summary"]["completed"] == 200


def _stored_fig1() -> dict[str, Any]:
    """Fig. 1 as a stored cluster can hold it: each VM type its own class, named after it."""
    doc = json.loads(json.dumps(EXAMPLE))
    names = {v["machine_class"]: v["name"] for v in doc["vm_types"]}
    for v in doc["vm_types"]:
        del v["machine_class"]
    for f in doc["frameworks"]:
        for job in f["complex_jobs"]:
            for task in job["tasks"]:
                task["machine_class"] = names[task["machine_class"]]
    return doc


def test_the_start_page_takes_a_stored_cluster_and_workload(
    client: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    from planner.scenarios.services import scenario_import

    made = scenario_import(team=team, user=owner, doc=_stored_fig1(), name="Fig. 1 stored")
    client.force_login(owner)
    url = reverse(URL)
    page = client.get(url).content.decode()
    assert 'value="stored"' in page and f'<option value="{made.cluster.pk}">' in page
    again = client.get(url + f"?cluster={made.cluster.pk}&workload={made.workload.pk}")
    assert again.context["form"].initial["source"] == "stored"
    response = client.post(url, {"source": "stored", "cluster": made.cluster.pk, "workload": made.workload.pk,
                                 "compare_drf": "on", "interval_s": 1, "queue_capacity": 100, "seed": 0,
                                 "resources": "cpu, mem"})
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert (run.cluster_id, run.workload_id) == (made.cluster.pk, made.workload.pk)
    assert execute_run(run.pk) == "succeeded"
    doc = run.results.get(variant="offline").result
    # the paper's §III-B numbers, every VM type a class of its own
    assert doc["policies"]["udrf"]["users"][0]["jobs"] == {"job1": 28.0, "job2": 8.0}
    assert doc["policies"]["drf"]["users"][0]["jobs"] == {"job1": 8.0, "job2": 8.0}


def test_the_start_page_takes_the_papers_labelled_cluster_as_stored(
    client: Any, owner: Any, team: Any, execute_run: Callable[[int], str]
) -> None:
    """examples/paper004-fig1.json imported as it is: its machine_class labels are kept on the
    cluster, and the study from the stored cluster and workload gives the paper's numbers."""
    from planner.scenarios.services import scenario_import

    made = scenario_import(team=team, user=owner, doc=EXAMPLE)
    assert [e.machine_class for e in made.cluster.entries.order_by("position")] == [
        "hadoop", "standard", "public-ip", "high-memory"]
    def task_classes(frameworks: Any) -> list[str]:
        return [t["machine_class"] for f in frameworks for j in f["complex_jobs"] for t in j["tasks"]]

    assert task_classes(made.workload.frameworks) == task_classes(EXAMPLE["frameworks"])  # the labels
    client.force_login(owner)
    editor = client.get(reverse("web:cluster-edit", args=[made.cluster.pk])).content.decode()
    assert 'name="entry_machine_class"' in editor and 'value="public-ip"' in editor
    response = client.post(reverse(URL), {
        "source": "stored", "cluster": made.cluster.pk, "workload": made.workload.pk, "compare_drf": "on",
        "interval_s": 1, "queue_capacity": 100, "seed": 0, "resources": "cpu, mem"})
    assert response.status_code == 302, response.context["form"].errors
    run = Run.objects.get()
    assert [v["machine_class"] for v in run.scenario["vm_types"]] == [
        "hadoop", "standard", "public-ip", "high-memory"]
    assert execute_run(run.pk) == "succeeded"
    doc = run.results.get(variant="offline").result
    # the paper's §III-B numbers (Fig. 1)
    assert doc["policies"]["udrf"]["users"][0]["jobs"] == {"job1": 28.0, "job2": 8.0}
    assert doc["policies"]["drf"]["users"][0]["jobs"] == {"job1": 8.0, "job2": 8.0}


def test_a_stored_workload_without_complex_jobs_is_refused_on_its_field(
    client: Any, owner: Any, team: Any
) -> None:
    from planner.scenarios.services import scenario_import

    doc = _stored_fig1()
    for f in doc["frameworks"]:
        f.pop("complex_jobs")
        f["task_demand"] = {"cpu": 1, "mem": 1}
    doc["jobs"] = []
    made = scenario_import(team=team, user=owner, doc=doc, name="no jobs")
    client.force_login(owner)
    response = client.post(reverse(URL), {
        "source": "stored", "cluster": made.cluster.pk, "workload": made.workload.pk, "interval_s": 1,
        "queue_capacity": 100, "seed": 0, "resources": "cpu, mem"})
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors["workload"][0].startswith("does not fit the run: frameworks")
    edit = reverse("web:workload-edit", args=[made.workload.pk])
    assert 'id="edit-workload"' in response.content.decode() and f'href="{edit}"' in response.content.decode()
    assert not Run.objects.exists()
    missing = client.post(reverse(URL), {
        "source": "stored", "interval_s": 1, "queue_capacity": 100, "seed": 0, "resources": "cpu, mem"})
    assert missing.status_code == 400
    assert missing.context["form"].errors["cluster"] == ["Choose a cluster."]
