"""The calibration of paper 003's PageRank-like network sensitivity (issue 17, notes §8).

    python benchmarks/calibrate_network.py [--target 14] [--step 0.01] [--max 2]

Scans the network sensitivity sigma upwards in steps of ``--step`` and prints, for each, how much
shorter the mean completion time (arrival to finish) of the PageRank-like light-load workload
(``scheduling.cost.setups.paper_workload("light", "pagerank", sensitivity=sigma)``: the authors'
1,000 jobs on the paper's 14-VM cluster, every job network-bound) is under ``edf-bfd`` and
``edf-ilp`` than under ``fifo-spread``. It stops at the first sigma where both reach ``--target``
percent (Fig. 6 of paper 003: "at least 14 %" for PageRank at light load): that is
``scheduling.cost.setups.PAGERANK_SENSITIVITY``. Deterministic.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduling import compare, parse_scenario  # noqa: E402
from scheduling.cost.setups import PAGERANK_SENSITIVITY, paper_workload  # noqa: E402

SCHEDULERS = ["fifo-spread", "edf-bfd", "edf-ilp"]


def shortening(sigma: float) -> dict[str, float]:
    """Percent shorter mean completion than fifo-spread, per scheduler, at ``sigma``."""
    scenario = parse_scenario(paper_workload("light", "pagerank", sensitivity=sigma))
    results = compare(scenario, schedulers=SCHEDULERS)
    base = results["fifo-spread"].mean_completion_s
    return {s: 100 * (1 - results[s].mean_completion_s / base) for s in SCHEDULERS[1:]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--target", type=float, default=14.0, help="percent shorter than fifo-spread")
    p.add_argument("--step", type=float, default=0.01)
    p.add_argument("--max", type=float, default=2.0)
    args = p.parse_args()
    print("| sigma | edf-bfd shorter | edf-ilp shorter |\n|---|---|---|")
    k = 1
    while k * args.step <= args.max + 1e-12:
        sigma = round(k * args.step, 6)
        got = shortening(sigma)
        print(f"| {sigma:g} | {got['edf-bfd']:.2f}% | {got['edf-ilp']:.2f}% |")
        if min(got.values()) >= args.target:
            print(f"\nCalibrated: sigma = {sigma:g} (scheduling.cost.setups.PAGERANK_SENSITIVITY = "
                  f"{PAGERANK_SENSITIVITY:g})")
            return
        k += 1
    print(f"\nNo sigma up to {args.max:g} reaches {args.target:g} % for both.")


if __name__ == "__main__":
    main()
