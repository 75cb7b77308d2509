"""Benchmark: MRSU allocation and the paper 002 sweep (issue 10).

    python -m benchmarks.mrsu [--applications 1000] [--slots 100] [--seeds 100] [--workers 1] [--repeat 3]

Two measurements, printed as markdown (best of ``--repeat``):

1. One MRSU allocation of ``--applications`` applications, 4 dimensions, ``--slots`` slots
   (seeded synthetic workload at 90 % load, where the weighted-fair rounds do the most work),
   for GCD and MIN, FT and ID: goal <= 1 s each.
2. The full sweep: 12 loads x ``--seeds`` seeds x 4 methods (both compositions; and vm-scaled), 50
   applications, 30 slots, on ``--workers`` workers: goal <= 60 s on one.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduling.mrsu.allocate import mrsu_allocate  # noqa: E402
from scheduling.mrsu.sweep import mrsu_sweep  # noqa: E402
from scheduling.mrsu.workload import synthetic_workload  # noqa: E402


def best(repeat: int, f) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--applications", type=int, default=1000)
    p.add_argument("--slots", type=int, default=100)
    p.add_argument("--seeds", type=int, default=100)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}\n")
    problem = synthetic_workload(load=0.9, applications=args.applications, slots=args.slots, seed=0)
    print(f"| {args.applications} applications x 4 dimensions x {args.slots} slots | seconds | goal |")
    print("|---|---:|---:|")
    for comp in ("gcd", "min"):
        for mode in ("ft", "id"):
            t = best(args.repeat, lambda c=comp, m=mode: mrsu_allocate(problem, composition=c, mode=m))
            print(f"| MRSU-{mode.upper()} {comp.upper()} | {t:.3f} | 1 |")
    t = best(max(1, args.repeat - 2), lambda: mrsu_sweep(seeds=args.seeds, workers=args.workers))
    print(
        f"\n| Sweep: 12 loads x {args.seeds} seeds x 4 methods (+ vm-scaled) x 2 compositions, "
        f"50 apps, 30 slots, "
        f"{args.workers} worker(s) | seconds | goal |"
    )
    print("|---|---:|---:|")
    print(f"| full sweep | {t:.2f} | 60 |")


if __name__ == "__main__":
    main()
