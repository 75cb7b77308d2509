"""Benchmark of issue 6: a comparison's parts spread over the worker's processes.

    python benchmarks/parts.py [--repeats 3] [--jobs 10000]

Starts the production topology (PostgreSQL, Redis, gunicorn, a Celery worker with the
embedded beat) as tests/e2e does, once with ``--concurrency=1`` and once with
``--concurrency=2``, and times, from the API's POST to the run's end (its ``finished_at``, on
this machine's clock; and to when a poll of its progress, every 0.3 s, saw it), a comparison of the
five schedulers of paper 003 on the shipped 10,000-job workload on 1,400 VMs (or its first
``--jobs`` jobs). Each setting runs ``--repeats`` times after one warm-up run. Needs
PostgreSQL and Redis on 127.0.0.1. Prints markdown.
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

from foreign_load import ForeignLoad  # noqa: E402
from planner_stack import Stack, missing_services, runs_by_concurrency  # noqa: E402

from scheduling.importers import import_rm_csv  # noqa: E402
from scheduling.presets import preset_vm_types  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "rm-simulator"
TIMELINE = False
FIVE = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]


def one_run(stack: Stack, token: str, scenario: dict[str, object]) -> tuple[float, float, float]:
    """(seconds from POST to the run's end, as the run records it; the same to when a poll
    saw it ended; seconds the parts spent running in all)."""
    t_post = time.time()  # the planner's timestamps are this machine's clock
    t0 = time.monotonic()
    status, _, body = stack.call(
        "POST", "/api/runs/", {"scenario": scenario, "schedulers": FIVE}, token=token
    )
    assert status == 201, body
    final, _ = stack.wait_for_run(token, json.loads(body)["id"], timeout=1800)
    seen = time.monotonic() - t0
    assert final["status"] == "succeeded", final
    ended = datetime.fromisoformat(final["finished_at"]).timestamp() - t_post
    if TIMELINE:
        def at(stamp: str | None) -> str:
            return "-" if stamp is None else f"{datetime.fromisoformat(stamp).timestamp() - t_post:.2f}"
        print(f"  run: started {at(final['started_at'])} finished {at(final['finished_at'])} "
              f"(POST to seen end {seen:.2f})", file=sys.stderr)
        for part in final["parts"]:
            print(f"    {part['label']}: {at(part['started_at'])} -> {at(part['finished_at'])}",
                  file=sys.stderr)
    busy = sum(
        (
            datetime.fromisoformat(part["finished_at"]) - datetime.fromisoformat(part["started_at"])
        ).total_seconds()
        for part in final["parts"]
    )
    return ended, seen, busy


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--jobs", type=int, default=10_000)
    p.add_argument("--timeline", action="store_true",
                   help="print when the run and each part started and ended, in s after the POST")
    args = p.parse_args()
    global TIMELINE
    TIMELINE = args.timeline
    if missing_services():
        sys.exit(f"needs PostgreSQL and Redis on 127.0.0.1: missing {missing_services()}")
    scenario = import_rm_csv(
        (SHARED / "large-scale-workload_jobs_high_load.csv").read_text(),
        name="10,000 jobs on 1,400 VMs",
        vm_types=preset_vm_types("paper-003", scale=100),
    )
    scenario["jobs"] = scenario["jobs"][: args.jobs]
    with ForeignLoad() as foreign:
        rows = runs_by_concurrency(lambda stack, token: one_run(stack, token, scenario), args.repeats)
    load = os.getloadavg()
    print(f"## Parts in parallel: a five-scheduler comparison, {len(scenario['jobs']):,} jobs\n")
    python = f"python {platform.python_version()} ({os.path.realpath(sys.executable)})"
    print(f"{python}, {os.cpu_count()} cores; load average after: "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}\n")
    print(f"{foreign.line()}\n")
    print("| worker processes | POST to end, median (s) | each run (s) "
          "| POST to a poll seeing it, median (s) | parts' running time, median (s) |")
    print("|---|---|---|---|---|")
    for concurrency, times in rows:
        each = ", ".join(f"{t:.2f}" for t, _, _ in times)
        print(f"| {concurrency} | {statistics.median(t for t, _, _ in times):.2f} | {each} | "
              f"{statistics.median(s for _, s, _ in times):.2f} | "
              f"{statistics.median(b for _, _, b in times):.1f} |")
    one, two = (statistics.median(t for t, _, _ in times) for _, times in rows)
    seen_one, seen_two = (statistics.median(s for _, s, _ in times) for _, times in rows)
    print(f"\nSpeed-up with two processes: **{one / two:.2f}x** from the POST to the run's end "
          f"({seen_one / seen_two:.2f}x to when a poll, every 0.3 s, saw it).")


if __name__ == "__main__":
    main()
