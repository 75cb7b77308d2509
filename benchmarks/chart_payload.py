"""Benchmark: the run page's chart payload and the reports of a 10,000-job, five-scheduler run.

    python benchmarks/chart_payload.py [--save DIR] [--tenants]

Simulates the paper-003 authors' 10,000-job workload (large-scale-workload_jobs_high_load.csv)
on the paper's VM mix scaled x100 (1,400 VMs) with the five named schedulers, then measures
the JSON of :func:`scheduling.cost.charts.all_figures` (what /api/runs/<id>/figures/ serves; goal
<= 2 MB), each figure's share of it, and the time and size of the CSV, XLSX and PDF reports.
``--tenants`` spreads the jobs over two frameworks (seeded), so that every scheduler also
has its fairness charts. ``--save DIR`` also writes the result documents there for later
runs. Prints markdown.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduling import SCHEDULERS, compare, parse_scenario  # noqa: E402
from scheduling.cost.charts import all_figures  # noqa: E402
from scheduling.importers import import_rm_csv  # noqa: E402
from scheduling.presets import preset_vm_types  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "rm-simulator"


def results_of(save: Path | None, tenants: bool = False) -> dict[str, dict]:
    cached = save / ("results-tenants.json" if tenants else "results.json") if save else None
    if cached and cached.exists():
        return json.loads(cached.read_text())
    text = (SHARED / "large-scale-workload_jobs_high_load.csv").read_text()
    vm_types = preset_vm_types("paper-003", scale=100)
    doc = import_rm_csv(text, name="10,000 shipped jobs on 1,400 VMs", vm_types=vm_types)
    if tenants:
        rng = random.Random(0)
        doc["frameworks"] = [{"name": "analytics", "weight": 2}, {"name": "etl"}]
        for job in doc["jobs"]:
            job["framework"] = rng.choice(["analytics", "etl"])
    started = time.perf_counter()
    runs = compare(parse_scenario(doc), schedulers=list(SCHEDULERS))
    print(f"simulation of {len(runs)} schedulers: {time.perf_counter() - started:.1f} s\n")
    results = {name: r.to_dict() for name, r in runs.items()}
    if cached:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(results))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="cache the result documents in this directory")
    parser.add_argument("--tenants", action="store_true", help="two frameworks, for the fairness charts")
    args = parser.parse_args()
    results = results_of(args.save, args.tenants)
    print(f"Machine: {platform.machine()}, Python {platform.python_version()}\n")
    started = time.perf_counter()
    figures = all_figures(results)
    built = time.perf_counter() - started
    body = json.dumps(figures, allow_nan=False, separators=(",", ":")).encode()
    print("| measure | value | goal |\n|---|---|---|")
    print(f"| all_figures, build | {built:.2f} s | |")
    print(f"| chart payload (JSON) | {len(body) / 1e6:.2f} MB | <= 2 MB |")
    print(f"| chart payload, gzip | {len(gzip.compress(body)) / 1e6:.2f} MB | |")
    print("\n| figure | KB |\n|---|---|")
    for key, fig in figures.items():
        print(f"| {key} | {len(json.dumps(fig, separators=(',', ':'))) / 1e3:.0f} |")
    try:
        import django

        django.setup()
    except Exception:
        pass
    from planner.kinds.compare.report import PDF_FIGURES, SHEET_CHARTS, comparison_report
    from planner.reports import FORMATS, report_content
    from planner.runs.kinds import get_kind

    print("\n| report | seconds | MB |\n|---|---|---|")
    meta = {"run_name": "10,000 shipped jobs, five schedulers", "scenario_name": "RM high load"}
    kind = get_kind("compare")
    options = {"schedulers": list(results), "baseline": None, "seed": 0, "options": None}
    # The figures each format draws: none in the CSV, the native charts of the XLSX, the page's in the PDF.
    drawn = {"csv": (), "xlsx": SHEET_CHARTS, "pdf": (*PDF_FIGURES, "fairness:")}
    for fmt, report_format in FORMATS.items():
        started = time.perf_counter()
        body = comparison_report(results, figures=drawn[fmt])
        content = report_content(body, meta=meta, settings=kind.settings(options), currency="$",
                                 variants=list(results))
        data = report_format.build(content)
        print(f"| {fmt} | {time.perf_counter() - started:.1f} | {len(data) / 1e6:.2f} |")


if __name__ == "__main__":
    main()
