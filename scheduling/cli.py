"""Command line: ``python -m scheduling {simulate,allocate,share,mrsu,validate,import,...} ...``.

Invalid input exits with status 2 and the validation messages on stderr, never a traceback.
Warnings (valid input that is probably not meant) go to stderr as ``warning: <path>: ...``
and do not change the exit status. Inputs other than a scenario JSON are read by the
importers of :mod:`scheduling.importers` (``--format``, or guessed from the file).

The papers' sub-commands come from their packages: each paper named in :data:`PAPERS` has a
``cli.py`` whose ``add_commands(subparsers)`` adds them (``simulate``; ``allocate``, ``share``;
``mrsu``, ``mrsu-sweep``, ``mrsu-advise``; ``udrf``, ``udrf-generate``; ``sweep``, of the
sweeps over the cost engine, :mod:`scheduling.sweep`), in this order; the
commands every paper shares (``validate``, ``import``, ``import-rm``, ``generate``,
``reproduce``, which measures every paper's claims: :mod:`scheduling.reproduce`, and
``compile``, the cost engine's compiled core: :mod:`scheduling.compiled`) are here.
What every command shares (reading inputs, writing outputs, exit codes) is
:mod:`scheduling.cli_support`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence

from . import compiled
from .cli_support import (
    add_import_arguments,
    add_source_arguments,
    load_scenario,
    read_import,
    run_command,
    scenario_of,
    warn,
    write_output,
)
from .collector import collector_paused
from .generators import synthetic_jobs
from .glossary import command_terms, help_text
from .html import write_text_atomically
from .importers import IMPORTERS
from .params import add_flags, read_flags
from .presets import VM_PRESETS, preset_vm_types
from .reproduce import (
    REPRODUCE_PARAMS,
    all_claims,
    paper_intros,
    reproduce,
    reproduction_document,
    reproduction_html,
    reproduction_markdown,
    reproduction_table,
)
from .scenario import parse_scenario
from .tables import table_text

__all__ = ["PAPERS", "build_parser", "main"]

#: The packages whose ``cli.add_commands`` add sub-commands, in the order ``--help`` lists them: the
#: papers', then the sweeps (built on the cost engine).
PAPERS = ("cost", "fairness", "mrsu", "udrf", "sweep")


def cmd_validate(args: argparse.Namespace) -> int:
    scenario = load_scenario(args)
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
    if not hasattr(args, "sources"):  # import-rm: one file
        args.sources = [args.source]
        args.vm_types = None
        args.option = args.option or []
    args.source = args.sources[0]  # names the scenario
    imported = read_import(args)
    warn(imported.warnings)
    doc, _ = scenario_of(imported, args)  # the output is always a valid scenario
    write_output(json.dumps(doc, indent=None if len(imported.jobs) > 1000 else 1), args.output)
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
        network_fraction=args.network_fraction,
        network_sensitivity=args.network_sensitivity,
        frameworks=args.framework or (),
        vm_types=vm_types,  # executors are proposed only in sizes the preset's VMs hold
    )
    doc = {
        "version": 3 if any("network_sensitivity" in j for j in jobs) else 1,
        "name": args.name or f"Synthetic workload (seed {args.seed})",
        "vm_types": vm_types,
        "frameworks": [{"name": f} for f in args.framework or []],
        "jobs": jobs,
    }
    warn(parse_scenario(doc).warnings)
    write_output(json.dumps(doc, indent=None if args.jobs > 1000 else 1), args.output)
    return 0


def cmd_reproduce(args: argparse.Namespace) -> int:
    options = read_flags(args, REPRODUCE_PARAMS, what="reproduce")
    claims = all_claims(options["papers"])
    done = [0]

    def progress(fraction: float) -> None:
        done[0] += 1
        if not args.quiet:
            print(f"\r{done[0]} of {len(claims)} claims measured", end="", file=sys.stderr, flush=True)

    outcomes = reproduce(claims, seeds=options["seeds"], progress=progress)
    if not args.quiet:
        print(file=sys.stderr)
        print(table_text(reproduction_table(outcomes)), file=sys.stderr)
    seeds = options["seeds"]
    if args.html:
        write_text_atomically(args.html, reproduction_html(outcomes, seeds=seeds))
    if args.markdown:
        papers = " ".join(f"--paper {p}" for p in options["papers"]) if len(options["papers"]) < 5 else ""
        command = f"python -m scheduling reproduce {papers} --seeds {seeds}".replace("  ", " ")
        markdown = reproduction_markdown(outcomes, seeds=seeds, command=command,
                                         intro=paper_intros(options["papers"]))
        write_text_atomically(args.markdown, markdown)
    text = json.dumps(reproduction_document(outcomes, seeds=seeds), indent=None if args.compact else 1)
    write_output(text, args.output)
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    if not args.status and compiled.built() is None:
        print("Compiling the cost engine's core with mypyc (about a minute, once per change of its "
              "source) ...", file=sys.stderr)
        try:
            compiled.build(quiet=True)
        except compiled.BuildError as e:
            print(f"not compiled: {e}. The engine runs its source interpreted: the same results, "
                  "slower.", file=sys.stderr)
            if not args.warn_only:
                return 1
    write_output(json.dumps(compiled.status(), indent=1), None)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m scheduling", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    for paper in PAPERS:  # imported by name: the papers import shared code, never this module
        importlib.import_module(f"scheduling.{paper}.cli").add_commands(sub)

    v = sub.add_parser("validate", help="check a scenario and report every problem")
    add_source_arguments(v)
    v.set_defaults(func=cmd_validate)

    formats = "; ".join(f"{i.name}: {i.label}" for i in IMPORTERS.values())
    i = sub.add_parser("import", help=f"convert an input into a scenario document ({formats})")
    add_import_arguments(i)
    i.add_argument("--output", "-o")
    i.set_defaults(func=cmd_import)

    rm = sub.add_parser("import-rm", help="the same as: import --format rm-simulator")
    add_source_arguments(rm, metavar="CSV", options="an importer option, e.g. with_deadlines=false")
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
    g.add_argument("--network-fraction", type=float, default=0.0,
                   help="share of jobs that are network-bound (notes §8; scenario version 3)")
    g.add_argument("--network-sensitivity", type=float, default=0.0, metavar="SIGMA",
                   help="their network sensitivity: a job on k of its E executors' VMs runs "
                   "1 + SIGMA (k - 1) / (E - 1) times its duration")
    g.add_argument("--framework", action="append", help="repeatable: jobs are spread over these frameworks")
    g.add_argument("--preset", choices=sorted(VM_PRESETS), default="paper-003")
    g.add_argument("--scale", type=int, default=1)
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--name")
    g.add_argument("--output", "-o")
    g.set_defaults(func=cmd_generate)

    r = sub.add_parser("reproduce", help="measure every claim of the papers' tables and figures against "
                       "ours: the paper's value, ours over seeds, a verdict and the reason where it differs")
    add_flags(r, REPRODUCE_PARAMS)
    r.add_argument("--html", metavar="FILE", help="also write a standalone page of the table")
    r.add_argument("--markdown", metavar="FILE", help="also write the table as docs/reproductions.md")
    r.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    r.add_argument("--compact", action="store_true", help="JSON without indentation")
    r.add_argument("--quiet", "-q", action="store_true", help="no progress or table on stderr")
    r.set_defaults(func=cmd_reproduce)

    c = sub.add_parser("compile", help="compile the cost engine's hot modules with mypyc unless their "
                       "current source is built (scheduling.compiled); prints the status as JSON")
    c.add_argument("--status", action="store_true", help="only say whether it is built")
    c.add_argument("--warn-only", action="store_true", help="exit 0 when it cannot be built")
    c.set_defaults(func=cmd_compile)
    for name, command in sub.choices.items():
        if keys := command_terms(name):  # the glossary's entries, as the planner's page shows them
            command.epilog = help_text(keys)
            command.formatter_class = _ParagraphsFormatter
    return p


class _ParagraphsFormatter(argparse.HelpFormatter):
    """Wraps each paragraph (blank-line separated) of a description or epilog on its own."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        fill = super()._fill_text  # (a bare super() does not work inside the generator)
        return "\n\n".join(fill(p, width, indent) for p in text.split("\n\n"))


@collector_paused()
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run_command(args)
