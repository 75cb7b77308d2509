"""What every sub-command of ``python -m scheduling`` shares: inputs, outputs and exit codes.

Each paper's ``cli.py`` (:mod:`scheduling.cost.cli`, :mod:`scheduling.fairness.cli`,
:mod:`scheduling.mrsu.cli`, :mod:`scheduling.udrf.cli`) adds its sub-commands with one hook,
``add_commands(subparsers)``, and builds them from these helpers, so that every command reads a
scenario, writes its output and fails the same way:

* :func:`add_source_arguments` and :func:`load_scenario`: the input file (``-`` for stdin) in
  any importer's format (``--format``, or guessed from the file), on a preset cluster when it
  brings none, validated; warnings go to stderr as ``warning: <path>: ...``;
* :func:`write_output`: to a file or stdout;
* :func:`run_command`: the exit code, 2 with the messages on stderr for invalid input
  (:class:`~scheduling.errors.ScenarioError`, :class:`UsageError`), never a traceback.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, TextIO

from .errors import FieldError, ScenarioError
from .importers import IMPORTERS, Imported, Importer, Source, get_importer, guess_importer, sources_from_paths
from .importers.sources import numbered_lines
from .importers.traces import SELECTION_PARAMS
from .params import add_flags, flag_values
from .presets import VM_PRESETS, preset_vm_types
from .scenario import LIMITS, Scenario, parse_overrides, parse_scenario

__all__ = [
    "Subparsers",
    "UsageError",
    "add_import_arguments",
    "add_source_arguments",
    "input_lines",
    "load_scenario",
    "read_import",
    "read_input",
    "run_command",
    "scenario_of",
    "warn",
    "write_output",
]


class UsageError(Exception):
    pass


class Subparsers(Protocol):
    """What a paper's ``add_commands`` receives: ``argparse``'s sub-parsers of the main parser."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


@contextmanager
def input_lines(path: str) -> Iterator[TextIO]:
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


def write_output(text: str, path: str | None) -> None:
    """``text`` to the file ``path``, or to stdout (``None`` or ``-``) ending with a line break."""
    if path in (None, "-"):
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")
    else:
        Path(path).write_text(text, encoding="utf-8")


def warn(warnings: Iterable[FieldError]) -> None:
    """Each warning on stderr as ``warning: <path>: <message>``."""
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)


def read_input(
    path: str,
    fmt: str | None,
    raw_options: Sequence[str],
    *,
    checked: dict[str, Any] | None = None,
    fallback_vm_types: list[dict[str, Any]] | None = None,
) -> tuple[Importer, Imported]:
    """Read ``path`` with the importer ``fmt`` (or the one its type and first line suggest);
    ``checked``: options already read (else ``raw_options`` are). A trace's jobs that cannot
    start on ``fallback_vm_types`` (the cluster it will get) are dropped, as an import does."""
    try:
        with input_lines(path) as lines:
            first = next(iter(lines), "")
            if fmt is not None:
                importer = get_importer(fmt, path="--format")
            else:
                guessed = guess_importer(path, first)
                if guessed is None:
                    formats = ", ".join(IMPORTERS)
                    raise UsageError(f"{path}: cannot tell its format; give --format ({formats})")
                importer = guessed
            options = checked if checked is not None else importer.parse_options(
                parse_overrides(raw_options, importer.options, path="--option"), path="--option"
            )
            if importer.stream is not None and path != "-":
                source = Source.from_path(path)
                return importer, importer.read_sources([source], options, fallback_vm_types=fallback_vm_types)
            return importer, importer.read(itertools.chain([first], lines), options)
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None


def add_import_arguments(p: argparse.ArgumentParser) -> None:
    """The import command's inputs: one file or more (a trace's tables, or the folders it is
    distributed in), the format, ``--vm-types``, importer options and the trace selection's
    flags (``--start-s``, ``--window-s``, ``--sample``, ``--seed``, ``--max-jobs``: declared once,
    in :data:`scheduling.importers.traces.SELECTION_PARAMS`)."""
    p.add_argument("sources", nargs="+", metavar="FILE",
                   help="the input: a file (- for stdin), or a trace's files or folders")
    p.add_argument("--format", choices=list(IMPORTERS),
                   help="the input's format (default: from its type and first line; "
                   "required for a trace's folders)")
    p.add_argument("--vm-types", metavar="FILE",
                   help="a JSON list of VM types (the scenario format): the cluster, replacing a trace's own")
    p.add_argument("--preset", choices=sorted(VM_PRESETS), default="paper-003",
                   help="the cluster of an input that brings none")
    p.add_argument("--scale", type=int, default=1, help="multiply the preset's VM counts")
    p.add_argument("--name", help="the scenario's name (default: the document's, or the first file's)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="an importer option, e.g. with_deadlines=false (rm-simulator), "
                   "deadline=factor (traces); "
                   "docs/traces.md lists each format's")
    add_flags(p, SELECTION_PARAMS)


def _vm_types_file(path: str) -> list[Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--vm-types {path}: cannot be read ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--vm-types {path}: not valid JSON ({exc})") from None
    if isinstance(data, dict) and isinstance(data.get("vm_types"), list):
        data = data["vm_types"]  # a whole scenario document: its cluster
    if not isinstance(data, list) or not data:
        raise UsageError(
            f"--vm-types {path}: must be a JSON list of VM types (name, capacity, price_per_hour, count)"
        )
    return data


def _import_options(importer: Importer, args: argparse.Namespace) -> dict[str, Any]:
    """``--option`` items and the selection flags, read by the importer's declarations; a
    problem is named at the flag it was typed in."""
    flags = flag_values(args, SELECTION_PARAMS)
    names = {p.name for p in importer.options}
    by_name = {p.name: p.flag for p in SELECTION_PARAMS}
    for name in flags:
        if name not in names:
            raise UsageError(
                f"{by_name[name]}: the {importer.name} format takes no {name} (it is not a trace)"
            )
    given = parse_overrides(args.option or [], importer.options, path="--option")
    try:
        return importer.parse_options({**given, **flags}, path="--option")
    except ScenarioError as exc:
        errors = []
        for e in exc.errors:
            name = e.path.removeprefix("--option.")
            flag = by_name.get(name) if name in flags else None
            errors.append(FieldError(flag, e.message) if flag else e)
        raise ScenarioError(errors) from None


def _guessed(path: str) -> Importer:
    first = next((line for _, line in numbered_lines(Source.from_path(path))), "")
    found = guess_importer(path, first)
    if found is None:
        raise UsageError(f"{path}: cannot tell its format; give --format ({', '.join(IMPORTERS)})")
    return found


def _with_cluster(imported: Imported, vm_types: list[Any] | None) -> Imported:
    if vm_types is None:
        return imported
    document = {**imported.document, "vm_types": vm_types}
    return Imported(document, imported.origins, imported.columns, imported.warnings)


def read_import(args: argparse.Namespace) -> Imported:
    """What the import command's arguments (:func:`add_import_arguments`) name, read.

    A trace is read as a stream of its files (:meth:`Importer.read_sources`); other formats
    from one file, or stdin. ``--vm-types`` replaces the cluster a trace's machines make (and
    any input's own); the ``--preset`` is the cluster of a trace that brings none.
    """
    paths: list[str] = args.sources
    vm_types = _vm_types_file(args.vm_types) if args.vm_types else None
    if args.format is None and paths == ["-"]:
        if flag_values(args, SELECTION_PARAMS):
            raise UsageError("give --format for a trace read from stdin")
        return _with_cluster(read_input("-", None, args.option or [])[1], vm_types)
    if args.format is not None:
        importer = get_importer(args.format, path="--format")
    elif len(paths) == 1 and Path(paths[0]).is_file():
        importer = _guessed(paths[0])
    else:
        raise UsageError(f"give --format for several files or a folder ({', '.join(IMPORTERS)})")
    options = _import_options(importer, args)
    if importer.stream is None:
        if len(paths) != 1:
            raise UsageError(f"the {importer.name} format reads one file, not {len(paths)}")
        return _with_cluster(read_input(paths[0], importer.name, [], checked=options)[1], vm_types)
    sources: list[Source] = []
    for p in paths:
        sources.extend([Source("-", lambda: sys.stdin.buffer)] if p == "-" else sources_from_paths([p]))
    fallback = preset_vm_types(args.preset, scale=args.scale)
    return importer.read_sources(sources, options, vm_types=vm_types, fallback_vm_types=fallback)


def scenario_of(imported: Imported, args: argparse.Namespace) -> tuple[dict[str, Any], Scenario]:
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
    warn(imported.locate(scenario.warnings))
    return doc, scenario


def load_scenario(args: argparse.Namespace) -> Scenario:
    """The scenario of the command's source arguments (:func:`add_source_arguments`)."""
    fallback = preset_vm_types(args.preset, scale=args.scale)
    _, imported = read_input(args.source, args.format, [], fallback_vm_types=fallback)
    warn(imported.warnings)
    return scenario_of(imported, args)[1]


def add_source_arguments(p: argparse.ArgumentParser, *, metavar: str = "FILE", options: str = "") -> None:
    """The input file and how to read it: ``--format``, ``--preset``, ``--scale``, ``--name``, and
    ``--option`` (with this help) when ``options`` is given."""
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


def run_command(args: argparse.Namespace) -> int:
    """Run the parsed command (``args.func``) and return its exit status: 2 with every problem on
    stderr for invalid input, 130 when interrupted, 141 when the reader of stdout went away."""
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
