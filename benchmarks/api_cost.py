"""Issue 21: what one API request costs in-process (CPU, queries, bytes), by endpoint.

    python benchmarks/api_cost.py [--database sqlite|postgres] [--layout team|mixed] [--repeat 200]
                                  [--profile LABEL [--profile-out FILE]]

Builds a realistic database with the test settings (SQLite in memory, or a PostgreSQL database
of its own on 127.0.0.1 that is dropped at the end): one team with 30 runs of several kinds, among
them a finished 100-point sweep (its 100 results and parts), comparisons of five schedulers,
allocation studies, and queued runs (``--layout mixed``: the five runs of load_mixed.py instead).
Then, through the whole middleware stack (``django.test.Client``, an API token in
``Authorization`` as wrk sends it), times
``GET /api/runs/`` (the default page) and each malformed ``POST /api/runs/`` of
``benchmarks/load_mixed.py`` ``--repeat`` times after a warm-up: this process's CPU
milliseconds per request (the database server's CPU is not counted), queries per request and
the response's size. With ``--profile LABEL`` (``list`` or a hostile request's label), prints
cProfile's top functions for that request. Queries are those Django records: not PostgreSQL's
connection health check, which production makes once per request (``CONN_HEALTH_CHECKS``).

No server, worker or load generator is started: this measures the web process's own work, the
part of a request that three gunicorn workers on two cores pay for under load. Prints markdown.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--profile", default="", help="list, or a hostile request's label")
    parser.add_argument("--profile-out", default="", help="also write the profile there (pstats)")
    parser.add_argument(
        "--layout", choices=["team", "mixed"], default="team",
        help="team: 30 runs (a 100-point sweep, 20 comparisons of five schedulers, 4 allocation studies, "
        "5 queued comparisons); mixed: the runs of load_mixed.py (4 comparisons of two schedulers and "
        "a 100-point sweep)",
    )
    return parser.parse_args()


ARGS = parse_args()
os.environ["DJANGO_SETTINGS_MODULE"] = "planner.settings.test"
if ARGS.database == "postgres":
    os.environ["PLANNER_TEST_DATABASE"] = "postgres"

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

FIVE = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]


def scenario_doc(jobs: int = 20) -> dict[str, Any]:
    from scheduling.generators import synthetic_jobs

    return {
        "version": 1, "name": "tiny", "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 3},
            {"name": "big", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.48, "count": 2},
        ],
        "frameworks": [{"name": "analytics", "weight": 1}, {"name": "etl", "weight": 2}],
        "jobs": synthetic_jobs(jobs=jobs, seed=1, arrival_rate_per_s=0.02, frameworks=["analytics", "etl"],
                               executors=(1, 4), executor={"cpu": (1, 4), "mem": (1, 8)}),
    }


def execute(run_id: int) -> None:
    from planner.runs.execution import part_execute_now
    from planner.runs.models import RunPart

    for part_id in RunPart.objects.filter(run_id=run_id, status="queued").order_by("position").values_list(
        "id", flat=True
    ):
        part_execute_now(part_id)


def clone(run: Any, times: int) -> None:
    """``times`` copies of a finished run with its parts and results (as if run again)."""
    from planner.runs.models import Run, RunPart, RunResult

    parts = list(RunPart.objects.filter(run=run))
    results = list(RunResult.objects.filter(run=run))
    for _ in range(times):
        copy = Run.objects.get(pk=run.pk)
        copy.pk = None
        copy.save()
        Run.objects.filter(pk=copy.pk).update(created_at=run.created_at)
        by_old: dict[int, int] = {}
        for part in parts:
            old = part.pk
            part.pk = None
            part.run_id = copy.pk
            part.save()
            by_old[old] = part.pk
            part.pk = old
        RunResult.objects.bulk_create([
            RunResult(run_id=copy.pk, part_id=by_old.get(r.part_id) if r.part_id else None, variant=r.variant,
                      position=r.position, summary=r.summary, result=r.result, figures=r.figures)
            for r in results
        ])


def build() -> tuple[str, dict[str, int]]:
    """The team, its runs, and an API token of its owner."""
    from django.contrib.auth import get_user_model

    from planner.accounts.services import token_issue
    from planner.runs.models import Run, RunResult
    from planner.runs.services import run_start
    from planner.teams.services import team_create
    from tests.planner.kinds.allocation.documents import VARIANTS, table_one

    owner = get_user_model().objects.create_user(username="olivia", password="olivia-password")
    team = team_create(owner=owner, name="Platform")
    doc = scenario_doc()
    started = time.perf_counter()

    sweep = run_start(user=owner, team=team, scenario=doc, kind="sweep",
                      vary={"counts.small": list(range(1, 21))}, schedulers=FIVE)
    execute(sweep.pk)
    if ARGS.layout == "mixed":
        compare = run_start(user=owner, team=team, scenario=doc, schedulers=FIVE[-2:])
        execute(compare.pk)
        clone(compare, 3)
    else:
        compare = run_start(user=owner, team=team, scenario=doc, schedulers=FIVE)
        execute(compare.pk)
        allocation = run_start(user=owner, team=team, scenario=table_one(), kind="allocation",
                               variants=VARIANTS, trials=5, seed=7)
        execute(allocation.pk)
        clone(compare, 19)
        clone(allocation, 3)
        for _ in range(5):  # queued: no results yet
            run_start(user=owner, team=team, scenario=doc, schedulers=FIVE)
    # The sweep is the newest run: on the default page, as in load_mixed.py.
    Run.objects.filter(pk=sweep.pk).update(created_at=Run.objects.order_by("-created_at")[0].created_at)
    print(f"(database built in {time.perf_counter() - started:.0f} s)", file=sys.stderr)
    _, token = token_issue(user=owner, name="bench")
    counts = {
        "runs": Run.objects.count(),
        "results": RunResult.objects.count(),
        "sweep results": RunResult.objects.filter(run=sweep).count(),
        "sweep status": Run.objects.get(pk=sweep.pk).status == "succeeded",
    }
    return token, counts


def measure(send: Any, repeat: int) -> dict[str, float]:
    for _ in range(10):  # warm-up: imports, URL resolver caches, prepared statements
        send()
    cpu: list[float] = []
    wall: list[float] = []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        response = send()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    with CaptureQueriesContext(connection) as ctx:
        response = send()
    return {
        "status": response.status_code,
        "cpu_ms": statistics.mean(cpu),
        "cpu_p50": statistics.median(cpu),
        "wall_p50": statistics.median(wall),
        "queries": len(ctx.captured_queries),
        "writes": sum(1 for q in ctx.captured_queries
                      if q["sql"].lstrip().split(" ", 1)[0].upper() in ("UPDATE", "INSERT", "DELETE")),
        "bytes": len(response.content),
        "sql": [q["sql"] for q in ctx.captured_queries],  # type: ignore[dict-item]
    }


def main() -> None:
    from load_mixed import hostile_requests

    setup_test_environment()
    old_name = None
    if ARGS.database == "postgres":
        connection.settings_dict.setdefault("TEST", {})["NAME"] = f"test_api_cost_{os.getpid()}"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        token, counts = build()
        client = Client(HTTP_AUTHORIZATION=f"Token {token}")
        requests: list[tuple[str, Any]] = [("list", lambda: client.get("/api/runs/"))]
        for label, path, body, _headers in hostile_requests(token):
            if path != "/api/runs/":
                continue
            requests.append((label, lambda path=path, body=body: client.post(
                path, body, content_type="application/json")))
        print(f"## In-process cost per request ({ARGS.database}, {ARGS.layout}, "
              f"{ARGS.repeat} requests each)\n")
        print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average "
              f"{os.getloadavg()[0]:.2f}; database: {counts}.\n")
        print("| request | status | CPU ms (mean) | CPU ms (p50) | wall ms (p50) | queries | writes "
              "| bytes |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        results = {}
        for label, send in requests:
            m = measure(send, ARGS.repeat)
            results[label] = m
            print(f"| {label} | {m['status']} | {m['cpu_ms']:.2f} | {m['cpu_p50']:.2f} | "
                  f"{m['wall_p50']:.2f} | {m['queries']} | {m['writes']} | {m['bytes']:,} |")
        print(f"\nload average at the end: {os.getloadavg()}")
        if os.environ.get("API_COST_SQL"):
            for label, m in results.items():
                print(f"\n### {label}\n")
                for sql in m["sql"]:
                    print(f"- `{sql[:300]}`")
        if ARGS.profile:
            send = dict(requests)[ARGS.profile]
            profile = cProfile.Profile()
            profile.enable()
            for _ in range(ARGS.repeat):
                send()
            profile.disable()
            if ARGS.profile_out:
                profile.dump_stats(ARGS.profile_out)
            out = io.StringIO()
            stats = pstats.Stats(profile, stream=out).sort_stats("cumulative")
            stats.print_stats(45)
            stats.sort_stats("tottime").print_stats(30)
            print(f"\n### cProfile: {ARGS.profile}\n\n```\n{out.getvalue()}\n```")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
