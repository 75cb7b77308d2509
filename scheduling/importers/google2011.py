"""Google's 2011 cluster trace (clusterdata-2011-2): ``job_events``, ``task_events``, ``machine_events``.

Each table is a folder of gzipped CSV parts without a header (``part-00000-of-00500.csv.gz``,
...), in time order. The columns (the trace's schema document, v2.1):

* ``job_events``: time, missing info, job ID, event type, user, scheduling class, job name,
  logical job name;
* ``task_events``: time, missing info, job ID, task index, machine ID, event type, user,
  scheduling class, priority, CPU request, memory request, disk space request,
  different-machine restriction;
* ``machine_events``: time, machine ID, event type (0 ADD, 1 REMOVE, 2 UPDATE), platform ID,
  CPUs, memory.

Times are microseconds; event types 0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH, 5 KILL,
6 LOST, 7 UPDATE_PENDING, 8 UPDATE_RUNNING; CPU and memory are fractions of the largest
machine. Jobs follow the rule of :mod:`.google_events`. The cluster is the machines' first
ADD, one VM type per (CPUs, memory) de-normalised by ``machine_cpu`` and ``machine_mem_gb``
(a machine added without a capacity is left out and counted).

A file is recognised as a table by the table's name in its path, else by its number of
columns (8, 13, 6).

>>> jobs = "0,,7,0,u,1,n,l\\n1000000,,7,1,u,1,n,l\\n5000000,,7,4,u,1,n,l\\n"
>>> tasks = ("0,,7,0,,0,u,1,0,0.25,0.5,0,0\\n1000000,,7,0,m,1,u,1,0,0.25,0.5,0,0\\n"
...          "4000000,,7,0,m,4,u,1,0,,,,\\n")
>>> tables = [Source.from_text("job_events", jobs), Source.from_text("task_events", tasks)]
>>> imported = IMPORTER.read_sources(tables)
>>> imported.jobs
[{'id': '7', 'arrival_s': 0, 'executors': 1, 'executor': {'cpu': 8, 'mem': 32}, 'duration_s': 3}]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
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
    column_error,
    google_jobs,
    job_rank,
)
from .registry import Imported, Importer, register
from .sources import Source, line_of
from .trace_tables import MachineCount, TraceTables, csv_cells, csv_rows, table_columns
from .traces import DEADLINE_PARAMS, PRICE_PARAMS, SELECTION_PARAMS, Report

__all__ = [
    "JOB_COLUMNS",
    "MACHINE_COLUMNS",
    "TABLES",
    "TASK_COLUMNS",
    "read_google_2011",
    "stream_google_2011",
]

TABLES = ("job_events", "task_events", "machine_events")
JOB_COLUMNS = (
    "time",
    "missing info",
    "job ID",
    "event type",
    "user",
    "scheduling class",
    "job name",
    "logical job name",
)
TASK_COLUMNS = (
    "time",
    "missing info",
    "job ID",
    "task index",
    "machine ID",
    "event type",
    "user",
    "scheduling class",
    "priority",
    "CPU request",
    "memory request",
    "disk space request",
    "different-machine restriction",
)
MACHINE_COLUMNS = ("time", "machine ID", "event type", "platform ID", "CPUs", "memory")
#: The trace's event codes as the rule's kinds: 0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH,
#: 5 KILL, 6 LOST, 7 UPDATE_PENDING, 8 UPDATE_RUNNING.
KINDS = (SUBMIT, SCHEDULE, OTHER, BAD, FINISH, BAD, BAD, OTHER, OTHER)
#: The same, by the code as the files write it (one lookup a line).
_KIND_OF = {str(code): kind for code, kind in enumerate(KINDS)}
_BY_COLUMNS = {
    len(JOB_COLUMNS): "job_events",
    len(TASK_COLUMNS): "task_events",
    len(MACHINE_COLUMNS): "machine_events",
}
_TASK_CHECKS = (
    (0, "time", "int"),
    (2, "job ID", "int"),
    (3, "task index", "int"),
    (5, "event type", "9"),
    (9, "CPU request", "float"),
    (10, "memory request", "float"),
)
_JOB_CHECKS = ((0, "time", "int"), (2, "job ID", "int"), (3, "event type", "9"))
_MACHINE_CHECKS = (
    (0, "time", "int"),
    (1, "machine ID", "int"),
    (2, "event type", "3"),
    (4, "CPUs", "float"),
    (5, "memory", "float"),
)
_SOURCE_COLUMNS = {
    "id": "job ID",
    "arrival_s": "time (the job's first SUBMIT)",
    "executors": "task index",
    "executor.cpu": "CPU request",
    "executor.mem": "memory request",
    "executor": "CPU request, memory request",
    "duration_s": "time (first SCHEDULE to last FINISH)",
}


def _task_events(sources: Iterable[Source]) -> Iterator[Event]:
    kinds = _KIND_OF
    for seq, (source, n, c) in enumerate(csv_rows(sources, "task_events", TASK_COLUMNS)):
        try:
            event = (
                int(c[0]),
                TASK_RANK,
                seq,
                int(c[2]),
                int(c[3]),
                kinds[c[5]],
                float(c[9]) if c[9] else 0.0,
                float(c[10]) if c[10] else 0.0,
                source,
                n,
            )
        except (ValueError, KeyError):
            raise column_error(source, n, c, _TASK_CHECKS) from None
        if event[4] < 0:
            raise ScenarioError.single(f"{line_of(source, n)}, task index", f"must be >= 0, got {c[3]!r}")
        yield event


def _job_events(sources: Iterable[Source]) -> Iterator[Event]:
    for seq, (source, n, c) in enumerate(csv_rows(sources, "job_events", JOB_COLUMNS)):
        try:
            kind = _KIND_OF[c[3].strip()]
            event = (int(c[0]), job_rank(kind), seq, int(c[2]), -1, kind, 0.0, 0.0, source, n)
        except (ValueError, KeyError):
            raise column_error(source, n, c, _JOB_CHECKS) from None
        yield event


def _count_machines(sources: Sequence[Source], machines: MachineCount, options: Mapping[str, Any]) -> None:
    """Each machine at its first ADD, de-normalised (a first ADD without a capacity: none)."""
    cpu_unit, mem_unit = float(options["machine_cpu"]), float(options["machine_mem_gb"])
    for source, n, c in csv_rows(sources, "machine_events", MACHINE_COLUMNS):
        try:
            machine, code = int(c[1]), int(c[2])
            cpu = float(c[4]) if c[4] else None
            mem = float(c[5]) if c[5] else None
            int(c[0])
            if code not in (0, 1, 2):
                raise ValueError
        except ValueError:
            raise column_error(source, n, c, _MACHINE_CHECKS) from None
        if code != 0 or not machines.first(machine):
            continue
        if cpu is None or mem is None or cpu <= 0:
            machines.add(None)
        else:
            machines.add(cpu * cpu_unit, mem * mem_unit)


LAYOUT = TraceTables(
    TABLES,
    guess=lambda source: table_columns(source, _BY_COLUMNS),
    unknown="is none of the trace's tables: name it after one (job_events, task_events, machine_events) "
    "or give it their columns (8, 13 or 6)",
    machines="machine_events",
    count_machines=_count_machines,
    prefix="g2011",
)


def stream_google_2011(
    sources: Sequence[Source],
    options: Mapping[str, Any],
    report: Report,
    vm_types: Sequence[Mapping[str, Any]] | None,
) -> Iterator[tuple[dict[str, Any], str]]:
    """The jobs of the 2011 trace's tables (see the module and :mod:`.google_events`)."""
    tables = LAYOUT.read(sources, options, report, vm_types)
    if not tables["job_events"] and not tables["task_events"]:
        raise ScenarioError.single("files", "have no job_events or task_events: there are no jobs to read")
    if not tables["task_events"]:
        raise ScenarioError.single(
            "files", "have no task_events: a job's executors, sizes and durations are there"
        )
    if not tables["job_events"]:
        report.note(
            "job_events", "not given: a job arrives with its first task's SUBMIT and ends when its tasks do"
        )
    jobs = _job_events(tables["job_events"]) if tables["job_events"] else None
    yield from google_jobs(
        options, report, vm_types, _task_events(tables["task_events"]), jobs,
        task_table="task_events", job_table="job_events",
    )  # fmt: skip


def read_google_2011(lines: Iterable[str], options: Mapping[str, Any]) -> Imported:
    """One table of the trace as pasted text, recognised by its columns."""
    return IMPORTER.read_sources([Source.from_text("", "".join(lines))], options)


def _looks_like_google_2011(first_line: str) -> bool:
    cells = csv_cells(first_line)
    return (
        len(cells) in _BY_COLUMNS
        and cells[0].strip().isdigit()
        and all(c.strip().isdigit() for c in cells[1:3])
    )


IMPORTER = register(
    Importer(
        name="google-2011",
        label="Google cluster trace 2011 (job_events, task_events, machine_events)",
        file_types=(".gz", ".csv"),
        read=read_google_2011,
        detect=_looks_like_google_2011,
        options=(*SELECTION_PARAMS, *DEADLINE_PARAMS, *GOOGLE_PARAMS, *PRICE_PARAMS),
        help="The clusterdata-2011-2 tables (folders of part-NNNNN-of-NNNNN.csv.gz, or the files): a job "
        "arrives at its first SUBMIT, has its distinct task indexes as executors of its largest request, "
        "and runs from its first SCHEDULE to its last FINISH; machines become VM types. See docs/traces.md.",
        stream=stream_google_2011,
        tables=TABLES,
        columns=_SOURCE_COLUMNS,
    )
)
