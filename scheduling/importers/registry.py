"""The importer registry: every input format is an entry, so a new trace format adds no branch.

An :class:`Importer` has a name, a label, the file types it reads, its options (declared
like run options, as :class:`~scheduling.scenario.OptionField`) and a streaming reader: a
function of an iterable of text lines (an open file, ``io.StringIO``) and the checked
options that returns an :class:`Imported`, a scenario document (whole, or only its
``frameworks`` and ``jobs``) with the place in the file each job came from. The command
line (``python -m scheduling import``) and the planner's imports look importers up here
and never ask which one they hold.

>>> sorted(IMPORTERS)
['jobs', 'rm-simulator', 'scenario-json']
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
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from ..errors import FieldError, ScenarioError
from ..scenario import LIMITS, OptionField, read_option_values
from ..scenario.checks import Problems, shown

__all__ = [
    "IMPORTERS",
    "Imported",
    "Importer",
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
    of the document are already the file's own (a JSON document).
    """

    document: dict[str, Any]
    origins: tuple[str, ...] = ()
    columns: Mapping[str, str] = field(default_factory=dict)

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
    """
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


@dataclass(frozen=True)
class Importer:
    """One input format.

    ``read(lines, options)`` reads text lines (an open file is one) with options already
    checked by :meth:`parse_options`, and raises :class:`ScenarioError` with paths into the
    file (``line 5 (job j-17), C``, or ``csv`` for the whole file). ``detect`` tells from a
    file's first line whether it is in this format (several formats share ``.csv``).
    """

    name: str
    label: str
    file_types: tuple[str, ...]
    read: Reader
    options: tuple[OptionField, ...] = ()
    detect: Callable[[str], bool] | None = None
    help: str = ""

    def parse_options(self, data: Any = None, *, path: str = "options") -> dict[str, Any]:
        """The importer's options from an object (``None``: defaults), each checked."""
        problems = Problems()
        given = read_option_values(self.options, data, path, problems)
        problems.raise_if_any()
        return {**{o.name: o.default for o in self.options}, **given}

    def read_text(self, text: str, options: Any = None) -> Imported:
        """Read a whole text (a pasted file) with ``options`` (an object, checked here)."""
        return self.read(io.StringIO(text), self.parse_options(options))


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
