"""The broker restarted under load: no run lost, none duplicated, no 500 while it is down.

The test starts a Redis of its own (without persistence, as docker-compose runs it) on a free
port and uses it as the stack's broker; only that Redis is killed and started again. With
10 parts running and 50 runs queued, Redis is killed (every queued message is gone), three
runs are submitted while it is down (each answered 201, queued, never a 500), and Redis is
started again, empty: every run completes, with one result per variant.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.planner_stack import ROOT, Stack

pytestmark = pytest.mark.e2e

FAST = {
    "PLANNER_PART_HEARTBEAT_S": "2",
    "PLANNER_PART_LEASE_S": "8",
    "PLANNER_REAP_INTERVAL_S": "3",
    "PLANNER_PART_RESEND_S": "5",
}
SLOW = "edf-ilp:ilp_method=binary"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class OwnRedis:
    """A redis-server this test owns: started, killed and started again on one port."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is installed with the machine's Redis"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the test's redis-server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnRedis]:
    if not shutil.which("redis-server"):
        pytest.skip("redis-server not installed")
    redis = OwnRedis(tmp_path_factory.mktemp("redis"))
    redis.start()
    yield redis
    if redis.proc is not None and redis.proc.poll() is None:
        redis.kill()


@pytest.fixture(scope="module")
def stack_options(own_redis: OwnRedis) -> dict[str, Any]:
    broker = {"CELERY_BROKER_URL": f"redis://127.0.0.1:{own_redis.port}/0"}
    return {"env": {**FAST, **broker}, "worker_concurrency": 10}


def scenario(jobs: int) -> dict[str, Any]:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:jobs]
    doc["name"] = f"first {jobs} jobs"
    return doc


def test_a_broker_restart_loses_and_duplicates_no_run(stack: Stack, own_redis: OwnRedis) -> None:
    token = stack.token()

    def submit(schedulers: list[str], jobs: int) -> int:
        request = {"scenario": scenario(jobs), "schedulers": schedulers}
        status, _, body = stack.call("POST", "/api/runs/", request, token=token)
        assert status == 201, body
        return int(json.loads(body)["id"])

    def progress(run_id: int) -> dict[str, Any]:
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=token)
        assert status == 200, body
        return dict(json.loads(body))

    slow = [submit([SLOW], 150) for _ in range(10)]
    quick = [submit(["edf-bfd"], 30) for _ in range(50)]
    deadline = time.monotonic() + 300
    while sum(progress(r)["status"] == "running" for r in slow) < 10:
        assert time.monotonic() < deadline, stack.log("worker")
        time.sleep(0.5)
    queued = sum(progress(r)["status"] == "queued" for r in quick)

    own_redis.kill()  # every message in the broker is gone with it
    down = [submit(["edf-bfd"], 30) for _ in range(3)]  # 201 and queued, not a 500
    assert all(progress(r)["status"] == "queued" for r in down)
    notes = [p["error"] for r in down for p in progress(r)["parts"]]
    assert all("waiting for the task broker" in n for n in notes), notes
    own_redis.start()  # empty: no persistence

    runs = slow + quick + down
    deadline = time.monotonic() + 900
    while True:
        states = {r: progress(r)["status"] for r in runs}
        if all(s in ("succeeded", "failed", "cancelled") for s in states.values()):
            break
        assert time.monotonic() < deadline, (states, stack.log("worker"))
        time.sleep(1)
    assert set(states.values()) == {"succeeded"}, {r: s for r, s in states.items() if s != "succeeded"}
    for r in runs:
        status, _, body = stack.call("GET", f"/api/runs/{r}/", token=token)
        assert status == 200, body
        assert len(json.loads(body)["results"]) == 1, (r, body[:500])
    print(f"\nbroker restart: {queued} of 50 quick runs still queued and 10 running when Redis was killed; "
          f"all {len(runs)} runs succeeded, one result each")
