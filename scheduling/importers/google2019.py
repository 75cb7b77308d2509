"""Google's 2019 cluster trace (clusterdata-2019): collection, instance and machine events.

The 2019 trace is published in BigQuery only. Two exports are read, each table in time order:

* **newline-delimited JSON**, as BigQuery exports a query's result: one object a line, nested
  records as objects (``"resource_request": {"cpus": 0.02, "memory": 0.01}``), 64-bit integers
  as strings (``"time": "3000000"``); fields the rule does not use are ignored;
* **CSV with a header**, the result of the flattening queries of ``docs/traces.md``: the same
  fields, nested ones as ``resource_request_cpus``, ``capacity_memory``, ...,
  ``start_after_collection_ids`` as ids separated by spaces.

The fields read (the trace's ``clusterdata_trace_format_v3.proto``):

* ``collection_events``: time, type, collection_id, collection_type, start_after_collection_ids;
* ``instance_events``: time, type, collection_id, instance_index, collection_type,
  resource_request.cpus, resource_request.memory;
* ``machine_events``: time, machine_id, type (1 ADD, 2 REMOVE, 3 UPDATE), capacity.cpus,
  capacity.memory.

Event types differ from 2011: 0 SUBMIT, 1 QUEUE, 2 ENABLE, 3 SCHEDULE, 4 EVICT, 5 FAIL,
6 FINISH, 7 KILL, 8 LOST, 9 UPDATE_PENDING, 10 UPDATE_RUNNING. A collection is a job
(``collection_type`` 0); alloc sets (1) reserve resources for jobs and are skipped. Jobs follow
the rule of :mod:`.google_events`; ``start_after_collection_ids`` (a job's dependencies) are
reported as ignored. The cluster is each machine's first ADD, grouped by capacity.

>>> jobs = ('{"time": "0", "type": 0, "collection_id": "9", "collection_type": 0}\\n'
...         '{"time": "9000000", "type": 6, "collection_id": "9", "collection_type": 0}\\n')
>>> tasks = ('{"time": "0", "type": "0", "collection_id": "9", "instance_index": 0, '
...          '"resource_request": {"cpus": 0.125, "memory": 0.25}}\\n'
...          '{"time": "2000000", "type": "3", "collection_id": "9", "instance_index": 0}\\n'
...          '{"time": "9000000", "type": "6", "collection_id": "9", "instance_index": 0}\\n')
>>> tables = [Source.from_text("collection_events.json", jobs),
...           Source.from_text("instance_events.json", tasks)]
>>> IMPORTER.read_sources(tables).jobs
[{'id': '9', 'arrival_s': 0, 'executors': 1, 'executor': {'cpu': 4, 'mem': 16}, 'duration_s': 7}]
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import ScenarioError
from .google_events import (
    BAD,
    FINISH,
    GOOGLE_PARAMS,
    OTHER,
    SCHEDULE,
    SUBMIT,
    TASK_RANK,
    Event,
    google_jobs,
    job_rank,
)
from .registry import Imported, Importer, register
from .sources import Source, line_of, numbered_lines
from .trace_tables import MachineCount, TraceTables
from .traces import DEADLINE_PARAMS, PRICE_PARAMS, SELECTION_PARAMS, Report

__all__ = ["FIELDS", "TABLES", "read_google_2019", "stream_google_2019"]

TABLES = ("collection_events", "instance_events", "machine_events")
#: The fields read of each table; a nested field is a dotted path (a CSV column joins it with ``_``).
FIELDS: dict[str, tuple[str, ...]] = {
    "collection_events": ("time", "type", "collection_id", "collection_type", "start_after_collection_ids"),
    "instance_events": ("time", "type", "collection_id", "instance_index", "collection_type",
                        "resource_request.cpus", "resource_request.memory"),
    "machine_events": ("time", "machine_id", "type", "capacity.cpus", "capacity.memory"),
}  # fmt: skip
#: Event codes as the rule's kinds: 0 SUBMIT, 1 QUEUE, 2 ENABLE, 3 SCHEDULE, 4 EVICT, 5 FAIL,
#: 6 FINISH, 7 KILL, 8 LOST, 9 UPDATE_PENDING, 10 UPDATE_RUNNING.
KINDS = (SUBMIT, OTHER, OTHER, SCHEDULE, OTHER, BAD, FINISH, BAD, BAD, OTHER, OTHER)
ALLOC_SET = 1
MACHINE_ADD = 1
_SOURCE_COLUMNS = {
    "id": "collection_id",
    "arrival_s": "time (the collection's first SUBMIT)",
    "executors": "instance_index",
    "executor.cpu": "resource_request.cpus",
    "executor.mem": "resource_request.memory",
    "executor": "resource_request",
    "duration_s": "time (first SCHEDULE to last FINISH)",
}

Record = Callable[[str], Any]
"""A line's value of a field (a dotted path), ``None`` when it has none."""


def _records(source: Source) -> Iterator[tuple[int, Record]]:
    """``(line number, field getter)`` of a JSON-lines or CSV export, by its first line."""
    lines = numbered_lines(source)
    for n, line in lines:
        if line.strip():
            first = (n, line)
            break
    else:
        return
    if first[1].lstrip().startswith("{"):
        for n, line in _chain(first, lines):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ScenarioError.single(line_of(source, n), f"is not a JSON object: {exc}") from None
            if not isinstance(obj, dict):
                raise ScenarioError.single(line_of(source, n), "is not a JSON object")
            yield n, _json_getter(obj)
        return
    at = [first[0]]  # the line the CSV reader has read last

    def texts() -> Iterator[str]:
        for n, line in _chain(first, lines):
            at[0] = n
            yield line

    reader = csv.reader(texts())
    header = [h.strip() for h in next(reader)]
    column = {h: k for k, h in enumerate(header)}
    try:
        for row in reader:
            if not row or not any(c.strip() for c in row):
                continue
            if len(row) != len(header):
                raise ScenarioError.single(
                    line_of(source, at[0]), f"has {len(row)} columns, the header {len(header)}"
                )
            yield at[0], _csv_getter(row, column)
    except csv.Error as exc:
        raise ScenarioError.single(line_of(source, at[0]), f"is not valid CSV: {exc}") from None


def _chain(first: tuple[int, str], rest: Iterator[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    yield first
    yield from rest


def _json_getter(obj: dict[str, Any]) -> Record:
    def get(path: str) -> Any:
        value: Any = obj
        for step in path.split("."):
            if not isinstance(value, dict):
                return None
            value = value.get(step)
        return value

    return get


def _csv_getter(row: list[str], column: Mapping[str, int]) -> Record:
    def get(path: str) -> Any:
        k = column.get(path.replace(".", "_"))
        if k is None:
            return None
        cell = row[k].strip()
        return cell if cell else None

    return get


def _integer(get: Record, field: str, source: Source, n: int, *, required: bool = True) -> int | None:
    value = get(field)
    if value is None and not required:
        return None
    try:
        if isinstance(value, bool):
            raise ValueError
        return int(value)  # an int, or a string of one as BigQuery writes 64-bit integers
    except (TypeError, ValueError):
        raise ScenarioError.single(
            f"{line_of(source, n)}, {field}", f"must be a whole number, got {value!r}"
        ) from None


def _fraction(get: Record, field: str, source: Source, n: int) -> float:
    value = get(field)
    if value is None:
        return 0.0
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = -1.0
    if not number >= 0:
        raise ScenarioError.single(f"{line_of(source, n)}, {field}", f"must be a number >= 0, got {value!r}")
    return number


def _kind(get: Record, source: Source, n: int) -> int:
    code = _integer(get, "type", source, n)
    if code is None or not 0 <= code < len(KINDS):
        raise ScenarioError.single(
            f"{line_of(source, n)}, type", f"must be an event code from 0 to {len(KINDS) - 1}"
        )
    return KINDS[code]


def _collection_events(sources: Iterable[Source], report: Report) -> Iterator[Event]:
    seq = 0
    for source in sources:
        for n, get in _records(source):
            t = _integer(get, "time", source, n)
            kind = _kind(get, source, n)
            job = _integer(get, "collection_id", source, n)
            assert t is not None and job is not None
            if _integer(get, "collection_type", source, n, required=False) == ALLOC_SET:
                if kind == SUBMIT:
                    report.count("collection_events", "alloc sets (collection_type 1) are not jobs: skipped")
                continue
            if kind == SUBMIT and get("start_after_collection_ids") not in (None, "", []):
                report.count(
                    "collection_events",
                    "jobs start after others (start_after_collection_ids); the scenario has no dependencies, "
                    "so they are ignored",
                )
            seq += 1
            yield (t, job_rank(kind), seq, job, -1, kind, 0.0, 0.0, source, n)


def _instance_events(sources: Iterable[Source]) -> Iterator[Event]:
    seq = 0
    for source in sources:
        for n, get in _records(source):
            t = _integer(get, "time", source, n)
            kind = _kind(get, source, n)
            job = _integer(get, "collection_id", source, n)
            index = _integer(get, "instance_index", source, n)
            assert t is not None and job is not None and index is not None
            if _integer(get, "collection_type", source, n, required=False) == ALLOC_SET:
                continue
            if index < 0:
                raise ScenarioError.single(
                    f"{line_of(source, n)}, instance_index", f"must be >= 0, got {index}"
                )
            cpu = _fraction(get, "resource_request.cpus", source, n)
            mem = _fraction(get, "resource_request.memory", source, n)
            seq += 1
            yield (t, TASK_RANK, seq, job, index, kind, cpu, mem, source, n)


def _count_machines(sources: Sequence[Source], machines: MachineCount, options: Mapping[str, Any]) -> None:
    """Each machine at its first ADD, de-normalised (a first ADD without a capacity: none)."""
    cpu_unit, mem_unit = float(options["machine_cpu"]), float(options["machine_mem_gb"])
    for source in sources:
        for n, get in _records(source):
            _integer(get, "time", source, n)
            machine = _integer(get, "machine_id", source, n)
            if _integer(get, "type", source, n) != MACHINE_ADD or not machines.first(machine):
                continue  # a later row of a machine is not read further
            cpu = _fraction(get, "capacity.cpus", source, n)
            mem = _fraction(get, "capacity.memory", source, n)
            if cpu <= 0 or mem <= 0:
                machines.add(None)
            else:
                machines.add(cpu * cpu_unit, mem * mem_unit)


def _table_by_fields(source: Source) -> str | None:
    for _, get in _records(source):
        if get("instance_index") is not None:
            return "instance_events"
        if get("collection_id") is not None:
            return "collection_events"
        if get("machine_id") is not None:
            return "machine_events"
        return None
    return None


LAYOUT = TraceTables(
    TABLES,
    guess=_table_by_fields,
    unknown="is none of the trace's tables: name it after one (collection_events, instance_events, "
    "machine_events) or export their fields",
    machines="machine_events",
    count_machines=_count_machines,
    prefix="g2019",
)


def stream_google_2019(
    sources: Sequence[Source],
    options: Mapping[str, Any],
    report: Report,
    vm_types: Sequence[Mapping[str, Any]] | None,
) -> Iterator[tuple[dict[str, Any], str]]:
    """The jobs of the 2019 trace's exported tables (see the module and :mod:`.google_events`)."""
    tables = LAYOUT.read(sources, options, report, vm_types)
    if not tables["instance_events"]:
        raise ScenarioError.single(
            "files", "have no instance_events: a job's executors, sizes and durations are there"
        )
    if not tables["collection_events"]:
        report.note(
            "collection_events",
            "not given: a job arrives with its first instance's SUBMIT and ends when they do",
        )
    jobs = _collection_events(tables["collection_events"], report) if tables["collection_events"] else None
    yield from google_jobs(
        options, report, vm_types, _instance_events(tables["instance_events"]), jobs,
        task_table="instance_events", job_table="collection_events",
    )  # fmt: skip


def read_google_2019(lines: Iterable[str], options: Mapping[str, Any]) -> Imported:
    """One table of the trace as pasted text, recognised by its fields."""
    return IMPORTER.read_sources([Source.from_text("", "".join(lines))], options)


IMPORTER = register(
    Importer(
        name="google-2019",
        label="Google cluster trace 2019 (collection_events, instance_events, machine_events)",
        file_types=(".jsonl", ".ndjson"),
        read=read_google_2019,
        options=(*SELECTION_PARAMS, *DEADLINE_PARAMS, *GOOGLE_PARAMS, *PRICE_PARAMS),
        help="clusterdata-2019 exported from BigQuery as JSON lines (or the flat CSV of docs/traces.md), "
        "each table in time order: the 2011 rule with 2019's event codes (3 SCHEDULE, 6 FINISH); alloc sets "
        "skipped, start_after_collection_ids ignored. See docs/traces.md.",
        stream=stream_google_2019,
        tables=TABLES,
        columns=_SOURCE_COLUMNS,
    )
)
