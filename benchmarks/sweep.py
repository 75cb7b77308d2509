"""Benchmark of issue 18: a 100-point sweep on one and on two worker processes.

    python benchmarks/sweep.py [--repeats 1] [--redis-db 11]

The sweep is the preset ``sweep-003-sample`` (:func:`scheduling.sweep.setups.presets`): the
shipped 1,000-job light-load workload on the paper's 14-VM cluster, 20 clusters drawn at random
(seed 0) from the counts' grid, each run by the five schedulers of paper 003: 100 points.

1. In one process, through the library (:func:`scheduling.sweep.evaluate.evaluate_points`): the
   seconds per point and per job, the figure :data:`scheduling.sweep.expand.SECONDS_PER_JOB`
   estimates parts by.
2. Through the planner, as tests/e2e starts it (PostgreSQL, Redis, gunicorn, a Celery worker
   with the embedded beat), once with ``--concurrency=1`` and once with ``--concurrency=2``:
   from the API's POST to the run's end (the parts, then the figures built once at the end),
   after one warm-up run. Needs PostgreSQL and Redis on 127.0.0.1; uses Redis database
   ``--redis-db`` (flushed), apart from the end-to-end tests' 13.

Prints markdown. Wall-clock figures depend on what else runs: the load average is printed
before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import planner_stack  # noqa: E402

from scheduling import parse_scenario  # noqa: E402
from scheduling.sweep.document import plan_points  # noqa: E402
from scheduling.sweep.evaluate import evaluate_points  # noqa: E402
from scheduling.sweep.expand import point_batches  # noqa: E402
from scheduling.sweep.params import sweep_run  # noqa: E402
from scheduling.sweep.setups import presets  # noqa: E402

PRESET = "sweep-003-sample"


def in_process(scenario: dict[str, object], params: dict[str, object]) -> tuple[float, float, int, int]:
    """(seconds, CPU seconds, points, jobs of the scenario) of the sweep's points evaluated in
    this process (CPU seconds: what the work costs whatever else runs on the machine)."""
    parsed = parse_scenario(scenario)
    points = plan_points(sweep_run(params, scenario=parsed))
    t0, c0 = time.monotonic(), time.process_time()
    evaluate_points(parsed.to_dict(), points)
    return time.monotonic() - t0, time.process_time() - c0, len(points), len(parsed.jobs)


def one_run(stack: planner_stack.Stack, token: str, request: dict[str, object]) -> tuple[float, float, int]:
    """(seconds from POST to the end, seconds the parts spent running in all, parts)."""
    t0 = time.monotonic()
    status, _, body = stack.call("POST", "/api/runs/", request, token=token)
    assert status == 201, body
    final, _ = stack.wait_for_run(token, json.loads(body)["id"], timeout=3600)
    elapsed = time.monotonic() - t0
    assert final["status"] == "succeeded", final
    busy = sum(
        (datetime.fromisoformat(p["finished_at"]) - datetime.fromisoformat(p["started_at"])).total_seconds()
        for p in final["parts"]
    )
    return elapsed, busy, len(final["parts"])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("--redis-db", type=int, default=11)
    p.add_argument("--library-only", action="store_true", help="only the in-process measurement")
    args = p.parse_args()
    preset = next(x for x in presets() if x.key == PRESET)
    assert preset.scenario is not None
    load_before = os.getloadavg()

    seconds, cpu, points, jobs = in_process(preset.scenario, preset.params)
    parts = len(point_batches(plan_points(sweep_run(preset.params, scenario=parse_scenario(preset.scenario))),
                              jobs=jobs))
    print(f"in one process: {seconds:.1f} s for {points} points", file=sys.stderr)

    rows = []
    if not args.library_only:
        if planner_stack.missing_services():
            sys.exit(f"needs PostgreSQL and Redis on 127.0.0.1: missing {planner_stack.missing_services()}")
        planner_stack.REDIS_DB = args.redis_db  # apart from the end-to-end tests' database
        request = {"kind": "sweep", "scenario": preset.scenario, **preset.params}
        rows = planner_stack.runs_by_concurrency(
            lambda stack, token: one_run(stack, token, request), args.repeats
        )
    load_after = os.getloadavg()

    print(f"## Sweeps: {points} points ({PRESET}), {jobs:,} jobs, 14-VM cluster\n")
    print(f"python {platform.python_version()}, {os.cpu_count()} cores; load average before: "
          f"{load_before[0]:.1f} {load_before[1]:.1f} {load_before[2]:.1f}, after: "
          f"{load_after[0]:.1f} {load_after[1]:.1f} {load_after[2]:.1f}\n")
    print(f"In one process (the library): {seconds:.1f} s ({cpu:.1f} s of CPU), {cpu / points:.3f} CPU s a "
          f"point, {cpu / points / jobs * 1e6:.0f} CPU µs a job; planned as {parts} parts.\n")
    if rows:
        print("| worker processes | POST to end, median (s) | each run (s) "
              "| parts' running time, median (s) |")
        print("|---|---|---|---|")
        for concurrency, times in rows:
            print(f"| {concurrency} | {statistics.median(t for t, _, _ in times):.1f} | "
                  f"{', '.join(f'{t:.1f}' for t, _, _ in times)} | "
                  f"{statistics.median(b for _, b, _ in times):.1f} |")
        one, two = (statistics.median(t for t, _, _ in times) for _, times in rows)
        print(f"\nSpeed-up with two processes: {one / two:.2f}x.")


if __name__ == "__main__":
    main()
