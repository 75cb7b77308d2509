"""The importer registry: every input format is an entry, so a new trace format adds no branch.

An :class:`Importer` has a name, a label, the file types it reads, its options (declared
once, as :class:`~scheduling.params.Param`: the command line's ``--option key=value`` and
flags, the planner's form fields and the checks all come from them) and a reader: a
function of an iterable of text lines (an open file, ``io.StringIO``) and the checked
options that returns an :class:`Imported`, a scenario document (whole, or only its
``frameworks`` and ``jobs``) with the place in the file each job came from. The command
line (``python -m scheduling import``) and the planner's imports look importers up here
and never ask which one they hold.

A trace format (SWIM, Google 2011 and 2019, Alibaba 2018) also has a ``stream``: it reads
any number of files (:class:`~.sources.Source`; a trace's tables, gzipped or plain) line by
line and yields its jobs one at a time, so that :meth:`Importer.preview` shows the first
jobs without reading the rest and :meth:`Importer.read_sources` never holds more than the
jobs it keeps. Every format reads files through the same two calls:

* ``importer.read_sources(sources, options, vm_types=None) -> Imported``: the whole import;
* ``importer.preview(sources, options, limit=20) -> Imported``: its first ``limit`` jobs.

>>> from scheduling.importers import Source
>>> day = Source.from_text("day.tsv", "a\\t0\\t0\\t1\\t1\\t1\\nb\\t9\\t9\\t1\\t1\\t1\\n")
>>> first = get_importer("swim").preview([day], {"deadline": "factor"}, limit=1)
>>> [(j["id"], j["arrival_s"]) for j in first.jobs]
[('a', 0)]

>>> sorted(IMPORTERS)
['alibaba-2018', 'google-2011', 'google-2019', 'jobs', 'rm-simulator', 'scenario-json', 'swim']
>>> imported = get_importer("jobs").read_text("id,arrival_s,executors,cpu,duration_s\\nj1,0,1,2,-5\\n")
>>> from scheduling import ScenarioError, parse_workload
>>> try:
...     parse_workload(imported.document)
... except ScenarioError as exc:
...     print(imported.locate(exc.errors)[0])
line 2 (job j1), duration_s: must be > 0
"""

from __future__ import annotations

import io
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from ..collector import collector_paused
from ..errors import FieldError, ScenarioError
from ..params import Param, read_params
from ..scenario import DEFAULT_RESOURCES, LIMITS
from ..scenario.checks import shown
from ..scenario.options import _FALSE, _TRUE  # the one spelling of true and false in text
from .sources import Source, numbered_lines
from .traces import Report, cluster_of

__all__ = [
    "IMPORTERS",
    "Imported",
    "Importer",
    "TraceStream",
    "get_importer",
    "guess_importer",
    "number_from_text",
    "register",
    "row_path",
]

_JOB_PATH = re.compile(r"^jobs\[(\d+)\](?:\.(?P<rest>.*))?$")


@dataclass(frozen=True)
class Imported:
    """What an importer read.

    ``document`` has the scenario document's keys the format carries: always ``frameworks``
    and ``jobs``, and ``resources``, ``vm_types``, ``name``, ... when the format has them.
    ``origins[k]`` says where job ``k`` came from (``line 5``) and ``columns`` which column
    a job's field was read from (``executor.cpu`` -> ``C``); both are empty when the paths
    of the document are already the file's own (a JSON document). ``warnings`` say what
    the import left out (jobs dropped by a rule, with counts; a trace's dependencies or
    DAGs, which the scenario cannot express).
    """

    document: dict[str, Any]
    origins: tuple[str, ...] = ()
    columns: Mapping[str, str] = field(default_factory=dict)
    warnings: tuple[FieldError, ...] = ()

    @property
    def jobs(self) -> list[dict[str, Any]]:
        jobs: list[dict[str, Any]] = self.document.get("jobs", [])
        return jobs

    def locate(self, errors: Iterable[FieldError], *, first_job: int = 0) -> list[FieldError]:
        """Errors about the imported jobs located in the file: ``line 5 (job j-17), C``.

        ``errors`` have paths into a document whose jobs include the imported ones from
        index ``first_job`` on (after the jobs a workload already had, when appending).
        Other errors are returned unchanged.
        """
        out = []
        for e in errors:
            m = _JOB_PATH.match(e.path)
            k = int(m.group(1)) - first_job if m else -1
            if m is None or not 0 <= k < len(self.origins):
                out.append(e)
                continue
            rest = m.group("rest") or ""
            job = self.jobs[k] if k < len(self.jobs) else {}
            job_id = job.get("id") if isinstance(job, Mapping) else None
            out.append(FieldError(row_path(self.origins[k], job_id, self.columns.get(rest, rest)), e.message))
        return out


def number_from_text(text: str) -> int | float:
    """A number written in a file's cell: ``ValueError`` unless it is finite; whole numbers as ``int``.

    The one rule of the text importers (a JSON document's numbers go through
    :mod:`scheduling.numbers` instead).

    >>> number_from_text(" 4 "), number_from_text("2.5"), number_from_text("1e3")
    (4, 2.5, 1000)
    >>> number_from_text("9007199254740993")  # 2**53 + 1: as the float it reads as
    9007199254740992.0
    """
    # Most cells: digits only, below 10**15 < 2**53 (other Unicode digits read as float() reads
    # them, and a digit int() refuses, such as "²", float() refuses too).
    if len(text) < 16 and text.isdigit():
        return int(text)
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not finite")
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def row_path(origin: str, job_id: Any = None, column: str = "") -> str:
    """``line 5 (job j-17), cpu``: the path of a problem in a row of a file.

    >>> row_path("line 5", "j-17", "cpu"), row_path("line 6"), row_path("line 7", None, "C")
    ('line 5 (job j-17), cpu', 'line 6', 'line 7, C')
    """
    where = origin if job_id in (None, "") else f"{origin} (job {shown(job_id)})"
    return f"{where}, {column}" if column else where


Reader = Callable[[Iterable[str], Mapping[str, Any]], Imported]
#: ``stream(sources, options, report, vm_types)`` yields ``(job, origin)`` of a trace one at a
#: time, fills ``report`` (the VM types made from the trace's machines, what it dropped) and
#: raises :class:`ScenarioError` at ``<file> line N, <column>`` for a malformed line.
#: ``vm_types`` (given by the caller, else ``None``) is the cluster the jobs must fit.
TraceStream = Callable[
    [Sequence[Source], Mapping[str, Any], Report, "Sequence[Mapping[str, Any]] | None"],
    Iterator[tuple[dict[str, Any], str]],
]


def _text_value(p: Param, value: Any) -> Any:
    """A value typed as text (``--option k=v``, a form's field) in its parameter's kind; any
    other value as it is. What is still wrong is reported by the declaration's check."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if p.kind in ("integer", "number"):
        try:
            return number_from_text(text)
        except ValueError:
            return value
    lowered = text.lower()
    if p.kind == "boolean" and (lowered in _TRUE or lowered in _FALSE):
        return lowered in _TRUE
    return value


@dataclass(frozen=True)
class Importer:
    """One input format.

    ``read(lines, options)`` reads text lines (an open file is one) with options already
    checked by :meth:`parse_options`, and raises :class:`ScenarioError` with paths into the
    file (``line 5 (job j-17), C``, or ``csv`` for the whole file). ``detect`` tells from a
    file's first line whether it is in this format (several formats share ``.csv``).
    ``stream`` (trace formats) reads several files line by line and yields jobs
    (:data:`TraceStream`); ``tables`` are the tables of a multi-table trace, recognised by
    the name in a file's path; ``columns`` say which column of the format a job's field
    comes from (for errors found when the jobs are checked).
    """

    name: str
    label: str
    file_types: tuple[str, ...]
    read: Reader
    options: tuple[Param, ...] = ()
    detect: Callable[[str], bool] | None = None
    help: str = ""
    stream: TraceStream | None = None
    tables: tuple[str, ...] = ()
    columns: Mapping[str, str] = field(default_factory=dict)
    #: Each job is one line of the file, in the file's order, after at most a header line: a
    #: preview reads the first lines only (others read the whole file for their first jobs).
    line_per_job: bool = False

    def parse_options(self, data: Any = None, *, path: str = "options") -> dict[str, Any]:
        """The importer's options from an object (``None``: defaults), each checked by its
        declaration; values typed as text (``"false"``, ``"0.5"``) are read as their kind."""
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise ScenarioError.single(path, "must be an object")
        declared = {p.name: p for p in self.options}
        unknown = [
            FieldError(f"{path}.{shown(k)}", f"unknown option (options: {', '.join(declared) or 'none'})")
            for k in data
            if k not in declared
        ]
        given = {k: _text_value(declared[k], v) for k, v in data.items() if k in declared}
        try:
            read = read_params(self.options, given, path=path, what=f"the {self.name} importer")
        except ScenarioError as exc:
            raise ScenarioError([*exc.errors, *unknown]) from None
        if unknown:
            raise ScenarioError(unknown)
        return read

    @collector_paused()
    def read_text(self, text: str, options: Any = None) -> Imported:
        """Read a whole text (a pasted file) with ``options`` (an object, checked here)."""
        return self.read(io.StringIO(text), self.parse_options(options))

    @collector_paused()
    def read_sources(
        self,
        sources: Sequence[Source],
        options: Any = None,
        *,
        vm_types: Sequence[Mapping[str, Any]] | None = None,
        fallback_vm_types: Sequence[Mapping[str, Any]] | None = None,
    ) -> Imported:
        """Everything in ``sources`` (files, folders' files, uploads) with ``options`` (checked here).

        A trace is read as a stream: only the jobs kept are held. ``vm_types`` (a scenario's
        VM type entries) is the cluster: it replaces the one made from the trace's machines;
        ``fallback_vm_types`` is the cluster of a trace that brings no machines. Jobs that
        cannot start on the cluster are dropped and counted in the warnings. Other formats
        read exactly one file, at most the document size limit.
        """
        checked = self.parse_options(options)
        if self.stream is None:
            return self._read_one(sources, checked, vm_types)
        fallback = None if fallback_vm_types is None else [dict(t) for t in fallback_vm_types]
        report = Report(fallback_vm_types=fallback)
        jobs: list[tuple[dict[str, Any], str]] = list(self.stream(sources, checked, report, vm_types))
        return self._imported(jobs, report, vm_types)

    def preview(
        self,
        sources: Sequence[Source],
        options: Any = None,
        *,
        limit: int = 20,
        vm_types: Sequence[Mapping[str, Any]] | None = None,
        fallback_vm_types: Sequence[Mapping[str, Any]] | None = None,
    ) -> Imported:
        """The first ``limit`` jobs the import would give, reading no further than they need
        (a trace hands its jobs on in the order it completes them; the preview's warnings
        count what was dropped so far). Other formats are read whole and cut."""
        checked = self.parse_options(options)
        if self.stream is None:
            # A line per job: twice the lines wanted is room for blank lines and the header.
            lines = 2 * limit + 2 if self.line_per_job else None
            whole = self._read_one(sources, checked, vm_types, lines=lines)
            doc = {**whole.document, "jobs": whole.jobs[:limit]}
            return Imported(doc, whole.origins[:limit], whole.columns, whole.warnings)
        fallback = None if fallback_vm_types is None else [dict(t) for t in fallback_vm_types]
        report = Report(fallback_vm_types=fallback)
        stream = self.stream(sources, checked, report, vm_types)
        try:
            jobs = list(itertools.islice(stream, limit))
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()  # closes the files the stream has open
        return self._imported(jobs, report, vm_types)

    def _read_one(
        self,
        sources: Sequence[Source],
        options: Mapping[str, Any],
        vm_types: Sequence[Mapping[str, Any]] | None,
        *,
        lines: int | None = None,
    ) -> Imported:
        if len(sources) != 1:
            raise ScenarioError.single("files", f"the {self.name} format reads one file, not {len(sources)}")
        source = sources[0]
        try:
            read = (line for _, line in numbered_lines(source))
            imported = self.read(read if lines is None else itertools.islice(read, lines), options)
        except ScenarioError as exc:
            errors = [FieldError(f"{source.name}: {e.path}", e.message) for e in exc.errors]
            raise ScenarioError(errors) from None
        if vm_types is not None:
            imported = Imported(
                {**imported.document, "vm_types": list(vm_types)},
                imported.origins,
                imported.columns,
                imported.warnings,
            )
        return imported

    def _imported(
        self,
        jobs: list[tuple[dict[str, Any], str]],
        report: Report,
        vm_types: Sequence[Mapping[str, Any]] | None,
    ) -> Imported:
        jobs.sort(key=lambda jo: (jo[0]["arrival_s"], str(jo[0]["id"])))
        jobs_only = [j for j, _ in jobs]
        doc: dict[str, Any] = {"resources": list(DEFAULT_RESOURCES), "frameworks": [], "jobs": jobs_only}
        cluster = cluster_of(report, vm_types)
        if cluster is not None:
            doc["vm_types"] = cluster
        return Imported(doc, tuple(o for _, o in jobs), self.columns, report.warnings())


#: name -> importer, in the order they were registered.
IMPORTERS: dict[str, Importer] = {}


def register(importer: Importer) -> Importer:
    """Add an importer to :data:`IMPORTERS` (a new trace format is one call of this)."""
    if importer.name in IMPORTERS:
        raise ValueError(f"an importer named {importer.name!r} is already registered")
    IMPORTERS[importer.name] = importer
    return importer


def get_importer(name: Any, *, path: str = "format") -> Importer:
    """The importer called ``name``; :class:`ScenarioError` at ``path`` listing the others."""
    found = IMPORTERS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ScenarioError.single(path, f"must be one of {', '.join(IMPORTERS)}")
    return found


def guess_importer(filename: str, first_line: str) -> Importer | None:
    """The importer of a file, by its type and (when several or none read that type) its first line.

    >>> guess_importer("w.csv", "job-id,C,M,E,T_A,T_est,T_D").name, guess_importer("-", "{").name
    ('rm-simulator', 'scenario-json')
    """
    suffix = PurePath(filename).suffix.lower()
    candidates = [i for i in IMPORTERS.values() if suffix in i.file_types] or list(IMPORTERS.values())
    if len(candidates) > 1:
        candidates = [i for i in candidates if i.detect is not None and i.detect(first_line)]
    return candidates[0] if len(candidates) == 1 else None


def bounded_lines(lines: Iterable[str], path: str) -> Iterator[str]:
    """``lines`` without a leading byte-order mark, stopping with an error past the size limit."""
    limit = LIMITS["document_bytes"]
    total = 0
    for i, line in enumerate(lines):
        total += len(line)
        if total > limit:
            raise ScenarioError.single(path, f"is larger than {int(limit) // 2**20} MB")
        yield line.lstrip("\ufeff") if i == 0 else line
