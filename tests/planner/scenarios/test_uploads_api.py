"""The uploads API and the paged jobs API (schema included)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from planner.scenarios import importing, jobstore, services
from planner.scenarios.models import Upload, Workload
from planner.teams.models import Team
from scheduling.generators import generate_jobs, parse_generator_spec
from scheduling.importers import IMPORTERS

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_api(api: Any, owner: Any, team: Team) -> APIClient:
    client: APIClient = api(owner)
    return client


@pytest.fixture
def outsider_api(api: Any, outsider: Any, other_team: Team) -> APIClient:
    client: APIClient = api(outsider)
    return client


CSV = "id,arrival_s,executors,cpu,mem,duration_s\n" + "".join(f"j{k},{k},1,1,2,60\n" for k in range(25))


def post_upload(client: APIClient, text: str = CSV, **fields: Any) -> Any:
    body = {
        "name": "api trace",
        "format": "jobs",
        "files": [SimpleUploadedFile("w.csv", text.encode())],
        **fields,
    }
    return client.post("/api/uploads/", body, format="multipart")


def test_upload_import_and_save_through_the_api(owner_api: APIClient, team: Team) -> None:
    response = post_upload(owner_api)
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["status"] == "received" and body["files"] == [{"name": "w.csv", "size": len(CSV)}]
    importing.upload_read_now(body["id"])  # what the worker does
    body = owner_api.get(f"/api/uploads/{body['id']}/").json()
    assert body["status"] == "ready" and body["progress"] == 1.0 and body["job_count"] == 25
    assert len(body["preview_jobs"]) == importing.PREVIEW_JOBS and body["vm_types"] == []
    saved = owner_api.post(f"/api/uploads/{body['id']}/save/", {"name": "From the API"}, format="json")
    assert saved.status_code == 201, saved.content
    workload = Workload.objects.get(pk=saved.json()["workload"])
    assert workload.name == "From the API" and workload.job_count == 25


def test_upload_errors_are_400_with_paths(owner_api: APIClient) -> None:
    response = post_upload(owner_api, options='{"nope": 1}')
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"path": "options.nope", "message": "unknown option (options: none)"}
    ]
    response = owner_api.post("/api/uploads/", {"name": "x", "format": "jobs"}, format="multipart")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "files"
    assert not Upload.objects.exists()


def test_a_failed_upload_says_where(owner_api: APIClient) -> None:
    body = post_upload(owner_api, CSV.replace("j3,3,1,1,2,60", "j3,3,0,1,2,60")).json()
    importing.upload_read_now(body["id"])
    body = owner_api.get(f"/api/uploads/{body['id']}/").json()
    assert body["status"] == "failed"
    assert body["errors"] == [{"path": "w.csv: line 5 (job j3), executors", "message": "must be >= 1"}]
    response = owner_api.post(f"/api/uploads/{body['id']}/save/", {}, format="json")
    assert response.status_code == 400


def test_outsiders_see_no_uploads(owner_api: APIClient, outsider_api: APIClient) -> None:
    body = post_upload(owner_api).json()
    assert outsider_api.get(f"/api/uploads/{body['id']}/").status_code == 404
    assert outsider_api.get("/api/uploads/").json()["count"] == 0
    assert outsider_api.delete(f"/api/uploads/{body['id']}/").status_code == 404


def test_importers_are_listed_with_their_options(owner_api: APIClient) -> None:
    listed = owner_api.get("/api/importers/").json()
    assert [i["name"] for i in listed] == list(IMPORTERS)
    rm = next(i for i in listed if i["name"] == "rm-simulator")
    assert rm["options"][0]["name"] == "with_deadlines" and rm["tables"] == []


def test_jobs_are_paged_and_big_workloads_leave_them_out_of_the_detail(
    owner_api: APIClient,
    team: Team,
    owner: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_assert_max_num_queries: Any,
) -> None:
    monkeypatch.setattr(jobstore, "JOBS_PER_CHUNK", 40)
    jobs = generate_jobs(parse_generator_spec({"jobs": 130, "seed": 3}))
    workload = services.workload_create(team=team, user=owner, name="big", jobs=jobs)
    with django_assert_max_num_queries(8):  # session, user, teams, the workload, two chunks
        page = owner_api.get(f"/api/workloads/{workload.pk}/jobs/?page=2&page_size=50").json()
    assert page["count"] == 130 and page["offset"] == 50 and page["results"] == jobs[50:100]
    assert page["next"].endswith("page=3&page_size=50") and page["previous"].endswith("page=1&page_size=50")
    last = owner_api.get(f"/api/workloads/{workload.pk}/jobs/?page=3&page_size=50").json()
    assert last["results"] == jobs[100:] and last["next"] is None
    assert owner_api.get(f"/api/workloads/{workload.pk}/jobs/?page=0").status_code == 400
    detail = owner_api.get(f"/api/workloads/{workload.pk}/").json()
    assert detail["jobs"] == jobs and detail["jobs_url"].endswith(f"/workloads/{workload.pk}/jobs/")
    monkeypatch.setattr("planner.scenarios.serializers.INLINE_JOBS_MAX", 100)
    assert owner_api.get(f"/api/workloads/{workload.pk}/").json()["jobs"] is None


def test_the_schema_documents_uploads_and_pages(owner_api: APIClient) -> None:
    schema = owner_api.get("/api/schema/?format=json").json()
    assert {
        "/api/uploads/",
        "/api/uploads/{id}/",
        "/api/uploads/{id}/save/",
        "/api/importers/",
        "/api/workloads/{id}/jobs/",
    } <= set(schema["paths"])
    assert "multipart/form-data" in schema["paths"]["/api/uploads/"]["post"]["requestBody"]["content"]
