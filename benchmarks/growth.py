"""Issue 19: how edf-bfd's time and memory grow with the number of jobs (4,000 VMs).

    python benchmarks/growth.py                                  # 10,000 to 200,000 jobs
    python benchmarks/growth.py --jobs 10000 100000 200000       # any sizes (at least two)

Each size is simulated in its own process (``scale.py``'s seeded synthetic workload, Poisson
arrivals keeping the cluster about 70 % busy, on 4,000 VMs of the paper's mix): CPU seconds of
``simulate`` alone and of the whole process, and the process's peak resident memory. The growth
exponents are the slopes of least-squares lines through (log jobs, log CPU seconds) and (log
jobs, log peak memory): 1 is linear. ``--jobs 1000000`` is the issue's million jobs on 4,000
VMs (about two minutes on the development machine). Prints markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MIX = (1714, 1429, 857)  # the paper's 6:5:3 mix, 4,000 VMs in all


def child(jobs: int, seed: int) -> None:
    sys.path.insert(0, str(ROOT))
    from scheduling import parse_scenario, simulate
    from scheduling.generators import synthetic_jobs
    from scheduling.presets import preset_vm_types

    vm_types = [{**t, "count": c} for t, c in zip(preset_vm_types("paper-003"), MIX, strict=True)]
    cores = sum(t["capacity"]["cpu"] * t["count"] for t in vm_types)
    rate = 0.7 * cores / (4.5 * 3.5 * 100.0)  # as scale.py: about 70 % busy
    doc = {"name": f"{jobs} jobs", "vm_types": vm_types,
           "jobs": synthetic_jobs(seed=seed, jobs=jobs, arrival_rate_per_s=rate, executors=(1, 8),
                                  executor={"cpu": (1, 6), "mem": (2, 12)}, duration_s=(10, 300))}
    scenario = parse_scenario(doc)
    del doc
    t0 = time.process_time()
    result = simulate(scenario, scheduler="edf-bfd")
    print(json.dumps({"simulate_cpu_s": time.process_time() - t0, "cost": result.total_cost}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, nargs="*", default=[10_000, 30_000, 100_000, 200_000])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child is not None:
        child(args.child, args.seed)
        return
    sys.path.insert(0, str(ROOT))
    from scheduling import compiled

    # The children read bytecode caches as a deployed program does (rm_simulator.py says why);
    # a small warm-up run writes them.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run(jobs: int) -> tuple[int, float, float, float, float, float]:
        t0 = time.monotonic()
        proc = subprocess.Popen([sys.executable, __file__, "--child", str(jobs), "--seed", str(args.seed)],
                                stdout=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        assert proc.stdout is not None
        text = proc.stdout.read()
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"{jobs} jobs failed")
        out = json.loads(text)
        return (jobs, out["simulate_cpu_s"], usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                time.monotonic() - t0, os.getloadavg()[0])

    run(1000)
    rows = []
    for jobs in args.jobs:
        rows.append(run(jobs))
        print(f"{jobs}: {rows[-1]}", file=sys.stderr)
    python = f"python {platform.python_version()} ({os.path.realpath(sys.executable)})"
    print(f"## Growth of edf-bfd with the number of jobs (4,000 VMs)\n\n{python}, "
          f"{os.cpu_count()} cores; the engine {compiled.describe()}\n")
    print("| jobs | simulate CPU s | process CPU s | peak MiB | wall s | load average (1 min) after |")
    print("|---|---|---|---|---|---|")
    for jobs, sim, cpu, rss, wall, load in rows:
        print(f"| {jobs:,} | {sim:.1f} | {cpu:.1f} | {rss:.0f} | {wall:.1f} | {load:.1f} |")
    x = np.log([r[0] for r in rows])
    time_exp = np.polyfit(x, np.log([r[1] for r in rows]), 1)[0]
    rss_exp = np.polyfit(x, np.log([r[3] for r in rows]), 1)[0]
    print(f"\nGrowth exponents: simulate CPU time {time_exp:.2f}, peak memory {rss_exp:.2f} (1 = linear).")


if __name__ == "__main__":
    main()
