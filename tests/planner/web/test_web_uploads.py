"""The upload pages (format, options, files; progress; preview and prices; save) and the exports."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from planner.scenarios import importing, jobstore
from planner.scenarios.models import Cluster, Upload, Workload
from planner.scenarios.services import cluster_create, workload_create
from planner.teams.models import Team
from scheduling.exports import scenario_json_text
from scheduling.importers import IMPORTERS, get_importer
from scheduling.price_lists import PRICE_LISTS

pytestmark = pytest.mark.django_db

CSV = "job-id,C,M,E,T_A,T_est,T_D\n" + "".join(f"{k},1,2,2,{k},30,{k + 300}\n" for k in range(1, 26))


def upload_page(client: Any, **fields: Any) -> Any:
    body = {
        "name": "rm trace",
        "format": "rm-simulator",
        "upload": SimpleUploadedFile("rm.csv", CSV.encode()),
        **fields,
    }
    return client.post(reverse("web:upload-new"), body)


def test_the_upload_page_offers_every_format_and_its_declared_options(owner_client: Any) -> None:
    page = owner_client.get(reverse("web:upload-new")).content.decode()
    for importer in IMPORTERS.values():
        assert f'value="{importer.name}"' in page and f'data-format="{importer.name}"' in page
    assert 'name="option_rm_simulator_with_deadlines"' in page
    assert 'name="options_text"' in page  # for a format that declares none


def test_upload_progress_preview_prices_and_save(owner_client: Any, team: Team) -> None:
    response = upload_page(owner_client, option_rm_simulator_with_deadlines="")  # an unticked box
    upload = Upload.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "web:upload-detail", args=[upload.pk]
    )
    assert upload.options == {"with_deadlines": False}
    page = owner_client.get(response["Location"]).content.decode()
    assert "Waiting for a worker" in page and 'id="upload-bar"' in page
    importing.upload_read_now(upload.pk)
    page = owner_client.get(response["Location"]).content.decode()
    assert 'id="preview-jobs"' in page and "Save workload" in page and "deadline_s" not in page
    saved = owner_client.post(response["Location"], {"name": "From RM"})
    workload = Workload.objects.get(name="From RM")
    assert saved.status_code == 302 and saved["Location"] == reverse("web:workload-edit", args=[workload.pk])
    assert workload.job_count == 25


def test_a_failed_upload_shows_the_file_and_line(owner_client: Any) -> None:
    upload_page(
        owner_client,
        upload=SimpleUploadedFile("rm.csv", CSV.replace("3,1,2,2,3,30", "3,1,2,x,3,30").encode()),
    )
    upload = Upload.objects.get()
    importing.upload_read_now(upload.pk)
    page = owner_client.get(reverse("web:upload-detail", args=[upload.pk])).content.decode()
    assert "Not imported" in page and "rm.csv: line 4 (job 3), E" in page


def test_upload_form_errors_go_on_their_fields(owner_client: Any, workload: Workload) -> None:
    response = upload_page(owner_client, name=workload.name)
    assert response.status_code == 400 and not Upload.objects.exists()
    assert "already" in response.context["form"].errors["name"][0]
    response = upload_page(owner_client, format="jobs", options_text="with_deadlines")
    assert response.context["form"].errors["options_text"] == ["write key=value, not 'with_deadlines'"]


def test_machine_types_get_prices_from_a_price_list_or_typed(owner_client: Any, team: Team) -> None:
    doc = {
        "resources": ["cpu", "mem"],
        "vm_types": [{"name": "n8", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0, "count": 3}],
        "jobs": [
            {"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1, "mem": 1}, "duration_s": 5}
        ],
    }
    owner_client.post(
        reverse("web:upload-new"),
        {
            "name": "json",
            "format": "scenario-json",
            "upload": SimpleUploadedFile("s.json", json.dumps(doc).encode()),
        },
    )
    upload = Upload.objects.get()
    importing.upload_read_now(upload.pk)
    page = owner_client.get(reverse("web:upload-detail", args=[upload.pk]))
    fill = json.loads(
        page.content.decode().split('id="upload-prices" type="application/json">')[1].split("</script>")[0]
    )
    name = next(iter(PRICE_LISTS))
    assert fill == [{"input": "id_price_0", "suggested": {name: 0.48}}]
    bad = owner_client.post(reverse("web:upload-detail", args=[upload.pk]), {"name": "json", "price_0": "-2"})
    assert bad.status_code == 400 and bad.context["form"].errors["price_0"]
    owner_client.post(reverse("web:upload-detail", args=[upload.pk]), {"name": "json", "price_0": "0.48"})
    cluster = Cluster.objects.get(pk=Upload.objects.get().cluster_id)
    assert [(e.vm_type.name, e.vm_type.price_per_hour, e.count) for e in cluster.entries.all()] == [
        ("n8", 0.48, 3)
    ]


def test_outsiders_see_no_upload(client_for: Any, owner_client: Any, outsider: Any, other_team: Team) -> None:
    upload_page(owner_client)
    upload = Upload.objects.get()
    assert client_for(outsider).get(reverse("web:upload-detail", args=[upload.pk])).status_code == 404


def test_exports_stream_big_workloads_and_read_back(
    owner_client: Any, team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobstore, "JOBS_PER_CHUNK", 4)
    monkeypatch.setattr("planner.web.views.workloads.INLINE_JOBS_MAX", 5)
    jobs = [
        {
            "id": f"j{k}",
            "framework": "a",
            "arrival_s": k,
            "executors": 1,
            "executor": {"cpu": 1, "mem": 2},
            "duration_s": 10 + k,
            **({"deadline_s": 99.5} if k % 2 else {}),
        }
        for k in range(11)
    ]
    workload = workload_create(team=team, user=owner, name="streamed", frameworks=[{"name": "a"}], jobs=jobs)
    cluster = cluster_create(team=team, user=owner, name="c", entries=[{"vm_type": "m1.large", "count": 2}])
    response = owner_client.get(reverse("web:workload-export", args=[workload.pk]), {"cluster": cluster.pk})
    assert response.streaming
    text = b"".join(response.streaming_content).decode()
    doc = json.loads(text)
    assert doc["jobs"] == jobs and text == json.dumps(doc, indent=2, ensure_ascii=False)
    response = owner_client.get(reverse("web:workload-jobs-csv", args=[workload.pk]))
    csv_text = b"".join(response.streaming_content).decode()
    assert get_importer("jobs").read_text(csv_text).jobs == jobs  # the jobs importer reads it back
    assert "".join(scenario_json_text({"jobs": []}, [])) == json.dumps({"jobs": []}, indent=2)


def test_a_misfit_in_a_later_chunk_is_named_at_its_place(
    owner_client: Any, team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobstore, "JOBS_PER_CHUNK", 4)
    jobs = [
        {
            "id": f"j{k}",
            "arrival_s": k,
            "executors": 1,
            "executor": {"cpu": 1 if k != 9 else 64, "mem": 2},
            "duration_s": 10,
        }
        for k in range(11)
    ]
    workload = workload_create(team=team, user=owner, name="misfit", jobs=jobs)
    cluster = cluster_create(team=team, user=owner, name="c", entries=[{"vm_type": "m1.large", "count": 2}])
    response = owner_client.get(
        reverse("web:workload-export", args=[workload.pk]), {"cluster": cluster.pk}, follow=True
    )
    text = response.content.decode()
    assert "job 10 (id j9): executor" in text


def test_the_editor_of_a_paged_workload_reads_and_saves_a_page(
    owner_client: Any, team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobstore, "JOBS_PER_CHUNK", 8)
    monkeypatch.setattr("planner.web.views.workloads.INLINE_JOBS_MAX", 10)
    monkeypatch.setattr("planner.scenarios.serializers.INLINE_JOBS_MAX", 10)
    jobs = [
        {"id": f"j{k}", "arrival_s": k, "executors": 1, "executor": {"cpu": 1, "mem": 1}, "duration_s": 5}
        for k in range(40)
    ]
    workload = workload_create(team=team, user=owner, name="paged", jobs=jobs)
    url = reverse("web:workload-edit", args=[workload.pk])
    page = owner_client.get(url)
    config = json.loads(
        page.content.decode().split('id="workload-config" type="application/json">')[1].split("</script>")[0]
    )
    assert config["paged"] is True and config["jobs_api"] == f"/api/workloads/{workload.pk}/jobs/"
    assert b"j39" not in page.content  # the page itself holds no job
    edited = [{**j, "duration_s": 7} for j in jobs[20:30]] + [{**jobs[0], "id": "added"}]
    body = {"name": "paged", "page": {"offset": 20, "count": 10, "jobs": edited}}
    response = owner_client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["job_count"] == 41 and response.json()["jobs"] is None
    assert Workload.objects.get(pk=workload.pk).jobs == [*jobs[:20], *edited, *jobs[30:]]
    bad = {
        "page": {"offset": 20, "count": 11, "jobs": [{**jobs[20], "executors": 0}, {**jobs[20], "id": "j5"}]}
    }
    response = owner_client.post(url, json.dumps(bad), content_type="application/json")
    assert response.status_code == 400
    assert [(e["path"], e["text"]) for e in response.json()["errors"]] == [
        ("jobs[20].executors", "job 21 (id j20): executors: must be >= 1")
    ]
    response = owner_client.post(
        url,
        json.dumps({"page": {"offset": 20, "count": 11, "jobs": [{**jobs[20], "id": "j5"}]}}),
        content_type="application/json",
    )
    assert [e["text"] for e in response.json()["errors"]] == [
        "job 21 (id j5): id: job 6 of the workload has the id 'j5'"
    ]
    response = owner_client.post(
        url, json.dumps({"page": {"offset": 20}, "jobs": []}), content_type="application/json"
    )
    assert response.status_code == 400


def test_a_trace_format_with_declared_options_imports_through_the_upload(owner_client: Any) -> None:
    """SWIM (a trace format of the registry, options declared as Params): its fields on the page,
    a choice among its options passed on, its jobs imported in the background."""
    page = owner_client.get(reverse("web:upload-new")).content.decode()
    assert 'name="option_swim_deadline"' in page
    day = "".join(f"j{k}\t{k}\t{k}\t1\t1\t1\n" for k in range(30))
    response = owner_client.post(
        reverse("web:upload-new"),
        {
            "name": "swim day",
            "format": "swim",
            "option_swim_deadline": "factor",
            "upload": SimpleUploadedFile("day.tsv", day.encode()),
        },
    )
    assert response.status_code == 302, response.content
    upload = Upload.objects.get()
    assert upload.options["deadline"] == "factor"
    assert importing.upload_read_now(upload.pk) == "ready"
    upload.refresh_from_db()
    assert upload.job_count == 30 and all("deadline_s" in j for j in upload.preview_jobs)
