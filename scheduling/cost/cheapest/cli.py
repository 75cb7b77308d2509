"""Command line of the cheapest-cluster search: ``python -m scheduling cheapest SCENARIO``.

::

    python -m scheduling cheapest examples/paper003-light.json --scheduler edf-bfd \\
        --counts m1.large=0-6 --counts m1.xlarge=0-6 --counts m2.xlarge=0-6 --max-miss-pct 0 -o answer.json

writes the answer document (:mod:`.answer`) and, unless ``--quiet``, the answer, the
candidates' fates and the frontier on stderr; ``--html`` writes a standalone page of the
figures. The flags of the declared parameters (:data:`~.params.CHEAPEST_PARAMS`) come from the
declaration where ``argparse`` can say what it says; ``--counts`` (repeatable, one type each)
and ``--scheduler`` are written out below.
"""

from __future__ import annotations

import argparse
import json
import sys

from ...cli_support import Subparsers, add_source_arguments, load_scenario, write_output
from ...errors import FieldError, ScenarioError
from ...params import add_flags, flag_values
from ...tables import table_text
from .answer import cheapest
from .params import CHEAPEST_PARAMS, cheapest_run, parse_counts, parse_reserved
from .search import Target

__all__ = ["add_commands", "cmd_cheapest"]

FLAGGED = tuple(p for p in CHEAPEST_PARAMS if p.flag is not None)
_FLAGS = {
    **{p.name: str(p.flag) for p in FLAGGED},
    "counts": "--counts",
    "scheduler": "--scheduler",
    "reserved": "--reserved",
}


def _at_flag(error: FieldError) -> FieldError:
    """``counts.m9: ...`` as ``--counts m9: ...``, ``max_miss_pct`` as ``--max-miss-pct``."""
    name, _, rest = error.path.partition(".")
    if name not in _FLAGS:
        return error
    return FieldError(f"{_FLAGS[name]} {rest}" if rest else _FLAGS[name], error.message)


def cmd_cheapest(args: argparse.Namespace) -> int:
    scenario = load_scenario(args)
    given = flag_values(args, FLAGGED)
    given["scheduler"] = args.scheduler
    given["counts"] = parse_counts(" ".join(args.counts or []), "--counts")
    given["reserved"] = parse_reserved(" ".join(args.reserved or []), "--reserved")
    try:
        options = cheapest_run(given, scenario=scenario)
    except ScenarioError as exc:  # every problem at the flag that gave it
        raise ScenarioError([_at_flag(e) for e in exc.errors]) from None
    result = cheapest(
        scenario,
        scheduler=options["scheduler"],
        counts=options["counts"],
        target=Target.from_dict(options),
        seed=options["seed"],
        workers=options["workers"],
        max_simulations=options["max_simulations"],
        reserved=options["reserved"],
    )
    doc = result.to_dict()
    write_output(json.dumps(doc, indent=None if args.compact else 1), args.output)
    if args.html:
        from ...html import write_text_atomically
        from .html import answer_html  # plotly is imported only when asked for

        write_text_atomically(args.html, answer_html(doc, title=f"Cheapest cluster: {scenario.name}"))
    if not args.quiet:
        from .tables import answer_table, candidates_table, closest_table, frontier_table

        tables = [
            answer_table(doc),
            candidates_table(doc),
            frontier_table(doc) if doc["answer"] else closest_table(doc),
        ]
        print("\n\n".join(table_text(t) for t in tables), file=sys.stderr)
    return 0


def add_commands(subparsers: Subparsers) -> None:
    """Add ``cheapest`` to ``python -m scheduling``'s sub-commands."""
    s = subparsers.add_parser(
        "cheapest", help="the cheapest cluster (VM counts in ranges) that meets a deadline target, certified"
    )
    add_source_arguments(s)
    s.add_argument(
        "--scheduler",
        default="edf-bfd",
        metavar="SPEC",
        help="one scheduler: edf-bfd (default), edf-ilp, or <ordering>-<placement>[:key=value,...]",
    )
    s.add_argument(
        "--counts",
        action="append",
        metavar="VMTYPE=LO-HI",
        required=True,
        help="repeatable: the range of counts of one VM type (a type not named keeps its count)",
    )
    s.add_argument(
        "--reserved",
        action="append",
        metavar="VMTYPE=N",
        help="repeatable: reserve N VMs of a type at its reserved price (version-4 scenarios)",
    )
    add_flags(s, FLAGGED)
    s.add_argument("--html", metavar="FILE", help="also write a standalone page of the figures")
    s.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    s.add_argument("--compact", action="store_true", help="JSON without indentation")
    s.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
    s.set_defaults(func=cmd_cheapest)
