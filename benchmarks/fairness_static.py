"""Benchmark: static allocation of the fairness engine (issue 8).

    python -m benchmarks.fairness_static [--table-trials 200] [--frameworks 100] [--servers 1000]
                                         [--types 10] [--seed 7] [--skip-big] [--skip-exact]

Two measurements, printed as markdown:

1. Paper 000's Table I (two servers, two frameworks), ``--table-trials`` trials of each of the
   five policies (RRR-DRF, RRR-TSF, RRR-PS-DSF, rPS-DSF jointly, BF-DRF): the time of all five
   together (goal <= 1 s), with each policy's mean tasks next to the paper's.
2. A synthetic cluster: ``--frameworks`` frameworks on ``--servers`` servers of ``--types`` VM
   types (seeded), whole tasks, one trial of every policy and server selection, and the exact
   U-MMF and PF (fractional): time per policy (goal <= 10 s each) and tasks allocated.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduling import parse_scenario  # noqa: E402
from scheduling.fairness import allocate, fairness_problem, parse_allocation_variant  # noqa: E402

TABLE_I_POLICIES = ("drf/rrr", "tsf/rrr", "psdsf/rrr", "rpsdsf/joint", "bf-drf")
#: Paper 000, Table I as printed: mean tasks of f1 on c1, c2 and of f2 on c1, c2.
TABLE_I_PAPER = {
    "drf/rrr": (6.55, 4.69, 4.69, 6.55),
    "tsf/rrr": (6.5, 4.7, 4.7, 6.5),
    "psdsf/rrr": (19.44, 1.15, 1.07, 19.42),
    "rpsdsf/joint": (19, 2, 2, 19),
    "bf-drf": (20, 2, 0, 19),
}


def table_one() -> dict[str, Any]:
    return {
        "version": 1,
        "name": "Paper 000 Table I",
        "vm_types": [
            {"name": "c1", "capacity": {"cpu": 100, "mem": 30}, "price_per_hour": 0, "count": 1},
            {"name": "c2", "capacity": {"cpu": 30, "mem": 100}, "price_per_hour": 0, "count": 1},
        ],
        "frameworks": [
            {"name": "f1", "task_demand": {"cpu": 5, "mem": 1}},
            {"name": "f2", "task_demand": {"cpu": 1, "mem": 5}},
        ],
        "jobs": [],
    }


def synthetic(frameworks: int, servers: int, types: int, seed: int) -> dict[str, Any]:
    """``frameworks`` tenants on ``servers`` machines of ``types`` VM types (cpu, mem, disk)."""
    rng = np.random.default_rng(seed)
    per_type = servers // types
    vm_types = [
        {
            "name": f"t{k}",
            "capacity": {
                "cpu": int(rng.integers(8, 65)),
                "mem": int(rng.integers(16, 257)),
                "disk": int(rng.integers(100, 2001)),
            },
            "price_per_hour": 0,
            "count": per_type + (1 if k < servers - per_type * types else 0),
        }
        for k in range(types)
    ]
    names = [t["name"] for t in vm_types]
    fws = []
    for n in range(frameworks):
        allowed = [name for name in names if rng.random() < 0.7] or [names[int(rng.integers(types))]]
        fws.append(
            {
                "name": f"fw{n}",
                "weight": float(rng.choice([1, 1, 2, 3])),
                "task_demand": {
                    "cpu": round(float(rng.uniform(0.5, 8)), 2),
                    "mem": round(float(rng.uniform(1, 32)), 2),
                    "disk": round(float(rng.uniform(0, 100)), 1),
                },
                "allowed_vm_types": allowed,
            }
        )
    return {
        "version": 1,
        "name": "synthetic",
        "resources": ["cpu", "mem", "disk"],
        "vm_types": vm_types,
        "frameworks": fws,
        "jobs": [],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--table-trials", type=int, default=200)
    ap.add_argument("--frameworks", type=int, default=100)
    ap.add_argument("--servers", type=int, default=1000)
    ap.add_argument("--types", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--skip-big", action="store_true")
    ap.add_argument("--skip-exact", action="store_true")
    args = ap.parse_args()
    print(
        f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
        f"numpy {np.__version__}\n"
    )

    scenario = parse_scenario(table_one())
    print(f"### Table I, {args.table_trials} trials per policy\n")
    print("| policy | f1 on c1, c2 | f2 on c1, c2 | total (std) | paper | seconds |")
    print("| --- | --- | --- | --- | --- | --- |")
    started = time.perf_counter()
    for spec in TABLE_I_POLICIES:
        v = parse_allocation_variant(spec, path="policy")
        t0 = time.perf_counter()
        doc = allocate(
            scenario, policy=v.policy, servers=v.servers, trials=args.table_trials, seed=1
        ).to_dict()
        dt = time.perf_counter() - t0
        m = doc["mean"]
        paper = TABLE_I_PAPER[spec]
        print(
            f"| {v.label} | {m['f1']['c1#1']:.2f}, {m['f1']['c2#1']:.2f} | {m['f2']['c1#1']:.2f}, "
            f"{m['f2']['c2#1']:.2f} | {doc['total_tasks']:.2f} ({doc['total_std']:.2f}) | "
            f"{paper[0]}, {paper[1]} / {paper[2]}, {paper[3]} | {dt:.3f} |"
        )
    print(f"\nAll five together: {time.perf_counter() - started:.3f} s (goal <= 1 s)\n")

    if args.skip_big:
        return
    doc_in = synthetic(args.frameworks, args.servers, args.types, args.seed)
    t0 = time.perf_counter()
    big = parse_scenario(doc_in)
    problem = fairness_problem(big)
    print(
        f"### {args.frameworks} frameworks on {args.servers} servers of {args.types} types "
        f"(seed {args.seed}; scenario read in {time.perf_counter() - t0:.2f} s)\n"
    )
    print("| policy | tasks | seconds |")
    print("| --- | --- | --- |")
    specs = [f"{p}/{s}" for p in ("drf", "tsf", "psdsf", "rpsdsf") for s in ("rrr", "joint", "best-fit")]
    specs.append("bf-drf")
    if not args.skip_exact:
        specs += ["mmf/fractional", "pf/fractional"]
    for spec in specs:
        v = parse_allocation_variant(spec, path="policy")
        t0 = time.perf_counter()
        a = allocate(
            problem, policy=v.policy, servers=v.servers, integer=None if v.servers else v.integer, seed=1
        )
        dt = time.perf_counter() - t0
        print(f"| {v.label} | {a.x.sum():,.1f} | {dt:.2f} |", flush=True)


if __name__ == "__main__":
    main()
