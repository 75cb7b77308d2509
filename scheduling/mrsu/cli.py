"""Command line of the MRSU study: ``mrsu``, ``mrsu-sweep`` and ``mrsu-advise``.

:func:`add_commands` adds the three subcommands to ``python -m scheduling``'s subparsers; bad
input raises :class:`~scheduling.errors.ScenarioError` (field paths), which the main command
line prints and exits 2 with. :func:`main` runs them on their own
(``python -m scheduling.mrsu.cli mrsu INPUT.json``) with the same contract.

The flags that are a run's declared parameters (:mod:`scheduling.mrsu.params`: the sweep's,
T, the slots, the advisor's unit) are derived from those declarations, with the help, the
defaults and the checks a planner run has, and errors at the flag (``--seeds``, ``--loads[1]``);
only their upper limits are the library's own, larger than a planner run's (:data:`SWEEP_FLAGS`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..cli_support import Subparsers
from ..errors import ScenarioError
from ..params import Param, add_flags, param_named, read_flags
from .compose import COMPOSITIONS, MODES
from .model import LIMITS
from .params import MRSU_PARAMS, SWEEP_PARAMS

__all__ = ["MRSU_FLAGS", "SWEEP_FLAGS", "UNIT_FLAGS", "add_commands", "main"]


#: ``mrsu``'s declared flags. A planner run caps the horizon and T at 1,000 slots (one part's
#: time); the library cuts a scenario into up to ``LIMITS["slots"]`` slots and computes any T
#: (one beyond the horizon is the whole horizon).
MRSU_FLAGS: tuple[Param, ...] = (
    dataclasses.replace(param_named(MRSU_PARAMS, "slots"), flag="--slots", maximum=LIMITS["slots"],
                        help="Slots of the horizon when INPUT is a planner scenario."),
    dataclasses.replace(param_named(MRSU_PARAMS, "slots_valid"), maximum=None),
)
#: The limits of :func:`~scheduling.mrsu.sweep.mrsu_sweep` (its own checks) where a planner run's
#: are smaller (a run's parts must fit one worker's memory and time): 100,000 seeds, 10,000
#: applications, slots and T, any number of loads (a load may repeat), any first seed >= 0.
_SWEEP_LIMITS: dict[str, dict[str, Any]] = {
    "loads": {"max_items": None, "unique": False},
    "seeds": {"maximum": 100_000},
    "applications": {"maximum": 10_000},
    "slots": {"maximum": 10_000},
    "seed": {"maximum": None},
    "slots_valid": {"maximum": 10_000},
}
#: ``mrsu-sweep``'s flags: :data:`~scheduling.mrsu.params.SWEEP_PARAMS` with the library's limits.
SWEEP_FLAGS: tuple[Param, ...] = tuple(
    dataclasses.replace(p, **_SWEEP_LIMITS.get(p.name, {})) for p in SWEEP_PARAMS
)
#: ``mrsu-advise``'s ``--unit`` (read against the scenario's resources by the command).
UNIT_FLAGS: tuple[Param, ...] = (param_named(MRSU_PARAMS, "unit"),)

_MAX_BYTES = 256 * 2**20


def _read_json(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            p = Path(path)
            if not p.is_file():
                raise ScenarioError.single(path, "no such file")
            if p.stat().st_size > _MAX_BYTES:
                raise ScenarioError.single(path, f"larger than {_MAX_BYTES // 2**20} MB")
            text = p.read_text(encoding="utf-8")
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError.single(
            path, f"not JSON: line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except UnicodeDecodeError:
        raise ScenarioError.single(path, "not UTF-8 text") from None


def _write(doc: Any, path: str | None, compact: bool) -> None:
    text = json.dumps(doc, indent=None if compact else 1, allow_nan=False)
    if path in (None, "-"):
        sys.stdout.write(text + "\n")
    else:
        Path(path).write_text(text + "\n", encoding="utf-8")


def _html(path: str, title: str, meta: str, figures: dict[str, Any]) -> None:
    from ..html import standalone_html, write_text_atomically  # plotly only when asked for

    write_text_atomically(path, standalone_html(title, meta, [], figures))


def _print_tables(docs: dict[str, Any]) -> None:
    """On stderr, the tables the planner's page shows for these documents (their summaries):
    the comparison of the allocations, the unit of each, the advisor's tables."""
    from ..tables import comparison_table, comparison_text, table_text
    from .tables import MRSU_METRICS, mrsu_tables, result_summary

    summaries = {label: result_summary(doc) for label, doc in docs.items()}
    allocations = {k: v for k, v in summaries.items() if v.get("study") == "mrsu"}
    blocks = []
    if allocations:
        blocks.append(comparison_text(comparison_table(allocations, metrics=MRSU_METRICS), corner="unit"))
    blocks += [table_text(t) for t in mrsu_tables(summaries)]
    print("\n\n".join(blocks), file=sys.stderr)


def cmd_mrsu(args: argparse.Namespace) -> int:
    from .document import mrsu_result
    from .model import parse_mrsu_input

    flags = read_flags(args, MRSU_FLAGS, what="mrsu")
    raw = _read_json(args.input)
    base: dict[str, float] | None = None
    if isinstance(raw, dict) and "vm_types" in raw:  # a planner scenario: its frameworks' demand per slot
        from ..scenario import parse_scenario
        from .model import scenario_problem

        problem, base = scenario_problem(parse_scenario(raw), slots=flags["slots"])
    else:
        problem = parse_mrsu_input(raw)
    doc = mrsu_result(
        problem, composition=args.composition, mode=args.mode, slots_valid=flags["slots_valid"],
        base_units=base,
    )
    _write(doc, args.output, args.compact)
    if not args.quiet:
        _print_tables({f"{args.composition}-{args.mode}": doc})
    if args.html:
        from .charts import mrsu_figures

        _html(
            args.html,
            f"MRSU ({args.composition.upper()}, {args.mode.upper()})",
            f"{len(problem.names)} applications, {problem.slots} slots",
            mrsu_figures(doc),
        )
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    from .sweep import mrsu_sweep

    def progress(fraction: float) -> None:
        if not args.quiet:
            print(
                f"\rmrsu-sweep: {100 * fraction:5.1f} %", end="\n" if fraction >= 1 else "", file=sys.stderr
            )

    sweep = read_flags(args, SWEEP_FLAGS, what="mrsu-sweep")
    doc = mrsu_sweep(**sweep, workers=args.workers, progress=progress)
    _write(doc, args.output, args.compact)
    if not args.quiet:  # Fig. 5 as numbers: dissatisfied applications, application-slots short beside
        from ..tables import table_text
        from .tables import dissatisfied_tables

        print("\n\n".join(table_text(t) for t in dissatisfied_tables(doc)), file=sys.stderr)
    if args.html:
        from .charts import sweep_figures

        _html(
            args.html,
            "MRSU sweep (paper 002, Figs. 3-5)",
            f"{doc['seeds']} seeds, {doc['applications']} applications, {doc['slots']} slots",
            sweep_figures(doc),
        )
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    from ..scenario import parse_scenario
    from .advisor import mrsu_advise, parse_unit

    typed = read_flags(args, UNIT_FLAGS, what="mrsu-advise")["unit"]
    scenario = parse_scenario(_read_json(args.scenario))
    unit = parse_unit(typed, scenario.resources, path="--unit") if typed else None
    advice = mrsu_advise(scenario, unit=unit)
    _write(advice, args.output, args.compact)
    if not args.quiet:
        _print_tables({"advisor": advice})
    return 0


def add_commands(subparsers: Subparsers) -> None:
    """Add ``mrsu``, ``mrsu-sweep`` and ``mrsu-advise`` to an ``argparse`` subparsers object."""
    m = subparsers.add_parser("mrsu", help="MRSU composition and weighted-fair allocation (paper 002)")
    m.add_argument(
        "input", metavar="INPUT.json", help="capacity and applications (docs/mrsu.md); - for stdin"
    )
    m.add_argument("--composition", choices=COMPOSITIONS, default="gcd")
    m.add_argument("--mode", choices=MODES, default="ft", help="full tuples or independent dimensions")
    add_flags(m, MRSU_FLAGS)  # --slots, --slots-valid
    m.add_argument("--html", metavar="FILE", help="also write a standalone page of the figures")
    m.add_argument("--output", "-o")
    m.add_argument("--compact", action="store_true", help="JSON on one line")
    m.add_argument("--quiet", "-q", action="store_true", help="no tables on stderr")
    m.set_defaults(func=cmd_mrsu)

    s = subparsers.add_parser("mrsu-sweep", help="paper 002's Figs. 3-5: load x seeds x methods")
    add_flags(s, SWEEP_FLAGS)  # --loads, --seeds, --applications, --slots, --seed, --spread, --slots-valid
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--html", metavar="FILE")
    s.add_argument("--output", "-o")
    s.add_argument("--compact", action="store_true")
    s.add_argument("--quiet", "-q", action="store_true",
                   help="no progress and no Fig. 5 tables (dissatisfied applications) on stderr")
    s.set_defaults(func=cmd_sweep)

    a = subparsers.add_parser("mrsu-advise", help="which MRSU to sell or schedule a scenario's cluster in")
    a.add_argument("scenario", metavar="SCENARIO.json")
    add_flags(a, UNIT_FLAGS)  # --unit
    a.add_argument("--output", "-o")
    a.add_argument("--compact", action="store_true")
    a.add_argument("--quiet", "-q", action="store_true", help="no tables on stderr")
    a.set_defaults(func=cmd_advise)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m scheduling.mrsu.cli")
    add_commands(p.add_subparsers(dest="command", required=True))
    args = p.parse_args(argv)
    try:
        return int(args.func(args))
    except ScenarioError as exc:
        for e in exc.errors:
            print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
