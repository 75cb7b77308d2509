"""A part that needs more memory than its worker has: the kernel kills its process, the part
fails after the last attempt with that reason, and other runs go on.

The production topology (PostgreSQL, Redis, gunicorn, a prefork worker of two processes and a
standalone beat, as docker-compose runs them) with short leases. The worker runs under a real
memory limit (:mod:`tests.e2e.memory_limit`: a memory cgroup of the test's own, without swap,
as a container's memory limit), which the worker's main process and its pool processes share:

* small runs fit: they succeed and nothing in the cgroup is killed (their peak is measured);
* a comparison of 100,000 jobs (its pool process reaches about 820 MB without a limit) is
  submitted; its pool process is killed by the kernel's out-of-memory killer (``SIGKILL``) at
  every attempt, the worker's main process survives and starts a new pool process each time;
* meanwhile the same team's runs, queued behind it while its first attempt runs, and another
  team's, submitted after the first kill, succeed; the other team's all before the big run
  ends, and the same team's at least in part: the part being retried blocks nothing but its
  own slot;
* after ``PLANNER_PART_MAX_ATTEMPTS`` claims the part ends FAILED with the reason the worker
  noted (``its worker process died: ... signal 9 (SIGKILL) (killed: most often the kernel's
  out-of-memory killer)``), the run fails with it, and the kernel killed exactly one process
  per attempt.

Skipped when no memory cgroup can be made (neither cgroup v1's memory controller nor a
delegated cgroup v2 one is writable). The figures are printed (``-s``) and recorded in
docs/reliability.md.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from planner.runs.models import PROCESS_LOST
from tests.e2e.memory_limit import MemoryLimit, Unavailable
from tests.e2e.planner_stack import ROOT, Stack

pytestmark = pytest.mark.e2e

MAX_ATTEMPTS = 3  # production's default PLANNER_PART_MAX_ATTEMPTS, set here so the test reads it
FAST = {
    "PLANNER_PART_HEARTBEAT_S": "2",
    "PLANNER_PART_LEASE_S": "6",
    "PLANNER_REAP_INTERVAL_S": "3",
    "PLANNER_PART_RESEND_S": "5",
    "PLANNER_PART_MAX_ATTEMPTS": str(MAX_ATTEMPTS),
}
MB = 2**20
#: The worker's memory, its main process and pool processes together. Measured on the
#: development machine: after small runs the worker's cgroup holds about 230-250 MB (main
#: process 165 MB resident, each pool process 130-140 MB, much of it shared); the big part's
#: pool process alone reaches 818 MB without a limit.
LIMIT_BYTES = 400 * MB
BIG_JOBS = 100_000
#: The same team's runs submitted while the big part runs: 24 parts of the whole light workload.
BACKLOG_RUNS = 8
BACKLOG_SCHEDULERS = ["edf-bfd", "fifo-consolidate", "morpheus"]
#: Every wait is for a state; this only bounds a wait that would never end (a loaded machine).
BOUND_S = 900


@pytest.fixture(scope="module")
def stack_options() -> dict[str, Any]:
    # The beat on its own (as compose runs it), outside the limit: the worker alone is limited.
    return {"env": FAST, "worker_concurrency": 2, "worker": False}


@pytest.fixture
def memory_limit() -> Iterator[MemoryLimit]:
    try:
        limit = MemoryLimit("oom", LIMIT_BYTES)
    except Unavailable as exc:
        pytest.skip(f"no memory limit can be set on the test's worker: {exc}")
    try:
        yield limit
    finally:
        limit.remove()


def small(jobs: int) -> dict[str, Any]:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:jobs]
    doc["name"] = f"first {jobs} jobs"
    return doc


def big(jobs: int) -> dict[str, Any]:
    """The authors' light workload repeated, one copy after another in time, to ``jobs`` jobs."""
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    base = doc["jobs"]
    span = max(j["arrival_s"] for j in base) + 1
    out = []
    for i in range(jobs):
        job = dict(base[i % len(base)])
        shift = (i // len(base)) * span
        job["id"] = f"job-{i}"
        job["arrival_s"] += shift
        if "deadline_s" in job:
            job["deadline_s"] += shift
        out.append(job)
    doc["jobs"] = out
    doc["name"] = f"{jobs} jobs"
    return doc


def when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def peak_rss_mb(pid: int) -> int:
    """The process's peak resident memory so far (VmHWM), 0 once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
    return int(found.group(1)) // 1024 if found else 0


def kernel_kills(pids: set[int]) -> dict[int, int]:
    """The resident memory (MB) the kernel's log gives for each of ``pids`` it killed for lack
    of memory; empty where the log cannot be read (``dmesg`` restricted)."""
    out = subprocess.run(["dmesg"], capture_output=True, text=True)
    found = {}
    for m in re.finditer(r"Killed process (\d+) .*?anon-rss:(\d+)kB, file-rss:(\d+)kB, shmem-rss:(\d+)kB",
                         out.stdout):
        pid = int(m.group(1))
        if pid in pids:
            found[pid] = (int(m.group(2)) + int(m.group(3)) + int(m.group(4))) // 1024
    return found


def test_a_part_killed_for_memory_fails_after_the_last_attempt_and_blocks_nothing(
    stack: Stack, memory_limit: MemoryLimit
) -> None:
    stack.start_beat()
    worker = stack.start_worker("worker", beat=False, wrap=memory_limit.enter)
    token_a = stack.token()
    token_b, team_b = stack.other_team()
    tokens: dict[int, str] = {}

    def submit(token: str, request: dict[str, Any]) -> int:
        status, _, body = stack.call("POST", "/api/runs/", request, token=token)
        assert status == 201, body[:500]
        run_id = int(json.loads(body)["id"])
        tokens[run_id] = token
        return run_id

    def state(run_id: int) -> dict[str, Any]:
        status, _, body = stack.call("GET", f"/api/runs/{run_id}/progress/", token=tokens[run_id])
        assert status == 200, body
        return dict(json.loads(body))

    peaks: dict[int, int] = {}  # pool process -> its peak resident memory seen (MB)

    def look() -> None:
        for pid in children(worker.pid):
            peaks[pid] = max(peaks.get(pid, 0), peak_rss_mb(pid))

    def wait(what: str, predicate: Any) -> Any:
        deadline = time.monotonic() + BOUND_S
        while True:
            look()
            value = predicate()
            if value:
                return value
            assert worker.poll() is None, f"the worker's main process died; log:\n{stack.log('worker')}"
            assert time.monotonic() < deadline, f"{what}; worker log:\n{stack.log('worker')}"
            time.sleep(0.3)

    def ended(runs: list[int]) -> dict[int, dict[str, Any]] | None:
        states = {r: state(r) for r in runs}
        return states if all(s["finished"] for s in states.values()) else None

    # Small runs fit under the limit.
    warm = [
        submit(token_a, {"scenario": small(1000), "schedulers": BACKLOG_SCHEDULERS}),
        submit(token_b, {"team": team_b, "scenario": small(100), "schedulers": ["edf-bfd", "morpheus"]}),
        submit(token_b, {"team": team_b, "scenario": small(140), "schedulers": ["edf-bfd"]}),
    ]
    warm_ended = wait("the small runs ended", lambda: ended(warm))
    assert all(s["status"] == "succeeded" for s in warm_ended.values()), warm_ended
    assert memory_limit.oom_kills() == 0
    small_peak = memory_limit.peak_bytes()
    small_pool_mb = max(peaks.values())
    assert small_peak is None or small_peak < LIMIT_BYTES

    # The big part: killed for lack of memory at every attempt.
    submitted = time.monotonic()
    big_run = submit(token_a, {"scenario": big(BIG_JOBS), "schedulers": ["edf-bfd"]})
    ran_on: set[int] = set()  # the pool processes its attempts ran on
    claimed: dict[int, float] = {}  # attempt -> when it was first seen claimed
    kills: list[float] = []  # when each kill of a process in the cgroup was first seen

    def big_part() -> dict[str, Any]:
        part = dict(state(big_run)["parts"][0])
        if part["worker"]:  # the last attempt's, until the next claim (6 s at least, the lease)
            ran_on.add(int(part["worker"].rsplit(":", 1)[1]))
        if part["attempts"] and part["attempts"] not in claimed:
            claimed[part["attempts"]] = time.monotonic()
        while len(kills) < memory_limit.oom_kills():
            kills.append(time.monotonic())
        return part

    wait("the big part running", lambda: big_part()["status"] == "running")
    # The same team's runs queued behind it: when its process is killed, its message goes back
    # to the queue behind them (acks_late, reject_on_worker_lost).
    backlog = [submit(token_a, {"scenario": small(1000), "schedulers": BACKLOG_SCHEDULERS})
               for _ in range(BACKLOG_RUNS)]
    wait("the big part's first process killed", lambda: big_part() and memory_limit.oom_kills() >= 1)
    first_kill = time.monotonic()

    # Another team's runs, while the big part is being retried.
    during = [
        submit(token_b, {"team": team_b, "scenario": small(100), "schedulers": ["edf-bfd", "morpheus"]}),
        submit(token_b, {"team": team_b, "scenario": small(140), "schedulers": ["edf-bfd"]}),
    ]
    small_runs = [*backlog, *during]
    done_at: dict[int, float] = {}

    def all_ended() -> dict[int, dict[str, Any]] | None:
        big_part()
        states = {r: state(r) for r in [*small_runs, big_run]}
        for r in small_runs:
            if states[r]["finished"] and r not in done_at:
                done_at[r] = time.monotonic() - first_kill
        return states if all(s["finished"] for s in states.values()) else None

    final = wait("every run ended", all_ended)
    failed_after = time.monotonic() - submitted

    big_final = final[big_run]
    part = big_final["parts"][0]
    assert big_final["status"] == "failed" and part["status"] == "failed", big_final
    assert part["attempts"] == MAX_ATTEMPTS, part
    for words in (f"stopped responding {MAX_ATTEMPTS} times", PROCESS_LOST, "signal 9 (SIGKILL)",
                  "out-of-memory killer"):
        assert words in part["error"], (words, part["error"], stack.log("worker"))
        assert words in big_final["error"], (words, big_final["error"])
    # The kernel killed one process per attempt, and none of the small runs' processes.
    assert memory_limit.oom_kills() == MAX_ATTEMPTS, (memory_limit.oom_kills(), stack.log("worker"))
    big_end = when(big_final["finished_at"])
    assert all(final[r]["status"] == "succeeded" for r in small_runs), [final[r] for r in small_runs]
    # Nothing waited for the big part: the other team's runs ended while it was being retried,
    # and so did some of its own team's queued behind it.
    assert all(when(final[r]["finished_at"]) < big_end for r in during), [final[r] for r in during]
    assert any(when(final[r]["finished_at"]) < big_end for r in backlog), [final[r] for r in backlog]
    # The main process lived on and the pool is whole again, without the killed processes.
    assert worker.poll() is None
    pool = wait("the pool whole again", lambda: len(children(worker.pid)) == 2 and children(worker.pid))
    assert not ran_on & set(pool), (ran_on, pool)

    at_kill = kernel_kills(ran_on)
    big_peak = max(peaks.get(pid, 0) for pid in ran_on) if ran_on else 0
    before_big = sum(when(final[r]["finished_at"]) < big_end for r in backlog)
    lived = [kills[i] - claimed[i + 1] for i in range(len(kills)) if i + 1 in claimed]
    again = [claimed[i + 2] - kills[i] for i in range(len(kills)) if i + 2 in claimed]
    print(
        f"\nout of memory: limit {LIMIT_BYTES // MB} MB on the worker (main process and 2 pool processes); "
        f"small runs: worker peak {(small_peak or 0) / MB:.0f} MB, a pool process {small_pool_mb} MB; "
        f"the {BIG_JOBS:,}-job part: {MAX_ATTEMPTS} attempts on pool processes {sorted(ran_on)}, "
        f"{memory_limit.oom_kills()} killed by the kernel (resident at the kill: "
        f"{sorted(at_kill.values()) or 'kernel log unreadable'} MB; peak seen {big_peak} MB); "
        f"each attempt killed {', '.join(f'{t:.0f}' for t in lived)} s after its claim, claimed again "
        f"{', '.join(f'{t:.0f}' for t in again)} s after a kill (lease {FAST['PLANNER_PART_LEASE_S']} s, "
        f"reaper every {FAST['PLANNER_REAP_INTERVAL_S']} s); "
        f"failed {failed_after:.0f} s after it was submitted ({(time.monotonic() - first_kill):.0f} s after "
        f"the first kill); team B's {len(during)} runs ended "
        f"{', '.join(f'{done_at[r]:.0f}' for r in during)} s after the first kill, team A's {len(backlog)} "
        f"queued behind it {min(done_at[r] for r in backlog):.0f}-{max(done_at[r] for r in backlog):.0f} s "
        f"after it ({before_big} before the big run failed)\nerror: {part['error']}"
    )
