"""Clusters, workloads and scenario import/export over the API, from three points of view."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from planner.catalogue.models import VMType
from planner.scenarios import services
from planner.scenarios.models import Cluster, ClusterEntry, Workload
from planner.teams.models import Team
from scheduling import parse_scenario

pytestmark = pytest.mark.django_db

READ = [("owner", 200), ("member", 200), ("outsider", 404)]
CHANGE = [("owner", 200), ("member", 403), ("outsider", 404)]
DELETE = [("owner", 204), ("member", 403), ("outsider", 404)]


def errors_of(response: Any) -> dict[str, str]:
    body = response.json()
    assert set(body) >= {"detail", "errors"}, body
    return {e["path"]: e["message"] for e in body["errors"]}


# --------------------------------------------------------------------------- clusters


@pytest.mark.parametrize("who, status", READ)
def test_cluster_detail(api: Any, trio: dict[str, Any], cluster: Cluster, who: str, status: int) -> None:
    response = api(trio[who]).get(f"/api/clusters/{cluster.pk}/")
    assert response.status_code == status
    if status == 200:
        body = response.json()
        assert body["machines"] == 14
        assert [(e["vm_type_name"], e["count"]) for e in body["entries"]] == [
            ("m1.large", 6),
            ("m1.xlarge", 5),
            ("m2.xlarge", 3),
        ]


@pytest.mark.parametrize("who, status", CHANGE)
def test_cluster_patch(api: Any, trio: dict[str, Any], cluster: Cluster, who: str, status: int) -> None:
    response = api(trio[who]).patch(
        f"/api/clusters/{cluster.pk}/", {"entries": [{"vm_type": "m1.large", "count": 1}]}, format="json"
    )
    assert response.status_code == status
    assert ClusterEntry.objects.filter(cluster=cluster).count() == (1 if status == 200 else 3)


@pytest.mark.parametrize("who, status", DELETE)
def test_cluster_delete(api: Any, trio: dict[str, Any], cluster: Cluster, who: str, status: int) -> None:
    assert api(trio[who]).delete(f"/api/clusters/{cluster.pk}/").status_code == status
    assert Cluster.objects.filter(pk=cluster.pk).exists() == (status != 204)


def test_member_creates_and_changes_their_own_cluster(api: Any, member: Any, team: Team) -> None:
    client = api(member)
    response = client.post(
        "/api/clusters/", {"name": "Mine", "entries": [{"vm_type": "type-3", "count": 4}]}, format="json"
    )
    assert response.status_code == 201, response.json()
    pk = response.json()["id"]
    response = client.put(
        f"/api/clusters/{pk}/",
        {"name": "Mine", "entries": [{"vm_type": "type-2", "count": 1}]},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["entries"][0]["vm_type_name"] == "type-2"
    assert client.delete(f"/api/clusters/{pk}/").status_code == 204


def test_cluster_errors_are_paths_and_store_nothing(api: Any, owner: Any, team: Team) -> None:
    response = api(owner).post(
        "/api/clusters/",
        {"name": "Bad", "entries": [{"vm_type": "m1.large", "count": 0}, {"vm_type": 99999, "count": 1}]},
        format="json",
    )
    assert response.status_code == 400
    assert set(errors_of(response)) == {"entries[1].vm_type"}  # resolution errors come first
    response = api(owner).post(
        "/api/clusters/", {"name": "Bad", "entries": [{"vm_type": "m1.large", "count": 0}]}, format="json"
    )
    assert errors_of(response) == {"entries[0].count": "must be >= 1"}
    assert not Cluster.objects.exists()


def test_cluster_list_is_scoped_and_its_query_count_constant(
    api: Any, owner: Any, outsider: Any, team: Team, other_team: Team, cluster: Cluster, count_queries: Any
) -> None:
    assert api(outsider).get("/api/clusters/").json()["count"] == 0
    client = api(owner)
    few = count_queries(lambda: client.get("/api/clusters/"))
    for i in range(8):
        services.cluster_create(
            team=team,
            user=owner,
            name=f"c{i}",
            entries=[{"vm_type": "m1.large", "count": i + 1}, {"vm_type": "type-1", "count": 1}],
        )
    many = count_queries(lambda: client.get("/api/clusters/"))
    assert few == many
    assert client.get("/api/clusters/").json()["count"] == 9


# --------------------------------------------------------------------------- workloads


@pytest.mark.parametrize("who, status", READ)
def test_workload_detail_has_jobs(
    api: Any, trio: dict[str, Any], workload: Workload, who: str, status: int
) -> None:
    response = api(trio[who]).get(f"/api/workloads/{workload.pk}/")
    assert response.status_code == status
    if status == 200:
        assert len(response.json()["jobs"]) == 30


def test_workload_list_has_no_jobs_and_constant_queries(
    api: Any, owner: Any, team: Team, workload: Workload, count_queries: Any, scenario_doc: dict[str, Any]
) -> None:
    client = api(owner)
    body = client.get("/api/workloads/").json()
    assert "jobs" not in body["results"][0]
    assert body["results"][0]["job_count"] == 30
    few = count_queries(lambda: client.get("/api/workloads/"))
    for i in range(6):
        services.workload_create(
            team=team,
            user=owner,
            name=f"w{i}",
            jobs=scenario_doc["jobs"],
            frameworks=scenario_doc["frameworks"],
        )
    assert count_queries(lambda: client.get("/api/workloads/")) == few


@pytest.mark.parametrize("who, status", CHANGE)
def test_workload_patch(api: Any, trio: dict[str, Any], workload: Workload, who: str, status: int) -> None:
    response = api(trio[who]).patch(
        f"/api/workloads/{workload.pk}/", {"description": "peak week"}, format="json"
    )
    assert response.status_code == status
    assert Workload.objects.get(pk=workload.pk).description == ("peak week" if status == 200 else "")


@pytest.mark.parametrize("who, status", DELETE)
def test_workload_delete(api: Any, trio: dict[str, Any], workload: Workload, who: str, status: int) -> None:
    assert api(trio[who]).delete(f"/api/workloads/{workload.pk}/").status_code == status
    assert Workload.objects.filter(pk=workload.pk).exists() == (status != 204)


@pytest.mark.parametrize("who, status", CHANGE)
def test_workload_generate(api: Any, trio: dict[str, Any], workload: Workload, who: str, status: int) -> None:
    response = api(trio[who]).post(
        f"/api/workloads/{workload.pk}/generate/", {"seed": 4, "jobs": 12}, format="json"
    )
    assert response.status_code == status
    assert Workload.objects.get(pk=workload.pk).job_count == (12 if status == 200 else 30)


def test_workload_generate_errors(api: Any, owner: Any, workload: Workload) -> None:
    response = api(owner).post(
        f"/api/workloads/{workload.pk}/generate/",
        {"jobs": -3, "executors": [4, 1], "speed": 1},
        format="json",
    )
    assert response.status_code == 400
    assert set(errors_of(response)) == {"speed", "jobs", "executors"}  # every problem at once, by the library
    assert Workload.objects.get(pk=workload.pk).job_count == 30


@pytest.mark.parametrize("who, status", CHANGE)
def test_workload_import_csv(
    api: Any, trio: dict[str, Any], workload: Workload, who: str, status: int
) -> None:
    text = (
        "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s\n"
        "j1,analytics,0,2,1,2,60,\nj2,etl,5,1,2,2,30,90\n"
    )
    response = api(trio[who]).post(f"/api/workloads/{workload.pk}/import-csv/", {"csv": text}, format="json")
    assert response.status_code == status
    assert Workload.objects.get(pk=workload.pk).job_count == (2 if status == 200 else 30)


def test_workload_import_csv_upload_and_errors(api: Any, owner: Any, workload: Workload) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = api(owner)
    upload = SimpleUploadedFile(
        "jobs.csv", b"job-id,C,M,E,T_A,T_est,T_D\njob-0,4,6,7,39,153,396\n", "text/csv"
    )
    response = client.post(
        f"/api/workloads/{workload.pk}/import-csv/",
        {"file": upload, "format": "rm-simulator"},
        format="multipart",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["job_count"] == 1
    response = client.post(
        f"/api/workloads/{workload.pk}/import-csv/",
        {"csv": "id,arrival_s,executors,cpu,duration_s\nj,0,1,lots,5\n"},
        format="json",
    )
    assert errors_of(response) == {"line 2 (job j), cpu": "must be a number, got 'lots'"}
    response = client.post(f"/api/workloads/{workload.pk}/import-csv/", {"format": "jobs"}, format="json")
    assert "csv" in errors_of(response)


def test_workload_create_with_bad_jobs(
    api: Any, member: Any, team: Team, scenario_doc: dict[str, Any]
) -> None:
    jobs = copy.deepcopy(scenario_doc["jobs"])
    jobs[3]["executor"]["cpu"] = 0
    jobs[3]["executor"]["mem"] = 0
    jobs[4]["duration_s"] = "long"
    response = api(member).post(
        "/api/workloads/",
        {"name": "w", "frameworks": scenario_doc["frameworks"], "jobs": jobs},
        format="json",
    )
    assert response.status_code == 400
    assert errors_of(response) == {
        "jobs[3].executor": "must demand some resource > 0",
        "jobs[4].duration_s": "must be a number",
    }
    assert not Workload.objects.filter(name="w").exists()


# --------------------------------------------------------------------------- import / export


@pytest.mark.parametrize("who, status", READ)
def test_export(
    api: Any, trio: dict[str, Any], cluster: Cluster, workload: Workload, who: str, status: int
) -> None:
    response = api(trio[who]).get(f"/api/clusters/{cluster.pk}/export/?workload={workload.pk}")
    assert response.status_code == status
    if status == 200:
        parse_scenario(response.json())


def test_export_needs_a_workload_and_can_download(
    api: Any, owner: Any, cluster: Cluster, workload: Workload
) -> None:
    client = api(owner)
    response = client.get(f"/api/clusters/{cluster.pk}/export/")
    assert response.status_code == 400 and "workload" in errors_of(response)
    response = client.get(f"/api/clusters/{cluster.pk}/export/?workload={workload.pk}&download=1")
    assert response["Content-Disposition"].startswith("attachment;")


def test_export_of_an_outsiders_workload_is_404(
    api: Any, outsider: Any, owner: Any, other_team: Team, cluster: Cluster, scenario_doc: dict[str, Any]
) -> None:
    foreign = services.workload_create(
        team=other_team,
        user=outsider,
        name="theirs",
        jobs=scenario_doc["jobs"],
        frameworks=scenario_doc["frameworks"],
    )
    assert api(owner).get(f"/api/clusters/{cluster.pk}/export/?workload={foreign.pk}").status_code == 404


def test_import_a_bare_document_round_trips(
    api: Any, member: Any, team: Team, scenario_doc: dict[str, Any]
) -> None:
    client = api(member)
    response = client.post("/api/scenarios/import/", scenario_doc, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["vm_types_created"] == ["small", "big"]
    assert body["cluster"]["name"] == body["workload"]["name"] == "tiny"
    exported = client.get(
        f"/api/clusters/{body['cluster']['id']}/export/?workload={body['workload']['id']}"
    ).json()
    assert parse_scenario(exported) == parse_scenario(scenario_doc)


def test_import_wrapped_with_team_and_name(
    api: Any, owner: Any, team: Team, scenario_doc: dict[str, Any]
) -> None:
    team2_response = api(owner).post("/api/teams/", {"name": "Second"}, format="json")
    team2 = team2_response.json()["id"]
    response = api(owner).post(
        "/api/scenarios/import/", {"team": team2, "name": "Named", "scenario": scenario_doc}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["cluster"]["team"] == team2
    assert Cluster.objects.get(name="Named").team_id == team2


def test_import_errors_have_document_paths_and_store_nothing(
    api: Any, owner: Any, team: Team, scenario_doc: dict[str, Any]
) -> None:
    scenario_doc["jobs"][3]["executor"]["cpu"] = -1
    scenario_doc["vm_types"][1]["price_per_hour"] = "cheap"
    before = (VMType.objects.count(), Cluster.objects.count(), Workload.objects.count())
    response = api(owner).post("/api/scenarios/import/", scenario_doc, format="json")
    assert response.status_code == 400
    assert errors_of(response) == {
        "vm_types[1].price_per_hour": "must be a number",
        "jobs[3].executor.cpu": "must be >= 0",
    }
    assert (VMType.objects.count(), Cluster.objects.count(), Workload.objects.count()) == before


def test_import_into_an_outsiders_team_is_refused(
    api: Any, outsider: Any, team: Team, scenario_doc: dict[str, Any]
) -> None:
    response = api(outsider).post(f"/api/scenarios/import/?team={team.pk}", scenario_doc, format="json")
    assert response.status_code == 400
    assert "team" in errors_of(response)
    assert not Cluster.objects.filter(team=team).exists()


def test_import_rejects_nan_literals(api: Any, owner: Any, team: Team, scenario_doc: dict[str, Any]) -> None:
    text = json.dumps(scenario_doc).replace('"price_per_hour": 0.24', '"price_per_hour": NaN', 1)
    response = api(owner).post("/api/scenarios/import/", text, content_type="application/json")
    assert response.status_code == 400
    assert "NaN" in response.json()["detail"]


# --------------------------------------------------------------------------- names that cannot be stored

SURROGATE = "\ud800"


@pytest.mark.parametrize(
    ("url", "body", "path"),
    [
        ("/api/workloads/", {"name": "w" + SURROGATE}, "name"),
        ("/api/workloads/", {"name": "w", "description": SURROGATE}, "description"),
        ("/api/workloads/", {"name": "w", "frameworks": [{"name": SURROGATE}]}, "frameworks[0].name"),
        (
            "/api/vm-types/",
            {"name": SURROGATE, "capacity": {"cpu": 4, "mem": 8}, "price_per_hour": 1},
            "name",
        ),
        ("/api/vm-types/", {"name": "v", "capacity": {SURROGATE: 4}, "price_per_hour": 1}, "capacity"),
        ("/api/clusters/", {"name": SURROGATE, "entries": [{"vm_type": "m1.large", "count": 1}]}, "name"),
        ("/api/teams/", {"name": SURROGATE}, "name"),
    ],
)
def test_a_lone_surrogate_is_a_400_and_nothing_is_written(
    api: Any, owner: Any, team: Team, url: str, body: dict[str, Any], path: str
) -> None:
    """On SQLite (the tests' database) such a row used to be committed, then every list answered 500."""
    client = api(owner)
    before = {
        url: client.get(url).json()["count"]
        for url in ("/api/workloads/", "/api/vm-types/", "/api/clusters/")
    }
    # json.dumps writes the escape \ud800 into the body, as the probe did (the test client's renderer cannot).
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content
    assert (
        "surrogate" in errors_of(response)[path].lower()
    )  # the library's rule; DRF's for a team's CharField
    for list_url, count in before.items():
        listed = client.get(list_url)
        assert listed.status_code == 200 and listed.json()["count"] == count


def test_a_lone_surrogate_in_a_job_is_refused_with_its_path(api: Any, owner: Any, workload: Workload) -> None:
    def patch(jobs: list[dict[str, Any]]) -> dict[str, str]:
        response = api(owner).patch(
            f"/api/workloads/{workload.pk}/", json.dumps({"jobs": jobs}), content_type="application/json"
        )
        assert response.status_code == 400
        return errors_of(response)

    jobs = copy.deepcopy(workload.jobs)
    jobs[2]["id"] = SURROGATE
    assert "lone surrogate" in patch(jobs)["jobs[2].id"]
    jobs = copy.deepcopy(workload.jobs)
    jobs[3]["executor"][SURROGATE] = 1
    # The request's JSON is read by the library's text rule first: the key is named.
    assert patch(jobs) == {
        "jobs[3].executor": 'the key "\\ud800" contains a lone surrogate (\\ud800 at character 1), which is '
        "not a character: text must be valid Unicode"
    }
    assert Workload.objects.get(pk=workload.pk).jobs == workload.jobs
    assert api(owner).get(f"/api/workloads/{workload.pk}/").status_code == 200


# ------------------------------------------------------------------- warnings, paths, registry, generator


def test_writes_answer_with_warnings_and_keep_document_paths(
    api: Any, owner: Any, workload: Workload
) -> None:
    jobs = copy.deepcopy(workload.jobs)
    jobs[4]["deadline_s"] = jobs[4]["duration_s"] / 2
    response = api(owner).patch(f"/api/workloads/{workload.pk}/", {"jobs": jobs}, format="json")
    assert response.status_code == 200
    assert response.json()["warnings"] == [
        {"path": "jobs[4].deadline_s", "message": response.json()["warnings"][0]["message"]}
    ]
    assert response.json()["warnings"][0]["message"].startswith("is shorter than the job's duration")
    jobs[3]["executor"]["cpu"] = 0
    jobs[3]["executor"]["mem"] = 0
    response = api(owner).patch(f"/api/workloads/{workload.pk}/", {"jobs": jobs}, format="json")
    assert errors_of(response) == {
        "jobs[3].executor": "must demand some resource > 0"
    }  # JSON paths, not rows
    assert "warnings" not in api(owner).get(f"/api/workloads/{workload.pk}/").json()


def test_import_formats_come_from_the_registry(
    api: Any, owner: Any, workload: Workload, scenario_doc: Any
) -> None:
    client = api(owner)
    url = f"/api/workloads/{workload.pk}/import-csv/"
    doc = {**scenario_doc, "jobs": scenario_doc["jobs"][:5]}
    response = client.post(url, {"csv": json.dumps(doc), "format": "scenario-json"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["job_count"] == 5
    rm = "job-id,C,M,E,T_A,T_est,T_D\njob-0,4,6,7,39,153,396\n"
    response = client.post(
        url, {"csv": rm, "format": "rm-simulator", "options": {"with_deadlines": False}}, format="json"
    )
    assert response.status_code == 200
    assert "deadline_s" not in Workload.objects.get(pk=workload.pk).jobs[0]
    response = client.post(url, {"csv": rm, "format": "parquet"}, format="json")
    assert response.status_code == 400 and "format" in errors_of(response)
    response = client.post(
        url, {"csv": rm, "format": "rm-simulator", "options": {"deadlines": 1}}, format="json"
    )
    assert errors_of(response) == {"options.deadlines": "unknown option (options: with_deadlines)"}


def test_appended_csv_errors_name_the_file_line(api: Any, owner: Any, workload: Workload) -> None:
    text = "id,arrival_s,executors,cpu,mem,duration_s\nfine,0,1,1,1,10\n\nbad,0,0,1,1,10\n"
    response = api(owner).post(
        f"/api/workloads/{workload.pk}/import-csv/", {"csv": text, "replace": False}, format="json"
    )
    assert errors_of(response) == {"line 4 (job bad), executors": "must be >= 1"}  # not jobs[31]


def test_generate_fits_the_chosen_cluster(
    api: Any, owner: Any, outsider: Any, workload: Workload, team: Team, other_team: Team
) -> None:
    small = services.cluster_create(
        team=team, user=owner, name="small", entries=[{"vm_type": "m1.large", "count": 2}]
    )
    spec = {
        "seed": 3,
        "jobs": 60,
        "executors": [1, 20],
        "executor": {"cpu": [1, 16], "mem": [1, 64]},
        "cluster": small.pk,
    }
    response = api(owner).post(f"/api/workloads/{workload.pk}/generate/", spec, format="json")
    assert response.status_code == 200, response.json()
    services.scenario_document(small, Workload.objects.get(pk=workload.pk))  # every job fits: no error
    foreign = services.cluster_create(
        team=other_team, user=outsider, name="theirs", entries=[{"vm_type": "m1.large", "count": 1}]
    )
    response = api(owner).post(
        f"/api/workloads/{workload.pk}/generate/", {**spec, "cluster": foreign.pk}, format="json"
    )
    assert response.status_code == 404
    response = api(owner).post(
        f"/api/workloads/{workload.pk}/generate/", {**spec, "cluster": "small"}, format="json"
    )
    assert errors_of(response) == {"cluster": "must be the id of a cluster"}


def test_scenario_import_answers_with_warnings(
    api: Any, owner: Any, team: Team, scenario_doc: dict[str, Any]
) -> None:
    del scenario_doc["jobs"][0]["framework"]
    response = api(owner).post("/api/scenarios/import/", scenario_doc, format="json")
    assert response.status_code == 201
    assert [w["path"] for w in response.json()["warnings"]] == ["jobs[0].framework"]


# --------------------------------------------------------------------------- frameworks' study fields

#: A framework's fields beyond name and weight: the fairness engine's task demand and the
#: sharing simulator's version-2 fields (docs/scenario.md, "Version 2").
STUDY_FRAMEWORKS = [
    {"name": "analytics", "weight": 1, "task_demand": {"cpu": 1, "mem": 2}, "offer_policy": "hold",
     "refuse_s": 0, "hold_s": 2.5},
    {"name": "etl", "weight": 2, "task_demand": {"cpu": 2, "mem": 1},
     "queues": [{"tasks": 40, "duration_s": 30, "interval_s": 5, "tasks_per_job": 4}]},
]


def test_the_workload_api_takes_and_returns_the_frameworks_study_fields(
    api: Any, owner: Any, workload: Workload, cluster: Cluster
) -> None:
    client = api(owner)
    response = client.post(
        "/api/workloads/",
        {"name": "Study", "frameworks": STUDY_FRAMEWORKS, "jobs": workload.jobs},
        format="json",
    )
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["frameworks"] == STUDY_FRAMEWORKS
    assert client.get(f"/api/workloads/{created['id']}/").json()["frameworks"] == STUDY_FRAMEWORKS
    assert client.get("/api/workloads/").json()["results"][0]["frameworks"] in (
        STUDY_FRAMEWORKS, workload.frameworks
    )
    # Changed through PATCH; the export is a version-2 document that keeps every field.
    frameworks = copy.deepcopy(STUDY_FRAMEWORKS)
    frameworks[0]["offer_policy"] = "greedy"
    response = client.patch(f"/api/workloads/{created['id']}/", {"frameworks": frameworks}, format="json")
    assert response.status_code == 200 and response.json()["frameworks"] == frameworks
    exported = client.get(f"/api/clusters/{cluster.pk}/export/?workload={created['id']}").json()
    assert exported["version"] == 2 and exported["frameworks"] == frameworks
    parsed = parse_scenario(exported)
    assert [f.offer_policy for f in parsed.frameworks] == ["greedy", "bin-packing"]
    assert parsed.frameworks[1].queues[0].tasks == 40


def test_the_workload_api_refuses_bad_study_fields_with_their_paths(
    api: Any, owner: Any, workload: Workload
) -> None:
    frameworks = copy.deepcopy(STUDY_FRAMEWORKS)
    frameworks[0]["task_demand"]["cpu"] = -1
    frameworks[0]["offer_policy"] = "eager"
    frameworks[1]["queues"][0]["duration_s"] = 0
    response = api(owner).patch(f"/api/workloads/{workload.pk}/", {"frameworks": frameworks}, format="json")
    assert response.status_code == 400
    errors = errors_of(response)  # (the jobs of a framework that failed name an unknown framework)
    assert {path: message for path, message in errors.items() if path.startswith("frameworks")} == {
        "frameworks[0].task_demand.cpu": "must be >= 0",
        "frameworks[0].offer_policy": "must be one of first-fit, bin-packing, greedy, hold",
        "frameworks[1].queues[0].duration_s": "must be > 0",
    }
    assert Workload.objects.get(pk=workload.pk).frameworks == workload.frameworks


def test_a_version_2_document_imports_and_exports_with_its_frameworks_fields(
    api: Any, member: Any, team: Team, scenario_doc: dict[str, Any]
) -> None:
    doc = {**scenario_doc, "version": 2, "frameworks": STUDY_FRAMEWORKS}
    client = api(member)
    response = client.post("/api/scenarios/import/", doc, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["workload"]["frameworks"] == STUDY_FRAMEWORKS
    exported = client.get(
        f"/api/clusters/{body['cluster']['id']}/export/?workload={body['workload']['id']}"
    ).json()
    assert exported["version"] == 2
    assert parse_scenario(exported) == parse_scenario(doc)


# --------------------------------------------------------------------------- machine classes


def test_a_version_3_document_imports_and_exports_with_its_machine_classes(
    api: Any, member: Any, team: Team
) -> None:
    from pathlib import Path

    doc = json.loads((Path(__file__).resolve().parents[3] / "examples" / "paper004-fig1.json").read_text())
    client = api(member)
    response = client.post("/api/scenarios/import/", doc, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [(e["vm_type_name"], e["machine_class"]) for e in body["cluster"]["entries"]] == [
        (v["name"], v["machine_class"]) for v in doc["vm_types"]
    ]
    exported = client.get(
        f"/api/clusters/{body['cluster']['id']}/export/?workload={body['workload']['id']}"
    ).json()
    assert exported["version"] == 3
    assert parse_scenario(exported) == parse_scenario(doc)


def test_cluster_entries_take_a_machine_class_with_paths_to_their_errors(
    api: Any, owner: Any, team: Team
) -> None:
    client = api(owner)
    response = client.post("/api/clusters/", {"name": "Classes", "entries": [
        {"vm_type": "m1.large", "count": 2, "machine_class": "gpu"},
        {"vm_type": "m1.xlarge", "count": 1, "machine_class": None},
    ]}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [e["machine_class"] for e in body["entries"]] == ["gpu", None]
    response = client.patch(f"/api/clusters/{body['id']}/", {"entries": [
        {"vm_type": "m1.large", "count": 2, "machine_class": "gpu"},
        {"vm_type": "m1.xlarge", "count": 1, "machine_class": ""},
        {"vm_type": "m2.xlarge", "count": 1, "machine_class": ["gpu"]},
        {"vm_type": "type-1", "count": 1, "class": "gpu"},
    ]}, format="json")
    assert response.status_code == 400
    assert errors_of(response) == {
        "entries[3].class": "unknown field (expected one of: count, machine_class, reserved_count, "
                            "spot_count, vm_type)"
    }
    response = client.patch(f"/api/clusters/{body['id']}/", {"entries": [
        {"vm_type": "m1.large", "count": 2, "machine_class": "gpu"},
        {"vm_type": "m1.xlarge", "count": 1, "machine_class": ""},
        {"vm_type": "m2.xlarge", "count": 1, "machine_class": ["gpu"]},
    ]}, format="json")
    assert response.status_code == 400
    assert errors_of(response) == {"entries[1].machine_class": "must not be empty",
                                   "entries[2].machine_class": "must be a string"}
    stored = ClusterEntry.objects.filter(cluster_id=body["id"]).order_by("position")
    assert [e.machine_class for e in stored] == ["gpu", None]
