"""Workers killed at random moments while runs of every kind execute: no run is lost.

The production topology (PostgreSQL, Redis, gunicorn, a prefork worker and a standalone beat,
as docker-compose runs them) with short leases. Twenty runs of every kind and three sweeps are
submitted; a seeded killer sends ``kill -9`` at random moments, either to one pool process of
the worker or to the whole worker (which is then started again, as compose's restart policy
does), a bounded number of times. Then every run has ended succeeded, or failed with a reason,
within the bound; each has one result per variant; the results equal those of a clean run of
the same request (submitted again with no fault); no solver process and no solver folder is
left.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.planner_stack import ROOT, Stack
from tests.planner.kinds.allocation.documents import table_one
from tests.planner.kinds.sharing.documents import two_frameworks

pytestmark = pytest.mark.e2e

FAST = {
    "PLANNER_PART_HEARTBEAT_S": "2",
    "PLANNER_PART_LEASE_S": "6",
    "PLANNER_REAP_INTERVAL_S": "3",
    "PLANNER_PART_RESEND_S": "5",
    "PLANNER_PART_MAX_ATTEMPTS": "4",
}
SEED = 20261126
KILLS = 8
#: Each run ends within this many seconds of the last kill (leases of 6 s, a reaper every 3 s,
#: at most four attempts of each part, on a loaded 2-core machine).
BOUND_S = 900


@pytest.fixture(scope="module")
def stack_options() -> dict[str, Any]:
    # Workers without an embedded beat and one standalone beat, as docker-compose runs them: the
    # killer kills workers, and compose's beat is a service of its own (restarted if it dies).
    return {"env": FAST, "worker_concurrency": 2, "worker": False}


def light(jobs: int) -> dict[str, Any]:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:jobs]
    doc["name"] = f"first {jobs} jobs"
    return doc


def requests() -> list[dict[str, Any]]:
    """Twenty runs of every kind, a few parts each, and three sweeps."""
    mrsu_input = json.loads((ROOT / "examples" / "mrsu" / "example.json").read_text())
    udrf = json.loads((ROOT / "examples" / "paper004-fig1.json").read_text())
    out: list[dict[str, Any]] = []
    for i in range(8):
        out.append({"kind": "compare", "scenario": light(60 + 20 * i), "seed": i,
                    "schedulers": ["edf-bfd", "morpheus", "edf-ilp:ilp_method=binary"]})
    out += [{"kind": "allocation", "scenario": table_one()} for _ in range(3)]
    out += [{"kind": "sharing", "scenario": two_frameworks()} for _ in range(3)]
    out += [{"kind": "mrsu", "requirements": "input", "input": mrsu_input,
             "sweep": {"loads": [0.5, 1.2], "seeds": 2, "applications": 5, "slots": 4}} for _ in range(2)]
    out += [{"kind": "udrf", "scenario": udrf} for _ in range(2)]
    out += [{"kind": "reproduce", "papers": ["000"], "seeds": 1} for _ in range(2)]
    out += [{"kind": "sweep", "scenario": light(300), "vary": {"counts.m1.large": [2, 4]},
             "schedulers": ["edf-bfd", "morpheus"], "seeds": 1} for _ in range(3)]
    assert len(out) == 23
    return out


TIMING = ("delay", "_ms", "elapsed", "wall", "solve_time", "runtime", "seconds_taken")


def comparable(value: Any) -> Any:
    """A summary without what measures the machine rather than the computation."""
    if isinstance(value, dict):
        return {k: comparable(v) for k, v in value.items() if not any(t in k for t in TIMING)}
    if isinstance(value, list):
        return [comparable(v) for v in value]
    return value


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def live_worker(stack: Stack) -> subprocess.Popen[bytes] | None:
    def is_worker(p: subprocess.Popen[bytes]) -> bool:
        args = [str(a) for a in p.args]  # type: ignore[union-attr]
        return any(a.endswith("celery") for a in args) and "worker" in args and p.poll() is None

    alive = (p for p in reversed(stack.procs) if is_worker(p))
    return next(alive, None)


def test_runs_of_every_kind_survive_workers_killed_at_random(stack: Stack) -> None:
    stack.start_beat()
    stack.start_worker("worker", beat=False)
    token = stack.token()
    asked = requests()

    def submit(request: dict[str, Any]) -> int:
        status, _, body = stack.call("POST", "/api/runs/", request, token=token)
        assert status == 201, (request["kind"], body[:500])
        return int(json.loads(body)["id"])

    def state(run_id: int) -> dict[str, Any]:
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=token)
        assert status == 200, body
        return dict(json.loads(body))

    def wait_all(runs: list[int], bound: float) -> dict[int, dict[str, Any]]:
        deadline = time.monotonic() + bound
        while True:
            states = {r: state(r) for r in runs}
            if all(s["status"] in ("succeeded", "failed", "cancelled") for s in states.values()):
                return states
            statuses = {r: s["status"] for r, s in states.items()}
            assert time.monotonic() < deadline, (statuses, stack.log("worker"))
            time.sleep(1)

    def summaries(run_id: int) -> dict[str, Any]:
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/", token=token)
        assert status == 200, body
        results = json.loads(body)["results"]
        variants = [r["variant"] for r in results]
        assert len(variants) == len(set(variants)), f"run {run_id}: a variant stored twice: {variants}"
        return {r["variant"]: comparable(r["summary"]) for r in results}

    runs = [submit(r) for r in asked]
    rng = random.Random(SEED)
    kills: list[str] = []
    restarts = 0
    exits = 0  # workers that exited by themselves after a kill, started again
    for _ in range(KILLS):
        time.sleep(rng.uniform(1.0, 6.0))  # the fault's moment, drawn from the seed
        if all(state(r)["status"] in ("succeeded", "failed") for r in runs):
            break
        worker = live_worker(stack)
        if worker is None:
            # It exited by itself: a pool process killed before the worker's event loop began
            # makes Celery give up ("Could not start worker processes"). Compose starts it again.
            restarts += 1
            exits += 1
            worker = stack.start_worker(f"worker-restart-{restarts}", beat=False)
        pool = children(worker.pid)
        if pool and rng.random() < 0.6:
            victim = rng.choice(pool)
            os.kill(victim, signal.SIGKILL)  # one pool process: the worker replaces it
            kills.append("pool process")
        else:
            os.kill(worker.pid, signal.SIGKILL)  # the whole worker, as the OOM killer or a lost machine
            worker.wait(timeout=10)
            restarts += 1
            stack.start_worker(f"worker-restart-{restarts}", beat=False)  # compose restarts it
            kills.append("whole worker")
    last_kill = time.monotonic()
    if live_worker(stack) is None:
        stack.start_worker("worker-final", beat=False)

    ended = wait_all(runs, BOUND_S)
    took = time.monotonic() - last_kill
    for r, s in ended.items():
        assert s["status"] in ("succeeded", "failed"), (r, s)
        if s["status"] == "failed":
            assert s["error"].strip(), f"run {r} failed without a reason"

    # A clean run of every request, no faults: the same results.
    clean = [submit(r) for r in asked]
    clean_ended = wait_all(clean, BOUND_S)
    failures = {r: (s["status"], s["error"][:500]) for r, s in clean_ended.items()
                if s["status"] != "succeeded"}
    assert not failures, failures
    for request, faulted, fresh in zip(asked, runs, clean, strict=True):
        if ended[faulted]["status"] != "succeeded":
            continue
        assert summaries(faulted) == summaries(fresh), (request["kind"], faulted, fresh)

    # No solver process of the killed workers is left, nor any solver folder.
    leftovers = subprocess.run(["pgrep", "-f", "cbc"], capture_output=True, text=True).stdout.split()
    mine = [p for p in leftovers if Path(f"/proc/{p}/environ").exists()
            and stack.env["PLANNER_WORK_DIR"].encode() in Path(f"/proc/{p}/environ").read_bytes()]
    assert not mine, mine
    work = Path(stack.env["PLANNER_WORK_DIR"])
    deadline = time.monotonic() + 60  # a restarted worker cleans the folders of dead ones when it starts
    while any(work.glob("part-*")) and time.monotonic() < deadline:
        time.sleep(1)
    assert not any(work.glob("part-*")), list(work.glob("part-*"))
    failed = sum(s["status"] == "failed" for s in ended.values())
    print(f"\nchaos: {len(kills)} kills ({kills.count('pool process')} pool processes, "
          f"{kills.count('whole worker')} whole workers; {exits} workers exited after a kill and were "
          f"started again); {len(runs) - failed} of {len(runs)} runs "
          f"succeeded, {failed} failed with a reason; all ended {took:.0f} s after the last kill")
