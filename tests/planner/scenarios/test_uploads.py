"""Uploads: files stored by the request, imported by the task, saved as a workload."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import Http404

from planner.core.errors import InputError
from planner.scenarios import importing, services
from planner.scenarios.jobstore import jobs_page
from planner.scenarios.models import Cluster, JobChunk, Upload, UploadChunk, Workload
from planner.teams.models import Team
from scheduling.importers import IMPORTERS

pytestmark = pytest.mark.django_db

CSV = "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s\n" + "".join(
    f"j{k},{'ab'[k % 2]},{k},2,1,2,60,\n" for k in range(30)
)


def upload(
    team: Team,
    user: Any,
    text: str,
    *,
    name: str = "trace",
    fmt: str = "jobs",
    options: Any = None,
    filename: str = "jobs.csv",
) -> Upload:
    return services.upload_create(
        team=team,
        user=user,
        name=name,
        format=fmt,
        options=options,
        files=[SimpleUploadedFile(filename, text.encode())],
    )


def test_the_request_only_stores_the_file_in_chunks(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    monkeypatch.setattr(services.uploads, "UPLOAD_CHUNK_BYTES", 100)
    with django_capture_on_commit_callbacks() as callbacks:
        made = upload(team, owner, CSV)
    assert len(callbacks) == 1  # the import is queued once the upload is committed
    assert made.status == Upload.Status.RECEIVED and made.total_bytes == len(CSV.encode())
    chunks = UploadChunk.objects.filter(file__upload=made).order_by("position")
    assert chunks.count() == -(-len(CSV) // 100)
    assert b"".join(bytes(c.data) for c in chunks).decode() == CSV
    assert not Workload.objects.filter(name="trace").exists()


def test_the_task_reads_checks_and_stores_then_save_makes_the_workload(team: Team, owner: Any) -> None:
    made = upload(team, owner, CSV)
    assert importing.upload_read_now(made.pk) == "ready"
    made.refresh_from_db()
    assert made.status == Upload.Status.READY and made.progress == 1.0 and made.job_count == 30
    assert [j["id"] for j in made.preview_jobs] == [f"j{k}" for k in range(importing.PREVIEW_JOBS)]
    assert [f["name"] for f in made.document["frameworks"]] == ["a", "b"]
    assert jobs_page(made, offset=28, limit=5)[0]["id"] == "j28"  # the stored jobs page already
    assert importing.upload_read_now(made.pk) == "skipped"  # a second delivery does nothing
    saved = services.upload_save(upload=made, user=owner, name="Imported trace")
    assert saved.workload is not None and saved.workload.job_count == 30 and len(saved.workload.jobs) == 30
    workload = Workload.objects.get(pk=saved.workload_id)
    assert workload.name == "Imported trace" and workload.job_count == 30
    assert [j["id"] for j in workload.jobs] == [f"j{k}" for k in range(30)]
    assert not JobChunk.objects.filter(upload=made).exists()
    with pytest.raises(InputError, match="not ready to save"):
        services.upload_save(upload=made, user=owner)


def test_errors_name_the_file_and_line_and_nothing_is_stored(team: Team, owner: Any) -> None:
    bad = CSV.replace("j7,b,7,2,1,2,60,", "j7,b,7,2,1,2,-60,")
    made = upload(team, owner, bad)
    before = JobChunk.objects.count()
    assert importing.upload_read_now(made.pk) == "failed"
    made.refresh_from_db()
    assert made.status == Upload.Status.FAILED
    assert made.errors == [{"path": "jobs.csv: line 9 (job j7), duration_s", "message": "must be > 0"}]
    assert JobChunk.objects.count() == before  # all or nothing
    with pytest.raises(InputError, match="not ready"):
        services.upload_save(upload=made, user=owner)


def test_a_broken_header_and_bad_bytes_name_the_file(team: Team, owner: Any) -> None:
    made = upload(team, owner, "id,cpu\n1,2\n")
    importing.upload_read_now(made.pk)
    made.refresh_from_db()
    assert made.errors[0]["path"] == "jobs.csv: csv" and "header lacks" in made.errors[0]["message"]
    made = services.upload_create(
        team=team,
        user=owner,
        name="t2",
        format="jobs",
        files=[SimpleUploadedFile("x.csv", CSV.encode()[:200] + b"\xff\xfe\n")],
    )
    importing.upload_read_now(made.pk)
    made.refresh_from_db()
    # the library's reader names the file and the line (its text layer reads in blocks)
    assert len(made.errors) == 1 and made.errors[0]["path"].startswith("x.csv")
    assert made.errors[0]["message"] == "is not UTF-8 text"


def test_a_failure_while_storing_leaves_nothing_half_written(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = upload(team, owner, CSV)
    monkeypatch.setattr(importing, "JOBS_PER_CHUNK", 7)
    calls = []
    real = importing.jobs_store_chunks

    def breaking(owner_: Any, groups: Any) -> int:
        def some() -> Any:
            for k, group in enumerate(groups):
                calls.append(k)
                if k == 2:
                    raise MemoryError("out of memory")
                yield group

        return real(owner_, some())

    monkeypatch.setattr(importing, "jobs_store_chunks", breaking)
    assert importing.upload_read_now(made.pk) == "failed"
    made.refresh_from_db()
    assert calls == [0, 1, 2] and not JobChunk.objects.filter(upload=made).exists()
    assert made.errors == [{"path": "jobs.csv", "message": "could not be imported (MemoryError)"}]


def test_options_and_format_are_checked_by_the_request(team: Team, owner: Any) -> None:
    with pytest.raises(InputError) as exc:
        upload(team, owner, CSV, fmt="rm-simulator", options={"with_deadlines": "perhaps"})
    assert exc.value.errors[0].path == "options.with_deadlines"
    with pytest.raises(InputError) as exc:
        upload(team, owner, CSV, fmt="nope")
    assert exc.value.errors[0].path == "format"
    assert not Upload.objects.exists()


def test_machines_become_vm_types_at_the_prices_set(team: Team, owner: Any) -> None:
    doc = {
        "name": "traced",
        "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "node-a", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0, "count": 4},
            {"name": "node-b", "capacity": {"cpu": 16, "mem": 64}, "price_per_hour": 0, "count": 2},
        ],
        "frameworks": [],
        "jobs": [
            {
                "id": f"j{k}",
                "arrival_s": k,
                "executors": 1,
                "executor": {"cpu": 1, "mem": 2},
                "duration_s": 10,
            }
            for k in range(5)
        ],
    }
    made = upload(team, owner, json.dumps(doc), fmt="scenario-json", filename="t.json")
    assert importing.upload_read_now(made.pk) == "ready"
    made.refresh_from_db()
    assert [t["name"] for t in made.document["vm_types"]] == ["node-a", "node-b"]
    with pytest.raises(InputError) as exc:
        services.upload_save(upload=made, user=owner, prices={"node-a": -1})
    assert [e.path for e in exc.value.errors] == ["prices.node-a"]
    assert Upload.objects.get(pk=made.pk).status == Upload.Status.READY  # still ready: nothing stored
    saved = services.upload_save(upload=made, user=owner, prices={"node-a": 0.5, "node-b": 1.25})
    cluster = Cluster.objects.get(pk=saved.cluster_id)
    assert sorted((e.vm_type.name, e.vm_type.price_per_hour, e.count) for e in cluster.entries.all()) == [
        ("node-a", 0.5, 4),
        ("node-b", 1.25, 2),
    ]
    assert Workload.objects.get(pk=saved.workload_id).job_count == 5


def test_only_members_upload_and_only_the_creator_or_an_owner_saves(
    team: Team, owner: Any, member: Any, outsider: Any
) -> None:
    with pytest.raises(Http404):
        upload(team, outsider, CSV)
    made = upload(team, owner, CSV)
    importing.upload_read_now(made.pk)
    made.refresh_from_db()
    with pytest.raises(PermissionDenied):
        services.upload_save(upload=made, user=member)
    with pytest.raises(Http404):
        services.upload_delete(upload=made, user=outsider)


def test_every_registered_format_can_be_chosen() -> None:
    assert set(IMPORTERS) >= {"jobs", "rm-simulator", "scenario-json"}


def test_big_texts_are_sent_to_the_background_import(
    team: Team, owner: Any, workload: Workload, monkeypatch: pytest.MonkeyPatch, api: Any
) -> None:
    monkeypatch.setattr(services.uploads, "INLINE_IMPORT_MAX_BYTES", 100)
    with pytest.raises(InputError) as exc:
        services.workload_import(workload=workload, user=owner, text=CSV)
    assert exc.value.errors[0].path == "csv" and "imported in the background" in exc.value.errors[0].message
    response = api(owner).post(
        "/api/scenarios/import/", {"vm_types": [], "jobs": [], "name": "x" * 200}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "scenario"
    upload(team, owner, CSV)  # an upload takes it


def test_progress_goes_through_reading_checking_storing_to_ready(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.PLANNER_RUN_PROGRESS_INTERVAL_S = 0
    monkeypatch.setattr(services.uploads, "UPLOAD_CHUNK_BYTES", 64)
    made = upload(team, owner, CSV)
    seen: list[tuple[str, float, str]] = []
    real = importing._Reporter.__call__

    def watching(self: Any, progress: float, stage: str, **kwargs: Any) -> None:
        real(self, progress, stage, **kwargs)
        row = Upload.objects.get(pk=made.pk)
        seen.append((row.status, row.progress, row.stage.split(" (")[0].split(" ")[0]))

    monkeypatch.setattr(importing._Reporter, "__call__", watching)
    importing.upload_read_now(made.pk)
    assert {s for s, _, _ in seen} == {"reading"}
    assert [p for _, p, _ in seen] == sorted(p for _, p, _ in seen)  # never backwards
    stages = list(dict.fromkeys(stage for _, _, stage in seen))
    assert stages == ["reading", "checking", "storing"]
    # the preview's report, then one per 64 bytes read
    assert len([1 for _, _, stage in seen if stage == "reading"]) == 1 + len(CSV) // 64 + 1
    made.refresh_from_db()
    assert (made.status, made.progress, made.stage) == ("ready", 1.0, "ready to save")


def test_the_task_fails_the_upload_at_its_time_limit(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from celery.exceptions import SoftTimeLimitExceeded

    from celery_app import app
    from planner.scenarios import tasks

    assert "planner.scenarios.tasks.upload_read" in app.tasks
    made = upload(team, owner, CSV)

    def slow(*args: Any, **kwargs: Any) -> Any:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(importing, "read_files", slow)
    assert tasks.upload_read.run(made.pk) == "failed"
    made.refresh_from_db()
    assert made.status == "failed" and "time limit" in made.errors[0]["message"]


def test_lost_imports_are_sent_again_and_fail_after_the_last_attempt(
    team: Team, owner: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from planner.scenarios import tasks

    sent: list[int] = []
    monkeypatch.setattr(tasks.upload_read, "delay", lambda pk: sent.append(pk))
    made = upload(team, owner, CSV)
    assert importing.uploads_reap() == 0  # just received: its message is on its way
    Upload.objects.filter(pk=made.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert importing.uploads_reap() == 1 and sent == [made.pk]
    # a worker died while reading: the lease lapses, another worker takes it over
    Upload.objects.filter(pk=made.pk).update(
        status="reading", attempts=1, lease_until=timezone.now() - timedelta(seconds=1)
    )
    assert importing.upload_read_now(made.pk) == "ready"
    assert Upload.objects.get(pk=made.pk).attempts == 2
    lost = upload(team, owner, CSV, name="lost")
    Upload.objects.filter(pk=lost.pk).update(
        status="reading",
        attempts=settings.PLANNER_PART_MAX_ATTEMPTS,
        lease_until=timezone.now() - timedelta(seconds=1),
    )
    assert importing.upload_read_now(lost.pk) == "skipped"
    lost.refresh_from_db()
    assert lost.status == "failed" and "lost 3 times" in lost.errors[0]["message"]


def test_a_multi_table_trace_uploads_as_several_files_and_its_machines_become_vm_types(
    team: Team, owner: Any
) -> None:
    """Google 2011: job, task and machine events in three gzipped files, told apart by their
    names; the machines become VM types at the prices set when saving."""
    import gzip

    from tests.scheduling.importers.test_google2011 import JOBS, MACHINES, TASKS

    files = [
        SimpleUploadedFile(f"{table}.csv.gz", gzip.compress("".join(lines).encode()))
        for table, lines in (("job_events", JOBS), ("task_events", TASKS), ("machine_events", MACHINES))
    ]
    made = services.upload_create(team=team, user=owner, name="google", format="google-2011", files=files)
    assert importing.upload_read_now(made.pk) == "ready", Upload.objects.get(pk=made.pk).errors
    made.refresh_from_db()
    assert made.job_count >= 1 and made.document["vm_types"]
    names = [t["name"] for t in made.document["vm_types"]]
    saved = services.upload_save(upload=made, user=owner, prices={n: 0.1 for n in names})
    cluster = Cluster.objects.get(pk=saved.cluster_id)
    assert sorted(e.vm_type.name for e in cluster.entries.all()) == sorted(names)
    assert {e.vm_type.price_per_hour for e in cluster.entries.all()} == {0.1}
