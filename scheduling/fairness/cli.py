"""Command line of the fairness engine (papers 000 and 001): ``allocate`` and ``share``.

``allocate`` prints the allocation document of a static allocation (progressive filling or an
exact optimisation), ``share`` the sharing document of an online sharing run (docs/results.md);
both print their comparison table on stderr unless ``--quiet`` and write a standalone page with
``--html``. Inputs are read, and errors reported, as by every sub-command
(:mod:`scheduling.cli_support`).

The options that are a study's declared parameters (``allocate``'s ``--trials`` and ``--seed``,
``share``'s ``--mode``, ``--criterion``, ``--servers``, ``--interval``, ``--seed``,
``--horizon`` and the offer cycle's rules, ``--max-tasks-per-offer``, ``--registration``,
``--offers-count``, ``--minimum-offer``, ``--drf-ties``: :mod:`scheduling.fairness.params`) are
built from their declarations (:func:`scheduling.params.add_flags`), so their help, ranges and
defaults are the planner's, and read by them, each problem naming its flag (``--interval: must be
a number of seconds > 0``).
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
from ..params import Param, add_flags, flag_values, param_named, read_params, read_value
from .allocation import EXACT_POLICIES, allocate
from .filling import POLICIES, SERVER_SELECTIONS
from .params import ALLOCATION_PARAMS, CONFIGURATION_PARAMS, RULES
from .sharing import share

__all__ = ["add_commands", "cmd_allocate", "cmd_share"]


#: ``allocate``'s options that are an allocation study's declared parameters.
ALLOCATE_FLAGS: tuple[Param, ...] = tuple(p for p in ALLOCATION_PARAMS if p.flag is not None)
#: ``share``'s options that are a sharing configuration's declared parameters.
SHARE_FLAGS: tuple[Param, ...] = tuple(p for p in CONFIGURATION_PARAMS if p.flag is not None)
#: ``--set``: a configuration's overrides, written FRAMEWORK.KEY=VALUE.
_OVERRIDES = param_named(CONFIGURATION_PARAMS, "overrides")


def _flagged(errors: Sequence[FieldError], flags: dict[str, str]) -> list[FieldError]:
    """``errors`` with each parameter's path spelled as its option: ``--interval``, and
    ``--set scylla.refuse_s`` for ``overrides.scylla.refuse_s``."""
    out = []
    for e in errors:
        path = next(
            (f"{flag} {e.path[len(name) + 1:]}".rstrip() for name, flag in flags.items()
             if e.path == name or e.path.startswith(name + ".")),
            e.path,
        )
        out.append(FieldError(path, e.message))
    return out


def _flag_names(params: Sequence[Param]) -> dict[str, str]:
    return {p.name: p.flag for p in params if p.flag is not None}


def _read_flags(args: argparse.Namespace, params: Sequence[Param]) -> tuple[dict[str, Any], list[FieldError]]:
    """The declared parameters given on the command line (the declared defaults for the others),
    and their problems, each naming its option."""
    try:
        return read_params(params, flag_values(args, params)), []
    except ScenarioError as exc:
        return {}, _flagged(exc.errors, _flag_names(params))


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
    if args.exact and (args.servers or args.trials not in (None, 1)):
        raise UsageError(f"--exact {args.exact} takes neither --servers nor --trials (it is deterministic)")
    if not args.exact and (args.integer or args.tolerance is not None):
        raise UsageError("--integer and --tolerance go with --exact (progressive filling is whole tasks)")
    values, errors = _read_flags(args, ALLOCATE_FLAGS)
    if errors:
        raise ScenarioError(errors)
    reference = allocate(scenario, policy="pf", integer=args.integer) if args.pf_inequality else None
    allocation = allocate(
        scenario,
        policy=policy,
        servers=args.servers,
        trials=values["trials"],
        seed=values["seed"],
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
    values, errors = _read_flags(args, SHARE_FLAGS)
    flags = {**_flag_names(SHARE_FLAGS), "overrides": "--set"}
    overrides: dict[str, dict[str, Any]] = {}
    try:  # what --set writes, read by the overrides' declaration: reported with the other options'
        overrides = _overrides(args.set or [], [f.name for f in scenario.frameworks])
        read_value(_OVERRIDES, overrides, "overrides")
    except ScenarioError as exc:
        errors.extend(_flagged(exc.errors, flags))
    if errors:
        raise ScenarioError(errors)
    try:
        result = share(
            scenario,
            mode=values["mode"],
            criterion=values["criterion"],
            servers=values["servers"],
            allocation_interval_s=values["allocation_interval_s"],
            seed=values["seed"],
            overrides=overrides,
            horizon_s=values["horizon_s"],
            label=args.label,
            **{name: values[name] for name in RULES},
        )
    except ScenarioError as exc:  # the library's names of the options, as this command spells them
        raise ScenarioError(_flagged(exc.errors, flags)) from None
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
    add_flags(a, ALLOCATE_FLAGS)  # --trials, --seed
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
        "offer_policy, refuse_s, hold_s; Mesos 1.3's and Marathon 1.4's rules by default, each one a "
        "flag) or by workload-characterized progressive filling (--criterion, "
        "--servers). Prints the sharing document (docs/results.md) as JSON: share timelines against "
        "the fair share, unfairness, makespan and completion per framework.",
    )
    add_source_arguments(sh, metavar="SCENARIO")
    add_flags(sh, SHARE_FLAGS)  # --mode, --criterion, --servers, --interval, --seed, --horizon, rules
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
