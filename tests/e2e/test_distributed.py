"""Workers on several machines: two worker "hosts" share only the broker and the database.

The production topology of docs/deploy.md with two worker processes that stand for two
machines: each has its own Celery node name (``-n worker@host-a``), its own working
directory and its own temporary folder (no shared disk), and neither runs the beat; one
standalone beat runs the reaper, as docker-compose's ``beat`` service does. Web and workers
pass nothing through local files: the scenario, the parts and the results go through
PostgreSQL, the messages through Redis.

* a multi-part run is executed by both hosts;
* one host killed (``kill -9``) mid-part: every part still ends exactly once, and the run's
  results equal what the library computes for the same scenario in this process (one worker,
  no broker, no database).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import pytest

from tests.e2e.planner_stack import ROOT, Stack

pytestmark = pytest.mark.e2e

T = TypeVar("T")

#: Short leases, so that a lost part is back in the queue within seconds (production: 15, 60
#: and 30 s; docs/architecture.md gives the bounds).
FAST = {
    "PLANNER_PART_HEARTBEAT_S": "2",
    "PLANNER_PART_LEASE_S": "6",
    "PLANNER_REAP_INTERVAL_S": "3",
    "PLANNER_PART_RESEND_S": "5",
}
#: Parts that take seconds each: the paper's binary ILP (CBC through files in $TMPDIR).
SLOW = "edf-ilp:ilp_method=binary"
SCHEDULERS = [SLOW, f"{SLOW},rut.cpu=0.5,rut.mem=0.5", "edf-bfd", "morpheus"]
HOSTS = ("host-a", "host-b")


@pytest.fixture(scope="module")
def stack_options() -> dict[str, Any]:
    return {"env": FAST, "worker": False}


def scenario(jobs: int) -> dict[str, Any]:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:jobs]
    doc["name"] = f"first {jobs} jobs"
    return doc


def wait_until(predicate: Callable[[], T], timeout: float, what: str, stack: Stack) -> T:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    logs = "\n".join(f"--- {h}\n{stack.log(h)}" for h in (*HOSTS, "beat"))
    raise AssertionError(f"{what} within {timeout} s; logs:\n{logs}")


def machine(stack: Stack, tmp: Path, host: str) -> dict[str, Path]:
    """The folders of a worker machine: nothing of them is shared with another."""
    home = tmp / host
    folders = {"home": home, "tmp": home / "tmp", "work": home / "work"}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    return folders


def start_host(stack: Stack, tmp: Path, host: str) -> subprocess.Popen[bytes]:
    folders = machine(stack, tmp, host)
    env = {"TMPDIR": str(folders["tmp"]), "PLANNER_WORK_DIR": str(folders["work"]),
           "HOME": str(folders["home"])}
    return stack.start_worker(host, beat=False, node=f"worker@{host}", env=env, cwd=folders["home"],
                              concurrency=1)


def ready(stack: Stack, host: str) -> bool:
    return f"worker@{host} ready" in stack.log(host)


def progress(stack: Stack, token: str, run_id: int) -> dict[str, Any]:
    status, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=token)
    assert status == 200, body
    return dict(json.loads(body))


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """A result document without what measures the machine rather than the schedule."""
    doc = {k: v for k, v in document.items() if k != "scheduling_delay"}
    if isinstance(doc.get("ilp"), dict):
        doc["ilp"] = {k: v for k, v in doc["ilp"].items() if "time" not in k and not k.endswith("_ms")}
    return doc


def reference(doc: dict[str, Any], spec: str) -> dict[str, Any]:
    """What one process computes for ``spec`` on ``doc``: the library, no broker, no database."""
    from scheduling import lower_bound_cost, parse_scenario, simulate

    sc = parse_scenario(doc)
    return comparable(simulate(sc, scheduler=spec, seed=0, lower_bound=lower_bound_cost(sc)).to_dict())


def start(stack: Stack, token: str, doc: dict[str, Any]) -> int:
    body_in = {"scenario": doc, "schedulers": SCHEDULERS}
    status, _, body = stack.call("POST", "/api/runs/", body_in, token=token)
    assert status == 201, body
    return int(json.loads(body)["id"])


def results(stack: Stack, token: str, run_id: int) -> dict[str, dict[str, Any]]:
    out = {}
    for spec in SCHEDULERS:
        path = f"/api/runs/{run_id}/results/{quote(spec, safe='')}/"
        status, _, body = stack.call("GET", path, token=token)
        assert status == 200, (spec, body[:300])
        out[spec] = comparable(json.loads(body))
    return out


@pytest.fixture(scope="module")
def hosts(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.Popen[bytes]]:
    tmp = tmp_path_factory.mktemp("machines")
    stack.start_beat()
    procs = {host: start_host(stack, tmp, host) for host in HOSTS}
    for host in HOSTS:
        wait_until(lambda h=host: ready(stack, h), 120, f"{host}'s worker ready", stack)
    return procs


def test_a_run_is_executed_by_workers_on_both_machines(stack: Stack, hosts: dict[str, Any]) -> None:
    token = stack.token()
    doc = scenario(120)
    run_id = start(stack, token, doc)
    final, _ = stack.wait_for_run(token, run_id, timeout=600)
    assert final["status"] == "succeeded", final
    nodes = {p["worker"].split(":")[0] for p in final["parts"]}
    # Each host takes one message at a time (prefetch 1, late acknowledgement) and the two
    # ILP parts take seconds: while one host solves, the other takes the next part.
    assert nodes == {f"worker@{h}" for h in HOSTS}, final["parts"]
    assert all(p["attempts"] == 1 for p in final["parts"]), final["parts"]
    assert results(stack, token, run_id) == {spec: reference(doc, spec) for spec in SCHEDULERS}


def test_a_sweep_is_executed_by_workers_on_both_machines(stack: Stack, hosts: dict[str, Any]) -> None:
    """A sweep's batches of points go to both hosts; every point equals the library's sweep of
    the same scenario in this process."""
    from scheduling.sweep import sweep

    token = stack.token()
    doc = scenario(400)  # 400 jobs: about 10 points a part (scheduling.sweep.expand.point_batches)
    params = {"vary": {"counts.m1.large": [1, 2, 3, 4, 6, 8]}, "schedulers": ["edf-bfd", "morpheus"],
              "seeds": 2}
    request = {"kind": "sweep", "scenario": doc, **params}
    status, _, body = stack.call("POST", "/api/runs/", request, token=token)
    assert status == 201, body
    run_id = int(json.loads(body)["id"])
    final, _ = stack.wait_for_run(token, run_id, timeout=600)
    assert final["status"] == "succeeded", final
    assert len(final["parts"]) >= 2 and all(p["attempts"] == 1 for p in final["parts"]), final["parts"]
    nodes = {p["worker"].split(":")[0] for p in final["parts"]}
    assert nodes == {f"worker@{h}" for h in HOSTS}, final["parts"]
    status, _, body = stack.call("GET", f"/api/runs/{run_id}/", token=token)
    assert status == 200, body
    stored = {int(r["summary"]["point"]): r["summary"] for r in json.loads(body)["results"]}
    here = {int(p["point"]): p for p in sweep(doc, params)["points"]}
    assert sorted(stored) == sorted(here) and len(here) == 6 * 2 * 2
    figures = ("total_cost", "deadline_missed", "mean_completion_s", "makespan_s", "vms")
    assert {n: [p.get(k) for k in figures] for n, p in stored.items()} == {
        n: [p.get(k) for k in figures] for n, p in here.items()
    }


def test_a_machine_lost_mid_part_loses_and_repeats_nothing(stack: Stack, hosts: dict[str, Any]) -> None:
    token = stack.token()
    doc = scenario(200)
    run_id = start(stack, token, doc)

    def running_on_a() -> dict[str, Any] | None:
        parts = progress(stack, token, run_id)["parts"]
        return next(
            (p for p in parts if p["status"] == "running" and p["worker"].startswith("worker@host-a:")
             and p["progress"] > 0.02),
            None,
        )

    lost = wait_until(running_on_a, 300, "a part under way on host-a", stack)
    victim = hosts["host-a"]
    os.kill(victim.pid, signal.SIGKILL)  # the machine is gone: its pool child dies with it
    victim.wait(timeout=10)

    final, _ = stack.wait_for_run(token, run_id, timeout=600)
    assert final["status"] == "succeeded", (final, stack.log("host-b"))
    by_id = {p["id"]: p for p in final["parts"]}
    # The lost part ran again, on the machine that is left; every other part ran once.
    assert by_id[lost["id"]]["attempts"] == 2 and by_id[lost["id"]]["worker"].startswith("worker@host-b:")
    assert all(p["attempts"] == 1 for pid, p in by_id.items() if pid != lost["id"]), final["parts"]
    # One result per variant (the API lists the run's results once each) ...
    status, _, body = stack.call("GET", f"/api/runs/{run_id}/", token=token)
    assert status == 200, body
    listed = [r["variant"] for r in json.loads(body)["results"]]
    assert sorted(listed) == sorted(SCHEDULERS), listed
    # ... equal to one process's computation of the same scenario.
    assert results(stack, token, run_id) == {spec: reference(doc, spec) for spec in SCHEDULERS}
    # host-b's solver folders are removed; nothing was written outside each machine's folders.
    tmp_b = Path(stack.logs).parent
    assert not any(p for p in tmp_b.glob("machines*/host-b/work/part-*")), "host-b left solver folders"
