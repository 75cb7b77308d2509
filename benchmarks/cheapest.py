"""The cheapest cluster (issue 18): time to the certified answer and the candidates simulated.

A by-hand benchmark, not part of the test suite. It searches the shipped 1,000-job workload (the
authors' light load, ``examples/paper003-light.json``) on the paper's three VM types, each count
in 0-20 (9,261 candidates), for the cheapest cluster meeting a target with one scheduler
(:func:`scheduling.cost.cheapest.search_part`, ``workers`` processes), and reports the time
to set the search up (the prune rules and every candidate's bound) and to the answer, the
candidates simulated and pruned by each rule, whether the answer is certified, the answer,
its gap to the global lower bound, and how many candidates the bound could ever prune: those
whose bound is at least the answer's cost.

Run from the repository root::

    .venv/bin/python -m benchmarks.cheapest --scheduler edf-bfd --max-miss-pct 0
    .venv/bin/python -m benchmarks.cheapest --scheduler edf-ilp --max-miss-pct 1 --max-simulations 463

``--max-simulations`` stops the search after so many simulations (then the answer is not
certified, and the report says how many candidates were left and what they could cost at least).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from scheduling.cost.cheapest import CheapestSearch, Target, join_parts, search_space
from scheduling.cost.cheapest.search import _run
from scheduling.scenario import load_scenario_json

WORKLOAD = Path(__file__).resolve().parents[1] / "examples" / "paper003-light.json"
TYPES = ("m1.large", "m1.xlarge", "m2.xlarge")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scheduler", default="edf-bfd")
    p.add_argument("--max-miss-pct", type=float, default=0.0)
    p.add_argument("--hi", type=int, default=20, help="the highest count of each VM type (0-HI)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--max-simulations", type=int, default=None)
    p.add_argument("--output", "-o", help="write the answer document here")
    args = p.parse_args()

    scenario = load_scenario_json(WORKLOAD.read_text())
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    space = search_space(scenario, {t: [0, args.hi] for t in TYPES})
    search = CheapestSearch(
        scenario,
        space=space,
        scheduler=args.scheduler,
        target=Target(args.max_miss_pct),
        max_simulations=args.max_simulations,
    )
    t_setup = time.perf_counter() - t0
    for outcome in _run(search, args.workers):
        search.record(outcome)
    t_total = time.perf_counter() - t0
    doc = join_parts([search.document()])
    answer = doc["answer"]
    queued_bounds = search.bound[search.queue]
    prunable = int((queued_bounds >= answer["cost"]).sum()) if answer else 0
    report = {
        "scheduler": args.scheduler,
        "max_miss_pct": args.max_miss_pct,
        "candidates": doc["candidates"],
        "setup_s": round(t_setup, 2),
        "total_s": round(t_total, 1),
        "simulated": doc["simulated"],
        "simulated_pct": round(100 * doc["simulated"] / doc["candidates"], 2),
        "per_simulation_s": round((t_total - t_setup) / max(doc["simulated"], 1) * args.workers, 3),
        "pruned": doc["pruned"],
        "unexplored": doc["unexplored"],
        "certified": doc["certified"],
        "answer": answer
        and {"counts": answer["counts"], "cost": round(answer["cost"], 4), "missed": answer["missed"]},
        "global_lower_bound": round(doc["global_lower_bound"], 4),
        "gap_pct": doc["gap_pct"] and round(doc["gap_pct"], 1),
        "distinct_bounds_to_simulate": sorted({round(float(b), 4) for b in np.unique(queued_bounds)})[:5],
        "to_simulate": len(search.queue),
        "bound_could_prune_at_answer": prunable,
        "cheapest_simulated_cost": min((r["cost"] for r in doc["tried"]), default=None),
        "certificate": doc["certificate"],
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(report, indent=1))
    if args.output:
        Path(args.output).write_text(json.dumps(doc))


if __name__ == "__main__":
    main()
