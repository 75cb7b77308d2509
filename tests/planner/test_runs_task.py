"""The run task, called directly: claim, results, duplicates, cancellation, failures."""

from __future__ import annotations

from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.db import OperationalError

from planner.runs import execution, services
from planner.runs.models import Run, RunResult
from planner.runs.tasks import retry_countdown, run_execute
from planner.teams.models import Team
from scheduling import SolverTimeout, compare, parse_scenario

pytestmark = pytest.mark.django_db

SCHEDULERS = ["fifo-consolidate", "edf-bfd", "morpheus"]


@pytest.fixture
def run(team: Team, owner: Any, scenario_doc: dict[str, Any]) -> Run:
    return services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=SCHEDULERS, seed=3)


@pytest.fixture
def every_progress_call_reports(settings: Any) -> None:
    """Report (and look for cancellation) at every callback, so tests need no clock."""
    settings.PLANNER_RUN_PROGRESS_INTERVAL_S = 0


def test_success_stores_one_result_per_scheduler(run: Run, scenario_doc: dict[str, Any]) -> None:
    assert run_execute(run.pk) == "succeeded"
    run.refresh_from_db()
    assert run.status == Run.Status.SUCCEEDED
    assert run.progress == 1.0
    assert run.started_at is not None and run.finished_at is not None and run.error == ""
    results = list(RunResult.objects.filter(run=run).order_by("position"))
    assert [r.scheduler for r in results] == SCHEDULERS
    direct = compare(parse_scenario(scenario_doc), schedulers=SCHEDULERS, seed=3)
    for r in results:
        assert r.summary["total_cost"] == direct[r.scheduler].total_cost
        assert r.result["total_cost"] == direct[r.scheduler].total_cost
        assert r.result["jobs_total"] == 30
    baseline = results[0].summary["total_cost"]
    assert results[0].summary["saving_vs_baseline_pct"] == 0.0
    assert results[1].summary["saving_vs_baseline_pct"] == pytest.approx(
        (baseline - results[1].summary["total_cost"]) / baseline * 100
    )


def test_figures_are_cached_when_the_charts_exist(run: Run) -> None:
    pytest.importorskip("scheduling.charts")
    run_execute(run.pk)
    run.refresh_from_db()
    assert run.figures is not None
    assert "utilisation" in run.figures
    assert all("data" in fig for fig in run.figures.values())


def test_a_chart_failure_does_not_fail_the_run(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(results: Any) -> Any:
        raise ZeroDivisionError("chart bug")

    monkeypatch.setattr("scheduling.charts.all_figures", broken)
    assert run_execute(run.pk) == "succeeded"
    run.refresh_from_db()
    assert (run.status, run.figures) == (Run.Status.SUCCEEDED, None)


def test_duplicate_delivery_does_nothing(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_execute(run.pk) == "succeeded"
    first = list(RunResult.objects.filter(run=run).values_list("pk", "scheduler", "summary"))
    finished_at = Run.objects.get(pk=run.pk).finished_at

    def must_not_run(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("simulated twice")

    monkeypatch.setattr(execution, "compare", must_not_run)
    assert run_execute(run.pk) == "skipped"
    assert list(RunResult.objects.filter(run=run).values_list("pk", "scheduler", "summary")) == first
    assert Run.objects.get(pk=run.pk).finished_at == finished_at


def test_a_missing_run_is_skipped() -> None:
    assert run_execute(987654) == "skipped"


def test_cancellation_mid_run(
    run: Run, owner: Any, monkeypatch: pytest.MonkeyPatch, every_progress_call_reports: None
) -> None:
    real_compare = execution.compare
    seen: list[float] = []

    def compare_with_a_cancel(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def progress_then_cancel(fraction: float) -> None:
            seen.append(fraction)
            if len(seen) == 3:  # some way in: the user presses Cancel
                assert Run.objects.get(pk=run.pk).status == Run.Status.RUNNING
                services.run_cancel(run=Run.objects.get(pk=run.pk), user=owner)
            progress(fraction)

        return real_compare(*args, progress=progress_then_cancel, **kwargs)

    monkeypatch.setattr(execution, "compare", compare_with_a_cancel)
    assert run_execute(run.pk) == "cancelled"
    run.refresh_from_db()
    assert run.status == Run.Status.CANCELLED
    assert run.cancel_requested and run.finished_at is not None
    assert len(seen) == 3  # stopped at once
    assert 0 < run.progress < 1
    assert not RunResult.objects.filter(run=run).exists()


def test_a_run_deleted_mid_run_just_stops(
    run: Run, owner: Any, monkeypatch: pytest.MonkeyPatch, every_progress_call_reports: None
) -> None:
    real_compare = execution.compare

    def compare_and_delete(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def progress_after_delete(fraction: float) -> None:
            Run.objects.filter(pk=run.pk).delete()
            progress(fraction)

        return real_compare(*args, progress=progress_after_delete, **kwargs)

    monkeypatch.setattr(execution, "compare", compare_and_delete)
    assert run_execute(run.pk) == "deleted"
    assert not RunResult.objects.exists()


def test_cancelling_a_queued_run_means_it_never_runs(run: Run, owner: Any) -> None:
    services.run_cancel(run=run, user=owner)
    assert Run.objects.get(pk=run.pk).status == Run.Status.CANCELLED
    assert run_execute(run.pk) == "skipped"
    assert Run.objects.get(pk=run.pk).status == Run.Status.CANCELLED


def test_an_invalid_stored_scenario_fails_with_the_field_messages(run: Run) -> None:
    run.scenario["jobs"][2]["executor"]["cpu"] = -3
    run.save(update_fields=["scenario"])
    assert run_execute(run.pk) == "failed"
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert "jobs[2].executor.cpu: must be >= 0" in run.error


def test_an_unexpected_exception_fails_with_its_type_and_message(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("solver exploded")

    monkeypatch.setattr(execution, "compare", boom)
    assert run_execute(run.pk) == "failed"
    run.refresh_from_db()
    assert run.error == "internal error: RuntimeError: solver exploded"
    assert run.finished_at is not None


def test_a_library_outcome_is_named(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def timeout(*args: Any, **kwargs: Any) -> Any:
        raise SolverTimeout("the covering knapsack reached the time limit")

    monkeypatch.setattr(execution, "compare", timeout)
    run_execute(run.pk)
    assert Run.objects.get(pk=run.pk).error == "SolverTimeout: the covering knapsack reached the time limit"


def test_the_soft_time_limit_fails_the_run_with_the_limit(
    run: Run, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 42

    def too_slow(*args: Any, **kwargs: Any) -> Any:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(execution, "compare", too_slow)
    assert run_execute(run.pk) == "failed"
    run.refresh_from_db()
    assert (run.status, run.error) == (Run.Status.FAILED, "time limit exceeded after 42 s")


def test_a_database_outage_releases_the_claim_for_the_retry(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    real_store = execution._store

    def store_fails(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(execution, "_store", store_fails)
    with pytest.raises(OperationalError):
        run_execute(run.pk)  # called directly, Celery re-raises instead of scheduling the retry
    assert Run.objects.get(pk=run.pk).status == Run.Status.QUEUED
    monkeypatch.setattr(execution, "_store", real_store)
    assert run_execute(run.pk) == "succeeded"  # the retry
    assert RunResult.objects.filter(run=run).count() == 3


def test_a_progress_write_failure_does_not_stop_the_run(
    run: Run, monkeypatch: pytest.MonkeyPatch, every_progress_call_reports: None
) -> None:
    calls = []

    class FlakyQuerySet:
        def update(self, **kwargs: Any) -> int:
            calls.append(kwargs)
            raise OperationalError("lock timeout")

    real_filter = Run.objects.filter

    def flaky_filter(*args: Any, **kwargs: Any) -> Any:
        if "cancel_requested" in kwargs:  # only the progress write
            return FlakyQuerySet()
        return real_filter(*args, **kwargs)

    monkeypatch.setattr(Run.objects, "filter", flaky_filter)
    assert run_execute(run.pk) == "succeeded"
    assert calls


def test_retry_backoff_grows_and_is_capped() -> None:
    assert [retry_countdown(n) for n in range(7)] == [10, 20, 40, 80, 160, 320, 600]


def test_stale_running_runs_are_failed(run: Run, settings: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    Run.objects.filter(pk=run.pk).update(
        status=Run.Status.RUNNING, started_at=timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 301)
    )
    assert services.runs_fail_stale() == 1
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED and "worker stopped" in run.error
    assert services.runs_fail_stale() == 0
