"""Benchmarks of issue 3: the run page, the chart payload and the API under load.

    python benchmarks/web.py [--duration 30] [--connections 16]

Starts the production topology (PostgreSQL, Redis, gunicorn with the production settings, a
Celery worker) as tests/e2e does, then:
1. runs the shipped 10,000-job workload on 1,400 VMs with 5 schedulers and times the run page
   (GET /runs/<id>/, signed in; 30 requests, after 3 warm-ups) and measures the chart payload;
2. loads the API's list and detail endpoints with wrk (Debian's package) for --duration
   seconds with --connections connections, reporting requests/s and the latency percentiles;
3. times 100 run submissions (a 1,000-job scenario posted inline, 4 clients at a time) while
   the worker is busy with a long run.
Needs PostgreSQL and Redis on 127.0.0.1 and wrk on the PATH. Prints markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from planner_stack import Stack, missing_services  # noqa: E402

from scheduling.importers import import_rm_csv  # noqa: E402
from scheduling.presets import preset_vm_types  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "rm-simulator"
FIVE = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def wrk(url: str, token: str, duration: int, connections: int) -> dict[str, float]:
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{duration}s",
            "--latency",
            "-H",
            f"Authorization: Token {token}",
            url,
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]

    def ms(label: str) -> float:
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)", out, re.M)
        assert m, out
        v = float(m.group(1))
        return v / 1000 if m.group(2) == "us" else v * 1000 if m.group(2) == "s" else v

    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "rps": rps,
        "p50": ms("50"),
        "p90": ms("90"),
        "p99": ms("99"),
        "non2xx": float(non2xx.group(1)) if non2xx else 0.0,
        "socket_errors": errors.group(1) if errors else "",
    }  # type: ignore[dict-item]


def submissions(stack: Stack, token: str, big: dict) -> None:
    """Section 3: run submissions while the worker is busy with a long run."""
    _, _, body = stack.call("POST", "/api/runs/", {"scenario": big, "schedulers": FIVE}, token=token)
    busy_id = json.loads(body)["id"]
    small = json.loads((ROOT / "examples" / "paper003-light.json").read_text())

    def submit(_: int) -> float:
        t = time.perf_counter()
        status, _, body = stack.call(
            "POST", "/api/runs/", {"scenario": small, "schedulers": ["edf-bfd"]}, token=token
        )
        assert status == 201, body
        return (time.perf_counter() - t) * 1000

    time.sleep(2)  # let the worker start the long run
    for k in range(6):  # warm-up: each gunicorn worker's first enqueue opens its broker connection
        submit(k)
    rows = []
    for clients in (1, 4):
        _, _, body = stack.call("GET", f"/api/runs/{busy_id}/progress/", token=token)
        busy = json.loads(body)["status"]
        with ThreadPoolExecutor(clients) as pool:
            lat = list(pool.map(submit, range(100)))
        rows.append((clients, busy, lat))
    stack.call("POST", f"/api/runs/{busy_id}/cancel/", token=token)
    print("\n## Run submission while the worker is busy\n")
    print(
        "100 submissions of a 1,000-job scenario posted inline (validated, stored, enqueued on Redis), "
        "after 6"
    )
    print("warm-up submissions, while the worker simulates 10,000 jobs x 5 schedulers.\n")
    print(
        "| clients at a time | worker | p50 ms | p90 ms | p99 ms | max ms | goal |\n"
        "|---|---|---|---|---|---|---|"
    )
    for clients, busy, lat in rows:
        print(
            f"| {clients} | {busy} | {pct(lat, 50):.0f} | {pct(lat, 90):.0f} | {pct(lat, 99):.0f} | "
            f"{max(lat):.0f} | p99 <= 200 ms |"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--duration", type=int, default=30)
    p.add_argument("--connections", type=int, default=16)
    p.add_argument("--web-workers", type=int, default=3)
    p.add_argument("--only", choices=["all", "submit"], default="all")
    args = p.parse_args()
    if missing_services() or not shutil.which("wrk"):
        sys.exit(f"needs PostgreSQL and Redis on 127.0.0.1 and wrk: missing {missing_services() or ['wrk']}")
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, gunicorn workers {args.web_workers}",
        file=sys.stderr,
    )

    with tempfile.TemporaryDirectory() as tmp:
        stack = Stack(Path(tmp), web_workers=args.web_workers)
        try:
            stack.up()
            token = stack.token()
            big = import_rm_csv(
                (SHARED / "large-scale-workload_jobs_high_load.csv").read_text(),
                name="10,000 jobs on 1,400 VMs",
                vm_types=preset_vm_types("paper-003", scale=100),
            )
            if args.only == "submit":
                submissions(stack, token, big)
                return
            t0 = time.monotonic()
            status, _, body = stack.call(
                "POST", "/api/runs/", {"scenario": big, "schedulers": FIVE}, token=token
            )
            assert status == 201, body
            run_id = json.loads(body)["id"]
            final, _ = stack.wait_for_run(token, run_id, timeout=1800)
            assert final["status"] == "succeeded", final
            run_s = time.monotonic() - t0

            # 1. The run page and its chart payload.
            session = stack.browser_session()
            url = f"{stack.base}/runs/{run_id}/"
            times, size = [], 0
            for k in range(33):
                t = time.perf_counter()
                with session.open(url, timeout=60) as r:
                    html = r.read()
                if k >= 3:
                    times.append((time.perf_counter() - t) * 1000)
                size = len(html)
            _, _, figures = stack.call("GET", f"/api/runs/{run_id}/figures/", token=token)
            print("## Run page (10,000 jobs, 5 schedulers)\n")
            print(f"Simulation of the run on the worker, end to end: {run_s:.1f} s.\n")
            print("| measure | value | goal |\n|---|---|---|")
            print(f"| run page, median | {statistics.median(times):.0f} ms | <= 300 ms |")
            print(f"| run page, p95 | {pct(times, 95):.0f} ms | |")
            print(f"| run page HTML (charts load from the figures endpoint) | {size / 2**20:.2f} MB | |")
            print(f"| chart payload (/api/runs/<id>/figures/) | {len(figures) / 2**20:.2f} MB | <= 2 MB |")

            # 2. The API under load.
            print(f"\n## API under load (wrk, {args.connections} connections, {args.duration} s)\n")
            print(
                "| endpoint | requests/s | p50 ms | p90 ms | p99 ms | non-2xx | goal |\n"
                "|---|---|---|---|---|---|---|"
            )
            for label, path in (
                ("list /api/runs/", "/api/runs/"),
                (f"detail /api/runs/{run_id}/", f"/api/runs/{run_id}/"),
                ("list /api/workloads/", "/api/workloads/"),
            ):
                w = wrk(stack.base + path, token, args.duration, args.connections)
                print(f"| {label} | {w['rps']:.0f} | {w['p50']:.1f} | {w['p90']:.1f} | {w['p99']:.1f} | "
                      f"{w['non2xx']:.0f} | >= 200/s, p99 <= 100 ms |")

            submissions(stack, token, big)
        finally:
            stack.down()


if __name__ == "__main__":
    main()
