"""SWIM's Facebook workloads (FB-2009, FB-2010): one job a line, executors and durations from bytes.

The files of SWIM's ``workloadSuite`` (UC Berkeley, New BSD licence) are tab-separated, without
a header, one job a line: job id, submit time (s, cumulative), gap since the previous job
(s), map input, shuffle and reduce output bytes (FB-2010's ``withInputPaths`` files add an
input path, which is ignored). They carry no task counts, durations or sizes: like SWIM's own
replay (``GenerateReplayScript.java``), a job gets one map task per HDFS block of its input
and one reduce task per ``reduce_mb`` of shuffle and output, and here each task moves its
bytes at ``task_mb_per_s``:

* bytes are multiplied by ``cluster_scale`` (SWIM's workload-to-production cluster ratio),
  then the input is at least one block and shuffle and output at least 1 KB, as SWIM pads
  them;
* ``maps = ceil(input / block)``, ``reduces = max(1, round((shuffle + output) / reduce_mb))``;
* ``executors = min(max(maps, reduces), max_executors, what the cluster holds at once)``,
  each of ``executor_cpu`` cores and ``executor_mem_gb`` GB;
* ``duration = ceil(maps / executors) x (input / maps) / rate
  + ceil(reduces / executors) x ((shuffle + output) / reduces) / rate``: the map tasks in
  waves over the executors, then the reduce tasks.

>>> line = "job7\\t60\\t11\\t268435456\\t0\\t0\\n"
>>> job = IMPORTER.read_text(line, {"task_mb_per_s": 16}).jobs[0]
>>> job["id"], job["arrival_s"], job["executors"], job["executor"], job["duration_s"]
('job7', 60, 4, {'cpu': 1, 'mem': 2}, 4.000122)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import ScenarioError
from ..params import Param
from .registry import Imported, Importer, number_from_text, register, row_path
from .sources import Source, line_of, numbered_lines, stem_of
from .traces import DEADLINE_PARAMS, SELECTION_PARAMS, ClusterFit, Report, Selection, cluster_of, trace_job

__all__ = ["COLUMNS", "read_swim", "stream_swim", "swim_job"]

#: The columns of a SWIM file, in order.
COLUMNS = (
    "job id",
    "submit time",
    "inter-job gap",
    "map input bytes",
    "shuffle bytes",
    "reduce output bytes",
)
_MB = 2**20
#: SWIM pads shuffle and output to at least this many bytes (``GenerateReplayScript.java``).
_MIN_BYTES = 1024

SWIM_PARAMS: tuple[Param, ...] = (
    Param(
        "block_mb",
        "number",
        "HDFS block",
        "One map task per this much input (SWIM's replay: the HDFS block; inputs are padded to one block).",
        default=64.0,
        unit="MB",
        minimum=0,
        exclusive_minimum=True,
        maximum=1e6,
    ),
    Param(
        "reduce_mb",
        "number",
        "Data per reduce task",
        "One reduce task per this much shuffle and output (SWIM's totalDataPerReduce).",
        default=64.0,
        unit="MB",
        minimum=0,
        exclusive_minimum=True,
        maximum=1e9,
    ),
    Param(
        "task_mb_per_s",
        "number",
        "Task throughput",
        "Bytes one task reads or writes per second.",
        default=10.0,
        unit="MB/s",
        minimum=0,
        exclusive_minimum=True,
        maximum=1e6,
    ),
    Param(
        "cluster_scale",
        "number",
        "Cluster scale",
        "Multiply every job's bytes by this (SWIM: machines of the replay cluster / machines of Facebook's).",
        default=1.0,
        minimum=0,
        exclusive_minimum=True,
        maximum=1e6,
    ),
    Param(
        "max_executors",
        "integer",
        "Most executors",
        "A job's tasks run on at most this many executors (and no more than the cluster holds at once).",
        default=100,
        minimum=1,
        maximum=100_000,
    ),
    Param(
        "executor_cpu",
        "number",
        "Executor cores",
        "Cores of one executor (a task slot).",
        default=1.0,
        minimum=0,
        exclusive_minimum=True,
        maximum=1e6,
    ),
    Param(
        "executor_mem_gb",
        "number",
        "Executor memory",
        "Memory of one executor.",
        default=2.0,
        unit="GB",
        minimum=0,
        maximum=1e9,
    ),
)

_SOURCE_COLUMNS = {
    "id": "job id",
    "arrival_s": "submit time",
    "executors": "map input bytes, shuffle bytes, reduce output bytes",
    "duration_s": "map input bytes, shuffle bytes, reduce output bytes",
}


def swim_job(
    input_bytes: float,
    shuffle_bytes: float,
    output_bytes: float,
    options: Mapping[str, Any],
    room: int | None,
) -> tuple[int, float]:
    """``(executors, duration_s)`` of a SWIM job by the module's rule (``room``: executors the
    cluster holds at once, ``None`` when no cluster is known).

    >>> opts = {"block_mb": 64, "reduce_mb": 64, "task_mb_per_s": 16, "cluster_scale": 1, "max_executors": 2}
    >>> swim_job(256 * 2**20, 0, 0, opts, None)   # 4 maps in 2 waves of 4 s, 1 reduce of 2 KB
    (2, 8.000122)
    """
    scale = float(options["cluster_scale"])
    block = float(options["block_mb"]) * _MB
    rate = float(options["task_mb_per_s"]) * _MB
    data_in = max(input_bytes * scale, block)
    data_out = max(shuffle_bytes * scale, _MIN_BYTES) + max(output_bytes * scale, _MIN_BYTES)
    maps = math.ceil(data_in / block - 1e-9)
    reduces = max(1, round(data_out / (float(options["reduce_mb"]) * _MB)))
    executors = min(max(maps, reduces), int(options["max_executors"]))
    if room is not None:
        executors = min(executors, room)
    executors = max(executors, 1)
    duration = math.ceil(maps / executors) * (data_in / maps) / rate
    duration += math.ceil(reduces / executors) * (data_out / reduces) / rate
    return executors, round(duration, 6)


def _bytes(cells: list[str], k: int, origin: str, job_id: str) -> float:
    try:
        value = number_from_text(cells[k])
    except ValueError:
        value = -1
    if value < 0:
        raise ScenarioError.single(
            row_path(origin, job_id, COLUMNS[k]), f"must be a number of bytes >= 0, got {cells[k].strip()!r}"
        )
    return float(value)


def stream_swim(
    sources: Sequence[Source],
    options: Mapping[str, Any],
    report: Report,
    vm_types: Sequence[Mapping[str, Any]] | None,
) -> Iterator[tuple[dict[str, Any], str]]:
    """The jobs of SWIM files, one a line, in the files' order (see the module for the rule)."""
    selection = Selection(options)
    fit = ClusterFit(cluster_of(report, vm_types))
    executor = {"cpu": float(options["executor_cpu"]), "mem": float(options["executor_mem_gb"])}
    room = fit.holds(executor)
    for source in sources:
        prefix = f"{stem_of(source.name)}/" if len(sources) > 1 else ""
        for n, line in numbered_lines(source):
            if not line.strip():
                continue
            origin = line_of(source, n)
            cells = line.rstrip("\r\n").split("\t")
            if len(cells) < len(COLUMNS):
                raise ScenarioError.single(
                    origin,
                    f"has {len(cells)} tab-separated columns; SWIM has {len(COLUMNS)}: {', '.join(COLUMNS)}",
                )
            job_id = cells[0].strip()
            if not job_id:
                raise ScenarioError.single(row_path(origin, None, COLUMNS[0]), "must not be empty")
            try:
                submit = number_from_text(cells[1])
            except ValueError:
                submit = -1
            if submit < 0:
                raise ScenarioError.single(
                    row_path(origin, job_id, COLUMNS[1]),
                    f"must be a number of seconds >= 0, got {cells[1]!r}",
                )
            data_in, shuffle, data_out = (_bytes(cells, k, origin, job_id) for k in (3, 4, 5))
            if selection.past(submit):
                break  # submit times are cumulative: nothing further in this file is admitted
            if not selection.admit(submit, report, f"{prefix}{job_id}"):
                continue
            executors, duration = swim_job(data_in, shuffle, data_out, options, room)
            job = trace_job(
                options,
                job_id=f"{prefix}{job_id}",
                arrival_s=selection.arrival(submit),
                executors=executors,
                executor=executor,
                duration_s=duration,
            )
            if fit.keeps(job, report):
                yield job, origin


def read_swim(lines: Iterable[str], options: Mapping[str, Any]) -> Imported:
    """The jobs of SWIM text (a pasted file)."""
    return IMPORTER.read_sources([Source.from_text("", "".join(lines))], options)


def _looks_like_swim(first_line: str) -> bool:
    cells = first_line.rstrip("\r\n").split("\t")
    if len(cells) < len(COLUMNS):
        return False
    try:
        return all(number_from_text(c) >= 0 for c in cells[1:6])
    except ValueError:
        return False


IMPORTER = register(
    Importer(
        name="swim",
        label="SWIM Facebook workload (FB-2009, FB-2010 TSV)",
        file_types=(".tsv",),
        read=read_swim,
        options=(*SELECTION_PARAMS, *DEADLINE_PARAMS, *SWIM_PARAMS),
        detect=_looks_like_swim,
        help="Tab-separated, one job a line: job id, submit time (s), gap (s), map input, shuffle and "
        "reduce output bytes. Executors and durations come from the bytes (one map task per HDFS "
        "block, one reduce per reduce_mb, each task at task_mb_per_s); see docs/traces.md.",
        stream=stream_swim,
        columns=_SOURCE_COLUMNS,
    )
)
