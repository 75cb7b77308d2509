"""Benchmark of the replay (issue 7): the cluster at any instant of a 10,000-job run.

    python benchmarks/replay.py                  # library and endpoint (needs PostgreSQL)
    python benchmarks/replay.py --skip-endpoint  # the library only

The shipped 10,000-job workload (large-scale-workload_jobs_high_load.csv) on the paper-003
VM mix x100 (1,400 VMs), as benchmarks/web.py runs it, simulated with edf-bfd and
fifo-consolidate; plus the same jobs on the paper's 14 VMs ("queue-heavy": up to about a
thousand jobs wait at once), edf-bfd.

1. Library (``scheduling.cost.replay``): time to build a :class:`ReplayIndex` from the document
   as the simulator writes it and from its columnar layout (``to_columnar``), then the time
   of ``snapshot(t)`` at 1,000 seeded random instants and at the busiest instant of the queue,
   and the snapshot's size as JSON.
2. Endpoint (``GET /api/runs/<id>/replay/<variant>/?t=``) on PostgreSQL, in process through
   DRF's test client (no network, no web server): a throwaway database ``test_replay_bench``
   is created on 127.0.0.1:5432 and dropped afterwards; the run is started and its parts
   executed in process. Cold requests (the per-process index cache emptied first: the keys a
   replay reads are extracted by PostgreSQL and the index built) and warm ones (one query,
   no document), against reading the whole stored document and building the index on every
   request. Prints markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduling import parse_scenario, simulate  # noqa: E402
from scheduling.cost.document import to_columnar  # noqa: E402
from scheduling.cost.replay import ReplayIndex  # noqa: E402
from scheduling.importers import import_rm_csv  # noqa: E402
from scheduling.presets import preset_vm_types  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "rm-simulator"
SEED = 7


def workload(scale: int) -> dict[str, Any]:
    text = (SHARED / "large-scale-workload_jobs_high_load.csv").read_text()
    vms = preset_vm_types("paper-003", scale=scale)
    count = sum(t["count"] for t in vms)
    return import_rm_csv(text, name=f"10,000 jobs on {count:,} VMs", vm_types=vms)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def library(cases: list[tuple[str, int, str]]) -> None:
    print("## Library: scheduling.cost.replay\n")
    print("| case | VMs | scheduler | build ms (listed / columnar) | index MB | snapshot median ms | "
          "p95 ms | max ms | longest queue: jobs waiting, ms, JSON kB |")
    print("|---|---:|---|---|---:|---:|---:|---:|---|")
    rng = np.random.default_rng(SEED)
    for name, scale, scheduler in cases:
        scenario = parse_scenario(workload(scale))
        doc = simulate(scenario, scheduler=scheduler).to_dict()
        columnar = to_columnar(doc)
        builds = {}
        for label, d in (("listed", doc), ("columnar", columnar)):
            times = []
            for _ in range(5):
                t0 = time.perf_counter()
                index = ReplayIndex(d)
                times.append(time.perf_counter() - t0)
            builds[label] = statistics.median(times)
        instants = rng.uniform(0, index.end_s, 1000)
        times = []
        for t in instants:
            t0 = time.perf_counter()
            index.snapshot(float(t))
            times.append(time.perf_counter() - t0)
        tl = doc["timeline"]
        busiest = tl["t"][int(np.argmax(tl["queued_jobs"]))]
        t0 = time.perf_counter()
        snapshot = index.snapshot(busiest)
        busy_s = time.perf_counter() - t0
        size = len(json.dumps(snapshot)) / 1000
        print(f"| {name} | {sum(vt['count'] for vt in doc['vm_types']):,} | {scheduler} | "
              f"{ms(builds['listed'])} / {ms(builds['columnar'])} | {index.nbytes / 2**20:.1f} | "
              f"{ms(statistics.median(times))} | {ms(pct(times, 95))} | {ms(max(times))} | "
              f"{snapshot['jobs']['queued']:,}, {ms(busy_s)}, {size:.0f} |")
    print()


def endpoint(schedulers: list[str], requests: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "planner.settings.test")
    os.environ["PLANNER_TEST_DATABASE"] = "postgres"
    import django
    from django.conf import settings

    settings.DATABASES["default"]["TEST"] = {"NAME": "test_replay_bench"}
    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from rest_framework.test import APIClient

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        from django.contrib.auth import get_user_model

        from planner.kinds.compare import selectors
        from planner.runs.execution import part_execute_now
        from planner.runs.models import Run, RunPart, RunResult
        from planner.runs.services import run_start
        from planner.teams.services import team_create

        with connection.cursor() as cursor:
            cursor.execute("SELECT version()")
            pg_version = cursor.fetchone()[0].split(" on ")[0]
        user = get_user_model().objects.create_user(username="bench", password="bench-password")
        team = team_create(owner=user, name="Bench")
        t0 = time.monotonic()
        run = run_start(user=user, team=team, scenario=workload(100), schedulers=schedulers)
        for part_id in RunPart.objects.filter(run=run).order_by("position").values_list("id", flat=True):
            part_execute_now(part_id)
        assert Run.objects.get(pk=run.pk).status == "succeeded"
        print(f"## Endpoint on PostgreSQL ({pg_version})\n")
        print(f"Run of {len(schedulers)} schedulers stored in {time.monotonic() - t0:.1f} s. "
              f"{requests} warm requests per variant at seeded random instants; 5 cold ones.\n")
        client = APIClient()
        client.force_authenticate(user=user)
        rng = np.random.default_rng(SEED)
        print("| variant | stored document MB | cold ms (median of 5) | warm median ms | warm p95 ms | "
              "queries warm / cold | response kB | whole document + index per request, ms |")
        print("|---|---:|---:|---:|---:|---|---:|---:|")
        for variant in schedulers:
            row = RunResult.objects.get(run=run, variant=variant)
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_column_size(result) FROM runs_runresult WHERE id = %s", [row.pk])
                stored_mb = cursor.fetchone()[0] / 2**20
            url = f"/api/runs/{run.pk}/replay/{variant}/?t="
            end = ReplayIndex(row.result).end_s
            cold, cold_queries = [], 0
            for _ in range(5):
                selectors.replay_cache_clear()
                with CaptureQueriesContext(connection) as ctx:
                    t0 = time.perf_counter()
                    response = client.get(url + str(end / 2))
                    cold.append(time.perf_counter() - t0)
                assert response.status_code == 200, response.content
                cold_queries = len(ctx.captured_queries)
            warm = []
            for t in rng.uniform(0, end, requests):
                with CaptureQueriesContext(connection) as ctx:
                    t0 = time.perf_counter()
                    response = client.get(url + repr(float(t)))
                    warm.append(time.perf_counter() - t0)
                assert response.status_code == 200, response.content
            warm_queries = len(ctx.captured_queries)
            naive = []
            for _ in range(5):
                t0 = time.perf_counter()
                document = RunResult.objects.get(pk=row.pk).result
                ReplayIndex(document).snapshot(end / 2)
                naive.append(time.perf_counter() - t0)
            print(f"| {variant} | {stored_mb:.1f} | {ms(statistics.median(cold))} | "
                  f"{ms(statistics.median(warm))} | {ms(pct(warm, 95))} | {warm_queries} / {cold_queries} | "
                  f"{len(response.content) / 1000:.0f} | {ms(statistics.median(naive))} |")
        print()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-endpoint", action="store_true")
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cores, "
          f"load average at start {os.getloadavg()[0]:.1f}\n")
    library([
        ("shipped", 100, "edf-bfd"),
        ("shipped", 100, "fifo-consolidate"),
        ("queue-heavy", 1, "edf-bfd"),
    ])
    if not args.skip_endpoint:
        endpoint(["edf-bfd", "fifo-consolidate"], args.requests)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
