"""The workload pages: the editor's save (grid-counted errors and warnings), imports, the generator."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.urls import reverse

from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import cluster_create, workload_create
from planner.web.errors import grid_errors, grid_path, grid_problems
from scheduling import FieldError

pytestmark = pytest.mark.django_db


def save(client: Any, workload: Workload, body: Any) -> Any:
    return client.post(
        reverse("web:workload-edit", args=[workload.pk]), json.dumps(body), content_type="application/json"
    )


# --------------------------------------------------------------------------- grid paths: one place


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("jobs[3].executor.cpu", "job 4 (id job-3): executor.cpu"),
        ("jobs[0]", "job 1 (id job-0)"),
        ("jobs[99].id", "job 100: id"),
        ("frameworks[1].weight", "framework 2 (etl): weight"),
        ("jobs", "jobs"),
        ("line 5 (job j-17), cpu", "line 5 (job j-17), cpu"),
        ("", ""),
    ],
)
def test_grid_path_counts_rows_from_1_with_the_id(workload: Workload, path: str, expected: str):
    assert grid_path(path, workload.jobs, workload.frameworks) == expected


def test_grid_problems_keep_the_document_path_for_the_cell():
    errors = [FieldError("jobs[3].executor.cpu", "must be > 0")]
    jobs = [{"id": f"j-{k}"} for k in range(14, 18)]
    assert grid_problems(errors, jobs) == [
        {
            "path": "jobs[3].executor.cpu",
            "message": "must be > 0",
            "text": "job 4 (id j-17): executor.cpu: must be > 0",
        }
    ]
    assert [str(e) for e in grid_errors(errors, jobs)] == ["job 4 (id j-17): executor.cpu: must be > 0"]


# --------------------------------------------------------------------------- the editor's save


def test_the_editor_saves_and_answers_with_warnings(owner_client: Any, workload: Workload):
    jobs = copy.deepcopy(workload.jobs)
    jobs[4]["deadline_s"] = 1
    response = save(
        owner_client, workload, {"name": "Renamed", "frameworks": workload.frameworks, "jobs": jobs}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["name"] == "Renamed" and body["job_count"] == 30
    assert [w["path"] for w in body["warnings"]] == ["jobs[4].deadline_s"]
    assert body["warnings"][0]["text"].startswith(
        "job 5 (id job-4): deadline_s: is shorter than the job's duration"
    )
    assert Workload.objects.get(pk=workload.pk).jobs[4]["deadline_s"] == 1  # saved: a warning does not block


def test_editor_errors_count_jobs_as_the_grid_and_change_nothing(owner_client: Any, workload: Workload):
    jobs = copy.deepcopy(workload.jobs)
    jobs[3]["executor"]["cpu"] = -1
    jobs[3]["id"] = "j-17"
    response = save(owner_client, workload, {"jobs": jobs})
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {
            "path": "jobs[3].executor.cpu",
            "message": "must be >= 0",
            "text": "job 4 (id j-17): executor.cpu: must be >= 0",
        }
    ]
    response = save(owner_client, workload, {"name": ""})
    assert response.json()["errors"] == [
        {"path": "name", "message": "must not be empty", "text": "name: must not be empty"}
    ]
    assert Workload.objects.get(pk=workload.pk).jobs == workload.jobs


@pytest.mark.parametrize(
    ("body", "path"),
    [("[1, 2]", ""), ('{"jobs": NaN}', ""), ('{"colour": "red"}', "colour"), ('{"jobs": "none"}', "jobs")],
)
def test_editor_bad_bodies_are_400s(owner_client: Any, workload: Workload, body: str, path: str):
    response = owner_client.post(
        reverse("web:workload-edit", args=[workload.pk]), body, content_type="application/json"
    )
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == [path]


def test_editor_save_refuses_a_lone_surrogate_and_stores_nothing(owner_client: Any, workload: Workload):
    response = owner_client.post(
        reverse("web:workload-edit", args=[workload.pk]),
        json.dumps({"jobs": [{**workload.jobs[0], "id": "\ud800"}]}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "lone surrogate" in response.json()["errors"][0]["text"]
    assert owner_client.get(reverse("web:workloads")).status_code == 200
    assert Workload.objects.get(pk=workload.pk).jobs == workload.jobs


def test_editor_save_is_for_those_who_may_change(client_for: Any, trio: Any, workload: Workload):
    member, outsider = trio["member"], trio["outsider"]
    assert save(client_for(member), workload, {"name": "mine"}).status_code == 403
    assert save(client_for(outsider), workload, {"name": "mine"}).status_code == 404
    assert Workload.objects.get(pk=workload.pk).name == "Tiny"


def test_the_editor_page_posts_to_itself(owner_client: Any, workload: Workload):
    page = owner_client.get(reverse("web:workload-edit", args=[workload.pk]))
    config = json.loads(
        page.content.decode().split('id="workload-config" type="application/json">')[1].split("</script>")[0]
    )
    assert config["save"] == reverse("web:workload-edit", args=[workload.pk])
    assert 'id="save-warnings"' in page.content.decode()


# --------------------------------------------------------------------------- imports, generator, export


def test_import_formats_and_options_come_from_the_registry(owner_client: Any, workload: Workload):
    page = owner_client.get(reverse("web:workload-edit", args=[workload.pk])).content.decode()
    for value in ("jobs", "rm-simulator", "scenario-json"):
        assert f'value="{value}"' in page
    assert 'name="option_rm_simulator_with_deadlines"' in page
    rm = "job-id,C,M,E,T_A,T_est,T_D\n1,2,4,3,0,100,300\n"
    url = reverse("web:workload-csv", args=[workload.pk])
    response = owner_client.post(url, {"csv": rm, "format": "rm-simulator", "mode": "replace"})
    assert response.status_code == 302  # the box unticked: no deadlines
    assert "deadline_s" not in Workload.objects.get(pk=workload.pk).jobs[0]
    response = owner_client.post(
        url,
        {"csv": rm, "format": "rm-simulator", "mode": "replace", "option_rm_simulator_with_deadlines": "on"},
    )
    assert Workload.objects.get(pk=workload.pk).jobs[0]["deadline_s"] == 300


def test_an_import_with_warnings_says_so(owner_client: Any, workload: Workload):
    csv = "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s\nlate,etl,0,1,1,1,600,60\n"
    response = owner_client.post(
        reverse("web:workload-csv", args=[workload.pk]),
        {"csv": csv, "format": "jobs", "mode": "append"},
        follow=True,
    )
    text = response.content.decode()
    assert "Saved, with 1 warning: job 31 (id late): deadline_s: is shorter than the job" in text


GENERATOR = {
    "jobs": "80",
    "arrival_rate_per_s": "0.05",
    "executors_min": "1",
    "executors_max": "12",
    "duration_min": "10",
    "duration_max": "300",
    "deadline_fraction": "0.5",
    "slack_min": "1.2",
    "slack_max": "3",
    "frameworks": "",
    "integer_sizes": "on",
    "seed": "7",
    "res_cpu_min": "1",
    "res_cpu_max": "16",
    "res_mem_min": "1",
    "res_mem_max": "64",
}


def test_the_generator_fits_the_chosen_cluster(owner_client: Any, owner: Any, team: Any, workload: Workload):
    small = cluster_create(team=team, user=owner, name="Small", entries=[{"vm_type": "m1.large", "count": 2}])
    url = reverse("web:workload-generate", args=[workload.pk])
    page = owner_client.get(reverse("web:workload-edit", args=[workload.pk])).content.decode()
    assert f'<option value="{small.pk}">Small</option>' in page
    response = owner_client.post(url, {**GENERATOR, "cluster": str(small.pk)}, follow=True)
    assert "fitted to cluster “Small”" in response.content.decode()
    jobs = Workload.objects.get(pk=workload.pk).jobs
    assert max(j["executor"]["cpu"] for j in jobs) == 4
    assert all(j["executors"] * j["executor"]["cpu"] <= 8 for j in jobs)  # two 4-cpu VMs hold them at once
    response = owner_client.post(url, {**GENERATOR, "cluster": str(small.pk), "res_mem_min": "20"})
    assert response.status_code == 400
    assert "fits no VM type of the cluster" in response.context["generator_form"].errors["res_cpu_min"][0]


def test_a_misfit_export_says_how_many_jobs_and_counts_rows(
    owner_client: Any, owner: Any, team: Any, workload: Workload
):
    tiny = cluster_create(
        team=team, user=owner, name="Too small", entries=[{"vm_type": "type-2", "count": 1}]
    )
    response = owner_client.get(
        reverse("web:workload-export", args=[workload.pk]), {"cluster": tiny.pk}, follow=True
    )
    text = response.content.decode()
    assert "does not fit cluster “Too small”: jobs: 20 of 30 jobs need more executors at once than" in text
    assert (
        "; job 1 (id job-0): executors: needs 2 executors but the VMs it may use hold at most 1 at once;"
        in text
    )
    assert "(and 16 more)" in text


def test_a_scenario_upload_with_warnings_says_so(owner_client: Any, scenario_doc: dict[str, Any]):
    scenario_doc["jobs"][2]["deadline_s"] = 0.5
    response = owner_client.post(
        reverse("web:scenario-upload"), {"document": json.dumps(scenario_doc)}, follow=True
    )
    assert response.status_code == 200
    assert (
        "Saved, with 1 warning: job 3 (id job-2): deadline_s: is shorter than the job"
        in response.content.decode()
    )


# --------------------------------------------------------------------------- frameworks' study fields


def editor_config(client: Any, workload: Workload) -> dict[str, Any]:
    page = client.get(reverse("web:workload-edit", args=[workload.pk])).content.decode()
    return json.loads(page.split('id="workload-config" type="application/json">')[1].split("</script>")[0])


def test_the_editor_offers_the_librarys_sharing_fields(owner_client: Any, workload: Workload):
    config = editor_config(owner_client, workload)
    assert config["offer_policies"] == ["first-fit", "bin-packing", "greedy", "hold"]
    assert config["sharing_defaults"] == {"offer_policy": "bin-packing", "refuse_s": 5.0, "hold_s": 0.0}
    assert config["resources"] == ["cpu", "mem"]  # one task-demand input per resource
    page = owner_client.get(reverse("web:workload-edit", args=[workload.pk])).content.decode()
    assert '<th class="num">cpu / task</th><th class="num">mem / task</th><th>Sharing</th>' in page


def test_the_editor_saves_task_demands_and_sharing_fields(
    owner_client: Any, owner: Any, team: Any, workload: Workload
):
    frameworks = [
        {"name": "analytics", "weight": 1, "task_demand": {"cpu": 1, "mem": 2}, "offer_policy": "first-fit",
         "refuse_s": 0},
        {"name": "etl", "weight": 2, "task_demand": {"cpu": 2, "mem": 1.5}, "hold_s": 3},
    ]
    response = save(owner_client, workload, {"frameworks": frameworks, "jobs": workload.jobs})
    assert response.status_code == 200, response.content
    assert response.json()["frameworks"] == frameworks
    assert Workload.objects.get(pk=workload.pk).frameworks == frameworks
    assert editor_config(owner_client, workload)["frameworks"] == frameworks
    # The export is a version-2 scenario with the fields.
    cluster = cluster_create(
        team=team, user=owner, name="Room", entries=[{"vm_type": "m1.xlarge", "count": 4}]
    )
    export = reverse("web:workload-export", args=[workload.pk])
    response = owner_client.get(export, {"cluster": cluster.pk})
    doc = json.loads(response.content)
    assert doc["version"] == 2 and doc["frameworks"] == frameworks
    # Emptied inputs are fields left out: the library's defaults, and version 1 again.
    plain = [
        {"name": "analytics", "weight": 1}, {"name": "etl", "weight": 2, "task_demand": {"cpu": 1, "mem": 1}}
    ]
    assert save(owner_client, workload, {"frameworks": plain}).status_code == 200
    response = owner_client.get(export, {"cluster": cluster.pk})
    assert json.loads(response.content)["version"] == 1


def test_framework_field_errors_have_the_librarys_paths_and_store_nothing(
    owner_client: Any, workload: Workload
):
    frameworks = [
        {"name": "analytics", "weight": 1, "task_demand": {"cpu": 1, "mem": 1}},
        {"name": "etl", "weight": 2, "task_demand": {"cpu": 1}, "offer_policy": "eager", "refuse_s": -2},
        {"name": "ml", "task_demand": {"cpu": -1, "mem": "lots"}, "hold_s": "soon"},
    ]
    response = save(owner_client, workload, {"frameworks": frameworks, "jobs": workload.jobs})
    assert response.status_code == 400
    errors = {e["path"]: e for e in response.json()["errors"] if e["path"].startswith("frameworks")}
    assert {path: e["message"] for path, e in errors.items()} == {
        "frameworks[1].task_demand.mem": "is required",
        "frameworks[1].offer_policy": "must be one of first-fit, bin-packing, greedy, hold",
        "frameworks[1].refuse_s": "must be >= 0",
        "frameworks[2].task_demand.cpu": "must be >= 0",
        "frameworks[2].task_demand.mem": "must be a number",
        "frameworks[2].hold_s": "must be a number",
    }
    # Counted as the table counts rows, for the list above the editor.
    text = errors["frameworks[2].task_demand.cpu"]["text"]
    assert text == "framework 3 (ml): task_demand.cpu: must be >= 0"
    assert Workload.objects.get(pk=workload.pk).frameworks == workload.frameworks


QUEUED = [
    {"name": "analytics", "weight": 1, "task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "greedy",
     "queues": [{"tasks": 100, "duration_s": 100}, {"tasks": 200, "duration_s": 20, "interval_s": 10,
                                                     "tasks_per_job": 20}]},
    {"name": "etl", "weight": 2, "task_demand": {"cpu": 2, "mem": 1}, "refuse_s": 1},
]


def test_an_imported_version_2_scenario_keeps_its_queues_through_the_editor(
    owner_client: Any, scenario_doc: dict[str, Any]
):
    doc = {**scenario_doc, "version": 2, "frameworks": QUEUED}
    response = owner_client.post(reverse("web:scenario-upload"), {"document": json.dumps(doc)})
    assert response.status_code == 302
    workload = Workload.objects.get(name="tiny")
    assert workload.frameworks == QUEUED
    config = editor_config(owner_client, workload)
    assert config["frameworks"] == QUEUED  # the page shows "2 queues, 300 tasks" from these
    # The browser sends back each framework object whole, with only the edited fields changed.
    frameworks = copy.deepcopy(config["frameworks"])
    frameworks[0]["task_demand"]["mem"] = 2
    frameworks[1]["hold_s"] = 1
    response = save(owner_client, workload, {"name": workload.name, "frameworks": frameworks,
                                             "jobs": workload.jobs})
    assert response.status_code == 200, response.content
    stored = Workload.objects.get(pk=workload.pk).frameworks
    assert stored[0]["queues"] == QUEUED[0]["queues"] and stored[0]["task_demand"] == {"cpu": 1, "mem": 2}
    assert stored[1]["hold_s"] == 1
    # Exported with its cluster: version 2, the queues as they came.
    cluster = Cluster.objects.get(name="tiny")
    response = owner_client.get(reverse("web:workload-export", args=[workload.pk]), {"cluster": cluster.pk})
    exported = json.loads(response.content)
    assert exported["version"] == 2 and exported["frameworks"] == stored


def test_a_scenario_file_imported_into_a_workload_keeps_its_frameworks_fields(
    owner_client: Any, owner: Any, team: Any, scenario_doc: dict[str, Any]
):
    empty = workload_create(team=team, user=owner, name="Empty")
    doc = {**scenario_doc, "version": 2, "frameworks": QUEUED}
    response = owner_client.post(
        reverse("web:workload-csv", args=[empty.pk]),
        {"csv": json.dumps(doc), "format": "scenario-json", "mode": "replace"},
    )
    assert response.status_code == 302
    assert Workload.objects.get(pk=empty.pk).frameworks == QUEUED


def test_an_upload_reports_every_error_of_the_file_at_once(owner_client: Any, workload: Workload):
    """Issue 22: rows with negative values were reported only after the parse errors were fixed."""
    from django.utils.html import escape

    csv = ("id,framework,arrival_s,executors,cpu,mem,duration_s\n"
           "a,etl,zero,1,1,1,60\n"     # line 2: unreadable
           "b,etl,0,1,-2,1,60\n"       # line 3: readable, but a negative size
           "c,etl,0,0,1,1,60\n")       # line 4: no executor
    response = owner_client.post(
        reverse("web:workload-csv", args=[workload.pk]), {"csv": csv, "format": "jobs", "mode": "append"}
    )
    text = response.content.decode()
    for line in (escape("line 2 (job a), arrival_s"), escape("line 3 (job b), cpu"),
                 escape("line 4 (job c), executors")):
        assert line in text
    assert text.index("line 2") < text.index("line 3") < text.index("line 4")
