"""The files of an import: paths, folders as traces are distributed, uploads; gzipped or plain.

A :class:`Source` is one file as a name (what messages call it: the path given, or an
upload's name) and a way to open its bytes. Its lines are read one at a time
(:func:`numbered_lines`), through ``gzip`` when the file starts with gzip's magic bytes
whatever its name, so no reader ever holds a whole file. A folder stands for the files
under it, in name order (``task_events/part-00000-of-00500.csv.gz``, ``part-00001-...``),
and a multi-table trace recognises each file's table by the name in its path
(:func:`table_of`).

>>> source = Source.from_text("jobs.tsv", "a\\tb\\nc\\td\\n")
>>> list(numbered_lines(source))
[(1, 'a\\tb\\n'), (2, 'c\\td\\n')]
>>> table_of("clusterdata-2011-2/task_events/part-00003-of-00500.csv.gz", ("job_events", "task_events"))
'task_events'
"""

from __future__ import annotations

import gzip
import io
import os
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO, cast

from ..errors import ScenarioError

__all__ = ["Source", "line_of", "numbered_lines", "sources_from_paths", "stem_of", "table_of"]

_GZIP_MAGIC = b"\x1f\x8b"
#: Read in blocks of this many bytes (the text layer splits them into lines).
_BUFFER = 1 << 20


@dataclass(frozen=True)
class Source:
    """One input file: ``name`` as messages show it and ``open_binary()`` that opens its bytes."""

    name: str
    open_binary: Callable[[], BinaryIO]

    @classmethod
    def from_path(cls, path: str | os.PathLike[str], *, name: str | None = None) -> Source:
        """A file on disk (opened only when read)."""
        p = Path(path)
        return cls(name or str(path), lambda: p.open("rb", buffering=_BUFFER))

    @classmethod
    def from_bytes(cls, name: str, data: bytes) -> Source:
        """An upload held in memory (gzipped or plain)."""
        return cls(name, lambda: io.BytesIO(data))

    @classmethod
    def from_text(cls, name: str, text: str) -> Source:
        """Pasted text."""
        data = text.encode("utf-8")
        return cls(name, lambda: io.BytesIO(data))


def sources_from_paths(paths: Sequence[str]) -> list[Source]:
    """The files of ``paths``: each file itself, each folder the files under it in name order.

    Hidden files (``.DS_Store``) and checksum lists (``SHA256SUM``, ``*.md5``) under a folder
    are skipped. Raises :class:`ScenarioError` at a path that is neither.
    """
    out: list[Source] = []
    for given in paths:
        p = Path(given)
        if p.is_dir():
            found = sorted(
                f
                for f in p.rglob("*")
                if f.is_file()
                and not any(part.startswith(".") for part in f.relative_to(p).parts)
                and not re.search(r"(?i)(sha\d*sums?|md5sums?|\.md5|\.sha\d*|\.md|\.txt|\.sh)$", f.name)
            )
            if not found:
                raise ScenarioError.single(given, "is an empty folder")
            out.extend(Source.from_path(f) for f in found)
        elif p.is_file():
            out.append(Source.from_path(p, name=given))
        else:
            raise ScenarioError.single(given, "no such file or folder")
    return out


def numbered_lines(source: Source) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of the file, from 1, read as they are needed.

    Raises :class:`ScenarioError` naming the file (and the line) when it is not UTF-8 text or
    its gzip stream is damaged or cut short.
    """
    n = 0
    try:
        with source.open_binary() as raw:
            peek = getattr(raw, "peek", None)
            if peek is not None:  # a pipe (stdin) cannot seek back
                head = peek(2)[:2]
            else:
                head = raw.read(2)
                raw.seek(0)
            binary = cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb")) if head == _GZIP_MAGIC else raw
            with io.TextIOWrapper(binary, encoding="utf-8", newline="") as text:
                for n, line in enumerate(text, start=1):
                    yield n, line.lstrip("\ufeff") if n == 1 else line
    except UnicodeDecodeError:
        raise ScenarioError.single(line_of(source, n + 1), "is not UTF-8 text") from None
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise ScenarioError.single(
            line_of(source, n + 1), f"the gzip file is damaged or cut short ({exc})"
        ) from None
    except OSError as exc:
        raise ScenarioError.single(source.name, f"cannot be read ({exc.strerror or exc})") from None


def line_of(source: Source, n: int) -> str:
    """Where line ``n`` of a file is, as errors and job origins say it: ``day.tsv line 5``
    (``line 5`` for pasted text, whose source has no name).

    >>> line_of(Source.from_text("", ""), 5), line_of(Source.from_text("day.tsv", ""), 5)
    ('line 5', 'day.tsv line 5')
    """
    return f"{source.name} line {n}" if source.name else f"line {n}"


def stem_of(name: str) -> str:
    """A file's name without its folders and its data-file endings (``.csv.gz``, ``.tsv``, ``.json``).

    >>> stem_of("day/FB-2009_0.tsv.gz")
    'FB-2009_0'
    """
    return _ENDINGS.sub("", re.split(r"[\\/]", name)[-1])


_ENDINGS = re.compile(r"(\.(csv|tsv|json|jsonl|ndjson|gz))+$", re.IGNORECASE)


def table_of(name: str, tables: Sequence[str]) -> str | None:
    """The table of ``tables`` named in the file's path (a folder or the file's own name), if any.

    The longest name wins, so ``batch_instance`` is not taken for ``batch``.
    """
    parts = re.split(r"[\\/]", name.lower())
    stems = [_ENDINGS.sub("", part) for part in parts]
    for table in sorted(tables, key=len, reverse=True):
        if any(stem == table or stem.startswith(table) for stem in reversed(stems)):
            return table
    return None
