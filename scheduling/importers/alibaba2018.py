"""Alibaba's 2018 cluster trace (cluster-trace-v2018): ``batch_task``, ``batch_instance``, ``machine_meta``.

CSV files without a header; the columns, in order, of the trace's ``schema.txt``:

* ``batch_task``: task_name, instance_num, job_name, task_type, status, start_time, end_time,
  plan_cpu (100 is one core), plan_mem (normalised to [0, 100]);
* ``machine_meta``: machine_id, time_stamp, failure_domain_1, failure_domain_2, cpu_num,
  mem_size (normalised to [0, 100]), status;
* ``batch_instance`` (14 columns) repeats per instance what its task already carries (start,
  end, machine): it is recognised and not read.

Times are seconds. The trace has no submit times, so a task arrives when it started. The rule:

* ``jobs=task`` (default): one job per (job, task), id ``<job_name>/<task_name>``, arriving at
  ``start_time``, lasting ``end_time - start_time``, with ``instance_num`` executors of
  ``plan_cpu / 100`` cores and ``plan_mem / 100 x machine_mem_gb`` GB;
* ``jobs=job``: one job per ``job_name`` with its tasks serialised: arriving at its first
  task's start, lasting the sum of its tasks' durations, with the most instances of any task,
  each of the largest request (the trace is not sorted by job, so this mode holds every
  sampled job until the file ends);
* a task whose status is not ``Terminated`` is dropped unless ``keep_failed``; one without an
  end after its start, or without a request, is dropped; each counted in the warnings;
* the DAG in task names (``M5_3_4``: task 5 runs after tasks 3 and 4) is reported as ignored;
* machines: each machine's first ``machine_meta`` row with a capacity, ``cpu_num`` cores and
  ``mem_size / 100 x machine_mem_gb`` GB, grouped by capacity into VM types.

A file is recognised as a table by the table's name in its path, else by its number of columns.

>>> tasks = "M1,2,j_1,1,Terminated,100,160,50,0.5\\nR2_1,1,j_1,1,Terminated,160,200,100,1\\n"
>>> jobs = IMPORTER.read_text(tasks).jobs
>>> [(j["id"], j["arrival_s"], j["executors"], j["executor"], j["duration_s"]) for j in jobs]
[('j_1/M1', 100, 2, {'cpu': 0.5, 'mem': 2.56}, 60), ('j_1/R2_1', 160, 1, {'cpu': 1, 'mem': 5.12}, 40)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import ScenarioError
from ..params import Param
from .registry import Imported, Importer, number_from_text, register, row_path
from .sources import Source, line_of
from .trace_tables import MachineCount, TraceTables, csv_rows, table_columns
from .traces import (
    DEADLINE_PARAMS,
    PRICE_PARAMS,
    SELECTION_PARAMS,
    ClusterFit,
    Report,
    Selection,
    cluster_of,
    trace_job,
)

__all__ = ["MACHINE_COLUMNS", "TABLES", "TASK_COLUMNS", "read_alibaba_2018", "stream_alibaba_2018"]

TABLES = ("batch_task", "batch_instance", "machine_meta")
TASK_COLUMNS = ("task_name", "instance_num", "job_name", "task_type", "status", "start_time", "end_time",
                "plan_cpu", "plan_mem")  # fmt: skip
INSTANCE_COLUMNS = ("instance_name", "task_name", "job_name", "task_type", "status", "start_time",
                    "end_time", "machine_id", "seq_no", "total_seq_no", "cpu_avg", "cpu_max", "mem_avg",
                    "mem_max")  # fmt: skip
MACHINE_COLUMNS = ("machine_id", "time_stamp", "failure_domain_1", "failure_domain_2", "cpu_num", "mem_size",
                   "status")  # fmt: skip
_BY_COLUMNS = {len(TASK_COLUMNS): "batch_task", len(INSTANCE_COLUMNS): "batch_instance",
               len(MACHINE_COLUMNS): "machine_meta"}  # fmt: skip
#: A task name that names the tasks it waits for: a letter or more, its number, ``_`` and theirs.
_DEPENDS = re.compile(r"^[A-Za-z]+\d+(_\d+)+$")
_TASK = {c: k for k, c in enumerate(TASK_COLUMNS)}
#: ``plan_cpu`` is in hundredths of a core; ``plan_mem`` and ``mem_size`` in hundredths of the
#: largest machine's memory (schema.txt).
PLAN_CPU_PER_CORE = 100
MEM_SCALE = 100
_SOURCE_COLUMNS = {
    "id": "job_name/task_name",
    "arrival_s": "start_time",
    "executors": "instance_num",
    "executor.cpu": "plan_cpu",
    "executor.mem": "plan_mem",
    "executor": "plan_cpu, plan_mem",
    "duration_s": "start_time, end_time",
}

ALIBABA_PARAMS: tuple[Param, ...] = (
    Param("jobs", "choice", "Jobs", "task: one job per (job, task) with instance_num executors; job: one job "
          "per job_name with its tasks serialised.", default="task", choices=("task", "job")),
    Param("keep_failed", "boolean", "Keep unfinished tasks", "Keep tasks whose status is not Terminated "
          "(Failed, Running, ...) when they have an end after their start.", default=False),
    Param("machine_mem_gb", "number", "Largest machine's memory", "Memory (plan_mem, mem_size) is a share of "
          "the largest machine's, 0-100: this many GB (Alibaba does not publish it).", default=512.0,
          unit="GB", minimum=0, exclusive_minimum=True, maximum=1e9),
)  # fmt: skip


def _number(
    cells: list[str], column: str, origin: str, job_id: str | None, *, minimum: float = 0
) -> float | None:
    cell = cells[_TASK[column]].strip()
    if not cell:
        return None
    try:
        value = number_from_text(cell)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise ScenarioError.single(
            row_path(origin, job_id, column), f"must be a number >= {minimum:g}, got {cell!r}"
        )
    return float(value)


def _executor(plan_cpu: float, plan_mem: float, options: Mapping[str, Any]) -> dict[str, float]:
    """An executor of a task's plan: cores, and GB of the largest machine's memory."""
    return {
        "cpu": plan_cpu / PLAN_CPU_PER_CORE,
        "mem": plan_mem / MEM_SCALE * float(options["machine_mem_gb"]),
    }


class _Task:
    """One line of ``batch_task``, read and checked."""

    __slots__ = ("cpu", "end", "instances", "job", "mem", "name", "origin", "start", "status")

    def __init__(self, cells: list[str], source: Source, n: int):
        origin = self.origin = line_of(source, n)
        self.name = cells[_TASK["task_name"]].strip()
        self.job = cells[_TASK["job_name"]].strip()
        if not self.job:
            raise ScenarioError.single(row_path(origin, None, "job_name"), "must not be empty")
        key = f"{self.job}/{self.name}"
        instances = _number(cells, "instance_num", origin, key, minimum=0)
        if instances is None or not instances.is_integer():
            raise ScenarioError.single(
                row_path(origin, key, "instance_num"),
                f"must be a whole number, got {cells[_TASK['instance_num']]!r}",
            )
        self.instances = int(instances)
        self.status = cells[_TASK["status"]].strip()
        self.start = _number(cells, "start_time", origin, key)
        self.end = _number(cells, "end_time", origin, key)
        self.cpu = _number(cells, "plan_cpu", origin, key)
        self.mem = _number(cells, "plan_mem", origin, key)


def _tasks(sources: Iterable[Source], report: Report) -> Iterator[_Task]:
    for source, n, cells in csv_rows(sources, "batch_task", TASK_COLUMNS):
        task = _Task(cells, source, n)
        if _DEPENDS.match(task.name):
            report.count(
                "batch_task",
                "tasks name the tasks they wait for (M5_3_4: task 5 after tasks 3 and 4); the scenario "
                "has no dependencies, so the DAG is ignored",
            )
        yield task


def _usable(task: _Task, keep_failed: bool, report: Report) -> bool:
    if task.status != "Terminated" and not keep_failed:
        report.drop("a task not Terminated (keep_failed=true keeps those that ended)")
        return False
    if task.start is None or task.end is None or task.end <= task.start:
        report.drop("a task without a start and an end after it")
        return False
    if not task.cpu and not task.mem:
        report.drop("a task without plan_cpu or plan_mem")
        return False
    if task.instances < 1:
        report.drop("a task without instances")
        return False
    return True


def _count_machines(sources: Sequence[Source], machines: MachineCount, options: Mapping[str, Any]) -> None:
    """Each machine at its first row with a capacity (the trace marks invalid values -1 or 101)."""
    unit = float(options["machine_mem_gb"]) / MEM_SCALE
    for source, n, cells in csv_rows(sources, "machine_meta", MACHINE_COLUMNS):
        machine = cells[0].strip()
        values = []
        for k in (4, 5):
            cell = cells[k].strip()
            try:
                values.append(float(number_from_text(cell)) if cell else 0.0)
            except ValueError:
                raise ScenarioError.single(
                    f"{line_of(source, n)}, {MACHINE_COLUMNS[k]}", f"must be a number, got {cell!r}"
                ) from None
        cpu, mem = values
        if cpu <= 0 or not 0 < mem <= MEM_SCALE or not machines.first(machine):
            continue
        machines.add(cpu, mem * unit)


LAYOUT = TraceTables(
    TABLES,
    guess=lambda source: table_columns(source, _BY_COLUMNS),
    unknown="is none of the tables read (batch_task, batch_instance, machine_meta): name it after one "
    "or give it their columns (9, 14 or 7)",
    machines="machine_meta",
    count_machines=_count_machines,
    prefix="ali2018",
)


def stream_alibaba_2018(
    sources: Sequence[Source],
    options: Mapping[str, Any],
    report: Report,
    vm_types: Sequence[Mapping[str, Any]] | None,
) -> Iterator[tuple[dict[str, Any], str]]:
    """The jobs of the 2018 trace's tables (see the module)."""
    tables = LAYOUT.read(sources, options, report, vm_types)
    if tables["batch_instance"]:
        report.note("batch_instance", "not read: batch_task carries each task's instances, start and end")
    if not tables["batch_task"]:
        raise ScenarioError.single("files", "have no batch_task: the jobs are there")
    fit = ClusterFit(cluster_of(report, vm_types))
    selection = Selection(options)
    keep_failed = bool(options["keep_failed"])
    tasks = (t for t in _tasks(tables["batch_task"], report) if _usable(t, keep_failed, report))
    if options["jobs"] == "task":
        for task in tasks:
            assert task.start is not None and task.end is not None
            key = f"{task.job}/{task.name}"
            if selection.admitted >= selection.max_jobs:
                break
            if not selection.admit(task.start, report, key):
                continue
            job = trace_job(
                options,
                job_id=key,
                arrival_s=selection.arrival(task.start),
                executors=task.instances,
                executor=_executor(task.cpu or 0, task.mem or 0, options),
                duration_s=task.end - task.start,
            )
            if fit.keeps(job, report):
                yield job, task.origin
        return
    yield from _serialised(tasks, options, selection, report, fit)


def _serialised(
    tasks: Iterable[_Task], options: Mapping[str, Any], selection: Selection, report: Report, fit: ClusterFit
) -> Iterator[tuple[dict[str, Any], str]]:
    """``jobs=job``: each job's tasks one after another (see the module)."""
    # job name -> [first start, total duration, most instances, largest cpu, largest mem, origin]
    jobs: dict[str, list[Any]] = {}
    unsampled: set[str] = set()
    for task in tasks:
        assert task.start is not None and task.end is not None
        acc = jobs.get(task.job)
        if acc is None:
            if task.job in unsampled:
                continue
            if not selection.sampled(task.job):
                unsampled.add(task.job)
                continue
            acc = jobs[task.job] = [task.start, 0.0, 0, 0.0, 0.0, task.origin]
        acc[0] = min(acc[0], task.start)
        acc[1] += task.end - task.start
        acc[2] = max(acc[2], task.instances)
        acc[3] = max(acc[3], task.cpu or 0)
        acc[4] = max(acc[4], task.mem or 0)
    if unsampled:
        selection.drop_unsampled(report, len(unsampled))
    whole = Selection({**options, "sample": 1.0})  # the sample was drawn above
    by_arrival = sorted(jobs.items(), key=lambda kv: (kv[1][0], kv[0]))
    for name, (start, duration, instances, cpu, mem, origin) in by_arrival:
        if not whole.admit(start, report, name):
            continue
        job = trace_job(
            options,
            job_id=name,
            arrival_s=whole.arrival(start),
            executors=instances,
            executor=_executor(cpu, mem, options),
            duration_s=duration,
        )
        if fit.keeps(job, report):
            yield job, origin


def read_alibaba_2018(lines: Iterable[str], options: Mapping[str, Any]) -> Imported:
    """One table of the trace as pasted text, recognised by its columns."""
    return IMPORTER.read_sources([Source.from_text("", "".join(lines))], options)


IMPORTER = register(
    Importer(
        name="alibaba-2018",
        label="Alibaba cluster trace 2018 (batch_task, batch_instance, machine_meta)",
        file_types=(".csv",),
        read=read_alibaba_2018,
        options=(*SELECTION_PARAMS, *DEADLINE_PARAMS, *ALIBABA_PARAMS, *PRICE_PARAMS),
        help="The cluster-trace-v2018 batch tables: one job per (job, task) with instance_num executors of "
        "plan_cpu / 100 cores and plan_mem of the largest machine's memory, from start_time to end_time "
        "(or one per job, tasks serialised); machine_meta becomes VM types. See docs/traces.md.",
        stream=stream_alibaba_2018,
        tables=TABLES,
        columns=_SOURCE_COLUMNS,
    )
)
