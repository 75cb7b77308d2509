"""Benchmark of issue 19: a million jobs on 4,000 VMs through the planner, step by step.

    python benchmarks/million.py [--jobs 1000000] [--vms 4000] [--seed 0] [--run-limit 3600]

In one process, on a fresh SQLite database in a temporary folder (the embedded default's
database), with the planner's own services, as the web and the worker call them:

1. generate: a seeded synthetic workload (``scheduling.generators``) of ``--jobs`` jobs in two
   frameworks sized for the paper-003 VM mix scaled to about ``--vms`` VMs, its arrivals spread
   so that the work is about 70 % of the cluster's capacity, written as a jobs CSV file;
2. upload: ``services.upload_create`` with that file (what the upload request does: the file
   stored in the database in 4 MB chunks, the import queued);
3. import: ``importing.upload_read_now`` (what the worker does), with the time of each stage
   (reading through the importer, checking the jobs, storing them as Parquet chunks);
4. save: ``services.upload_save`` (the workload made from the stored chunks);
5. page: a page of 100 jobs at the start, middle and end (``jobstore.jobs_page``, and through the
   API and the editor page with Django's test client; best of 5);
6. export: the scenario JSON and the jobs CSV, streamed (bytes and time);
7. run: ``run_start`` of an
   edf-bfd comparison (the request: the workload's chunks copied as the run's own, checked with
   the cluster column by column, the document without its jobs stored on the run; issue 19),
   then its part executed in-process (the document built from the run's chunks and parsed),
   stopped after ``--run-limit`` seconds; if it finishes, the run page (best of 5), the chart
   payload, the CSV report and the full result document through the API.

Every random choice comes from ``--seed``. Prints markdown; wall times are of a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ROWS: list[tuple[str, str, str]] = []


def row(step: str, value: str, note: str = "") -> None:
    ROWS.append((step, value, note))
    print(f"| {step} | {value} | {note} |", flush=True)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - started


def best_of(fn: Callable[[], Any], n: int = 5) -> float:
    return min(timed(fn)[1] for _ in range(n))


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def setup_django(folder: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "planner.settings.test"
    import planner.settings.test as test_settings

    test_settings.DATABASES = {
        "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(folder / "bench.sqlite3")}
    }
    test_settings.ALLOWED_HOSTS = ["testserver"]
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def workload_jobs(jobs: int, vms: int, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The jobs and the VM types (paper 003's mix scaled to about ``vms`` machines)."""
    from scheduling.generators import generate_jobs, parse_generator_spec
    from scheduling.presets import preset_vm_types

    base = preset_vm_types("paper-003")
    scale = max(1, round(vms / sum(t["count"] for t in base)))
    vm_types = preset_vm_types("paper-003", scale=scale)
    spec = parse_generator_spec(
        {
            "jobs": jobs,
            "seed": seed,
            "frameworks": ["analytics", "etl"],
            "deadline_fraction": 0.3,
            "arrival_rate_per_s": 1.0,
        }
    )
    drawn = generate_jobs(spec, vm_types=vm_types)
    # Spread the arrivals so that the work is about 70 % of the cluster's cpu capacity.
    capacity = sum(t["capacity"]["cpu"] * t["count"] for t in vm_types)
    work = sum(j["executors"] * j["executor"]["cpu"] * j["duration_s"] for j in drawn)
    span = max(j["arrival_s"] for j in drawn) or 1.0
    stretch = work / (0.7 * capacity) / span
    for j in drawn:
        j["arrival_s"] = round(j["arrival_s"] * stretch, 3)
    return drawn, vm_types


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1_000_000)
    parser.add_argument("--vms", type=int, default=4_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--run-limit", type=int, default=3600, help="stop the simulation after this many s")
    parser.add_argument("--no-run", action="store_true", help="stop after the export")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="million-"))
    setup_django(folder)

    from django.core.files import File
    from django.test import Client

    from planner.runs.execution import part_execute_now
    from planner.runs.models import Run
    from planner.runs.services import run_start
    from planner.scenarios import importing
    from planner.scenarios.jobstore import job_chunks, jobs_page
    from planner.scenarios.models import JobChunk, UploadChunk
    from planner.scenarios.services import (
        cluster_create,
        scenario_document_chunked,
        upload_create,
        upload_save,
    )
    from planner.teams.services import team_create
    from scheduling.exports import jobs_csv_text, scenario_json_text

    print(
        f"Machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average at the start {os.getloadavg()[0]:.1f}\n"
    )
    print("| step | value | note |\n|---|---|---|")
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username="bench", password="bench-password")
    team = team_create(owner=user, name="bench")

    # 1. generate
    (jobs, vm_types), took = timed(lambda: workload_jobs(args.jobs, args.vms, args.seed))
    row(
        "generate (seeded)", f"{took:.1f} s", f"{len(jobs):,} jobs, {sum(t['count'] for t in vm_types):,} VMs"
    )
    path = folder / "million.csv"

    def write(drawn: list[dict[str, Any]]) -> None:
        with path.open("w") as out:
            for piece in jobs_csv_text([drawn], ["cpu", "mem"]):
                out.write(piece)

    started = time.perf_counter()
    write(jobs)
    took = time.perf_counter() - started
    row("write the jobs CSV", f"{took:.1f} s", f"{path.stat().st_size / 1e6:.0f} MB")
    jobs.clear()  # the worker reads the file, as it would

    # 2. upload (the request)
    with path.open("rb") as handle:
        upload, took = timed(
            lambda: upload_create(
                team=team,
                user=user,
                name="A million jobs",
                format="jobs",
                files=[File(handle, name="million.csv")],
            )
        )
    row(
        "upload: store the file (request)",
        f"{took:.1f} s",
        f"{UploadChunk.objects.filter(file__upload=upload).count()} chunks of 4 MB in the database",
    )

    # 3. import (the worker), stage by stage
    stages: list[tuple[str, float]] = []
    real_call = importing._Reporter.__call__

    def noting(self: Any, progress: float, stage: str, *, force: bool = False, **fields: Any) -> None:
        name = stage.split(" (")[0].split(" ")[0]
        if not stages or stages[-1][0] != name:
            stages.append((name, time.perf_counter()))
        real_call(self, progress, stage, force=force, **fields)

    importing._Reporter.__call__ = noting  # type: ignore[method-assign]
    outcome, took = timed(lambda: importing.upload_read_now(upload.pk))
    end = time.perf_counter()
    row("import (worker): in all", f"{took:.1f} s", f"{outcome}; peak RSS {rss_mb():,.0f} MB so far")
    for (name, at), nxt in zip(stages, [*[s[1] for s in stages[1:]], end], strict=True):
        row(f"import: {name}", f"{nxt - at:.1f} s", "")
    upload.refresh_from_db()
    stored = sum(len(bytes(d)) for d in JobChunk.objects.filter(upload=upload).values_list("data", flat=True))
    row(
        "stored jobs",
        f"{stored / 1e6:.1f} MB",
        f"{JobChunk.objects.filter(upload=upload).count()} Parquet chunks",
    )

    # 4. save
    saved, took = timed(lambda: upload_save(upload=upload, user=user))
    workload = saved.workload
    row("save as a workload (request)", f"{took:.2f} s", f"{workload.job_count:,} jobs")
    cluster = cluster_create(
        team=team,
        user=user,
        name="paper-003 mix",
        entries=[{"vm_type": t["name"], "count": t["count"]} for t in vm_types],
    )

    # 5. pages
    for where, offset in (
        ("first", 0),
        ("middle", workload.job_count // 2),
        ("last", workload.job_count - 100),
    ):
        took = best_of(lambda offset=offset: jobs_page(workload, offset=offset, limit=100))
        row(f"page of 100 jobs, {where} (jobs_page)", f"{took * 1000:.0f} ms", "best of 5")
    client = Client()
    client.force_login(user)
    middle = workload.job_count // 200
    took = best_of(lambda: client.get(f"/api/workloads/{workload.pk}/jobs/?page={middle}&page_size=100"))
    row("GET /api/workloads/<id>/jobs/ (middle page)", f"{took * 1000:.0f} ms", "best of 5")
    response = client.get(f"/workloads/{workload.pk}/")
    took = best_of(lambda: client.get(f"/workloads/{workload.pk}/"))
    row(
        "GET /workloads/<id>/ (the editor)",
        f"{took * 1000:.0f} ms",
        f"{len(response.content) / 1e3:.0f} KB; best of 5",
    )

    # 6. exports
    def drain(pieces: Iterator[str]) -> int:
        return sum(len(p.encode()) for p in pieces)

    def json_export() -> int:
        head, chunks = scenario_document_chunked(cluster, workload)
        return drain(scenario_json_text(head, chunks()))

    size, took = timed(json_export)
    row("export: scenario JSON (streamed)", f"{took:.1f} s", f"{size / 1e6:.0f} MB, checked by columns")
    size, took = timed(lambda: drain(jobs_csv_text(job_chunks(workload), list(workload.resources))))
    row("export: jobs CSV (streamed)", f"{took:.1f} s", f"{size / 1e6:.0f} MB")
    if args.no_run:
        return

    # 7. the run, as the engine is today
    run, took = timed(
        lambda: run_start(user=user, cluster=cluster, workload=workload, schedulers=["edf-bfd"])
    )
    row(
        "run: start (request)",
        f"{took:.1f} s",
        "the chunks copied as the run's own, checked by columns" if run.jobs_stored
        else "scenario built from the chunks, checked, stored on the run",
    )
    part = run.parts.get()

    class Stopped(Exception):
        pass

    def stop(*_: Any) -> None:
        raise Stopped()

    signal.signal(signal.SIGALRM, stop)
    signal.alarm(args.run_limit)
    try:
        outcome, took = timed(lambda: part_execute_now(part.pk))
    except Stopped:
        outcome, took = "stopped", float(args.run_limit)
    finally:
        signal.alarm(0)
    run.refresh_from_db()
    row(
        "run: the edf-bfd part (worker)",
        f"{took:.0f} s",
        f"{outcome}, run {run.status}; peak RSS {rss_mb():,.0f} MB",
    )
    if run.status != Run.Status.SUCCEEDED:
        return
    took = best_of(lambda: client.get(f"/runs/{run.pk}/"))
    row("GET /runs/<id>/ (run page)", f"{took * 1000:.0f} ms", "best of 5")
    figures = client.get(f"/api/runs/{run.pk}/figures/")
    row("chart payload", f"{len(figures.content) / 1e6:.2f} MB", "GET /api/runs/<id>/figures/")
    response, took = timed(lambda: client.get(f"/runs/{run.pk}/report.csv"))
    row(
        "CSV report",
        f"{took:.1f} s",
        f"{len(b''.join(response) if response.streaming else response.content) / 1e3:.0f} KB",
    )
    # The document is streamed: the time is to its last byte.
    body, took = timed(lambda: client.get(f"/api/runs/{run.pk}/results/edf-bfd/").getvalue())
    row("GET /api/runs/<id>/results/edf-bfd/", f"{took:.1f} s", f"{len(body) / 1e6:.0f} MB, "
        "the full result document")
    print(json.dumps({"folder": str(folder)}))


if __name__ == "__main__":
    main()
