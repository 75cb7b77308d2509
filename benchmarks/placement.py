"""Per-decision placement time: BFD against the exact placements (paper 003, Algorithms 2-3).

A by-hand benchmark, not part of the test suite. For each cluster size (the paper's 14-VM
cluster of Table 3, and the same VM mix scaled x10 and x100) it draws random cluster states
(seeded: a random share of the VMs on, each partly used by executors of the workloads' shapes)
and a job shaped like one of the shipped workloads, plus jobs placed on the empty cluster (every
VM off, a run's first decision), and times one placement decision with each method on the same
state:

* ``bfd``: :func:`scheduling.cost.placement.heuristics.place_bfd` (Algorithm 3);
* ``knapsack``, ``integer``, ``binary``: :func:`scheduling.cost.placement.exact.place_ilp` with that
  ``ilp_method`` (Algorithm 2; the binary one is the paper's own model, in CBC).

It reports median, p90 and max milliseconds per decision, and whether each method reached the
optimal new-VM price (the knapsack's, which the test suite checks against brute force; a solver
that hits its time limit falls back to BFD and is counted as a fallback). The binary model is slow
on large clusters, so it runs on a bounded sample of the states (``--binary-instances``).

Run from the repository root::

    .venv/bin/python -m benchmarks.placement            # defaults: 2-5 minutes (binary: 60 s limit)
    .venv/bin/python -m benchmarks.placement --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import csv
import functools
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from scheduling.cost.cluster import Cluster, PlacementContext
from scheduling.cost.placement.exact import place_ilp
from scheduling.cost.placement.heuristics import place_bfd
from scheduling.scenario import Scenario, parse_scenario

DATA = Path("/work/shared/data/rm-simulator")
WORKLOADS = (DATA / "workload_jobs_high_load.csv", DATA / "workload_jobs_low_load.csv")
METHODS = ("bfd", "knapsack", "integer", "binary")
RUT = np.array([0.8, 0.2])  # cpu, mem: the paper's experiments

# Table 3 of paper 003: (name, cores, GB, $/h, count)
TABLE3 = (
    ("m1.large", 4, 16, 0.24, 6),
    ("m1.xlarge", 8, 32, 0.48, 5),
    ("m2.xlarge", 12, 48, 0.72, 3),
)


def table3_scenario(scale: int) -> Scenario:
    return parse_scenario(
        {
            "name": f"Table 3 x{scale}",
            "vm_types": [
                {"name": n, "capacity": {"cpu": c, "mem": m}, "price_per_hour": p, "count": k * scale}
                for n, c, m, p, k in TABLE3
            ],
            "jobs": [
                {"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1, "mem": 1}, "duration_s": 1}
            ],
        }
    )


def load_shapes(paths: tuple[Path, ...]) -> np.ndarray:
    """(C cores, M GB, E executors) of every job in the workloads."""
    rows = []
    for path in paths:
        with path.open(newline="") as f:
            for r in csv.DictReader(f):
                rows.append((float(r["C"]), float(r["M"]), int(r["E"])))
    return np.array(rows, dtype=float)


@dataclass
class Instance:
    cluster: Cluster
    demand: np.ndarray
    executors: int


def make_instance(
    scenario: Scenario,
    shapes: np.ndarray,
    rng: np.random.Generator,
    packed_share: float,
    share_on: float | None = None,
) -> Instance:
    """A random cluster state and a workload-shaped job.

    A random share of the VMs is on. In a "loose" state each VM on holds a random number of
    executors of up to three workload jobs (possibly none: on but idle), so a small job usually
    fits on the VMs already on; in a "packed" state (probability ``packed_share``, as a
    consolidating scheduler leaves the cluster) each VM on is filled with workload executors until
    30 draws in a row no longer fit, so the job usually needs new VMs. ``share_on`` fixes the
    share of VMs on (default: uniform in [0, 1]).
    """
    cluster = Cluster(scenario)
    if share_on is None:
        share_on = rng.uniform(0.0, 1.0)
    packed = rng.random() < packed_share
    for v in np.flatnonzero(rng.random(cluster.n_machines) < share_on).tolist():
        if packed:
            misses = 0
            while misses < 30:
                c, m, _e = shapes[rng.integers(len(shapes))]
                d = np.array([c, m])
                if cluster.fit_counts(np.array([v]), d)[0] > 0:
                    cluster.apply({v: 1}, d)
                    misses = 0
                else:
                    misses += 1
            continue
        for _ in range(int(rng.integers(1, 4))):
            c, m, _e = shapes[rng.integers(len(shapes))]
            d = np.array([c, m])
            room = int(cluster.fit_counts(np.array([v]), d)[0])
            cluster.apply({v: int(rng.integers(0, room + 1))}, d)  # 0: on but idle
    c, m, e = shapes[rng.integers(len(shapes))]
    return Instance(cluster, np.array([c, m]), int(e))


def new_vm_cost(cluster: Cluster, assignment: dict[int, int] | None) -> float | None:
    if assignment is None:
        return None
    return float(sum(cluster.price[v] for v in assignment if not cluster.on[v]))


@dataclass
class Row:
    times_ms: list[float] = field(default_factory=list)
    new_vm_times_ms: list[float] = field(default_factory=list)  # on states that need new VMs
    optimal: int = 0
    compared: int = 0
    fallbacks: int = 0
    worst_ratio: float = 1.0  # new-VM price / optimum, worst case


def run_method(
    method: str, inst: Instance, limit: float
) -> tuple[float, dict[int, int] | None, PlacementContext]:
    every = np.ones(len(inst.cluster.type_names), dtype=bool)
    ctx = PlacementContext(
        rut=RUT, ilp_method=method if method != "bfd" else "knapsack", ilp_time_limit_s=limit
    )
    fn: Callable[..., dict[int, int] | None] = place_bfd if method == "bfd" else place_ilp
    t0 = time.perf_counter()
    got = fn(inst.cluster, inst.demand, inst.executors, every, ctx)
    return (time.perf_counter() - t0) * 1000.0, got, ctx


def _draw(
    scenario: Scenario,
    shapes: np.ndarray,
    rng: np.random.Generator,
    packed_share: float,
    share_on: float | None,
    _i: int,
) -> Instance:
    return make_instance(scenario, shapes, rng, packed_share, share_on)


def measure(
    label: str,
    draw: Callable[[int], Instance],
    n_instances: int,
    caps: dict[str, int],
    limit: float,
    progress: bool,
) -> tuple[dict[str, Row], dict[str, int]]:
    """Time every method on ``n_instances`` states (a solver only on the first ``caps[method]``)."""
    rows = {m: Row() for m in METHODS}
    mix = {"infeasible": 0, "fits on VMs on": 0, "needs new VMs": 0}
    for i in range(n_instances):
        inst = draw(i)
        costs: dict[str, float | None] = {}
        times: dict[str, float] = {}
        fell_back: dict[str, bool] = {}
        for method in METHODS:
            if i >= caps.get(method, n_instances):
                continue
            times[method], got, ctx = run_method(method, inst, limit)
            fell_back[method] = bool(ctx.stats.get("ilp_fallbacks", 0))
            costs[method] = new_vm_cost(inst.cluster, got)
        best = costs["knapsack"]
        mix["infeasible" if best is None else "needs new VMs" if best > 0 else "fits on VMs on"] += 1
        for method, cost in costs.items():
            row = rows[method]
            row.times_ms.append(times[method])
            if best is not None and best > 0:
                row.new_vm_times_ms.append(times[method])
            row.compared += 1
            row.fallbacks += int(fell_back[method])
            same = (cost is None and best is None) or (
                cost is not None and best is not None and abs(cost - best) <= 1e-9 * max(1.0, best)
            )
            row.optimal += int(same and not fell_back[method])  # a fallback proves nothing
            if cost is not None and best:
                row.worst_ratio = max(row.worst_ratio, cost / best)
        if progress and (i + 1) % max(1, n_instances // 5) == 0:
            print(f"  {label}: {i + 1}/{n_instances}", flush=True)
    return rows, mix


def pct(values: list[float], q: float) -> str:
    return f"{np.percentile(values, q):.3f}" if values else "-"


def print_table(title: str, results: dict[int, tuple[dict[str, Row], dict[str, int]]]) -> None:
    print(f"**{title}**")
    print()
    print(
        "| VMs | method | decisions | median ms | p90 ms | max ms | median ms, new VMs needed "
        "| optimal (proven) | fallbacks to BFD | worst new-VM price / optimum |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for scale, (rows, _mix) in results.items():
        for method in METHODS:
            r = rows[method]
            if not r.times_ms:
                continue
            print(
                f"| {14 * scale:,} | {method} | {len(r.times_ms)} | {pct(r.times_ms, 50)} | "
                f"{pct(r.times_ms, 90)} | {max(r.times_ms):.3f} | {pct(r.new_vm_times_ms, 50)} | "
                f"{r.optimal}/{r.compared} | {r.fallbacks} | {r.worst_ratio:.2f} |"
            )
    print()
    for scale, (rows, mix) in results.items():
        if not rows["knapsack"].times_ms:
            continue
        med = {m: statistics.median(rows[m].times_ms) for m in METHODS if rows[m].times_ms}
        total = sum(mix.values())
        shares = ", ".join(f"{k} {v / total:.0%}" for k, v in mix.items())
        line = f"- {14 * scale:,} VMs: {shares}; knapsack/BFD median {med['knapsack'] / med['bfd']:.2f}x"
        for solver in ("integer", "binary"):  # on the same states (the first ones)
            n = len(rows[solver].times_ms)
            if n:
                paired = statistics.median(rows["knapsack"].times_ms[:n])
                line += f"; {solver}/knapsack median {med[solver] / paired:,.0f}x (same {n} states)"
        print(line)
    print()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scales", default="1,10,100", help="VM-mix multipliers of Table 3 (1 = 14 VMs)")
    ap.add_argument("--instances", default="500,300,100", help="random states per scale")
    ap.add_argument(
        "--integer-instances", default="500,300,100", help="random states (the first) for integer"
    )
    ap.add_argument("--binary-instances", default="200,30,10", help="random states (the first) for binary")
    ap.add_argument(
        "--empty-instances",
        default="40,10,5",
        help="jobs placed on the empty cluster (every VM off: a run's first decision), all methods",
    )
    ap.add_argument("--time-limit", type=float, default=60.0, help="ilp_time_limit_s for the solvers")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--packed-share", type=float, default=0.5, help="share of packed random states")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 30,10,3 states, binary 10,3,1")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args(argv)

    scales = [int(s) for s in args.scales.split(",")]

    def per_scale(text: str) -> list[int]:
        vals = [int(x) for x in text.split(",")]
        return (vals + [vals[-1]] * len(scales))[: len(scales)]

    n_inst, n_int, n_bin, n_empty = (
        per_scale(args.instances),
        per_scale(args.integer_instances),
        per_scale(args.binary_instances),
        per_scale(args.empty_instances),
    )
    if args.quick:
        n_inst, n_int, n_bin, n_empty = [30, 10, 3], [30, 10, 3], [10, 3, 1], [5, 2, 1]
    shapes = load_shapes(WORKLOADS)

    # Warm up every code path (imports, the CBC binary, HiGHS) outside the measurements.
    warm = make_instance(table3_scenario(1), shapes, np.random.default_rng(0), 1.0)
    for method in METHODS:
        run_method(method, warm, args.time_limit)

    started = time.perf_counter()
    random_states, empty_states = {}, {}
    for k, scale in enumerate(scales):
        scenario = table3_scenario(scale)
        rng = np.random.default_rng([args.seed, scale])
        random_states[scale] = measure(
            f"x{scale} random states",
            functools.partial(_draw, scenario, shapes, rng, args.packed_share, None),
            n_inst[k],
            {"integer": n_int[k], "binary": n_bin[k]},
            args.time_limit,
            args.progress,
        )
        rng_e = np.random.default_rng([args.seed, scale, 0])
        empty_states[scale] = measure(
            f"x{scale} empty cluster",
            functools.partial(_draw, scenario, shapes, rng_e, 0.0, 0.0),
            n_empty[k],
            {},
            args.time_limit,
            args.progress,
        )
    elapsed = time.perf_counter() - started

    print(
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, seed {args.seed}, packed states "
        f"{args.packed_share:.0%}, solver time limit {args.time_limit:g} s, total {elapsed:.0f} s"
    )
    print()
    print_table("Random cluster states", random_states)
    print_table("Empty cluster (every VM off: a run's first decision)", empty_states)


if __name__ == "__main__":
    main()
