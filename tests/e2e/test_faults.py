"""No run or part is ever stuck: faults injected into the real stack.

The production topology (PostgreSQL, Redis, gunicorn, a prefork Celery worker with the
embedded beat) with short leases, so that recovery takes seconds: a worker renews its lease
every 2 s, a lease lapses after 6 s and the reaper runs every 3 s (production: 15, 60 and
30 s; docs/architecture.md gives the bounds, benchmarks/recovery.py measures them).

* a worker killed with ``kill -9`` mid-part: its children (pool processes, the beat) die
  with it, the part is back in the queue within the lease and a reaper round, a new
  worker finishes the run, and the solver files of the killed attempt are removed;
* a run cancelled while its worker is dead ends "cancelled" at once;
* a message lost with the broker's data (Redis without persistence restarted) is sent
  again and the run completes;
* two parts of one run execute at the same time on the worker's two processes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.planner_stack import ROOT, Stack

pytestmark = pytest.mark.e2e

FAST = {
    "PLANNER_PART_HEARTBEAT_S": "2",
    "PLANNER_PART_LEASE_S": "6",
    "PLANNER_REAP_INTERVAL_S": "3",
    "PLANNER_PART_RESEND_S": "5",
}
#: A part that takes seconds and writes solver files: the paper's binary ILP (CBC, through
#: files in $TMPDIR) on the first jobs of the authors' light workload.
SLOW = "edf-ilp:ilp_method=binary"


@pytest.fixture(scope="module")
def stack_options() -> dict[str, Any]:
    return {"env": FAST, "worker_concurrency": 2}


def scenario(jobs: int) -> dict[str, Any]:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:jobs]
    doc["name"] = f"first {jobs} jobs"
    return doc


def progress(stack: Stack, token: str, run_id: int) -> dict[str, Any]:
    status, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=token)
    assert status == 200, body
    return dict(json.loads(body))


def wait_until(predicate: Any, timeout: float, what: str, stack: Stack) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} within {timeout} s; worker log:\n{stack.log('worker')}")


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (killed, not yet reaped by its new parent) is dead for our purpose.
    state = Path(f"/proc/{pid}/stat")
    return state.exists() and state.read_text().split(")")[-1].split()[0] != "Z"


def kill_worker(stack: Stack) -> list[int]:
    """``kill -9`` the worker's main process only, as the OOM killer would; returns its children."""
    proc = next(
        p for p in reversed(stack.procs) if "celery" in " ".join(map(str, p.args)) and p.poll() is None
    )
    kids = children(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    return kids


def test_two_parts_of_a_run_execute_at_the_same_time(stack: Stack) -> None:
    token = stack.token()
    schedulers = [SLOW, f"{SLOW},rut.cpu=0.5,rut.mem=0.5"]
    status, _, body = stack.call(
        "POST", "/api/runs/", {"scenario": scenario(120), "schedulers": schedulers}, token=token
    )
    assert status == 201, body
    run_id = json.loads(body)["id"]

    def running() -> int:
        return sum(p["status"] == "running" for p in progress(stack, token, run_id)["parts"])

    wait_until(lambda: running() == 2, 60, "both parts running", stack)
    final, _ = stack.wait_for_run(token, run_id, timeout=300)
    assert final["status"] == "succeeded", final


def test_a_killed_worker_loses_no_part(stack: Stack) -> None:
    token = stack.token()
    work = Path(stack.env["PLANNER_WORK_DIR"])
    status, _, body = stack.call(
        "POST", "/api/runs/", {"scenario": scenario(200), "schedulers": [SLOW]}, token=token
    )
    assert status == 201, body
    run_id = json.loads(body)["id"]
    wait_until(
        lambda: progress(stack, token, run_id)["parts"][0]["progress"] > 0.05,
        120,
        "the part under way",
        stack,
    )
    # The binary ILP writes its model files in the part's folder; CBC removes each decision's
    # files when it is solved, so look until one is there rather than at one instant.
    wait_until(lambda: any(work.glob("part-*/*")), 30, "the ILP's files in the part's folder", stack)

    kids = kill_worker(stack)
    killed_at = time.monotonic()
    # The worker's children die with it: the pool processes and the embedded beat.
    assert kids, "a prefork worker with --beat has child processes"
    wait_until(lambda: not any(alive(k) for k in kids), 15, "the killed worker's children gone", stack)

    # With no worker alive, the reaper does not run; a new worker (and its beat) takes over.
    stack.start_worker("worker-2")
    part = wait_until(
        lambda: next((p for p in progress(stack, token, run_id)["parts"] if p["attempts"] >= 2), None),
        60, "the lost part claimed again", stack,
    )
    requeued_after = time.monotonic() - killed_at
    final, _ = stack.wait_for_run(token, run_id, timeout=300)
    assert final["status"] == "succeeded", (final, stack.log("worker-2"))
    assert final["parts"][0]["attempts"] == 2 and part["status"] in ("queued", "running", "succeeded")
    # lease 6 s + reaper 3 s + the new worker's start-up; generous for a loaded machine
    assert requeued_after < 45, requeued_after
    assert not list(work.glob("part-*")), "solver folders of the killed attempt were removed"


def test_cancelling_a_run_whose_worker_died_ends_it_at_once(stack: Stack) -> None:
    token = stack.token()
    status, _, body = stack.call(
        "POST", "/api/runs/", {"scenario": scenario(200), "schedulers": [SLOW]}, token=token
    )
    assert status == 201, body
    run_id = json.loads(body)["id"]
    wait_until(lambda: progress(stack, token, run_id)["status"] == "running", 120, "the run running", stack)
    kill_worker(stack)
    status, _, body = stack.call("POST", f"/api/runs/{run_id}/cancel/", token=token)
    assert status == 200, body
    assert json.loads(body)["status"] == "cancelled"
    stack.start_worker("worker-3")


def test_a_message_lost_with_the_broker_is_sent_again(stack: Stack) -> None:
    import redis

    token = stack.token()
    kill_worker(stack)
    status, _, body = stack.call(
        "POST", "/api/runs/", {"scenario": scenario(60), "schedulers": ["edf-bfd"]}, token=token
    )
    assert status == 201, body
    run_id = json.loads(body)["id"]
    # Redis restarted without persistence: the queued message is gone.
    stack_redis = redis.Redis(
        host="127.0.0.1", port=6379, db=int(stack.env["CELERY_BROKER_URL"].rsplit("/", 1)[1])
    )
    stack_redis.flushdb()
    stack.start_worker("worker-4")
    final, _ = stack.wait_for_run(token, run_id, timeout=120)
    assert final["status"] == "succeeded", (final, stack.log("worker-4"))
    assert final["parts"][0]["attempts"] == 1
