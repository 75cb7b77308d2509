"""The database restarted during runs: no run or part stays running or queued for ever.

The stack reaches PostgreSQL through a TCP proxy that this test owns: stopping it drops
every connection of the web and worker processes and refuses new ones, as a database restart
does, without touching the machine's PostgreSQL. The outage lasts longer than a part's lease.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.planner_stack import PG, ROOT, Stack, missing_services

pytestmark = pytest.mark.e2e

FAST = {
    "PLANNER_PART_HEARTBEAT_S": "2",
    "PLANNER_PART_LEASE_S": "6",
    "PLANNER_REAP_INTERVAL_S": "3",
    "PLANNER_PART_RESEND_S": "5",
}
SLOW = "edf-ilp:ilp_method=binary"
OUTAGE_S = 15


class Proxy:
    """A TCP proxy to PostgreSQL that can be stopped (every connection cut) and started again."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.listener: socket.socket | None = None
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(PG, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        assert self.listener is not None
        self.listener.close()
        with self.lock:
            for s in self.conns:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.conns = []


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, Proxy]]:
    missing = missing_services()
    if missing:
        pytest.skip(f"{' and '.join(missing)} not reachable on 127.0.0.1")
    proxy = Proxy()
    proxy.start()
    stack = Stack(tmp_path_factory.mktemp("db-restart"), env=FAST, worker_concurrency=2)
    stack.env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{proxy.port}/{stack.db}"
    try:
        stack.up()
        yield stack, proxy
    finally:
        stack.down()
        proxy.stop()


def scenario(jobs: int) -> dict[str, Any]:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:jobs]
    doc["name"] = f"first {jobs} jobs {secrets.token_hex(2)}"
    return doc


def test_no_run_is_left_running_or_queued_after_a_database_restart(proxied: tuple[Stack, Proxy]) -> None:
    stack, proxy = proxied
    token = stack.token()

    def submit(schedulers: list[str], jobs: int) -> int:
        request = {"scenario": scenario(jobs), "schedulers": schedulers}
        status, _, body = stack.call("POST", "/api/runs/", request, token=token)
        assert status == 201, body
        return int(json.loads(body)["id"])

    def progress(run_id: int) -> dict[str, Any]:
        # After the outage too: the web processes check a kept connection before using it
        # (CONN_HEALTH_CHECKS), so a dead one is replaced, not answered with a 500.
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=token)
        assert status == 200, (status, body[:300])
        return dict(json.loads(body))

    runs = [submit([SLOW, "edf-bfd"], 150) for _ in range(3)] + [submit(["morpheus"], 40) for _ in range(6)]
    deadline = time.monotonic() + 300
    while not any(p["status"] == "running" for p in progress(runs[0])["parts"]):
        assert time.monotonic() < deadline, stack.log("worker")
        time.sleep(0.3)

    proxy.stop()
    time.sleep(OUTAGE_S)  # the fault's length, not a wait for a state: longer than a lease (6 s)
    proxy.start()

    started = time.monotonic()
    deadline = started + 900
    while True:
        states = {r: progress(r)["status"] for r in runs}
        if all(s in ("succeeded", "failed", "cancelled") for s in states.values()):
            break
        assert time.monotonic() < deadline, (states, stack.log("worker"))
        time.sleep(1)
    ended_after = time.monotonic() - started
    failed = {r: progress(r) for r, s in states.items() if s != "succeeded"}
    # Every run ended; one that failed says why (none is expected to).
    assert not failed, {r: (p["error"], [q["error"] for q in p["parts"]]) for r, p in failed.items()}
    print(f"\ndatabase restart: {OUTAGE_S} s outage with parts running; all {len(runs)} runs succeeded "
          f"{ended_after:.0f} s after it ended")
