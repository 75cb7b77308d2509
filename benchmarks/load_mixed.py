"""Issue 21, under load: list latency while workers solve, hostile bodies, the web's memory.

    python benchmarks/load_mixed.py [--duration 600] [--connections 16]

Starts the production topology as tests/e2e does (PostgreSQL, Redis database 12, gunicorn
with three workers as docker-compose runs it, a Celery worker of two processes), keeps the
worker busy (exact-placement comparisons and a 100-point sweep), then for ``--duration``
seconds, all at once and bounded in time:

* wrk loads the runs list (``GET /api/runs/``) with ``--connections`` connections;
* four client threads send hostile requests in turn: a malformed scenario to ``POST
  /api/runs/`` (NaN, a NUL, deep nesting, wrong types), invalid UTF-8, and an anonymous body
  of 60 MB declared to the sign-in endpoint; each answer's latency is recorded;
* one client submits valid runs (a 1,000-job scenario posted inline, as §4 measures run
  submission), one at a time with a pause of ``--submit-pause`` seconds;
* the gunicorn processes' resident memory is sampled every 2 s.

Prints markdown: the list's requests/s and latency percentiles, the hostile requests' status
codes and latency percentiles, and the web processes' memory (start, peak, end). Traffic goes
to 127.0.0.1 only; every loop is bounded by the duration.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from planner_stack import Stack, missing_services  # noqa: E402
from web import pct, wrk  # noqa: E402

SLOW = "edf-ilp:ilp_method=binary"


def light(jobs: int) -> dict[str, Any]:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:jobs]
    return doc


def hostile_requests(token: str) -> list[tuple[str, str, bytes, dict[str, str]]]:
    """(label, path, body, headers): what a hostile or broken client sends."""
    auth = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    valid = json.dumps({"scenario": light(20), "schedulers": ["edf-bfd"]})
    nan = valid.replace('"arrival_s": ', '"arrival_s": NaN, "x": ', 1)
    deep = '{"scenario": ' + "[" * 5000 + "]" * 5000 + "}"
    wrong = json.dumps({"scenario": {"jobs": "many", "vm_types": 3}, "schedulers": [7]})
    nul = json.dumps({"scenario": light(5), "name": "a\u0000b"})
    return [
        ("NaN in a scenario", "/api/runs/", nan.encode(), auth),
        ("deep nesting (5,000 levels)", "/api/runs/", deep.encode(), auth),
        ("wrong types", "/api/runs/", wrong.encode(), auth),
        ("a NUL in a name", "/api/runs/", nul.encode(), auth),
        ("invalid UTF-8", "/api/runs/", b'{"name": "\xff\xfe"}', auth),
        ("anonymous 60 MB to sign-in", "/api/auth/token/", b"x" * (60 * 2**20),
         {"Content-Type": "application/json"}),
    ]


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def web_pids(stack: Stack) -> list[int]:
    master = next(p for p in stack.procs if "gunicorn" in " ".join(map(str, p.args)))
    kids = Path(f"/proc/{master.pid}/task/{master.pid}/children")
    return [master.pid, *(int(k) for k in kids.read_text().split())] if kids.exists() else [master.pid]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duration", type=int, default=600)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--submit-pause", type=float, default=1.0,
                        help="seconds between two valid run submissions")
    args = parser.parse_args()
    if missing_services() or not shutil.which("wrk"):
        missing = missing_services() or ["wrk"]
        sys.exit(f"needs PostgreSQL and Redis on 127.0.0.1 and wrk: missing {missing}")

    tmp = Path(tempfile.mkdtemp(prefix="load-mixed-"))
    stack = Stack(tmp, web_workers=3, worker_concurrency=2, redis_db=12)
    try:
        stack.up()
        token = stack.token()
        for i in range(4):  # the worker solves exact placements the whole time
            schedulers = [SLOW, f"{SLOW},rut.cpu=0.4,rut.mem=0.6"]
            busy = {"scenario": light(300), "seed": i, "schedulers": schedulers}
            stack.call("POST", "/api/runs/", busy, token=token)
        sweep = {"kind": "sweep", "scenario": light(1000), "vary": {"counts.m1.large": list(range(1, 21))},
                 "schedulers": ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]}
        status, _, body = stack.call("POST", "/api/runs/", sweep, token=token)
        assert status == 201, body[:300]

        pids = web_pids(stack)
        memory: list[float] = [rss_mb(pids)]
        hostile: dict[str, list[tuple[int, float]]] = {}
        submitted: list[tuple[int, float]] = []
        deadline = time.monotonic() + args.duration
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set() and time.monotonic() < deadline + 5:
                memory.append(rss_mb(web_pids(stack)))
                stop.wait(2)

        def attack(k: int) -> None:
            requests = hostile_requests(token)
            i = k
            while time.monotonic() < deadline:
                label, path, data, headers = requests[i % len(requests)]
                i += 1
                conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=120)
                started = time.monotonic()
                try:
                    conn.request("POST", path, body=data, headers=headers)
                    code = conn.getresponse().status
                except (OSError, http.client.HTTPException):
                    code = 0  # the server closed the connection (a 413 before the body was read)
                finally:
                    conn.close()
                hostile.setdefault(label, []).append((code, (time.monotonic() - started) * 1000))

        def submit() -> None:
            valid = json.dumps({"scenario": light(1000), "schedulers": ["edf-bfd"]}).encode()
            headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
            while time.monotonic() < deadline:
                conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=120)
                started = time.monotonic()
                try:
                    conn.request("POST", "/api/runs/", body=valid, headers=headers)
                    code = conn.getresponse().status
                except (OSError, http.client.HTTPException):
                    code = 0
                finally:
                    conn.close()
                submitted.append((code, (time.monotonic() - started) * 1000))
                stop.wait(args.submit_pause)

        threads = [threading.Thread(target=sample), threading.Thread(target=submit)]
        threads += [threading.Thread(target=attack, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        listed = wrk(f"{stack.base}/api/runs/", token, args.duration, args.connections)
        stop.set()
        for t in threads:
            t.join(timeout=180)

        print(f"## Mixed load for {args.duration} s (issue 21)\n")
        print(f"Machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, load average before "
              f"the run {os.getloadavg()[0]:.1f} (read at the end: {os.getloadavg()}).\n")
        print("| what | requests/s | p50 ms | p90 ms | p99 ms | non-2xx |")
        print("| --- | --- | --- | --- | --- | --- |")
        print(f"| `GET /api/runs/`, {args.connections} connections | {listed['rps']:.0f} | "
              f"{listed['p50']:.1f} | {listed['p90']:.1f} | {listed['p99']:.1f} | {listed['non2xx']:.0f} |")
        codes_ = ", ".join(f"{c}: {sum(1 for k, _ in submitted if k == c)}"
                           for c in sorted({k for k, _ in submitted}))
        times_ = [t for _, t in submitted]
        print(f"| `POST /api/runs/`, a valid 1,000-job scenario, one at a time | "
              f"{len(submitted) / args.duration:.1f} | {pct(times_, 50):.1f} | {pct(times_, 90):.1f} | "
              f"{pct(times_, 99):.1f} | {sum(1 for k, _ in submitted if not 200 <= k < 300)} ({codes_}) |")
        print("\n| hostile request | sent | answers | p50 ms | p99 ms |")
        print("| --- | --- | --- | --- | --- |")
        for label, seen in hostile.items():
            codes: dict[int, int] = {}
            for code, _ in seen:
                codes[code] = codes.get(code, 0) + 1
            times = [t for _, t in seen]
            answers = ", ".join(f"{c}: {n}" for c, n in sorted(codes.items()))
            print(f"| {label} | {len(seen)} | {answers} | {pct(times, 50):.1f} | {pct(times, 99):.1f} |")
        print(f"\nWeb processes' resident memory (gunicorn master and its {len(pids) - 1} workers): "
              f"{memory[0]:.0f} MB at the start, {max(memory):.0f} MB at the peak, {memory[-1]:.0f} MB "
              f"at the end ({len(memory)} samples).")
    finally:
        stack.down()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
