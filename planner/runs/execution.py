"""What the run task does, apart from Celery: claim the run, simulate, record the outcome.

Kept out of ``tasks.py`` so that the task stays a thin shell (retries, time limits) and
this code can be read and tested on its own.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError, transaction
from django.utils import timezone

from scheduling import ScenarioError, SchedulingError, SimulationResult, compare, parse_scenario

from .models import Run, RunResult

logger = logging.getLogger(__name__)

ERROR_MAX_CHARS = 10_000

#: The headline metrics copied from each result document into ``RunResult.summary``.
SUMMARY_KEYS = (
    "total_cost",
    "lower_bound_cost",
    "gap_to_lower_bound",
    "makespan_s",
    "jobs_total",
    "deadline_jobs",
    "deadline_met",
    "deadline_missed",
    "deadline_miss_pct",
    "deadline_violation_eq12_pct",
    "mean_completion_s",
    "median_completion_s",
    "p95_completion_s",
    "mean_wait_s",
)


class RunAborted(Exception):
    """Raised from the progress callback to stop the simulation (cancelled or deleted run)."""


class ProgressReporter:
    """The library's ``progress`` callback: writes the fraction done to the run's row.

    At most one write every ``interval_s`` (the library calls back about 100 times per
    scheduler). The write is conditional on the run still running and not asked to cancel,
    so the same query that reports progress notices a cancellation or a deleted run.
    """

    def __init__(self, run_id: int, interval_s: float):
        self.run_id = run_id
        self.interval_s = interval_s
        self._last: float | None = None

    def __call__(self, fraction: float) -> None:
        now = time.monotonic()
        if self._last is not None and now - self._last < self.interval_s:
            return
        self._last = now
        try:
            still_wanted = Run.objects.filter(
                pk=self.run_id, status=Run.Status.RUNNING, cancel_requested=False
            ).update(progress=round(min(max(float(fraction), 0.0), 1.0), 4))
        except OperationalError:
            # Progress is a courtesy; a database hiccup must not cost the simulation.
            logger.warning("run %s: could not record progress", self.run_id, exc_info=True)
            return
        if not still_wanted:
            raise RunAborted


def result_summary(doc: Mapping[str, Any], baseline_cost: float | None) -> dict[str, Any]:
    """The headline metrics of one result document, plus the saving against the baseline."""
    summary: dict[str, Any] = {key: doc.get(key) for key in SUMMARY_KEYS}
    ilp = doc.get("ilp") or {}
    summary["ilp_decisions"] = ilp.get("decisions")
    summary["ilp_fallbacks"] = ilp.get("fallbacks")
    cost = doc.get("total_cost")
    summary["saving_vs_baseline_pct"] = (
        (baseline_cost - cost) / baseline_cost * 100.0
        if isinstance(cost, (int, float)) and baseline_cost
        else None
    )
    return summary


def figures_build(results: Mapping[str, Mapping[str, Any]]) -> dict[str, Any] | None:
    """The comparison's figures (:func:`scheduling.charts.all_figures`), or ``None``.

    A figure that cannot be drawn must not fail a run whose results are fine: the error
    is logged and the page shows the results without charts.
    """
    try:
        from scheduling.charts import all_figures
    except ImportError:
        logger.warning("scheduling.charts.all_figures is not available; runs are stored without figures")
        return None
    try:
        # Keep the page's chart payload near 1 MB whatever the number of schedulers: points
        # per timeline trace and Gantt jobs shrink as schedulers are added (measured: 10,000
        # jobs x 5 schedulers -> 1.0 MB at 1,000 points and 300 jobs).
        n = max(1, len(results))
        figures = all_figures(
            dict(results), max_points=max(500, min(2000, 5000 // n)), max_jobs=max(150, min(500, 1500 // n))
        )
        json.dumps(figures, allow_nan=False)  # the figures must be plain JSON
    except Exception:
        logger.exception("building the figures failed")
        return None
    return dict(figures)


def _fail(run_id: int, error: str) -> None:
    Run.objects.filter(pk=run_id, status=Run.Status.RUNNING).update(
        status=Run.Status.FAILED, error=error[:ERROR_MAX_CHARS], finished_at=timezone.now()
    )


def _release(run_id: int) -> None:
    """Give a claimed run back to the queue so that a retry of the task can claim it again."""
    try:
        Run.objects.filter(pk=run_id, status=Run.Status.RUNNING).update(
            status=Run.Status.QUEUED, progress=0.0, started_at=None
        )
    except OperationalError:
        logger.exception("run %s: could not release the claim; runs_fail_stale will fail it", run_id)


def _store(run_id: int, options: Mapping[str, Any], results: dict[str, SimulationResult]) -> bool:
    """Results and SUCCEEDED in one transaction; False if the run was deleted meanwhile."""
    docs = {spec: r.to_dict() for spec, r in results.items()}
    baseline = options.get("baseline")
    baseline_cost = docs[baseline].get("total_cost") if baseline in docs else None
    figures = figures_build(docs)
    with transaction.atomic():
        if not Run.objects.filter(pk=run_id, status=Run.Status.RUNNING).update(
            status=Run.Status.SUCCEEDED, progress=1.0, error="", figures=figures, finished_at=timezone.now()
        ):
            return False
        RunResult.objects.bulk_create(
            RunResult(run_id=run_id, scheduler=spec, position=i, summary=result_summary(doc, baseline_cost), result=doc)
            for i, (spec, doc) in enumerate(docs.items())
        )
    return True


def run_execute_now(run_id: int) -> str:
    """Claim the run and execute it; returns the outcome (``skipped`` if it was not QUEUED).

    Only a :class:`django.db.OperationalError` escapes (after the claim is released), for the
    task to retry; every other failure is recorded on the run as FAILED with its reason.
    """
    claimed = Run.objects.filter(pk=run_id, status=Run.Status.QUEUED).update(
        status=Run.Status.RUNNING, started_at=timezone.now(), progress=0.0
    )
    if not claimed:  # a duplicate delivery, a cancelled or deleted run: nothing to do
        logger.info("run %s: not queued any more; skipping", run_id)
        return "skipped"
    try:
        run = Run.objects.only("id", "scenario", "options").get(pk=run_id)
        options = run.options
        scenario = parse_scenario(run.scenario)
        reporter = ProgressReporter(run_id, float(settings.PLANNER_RUN_PROGRESS_INTERVAL_S))
        results = compare(
            scenario,
            schedulers=options["schedulers"],
            options=options.get("options"),
            seed=int(options.get("seed") or 0),
            progress=reporter,
        )
        if not _store(run_id, options, results):
            return "deleted"
        return "succeeded"
    except RunAborted:
        cancelled = Run.objects.filter(pk=run_id, status=Run.Status.RUNNING, cancel_requested=True).update(
            status=Run.Status.CANCELLED, finished_at=timezone.now()
        )
        return "cancelled" if cancelled else "deleted"
    except Run.DoesNotExist:
        return "deleted"
    except ScenarioError as exc:
        _fail(run_id, "invalid scenario or options:\n" + "\n".join(str(e) for e in exc.errors))
        return "failed"
    except SoftTimeLimitExceeded:
        limit = int(settings.CELERY_TASK_SOFT_TIME_LIMIT)
        _fail(run_id, f"time limit exceeded after {limit} s")
        return "failed"
    except SchedulingError as exc:  # Infeasible, SolverTimeout: outcomes the library names
        _fail(run_id, f"{type(exc).__name__}: {exc}")
        return "failed"
    except OperationalError:
        _release(run_id)
        raise
    except Exception as exc:
        logger.exception("run %s failed", run_id)
        _fail(run_id, f"internal error: {type(exc).__name__}: {exc}")
        return "failed"
