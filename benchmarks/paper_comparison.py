"""Benchmark 3 (issue 2): paper 003's comparison, reproduced on its own workloads.

    python benchmarks/paper_comparison.py

Light and high load (the authors' RM-Simulator workloads, 1,000 jobs each) on the paper's
14-VM cluster (Table 3). For each scheduler: total cost, cost relative to fifo-spread and to
morpheus, gap to the lower bound, deadline misses (of jobs with deadlines, and eq. 12),
mean completion time, ILP fallbacks. Prints markdown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduling import compare, parse_scenario  # noqa: E402
from scheduling.importers import import_rm_csv  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "rm-simulator"
SCHEDULERS = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]


def table(label: str, csv_name: str, schedulers: list[str], options: dict) -> str:
    sc = parse_scenario(import_rm_csv((SHARED / csv_name).read_text(), name=label))
    results = {k: v.to_dict() for k, v in compare(sc, schedulers=schedulers, options=options).items()}
    spread = results["fifo-spread"]["total_cost"]
    morpheus = results["morpheus"]["total_cost"]
    lines = [
        f"### {label} ({csv_name}, {len(sc.jobs):,} jobs, options {options or 'default'})",
        "",
        "| scheduler | cost $ | vs fifo-spread | vs morpheus | gap to bound | missed / deadline jobs "
        "| eq. 12 | mean completion s | mean wait s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, d in results.items():
        eq12 = d["deadline_violation_eq12_pct"]
        lines.append(
            f"| {name} | {d['total_cost']:.2f} | {100 * (d['total_cost'] / spread - 1):+.1f}% | "
            f"{100 * (d['total_cost'] / morpheus - 1):+.1f}% | {100 * d['gap_to_lower_bound']:+.1f}% | "
            f"{d['deadline_missed']} / {d['deadline_jobs']} ({d['deadline_miss_pct']:.1f}%) | "
            f"{'n/a' if eq12 is None else f'{eq12:.1f}%'} | {d['mean_completion_s']:.1f} | "
            f"{d['mean_wait_s']:.1f} |"
        )
    lines.append(f"\nLower bound: ${results['fifo-spread']['lower_bound_cost']:.2f}.")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = p.parse_args()
    options = {k: float(v) for k, _, v in (o.partition("=") for o in args.option)}
    print(table("Light load", "workload_jobs_low_load.csv", SCHEDULERS, options))
    print()
    print(table("High load", "workload_jobs_high_load.csv", SCHEDULERS, options))


if __name__ == "__main__":
    main()
