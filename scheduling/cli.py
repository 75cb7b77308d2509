"""Command line: ``python -m scheduling {simulate,validate,import-rm,generate} ...``.

Invalid input exits with status 2 and the validation messages on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import ScenarioError
from .generators import synthetic_jobs
from .importers import import_rm_csv
from .presets import VM_PRESETS, preset_vm_types
from .scenario import LIMITS, SimulationOptions, load_scenario_json, parse_scenario
from .schedulers import SCHEDULERS
from .simulator import compare


class UsageError(Exception):
    pass


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"{path}: no such file")
    if p.stat().st_size > LIMITS["document_bytes"]:
        raise UsageError(f"{path}: larger than {int(LIMITS['document_bytes']) // 2**20} MB")
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None


def _write(text: str, path: str | None) -> None:
    if path in (None, "-"):
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")
    else:
        Path(path).write_text(text, encoding="utf-8")


def _load(path: str) -> Any:
    text = _read(path)
    if path.lower().endswith(".csv"):
        return parse_scenario(import_rm_csv(text, name=Path(path).stem))
    return load_scenario_json(text)


def _options(args: argparse.Namespace, resources: tuple[str, ...], base: SimulationOptions) -> SimulationOptions:
    raw: dict[str, Any] = {}
    for item in args.option or []:
        key, eq, value = item.partition("=")
        if not eq:
            raise ScenarioError.single(f"--option {item}", "expected key=value")
        if key.startswith("rut."):
            raw.setdefault("rut", {})[key[4:]] = _number(value, f"--option {key}")
        elif key in ("ilp_method", "edf_backfill"):
            raw[key] = value
        else:
            raw[key] = _number(value, f"--option {key}")
    return SimulationOptions.from_dict(raw, resources=resources, path="--option", base=base)


def _number(value: str, path: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise ScenarioError.single(path, f"must be a number, got {value!r}") from None


def cmd_simulate(args: argparse.Namespace) -> int:
    scenario = _load(args.scenario)
    options = _options(args, scenario.resources, scenario.options)
    schedulers = args.scheduler or ["edf-bfd"]
    results = compare(scenario, schedulers=schedulers, options=options, seed=args.seed)
    docs = {name: r.to_dict() for name, r in results.items()}
    if args.brief:  # copies: the HTML report below still draws from the full results
        docs = {
            name: {
                **{k: v for k, v in d.items() if k not in ("timeline", "fairness", "vm_intervals")},
                "scheduling_delay": {k: v for k, v in d["scheduling_delay"].items() if k != "samples_ms"},
            }
            for name, d in docs.items()
        }
    _write(json.dumps({"scenario": scenario.name, "results": docs}, indent=None if args.compact else 1), args.output)
    if args.html:
        from .html_report import write_html_report  # plotly is imported only when asked for

        write_html_report(args.html, {n: r.to_dict() for n, r in results.items()}, title=scenario.name)
    if not args.quiet:
        print(_table(docs), file=sys.stderr)
    return 0


def _table(docs: dict[str, dict[str, Any]]) -> str:
    """The comparison table (:func:`scheduling.presenter.comparison_table`) as aligned text."""
    from .presenter import comparison_table

    table = comparison_table(docs)
    rows = [["scheduler", *table["variants"]]]
    rows += [[row["label"], *(cell["shown"] for cell in row["cells"])] for row in table["rows"]]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = [
        "  ".join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True))])
        for r in rows
    ]
    return "\n".join(line.rstrip() for line in lines)


def cmd_validate(args: argparse.Namespace) -> int:
    scenario = _load(args.scenario)
    machines = sum(t.count for t in scenario.vm_types)
    print(f"{args.scenario}: valid: {len(scenario.jobs)} jobs, {machines} machines of {len(scenario.vm_types)} types")
    return 0


def cmd_import_rm(args: argparse.Namespace) -> int:
    vm_types = preset_vm_types(args.preset, scale=args.scale)
    doc = import_rm_csv(_read(args.csv), name=args.name or Path(args.csv).stem, vm_types=vm_types)
    parse_scenario(doc)  # the output is always a valid scenario
    _write(json.dumps(doc, indent=1), args.output)
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    jobs = synthetic_jobs(
        seed=args.seed,
        jobs=args.jobs,
        arrival_rate_per_s=args.rate,
        executors=(args.executors[0], args.executors[1]),
        executor={"cpu": (args.cpu[0], args.cpu[1]), "mem": (args.mem[0], args.mem[1])},
        duration_s=(args.duration[0], args.duration[1]),
        deadline_fraction=args.deadline_fraction,
        frameworks=args.framework or (),
    )
    doc = {
        "version": 1,
        "name": args.name or f"Synthetic workload (seed {args.seed})",
        "vm_types": preset_vm_types(args.preset, scale=args.scale),
        "frameworks": [{"name": f} for f in args.framework or []],
        "jobs": jobs,
    }
    parse_scenario(doc)
    _write(json.dumps(doc, indent=None if args.jobs > 1000 else 1), args.output)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m scheduling", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("simulate", help="simulate schedulers on a scenario (JSON, or RM-Simulator CSV)")
    s.add_argument("scenario", help="scenario JSON file (or .csv in the RM-Simulator format), - for stdin")
    s.add_argument(
        "--scheduler",
        action="append",
        metavar="NAME",
        help=f"repeatable; named ({', '.join(SCHEDULERS)}) or <ordering>-<placement>[:key=value,...]",
    )
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--option", action="append", metavar="KEY=VALUE", help="run option, e.g. boot_time_s=30, rut.cpu=0.5")
    s.add_argument("--html", metavar="FILE", help="also write a standalone page of Plotly charts")
    s.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    s.add_argument("--brief", action="store_true", help="leave timelines and per-VM intervals out of the JSON")
    s.add_argument("--compact", action="store_true", help="JSON without indentation")
    s.add_argument("--quiet", "-q", action="store_true", help="no summary table on stderr")
    s.set_defaults(func=cmd_simulate)

    v = sub.add_parser("validate", help="check a scenario and report every problem")
    v.add_argument("scenario")
    v.set_defaults(func=cmd_validate)

    i = sub.add_parser("import-rm", help="convert a paper-003 RM-Simulator CSV into a scenario")
    i.add_argument("csv")
    i.add_argument("--preset", choices=sorted(VM_PRESETS), default="paper-003")
    i.add_argument("--scale", type=int, default=1, help="multiply the preset's VM counts")
    i.add_argument("--name")
    i.add_argument("--output", "-o")
    i.set_defaults(func=cmd_import_rm)

    g = sub.add_parser("generate", help="generate a synthetic scenario (Poisson arrivals; seeded)")
    g.add_argument("--jobs", type=int, default=100)
    g.add_argument("--rate", type=float, default=0.05, help="arrivals per second")
    g.add_argument("--executors", type=int, nargs=2, default=(1, 8), metavar=("LOW", "HIGH"))
    g.add_argument("--cpu", type=float, nargs=2, default=(1, 6), metavar=("LOW", "HIGH"))
    g.add_argument("--mem", type=float, nargs=2, default=(2, 12), metavar=("LOW", "HIGH"))
    g.add_argument("--duration", type=float, nargs=2, default=(10, 300), metavar=("LOW", "HIGH"))
    g.add_argument("--deadline-fraction", type=float, default=0.5)
    g.add_argument("--framework", action="append", help="repeatable: jobs are spread over these frameworks")
    g.add_argument("--preset", choices=sorted(VM_PRESETS), default="paper-003")
    g.add_argument("--scale", type=int, default=1)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--name")
    g.add_argument("--output", "-o")
    g.set_defaults(func=cmd_generate)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ScenarioError as exc:
        for e in exc.errors:
            print(f"error: {e}", file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
