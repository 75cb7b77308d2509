"""The comparison's replay reads: one variant's cluster at any instant, from its result document
(:mod:`scheduling.cost.replay`), with the indexes most recently used kept in this process."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KeyTransform
from django.http import Http404

from planner.core.dbfields import PackedJSONField
from planner.runs.models import RunResult
from planner.teams.selectors import team_ids_of
from scheduling.charts import timeline_end
from scheduling.cost.replay import ReplayIndex, time_axis

#: What a replay reads of a result document (``scheduling.cost.replay``): never its timeline,
#: fairness section or scheduling-delay samples.
REPLAY_KEYS = (
    "format", "scheduler", "ordering", "options", "resources", "vm_types", "machines", "total_cost", "jobs",
    "vm_intervals",
)


def _replay_document(result_pk: int) -> dict[str, Any]:
    """Only the :data:`REPLAY_KEYS` of one result document, extracted by the database.

    PostgreSQL decompresses a large ``jsonb`` value again for each key taken out of it (about
    10 ms each for a 10,000-job result): the value is read once in a subquery and the keys
    are taken from that copy.
    """
    if connection.vendor == "postgresql":
        quote = connection.ops.quote_name
        column = f"{quote(RunResult._meta.db_table)}.{quote('result')}"
        pairs = ", ".join(f"'{key}', one.doc -> '{key}'" for key in REPLAY_KEYS)  # constant keys
        # "|| '{}'" makes a decompressed copy, which OFFSET 0 keeps from being inlined.
        copy = f"SELECT {column} || '{{}}'::jsonb AS doc OFFSET 0"
        subset = f"(SELECT jsonb_build_object({pairs}) FROM ({copy}) one)"
        doc = RunResult.objects.filter(pk=result_pk).values_list(
            RawSQL(subset, (), output_field=PackedJSONField())
        )
        found: dict[str, Any] = doc.get()[0]
    else:
        fields = {f"part_{key}": KeyTransform(key, "result") for key in REPLAY_KEYS}
        row: Mapping[str, Any] = RunResult.objects.filter(pk=result_pk).values(**fields).get()
        found = {key: row[f"part_{key}"] for key in REPLAY_KEYS}
    return {key: value for key, value in found.items() if value is not None}


@dataclass(frozen=True)
class Replay:
    """One variant's replay index and the time axis of its run (the charts' unit)."""

    index: ReplayIndex
    time_axis: dict[str, Any]


class _ReplayCache:
    """The replay indexes most recently used in this process, bounded in number and in bytes.

    A result document never changes once stored, so an index is keyed by its result's id
    (with its run's creation time, in case a test database hands an id out again).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._indexes: OrderedDict[tuple[int, str], ReplayIndex] = OrderedDict()
        self._ends: OrderedDict[tuple[int, str], float] = OrderedDict()

    def index(self, key: tuple[int, str]) -> ReplayIndex | None:
        with self._lock:
            found = self._indexes.get(key)
            if found is not None:
                self._indexes.move_to_end(key)
            return found

    def keep_index(self, key: tuple[int, str], index: ReplayIndex) -> None:
        limit_bytes = int(getattr(settings, "PLANNER_REPLAY_CACHE_MB", 64)) * 2**20
        limit_count = int(getattr(settings, "PLANNER_REPLAY_CACHE_SIZE", 8))
        with self._lock:
            self._indexes[key] = index
            self._indexes.move_to_end(key)
            while len(self._indexes) > 1 and (
                len(self._indexes) > limit_count
                or sum(index.nbytes for index in self._indexes.values()) > limit_bytes
            ):
                self._indexes.popitem(last=False)

    def ends(self, keys: list[tuple[int, str]]) -> dict[tuple[int, str], float]:
        with self._lock:
            return {key: self._ends[key] for key in keys if key in self._ends}

    def keep_ends(self, ends: dict[tuple[int, str], float]) -> None:
        with self._lock:
            self._ends.update(ends)
            while len(self._ends) > 4096:
                self._ends.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._indexes.clear()
            self._ends.clear()


_REPLAYS = _ReplayCache()


def replay_cache_clear() -> None:
    """Forget every cached replay index of this process (tests)."""
    _REPLAYS.clear()


def run_replay(*, user: Any, run_pk: Any, variant: str) -> Replay:
    """The replay of one variant of a run of the user's teams (404 for anyone else's).

    One small query (the run's result ids, no document) when this process has the index;
    otherwise two more: the keys of the one document a replay reads (:data:`REPLAY_KEYS`,
    extracted by the database; about as long as reading the whole document for a 10,000-job
    result, since the jobs and VM intervals are most of it) and the timelines' ends of the
    run's other variants, for the time axis. The index is then kept (see
    :class:`_ReplayCache`): the next requests read no document.
    """
    rows = list(
        RunResult.objects.filter(run_id=run_pk, run__team_id__in=team_ids_of(user))
        .order_by("position", "id")
        .values_list("id", "variant", "run__created_at")
    )
    keys = {name: (pk, created.isoformat()) for pk, name, created in rows}
    if variant not in keys:
        raise Http404("No such run in your teams, or no result of this variant yet.")
    key = keys[variant]
    index = _REPLAYS.index(key)
    if index is None:
        index = ReplayIndex(_replay_document(key[0]))
        _REPLAYS.keep_index(key, index)
        _REPLAYS.keep_ends({key: index.end_s})
    ends = _REPLAYS.ends(list(keys.values()))
    missing = {k[0]: k for k in keys.values() if k not in ends}
    if missing:
        t = KeyTransform("t", KeyTransform("timeline", "result"))
        found = {
            missing[pk]: timeline_end([{"timeline": {"t": times or []}}])
            for pk, times in RunResult.objects.filter(pk__in=list(missing)).values_list("pk", t)
        }
        _REPLAYS.keep_ends(found)
        ends.update(found)
    return Replay(index, time_axis(max(ends.values(), default=0.0)))
