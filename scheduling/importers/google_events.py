"""Google's cluster traces (2011 and 2019) as jobs: one rule for both, events in time order.

Both traces record a job (2019: a *collection*) and its tasks (*instances*) as events: submit,
schedule, finish, kill, ... with a time in microseconds, and each task's resource request
normalised to the largest machine. The two differ in their columns and event codes only, so
:mod:`.google2011` and :mod:`.google2019` parse their lines into the events of this module
and :class:`JobEvents` turns them into jobs by one rule:

* a job's **arrival** is its first SUBMIT (the job table's when it is given, else its first
  task's), in seconds of the trace (time 0 means before the trace began: such a job arrives
  at 0; an event at 2^63 - 1, after the trace ended, never happened);
* its **executors** are its distinct task indexes, each of the **size** of the largest task
  request (CPU x ``machine_cpu`` cores, memory x ``machine_mem_gb`` GB);
* its **duration** runs from its first SCHEDULE (of the job or a task) to its last task
  FINISH (or the job's own FINISH when no task finish is recorded);
* a job that ends KILLED, LOST or FAILED is dropped, or kept with ``keep_killed`` (then it
  lasts until that event); one never scheduled, without tasks or requests, or still running
  when the trace ends is dropped; each is counted in the import's warnings.

With the job table, a job is complete at its own terminal event and leaves memory then, so
a long trace is read holding only the jobs running at that moment and the jobs kept. With
task events alone, a job is complete only when the files end. Each table's files must be in
time order (as Google distributes them, ``part-00000`` first): a line earlier than the one
before it is an error.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import ScenarioError
from ..params import Param
from .sources import Source, line_of
from .traces import ClusterFit, Report, Selection, cluster_of, trace_job

__all__ = [
    "BAD",
    "FINISH",
    "GOOGLE_PARAMS",
    "JOB_RANK",
    "JOB_SUBMIT_RANK",
    "OTHER",
    "SCHEDULE",
    "SUBMIT",
    "TASK_RANK",
    "Event",
    "JobEvents",
    "column_error",
    "google_jobs",
    "in_time_order",
    "job_rank",
    "merged",
    "run_jobs",
]

#: The kinds of event the rule tells apart (each trace maps its own codes onto them).
SUBMIT, SCHEDULE, FINISH, BAD, OTHER = range(5)
#: After the trace's window (the traces write 2^63 - 1).
NEVER = 2**63 - 1

#: ``(time in µs, rank, sequence, job id, task index or -1, kind, cpu, mem, source, line)``: at
#: the same time a job's SUBMIT comes before its tasks' events and its other events after them
#: (a job's FINISH follows its last task's); the sequence keeps each table's order.
Event = tuple[int, int, int, int, int, int, float, float, Source, int]
#: The ranks of :data:`Event`.
JOB_SUBMIT_RANK, TASK_RANK, JOB_RANK = 0, 1, 2

GOOGLE_PARAMS: tuple[Param, ...] = (
    Param(
        "machine_cpu",
        "number",
        "Largest machine's cores",
        "CPU requests and capacities are fractions "
        "of the largest machine: this many cores (Google does not publish it).",
        default=32.0,
        minimum=0,
        exclusive_minimum=True,
        maximum=1e6,
    ),
    Param(
        "machine_mem_gb",
        "number",
        "Largest machine's memory",
        "Memory requests and capacities are "
        "fractions of the largest machine: this many GB (Google does not publish it).",
        default=64.0,
        unit="GB",
        minimum=0,
        exclusive_minimum=True,
        maximum=1e9,
    ),
    Param(
        "keep_killed",
        "boolean",
        "Keep killed jobs",
        "Keep jobs that ended KILLED, LOST or FAILED (they last until that event); off: drop them.",
        default=False,
    ),
)


class _Job:
    """What the rule needs of one job while its events come in (a few numbers and a bitmap)."""

    __slots__ = ("arrival", "bad", "cpu", "finish", "key", "mem", "origin", "outcome", "schedule", "tasks")

    def __init__(self, key: str, arrival: int, origin: str):
        self.key = key
        self.arrival = arrival
        self.origin = origin
        self.schedule = NEVER
        self.finish = -1
        self.bad = -1
        self.outcome = OTHER
        self.cpu = 0.0
        self.mem = 0.0
        self.tasks = bytearray()

    def task_seen(self, index: int) -> None:
        byte = index >> 3
        if byte >= len(self.tasks):
            self.tasks.extend(bytes(byte + 1 - len(self.tasks)))
        self.tasks[byte] |= 1 << (index & 7)

    def task_count(self) -> int:
        return sum(b.bit_count() for b in self.tasks)


class JobEvents:
    """The module's rule, fed one event at a time (see the module docstring).

    ``job_table``: whether the job table (2011 ``job_events``, 2019 ``collection_events``) is
    read; then only its SUBMIT admits a job and its terminal event completes it.
    """

    def __init__(
        self,
        options: Mapping[str, Any],
        report: Report,
        fit: ClusterFit,
        *,
        job_table: bool,
    ):
        self.options = options
        self.report = report
        self.fit = fit
        self.job_table = job_table
        self.selection = Selection(options)
        self.cpu_unit = float(options["machine_cpu"])
        self.mem_unit = float(options["machine_mem_gb"])
        self.keep_killed = bool(options["keep_killed"])
        self.live: dict[int, _Job] = {}
        #: Jobs refused while admitting (before the window, not sampled): their later events are
        #: not taken for new jobs. Only task-only reads need it (a job table submits a job once).
        self.refused: set[int] = set()

    def done(self, time: int) -> bool:
        """Whether nothing from ``time`` on can be admitted or completed (a reader may stop)."""
        return self.job_table and not self.live and self.selection.past(time / 1e6)

    def _admit(self, time: int, job_id: int, source: Source, n: int) -> _Job | None:
        if job_id in self.refused:
            return None
        seconds = time / 1e6
        if self.selection.past(seconds):
            return None
        key = str(job_id)
        if not self.selection.admit(seconds, self.report, key):
            if not self.job_table:
                self.refused.add(job_id)
            return None
        job = self.live[job_id] = _Job(key, time, line_of(source, n))
        return job

    def job_event(
        self, time: int, job_id: int, kind: int, source: Source, n: int
    ) -> tuple[dict[str, Any], str] | None:
        """An event of the job table; a job it completes is returned (if it is kept)."""
        job = self.live.get(job_id)
        if job is None:
            if kind != SUBMIT or time == NEVER:
                return None
            self._admit(time, job_id, source, n)
            return None
        if kind == SCHEDULE:
            job.schedule = min(job.schedule, time)
        elif kind in (FINISH, BAD) and time != NEVER:
            job.outcome = kind
            if kind == BAD:
                job.bad = time
            elif job.finish < 0:
                job.finish = time
            del self.live[job_id]
            return self._complete(job)
        return None

    def task_event(
        self, time: int, job_id: int, index: int, kind: int, cpu: float, mem: float, source: Source, n: int
    ) -> None:
        """An event of the task table."""
        if time == NEVER:
            return
        job = self.live.get(job_id)
        if job is None:
            if self.job_table or kind != SUBMIT:
                return
            job = self._admit(time, job_id, source, n)
            if job is None:
                return
        job.task_seen(index)
        if cpu > job.cpu:
            job.cpu = cpu
        if mem > job.mem:
            job.mem = mem
        if kind == SCHEDULE:
            if time < job.schedule:
                job.schedule = time
        elif kind == FINISH:
            if time > job.finish:
                job.finish = time
        elif kind == BAD and time > job.bad:
            job.bad = time

    def finish(self) -> Iterator[tuple[dict[str, Any], str]]:
        """At the end of the files: the jobs task events alone complete; with the job table,
        the jobs it left running are counted as dropped."""
        live, self.live = self.live, {}
        if self.job_table:
            if live:
                self.report.drop("still running when the trace ends", len(live))
            return
        for job in live.values():
            job.outcome = FINISH if job.finish >= 0 else BAD if job.bad >= 0 else OTHER
            done = self._complete(job)
            if done is not None:
                yield done

    def _complete(self, job: _Job) -> tuple[dict[str, Any], str] | None:
        report = self.report
        if job.outcome == BAD and not self.keep_killed:
            report.drop("ended KILLED, LOST or FAILED (keep_killed=true keeps them)")
            return None
        if job.outcome == OTHER:
            report.drop("did not finish within the trace")
            return None
        end = job.bad if job.outcome == BAD else job.finish
        if job.schedule == NEVER:
            report.drop("was never scheduled")
            return None
        executors = job.task_count()
        if executors == 0:
            report.drop("has no task events")
            return None
        if job.cpu <= 0 and job.mem <= 0:
            report.drop("its tasks request no resources")
            return None
        if end <= job.schedule:
            report.drop("ran for no time")
            return None
        doc = trace_job(
            self.options,
            job_id=job.key,
            arrival_s=self.selection.arrival(job.arrival / 1e6),
            executors=executors,
            executor={"cpu": job.cpu * self.cpu_unit, "mem": job.mem * self.mem_unit},
            duration_s=(end - job.schedule) / 1e6,
        )
        return (doc, job.origin) if self.fit.keeps(doc, report) else None


def in_time_order(events: Iterable[Event], *, table: str) -> Iterator[Event]:
    """``events`` of one table, checked to be in time order (``ScenarioError`` at the line)."""
    last = -1
    for event in events:
        if event[0] < last:
            raise ScenarioError.single(
                line_of(event[8], event[9]),
                f"time {event[0]} is earlier than the line before ({last}): {table} must be in time order "
                "(its part files in name order, as Google distributes them)",
            )
        last = event[0]
        yield event


def merged(streams: list[Iterator[Event]]) -> Iterator[Event]:
    """Several tables' events as one stream in time order (tasks before jobs at the same time)."""
    if len(streams) == 1:
        return streams[0]
    return heapq.merge(*streams)


def job_rank(kind: int) -> int:
    """The rank of a job table's event of this kind (:data:`Event`)."""
    return JOB_SUBMIT_RANK if kind == SUBMIT else JOB_RANK


def google_jobs(
    options: Mapping[str, Any],
    report: Report,
    vm_types: Sequence[Mapping[str, Any]] | None,
    tasks: Iterator[Event],
    jobs: Iterator[Event] | None,
    *,
    task_table: str,
    job_table: str,
) -> Iterator[tuple[dict[str, Any], str]]:
    """The jobs of a trace's task events and job events (``None``: the job table is not given),
    by the module's rule: each table checked to be in time order (:func:`in_time_order`, its
    errors naming ``task_table`` or ``job_table``), the two merged, the jobs that fit the
    cluster (the caller's ``vm_types``, else the trace's machines in ``report``) handed on as
    they complete. Call it once the machines are read."""
    engine = JobEvents(options, report, ClusterFit(cluster_of(report, vm_types)), job_table=jobs is not None)
    streams = [in_time_order(tasks, table=task_table)]
    if jobs is not None:
        streams.append(in_time_order(jobs, table=job_table))
    return run_jobs(engine, merged(streams))


def run_jobs(engine: JobEvents, events: Iterator[Event]) -> Iterator[tuple[dict[str, Any], str]]:
    """Feed ``events`` to ``engine`` and yield the jobs it completes, stopping early once
    nothing further can be admitted or completed."""
    task = engine.task_event
    for t, rank, _, job_id, index, kind, cpu, mem, source, n in events:
        if rank == TASK_RANK:
            task(t, job_id, index, kind, cpu, mem, source, n)
            continue
        done = engine.job_event(t, job_id, kind, source, n)
        if done is not None:
            yield done
        if engine.done(t):
            break
    yield from engine.finish()


def column_error(
    source: Source, n: int, cells: list[str], columns: tuple[tuple[int, str, str], ...]
) -> ScenarioError:
    """The error of a line some cell of which does not parse: the first such cell, by its column's
    name (``columns``: index, name, ``int`` or ``float`` (empty allowed) or ``kind`` codes)."""
    for k, name, what in columns:
        cell = cells[k].strip()
        try:
            if what == "int":
                int(cell)
            elif what == "float":
                if cell:
                    float(cell)
            elif int(cell) not in range(int(what)):
                raise ValueError
        except ValueError:
            wanted = (
                "a whole number"
                if what == "int"
                else "a number (or empty)"
                if what == "float"
                else f"an event code from 0 to {int(what) - 1}"
            )
            return ScenarioError.single(f"{line_of(source, n)}, {name}", f"must be {wanted}, got {cell!r}")
    return ScenarioError.single(line_of(source, n), "cannot be read")
