"""A workload's jobs stored compactly: Parquet chunks of per-column arrays, in the database.

A workload of a million jobs is too big for one JSON list in a row (about 140 MB of text,
read whole to show one page). Its jobs are kept instead as :class:`~.models.JobChunk` rows of
at most :data:`JOBS_PER_CHUNK` jobs each, every chunk a Parquet file (pyarrow) of per-column
arrays, so that

* a page of the editor reads one chunk (:func:`jobs_page`), never the whole workload;
* an export or a run reads the chunks one after another (:func:`job_chunks`);
* every worker reads them through the database, wherever it runs.

The encoding is exact for any list of JSON objects whose values are scalars or objects of
scalars (a scenario document's jobs): decoding gives back equal objects, with their keys in
the order of first mention, strings as strings, integers as integers and floats as floats
(``4`` and ``4.0`` stay apart), and an absent key apart from a ``null`` one.

>>> jobs = [{"id": "j1", "arrival_s": 0, "executors": 2, "executor": {"cpu": 1.5, "mem": 2},
...          "duration_s": 60}, {"id": 7, "framework": None, "arrival_s": 2.5, "executors": 1,
...          "executor": {"cpu": 1, "mem": 4}, "duration_s": 30, "deadline_s": 90}]
>>> jobs_decode(jobs_encode(jobs)) == jobs
True
>>> jobs_decode(jobs_encode(jobs), start=1)[0]["id"]
7
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from django.db import connection, models
from django.db.models import Subquery

from scheduling.scenario.differences import JOB_NUMBERS, JobColumns
from scheduling.scenario.document import DEFAULT_FRAMEWORK

__all__ = [
    "INLINE_JOBS_MAX",
    "JOBS_PER_CHUNK",
    "PAGE_SIZE_MAX",
    "StoredJobs",
    "job_chunks",
    "job_columns",
    "job_shapes",
    "jobs_column",
    "jobs_copy",
    "jobs_copy_mapped",
    "jobs_decode",
    "jobs_encode",
    "jobs_page",
    "jobs_replace_range",
    "jobs_store",
    "jobs_store_chunks",
]

#: Jobs in one chunk: a page of the editor reads one chunk (about 1 MB for generated jobs).
JOBS_PER_CHUNK = 50_000
#: The most jobs one page of the API or the editor holds.
PAGE_SIZE_MAX = 1_000
#: A workload of more jobs is *paged*: its API detail leaves the jobs out, and the editor reads
#: and saves them a page at a time instead of holding them all in the browser.
INLINE_JOBS_MAX = 20_000

_FORMAT = 1
_META_KEY = b"planner.jobstore"
# A value's kind in a column: the key is absent, null, or a value of one of the typed arrays.
_ABSENT, _NULL, _STR, _INT, _FLOAT, _BOOL = range(6)
_ARRAY_TYPES = {_STR: pa.string(), _INT: pa.int64(), _FLOAT: pa.float64(), _BOOL: pa.bool_()}
_ARRAY_NAMES = {_STR: "str", _INT: "int", _FLOAT: "float", _BOOL: "bool"}
_INT64 = (-(2**63), 2**63 - 1)


class _Unstorable(Exception):
    """What is wrong with a value (:func:`_kind`); the caller adds where it is."""


#: The kind of a value of exactly these types (others are looked at by ``isinstance``).
_KIND_OF_TYPE = {type(None): _NULL, bool: _BOOL, str: _STR, float: _FLOAT}


def _kind(value: Any) -> int:
    found = _KIND_OF_TYPE.get(type(value))
    if found is not None:
        return found
    if type(value) is int and _INT64[0] <= value <= _INT64[1]:
        return _INT
    if isinstance(value, bool):
        return _BOOL
    if isinstance(value, str):
        return _STR
    if isinstance(value, int):
        if not _INT64[0] <= value <= _INT64[1]:
            raise _Unstorable(f"the integer {value} is too large to store")
        return _INT
    if isinstance(value, float):
        return _FLOAT
    raise _Unstorable(f"a {type(value).__name__} cannot be stored in a job's column")


def jobs_encode(jobs: Sequence[Mapping[str, Any]]) -> bytes:
    """One chunk of jobs as a Parquet file (zstd-compressed per-column arrays).

    A column is a job's key (``id``) or a key of one of its objects (``executor`` -> ``cpu``).
    ``ValueError`` names the job and the key of a value that is neither a scalar nor an
    object of scalars (stored workloads are checked by the library first, so never theirs).
    """
    paths: dict[tuple[str, ...], int] = {}  # column path -> index, in order of first mention
    objects: set[str] = set()  # keys whose values are objects
    kinds: list[list[int]] = []
    values: list[list[Any]] = []
    n = len(jobs)

    def column(path: tuple[str, ...]) -> int:
        index = paths.get(path)
        if index is None:
            index = paths[path] = len(paths)
            kinds.append([_ABSENT] * n)
            values.append([None] * n)
        return index

    for row, job in enumerate(jobs):
        if not isinstance(job, Mapping):
            raise ValueError(f"jobs[{row}]: must be an object to be stored")
        for key, value in job.items():
            if isinstance(value, Mapping):
                objects.add(key)
                if (key,) in paths:
                    raise ValueError(f"jobs[{row}].{key}: is an object here and a value elsewhere")
                for sub, item in value.items():
                    c = column((key, str(sub)))
                    try:
                        kinds[c][row] = _kind(item)
                    except _Unstorable as exc:
                        raise ValueError(f"jobs[{row}].{key}.{sub}: {exc}") from None
                    values[c][row] = item
            else:
                if key in objects:
                    raise ValueError(f"jobs[{row}].{key}: is an object elsewhere")
                c = column((str(key),))
                try:
                    kinds[c][row] = _kind(value)
                except _Unstorable as exc:
                    raise ValueError(f"jobs[{row}].{key}: {exc}") from None
                values[c][row] = value
    arrays: list[pa.Array] = []
    names: list[str] = []
    described = []
    for index, path in enumerate(paths):
        present = sorted(set(kinds[index]))
        entry: dict[str, Any] = {"path": list(path), "kinds": present}
        if len(present) > 1:
            names.append(f"c{index}.kind")
            arrays.append(pa.array(kinds[index], type=pa.int8()))
        for kind in present:
            if kind in _ARRAY_TYPES:
                column_values = values[index] if len(present) == 1 else [
                    v if k == kind else None for k, v in zip(kinds[index], values[index], strict=True)
                ]
                names.append(f"c{index}.{_ARRAY_NAMES[kind]}")
                arrays.append(pa.array(column_values, type=_ARRAY_TYPES[kind]))
        described.append(entry)
    meta = {"format": _FORMAT, "rows": n, "columns": described, "objects": sorted(objects)}
    table = pa.table(arrays, names=names) if arrays else pa.table({"_": pa.nulls(n, pa.int8())})
    table = table.replace_schema_metadata({_META_KEY: json.dumps(meta).encode()})
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def jobs_decode(
    data: bytes, *, start: int = 0, stop: int | None = None, keys: Iterable[str] | None = None
) -> list[dict[str, Any]]:
    """The jobs ``start:stop`` of a chunk written by :func:`jobs_encode`, as JSON objects.

    With ``keys``, only those keys of each job are read (their columns alone are decoded):
    ``keys=["id"]`` gives ``[{"id": ...}, ...]``.
    """
    source = io.BytesIO(bytes(data))
    meta = json.loads((pq.read_schema(source).metadata or {})[_META_KEY])
    wanted = None if keys is None else set(keys)
    chosen = [
        index for index, entry in enumerate(meta["columns"]) if wanted is None or entry["path"][0] in wanted
    ]
    names = [
        f"c{index}.{suffix}"
        for index in chosen
        for suffix in (["kind"] if len(meta["columns"][index]["kinds"]) > 1 else [])
        + [_ARRAY_NAMES[k] for k in meta["columns"][index]["kinds"] if k in _ARRAY_TYPES]
    ]
    table = pq.read_table(source, columns=names) if wanted is not None else pq.read_table(source)
    if meta.get("format") != _FORMAT:
        raise ValueError(f"unknown job chunk format {meta.get('format')!r}")
    rows = int(meta["rows"])
    stop = rows if stop is None else max(start, min(stop, rows))
    start = max(0, min(start, rows))
    count = stop - start
    table = table.slice(start, count)
    jobs: list[dict[str, Any]] = [{} for _ in range(count)]
    for index in chosen:
        entry = meta["columns"][index]
        path = tuple(entry["path"])
        present = entry["kinds"]
        typed = {
            kind: table.column(f"c{index}.{_ARRAY_NAMES[kind]}").to_pylist()
            for kind in present
            if kind in _ARRAY_TYPES
        }
        if len(present) == 1:  # one kind in the whole column (the common case): no per-row test
            if present[0] == _ABSENT:
                continue
            values = typed[present[0]] if present[0] != _NULL else [None] * count
            if len(path) == 1:
                for job, value in zip(jobs, values, strict=True):
                    job[path[0]] = value
            else:
                for job, value in zip(jobs, values, strict=True):
                    job.setdefault(path[0], {})[path[1]] = value
            continue
        row_kinds: Iterable[int] = table.column(f"c{index}.kind").to_pylist()
        if len(path) == 1:
            key = path[0]
            for job, kind, row in zip(jobs, row_kinds, range(count), strict=True):
                if kind != _ABSENT:
                    job[key] = None if kind == _NULL else typed[kind][row]
        else:
            key, sub = path
            for job, kind, row in zip(jobs, row_kinds, range(count), strict=True):
                if kind != _ABSENT:
                    job.setdefault(key, {})[sub] = None if kind == _NULL else typed[kind][row]
    return jobs


class StoredJobs(Sequence[dict[str, Any]]):
    """A workload's stored jobs read on demand, a chunk at a time (the last chunk read is kept).

    For labelling a few errors of a big workload with its jobs' ids, without loading them all:
    ``len()`` costs nothing, an item costs one query and one chunk decoded when it lies in
    another chunk than the previous one.
    """

    def __init__(self, workload: Any):
        self._workload = workload
        self._chunk: tuple[int, list[dict[str, Any]]] | None = None

    def __len__(self) -> int:
        return int(self._workload.job_count)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if self._chunk is None or not 0 <= index - self._chunk[0] < len(self._chunk[1]):
            first, data = _chunk_holding(self._workload, index)
            self._chunk = (first, jobs_decode(data))
        return self._chunk[1][index - self._chunk[0]]


def _chunk_model(owner: Any) -> Any:
    """The model of ``owner``'s chunks: :class:`~.models.JobChunk` for a workload or an upload, a
    run's own model for a run's copy (``runs.RunJobChunk``): whichever has them as ``job_chunks``,
    so that this module never imports a later layer."""
    return owner._meta.get_field("job_chunks").related_model


def _chunks(owner: Any) -> Any:
    """The stored chunks of ``owner`` (a queryset)."""
    return _chunk_model(owner).objects.filter(**_owned(owner))


def _owned(owner: Any) -> dict[str, Any]:
    """The chunks' filter of a workload, or of an upload (its jobs until it is saved)."""
    return {f"{owner._meta.model_name}_id": owner.pk}


def _chunk_holding(workload: Any, index: int) -> tuple[int, bytes]:
    first, data = (
        _chunks(workload).filter(first_job__lte=index)
        .order_by("-first_job")
        .values_list("first_job", "data")[:1]
        .get()
    )
    return int(first), bytes(data)


def jobs_page(workload: Any, *, offset: int, limit: int) -> list[dict[str, Any]]:
    """Jobs ``offset:offset + limit`` of a stored workload (or upload): one query per chunk the
    page spans."""
    out: list[dict[str, Any]] = []
    end = min(offset + limit, int(workload.job_count))
    while offset < end:
        row = (
            _chunks(workload).filter(first_job__lte=offset)
            .order_by("-first_job")
            .values_list("first_job", "data")[:1]
            .first()
        )
        if row is None:
            break
        first, data = row
        part = jobs_decode(bytes(data), start=offset - first, stop=end - first)
        if not part:
            break
        out.extend(part)
        offset += len(part)
    return out


def same_stored_jobs(a: Any, b: Any) -> bool:
    """Whether owners ``a`` and ``b`` hold the same stored jobs, chunk for chunk (a run's copy of
    a workload's, two runs' copies of one workload): compared by the database, nothing read.

    ``False`` says only that their chunks differ (the same jobs stored apart otherwise, say).
    """
    layout_a = list(_chunks(a).order_by("first_job").values_list("pk", "first_job", "job_count"))
    layout_b = list(_chunks(b).order_by("first_job").values_list("pk", "first_job", "job_count"))
    if [row[1:] for row in layout_a] != [row[1:] for row in layout_b]:
        return False
    model_b = _chunk_model(b)
    return all(
        _chunks(a).filter(pk=pk_a, data=Subquery(model_b.objects.filter(pk=pk_b).values("data")[:1])).exists()
        for (pk_a, *_), (pk_b, *_) in zip(layout_a, layout_b, strict=True)
    )


def job_chunks(workload: Any) -> Iterator[list[dict[str, Any]]]:
    """Every job of a stored workload, a chunk at a time (one query per chunk, memory of one)."""
    positions = list(
        _chunks(workload).order_by("first_job").values_list("pk", flat=True)
    )
    for pk in positions:
        yield jobs_decode(bytes(_chunks(workload).values_list("data", flat=True).get(pk=pk)))


def jobs_store(workload: Any, jobs: Sequence[Mapping[str, Any]]) -> int:
    """Replace a saved workload's stored jobs (call it inside the transaction that saves the row).

    Returns how many jobs were stored. One query to delete, one insert per chunk.
    """
    groups = (jobs[i : i + JOBS_PER_CHUNK] for i in range(0, len(jobs), JOBS_PER_CHUNK))
    return jobs_store_chunks(workload, groups)


def jobs_store_chunks(workload: Any, groups: Iterable[Sequence[Mapping[str, Any]]]) -> int:
    """:func:`jobs_store` of jobs that come as lists (at most :data:`JOBS_PER_CHUNK` each), so
    that a million jobs never need to be one list."""
    owned = _owned(workload)
    _chunks(workload).delete()
    first = 0
    for position, group in enumerate(g for g in groups if g):
        _chunk_model(workload).objects.create(
            **owned, position=position, first_job=first, job_count=len(group), data=jobs_encode(group)
        )
        first += len(group)
    return first


def jobs_column(owner: Any, key: str) -> Iterator[tuple[int, list[Any]]]:
    """``(first_job, [each job's value of key, None when absent])`` for every chunk, in order:
    one column read a chunk at a time (ids for a uniqueness check, frameworks in use)."""
    rows = _chunks(owner).order_by("first_job").values_list("pk", "first_job")
    for pk, first in list(rows):
        data = bytes(_chunks(owner).values_list("data", flat=True).get(pk=pk))
        yield int(first), [job.get(key) for job in jobs_decode(data, keys=[key])]


def jobs_replace_range(workload: Any, offset: int, count: int, jobs: Sequence[Mapping[str, Any]]) -> int:
    """Replace jobs ``offset:offset + count`` of a stored workload by ``jobs`` (a saved page);
    returns the new number of jobs. Call it inside the transaction that saves the row.

    Only the chunks the range touches are read and written again (split so that none holds
    more than :data:`JOBS_PER_CHUNK`); the chunks after them move by one update.
    """
    from django.db.models import F

    chunks = _chunks(workload).order_by("first_job")
    touched = list(
        chunks.filter(first_job__lt=max(offset + count, offset + 1))
        .filter(first_job__gte=_first_of_chunk_holding(workload, offset))
        .values_list("pk", "position", "first_job", "data")
    )
    if not touched:  # an empty workload, or a page added at the very end
        last = chunks.values_list("position", "first_job", "job_count").last()
        position, first = (0, 0) if last is None else (last[0] + 1, last[1] + last[2])
        kept: list[dict[str, Any]] = []
    else:
        position, first = touched[0][1], touched[0][2]
        kept = [job for row in touched for job in jobs_decode(bytes(row[3]))]
    local = offset - first
    merged = [*kept[:local], *jobs, *kept[local + count :]]
    groups = [merged[i : i + JOBS_PER_CHUNK] for i in range(0, len(merged), JOBS_PER_CHUNK)]
    end_of_touched = first + len(kept)
    later = chunks.filter(first_job__gte=end_of_touched) if touched else chunks.none()
    _chunks(workload).filter(pk__in=[row[0] for row in touched]).delete()
    later.update(
        first_job=F("first_job") + len(merged) - len(kept),
        position=F("position") + len(groups) - len(touched),
    )
    for k, group in enumerate(groups):
        _chunk_model(workload).objects.create(
            **_owned(workload),
            position=position + k,
            first_job=first,
            job_count=len(group),
            data=jobs_encode(group),
        )
        first += len(group)
    total: int = _chunks(workload).aggregate(n=models.Sum("job_count"))["n"] or 0
    return total


def _first_of_chunk_holding(owner: Any, index: int) -> int:
    row = (
        _chunks(owner).filter(first_job__lte=index)
        .order_by("-first_job")
        .values_list("first_job", flat=True)
        .first()
    )
    return 0 if row is None else int(row)


def jobs_copy(source: Any, target: Any) -> int:
    """Copy the stored jobs of ``source`` (a workload) to ``target`` (a run: its own copy, which
    a later edit of the workload leaves alone); returns how many jobs were copied.

    One ``INSERT ... SELECT`` statement: the chunks' bytes move inside the database (13 MB for a
    million jobs), never through Python, and the copy is one consistent snapshot of the source
    even while somebody saves a page of it. Call it inside the transaction that creates ``target``.
    """
    quote = connection.ops.quote_name
    into, source_table = (quote(_chunk_model(o)._meta.db_table) for o in (target, source))
    target_column, source_column = (quote(f"{o._meta.model_name}_id") for o in (target, source))
    columns = ", ".join(quote(c) for c in ("position", "first_job", "job_count", "data"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {into} ({target_column}, {columns}) "
            f"SELECT %s, {columns} FROM {source_table} WHERE {source_column} = %s",
            [target.pk, source.pk],
        )
    copied: int = _chunks(target).aggregate(n=models.Sum("job_count"))["n"] or 0
    return copied


def _numbers(table: pa.Table, index: int, entry: Mapping[str, Any]) -> np.ndarray:
    """Column ``index`` of a chunk as floats (NaN where a job has no number)."""
    present = entry["kinds"]
    out = np.full(table.num_rows, np.nan)
    kinds = table.column(f"c{index}.kind").to_numpy() if len(present) > 1 else None
    for kind in present:
        if kind in (_INT, _FLOAT):
            values = table.column(f"c{index}.{_ARRAY_NAMES[kind]}").to_numpy(zero_copy_only=False)
            where = slice(None) if kinds is None else kinds == kind
            out[where] = np.asarray(values, dtype=float)[where]
    return out


def job_shapes(owner: Any, resources: Sequence[str]) -> tuple[dict[str, np.ndarray], set[tuple[str, ...]]]:
    """The columns a cluster's checks read, for every stored job of ``owner`` in order, and the
    column paths some job has (``("network_sensitivity",)``, ``("executor", "gpu")``).

    The columns: ``framework`` (object: the name, ``None`` where a job names none),
    ``executor`` (float, one row per job, in ``resources``' order; NaN for a resource a job
    does not give) and ``executors`` (float). Only those columns of each chunk are decoded
    (one query per chunk): a million jobs in about a second, never a million objects.
    """
    frameworks: list[np.ndarray] = []
    executors: list[np.ndarray] = []
    executor: list[np.ndarray] = []
    paths: set[tuple[str, ...]] = set()
    wanted = [("framework",), ("executors",), *(("executor", r) for r in resources)]
    for columns, table, n in _chunk_tables(owner, wanted):
        paths.update(columns)
        named = np.full(n, None, dtype=object)
        if ("framework",) in columns:
            index, entry = columns[("framework",)]
            if _STR in entry["kinds"]:
                named = np.array(table.column(f"c{index}.str").to_pylist(), dtype=object)
        frameworks.append(named)
        executors.append(
            _numbers(table, *columns[("executors",)]) if ("executors",) in columns else np.full(n, np.nan)
        )
        missing = np.full(n, np.nan)
        executor.append(
            np.column_stack(
                [_numbers(table, *columns[("executor", r)]) if ("executor", r) in columns else missing
                 for r in resources]
            ).reshape(n, len(resources))
        )
    width = len(resources)
    return (
        {
            "framework": np.concatenate(frameworks) if frameworks else np.empty(0, dtype=object),
            "executor": np.concatenate(executor) if executor else np.empty((0, width)),
            "executors": np.concatenate(executors) if executors else np.empty(0),
        },
        paths,
    )


def _chunk_tables(
    owner: Any, paths: Sequence[tuple[str, ...]]
) -> Iterator[tuple[dict[tuple[str, ...], tuple[int, Mapping[str, Any]]], pa.Table, int]]:
    """Each stored chunk of ``owner`` in order, with only the columns of ``paths`` read: its
    columns' descriptions by path, the table and its number of jobs (one query per chunk)."""
    rows = _chunks(owner).order_by("first_job").values_list("pk", flat=True)
    for pk in list(rows):
        source = io.BytesIO(bytes(_chunks(owner).values_list("data", flat=True).get(pk=pk)))
        meta = json.loads((pq.read_schema(source).metadata or {})[_META_KEY])
        if meta.get("format") != _FORMAT:
            raise ValueError(f"unknown job chunk format {meta.get('format')!r}")
        columns = {tuple(entry["path"]): (index, entry) for index, entry in enumerate(meta["columns"])}
        names = [
            f"c{index}.{suffix}"
            for path in paths if path in columns
            for index, entry in [columns[path]]
            for suffix in (["kind"] if len(entry["kinds"]) > 1 else [])
            + [_ARRAY_NAMES[k] for k in entry["kinds"] if k in _ARRAY_TYPES]
        ]
        yield columns, pq.read_table(source, columns=names), int(meta["rows"])


def _texts(table: pa.Table, index: int, entry: Mapping[str, Any], default: str) -> np.ndarray:
    """Column ``index`` of a chunk as text (an integer id reads as its digits, as the library
    reads it); ``default`` where a job has none."""
    present = entry["kinds"]
    n = table.num_rows
    out = np.full(n, default, dtype=object)
    kinds = table.column(f"c{index}.kind").to_numpy() if len(present) > 1 else None
    for kind in present:
        if kind in (_STR, _INT):
            texts = [None if v is None else str(v)
                     for v in table.column(f"c{index}.{_ARRAY_NAMES[kind]}").to_pylist()]
            values = np.array(texts, dtype=object)
            where = slice(None) if kinds is None else kinds == kind
            out[where] = values[where]
    return out


def job_columns(owner: Any, resources: Sequence[str]) -> JobColumns:
    """Every stored job of ``owner`` as the columns two scenarios' jobs are compared by
    (:class:`scheduling.scenario.differences.JobColumns`), in order.

    Only those columns of each chunk are decoded (one query per chunk): arrays of a million
    numbers and ids, never a million objects.
    """
    paths = [("id",), ("framework",), ("network_sensitivity",), *((k,) for k in JOB_NUMBERS),
             *(("executor", r) for r in resources)]
    ids: list[np.ndarray] = []
    frameworks: list[np.ndarray] = []
    numbers: dict[str, list[np.ndarray]] = {k: [] for k in JOB_NUMBERS}
    executor: dict[str, list[np.ndarray]] = {r: [] for r in resources}
    sensitivity: list[np.ndarray] = []

    def number(columns: Any, table: pa.Table, path: tuple[str, ...], n: int) -> np.ndarray:
        return _numbers(table, *columns[path]) if path in columns else np.full(n, np.nan)

    for columns, table, n in _chunk_tables(owner, paths):
        ids.append(_texts(table, *columns[("id",)], "").astype(str) if ("id",) in columns
                   else np.full(n, "", dtype=str))
        frameworks.append(_texts(table, *columns[("framework",)], DEFAULT_FRAMEWORK).astype(str)
                          if ("framework",) in columns else np.full(n, DEFAULT_FRAMEWORK))
        for key in JOB_NUMBERS:
            numbers[key].append(number(columns, table, (key,), n))
        for r in resources:
            executor[r].append(number(columns, table, ("executor", r), n))
        sensitivity.append(number(columns, table, ("network_sensitivity",), n))

    def joined(parts: list[np.ndarray], dtype: Any) -> np.ndarray:
        return np.concatenate(parts) if parts else np.empty(0, dtype=dtype)

    return JobColumns(
        ids=joined(ids, str),
        frameworks=joined(frameworks, str),
        numbers={k: joined(v, float) for k, v in numbers.items()},
        executor={r: joined(v, float) for r, v in executor.items()},
        network_sensitivity=joined(sensitivity, float),
    )


def jobs_copy_mapped(
    source: Any, target: Any, key: str, values_of: Callable[[list[float]], list[float]]
) -> int:
    """:func:`jobs_copy` of ``source``'s stored jobs to ``target`` with one numeric key of every
    job replaced: ``values_of`` gets a chunk's values of ``key`` (as floats) and gives the new
    ones, stored as floats (a longer-jobs variation: ``duration_s`` scaled). Returns how many
    jobs were copied.

    Column by column: each chunk's Parquet table gets the new column in place of the old one,
    every other column copied as it is (a query and an insert per chunk; no job is decoded).
    ``ValueError`` if a job has no number at ``key``.
    """
    total = 0
    rows = _chunks(source).order_by("first_job").values_list("pk", "position", "first_job", "job_count")
    for pk, position, first, count in list(rows):
        data = io.BytesIO(bytes(_chunks(source).values_list("data", flat=True).get(pk=pk)))
        table = pq.read_table(data)
        meta = json.loads((table.schema.metadata or {})[_META_KEY])
        found = [(i, e) for i, e in enumerate(meta["columns"]) if tuple(e["path"]) == (key,)]
        if not found and count:
            raise ValueError(f"jobs: no job has a {key}")
        if found:
            index, entry = found[0]
            old = _numbers(table, index, entry)
            if np.isnan(old).any():
                row = first + int(np.flatnonzero(np.isnan(old))[0])
                raise ValueError(f"jobs[{row}].{key}: is not a number")
            new = pa.array(values_of(old.tolist()), type=pa.float64())
            keep = [name for name in table.column_names if not name.startswith(f"c{index}.")]
            table = table.select(keep).append_column(f"c{index}.{_ARRAY_NAMES[_FLOAT]}", new)
            entry["kinds"] = [_FLOAT]
            table = table.replace_schema_metadata({_META_KEY: json.dumps(meta).encode()})
        sink = io.BytesIO()
        pq.write_table(table, sink, compression="zstd")
        _chunk_model(target).objects.create(
            **_owned(target), position=position, first_job=first, job_count=count, data=sink.getvalue()
        )
        total += int(count)
    return total
