"""Benchmark 2 (issue 2): simulation at scale with edf-bfd.

    python benchmarks/scale.py                # both cases
    python benchmarks/scale.py --case large   # 100,000 jobs on 20,000 VMs only

Case "shipped": the paper-003 authors' 10,000-job workload
(large-scale-workload_jobs_high_load.csv) on the paper's VM mix scaled x100 (1,400 VMs).
Case "large": a seeded synthetic 100,000-job workload (Poisson arrivals at a rate that keeps
the cluster about 70 % busy) on 20,000 VMs of the same mix. Goal: <= 60 s and <= 2 GB.
Reports wall time of parse + simulate (the lower-bound LP included), peak RSS of the process
and the result's size as JSON.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduling import parse_scenario, simulate  # noqa: E402
from scheduling.generators import synthetic_jobs  # noqa: E402
from scheduling.importers import import_rm_csv  # noqa: E402
from scheduling.presets import preset_vm_types  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "rm-simulator"


def twenty_thousand_vms() -> list[dict]:
    mix = preset_vm_types("paper-003")
    counts = [8572, 7143, 4285]  # the paper's 6:5:3 mix, 20,000 VMs in all
    return [{**t, "count": c} for t, c in zip(mix, counts, strict=True)]


def case_shipped() -> dict:
    text = (SHARED / "large-scale-workload_jobs_high_load.csv").read_text()
    return import_rm_csv(
        text, name="10,000 shipped jobs on 1,400 VMs", vm_types=preset_vm_types("paper-003", scale=100)
    )


def case_large(jobs: int, seed: int) -> dict:
    vm_types = twenty_thousand_vms()
    cores = sum(t["capacity"]["cpu"] * t["count"] for t in vm_types)
    # Mean work per job: E[executors] x E[cpu] x E[duration] (duration 10 s + truncated exponential).
    mean_work = 4.5 * 3.5 * 100.0
    rate = 0.7 * cores / mean_work
    return {
        "name": f"{jobs:,} synthetic jobs on 20,000 VMs",
        "vm_types": vm_types,
        "jobs": synthetic_jobs(seed=seed, jobs=jobs, arrival_rate_per_s=rate, executors=(1, 8),
                               executor={"cpu": (1, 6), "mem": (2, 12)}, duration_s=(10, 300)),
    }


def run(name: str, doc: dict, scheduler: str) -> dict:
    t0 = time.perf_counter()
    sc = parse_scenario(doc)
    t1 = time.perf_counter()
    result = simulate(sc, scheduler=scheduler)
    t2 = time.perf_counter()
    payload = len(json.dumps(result.to_dict()))
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    d = result.to_dict()
    return {
        "case": name,
        "jobs": len(sc.jobs),
        "vms": sum(t.count for t in sc.vm_types),
        "parse_s": t1 - t0,
        "simulate_s": t2 - t1,
        "peak_rss_mb": rss_mb,
        "result_json_mb": payload / 2**20,
        "decisions": d["scheduling_delay"]["decisions"],
        "median_decision_ms": d["scheduling_delay"]["median_ms"],
        "total_cost": d["total_cost"],
        "lower_bound_cost": d["lower_bound_cost"],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--case", choices=["shipped", "large", "all"], default="all")
    p.add_argument("--jobs", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--scheduler", default="edf-bfd")
    args = p.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}", file=sys.stderr)
    rows = []
    if args.case in ("shipped", "all"):
        rows.append(run("shipped", case_shipped(), args.scheduler))
    if args.case in ("large", "all"):
        rows.append(run("large", case_large(args.jobs, args.seed), args.scheduler))
    print(
        "| case | jobs | VMs | parse s | simulate s | peak RSS MB | result JSON MB | median decision ms "
        "| cost | lower bound |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['case']} | {r['jobs']:,} | {r['vms']:,} | {r['parse_s']:.2f} | {r['simulate_s']:.2f} | "
              f"{r['peak_rss_mb']:.0f} | {r['result_json_mb']:.1f} | {r['median_decision_ms']:.3f} | "
              f"{r['total_cost']:.2f} | {r['lower_bound_cost']:.2f} |")


if __name__ == "__main__":
    main()
