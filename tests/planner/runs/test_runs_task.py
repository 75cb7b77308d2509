"""Run parts, executed by calling the task's code directly: claim, results, duplicates,
cancellation, failures, the last part closing the run, leases and the reaper."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from billiard.exceptions import WorkerLostError
from celery.exceptions import SoftTimeLimitExceeded
from celery.worker.request import Request
from django.db import OperationalError
from django.utils import timezone

from planner.kinds.compare import kind as compare_kind
from planner.runs import execution, services
from planner.runs.models import PROCESS_LOST, Run, RunPart, RunResult
from planner.runs.tasks import PartRequest, retry_countdown, run_part_execute
from planner.teams.models import Team
from scheduling import SolverTimeout, compare, lower_bound_cost, parse_scenario

pytestmark = pytest.mark.django_db

SCHEDULERS = ["fifo-consolidate", "edf-bfd", "morpheus"]


@pytest.fixture
def run(team: Team, owner: Any, scenario_doc: dict[str, Any]) -> Run:
    return services.run_start(user=owner, team=team, scenario=scenario_doc, schedulers=SCHEDULERS, seed=3)


@pytest.fixture
def every_progress_call_reports(settings: Any) -> None:
    """Report (and look for cancellation) at every callback, so tests need no clock."""
    settings.PLANNER_RUN_PROGRESS_INTERVAL_S = 0


def parts_of(run: Run) -> list[RunPart]:
    return list(RunPart.objects.filter(run=run).order_by("position"))


def simulate_patched(monkeypatch: pytest.MonkeyPatch, fn: Callable[..., Any]) -> None:
    """Replace the library call a comparison part makes."""
    monkeypatch.setattr(compare_kind, "simulate", fn)


# --------------------------------------------------------------------------- the plan


def test_a_comparison_is_one_part_per_scheduler_with_the_bound_computed_once(
    run: Run, scenario_doc: dict[str, Any]
) -> None:
    parts = parts_of(run)
    assert [(p.position, p.label, p.payload, p.status) for p in parts] == [
        (i, s, {"scheduler": s}, "queued") for i, s in enumerate(SCHEDULERS)
    ]
    assert len({p.task_id for p in parts}) == 3
    assert run.context == {"lower_bound_cost": lower_bound_cost(parse_scenario(scenario_doc))}


def test_parts_never_solve_the_bound_again(
    run: Run, monkeypatch: pytest.MonkeyPatch, execute_run: Callable[[int], str]
) -> None:
    def must_not_solve(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the lower bound was solved in a part")

    monkeypatch.setattr("scheduling.cost.simulator.lower_bound_cost", must_not_solve)
    monkeypatch.setattr("scheduling.cost.bounds.lower_bound_cost", must_not_solve)
    assert execute_run(run.pk) == "succeeded"
    for r in RunResult.objects.filter(run=run):
        assert r.result["lower_bound_cost"] == run.context["lower_bound_cost"]


# --------------------------------------------------------------------------- the run's scenario


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many jobs each scenario a part parsed had (one entry per parse)."""
    seen: list[int] = []
    real = execution.parse_scenario

    def counted(doc: Any) -> Any:
        scenario = real(doc)
        seen.append(len(scenario.jobs))
        return scenario

    monkeypatch.setattr(execution, "parse_scenario", counted)
    execution.held_scenario_drop()
    return seen


def test_a_process_parses_a_runs_scenario_once_for_all_its_parts(
    run: Run, scenario_doc: dict[str, Any], parses: list[int], execute_run: Callable[[int], str]
) -> None:
    assert execute_run(run.pk) == "succeeded"
    assert parses == [30]
    direct = compare(parse_scenario(scenario_doc), schedulers=SCHEDULERS, seed=3)
    # The same schedules as on a scenario parsed for each (the scheduling delay is wall-clock time).
    wall_clock = ("scheduling_delay", "lower_bound_cost", "gap_to_lower_bound")
    for r in RunResult.objects.filter(run=run):
        expected = {k: v for k, v in direct[r.variant].to_dict().items() if k not in wall_clock}
        assert {k: v for k, v in r.result.items() if k not in wall_clock} == expected


def test_a_part_of_another_run_reads_its_own_scenario(
    run: Run, team: Team, owner: Any, scenario_doc: dict[str, Any], parses: list[int]
) -> None:
    smaller = {**scenario_doc, "jobs": scenario_doc["jobs"][:12]}
    other = services.run_start(user=owner, team=team, scenario=smaller, schedulers=SCHEDULERS, seed=3)
    first, second, _ = parts_of(run)
    assert execution.part_execute_now(first.pk) == "succeeded"
    assert execution.part_execute_now(parts_of(other)[0].pk) == "succeeded"
    assert execution.part_execute_now(second.pk) == "succeeded"
    assert parses == [30, 12, 30]
    assert RunResult.objects.get(run=other).result["jobs_total"] == 12
    assert RunResult.objects.get(part=second).result["jobs_total"] == 30


def test_a_run_of_more_jobs_than_the_bound_is_read_again_by_every_part(
    run: Run, parses: list[int], settings: Any, execute_run: Callable[[int], str]
) -> None:
    settings.PLANNER_PART_HOLD_JOBS = 29
    assert execute_run(run.pk) == "succeeded"
    assert parses == [30, 30, 30]


def test_a_new_run_given_an_old_runs_id_is_not_given_its_scenario(
    scenario_doc: dict[str, Any], parses: list[int]
) -> None:
    # A test database may hand an id out again (a rolled-back transaction): the creation time
    # tells the two runs apart.
    kind = compare_kind.CompareKind()
    old = SimpleNamespace(pk=7, created_at=timezone.now(), scenario=scenario_doc, jobs_stored=False,
                          job_count=30, options={}, context={"lower_bound_cost": 1.0})
    new = SimpleNamespace(**{**vars(old), "created_at": old.created_at + timedelta(microseconds=1),
                             "scenario": {**scenario_doc, "jobs": scenario_doc["jobs"][:5]}, "job_count": 5})
    assert len(execution.held_scenario(old, kind)[0].jobs) == 30  # type: ignore[arg-type]
    assert len(execution.held_scenario(old, kind)[0].jobs) == 30  # type: ignore[arg-type]
    assert len(execution.held_scenario(new, kind)[0].jobs) == 5  # type: ignore[arg-type]
    assert parses == [30, 5]


# --------------------------------------------------------------------------- success


def test_success_stores_one_result_per_scheduler(
    run: Run, scenario_doc: dict[str, Any], execute_run: Callable[[int], str]
) -> None:
    assert execute_run(run.pk) == "succeeded"
    run.refresh_from_db()
    assert run.progress == 1.0
    assert run.started_at is not None and run.finished_at is not None and run.error == ""
    results = list(RunResult.objects.filter(run=run).order_by("position"))
    assert [r.variant for r in results] == SCHEDULERS
    assert [r.part_id for r in results] == [p.pk for p in parts_of(run)]
    direct = compare(parse_scenario(scenario_doc), schedulers=SCHEDULERS, seed=3)
    for r in results:
        assert r.summary["total_cost"] == direct[r.variant].total_cost
        assert r.result["total_cost"] == direct[r.variant].total_cost
        assert r.result["jobs_total"] == 30
        # Savings are computed on read against any baseline: none is frozen in the summary.
        assert not any("saving" in key for key in r.summary)
    assert all((p.status, p.progress, p.attempts) == ("succeeded", 1.0, 1) for p in parts_of(run))


def test_the_last_part_to_end_closes_the_run_whatever_the_order(run: Run) -> None:
    parts = parts_of(run)
    for part in reversed(parts):
        assert Run.objects.get(pk=run.pk).status in ("queued", "running")
        assert execution.part_execute_now(part.pk) == "succeeded"
    assert Run.objects.get(pk=run.pk).status == "succeeded"


def test_the_run_is_running_from_its_first_claim_and_reports_the_mean_progress(
    run: Run, monkeypatch: pytest.MonkeyPatch, every_progress_call_reports: None
) -> None:
    first, second, _ = parts_of(run)
    assert execution.part_execute_now(first.pk) == "succeeded"
    seen: list[tuple[str, float]] = []
    real = compare_kind.simulate

    def watch(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def spy(fraction: float) -> None:
            progress(fraction)
            row = Run.objects.get(pk=run.pk)
            seen.append((row.status, row.progress))

        return real(*args, progress=spy, **kwargs)

    simulate_patched(monkeypatch, watch)
    execution.part_execute_now(second.pk)
    assert {status for status, _ in seen} == {"running"}
    # One part done, one part at fraction f, one queued: (1 + f + 0) / 3.
    assert seen[-1][1] == pytest.approx(2 / 3, abs=1e-3)
    assert all(1 / 3 <= p <= 2 / 3 + 1e-3 for _, p in seen)


def test_figures_are_cached_when_the_run_ends(run: Run, execute_run: Callable[[int], str]) -> None:
    execute_run(run.pk)
    run.refresh_from_db()
    assert run.figures is not None
    assert "utilisation" in run.figures
    assert all("data" in fig for fig in run.figures.values())


def test_a_chart_failure_does_not_fail_the_run(
    run: Run, monkeypatch: pytest.MonkeyPatch, execute_run: Callable[[int], str]
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("chart bug")

    monkeypatch.setattr(compare_kind.CompareKind, "figures", broken)
    monkeypatch.setattr(compare_kind.CompareKind, "join_figures", broken)
    assert execute_run(run.pk) == "succeeded"
    assert Run.objects.get(pk=run.pk).figures is None


def test_a_variant_whose_figures_fail_has_them_built_at_the_end(
    run: Run, monkeypatch: pytest.MonkeyPatch, execute_run: Callable[[int], str]
) -> None:
    """A part whose share of the figures cannot be built still succeeds; the run's figures are
    then built from the full documents (the kind's ``figures``), as for a kind that does not split."""
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("chart bug")

    monkeypatch.setattr(compare_kind.CompareKind, "variant_figures", broken)
    assert execute_run(run.pk) == "succeeded"
    assert not run.results.filter(figures__isnull=False).exists()
    figures = Run.objects.get(pk=run.pk).figures
    assert figures and "cumulative_cost" in figures


# --------------------------------------------------------------------------- duplicates


def test_a_duplicate_delivery_of_a_part_does_nothing(
    run: Run, monkeypatch: pytest.MonkeyPatch, execute_run: Callable[[int], str]
) -> None:
    assert execute_run(run.pk) == "succeeded"
    first = list(RunResult.objects.filter(run=run).values_list("pk", "variant", "summary"))
    finished_at = Run.objects.get(pk=run.pk).finished_at

    def must_not_run(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("simulated twice")

    simulate_patched(monkeypatch, must_not_run)
    for part in parts_of(run):
        assert run_part_execute(part.pk) == "skipped"
    assert list(RunResult.objects.filter(run=run).values_list("pk", "variant", "summary")) == first
    assert Run.objects.get(pk=run.pk).finished_at == finished_at


def test_a_missing_part_is_skipped() -> None:
    assert run_part_execute(987654) == "skipped"


# --------------------------------------------------------------------------- cancel, delete


def test_cancelling_mid_part_ends_the_run_at_once_and_stops_the_worker(
    run: Run, owner: Any, monkeypatch: pytest.MonkeyPatch, every_progress_call_reports: None
) -> None:
    first, second, third = parts_of(run)
    assert execution.part_execute_now(first.pk) == "succeeded"
    real = compare_kind.simulate
    seen: list[float] = []
    status_after_cancel: list[str] = []

    def simulate_with_a_cancel(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def progress_then_cancel(fraction: float) -> None:
            seen.append(fraction)
            if len(seen) == 3:  # some way in: the user presses Cancel
                services.run_cancel(run=Run.objects.get(pk=run.pk), user=owner)
                status_after_cancel.append(Run.objects.get(pk=run.pk).status)
            progress(fraction)

        return real(*args, progress=progress_then_cancel, **kwargs)

    simulate_patched(monkeypatch, simulate_with_a_cancel)
    assert execution.part_execute_now(second.pk) == "aborted"
    assert status_after_cancel == ["cancelled"]  # at once, before the worker noticed
    assert len(seen) == 3  # the worker stopped at its next report
    run.refresh_from_db()
    assert run.status == "cancelled" and run.cancel_requested and run.finished_at is not None
    assert [p.status for p in parts_of(run)] == ["succeeded", "cancelled", "cancelled"]
    assert execution.part_execute_now(third.pk) == "skipped"
    # The part that had finished keeps its result.
    assert list(RunResult.objects.filter(run=run).values_list("variant", flat=True)) == [SCHEDULERS[0]]


def test_cancelling_an_orphaned_run_ends_it_at_once(run: Run, owner: Any) -> None:
    """A worker was killed mid-part: its lease is still valid, nobody will report again."""
    first = parts_of(run)[0]
    assert execution.part_claim(first.pk) is not None  # ... and the worker dies here
    services.run_cancel(run=Run.objects.get(pk=run.pk), user=owner)
    run.refresh_from_db()
    assert run.status == "cancelled" and run.finished_at is not None
    assert {p.status for p in parts_of(run)} == {"cancelled"}


def test_a_run_deleted_mid_part_just_stops(
    run: Run, monkeypatch: pytest.MonkeyPatch, every_progress_call_reports: None
) -> None:
    real = compare_kind.simulate

    def simulate_and_delete(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def progress_after_delete(fraction: float) -> None:
            Run.objects.filter(pk=run.pk).delete()
            progress(fraction)

        return real(*args, progress=progress_after_delete, **kwargs)

    simulate_patched(monkeypatch, simulate_and_delete)
    assert execution.part_execute_now(parts_of(run)[0].pk) == "aborted"
    assert not RunResult.objects.exists() and not RunPart.objects.exists()


def test_cancelling_a_queued_run_means_no_part_ever_runs(
    run: Run, owner: Any, execute_run: Callable[[int], str]
) -> None:
    services.run_cancel(run=run, user=owner)
    assert Run.objects.get(pk=run.pk).status == "cancelled"
    for part in parts_of(run):
        assert run_part_execute(part.pk) == "skipped"
    assert Run.objects.get(pk=run.pk).status == "cancelled"


# --------------------------------------------------------------------------- failures


def test_a_failed_part_fails_the_run_with_its_reason_and_keeps_the_others(
    run: Run, monkeypatch: pytest.MonkeyPatch, execute_run: Callable[[int], str]
) -> None:
    real = compare_kind.simulate

    def edf_fails(scenario: Any, *, scheduler: str, **kwargs: Any) -> Any:
        if scheduler == "edf-bfd":
            raise SolverTimeout("decision 7 took too long")
        return real(scenario, scheduler=scheduler, **kwargs)

    simulate_patched(monkeypatch, edf_fails)
    assert execute_run(run.pk) == "failed"
    run.refresh_from_db()
    assert run.error == "edf-bfd: SolverTimeout: decision 7 took too long"
    assert [p.status for p in parts_of(run)] == ["succeeded", "failed", "succeeded"]
    assert sorted(RunResult.objects.filter(run=run).values_list("variant", flat=True)) == [
        "fifo-consolidate", "morpheus"
    ]
    assert run.figures is not None  # the finished parts are charted


def test_an_invalid_stored_scenario_fails_with_the_field_messages(
    run: Run, execute_run: Callable[[int], str]
) -> None:
    run.scenario["jobs"][2]["executor"]["cpu"] = -3
    run.save(update_fields=["scenario"])
    assert execute_run(run.pk) == "failed"
    run.refresh_from_db()
    assert "jobs[2].executor.cpu: must be >= 0" in run.error
    assert run.error.count("invalid scenario or options") == 3  # one line per failed part


def test_an_unexpected_exception_fails_with_its_type_and_message(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("solver exploded")

    simulate_patched(monkeypatch, boom)
    first = parts_of(run)[0]
    assert execution.part_execute_now(first.pk) == "failed"
    first.refresh_from_db()
    assert first.error == "internal error: RuntimeError: solver exploded"
    assert first.finished_at is not None


def test_the_soft_time_limit_fails_the_part_with_the_limit(
    run: Run, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.CELERY_TASK_SOFT_TIME_LIMIT = 42

    def too_slow(*args: Any, **kwargs: Any) -> Any:
        raise SoftTimeLimitExceeded()

    simulate_patched(monkeypatch, too_slow)
    first = parts_of(run)[0]
    assert execution.part_execute_now(first.pk) == "failed"
    first.refresh_from_db()
    assert (first.status, first.error) == ("failed", "time limit exceeded after 42 s")


def test_a_part_of_an_unknown_kind_fails_with_the_reason(run: Run) -> None:
    Run.objects.filter(pk=run.pk).update(kind="retired-kind")
    first = parts_of(run)[0]
    assert execution.part_execute_now(first.pk) == "failed"
    first.refresh_from_db()
    assert "unknown run kind 'retired-kind'" in first.error


def test_a_database_outage_releases_the_claim_for_the_retry(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_store = execution._store

    def store_fails(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    first = parts_of(run)[0]
    monkeypatch.setattr(execution, "_store", store_fails)
    with pytest.raises(OperationalError):
        run_part_execute(first.pk)  # called directly, Celery re-raises instead of scheduling the retry
    first.refresh_from_db()
    assert (first.status, first.attempts) == ("queued", 0)  # a database hiccup is not a lost worker
    monkeypatch.setattr(execution, "_store", real_store)
    assert run_part_execute(first.pk) == "succeeded"  # the retry


def test_a_progress_write_failure_does_not_stop_the_part(
    run: Run, monkeypatch: pytest.MonkeyPatch, every_progress_call_reports: None
) -> None:
    calls = []

    def flaky(self: Any, progress: float | None = None) -> bool:
        calls.append(progress)
        raise OperationalError("lock timeout")

    monkeypatch.setattr(execution.Heartbeat, "renew", flaky)
    assert execution.part_execute_now(parts_of(run)[0].pk) == "succeeded"
    assert calls


def test_retry_backoff_grows_and_is_capped() -> None:
    assert [retry_countdown(n) for n in range(7)] == [10, 20, 40, 80, 160, 320, 600]


# --------------------------------------------------------------------------- leases


def test_a_renewal_extends_the_lease_and_notices_a_lost_part(run: Run) -> None:
    first = parts_of(run)[0]
    claim = execution.part_claim(first.pk)
    assert claim is not None and claim.attempt == 1
    RunPart.objects.filter(pk=first.pk).update(lease_until=timezone.now())
    heartbeat = execution.Heartbeat(claim, 0)
    assert heartbeat.renew(progress=0.25)
    first.refresh_from_db()
    assert first.lease_until > timezone.now() + timedelta(seconds=30) and first.progress == 0.25
    RunPart.objects.filter(pk=first.pk).update(status="cancelled")
    assert not heartbeat.renew() and heartbeat.lost.is_set()


def test_a_worker_given_up_on_cannot_overwrite_the_attempt_after_it(
    run: Run, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """Attempt 1 stalls past its lease, the reaper queues the part again, attempt 2 runs;
    when attempt 1 wakes up, its results are discarded."""
    first = parts_of(run)[0]
    monkeypatch.setattr("planner.runs.services.parts_send", lambda parts, first=False: len(list(parts)))
    real = compare_kind.simulate

    def stall_then_finish(*args: Any, progress: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        # Meanwhile: the lease lapses, the reaper re-queues, another worker finishes attempt 2.
        RunPart.objects.filter(pk=first.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
        assert services.runs_reap()["requeued"] == 1
        simulate_patched(monkeypatch, real)
        assert execution.part_execute_now(first.pk) == "succeeded"
        return result

    simulate_patched(monkeypatch, stall_then_finish)
    assert execution.part_execute_now(first.pk) == "discarded"
    first.refresh_from_db()
    assert (first.status, first.attempts) == ("succeeded", 2)
    assert RunResult.objects.filter(run=run, variant=first.label).count() == 1


# --------------------------------------------------------------------------- the reaper


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Part ids whose task message was sent (nothing reaches a broker)."""
    out: list[int] = []
    monkeypatch.setattr(
        run_part_execute, "apply_async", lambda args, task_id, queue, priority: out.append(args[0])
    )
    return out


def test_a_lapsed_lease_queues_the_part_again_and_resends_it(run: Run, sent: list[int]) -> None:
    first = parts_of(run)[0]
    execution.part_claim(first.pk)
    now = timezone.now()
    # The other two were never sent (tests commit nothing, so nothing went out at the start).
    assert services.runs_reap(now=now) == {"requeued": 0, "failed": 0, "sent": 2, "closed": 0}
    sent.clear()
    RunPart.objects.filter(pk=first.pk).update(lease_until=now - timedelta(seconds=1))
    old_task = RunPart.objects.get(pk=first.pk).task_id
    outcome = services.runs_reap(now=now)
    assert outcome["requeued"] == 1 and sent == [first.pk]
    first.refresh_from_db()
    assert (first.status, first.attempts, first.sends) == ("queued", 1, 1)
    assert first.task_id != old_task and "lost its worker" in first.error
    assert execution.part_execute_now(first.pk) == "succeeded"
    first.refresh_from_db()
    assert (first.attempts, first.error) == (2, "")


def test_a_part_whose_process_is_killed_fails_with_that_reason(
    run: Run, sent: list[int], settings: Any
) -> None:
    """The worker's main process notes the pool's account of a dead process (tasks.PartRequest);
    the requeue and the final failure carry it."""
    settings.PLANNER_PART_MAX_ATTEMPTS = 2
    first = parts_of(run)[0]
    killed = "Worker exited prematurely: signal 9 (SIGKILL) Job: 0."
    for attempt in (1, 2):
        task_id = RunPart.objects.get(pk=first.pk).task_id
        assert execution.part_claim(first.pk, task_id) is not None
        assert execution.part_process_lost(task_id, killed)
        RunPart.objects.filter(pk=first.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
        services.runs_reap()
        first.refresh_from_db()
        if attempt == 1:
            assert first.status == "queued" and "signal 9 (SIGKILL)" in first.error
    assert first.status == "failed"
    assert "stopped responding 2 times" in first.error and "out-of-memory killer" in first.error
    # Only a running part takes the note.
    assert not execution.part_process_lost(first.task_id, killed)


def test_a_part_claimed_by_its_stale_message_still_gets_the_note_of_its_killed_process(
    run: Run, sent: list[int], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A killed part's message goes back to the broker behind everything queued
    (``reject_on_worker_lost``); if the reaper queued the part again (a new message) before that
    stale one is read, the stale one claims it (a message is a token for its part). The process
    that then dies holds the part under a message id the part does not carry: the note must
    still reach the part, or the kernel's reason is lost from the final error."""
    monkeypatch.setattr(Request, "on_failure", lambda self, *args, **kwargs: None)  # ack/reject

    def process_killed(task_id: str) -> None:
        request = PartRequest.__new__(PartRequest)  # what the worker's main process holds
        request.id, request.worker_pid = task_id, os.getpid()  # the claims were made by this process
        killed = WorkerLostError("Worker exited prematurely: signal 9 (SIGKILL) Job: 7.")
        request.on_failure(SimpleNamespace(exception=killed, traceback=""))

    settings.PLANNER_PART_MAX_ATTEMPTS = 2
    first = parts_of(run)[0]
    stale = first.task_id
    assert execution.part_claim(first.pk, stale) is not None
    process_killed(stale)
    RunPart.objects.filter(pk=first.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    services.runs_reap()
    first.refresh_from_db()
    assert first.status == "queued" and first.task_id != stale and "signal 9 (SIGKILL)" in first.error

    claim = execution.part_claim(first.pk, stale)  # the stale message is read first
    assert claim is not None and claim.attempt == 2
    process_killed(stale)
    first.refresh_from_db()
    assert first.error.startswith(PROCESS_LOST) and "signal 9 (SIGKILL)" in first.error, first.error
    RunPart.objects.filter(pk=first.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
    services.runs_reap()
    first.refresh_from_db()
    assert first.status == "failed" and "stopped responding 2 times" in first.error
    assert "signal 9 (SIGKILL)" in first.error and "out-of-memory killer" in first.error, first.error


def test_a_part_whose_worker_keeps_dying_fails_after_the_last_attempt(
    run: Run, sent: list[int], settings: Any, execute_run: Callable[[int], str]
) -> None:
    settings.PLANNER_PART_MAX_ATTEMPTS = 2
    first = parts_of(run)[0]
    for _ in range(2):
        assert execution.part_claim(first.pk) is not None
        RunPart.objects.filter(pk=first.pk).update(lease_until=timezone.now() - timedelta(seconds=1))
        services.runs_reap()
    first.refresh_from_db()
    assert first.status == "failed" and "stopped responding 2 times" in first.error
    assert execute_run(run.pk) == "failed"
    assert Run.objects.get(pk=run.pk).error.startswith("fifo-consolidate: its worker stopped responding")


def test_a_part_killed_at_the_hard_time_limit_is_not_tried_again(
    run: Run, sent: list[int], settings: Any
) -> None:
    first = parts_of(run)[0]
    execution.part_claim(first.pk)
    long_ago = timezone.now() - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 5)
    RunPart.objects.filter(pk=first.pk).update(
        started_at=long_ago, lease_until=timezone.now() - timedelta(seconds=1)
    )
    services.runs_reap()
    first.refresh_from_db()
    assert first.status == "failed" and "hard time limit" in first.error


def test_lost_messages_are_resent_with_a_growing_wait(run: Run, sent: list[int], settings: Any) -> None:
    settings.PLANNER_PART_RESEND_S = 100
    t0 = timezone.now()
    RunPart.objects.filter(run=run).update(sent_at=t0, sends=1)
    assert services.runs_reap(now=t0 + timedelta(seconds=99))["sent"] == 0
    assert services.runs_reap(now=t0 + timedelta(seconds=101))["sent"] == 3
    assert {p.sends for p in parts_of(run)} == {2}
    resent_at = parts_of(run)[0].sent_at
    assert resent_at is not None
    # The second re-send waits twice as long.
    assert services.runs_reap(now=resent_at + timedelta(seconds=150))["sent"] == 0
    assert services.runs_reap(now=resent_at + timedelta(seconds=201))["sent"] == 3


def test_a_run_left_open_after_its_parts_ended_is_closed(run: Run) -> None:
    RunPart.objects.filter(run=run).update(status="succeeded", progress=1.0)
    Run.objects.filter(pk=run.pk).update(status="running")
    assert services.runs_reap()["closed"] == 1
    assert Run.objects.get(pk=run.pk).status == "succeeded"


# --------------------------------------------------------------------------- solver files


def test_solver_files_go_to_a_private_folder_removed_afterwards(settings: Any, tmp_path: Path) -> None:
    import tempfile

    settings.PLANNER_WORK_DIR = str(tmp_path)
    before = os.environ.get("TMPDIR")
    with execution.solver_files(7) as folder:
        assert os.environ["TMPDIR"] == str(folder) and tempfile.gettempdir() == str(folder)
        (folder / "model.mps").write_text("x")
    assert not folder.exists()
    assert os.environ.get("TMPDIR") == before


def test_the_folders_of_dead_processes_are_removed(settings: Any, tmp_path: Path) -> None:
    settings.PLANNER_WORK_DIR = str(tmp_path)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    gone = tmp_path / f"part-3-{dead.stdout.strip()}"
    alive = tmp_path / f"part-4-{os.getpid()}"
    for folder in (gone, alive):
        folder.mkdir()
        (folder / "x.sol").write_text("x")
    assert execution.stale_work_dirs_remove() == 1
    assert not gone.exists() and alive.exists()
