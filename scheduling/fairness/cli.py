"""Command line of the fairness engine (papers 000 and 001): ``allocate`` and ``share``.

``allocate`` prints the allocation document of a static allocation (progressive filling or an
exact optimisation), ``share`` the sharing document of an online sharing run (docs/results.md);
both print their comparison table on stderr unless ``--quiet`` and write a standalone page with
``--html``. Inputs are read, and errors reported, as by every sub-command
(:mod:`scheduling.cli_support`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from ..cli_support import Subparsers, UsageError, add_source_arguments, load_scenario, write_output
from ..errors import FieldError, ScenarioError
from .allocation import EXACT_POLICIES, allocate
from .filling import POLICIES, SERVER_SELECTIONS
from .sharing import SHARING_MODES, share

__all__ = ["add_commands", "cmd_allocate", "cmd_share"]


def _fairness_output(args: argparse.Namespace, docs: dict[str, dict[str, Any]], title: str, doc: Any) -> None:
    """Write a fairness subcommand's JSON, its ``--html`` page and (unless ``--quiet``) its tables:
    the comparison and, for an allocation study, every criterion per framework."""
    write_output(json.dumps(doc, indent=None if args.compact else 1, allow_nan=False), args.output)
    if args.html:
        from .html import write_fairness_html  # plotly is imported only when asked for

        write_fairness_html(args.html, docs, title=title)
    if not args.quiet:
        from ..tables import comparison_text, table_text
        from .tables import allocation_framework_table, fairness_table, study_of

        blocks = [comparison_text(fairness_table(docs))]
        if docs and all(study_of(d) == "allocation" for d in docs.values()):
            blocks.append(table_text(allocation_framework_table(docs)))
        print("\n\n".join(blocks), file=sys.stderr)


def cmd_allocate(args: argparse.Namespace) -> int:
    scenario = load_scenario(args)
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
    scenario = load_scenario(args)
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


def add_commands(subparsers: Subparsers) -> None:
    """Add ``allocate`` and ``share`` to ``python -m scheduling``'s sub-commands."""
    a = subparsers.add_parser(
        "allocate",
        help="allocate a scenario's cluster to its frameworks by a fairness policy (papers 000, 001)",
        description="Static allocation of whole tasks: progressive filling under a fairness criterion "
        "and a server selection, over seeded trials, or an exact optimisation (--exact). Servers are "
        "the scenario's vm_types x count, named <type>#<k>; frameworks need a task_demand. Prints the "
        "allocation document (docs/results.md) as JSON.",
    )
    add_source_arguments(a, metavar="SCENARIO")
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

    sh = subparsers.add_parser(
        "share",
        help="simulate frameworks sharing a cluster: the Mesos offer cycle or characterized allocation",
        description="Online sharing (papers 000 Section V, 001): the frameworks' task queues run on the "
        "scenario's cluster, allocated every --interval seconds by the Mesos offer cycle (frameworks' "
        "offer_policy, refuse_s, hold_s) or by workload-characterized progressive filling (--criterion, "
        "--servers). Prints the sharing document (docs/results.md) as JSON: share timelines against "
        "the fair share, unfairness, makespan and completion per framework.",
    )
    add_source_arguments(sh, metavar="SCENARIO")
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
