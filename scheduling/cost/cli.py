"""Command line of the cost comparison (paper 003): ``python -m scheduling simulate SCENARIO``.

Prints ``{"scenario": NAME, "results": {SCHEDULER: <result document>}}`` (docs/results.md) and,
unless ``--quiet``, the comparison table on stderr; ``--html`` writes a standalone page of the
charts. Inputs are read, and errors reported, as by every sub-command
(:mod:`scheduling.cli_support`). The flags of the comparison's declared parameters
(:data:`~scheduling.cost.params.COMPARISON_PARAMS`) are derived from the declaration where
``argparse`` can say what it says (``--seed``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cli_support import Subparsers, add_source_arguments, load_scenario, write_output
from ..params import add_flags, flag_values, param_named, read_params
from ..scenario import Scenario, SimulationOptions, option_fields, parse_overrides
from .params import COMPARISON_PARAMS
from .schedulers import SCHEDULERS
from .simulator import compare

__all__ = ["add_commands", "cmd_simulate"]

#: The comparison's parameters that are flags of ``simulate``, as declared (``--seed``). The
#: schedulers (``--scheduler``, repeatable, each spec one item) and the options (``--option``,
#: repeatable ``key=value`` text) stay written out below: ``add_flags`` makes one option of one
#: value per parameter, and neither is that.
FLAGS = (param_named(COMPARISON_PARAMS, "seed"),)


def _options(args: argparse.Namespace, scenario: Scenario) -> SimulationOptions:
    overrides = parse_overrides(args.option or [], option_fields(scenario.resources), path="--option")
    return SimulationOptions.from_dict(
        overrides, resources=scenario.resources, path="--option", base=scenario.options
    )


def cmd_simulate(args: argparse.Namespace) -> int:
    scenario = load_scenario(args)
    options = _options(args, scenario)
    schedulers = args.scheduler or ["edf-bfd"]
    seed = read_params(FLAGS, flag_values(args, FLAGS), what="simulate")["seed"]
    results = compare(scenario, schedulers=schedulers, options=options, seed=seed)
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
    write_output(text, args.output)
    if args.html:
        from .html import write_html_report  # plotly is imported only when asked for

        write_html_report(args.html, {n: r.to_dict() for n, r in results.items()}, title=scenario.name)
    if not args.quiet:
        print(_table(docs), file=sys.stderr)
    return 0


def _table(docs: dict[str, dict[str, Any]]) -> str:
    """The comparison table (:func:`scheduling.tables.comparison_table`) as aligned text."""
    from ..tables import comparison_table, comparison_text
    from .tables import COST_METRICS

    return comparison_text(comparison_table(docs, metrics=COST_METRICS), corner="scheduler")


def add_commands(subparsers: Subparsers) -> None:
    """Add ``simulate`` and ``cheapest`` to ``python -m scheduling``'s sub-commands."""
    s = subparsers.add_parser(
        "simulate", help="simulate schedulers on a scenario (JSON, or any importer's format)"
    )
    add_source_arguments(
        s, options="run option, repeatable or comma-separated: boot_time_s=30, rut.cpu=0.5,rut.mem=0.5"
    )
    s.add_argument(
        "--scheduler",
        action="append",
        metavar="NAME",
        help=f"repeatable; named ({', '.join(SCHEDULERS)}) or <ordering>-<placement>[:key=value,...]",
    )
    add_flags(s, FLAGS)
    s.add_argument("--html", metavar="FILE", help="also write a standalone page of Plotly charts")
    s.add_argument("--output", "-o", metavar="FILE", help="write the JSON here instead of stdout")
    s.add_argument(
        "--brief", action="store_true", help="leave timelines and per-VM intervals out of the JSON"
    )
    s.add_argument("--compact", action="store_true", help="JSON without indentation")
    s.add_argument("--quiet", "-q", action="store_true", help="no summary table on stderr")
    s.set_defaults(func=cmd_simulate)
    from .cheapest.cli import add_commands as add_cheapest  # the cheapest cluster (issue 18)

    add_cheapest(subparsers)
