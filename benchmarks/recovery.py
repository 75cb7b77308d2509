"""Benchmark of issue 6: no run or part is ever stuck, on the embedded default.

    python benchmarks/recovery.py [--tries 5] [--skip-lost-message]

The embedded default exactly as ``./dev run`` starts it (SQLite with WAL, kombu's filesystem
broker, a prefork Celery worker with the embedded beat, restarted 2 s after it exits), with
the production timings (lease 60 s renewed every 15 s, reaper every 30 s, re-send after
120 s), in a temporary folder. Three faults:

1. ``kill -9`` of the worker's main process while a part runs (``--tries`` times): how long
   until the part is queued again, until a worker claims it again, until the run succeeds;
   whether the killed worker's children (pool processes, beat) outlived it;
2. a cancel of a run whose worker was just killed: how long until it reads "cancelled";
3. a message lost from the broker (the message file deleted while no worker runs): how long
   until a worker claims the part.

The part is the paper's binary ILP (CBC through files in $TMPDIR) on the authors' light
workload, which runs for about half a minute. Prints markdown.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
SLOW = "edf-ilp:ilp_method=binary"


class Worker:
    """The worker of ``./dev run``: started again 2 s after it exits, until :meth:`stop`."""

    def __init__(self, env: dict[str, str], var: Path):
        self.env, self.var = env, var
        self.proc: subprocess.Popen[bytes] | None = None
        self.supervise = True
        self.log = open(var / "worker.log", "ab")  # noqa: SIM115 - closed in stop()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while self.supervise:
            self.proc = subprocess.Popen(
                [
                    "nice",
                    "-n",
                    "10",
                    str(BIN / "celery"),
                    "-A",
                    "celery_app",
                    "worker",
                    "--pool=prefork",
                    "-B",
                    "--schedule",
                    str(self.var / "celerybeat-schedule"),
                    "--loglevel=INFO",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=self.log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            self.proc.wait()
            time.sleep(2)

    def kill(self) -> list[int]:
        """``kill -9`` of the main process; returns its children at that moment."""
        assert self.proc is not None
        kids = [int(p) for p in subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True,
                                                text=True).stdout.split()]
        os.kill(self.proc.pid, signal.SIGKILL)
        return kids

    def stop(self) -> None:
        self.supervise = False
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self._thread.join(timeout=10)
        self.log.close()


def alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_for(predicate: Any, timeout: float) -> float:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if predicate():
            return time.monotonic() - t0
        time.sleep(0.25)
    raise TimeoutError(f"not within {timeout} s")


def watch(run: Any, kids: list[int], part_of: Any, Run: Any, timeout: float = 1800) -> dict[str, float]:
    """Seconds from now until each milestone after a kill is first seen (polled every 0.25 s)."""
    t0 = time.monotonic()
    marks: dict[str, float] = {}
    while len(marks) < 4:
        now = time.monotonic() - t0
        if now > timeout:
            raise TimeoutError(f"after {timeout} s only {marks}")
        part = part_of(run)
        if "children_gone" not in marks and not any(alive(k) for k in kids):
            marks["children_gone"] = now
        if "requeued" not in marks and (part.status == "queued" or part.attempts >= 2):
            marks["requeued"] = now
        if "claimed" not in marks and part.attempts >= 2:
            marks["claimed"] = now
        if "done" not in marks and Run.objects.get(pk=run.pk).status in Run.FINISHED:
            marks["done"] = now
        time.sleep(0.25)
    return marks


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tries", type=int, default=5)
    p.add_argument("--skip-lost-message", action="store_true")
    args = p.parse_args()
    var = Path(tempfile.mkdtemp(prefix="planner-recovery-"))
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "planner.settings.dev", "PLANNER_VAR_DIR": str(var),
           "PLANNER_WORK_DIR": str(var / "work"), "PYTHONPATH": str(ROOT)}
    os.environ.update({k: env[k] for k in ("DJANGO_SETTINGS_MODULE", "PLANNER_VAR_DIR", "PLANNER_WORK_DIR")})
    for step in (["migrate", "--noinput"], ["planner_demo"]):
        subprocess.run(
            [str(BIN / "python"), "manage.py", *step], cwd=ROOT, env=env, check=True, capture_output=True
        )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from planner.runs.models import Run, RunPart
    from planner.runs.services import run_cancel, run_start
    from planner.scenarios.models import Cluster, Workload

    user = get_user_model().objects.get(username="demo")
    cluster, workload = Cluster.objects.get(), Workload.objects.get()

    def start(schedulers: list[str]) -> Run:
        return run_start(user=user, cluster=cluster, workload=workload, schedulers=schedulers)

    def part_of(run: Run) -> RunPart:
        return RunPart.objects.get(run=run)

    worker = Worker(env, var)
    kills: list[dict[str, float]] = []
    try:
        for _ in range(args.tries):
            run = start([SLOW])
            wait_for(lambda run=run: part_of(run).status == "running" and part_of(run).progress > 0.05, 600)
            kids = worker.kill()
            marks = watch(run, kids, part_of, Run)
            marks["ok"] = float(Run.objects.get(pk=run.pk).status == "succeeded")
            marks["leftovers"] = float(
                len(list((var / "work").glob("part-*"))) if (var / "work").exists() else 0
            )
            kills.append(marks)
            print(f"kill: {kills[-1]}", file=sys.stderr)

        # 2. A cancel of a run whose worker was just killed.
        run = start([SLOW])
        wait_for(lambda: part_of(run).status == "running", 600)
        worker.supervise = False
        worker.kill()
        t0 = time.monotonic()
        run_cancel(run=Run.objects.get(pk=run.pk), user=user)
        cancel_s = time.monotonic() - t0
        cancelled = Run.objects.get(pk=run.pk).status

        # 3. A message lost from the broker while no worker runs.
        lost_s = None
        if not args.skip_lost_message:
            time.sleep(3)
            from django.db import transaction

            with transaction.atomic():
                run = start(["edf-bfd"])
            queue = var / "broker" / "queue"
            wait_for(lambda: any(queue.iterdir()), 30)
            for message in queue.iterdir():
                message.unlink()
            worker.supervise = True
            worker._thread = threading.Thread(target=worker._loop, daemon=True)
            worker._thread.start()
            lost_s = wait_for(lambda: part_of(run).attempts >= 1, 900)
    finally:
        worker.stop()

    load = os.getloadavg()
    print(f"## No run or part stuck: faults on the embedded default ({len(kills)} kills)\n")
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, load average after "
        f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; lease 60 s, heartbeat 15 s, reaper 30 s, re-send 120 s\n"
    )
    print("| measure (seconds after `kill -9` of the worker) | median | worst | goal |\n|---|---|---|---|")

    def row(label: str, key: str, goal: str) -> None:
        values = [k[key] for k in kills]
        print(f"| {label} | {statistics.median(values):.0f} | {max(values):.0f} | {goal} |")

    row("the killed worker's children (pool, beat) gone", "children_gone", "with the worker")
    row("the part queued again", "requeued", "<= 120 s")
    row("the part claimed again by the restarted worker", "claimed", "")
    row("the run finished", "done", "")
    print(f"\nRuns that succeeded after the kill: {sum(k['ok'] for k in kills):.0f} of {len(kills)}; "
          f"solver folders left behind: {sum(k['leftovers'] for k in kills):.0f}.")
    print(f"A cancel of a run whose worker was just killed: {cancelled} after {cancel_s * 1000:.0f} ms.")
    if lost_s is not None:
        print(
            f"A message deleted from the broker: the part was claimed {lost_s:.0f} s after a worker started "
            "(re-sent by the reaper after 120 s, checked every 30 s)."
        )


if __name__ == "__main__":
    main()
