"""The speed-up this machine allows two processes on ``parts.py``'s work, without the planner.

    python benchmarks/parallel_ceiling.py [--repeats 3] [--jobs 10000]

``parts.py`` times a five-scheduler comparison through the whole planner (web, broker, database,
one or two worker processes). This runs only its simulations, the same five on the same
workload, in fresh processes: all five one after the other in one process, then the same five
shared out between two processes running at once (each takes the next scheduler when it is
free, as two worker processes do, longest first as the planner sends them), and prints both
wall times and their ratio, with the CPU seconds each simulation took alone and beside
another. The ratio is the most ``parts.py`` could show on this machine: a planner run adds
work that cannot run in parallel (the request, the close) to both. Five simulations of
unequal length seldom split into two equal halves, and on a machine whose two cores slow each
other down (shared caches, memory bandwidth, a busy host) they run slower side by side than
alone: the ratio falls short of 2 by both. Rounds are interleaved (one process, two
processes, ...); medians are printed. Prints markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from foreign_load import ForeignLoad  # benchmarks/, next to this file

ROOT = Path(__file__).resolve().parents[1]
CSV = ROOT.parent / "shared" / "data" / "rm-simulator" / "large-scale-workload_jobs_high_load.csv"
FIVE = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]


def worker(queue_dir: Path, jobs: int, processes: int, out: Path) -> None:
    """Read the workload, wait until all ``processes`` have, then take schedulers from
    ``queue_dir`` (one file each, claimed by renaming it) until none is left, simulating each;
    write when the simulations started and ended and each one's CPU seconds to ``out``."""
    sys.path.insert(0, str(ROOT))
    from scheduling import lower_bound_cost, parse_scenario, simulate
    from scheduling.importers import import_rm_csv
    from scheduling.presets import preset_vm_types

    doc = import_rm_csv(CSV.read_text(), name="10,000 jobs on 1,400 VMs",
                        vm_types=preset_vm_types("paper-003", scale=100))
    doc["jobs"] = doc["jobs"][:jobs]
    scenario = parse_scenario(doc)
    bound = lower_bound_cost(scenario)
    (queue_dir / f"ready.{os.getpid()}").touch()
    while len(list(queue_dir.glob("ready.*"))) < processes:  # every process has read the workload
        time.sleep(0.001)
    started = time.time()
    done: dict[str, float] = {}
    while True:
        claimed = None
        for entry in sorted(queue_dir.iterdir()):
            if entry.suffix != ".queued":
                continue
            mine = entry.with_suffix(f".{os.getpid()}")
            try:
                entry.rename(mine)  # atomic: one process claims it
            except FileNotFoundError:
                continue
            claimed = mine
            break
        if claimed is None:
            break
        scheduler = claimed.read_text()
        cpu0 = time.process_time()
        simulate(scenario, scheduler=scheduler, lower_bound=bound)
        done[scheduler] = time.process_time() - cpu0
    out.write_text(json.dumps({"started": started, "ended": time.time(), "cpu": done}))


def one_round(processes: int, jobs: int, order: list[str]) -> tuple[float, dict[str, float]]:
    """Wall seconds from the first simulation's start to the last one's end, and each
    scheduler's CPU seconds; the schedulers are taken in ``order``."""
    with tempfile.TemporaryDirectory() as tmp:
        queue = Path(tmp) / "queue"
        queue.mkdir()
        for k, scheduler in enumerate(order):
            (queue / f"{k}.queued").write_text(scheduler)
        outs = [Path(tmp) / f"out{k}.json" for k in range(processes)]
        # Each process reads and parses the workload first (as a worker process does once);
        # the clock starts when they all have, so only the simulations are timed.
        procs = [
            subprocess.Popen([sys.executable, __file__, "--worker", str(queue), "--jobs", str(jobs),
                              "--processes", str(processes), "--out", str(out)])
            for out in outs
        ]
        for proc in procs:
            if proc.wait() != 0:
                raise SystemExit(f"a worker failed ({proc.returncode})")
        got = [json.loads(out.read_text()) for out in outs]
        wall = max(g["ended"] for g in got) - min(g["started"] for g in got)
        return wall, {scheduler: c for g in got for scheduler, c in g["cpu"].items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--jobs", type=int, default=10_000)
    p.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--processes", type=int, default=1, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker is not None:
        worker(args.worker, args.jobs, args.processes, args.out)
        return
    # A warm-up (bytecode caches, the compiled core loaded once) whose times give the order:
    # longest first, as the planner sends a run's parts once it has their history.
    _, warm = one_round(1, args.jobs, FIVE)
    order = sorted(FIVE, key=lambda s: -warm[s])
    rounds: dict[int, list[tuple[float, dict[str, float]]]] = {1: [], 2: []}
    with ForeignLoad() as foreign:
        for _ in range(args.repeats):
            for processes in (1, 2):
                rounds[processes].append(one_round(processes, args.jobs, order))
    load = os.getloadavg()
    print(f"## Two processes without the planner: the five simulations of parts.py, {args.jobs:,} jobs\n")
    print(f"python {platform.python_version()}, {os.cpu_count()} cores; load average after: "
          f"{load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; {args.repeats} interleaved rounds, medians; "
          f"order {', '.join(order)}\n")
    print(f"{foreign.line()}\n")
    print("| processes | wall s (each round) | " + " | ".join(f"{s} CPU s" for s in FIVE) + " |")
    print("|---|---|" + "---|" * len(FIVE))
    medians = {}
    for processes, got in rounds.items():
        walls = [w for w, _ in got]
        medians[processes] = statistics.median(walls)
        cpu = [statistics.median(c[s] for _, c in got) for s in FIVE]
        print(f"| {processes} | {medians[processes]:.2f} ({', '.join(f'{w:.2f}' for w in walls)}) | "
              + " | ".join(f"{c:.2f}" for c in cpu) + " |")
    one = sum(statistics.median(c[s] for _, c in rounds[1]) for s in FIVE)
    two = sum(statistics.median(c[s] for _, c in rounds[2]) for s in FIVE)
    print(f"\nSpeed-up of two processes: **{medians[1] / medians[2]:.2f}x**; the simulations took "
          f"{two / one:.2f}x the CPU seconds side by side that they took alone.")


if __name__ == "__main__":
    main()
