"""UDRF's speed at the size of paper 004's trace (issue 9): offline and one simulated hour online.

A by-hand benchmark, not part of the test suite. The issue's goals, on 500 users, 2,000 jobs
and 700 machine classes (the paper's trace has 580 users and 700 classes): offline UDRF in at
most 10 s, and online, one simulated hour at one decision per second, in at most 60 s. The
trace is :func:`scheduling.udrf.synthetic.synthetic_scenario` with its arrivals spread over the
hour. Offline times :func:`~scheduling.udrf.offline_doc.offline_document` (UDRF and the DRF
baseline on every RDUC, with the document) and :func:`~scheduling.udrf.offline_doc.policy_outcome`
for UDRF alone; online times :func:`~scheduling.udrf.online.simulate` per policy, stopped at
3,600 s, and the whole :func:`~scheduling.udrf.online.online_document` (both policies). It also
prints what the runs did (jobs completed, mean completion, waste) and the comparison by classes
and by runs (Fig. 10b-c).

Run from the repository root::

    .venv/bin/python -m benchmarks.udrf_bench             # seeds 0-2
    .venv/bin/python -m benchmarks.udrf_bench --seeds 1
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from scheduling.udrf.graph import rducs
from scheduling.udrf.model import UdrfProblem
from scheduling.udrf.offline_doc import offline_document, policy_outcome
from scheduling.udrf.online import compare, online_document, simulate
from scheduling.udrf.synthetic import synthetic_scenario

USERS, JOBS, CLASSES, HOUR_S = 500, 2000, 700, 3600.0
GOAL_OFFLINE_S, GOAL_ONLINE_S = 10.0, 60.0


def timed(call: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    out = call(*args, **kwargs)
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    for seed in range(args.seeds):
        t_gen, scenario = timed(synthetic_scenario, users=USERS, jobs=JOBS, classes=CLASSES, seed=seed,
                                arrival_span_s=HOUR_S)
        problem = UdrfProblem.from_scenario(scenario)
        groups = rducs([problem.positive_demand(u) for u in range(len(problem.users))])
        shared = [g for g in groups if len(g) > 1]
        print(f"seed {seed}: trace drawn and parsed in {t_gen:.2f} s; {len(groups)} RDUCs "
              f"({len(shared)} shared by {sum(map(len, shared))} users, the largest {max(map(len, groups))})")
        t_outcome, _ = timed(policy_outcome, problem, groups, "udrf")
        t_offline, doc = timed(offline_document, scenario)
        print(f"  offline: UDRF outcome {t_outcome:.2f} s; document with DRF {t_offline:.2f} s "
              f"(goal {GOAL_OFFLINE_S:.0f} s); {len(json.dumps(doc)) / 1e6:.2f} MB")
        results = {}
        for policy in ("udrf", "drf"):
            t_sim, result = timed(simulate, problem, policy=policy, horizon_s=HOUR_S, seed=seed)
            results[policy] = result
            s = result.summary()
            print(f"  online {policy}: {t_sim:.2f} s for the hour (goal {GOAL_ONLINE_S:.0f} s); "
                  f"{s['decisions']} decisions, {s['completed']} of {s['jobs']} jobs done, mean completion "
                  f"{s['mean_completion_s']:.0f} s, mean waste cpu {s['mean_wasted']['cpu']:.0f} "
                  f"mem {s['mean_wasted']['mem']:.0f}")
        t_doc, odoc = timed(online_document, scenario, horizon_s=HOUR_S, seed=seed)
        print(f"  online document (both policies): {t_doc:.2f} s, {len(json.dumps(odoc)) / 1e6:.2f} MB")
        table = compare(results["udrf"], results["drf"])
        print("  reduction by classes: " + ", ".join(
            f"{r['classes']}: {r['reduction_pct']:.0f}% ({r['jobs']})" for r in table["by_classes"]))
        print("  reduction by runs: " + ", ".join(
            f"{r['runs']}: {r['reduction_pct']:.0f}% ({r['jobs']})" for r in table["by_runs"]))


if __name__ == "__main__":
    main()
