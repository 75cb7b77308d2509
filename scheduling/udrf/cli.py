"""Command line of the UDRF study (paper 004): ``python -m scheduling udrf SCENARIO``.

Prints JSON: ``{"offline": <offline document>}`` and, with ``--online``, ``"online": <online
document>`` (``docs/results.md``); ``--compare-drf`` adds the DRF baseline to both. ``--html``
writes a standalone page of the charts. Bad input raises
:class:`~scheduling.errors.ScenarioError` with field paths; the main command line prints it and
exits 2. :func:`add_commands` adds ``udrf`` and ``udrf-generate`` to ``python -m scheduling``;
inputs are read and outputs written as by every sub-command (:mod:`scheduling.cli_support`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from ..cli_support import Subparsers, add_source_arguments, load_scenario, write_output
from ..errors import FieldError, ScenarioError
from ..params import Param, add_flags, flag_values, read_params
from .params import UDRF_PARAMS

__all__ = ["add_commands", "cmd_udrf", "cmd_udrf_generate"]


def _udrf_flags() -> tuple[Param, ...]:
    """The ``udrf`` command's options: the planner's declarations (:data:`UDRF_PARAMS`) that
    have a flag. ``--compare-drf`` is a switch, off unless given, where a planner run compares
    with DRF unless told not to: the same parameter with the command line's default."""
    params = tuple(p for p in UDRF_PARAMS if p.flag is not None)
    # The command line's --compare-drf stays off by default (people script it), the planner's on.
    return tuple(dataclasses.replace(p, default=False) if p.name == "compare_drf" else p for p in params)


def _read_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The options typed, read by their declarations; every error names its flag (``--interval``),
    and an online option without ``--online`` says so."""
    params = _udrf_flags()
    flag_of = {p.name: str(p.flag) for p in params}
    given = flag_values(args, params)
    errors: list[FieldError] = []
    options: dict[str, Any] = {}
    try:
        options = read_params(params, given, what="udrf")
    except ScenarioError as exc:
        errors += [FieldError(flag_of.get(e.path, e.path), e.message) for e in exc.errors]
    if not given.get("online"):
        errors += [FieldError(flag_of[k], "goes with --online")
                   for k in ("interval_s", "horizon_s", "queue_capacity") if k in given]
    if errors:
        raise ScenarioError(errors)
    return options


def cmd_udrf(args: argparse.Namespace) -> int:
    from .offline_doc import offline_document

    options = _read_flags(args)
    compare_drf = bool(options["compare_drf"])
    scenario = load_scenario(args)
    out: dict[str, Any] = {"offline": offline_document(scenario, compare_drf=compare_drf)}
    if options["online"]:
        from .online import online_document

        out["online"] = online_document(
            scenario,
            policies=("udrf", "drf") if compare_drf else ("udrf",),
            interval_s=options["interval_s"],
            horizon_s=options["horizon_s"],
            queue_capacity=options["queue_capacity"],
            seed=options["seed"],
        )
    write_output(json.dumps(out, indent=None if args.compact else 1, allow_nan=False), args.output)
    if args.html:
        from .html import write_udrf_html  # plotly only when asked for

        write_udrf_html(args.html, out, title=scenario.name)
    if not args.quiet:
        from .tables import udrf_text

        print(udrf_text(out), file=sys.stderr)
    return 0


def cmd_udrf_generate(args: argparse.Namespace) -> int:
    from ..scenario import parse_scenario
    from .synthetic import SYNTHETIC_LIMITS, check_synthetic, synthetic_document

    errors = check_synthetic(users=args.users, jobs=args.jobs, classes=args.classes, max_runs=args.max_runs,
                             seed=args.seed, paths={k: f"--{k.replace('_', '-')}" for k in SYNTHETIC_LIMITS})
    if errors:
        raise ScenarioError(errors)
    doc = synthetic_document(users=args.users, jobs=args.jobs, classes=args.classes, seed=args.seed,
                             max_runs=args.max_runs,
                             breadth_noise=None if args.random_breadth else 1.0)
    if args.name:
        doc["name"] = args.name
    parse_scenario(doc)  # the document it writes is valid, or this says why
    write_output(json.dumps(doc, indent=1, allow_nan=False), args.output)
    return 0


def add_commands(subparsers: Subparsers) -> None:
    """Add ``udrf`` and ``udrf-generate`` to ``python -m scheduling``'s subcommands."""
    u = subparsers.add_parser(
        "udrf",
        help="UDRF for users with multi-task jobs on machine classes, against DRF (paper 004)",
        description="Offline UDRF (paper 004 Fig. 3) on the scenario's users (frameworks with "
        "complex_jobs) and machine classes (vm_types' machine_class; scenario version 3): per user the "
        "jobs allocated, dominant shares, RDUCs and waste. --online adds the online algorithm (Fig. 5) "
        "simulated with per-second decisions; --compare-drf adds DRF with every (machine class, "
        "resource) as a resource. Prints JSON (docs/results.md).",
    )
    add_source_arguments(u, metavar="SCENARIO")
    # --online, --compare-drf, --interval, --horizon, --queue, --seed: from the declarations
    add_flags(u, _udrf_flags())
    u.add_argument("--html", metavar="FILE", help="also write a standalone page of the charts")
    u.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    u.add_argument("--compact", action="store_true", help="JSON without indentation")
    u.add_argument("--quiet", "-q", action="store_true", help="no summary table on stderr")
    u.set_defaults(func=cmd_udrf)

    g = subparsers.add_parser(
        "udrf-generate",
        help="generate a synthetic UDRF scenario with paper 004's trace shape (seeded)",
        description="A version-3 scenario drawn as paper 004 §V describes its trace: users with several "
        "jobs (skewed), about 65%% of jobs on one or two machine classes, users with many jobs on more "
        "classes, a handful of RDUCs, runs of 10-100 s, a number of runs per job "
        "(scheduling.udrf.synthetic).",
    )
    g.add_argument("--users", type=int, default=50)
    g.add_argument("--jobs", type=int, default=200, help="complex jobs in all (at least one per user)")
    g.add_argument("--classes", type=int, default=20, help="machine classes")
    g.add_argument("--max-runs", type=int, default=20, help="the most times a job must run")
    g.add_argument("--random-breadth", action="store_true",
                   help="hand out jobs' class counts at random instead of wider jobs to users with more jobs")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--name")
    g.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    g.set_defaults(func=cmd_udrf_generate)
