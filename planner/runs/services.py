"""Writes of runs: start (validate, store, enqueue on commit), cancel, delete, close, reap.

Nothing is queued that the library would reject: the scenario and the kind's parameters
are checked by :mod:`scheduling` (through the run's kind, ``kinds.py``) before any row is
created. A run is made of parts, each its own Celery task; see ``docs/architecture.md``
for the life of a part and the bounds on how long a lost one takes to come back.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Mapping
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from planner.core.errors import FieldError, InputError
from planner.core.names import clean_name
from planner.scenarios.jobstore import jobs_copy, jobs_copy_mapped
from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import (
    scenario_document_and_parsed,
    scenario_head_and_parsed,
    scenario_head_checked,
)
from planner.teams.access import require_can_change, require_member
from planner.teams.models import Team
from scheduling import Scenario, ScenarioError, parse_scenario
from scheduling.scenario.variations import scaled_durations

from .kinds import RunKind, RunPlan, get_kind, kind_for_request
from .models import FINISHED, PROCESS_LOST, UNFINISHED, Run, RunPart, RunResult, Status

logger = logging.getLogger(__name__)

ERROR_MAX_CHARS = 10_000


def _plan(kind: RunKind, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
    try:
        return kind.plan(scenario, params)
    except ScenarioError as exc:
        raise InputError(exc.errors) from None


def _plan_stored(kind: RunKind, scenario: Scenario, params: Mapping[str, Any], job_count: int) -> RunPlan:
    try:
        return kind.plan_stored(scenario, params, job_count=job_count)
    except ScenarioError as exc:
        raise InputError(exc.errors) from None


def _run_name(name: Any, default: str) -> str:
    if name not in (None, ""):
        return clean_name(name, max_chars=200)
    return default if len(default) <= 200 else default[:199] + "…"


def _scenario_from_request(
    *, user: Any, team: Team | None, scenario: Any, cluster: Cluster | None, workload: Workload | None,
    kind: RunKind, params: Mapping[str, Any],
) -> tuple[int, Any, Scenario | None]:
    """The run's team id, its scenario document and the parsed scenario; ``(team id, None, None)``
    for a stored workload of more than ``PLANNER_RUN_INLINE_JOBS_MAX`` jobs, whose run keeps them
    apart (:func:`_run_start_stored` builds and checks what it can without reading them whole)."""
    from_objects = cluster is not None or workload is not None
    if from_objects and scenario is not None:
        raise InputError.single(
            "scenario", "give either a scenario document or a cluster and a workload, not both"
        )
    if from_objects:
        if cluster is None or workload is None:
            missing = "cluster" if cluster is None else "workload"
            raise InputError.single(
                missing, "is required with a stored " + ("workload" if cluster is None else "cluster")
            )
        if team is not None and team.pk != cluster.team_id:
            raise InputError.single("cluster", "belongs to another team than the run")
        require_member(user, cluster.team_id)
        require_member(user, workload.team_id)
        if workload.job_count > int(settings.PLANNER_RUN_INLINE_JOBS_MAX):
            return cluster.team_id, None, None
        doc, parsed = scenario_document_and_parsed(cluster, workload)
        return cluster.team_id, doc, parsed
    if scenario is None:
        scenario = kind.default_scenario(params)
    if scenario is None:
        raise InputError.single("scenario", "give a scenario document, or a cluster and a workload")
    if team is None:
        raise InputError.single("team", "is required (you belong to no team)")
    require_member(user, team.pk)
    try:
        return team.pk, scenario, parse_scenario(scenario)  # paths into the document
    except ScenarioError as exc:
        errors = list(exc.errors)
        try:  # report the request's other problems in the same response
            _plan(kind, None, params)
        except InputError as more:
            # Resource-specific checks (RUT weights) need the (invalid) scenario's resources.
            errors.extend(e for e in more.errors if "rut" not in e.path)
        raise InputError(errors) from None


def run_start(
    *,
    user: Any,
    team: Team | None = None,
    scenario: Any = None,
    cluster: Cluster | None = None,
    workload: Workload | None = None,
    name: Any = None,
    kind: Any = "compare",
    params: Mapping[str, Any] | None = None,
    jobs_of: Run | None = None,
    duration_factor: float = 1.0,
    **more_params: Any,
) -> Run:
    """Queue a run of ``kind`` on a scenario.

    The scenario is either a document (``scenario``: run exactly as the CLI would run the
    same file) or a stored ``cluster`` and ``workload``. ``params`` (or the keyword
    arguments beyond these: ``schedulers=...`` for a comparison) are the kind's. Everything
    is validated first; then, in one transaction, the run and its parts are created QUEUED
    and each part's task is enqueued once the transaction commits.

    A stored workload of more than ``PLANNER_RUN_INLINE_JOBS_MAX`` jobs is not made into one
    document: the run keeps its own copy of the workload's job chunks (one ``INSERT ...
    SELECT``, 13 MB for a million jobs) and the rest of the document, the jobs are checked
    against the cluster column by column, and every part reads them back
    (:func:`_run_start_stored`); seconds instead of minutes for a million jobs.

    ``jobs_of`` is an earlier run that keeps its jobs apart (``Run.jobs_stored``) whose jobs
    are the new run's: ``scenario`` is then a document without jobs (``"jobs": []``, a what-if
    of that run, say), and the new run copies the earlier one's chunks as its own (one
    ``INSERT ... SELECT``; with ``duration_factor``, every job's duration scaled column by
    column, :func:`scheduling.scenario.variations.scaled_durations`), checked with
    ``scenario`` as a workload's are (:func:`_run_start_on_jobs_of`).
    """
    run_kind = kind_for_request(kind)
    params = {**(params or {}), **more_params}
    if jobs_of is not None and jobs_of.jobs_stored:
        return _run_start_on_jobs_of(
            user=user, team=team, head=scenario, source=jobs_of, name=name, kind=run_kind, params=params,
            duration_factor=duration_factor,
        )
    # The name is checked first and its problem reported with the scenario's and the parameters':
    # a request refused for its name must not reach the kind's preparation (a comparison solves
    # its lower bound's LP there) nor the team's queue.
    name_errors: list[FieldError] = []
    try:
        _run_name(name, "")
    except InputError as exc:
        name_errors = list(exc.errors)
    try:
        team_id, doc, parsed = _scenario_from_request(
            user=user,
            team=team,
            scenario=scenario,
            cluster=cluster,
            workload=workload,
            kind=run_kind,
            params=params,
        )
        plan = _plan(run_kind, parsed, params) if parsed is not None else None
    except InputError as exc:
        raise InputError([*name_errors, *exc.errors]) from None
    if name_errors:
        raise InputError(name_errors)
    if parsed is None or plan is None:
        assert cluster is not None and workload is not None
        return _run_start_stored(
            user=user, team_id=team_id, cluster=cluster, workload=workload, name=name, kind=run_kind,
            params=params,
        )
    context = run_kind.prepare(parsed, plan.options)
    with transaction.atomic():
        _check_team_queue(team_id, len(plan.parts))
        run = Run.objects.create(
            team_id=team_id,
            created_by=user,
            kind=run_kind.key,
            name=_run_name(name, plan.default_name),
            scenario=doc,
            scenario_name=parsed.name[:100],
            job_count=len(parsed.jobs),
            cluster=cluster,
            workload=workload,
            options=plan.options,
            context=context,
            status=Status.QUEUED,
        )
        _parts_create(run, plan)
    return run


def _run_start_stored(
    *, user: Any, team_id: int, cluster: Cluster, workload: Workload, name: Any, kind: RunKind,
    params: Mapping[str, Any],
) -> Run:
    """:func:`run_start` of a big stored workload: its jobs kept apart, as the run's own chunks.

    In one transaction: the run's row, the copy of the workload's chunks as its own
    (:class:`~.models.RunJobChunk`: one statement, so one
    consistent snapshot even while a page of the workload is being saved), the checks of the
    copy with the cluster (:func:`scenario_head_and_parsed`, on the copy: what is checked is
    what runs), the plan and the parts. A failed check raises and rolls all of it back. What
    needs every job (the kind's :meth:`~.kinds.RunKind.prepare`, a full parse) is left to the
    parts, which fail with the reason and its path if it finds a problem.
    """
    with transaction.atomic():
        run = Run.objects.create(
            team_id=team_id,
            created_by=user,
            kind=kind.key,
            name="",
            scenario={},
            jobs_stored=True,
            cluster=cluster,
            workload=workload,
            status=Status.QUEUED,
        )
        run.job_count = jobs_copy(workload, run)
        head, parsed = scenario_head_and_parsed(cluster, workload, jobs_of=run)
        _stored_run_plan(run, team_id, head, parsed, name, kind, params)
    return run


def _run_start_on_jobs_of(
    *, user: Any, team: Team | None, head: Any, source: Run, name: Any, kind: RunKind,
    params: Mapping[str, Any], duration_factor: float,
) -> Run:
    """:func:`run_start` of a document without jobs on the jobs an earlier run keeps apart.

    As :func:`_run_start_stored`, in one transaction: the run's row, the copy of ``source``'s
    chunks as its own (a statement; or a chunk at a time with the durations scaled), the checks
    of the copy with ``head`` (the cluster may have changed: a VM type taken out can leave jobs
    nowhere to run, a 400 naming them), the plan and the parts.
    """
    if team is None:
        raise InputError.single("team", "is required (you belong to no team)")
    if not isinstance(head, Mapping) or head.get("jobs") not in ([], None):
        raise InputError.single("scenario", "must have no jobs when the jobs are another run's")
    require_member(user, team.pk)
    require_member(user, source.team_id)
    _run_name(name, "")  # the name's problem before anything is copied
    with transaction.atomic():
        run = Run.objects.create(
            team_id=team.pk, created_by=user, kind=kind.key, name="", scenario={}, jobs_stored=True,
            status=Status.QUEUED,
        )
        if duration_factor == 1:
            run.job_count = jobs_copy(source, run)
        else:
            run.job_count = jobs_copy_mapped(
                source, run, "duration_s", partial(scaled_durations, factor=duration_factor)
            )
        checked, parsed = scenario_head_checked(head, run)
        _stored_run_plan(run, team.pk, checked, parsed, name, kind, params)
    return run


def _stored_run_plan(
    run: Run, team_id: int, head: dict[str, Any], parsed: Scenario, name: Any, kind: RunKind,
    params: Mapping[str, Any],
) -> None:
    """The end of a start on jobs kept apart (inside its transaction, the jobs copied and
    checked): the plan, the team's queue, the run's name and document without jobs, the parts."""
    plan = _plan_stored(kind, parsed, params, run.job_count)
    _check_team_queue(team_id, len(plan.parts))
    run.name = _run_name(name, plan.default_name)
    run.scenario = head
    run.scenario_name = parsed.name[:100]
    run.options = plan.options
    run.save(update_fields=["name", "scenario", "scenario_name", "job_count", "options"])
    _parts_create(run, plan)


def _parts_create(run: Run, plan: RunPlan) -> None:
    """The run's parts as ``plan`` lists them, QUEUED; their messages go once the transaction
    commits, in :func:`parts_send_order`."""
    parts = RunPart.objects.bulk_create(
        RunPart(run=run, position=i, label=spec.label[:255], payload=spec.payload, task_id=str(uuid.uuid4()))
        for i, spec in enumerate(plan.parts)
    )
    ordered = parts_send_order(run.kind, parts)
    transaction.on_commit(partial(parts_send, [(p.pk, p.task_id) for p in ordered], first=True))


def parts_send_order(kind: str, parts: list[RunPart]) -> list[RunPart]:
    """A new run's parts in the order their messages go: the longest expected first.

    Workers take messages in the order they were sent, so a run's parts end soonest when the
    longest start first (longest processing time first: with five parts on two worker
    processes, the last one to start is then a short one, not the slowest scheduler). A part's
    expected time is its label's recent seconds per job (:func:`~.selectors.part_seconds_per_job`;
    the parts of one run share its jobs); a label never run counts as the longest, so it does not
    start last.
    Ties (and a run with no history at all) keep the plan's order. Only the order of starting
    changes: every part runs, and its results are the same.
    """
    from .selectors import part_seconds_per_job

    per_job = part_seconds_per_job(kind=kind, labels=[p.label for p in parts])
    if not per_job:
        return list(parts)
    return sorted(parts, key=lambda p: (-per_job.get(p.label, float("inf")), p.position))


def _check_team_queue(team_id: int, adding: int) -> None:
    """A team has at most ``PLANNER_TEAM_MAX_QUEUED_PARTS`` parts queued or running at once.

    With fair claiming between teams (``execution.part_claim``), this bounds what one team
    can put in the broker (and in the database's queue) ahead of everybody else.
    """
    limit = int(settings.PLANNER_TEAM_MAX_QUEUED_PARTS)
    waiting = RunPart.objects.filter(run__team_id=team_id, status__in=UNFINISHED).count()
    if waiting + adding > limit:
        raise InputError.single(
            "team",
            f"the team has {waiting} parts queued or running and this run adds {adding}; at most {limit} "
            "at once: wait for runs to finish, or cancel one",
        )


def part_queues(part_ids: Iterable[int]) -> dict[int, str]:
    """The Celery queue of each part: the heavy queue for big runs, when one is configured.

    ``settings.PLANNER_HEAVY_QUEUE`` (empty: none) takes the parts of runs with at least
    ``PLANNER_HEAVY_RUN_JOBS`` jobs; the rest go to ``CELERY_TASK_DEFAULT_QUEUE``.
    """
    default = str(settings.CELERY_TASK_DEFAULT_QUEUE)
    heavy = str(settings.PLANNER_HEAVY_QUEUE or "")
    ids = list(part_ids)
    if not heavy:
        return dict.fromkeys(ids, default)
    jobs = dict(RunPart.objects.filter(pk__in=ids).values_list("pk", "run__job_count"))
    limit = int(settings.PLANNER_HEAVY_RUN_JOBS)
    return {pk: heavy if jobs.get(pk, 0) >= limit else default for pk in ids}


def parts_send(parts: Iterable[tuple[int, str]], *, first: bool = False) -> int:
    """Send each part's task message; returns how many went out.

    A part whose message cannot be sent (the broker is down or restarting) stays queued,
    with the reason in its ``error`` for the run page, and is sent by the reaper's next round
    once the broker answers again (``runs_reap``: a queued part never sent is due at once):
    the run is never lost, and the request that started it still answers 201.
    """
    from .tasks import run_part_execute

    parts = list(parts)
    queues = part_queues([pk for pk, _ in parts])
    sent = 0
    for part_id, task_id in parts:
        try:
            run_part_execute.apply_async(
                args=[part_id], task_id=task_id, queue=queues.get(part_id),
                priority=int(settings.PLANNER_PART_PRIORITY),
            )
        except Exception as exc:  # kombu raises several types for an unreachable broker
            logger.warning("could not queue part %s (sent later): %s: %s", part_id, type(exc).__name__, exc)
            RunPart.objects.filter(pk=part_id, status=Status.QUEUED, sent_at__isnull=True).update(
                error=f"{BROKER_DOWN}: {type(exc).__name__}: {exc}"[:1000]
            )
            continue
        RunPart.objects.filter(pk=part_id, status=Status.QUEUED).update(
            sent_at=timezone.now(), sends=F("sends") + 1
        )
        noted = RunPart.objects.filter(pk=part_id, status=Status.QUEUED, error__startswith=BROKER_DOWN)
        noted.update(error="")
        sent += 1
    return sent


#: The note on a part whose message could not be sent yet (cleared once it is).
BROKER_DOWN = "waiting for the task broker (queued; sent when it answers again)"


# --------------------------------------------------------------------------- parts ending


def part_fail(part_id: int, attempt: int | None, reason: str) -> bool:
    """Fail an unfinished part (of attempt ``attempt``, if given) with ``reason``; close its run if done."""
    now = timezone.now()
    qs = RunPart.objects.filter(pk=part_id, status__in=UNFINISHED)
    if attempt is not None:
        qs = qs.filter(attempts=attempt)
    run_id = RunPart.objects.filter(pk=part_id).values_list("run_id", flat=True).first()
    changed = qs.update(
        status=Status.FAILED, error=reason[:ERROR_MAX_CHARS], finished_at=now, lease_until=None
    )
    if changed and run_id is not None:
        run_close_if_done(run_id)
    return bool(changed)


def run_close_if_done(run_id: int) -> str | None:
    """End the run if its last part has ended; returns the run's final status, or ``None``.

    Every part calls this after recording its own end, so the last one to finish closes the
    run. The run's row is locked while the parts are counted: of two parts ending together,
    the one that counts second sees both ended (each committed its own end before counting).
    The figures are stored in the same write as the final status, so a run is never shown
    ended without its charts: the closer that finds every part ended builds them outside the
    lock, then locks and counts again (if two do, both build, and the first closes the run).
    A cancelled run closes at once; a worker builds its figures afterwards.
    """
    figures: dict[str, Any] | None = None
    built = False
    while True:
        with transaction.atomic():
            run = (
                Run.objects.select_for_update()
                .filter(pk=run_id, status__in=UNFINISHED)
                .only("id", "status", "cancel_requested")
                .first()
            )
            if run is None:
                return None
            counts = dict(
                RunPart.objects.filter(run_id=run_id).values_list("status").annotate(n=Count("id")).order_by()
            )
            if counts.get(Status.QUEUED) or counts.get(Status.RUNNING):
                return None
            error = ""
            if run.cancel_requested:
                status = Status.CANCELLED
            elif counts.get(Status.FAILED) or not counts:
                status = Status.FAILED
                failed = RunPart.objects.filter(run_id=run_id, status=Status.FAILED).order_by("position")
                error = (
                    "\n".join(f"{p.label}: {p.error}" for p in failed.only("label", "error"))
                    or "the run had no parts"
                )
            else:
                status = Status.SUCCEEDED
            if status == Status.CANCELLED or built:
                Run.objects.filter(pk=run_id, status__in=UNFINISHED).update(
                    status=status,
                    error=error[:ERROR_MAX_CHARS],
                    finished_at=timezone.now(),
                    **({"progress": 1.0} if status == Status.SUCCEEDED else {}),
                    **({"figures": figures} if figures is not None else {}),
                )
                break
        # Every part has ended: build the figures outside the lock, then count again.
        figures, built = _figures_build(run_id), True
    if status == Status.CANCELLED and RunResult.objects.filter(run_id=run_id).exists():
        run_figures_request(run_id)  # the cancel must not wait for the charts
    return str(status)


def _figures_build(run_id: int) -> dict[str, Any] | None:
    """The run's figures: joined from its variants' pieces when its kind splits them (no full
    document is loaded), else built from every full result document by the kind's ``figures``.

    A figure that cannot be drawn must not fail a run whose results are fine: the error is
    logged and the page shows the results without charts. ``None`` without results."""
    from .selectors import run_figure_pieces, run_results

    run = (
        Run.objects.only("id", "kind", "options", "team__currency")
        .select_related("team")
        .filter(pk=run_id)
        .first()
    )
    if run is None or not RunResult.objects.filter(run_id=run_id).exists():
        return None
    try:
        kind = get_kind(run.kind)
        pieces = run_figure_pieces(run_id=run_id)
        if pieces is not None:
            return kind.join_figures(pieces, options=run.options, currency=run.team.currency)
        return kind.figures(run_results(run=run), currency=run.team.currency)
    except Exception:
        logger.exception("run %s: building the figures failed", run_id)
        return None


def run_figures_store(run_id: int) -> dict[str, Any] | None:
    """Build the run's figures (:func:`_figures_build`) and cache them on the row.

    Runs in a worker (the part that closes the run, or the task a missing cache asks for);
    reads the variants' figure pieces, or every full result document of a kind that does not
    split its figures."""
    figures = _figures_build(run_id)
    if figures is not None:
        Run.objects.filter(pk=run_id).update(figures=figures)
    return figures


def run_figures_missing(run_id: int) -> bool:
    """Whether a finished run with results has no figures stored (yet)."""
    return Run.objects.filter(pk=run_id, figures__isnull=True, status__in=FINISHED).exists()


#: A request for a run's figures sends no second task within this many seconds of the last.
FIGURES_REQUEST_S = 60


def run_figures_request(run_id: int) -> bool:
    """Ask a worker to build a finished run's missing figures; ``True`` if a task was sent.

    At most one request a minute per run (a conditional update claims it), so a page that
    polls does not flood the queue, and a lost message is sent again a minute later. The
    task is sent once the transaction commits."""
    now = timezone.now()
    claimed = (
        Run.objects.filter(pk=run_id, figures__isnull=True, status__in=FINISHED)
        .filter(Q(figures_requested_at__isnull=True)
                | Q(figures_requested_at__lt=now - timedelta(seconds=FIGURES_REQUEST_S)))
        .update(figures_requested_at=now)
    )
    if not claimed:
        return False

    def send() -> None:
        from .tasks import run_figures_build

        try:
            run_figures_build.delay(run_id)
        except Exception:  # kombu raises several types for an unreachable broker
            logger.exception("could not queue the figures of run %s", run_id)

    transaction.on_commit(send)
    return True


def run_figures(*, run: Run) -> tuple[dict[str, Any] | None, bool]:
    """The run's cached figures, and whether they are being prepared.

    Never builds them in the request: a finished run with results but no figures (its team's
    currency changed, or they were lost) has them built by a worker (:func:`run_figures_request`)
    and the page shows "preparing charts" until they are stored."""
    if run.figures is not None or run.status not in FINISHED:
        return run.figures, False
    if not RunResult.objects.filter(run_id=run.pk).exists():
        return None, False
    run_figures_request(run.pk)
    return None, True


# --------------------------------------------------------------------------- cancel, delete


def run_cancel(*, run: Run, user: Any) -> Run:
    """Cancel a run and every part that has not ended, at once.

    Queued parts never start; a worker still running a part notices at its next progress
    report or heartbeat (its conditional writes change nothing any more) and drops its
    work. Parts that had finished keep their results. Cancelling a finished run changes
    nothing.
    """
    require_can_change(user, run.team_id, run.created_by_id, what="this run")
    now = timezone.now()
    with transaction.atomic():
        if Run.objects.filter(pk=run.pk, status__in=UNFINISHED).update(cancel_requested=True):
            RunPart.objects.filter(run_id=run.pk, status__in=UNFINISHED).update(
                status=Status.CANCELLED, finished_at=now, lease_until=None
            )
    run_close_if_done(run.pk)
    run.refresh_from_db(fields=["status", "cancel_requested", "finished_at", "progress", "error"])
    return run


def run_delete(*, run: Run, user: Any) -> None:
    """Delete a run, its parts and results; a worker still running a part drops it at its next report."""
    require_can_change(user, run.team_id, run.created_by_id, what="this run")
    run.delete()


# --------------------------------------------------------------------------- the reaper


def _resend_due(part: RunPart, now: Any) -> bool:
    """Whether a queued part's last message is old enough to be presumed lost.

    The wait doubles with each send (``PLANNER_PART_RESEND_S``, twice that, ... up to an
    hour), so a long queue is not flooded with duplicates; a duplicate delivery does
    nothing (the claim is a conditional update).
    """
    if part.sent_at is None:
        return True
    wait = min(3600.0, float(settings.PLANNER_PART_RESEND_S) * 2 ** max(0, part.sends - 1))
    return bool(part.sent_at <= now - timedelta(seconds=wait))


def runs_reap(*, now: Any = None) -> dict[str, int]:
    """Recover parts whose worker died and messages that were lost; close runs left open.

    * A RUNNING part whose lease lapsed (its worker stopped renewing it: killed, lost, or
      past the hard time limit) is queued again and re-sent, up to
      ``PLANNER_PART_MAX_ATTEMPTS`` claims in all; then it fails with the reason.
    * A QUEUED part whose message is presumed lost (a broker restarted without
      persistence) is re-sent (:func:`_resend_due`).
    * A run whose parts have all ended but which is still open is closed.

    Runs from celery beat every ``PLANNER_REAP_INTERVAL_S``; returns what it did.
    """
    now = now or timezone.now()
    max_attempts = int(settings.PLANNER_PART_MAX_ATTEMPTS)
    requeued: list[tuple[int, str]] = []
    failed = 0
    hard_limit = timedelta(seconds=int(settings.CELERY_TASK_TIME_LIMIT))
    lapsed = RunPart.objects.filter(status=Status.RUNNING, lease_until__lt=now).only(
        "id", "run_id", "attempts", "worker", "label", "started_at", "error"
    )
    for part in lapsed:
        if part.started_at is not None and part.started_at < now - hard_limit:
            # Killed at the hard time limit: another attempt would only be killed again.
            reason = f"stopped at the hard time limit ({int(settings.CELERY_TASK_TIME_LIMIT)} s)"
            failed += part_fail(part.pk, part.attempts, reason)
            continue
        # The worker's main process notes why its pool process died (tasks.PartRequest).
        died = f"; {part.error}" if part.error.startswith(PROCESS_LOST) else ""
        if part.attempts >= max_attempts:
            reason = (
                f"its worker stopped responding {part.attempts} times "
                f"(last: {part.worker or 'unknown'}{died}); given up after the last attempt"
            )
            failed += part_fail(part.pk, part.attempts, reason)
            continue
        task_id = str(uuid.uuid4())
        if RunPart.objects.filter(pk=part.pk, status=Status.RUNNING, attempts=part.attempts).update(
            status=Status.QUEUED, lease_until=None, progress=0.0, task_id=task_id, sent_at=None,
            error=f"attempt {part.attempts} lost its worker ({part.worker or 'unknown'}{died}); queued again",
        ):
            logger.warning(
                "part %s of run %s: worker %s lost; queued again", part.pk, part.run_id, part.worker
            )
            requeued.append((part.pk, task_id))
    lost = [
        (p.pk, p.task_id)
        for p in RunPart.objects.filter(status=Status.QUEUED)
        .exclude(pk__in=[pk for pk, _ in requeued])
        .filter(
            Q(sent_at__isnull=True)
            | Q(sent_at__lte=now - timedelta(seconds=float(settings.PLANNER_PART_RESEND_S)))
        )
        .only("id", "task_id", "sent_at", "sends")
        if _resend_due(p, now)
    ]
    resent = parts_send(requeued) + parts_send(lost)
    closed = 0
    open_runs = Run.objects.filter(status__in=UNFINISHED).exclude(parts__status__in=UNFINISHED)
    for run_id in open_runs.values_list("id", flat=True):
        closed += run_close_if_done(run_id) is not None
    return {"requeued": len(requeued), "failed": failed, "sent": resent, "closed": closed}
