"""Scenario documents and jobs written as text a piece at a time, for workloads of a million jobs.

:func:`scenario_json_text` writes exactly what ``json.dumps(doc, indent=2, ensure_ascii=False)``
writes, but takes the jobs as chunks (lists) and yields the text a job at a time, so a caller
never holds the whole document or its text. :func:`jobs_csv_text` writes the jobs CSV that the
``jobs`` importer reads back (:mod:`scheduling.importers.jobs_csv`).

>>> head = {"version": 1, "name": "n", "jobs": [], "options": {}}
>>> chunks = [[{"id": "a", "arrival_s": 0}], [{"id": "b", "arrival_s": 1.5}]]
>>> doc = {**head, "jobs": [j for c in chunks for j in c]}
>>> "".join(scenario_json_text(head, chunks)) == json.dumps(doc, indent=2, ensure_ascii=False)
True
>>> print("".join(jobs_csv_text([[{"id": "a", "arrival_s": 0, "executors": 2,
...     "executor": {"cpu": 1, "mem": 2.5}, "duration_s": 60, "deadline_s": 90}]], ["cpu", "mem"])), end="")
id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s,network_sensitivity
a,,0,2,1,2.5,60,90,
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from json.encoder import encode_basestring
from typing import Any

__all__ = ["jobs_csv_text", "scenario_json_text"]

_MARK = "\u0000jobs\u0000"


def scenario_json_text(head: Mapping[str, Any], job_chunks: Iterable[Sequence[Any]]) -> Iterator[str]:
    """The text of ``head`` with its ``jobs`` (which must be a key of it, at its place) taken
    from ``job_chunks``, as ``json.dumps(..., indent=2, ensure_ascii=False)`` writes it."""
    text = json.dumps({**head, "jobs": [_MARK]}, indent=2, ensure_ascii=False, allow_nan=False)
    marker = json.dumps(_MARK, ensure_ascii=False)
    before, after = text.split(marker, 1)
    # before ends with '"jobs": [\n    ', after starts with '\n  ]'
    prefix, indent = before.rsplit("\n", 1)
    first = True
    for chunk in job_chunks:
        for job in chunk:
            body = _indented_text(job, "\n" + indent)
            if first:
                yield prefix + "\n" + indent + body
                first = False
            else:
                yield ",\n" + indent + body
    if first:  # no jobs: an empty list, as json.dumps writes it
        yield json.dumps({**head, "jobs": []}, indent=2, ensure_ascii=False, allow_nan=False)
        return
    yield after


class _Unusual(Exception):
    """A value :func:`_indented` leaves to :func:`json.dumps` (a non-finite float, a non-text
    key, a type JSON does not know): the same text, or the same error, as json writes."""


def _indented(value: Any, newline: str) -> str:
    """``value`` as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it, every line
    after the first starting with ``newline``'s indentation. Written here for the types a job
    holds: json's own encoder takes its pure-Python path whenever it indents, three times
    slower (a third of a million-job export)."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if value != value or value in (math.inf, -math.inf):
            raise _Unusual
        return float.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    inner = newline + "  "
    if kind is dict:
        if not value:
            return "{}"
        items = []
        for key, item in value.items():
            if type(key) is not str:
                raise _Unusual
            items.append(encode_basestring(key) + ": " + _indented(item, inner))
        return "{" + inner + ("," + inner).join(items) + newline + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        return "[" + inner + ("," + inner).join([_indented(item, inner) for item in value]) + newline + "]"
    raise _Unusual


def _indented_text(value: Any, newline: str) -> str:
    """:func:`_indented`, or json's own text (or error) for what it leaves to json."""
    try:
        return _indented(value, newline)
    except _Unusual:
        text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
        return text.replace("\n", newline)


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def jobs_csv_text(
    job_chunks: Iterable[Sequence[Mapping[str, Any]]], resources: Sequence[str]
) -> Iterator[str]:
    """The jobs as the ``jobs`` CSV format (a header, then one line per job), a chunk at a time.

    Empty ``framework``, ``deadline_s`` and ``network_sensitivity`` cells mean none (the
    framework's sensitivity), as the importer reads them.
    """
    columns = ["id", "framework", "arrival_s", "executors", *resources, "duration_s", "deadline_s",
               "network_sensitivity"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    yield buffer.getvalue()
    for chunk in job_chunks:
        buffer.seek(0)
        buffer.truncate()
        for job in chunk:
            executor = job.get("executor") or {}
            writer.writerow([
                _cell(job.get("id")), _cell(job.get("framework")), _cell(job.get("arrival_s")),
                _cell(job.get("executors")), *(_cell(executor.get(r)) for r in resources),
                _cell(job.get("duration_s")), _cell(job.get("deadline_s")),
                _cell(job.get("network_sensitivity")),
            ])
        yield buffer.getvalue()
