"""Issue 19: the cost engine's result documents before and after a change, compared whole.

    python benchmarks/engine_identity.py --save /tmp/before     # on the engine before the change
    python benchmarks/engine_identity.py --check /tmp/before    # after it: every document equal?
    python benchmarks/engine_identity.py --save DIR --quick     # without the 10,000-job cases

Simulates every scheduler of paper 003 (and the BFD variants with a RUT, with backfill, with
billing rounding and a boot time, on interval passes) on the shipped workloads
(``examples/paper003-*.json``; with ``--markets`` also those examples with a reserved and two spot
VMs of each type, spot VMs of every other type interrupted) and the authors' CSVs
(``../shared/data/rm-simulator/*.csv`` on the paper's 14-VM cluster, and the 10,000-job one on
1,400 VMs as well), and writes each whole result document as JSON (``--save``) or compares it with
the saved one (``--check``), printing the first path at which two documents differ. The scheduling
delays (wall-clock samples and their summary) are the only fields left out: they are measured, not
computed. Exit status 1 if any document differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scheduling import parse_scenario, simulate  # noqa: E402
from scheduling.cost.bounds import lower_bound_cost  # noqa: E402
from scheduling.importers import import_rm_csv  # noqa: E402
from scheduling.presets import preset_vm_types  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "rm-simulator"
SCHEDULERS = (
    "fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp",
    "edf-bfd:rut.cpu=0.8,rut.mem=0.2", "edf-bfd:edf_backfill=true",
    "edf-bfd:billing_granularity_s=60,min_billed_s=60,boot_time_s=30",
    "edf-bfd:scheduling_interval_s=10", "fifo-bfd", "morpheus-bfd", "edf-spread", "edf-consolidate",
)
LARGE_SCHEDULERS = ("fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp")


def workloads(quick: bool, markets: bool) -> dict[str, tuple[dict[str, Any], tuple[str, ...]]]:
    out: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {}
    for path in sorted((ROOT / "examples").glob("paper003-*.json")):
        out[path.stem] = (json.loads(path.read_text()), SCHEDULERS)
    for path in sorted(DATA.glob("workload_jobs*.csv")):
        if path.name == "workload_jobs.csv" and quick:
            continue
        doc = import_rm_csv(path.read_text(), name=path.stem)
        out[f"{path.stem}@14"] = (doc, SCHEDULERS if path.stat().st_size < 100_000 else LARGE_SCHEDULERS)
    if markets:  # scenario version 4: reserved and spot VMs, spot interruptions (issue 18)
        for name in ("paper003-light", "paper003-high"):
            doc = json.loads((ROOT / "examples" / f"{name}.json").read_text())
            doc["version"] = 4
            for k, vm_type in enumerate(doc["vm_types"]):
                price = vm_type["price_per_hour"]
                vm_type["reserved"] = {"price_per_hour": round(price * 0.6, 4), "count": 1}
                vm_type["spot"] = {"price_per_hour": round(price * 0.3, 4), "count": 2,
                                   "interruptions_per_hour": 0.5 * (k % 2)}
            out[f"{name}-markets"] = (doc, SCHEDULERS)
    if not quick:
        big = (DATA / "large-scale-workload_jobs_high_load.csv").read_text()
        for scale in (1, 100):
            doc = import_rm_csv(big, name="large", vm_types=preset_vm_types("paper-003", scale=scale))
            out[f"large-high@{14 * scale}"] = (doc, LARGE_SCHEDULERS)
    return out


def comparable(doc: dict[str, Any]) -> dict[str, Any]:
    """The document without what is measured rather than computed (wall-clock delays)."""
    return {k: v for k, v in doc.items() if k != "scheduling_delay"}


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path}: keys {list(a)[:8]} != {list(b)[:8]}"
        for k in a:
            found = first_difference(a[k], b[k], f"{path}.{k}")
            if found:
                return found
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if a != b and not (a != a and b != b):  # NaN equals NaN here
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, float) and a == 0.0 and math.copysign(1.0, a) != math.copysign(1.0, b):
        return f"{path}: {a!r} != {b!r}"  # JSON writes the two zeros differently
    return None


def file_name(workload: str, scheduler: str) -> str:
    digest = hashlib.sha1(scheduler.encode()).hexdigest()[:8]
    return f"{workload}--{scheduler.split(':')[0]}-{digest}.json"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path)
    mode.add_argument("--check", type=Path)
    p.add_argument("--quick", action="store_true", help="leave out the 10,000-job workloads")
    p.add_argument("--markets", action="store_true",
                   help="add the examples with reserved and spot VMs (scenario version 4)")
    args = p.parse_args()
    folder: Path = args.save or args.check
    folder.mkdir(parents=True, exist_ok=True)
    differ = 0
    count = 0
    for name, (doc, schedulers) in workloads(args.quick, args.markets).items():
        scenario = parse_scenario(doc)
        bound = lower_bound_cost(scenario)
        for spec in schedulers:
            t0 = time.process_time()
            simulated = simulate(scenario, scheduler=spec, lower_bound=bound)
            result = comparable(json.loads(json.dumps(simulated.to_dict())))
            cpu = time.process_time() - t0
            target = folder / file_name(name, spec)
            count += 1
            if args.save:
                target.write_text(json.dumps(result))
                print(f"saved {name} {spec} ({cpu:.2f} s CPU)", file=sys.stderr)
                continue
            before = json.loads(target.read_text())
            found = first_difference(before, result)
            if found:
                differ += 1
                print(f"DIFFERS {name} {spec}: {found}")
            else:
                print(f"same    {name} {spec} ({cpu:.2f} s CPU)")
    if args.check:
        print(f"{count - differ} of {count} documents identical")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
