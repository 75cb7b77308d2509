"""Command line of the sweep: ``python -m scheduling sweep SCENARIO``.

.. code-block:: sh

    python -m scheduling sweep examples/paper003-light.json \\
        --vary counts.m1.large=4,8,12 --vary load.jobs=1,2 \\
        --scheduler edf-bfd --scheduler morpheus --seeds 3 [--sample N --seed S] \\
        -o sweep.json [--csv points.csv] [--html sweep.html]

``--vary AXIS=V1,V2,...`` (repeatable; :mod:`scheduling.sweep.axes`): ``counts.<VM type>``,
``prices.<VM type>`` (a factor), ``reserved.<VM type>``, ``reserved_discount.<VM type>``,
``spot.<VM type>``, ``interruptions.<VM type>``, ``load.jobs`` or ``load.sizes`` (a factor),
``options.<run option>``. Every setting of the grid (or ``--sample N`` of them drawn with
``--seed``) is run by each ``--scheduler`` with the seeds ``0 .. --seeds - 1``. Writes the
sweep document (:mod:`scheduling.sweep.document`) and, unless ``--quiet``, progress and the
schedulers' table on stderr. Invalid input exits with status 2, every problem at its flag
(``--vary counts.m9: 'm9' is not a VM type of the scenario``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..cli_support import Subparsers, add_source_arguments, load_scenario, write_output
from ..errors import FieldError, ScenarioError
from ..params import add_flags, flag_values, param_named
from ..tables import comparison_table, comparison_text
from .axes import AXES
from .document import plan_points, sweep_document
from .evaluate import evaluate_points
from .params import SWEEP_PARAMS, parse_vary, sweep_run
from .tables import points_csv, scheduler_summaries, sweep_metrics

__all__ = ["FLAGS", "add_commands", "cmd_sweep"]

#: The sweep's parameters that are flags as declared (``--seeds``, ``--sample``, ``--seed``). The
#: axes (``--vary``, repeatable) and the schedulers (``--scheduler``, repeatable) are written out
#: below: ``add_flags`` makes one option of one value per parameter, and neither is that.
FLAGS = tuple(param_named(SWEEP_PARAMS, name) for name in ("seeds", "sample", "seed"))

_AT_FLAG = {"vary": "--vary ", "schedulers": "--scheduler", "seeds": "--seeds", "sample": "--sample",
            "seed": "--seed"}


def _at_flag(error: FieldError) -> FieldError:
    """An error of :func:`sweep_run` at the flag it came from: ``vary.counts.m9`` is
    ``--vary counts.m9``, ``schedulers[1]`` is ``--scheduler[1]``."""
    for name, flag in _AT_FLAG.items():
        if error.path == name:
            return FieldError(flag.strip(), error.message)
        if error.path.startswith((f"{name}.", f"{name}[")):
            rest = error.path[len(name):]
            return FieldError(flag + (rest[1:] if rest.startswith(".") else rest), error.message)
    return error


def cmd_sweep(args: argparse.Namespace) -> int:
    scenario = load_scenario(args)
    params: dict[str, Any] = {}
    try:
        params.update(flag_values(args, FLAGS))
        params["vary"] = parse_vary("\n".join(args.vary or []), "--vary")
        if args.scheduler:
            params["schedulers"] = list(args.scheduler)
        options = sweep_run(params, scenario=scenario)
    except ScenarioError as exc:
        raise ScenarioError([_at_flag(e) for e in exc.errors]) from None
    points = plan_points(options)

    def progress(fraction: float) -> None:
        if not args.quiet:
            done = round(fraction * len(points))
            print(f"\r{done:,} of {len(points):,} points", end="", file=sys.stderr, flush=True)

    records = evaluate_points(scenario.to_dict(), points, progress=progress)
    doc = sweep_document(options, records, scenario=scenario.name, frameworks=len(scenario.frameworks))
    write_output(json.dumps(doc, indent=None if args.compact else 1), args.output)
    if args.csv:
        Path(args.csv).write_text(points_csv(doc), encoding="utf-8")
    if args.html:
        from .html import write_sweep_html  # plotly is imported only when asked for

        write_sweep_html(args.html, doc, title=f"Sweep of {scenario.name}")
    if not args.quiet:
        print(file=sys.stderr)
        table = comparison_table(scheduler_summaries(doc), metrics=sweep_metrics(doc))
        print(comparison_text(table, corner="scheduler"), file=sys.stderr)
    return 0


def add_commands(subparsers: Subparsers) -> None:
    """Add ``sweep`` to ``python -m scheduling``'s sub-commands."""
    s = subparsers.add_parser(
        "sweep", help="vary VM counts, prices, load, run options, schedulers and seeds over a scenario "
        "(a grid or a seeded sample): cost against deadline misses with the Pareto front"
    )
    add_source_arguments(s)
    shapes = {"vm_type": "<VM type>", "option": "<run option>"}
    axes = "; ".join(f"{a.prefix}.{shapes.get(a.names) or '<' + '|'.join(a.fixed) + '>'}: {a.help}"
                     for a in AXES)
    s.add_argument("--vary", action="append", metavar="AXIS=V1,V2,...",
                   help=f"repeatable, one axis each: {axes}".replace("%", "%%"))  # argparse formats help
    s.add_argument("--scheduler", action="append", metavar="NAME",
                   help="repeatable; every setting is run by each (default edf-bfd)")
    add_flags(s, FLAGS)
    s.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    s.add_argument("--csv", metavar="FILE", help="also write the table of every point as CSV")
    s.add_argument("--html", metavar="FILE", help="also write a standalone page of the tables and charts")
    s.add_argument("--compact", action="store_true", help="JSON without indentation")
    s.add_argument("--quiet", "-q", action="store_true", help="no progress or table on stderr")
    s.set_defaults(func=cmd_sweep)
