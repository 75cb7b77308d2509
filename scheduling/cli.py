"""Command line: ``python -m scheduling {simulate,allocate,share,mrsu,validate,import,...} ...``.

Invalid input exits with status 2 and the validation messages on stderr, never a traceback.
Warnings (valid input that is probably not meant) go to stderr as ``warning: <path>: ...``
and do not change the exit status. Inputs other than a scenario JSON are read by the
importers of :mod:`scheduling.importers` (``--format``, or guessed from the file).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TextIO

from .cost.schedulers import SCHEDULERS
from .cost.simulator import compare
from .errors import FieldError, ScenarioError
from .generators import synthetic_jobs
from .importers import IMPORTERS, Imported, Importer, get_importer, guess_importer
from .presets import VM_PRESETS, preset_vm_types
from .scenario import LIMITS, Scenario, SimulationOptions, option_fields, parse_overrides, parse_scenario


class UsageError(Exception):
    pass


@contextmanager
def _lines(path: str) -> Iterator[TextIO]:
    """The file (``-``: standard input) as text lines, read as they are needed."""
    if path == "-":
        yield sys.stdin
        return
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"{path}: no such file")
    if p.stat().st_size > LIMITS["document_bytes"]:
        raise UsageError(f"{path}: larger than {int(LIMITS['document_bytes']) // 2**20} MB")
    with p.open(encoding="utf-8", newline="") as f:
        yield f


def _write(text: str, path: str | None) -> None:
    if path in (None, "-"):
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")
    else:
        Path(path).write_text(text, encoding="utf-8")


def _warn(warnings: Iterable[FieldError]) -> None:
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)


def _read(path: str, fmt: str | None, raw_options: Sequence[str]) -> tuple[Importer, Imported]:
    """Read ``path`` with the importer ``fmt`` (or the one its type and first line suggest)."""
    try:
        with _lines(path) as lines:
            first = next(iter(lines), "")
            if fmt is not None:
                importer = get_importer(fmt, path="--format")
            else:
                guessed = guess_importer(path, first)
                if guessed is None:
                    formats = ", ".join(IMPORTERS)
                    raise UsageError(f"{path}: cannot tell its format; give --format ({formats})")
                importer = guessed
            options = importer.parse_options(
                parse_overrides(raw_options, importer.options, path="--option"), path="--option"
            )
            return importer, importer.read(itertools.chain([first], lines), options)
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None


def _scenario(imported: Imported, args: argparse.Namespace) -> tuple[dict[str, Any], Scenario]:
    """The document of what was read, on the preset cluster when it brought none, validated.

    Errors about imported jobs name the file's line and column.
    """
    doc = {"version": 1, **imported.document}
    if "vm_types" not in doc:
        doc["name"] = args.name or Path(args.source).stem or "Imported workload"
        doc["vm_types"] = preset_vm_types(args.preset, scale=args.scale)
    elif args.name:
        doc["name"] = args.name
    try:
        scenario = parse_scenario(doc)
    except ScenarioError as exc:
        raise ScenarioError(imported.locate(exc.errors)) from None
    _warn(imported.locate(scenario.warnings))
    return doc, scenario


def _load(args: argparse.Namespace) -> Scenario:
    _, imported = _read(args.source, args.format, [])
    return _scenario(imported, args)[1]


def _options(args: argparse.Namespace, scenario: Scenario) -> SimulationOptions:
    overrides = parse_overrides(args.option or [], option_fields(scenario.resources), path="--option")
    return SimulationOptions.from_dict(
        overrides, resources=scenario.resources, path="--option", base=scenario.options
    )


def cmd_simulate(args: argparse.Namespace) -> int:
    scenario = _load(args)
    options = _options(args, scenario)
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
    text = json.dumps({"scenario": scenario.name, "results": docs}, indent=None if args.compact else 1)
    _write(text, args.output)
    if args.html:
        from .cost.html import write_html_report  # plotly is imported only when asked for

        write_html_report(args.html, {n: r.to_dict() for n, r in results.items()}, title=scenario.name)
    if not args.quiet:
        print(_table(docs), file=sys.stderr)
    return 0


def _table(docs: dict[str, dict[str, Any]]) -> str:
    """The comparison table (:func:`scheduling.tables.comparison_table`) as aligned text."""
    from .cost.tables import COST_METRICS
    from .tables import comparison_table, comparison_text

    return comparison_text(comparison_table(docs, metrics=COST_METRICS), corner="scheduler")


def _fairness_output(args: argparse.Namespace, docs: dict[str, dict[str, Any]], title: str, doc: Any) -> None:
    """Write a fairness subcommand's JSON, its ``--html`` page and (unless ``--quiet``) its tables:
    the comparison and, for an allocation study, every criterion per framework."""
    _write(json.dumps(doc, indent=None if args.compact else 1, allow_nan=False), args.output)
    if args.html:
        from .fairness.html import write_fairness_html  # plotly is imported only when asked for

        write_fairness_html(args.html, docs, title=title)
    if not args.quiet:
        from .fairness.tables import allocation_framework_table, fairness_table, study_of
        from .tables import comparison_text, table_text

        blocks = [comparison_text(fairness_table(docs))]
        if docs and all(study_of(d) == "allocation" for d in docs.values()):
            blocks.append(table_text(allocation_framework_table(docs)))
        print("\n\n".join(blocks), file=sys.stderr)


def cmd_allocate(args: argparse.Namespace) -> int:
    from .fairness.allocation import allocate

    scenario = _load(args)
    policy = args.exact or args.policy
    if args.exact and (args.servers or args.trials != 1):
        raise UsageError(f"--exact {args.exact} takes neither --servers nor --trials (it is deterministic)")
    if not args.exact and (args.integer or args.tolerance is not None):
        raise UsageError("--integer and --tolerance go with --exact (progressive filling is whole tasks)")
    reference = allocate(scenario, policy="pf", integer=args.integer) if args.pf_inequality else None
    allocation = allocate(
        scenario,
        policy=policy,
        servers=args.servers,
        trials=args.trials,
        seed=args.seed,
        integer=args.integer if args.exact else None,
        tolerance=args.tolerance,
        pf_reference=reference,
    )
    doc = allocation.to_dict()
    _fairness_output(args, {doc["label"]: doc}, scenario.name, doc)
    return 0


def _overrides(items: Sequence[str], names: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``--set FRAMEWORK.KEY=VALUE`` (``*`` for every framework) as ``{framework: {key: value}}``."""
    out: dict[str, dict[str, Any]] = {}
    errors: list[FieldError] = []
    for k, item in enumerate(items):
        target, eq, value = item.partition("=")
        framework, dot, key = target.rpartition(".")
        if not eq or not dot or not framework or not key:
            errors.append(
                FieldError(f"--set[{k}]", f"{item!r}: write FRAMEWORK.KEY=VALUE, e.g. scylla.refuse_s=0")
            )
            continue
        if framework != "*" and framework not in names:
            errors.append(
                FieldError(f"--set[{k}]", f"unknown framework {framework!r} (frameworks: {', '.join(names)})")
            )
            continue
        parsed: Any = value
        with suppress(ValueError):
            parsed = float(value)
        for name in names if framework == "*" else [framework]:
            out.setdefault(name, {})[key] = parsed
    if errors:
        raise ScenarioError(errors)
    return out


def cmd_share(args: argparse.Namespace) -> int:
    from .fairness.sharing import share

    scenario = _load(args)
    try:
        result = share(
            scenario,
            mode=args.mode,
            criterion=args.criterion,
            servers=args.servers,
            allocation_interval_s=args.interval,
            seed=args.seed,
            overrides=_overrides(args.set or [], [f.name for f in scenario.frameworks]),
            horizon_s=args.horizon,
            label=args.label,
        )
    except ScenarioError as exc:  # the library's names of the options, as this command spells them
        spelled = {"overrides": "--set", "allocation_interval_s": "--interval", "horizon_s": "--horizon",
                   "seed": "--seed"}
        raise ScenarioError(
            [
                FieldError(
                    next(
                        (
                            f"{flag} {e.path[len(key) + 1 :]}".rstrip()
                            for key, flag in spelled.items()
                            if e.path == key or e.path.startswith(key + ".")
                        ),
                        e.path,
                    ),
                    e.message,
                )
                for e in exc.errors
            ]
        ) from None
    doc = result.to_dict()
    _fairness_output(args, {doc["label"]: doc}, scenario.name, doc)
    if doc.get("stopped"):
        print(f"warning: {doc['stopped']['reason']}", file=sys.stderr)
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    scenario = _load(args)
    machines = sum(t.count for t in scenario.vm_types)
    queues = sum(len(f.queues) for f in scenario.frameworks)
    complex_jobs = sum(len(f.complex_jobs) for f in scenario.frameworks)
    work = [f"{len(scenario.jobs)} jobs"] if scenario.jobs or not (queues or complex_jobs) else []
    work += [f"{queues} task queues"] if queues else []
    work += [f"{complex_jobs} complex jobs"] if complex_jobs else []
    print(
        f"{args.source}: valid (version {scenario.version}): {', '.join(work)}, "
        f"{machines} machines of {len(scenario.vm_types)} types"
        + (f", {len(scenario.machine_classes())} machine classes" if complex_jobs else "")
        + (f", {len(scenario.warnings)} warnings" if scenario.warnings else "")
    )
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    _, imported = _read(args.source, args.format, args.option or [])
    doc, _ = _scenario(imported, args)  # the output is always a valid scenario
    _write(json.dumps(doc, indent=None if len(imported.jobs) > 1000 else 1), args.output)
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    vm_types = preset_vm_types(args.preset, scale=args.scale)
    jobs = synthetic_jobs(
        seed=args.seed,
        jobs=args.jobs,
        arrival_rate_per_s=args.rate,
        executors=(args.executors[0], args.executors[1]),
        executor={"cpu": (args.cpu[0], args.cpu[1]), "mem": (args.mem[0], args.mem[1])},
        duration_s=(args.duration[0], args.duration[1]),
        deadline_fraction=args.deadline_fraction,
        frameworks=args.framework or (),
        vm_types=vm_types,  # executors are proposed only in sizes the preset's VMs hold
    )
    doc = {
        "version": 1,
        "name": args.name or f"Synthetic workload (seed {args.seed})",
        "vm_types": vm_types,
        "frameworks": [{"name": f} for f in args.framework or []],
        "jobs": jobs,
    }
    _warn(parse_scenario(doc).warnings)
    _write(json.dumps(doc, indent=None if args.jobs > 1000 else 1), args.output)
    return 0


def _source_arguments(p: argparse.ArgumentParser, *, metavar: str = "FILE", options: str = "") -> None:
    p.add_argument("source", metavar=metavar, help="the input file, - for stdin")
    p.add_argument(
        "--format", choices=list(IMPORTERS), help="the input's format (default: from its type and first line)"
    )
    p.add_argument(
        "--preset",
        choices=sorted(VM_PRESETS),
        default="paper-003",
        help="the cluster of an input without one",
    )
    p.add_argument("--scale", type=int, default=1, help="multiply the preset's VM counts")
    p.add_argument("--name", help="the scenario's name (default: the document's, or the file's)")
    if options:
        p.add_argument("--option", action="append", metavar="KEY=VALUE", help=options)


def build_parser() -> argparse.ArgumentParser:
    from .fairness.allocation import EXACT_POLICIES
    from .fairness.filling import POLICIES, SERVER_SELECTIONS
    from .fairness.sharing import SHARING_MODES

    p = argparse.ArgumentParser(prog="python -m scheduling", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("simulate", help="simulate schedulers on a scenario (JSON, or any importer's format)")
    _source_arguments(
        s, options="run option, repeatable or comma-separated: boot_time_s=30, rut.cpu=0.5,rut.mem=0.5"
    )
    s.add_argument(
        "--scheduler",
        action="append",
        metavar="NAME",
        help=f"repeatable; named ({', '.join(SCHEDULERS)}) or <ordering>-<placement>[:key=value,...]",
    )
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--html", metavar="FILE", help="also write a standalone page of Plotly charts")
    s.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    s.add_argument(
        "--brief", action="store_true", help="leave timelines and per-VM intervals out of the JSON"
    )
    s.add_argument("--compact", action="store_true", help="JSON without indentation")
    s.add_argument("--quiet", "-q", action="store_true", help="no summary table on stderr")
    s.set_defaults(func=cmd_simulate)

    a = sub.add_parser(
        "allocate",
        help="allocate a scenario's cluster to its frameworks by a fairness policy (papers 000, 001)",
        description="Static allocation of whole tasks: progressive filling under a fairness criterion "
        "and a server selection, over seeded trials, or an exact optimisation (--exact). Servers are "
        "the scenario's vm_types x count, named <type>#<k>; frameworks need a task_demand. Prints the "
        "allocation document (docs/results.md) as JSON.",
    )
    _source_arguments(a, metavar="SCENARIO")
    how = a.add_mutually_exclusive_group(required=True)
    how.add_argument("--policy", choices=POLICIES)
    how.add_argument("--exact", choices=EXACT_POLICIES,
                     help="U-MMF of tasks, of DRF's dominant share or of TSF's share (water-filling "
                     "LPs), or PF (cutting planes); solved by HiGHS")
    a.add_argument("--servers", choices=SERVER_SELECTIONS, help="server selection (default rrr)")
    a.add_argument("--trials", type=int, default=1, help="repetitions with their own random choices")
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--integer", action="store_true", help="--exact: whole tasks (default fractional)")
    a.add_argument("--tolerance", type=float, help="--exact pf: relative error of the log approximation")
    a.add_argument(
        "--pf-inequality",
        action="store_true",
        help="also solve PF (fractional, or whole tasks with --integer) and report eq. (9) against it",
    )
    a.add_argument("--html", metavar="FILE", help="also write a standalone page with the heatmap and tables")
    a.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    a.add_argument("--compact", action="store_true", help="JSON without indentation")
    a.add_argument("--quiet", "-q", action="store_true", help="no summary table on stderr")
    a.set_defaults(func=cmd_allocate)

    sh = sub.add_parser(
        "share",
        help="simulate frameworks sharing a cluster: the Mesos offer cycle or characterized allocation",
        description="Online sharing (papers 000 Section V, 001): the frameworks' task queues run on the "
        "scenario's cluster, allocated every --interval seconds by the Mesos offer cycle (frameworks' "
        "offer_policy, refuse_s, hold_s) or by workload-characterized progressive filling (--criterion, "
        "--servers). Prints the sharing document (docs/results.md) as JSON: share timelines against "
        "the fair share, unfairness, makespan and completion per framework.",
    )
    _source_arguments(sh, metavar="SCENARIO")
    sh.add_argument("--mode", choices=SHARING_MODES, default="offers")
    sh.add_argument(
        "--criterion",
        choices=POLICIES,
        default="drf",
        help="characterized mode: the fairness criterion (offers are always DRF-sorted, as in Mesos)",
    )
    sh.add_argument(
        "--servers", choices=SERVER_SELECTIONS, help="characterized mode: server selection"
    )
    sh.add_argument("--interval", type=float, default=1.0, help="allocation interval in seconds (Mesos: 1)")
    sh.add_argument("--horizon", type=float, help="stop the simulation at this time (seconds)")
    sh.add_argument("--seed", type=int, default=0)
    sh.add_argument(
        "--set",
        action="append",
        metavar="FRAMEWORK.KEY=VALUE",
        help="repeatable: override a framework's offer_policy, refuse_s or hold_s (* for every framework)",
    )
    sh.add_argument("--label", help="the document's label (default: from the mode and settings)")
    sh.add_argument("--html", metavar="FILE", help="also write a standalone page of the share timelines")
    sh.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    sh.add_argument("--compact", action="store_true", help="JSON without indentation")
    sh.add_argument("--quiet", "-q", action="store_true", help="no summary table on stderr")
    sh.set_defaults(func=cmd_share)

    from .mrsu.cli import add_parsers as add_mrsu_parsers

    add_mrsu_parsers(sub)  # mrsu, mrsu-sweep, mrsu-advise (paper 002)

    from .udrf.cli import add_parsers as add_udrf_parsers

    add_udrf_parsers(sub)  # udrf, udrf-generate (paper 004)

    v = sub.add_parser("validate", help="check a scenario and report every problem")
    _source_arguments(v)
    v.set_defaults(func=cmd_validate)

    formats = "; ".join(f"{i.name}: {i.label}" for i in IMPORTERS.values())
    i = sub.add_parser("import", help=f"convert an input into a scenario document ({formats})")
    _source_arguments(i, options="an importer option, e.g. with_deadlines=false (rm-simulator)")
    i.add_argument("--output", "-o")
    i.set_defaults(func=cmd_import)

    rm = sub.add_parser("import-rm", help="the same as: import --format rm-simulator")
    _source_arguments(rm, metavar="CSV", options="an importer option, e.g. with_deadlines=false")
    rm.add_argument("--output", "-o")
    rm.set_defaults(func=cmd_import, format="rm-simulator")

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
    except BrokenPipeError:
        # The reader went away (``... | head``): stop quietly, as Unix tools do, and keep Python
        # from complaining again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
