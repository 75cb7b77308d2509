"""Reads of runs. Lists and details never load the scenario copy, the figures or full results."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    F,
    Func,
    Prefetch,
    QuerySet,
    TextField,
    Value,
    When,
)
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast
from django.http import Http404
from django.shortcuts import get_object_or_404

from planner.core.dbfields import PackedJSONField
from planner.scenarios.jobstore import job_chunks, job_columns, same_stored_jobs
from planner.teams.selectors import team_ids_of
from scheduling import Scenario, parse_scenario
from scheduling.packed import unpack_text_chunks
from scheduling.scenario.differences import JobColumns

from .models import Run, RunPart, RunResult

PROGRESS_FIELDS = ("id", "status", "progress", "error", "cancel_requested", "started_at", "finished_at")
PART_FIELDS = (
    "id", "position", "label", "status", "progress", "attempts", "error", "started_at", "finished_at",
    "worker",
)


def _runs_of(
    *, user: Any, team: Any = None, status: str | None = None, kind: str | None = None
) -> QuerySet[Run]:
    """The runs of the user's teams, filtered, newest first; never the scenario, figures or context."""
    qs = Run.objects.filter(team_id__in=team_ids_of(user)).defer("scenario", "figures", "context")
    if team is not None:
        qs = qs.filter(team=team)
    if status:
        qs = qs.filter(status=status)
    if kind:
        qs = qs.filter(kind=kind)
    return qs.order_by("-created_at", "-id")


def run_list(
    *, user: Any, team: Any = None, status: str | None = None, kind: str | None = None
) -> QuerySet[Run]:
    """The runs of the user's teams, newest first, with their parts and results' summaries (4 queries).

    The pages' list: every result's summary is loaded (a 100-point sweep's are 100 rows), for
    the kinds' headlines. The API's list reads :func:`run_list_entries` instead.
    """
    return (
        _runs_of(user=user, team=team, status=status, kind=kind)
        .select_related("created_by")
        # Names only: the workload's row holds its jobs, which lists and pages must not load.
        .annotate(
            cluster_name=F("cluster__name"), workload_name=F("workload__name"), currency=F("team__currency"),
            created_by_name=F("created_by__username"),
        )
        .prefetch_related(
            Prefetch(
                "results", queryset=RunResult.objects.defer("result", "figures").order_by("position", "id")
            ),
            Prefetch("parts", queryset=RunPart.objects.only("id", "run_id", "position", "label", "status")),
        )
    )


def run_list_entries(
    *, user: Any, team: Any = None, status: str | None = None, kind: str | None = None
) -> QuerySet[Run]:
    """The runs of the user's teams as the API lists them, newest first: each run's own fields and
    its author's name, one row per run (one query per page, and the count when the page is full).

    No result or part is loaded, so a page costs the same whatever the runs hold (a 100-point
    sweep is one row); a run's results are in its detail.
    """
    return _runs_of(user=user, team=team, status=status, kind=kind).annotate(
        created_by_name=F("created_by__username")
    )


def run_currency(run: Run) -> str:
    """How a run's money is shown: its team's currency symbol (annotated by :func:`run_list`)."""
    return str(getattr(run, "currency", None) or "$")


def run_get(*, user: Any, pk: Any) -> Run:
    """One run with its results' summaries (not the full results, scenario or figures)."""
    return get_object_or_404(run_list(user=user), pk=pk)


def run_progress(*, user: Any, pk: Any) -> dict[str, Any]:
    """The few fields a page polls while the run is queued or running, with its parts (two small queries)."""
    row = Run.objects.filter(team_id__in=team_ids_of(user), pk=pk).values(*PROGRESS_FIELDS).first()
    if row is None:
        raise Http404("No such run in your teams.")
    row["parts"] = list(RunPart.objects.filter(run_id=pk).order_by("position").values(*PART_FIELDS))
    return row


def run_parts(*, run: Run) -> list[RunPart]:
    """The run's parts, in order (without their payloads)."""
    return list(RunPart.objects.filter(run=run).order_by("position").only(*PART_FIELDS, "run_id"))


def run_result_get(*, user: Any, run_pk: Any, variant: str) -> RunResult:
    """One variant's full result document (``RunResult.result``)."""
    return get_object_or_404(
        RunResult.objects.filter(run__team_id__in=team_ids_of(user)).defer("figures"), run_id=run_pk,
        variant=variant,
    )


def run_result_chunks(*, user: Any, run_pk: Any, variant: str) -> Iterator[str]:
    """One variant's full result document as JSON text, a piece at a time: the text the
    database writes out, with its packed columns written out as lists one by one
    (:func:`scheduling.packed.unpack_text_chunks`). Never parsed here, nor held written out
    whole (a million-job document is hundreds of MB as text, and gigabytes as objects). The
    same JSON value as :func:`run_result_get`'s ``result``; 404 as it, before the first piece."""
    text = (
        RunResult.objects.filter(run__team_id__in=team_ids_of(user), run_id=run_pk, variant=variant)
        .annotate(text=Cast("result", TextField()))
        .values_list("text", flat=True)
        .first()
    )
    if text is None:
        raise Http404("No such result.")
    return unpack_text_chunks(str(text))


def run_result_text(*, user: Any, run_pk: Any, variant: str) -> str:
    """:func:`run_result_chunks` joined."""
    return "".join(run_result_chunks(user=user, run_pk=run_pk, variant=variant))


def run_results(*, run: Run) -> dict[str, dict[str, Any]]:
    """Every full result document of a run, keyed by variant, in the run's order."""
    rows = RunResult.objects.filter(run=run).order_by("position", "id").values_list("variant", "result")
    return dict(rows)


class _Without(Func):
    """A JSON document without some of its top-level keys, taken out by the database (the rest
    is all that is sent and parsed)."""

    output_field = PackedJSONField()

    def __init__(self, expression: Any, keys: tuple[str, ...]) -> None:
        super().__init__(expression)
        self.keys = keys

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, tuple[Any, ...]]:
        sql, params = compiler.compile(self.source_expressions[0])
        paths = ", ".join(["%s"] * len(self.keys))
        return f"json_remove({sql}, {paths})", (*params, *(f'$."{k}"' for k in self.keys))

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> tuple[str, tuple[Any, ...]]:
        sql, params = compiler.compile(self.source_expressions[0])
        return f"({sql} - %s::text[])", (*params, list(self.keys))


class LazyResult(Mapping[str, Any]):
    """A result document whose ``large`` keys are read from the database when first used.

    The rest of the document is read at once. A report that draws no timeline and lists no job
    never reads the per-job columns or the timeline: most of a big run's document, and most of
    the time a report took (parsing them).
    """

    def __init__(self, pk: int, small: Mapping[str, Any], large: Iterable[str]) -> None:
        self._pk = pk
        self._values: dict[str, Any] = dict(small)
        self._large = [k for k in large if k not in self._values]
        self._keys = [*self._values, *self._large]

    def __getitem__(self, key: str) -> Any:
        if key in self._values:
            return self._values[key]
        if key not in self._large:
            raise KeyError(key)
        rows = RunResult.objects.filter(pk=self._pk)
        value = rows.values_list(KeyTransform(key, "result"), flat=True).get()
        self._values[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def run_results_lazy(*, run: Run, large: tuple[str, ...]) -> dict[str, Mapping[str, Any]]:
    """:func:`run_results`, each document a :class:`LazyResult` whose ``large`` keys (those it
    has) are read only when used; with no ``large`` keys, the full documents."""
    if not large:
        return dict(run_results(run=run))
    present = {
        f"has_{i}": Case(When(result__has_key=k, then=Value(True)), default=Value(False),
                         output_field=BooleanField())
        for i, k in enumerate(large)
    }
    # The keys are known at run time only: rows are read as mappings, not as the stubs' TypedDict.
    rows: Iterable[Mapping[str, Any]] = (
        RunResult.objects.filter(run=run)
        .order_by("position", "id")
        .values("pk", "variant", small=_Without(F("result"), large), **present)
    )
    return {
        row["variant"]: LazyResult(
            row["pk"], row["small"], [k for i, k in enumerate(large) if row[f"has_{i}"]]
        )
        for row in rows
    }


def run_figure_pieces(*, run_id: int) -> dict[str, Any] | None:
    """Every variant's share of the run's figures (``RunResult.figures``), keyed by variant in
    the run's order; ``None`` when some variant has none (a kind that builds them at the end)."""
    rows = list(
        RunResult.objects.filter(run_id=run_id).order_by("position", "id").values_list("variant", "figures")
    )
    if not rows or any(piece is None for _, piece in rows):
        return None
    return dict(rows)


#: Parts of one kind and label whose running times estimate the next one's (the most recent).
PART_HISTORY = 20


def part_seconds_per_job(*, kind: str, labels: Iterable[str]) -> dict[str, float]:
    """What a part of ``kind`` with each of ``labels`` took per job of its run, lately: the
    median, over its last :data:`PART_HISTORY` successes, of its running time (claim to end,
    the storing of its results aside) over its run's jobs (over 1 for a run without jobs: an
    allocation, a sweep). Labels never run are left out.

    Only an estimate for ordering the parts of a new run (``services._parts_create``): a part's
    time depends on the cluster and the jobs as much as on their number. One query per label,
    each an index range (``runpart_label_finished_idx``).
    """
    out: dict[str, float] = {}
    for label in dict.fromkeys(labels):
        rows = (
            RunPart.objects.filter(
                label=label, status=RunPart.Status.SUCCEEDED, run__kind=kind,
                started_at__isnull=False, finished_at__isnull=False,
            )
            .order_by("-finished_at")
            .values_list("started_at", "finished_at", "run__job_count")[:PART_HISTORY]
        )
        rates = [
            (end - start).total_seconds() / max(jobs, 1)
            for start, end, jobs in rows
            if start is not None and end is not None  # filtered above; the types cannot say so
        ]
        if rates:
            out[label] = statistics.median(rates)
    return out


def run_summaries(run: Run) -> dict[str, dict[str, Any]]:
    """The variants' headline summaries of a run from :func:`run_list` (prefetched: no query)."""
    return {r.variant: r.summary for r in run.results.all()}


def run_with_scenario(*, user: Any, pk: Any, kind: str | None = None) -> Run:
    """A run with its copy of the scenario document (the export of what was run: read it whole
    with :func:`run_scenario_document`, since a big run keeps its jobs apart); with ``kind``,
    only a run of that kind (a kind's own page of a run: 404 for any other)."""
    runs = Run.objects.filter(team_id__in=team_ids_of(user)).defer("figures").select_related("created_by")
    return get_object_or_404(runs if kind is None else runs.filter(kind=kind), pk=pk)


def run_scenario_document(run: Run) -> dict[str, Any]:
    """The whole scenario document the run ran (``run`` loaded with ``scenario``).

    A run that keeps its jobs apart (``Run.jobs_stored``) has them read from its own chunks,
    one query per chunk: seconds and gigabytes of memory for a million jobs, so pages of such a
    run read the rest of the document alone (:func:`run_scenario_chunked`)."""
    if not run.jobs_stored:
        return dict(run.scenario)
    return {**run.scenario, "jobs": [job for chunk in job_chunks(run) for job in chunk]}


def run_scenario_chunked(run: Run) -> tuple[dict[str, Any], Iterator[list[dict[str, Any]]]]:
    """The run's scenario document with ``"jobs": []`` at their place, and its jobs a chunk at a
    time (the streamed export: the memory of one chunk, whatever the run's size)."""
    if run.jobs_stored:
        return dict(run.scenario), job_chunks(run)
    doc = dict(run.scenario)
    jobs = doc.get("jobs")
    if not isinstance(jobs, list):
        return doc, iter(())
    doc["jobs"] = []
    return doc, iter([jobs])


@dataclass(frozen=True)
class RunScenario:
    """A run's scenario as a request may hold it, whatever the run's size.

    ``document`` is the whole document of a run that stores it whole; for a run that keeps its
    jobs apart (``Run.jobs_stored``), the document without them (``"jobs": []``) and ``jobs_of``
    is the run whose stored jobs complete it: a new run on a variation of it reuses them
    (``run_start(scenario=..., jobs_of=...)``) instead of a million jobs in a new document.
    """

    document: dict[str, Any]
    jobs_of: Run | None = None

    @property
    def jobs_apart(self) -> int:
        """How many jobs are kept apart from :attr:`document` (0: it holds them all)."""
        return 0 if self.jobs_of is None else int(self.jobs_of.job_count)


def run_scenario(run: Run) -> RunScenario:
    """The run's scenario without reading the jobs it keeps apart (``run`` loaded with
    ``scenario``; no query)."""
    return RunScenario(dict(run.scenario), run if run.jobs_stored else None)


def run_scenario_compared(run: Run) -> tuple[Scenario, JobColumns]:
    """The run's scenario parsed, and its jobs as the columns two scenarios' jobs are compared by
    (``scheduling.scenario.scenario_differences(a, b, jobs=...)``).

    A run that keeps its jobs apart has its document parsed without them and its jobs read a
    few columns at a time (``jobstore.job_columns``: arrays, one query per chunk), never as a
    million objects; the others' are parsed whole, as they are stored.
    """
    if run.jobs_stored:
        head = _parsed_head(run)
        return head, job_columns(run, head.resources)
    scenario = parse_scenario(run.scenario)
    return scenario, JobColumns.of(scenario)


def run_scenarios_compared(a: Run, b: Run) -> tuple[tuple[Scenario, JobColumns], tuple[Scenario, JobColumns]]:
    """:func:`run_scenario_compared` of two runs; when both keep the same stored jobs (copies of
    one workload's, or a what-if's of its run's), those of the first stand for both's (the
    jobs are read once)."""
    first = run_scenario_compared(a)
    if a.jobs_stored and b.jobs_stored and same_stored_jobs(a, b):
        return first, (_parsed_head(b), first[1])
    return first, run_scenario_compared(b)


def _parsed_head(run: Run) -> Scenario:
    """The scenario of a run that keeps its jobs apart, parsed without them."""
    return parse_scenario({**run.scenario, "jobs": []})


def run_with_figures(*, user: Any, pk: Any) -> Run:
    return get_object_or_404(
        Run.objects.filter(team_id__in=team_ids_of(user)).defer("scenario").select_related("created_by"),
        pk=pk,
    )


#: What timeline charts read from a result document (scheduling.charts.timelines).
TIMELINE_KEYS = ("timeline", "resources", "vm_types", "total_cost", "lower_bound_cost", "cost_by_vm_type")


def run_results_parts(*, run: Run, keys: tuple[str, ...] = TIMELINE_KEYS) -> dict[str, dict[str, Any]]:
    """Only ``keys`` of each result document, extracted by the database.

    A 10,000-job result is megabytes, most of it per-job records and VM intervals; charts of
    timelines need a fraction of it, so this never loads or parses the rest.
    """
    fields = {f"part_{k}": KeyTransform(k, "result") for k in keys}
    # The keys are known at run time only: rows are read as mappings, not as the stubs' TypedDict.
    rows: Iterable[Mapping[str, Any]] = (
        RunResult.objects.filter(run=run).order_by("position", "id").values("variant", **fields)
    )
    return {row["variant"]: {k: row[f"part_{k}"] for k in keys} for row in rows}


