"""The online sharing simulator's speed: one simulated hour of the Mesos offer cycle (issue 8).

A by-hand benchmark, not part of the test suite. The issue's goal: one simulated hour, 10
frameworks, 100 agents, a 1 s allocation interval, in at most 10 s (the run stops at the
hour, ``horizon_s=3600``; the backlog left then is not drained). The workload keeps the
cluster busy (about 90 % of its cpu asked for): 100 agents of 16 cpu and 64 GB; 10 frameworks,
each with a Poisson queue of tasks (1-4 cpu, 2-8 GB, 30-120 s) over the hour, with the four offer
policies and refuse-offer seconds of 0, 2 and 5 in turn. It also times workload-characterized
mode (DRF, rrr) on the same scenario, and reports tasks, offers, the timeline's size and the
document's JSON size.

Run from the repository root::

    .venv/bin/python -m benchmarks.sharing             # both modes, seeds 0-2
    .venv/bin/python -m benchmarks.sharing --quick     # offers mode, one seed
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from scheduling.fairness.sharing import share
from scheduling.scenario import OFFER_POLICIES, parse_scenario


def hour_scenario(
    *, frameworks: int = 10, agents: int = 100, hour_s: float = 3600.0, load: float = 0.9, seed: int = 0
) -> dict[str, Any]:
    """The benchmark's scenario document (version 2)."""
    rng = np.random.default_rng(seed)
    fws = []
    for k in range(frameworks):
        cpu = int(rng.integers(1, 5))
        mem = int(rng.integers(2, 9))
        duration = float(rng.integers(30, 121))
        # Each framework asks for its 1/frameworks of load x the cluster's cpu, on average.
        rate = load * agents * 16 / frameworks / (cpu * duration)
        fws.append(
            {
                "name": f"fw{k}",
                "task_demand": {"cpu": cpu, "mem": mem},
                "offer_policy": OFFER_POLICIES[k % len(OFFER_POLICIES)],
                "refuse_s": (1, 2, 5)[k % 3],
                "hold_s": 10 if OFFER_POLICIES[k % len(OFFER_POLICIES)] == "hold" else 0,
                "queues": [{"tasks": max(1, int(rate * hour_s)), "duration_s": duration, "rate_per_s": rate}],
            }
        )
    return {
        "version": 2,
        "name": "one busy hour",
        "vm_types": [
            {"name": "agent", "capacity": {"cpu": 16, "mem": 64}, "price_per_hour": 0, "count": agents}
        ],
        "frameworks": fws,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    seeds = [0] if args.quick else [0, 1, 2]
    modes = ["offers"] if args.quick else ["offers", "characterized"]
    scenario = parse_scenario(hour_scenario())
    tasks = sum(q.tasks for f in scenario.frameworks for q in f.queues)
    print(
        f"scenario: {len(scenario.frameworks)} frameworks, {scenario.vm_types[0].count} agents, "
        f"{tasks:,} tasks "
        "over about one hour, allocation interval 1 s"
    )
    for mode in modes:
        for seed in seeds:
            t0 = time.perf_counter()
            result = share(scenario, mode=mode, seed=seed, horizon_s=3600.0)
            seconds = time.perf_counter() - t0
            doc = result.to_dict()
            offers = sum(v["made"] for v in doc["offers"].values())
            size = len(json.dumps(doc))
            worst = max((v["unfairness_pct"] or 0.0) for v in doc["fairness"]["frameworks"].values())
            print(
                f"{mode:14s} seed {seed}: {seconds:6.2f} s wall for 3600 simulated s, "
                f"{sum(c['launched'] for c in doc['completion'].values()):,} tasks launched, "
                f"{offers:,} offers, {len(doc['timeline']['t']):,} timeline points kept, "
                f"document {size / 1e6:.2f} MB, "
                f"cpu utilisation {doc['utilisation_stats']['cpu']['mean']:.1%}, "
                f"worst unfairness {worst:.1f}%"
            )


if __name__ == "__main__":
    main()
