"""Writes of runs: start (validate, store, enqueue on commit), cancel, delete.

Nothing is queued that the library would reject: the scenario, the scheduler specs and
the options are all checked by :mod:`scheduling` before the row is created.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from planner.core.errors import FieldError, InputError
from planner.core.names import clean_name
from planner.scenarios.models import Cluster, Workload
from planner.scenarios.services import scenario_document_and_parsed
from planner.teams.access import require_can_change, require_member
from planner.teams.models import Team
from scheduling import Scenario, ScenarioError, SimulationOptions, parse_scenario, parse_scheduler

from .models import Run

logger = logging.getLogger(__name__)

SEED_MAX = 2**63 - 1
DEFAULT_RESOURCES = ("cpu", "mem")


def run_options_validate(
    scenario: Scenario | None, *, schedulers: Any, options: Any, baseline: Any, seed: Any
) -> dict[str, Any]:
    """The run's ``options`` JSON, every part checked by the library against the scenario.

    Paths name the request's fields: ``schedulers[1]: unknown placement ...``,
    ``options.rut: weights must sum to 1 ...``, ``baseline``, ``seed``. With ``scenario``
    None (it was invalid) they are checked against the default resources, so that one
    response can report every problem.
    """
    errors: list[FieldError] = []
    if schedulers is None:
        schedulers = list(settings.PLANNER_DEFAULT_SCHEDULERS)
    resources = scenario.resources if scenario is not None else DEFAULT_RESOURCES
    base = scenario.options if scenario is not None else SimulationOptions()
    scenario_options = base
    if options is not None:
        if not isinstance(options, Mapping):
            errors.append(FieldError("options", "must be an object (or null for the scenario's own options)"))
        else:
            try:
                base = SimulationOptions.from_dict(options, resources=resources, base=scenario_options)
            except ScenarioError as exc:
                errors.extend(exc.errors)
    specs: list[str] = []
    limit = int(settings.PLANNER_MAX_SCHEDULERS_PER_RUN)
    if not isinstance(schedulers, list) or not schedulers:
        errors.append(FieldError("schedulers", "must be a non-empty list of scheduler specs such as edf-bfd"))
    elif len(schedulers) > limit:
        errors.append(FieldError("schedulers", f"lists {len(schedulers)} schedulers; the limit is {limit}"))
    else:
        for i, spec in enumerate(schedulers):
            path = f"schedulers[{i}]"
            try:
                parsed = parse_scheduler(spec, resources=resources, base=base, path=path)
            except ScenarioError as exc:
                errors.extend(exc.errors)
                continue
            if parsed.spec in specs:
                errors.append(FieldError(path, f"{parsed.spec!r} is listed twice"))
                continue
            specs.append(parsed.spec)
    if baseline is None or baseline == "":
        baseline = specs[0] if specs else None
    elif not isinstance(baseline, str) or (specs and baseline.strip() not in specs):
        errors.append(FieldError("baseline", "must be one of the run's schedulers"))
    else:
        baseline = baseline.strip()
    if seed is None:
        seed = 0
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        errors.append(FieldError("seed", "must be an integer between 0 and 2**63 - 1"))
    if errors:
        raise InputError(errors)
    return {"schedulers": specs, "baseline": baseline, "seed": seed, "options": dict(options) if options else None}


def _run_name(name: Any, scenario: Scenario, schedulers: list[str]) -> str:
    if name not in (None, ""):
        return clean_name(name, max_chars=200)
    default = f"{scenario.name}: {' vs '.join(schedulers)}"
    return default if len(default) <= 200 else default[:199] + "…"


def run_start(
    *,
    user: Any,
    team: Team | None = None,
    scenario: Any = None,
    cluster: Cluster | None = None,
    workload: Workload | None = None,
    schedulers: Any = None,
    options: Any = None,
    baseline: Any = None,
    seed: Any = 0,
    name: Any = None,
    kind: Any = Run.Kind.COMPARE,
) -> Run:
    """Queue a comparison of ``schedulers`` on a scenario.

    The scenario is either a document (``scenario``: run exactly as the CLI would run the
    same file) or a stored ``cluster`` and ``workload``. Everything is validated first; the
    run is created QUEUED and its task is enqueued once the transaction commits.
    """
    if kind != Run.Kind.COMPARE:
        raise InputError.single("kind", f"must be one of {', '.join(Run.Kind.values)}")
    from_objects = cluster is not None or workload is not None
    if from_objects and scenario is not None:
        raise InputError.single("scenario", "give either a scenario document or a cluster and a workload, not both")
    if from_objects:
        if cluster is None or workload is None:
            missing = "cluster" if cluster is None else "workload"
            raise InputError.single(missing, "is required with a stored " + ("workload" if cluster is None else "cluster"))
        if team is not None and team.pk != cluster.team_id:
            raise InputError.single("cluster", "belongs to another team than the run")
        team_id: int = cluster.team_id
        require_member(user, team_id)
        require_member(user, workload.team_id)
        doc, parsed = scenario_document_and_parsed(cluster, workload)
    elif scenario is None:
        raise InputError.single("scenario", "give a scenario document, or a cluster and a workload")
    else:
        if team is None:
            raise InputError.single("team", "is required (you belong to no team)")
        team_id = team.pk
        require_member(user, team_id)
        try:
            doc, parsed = scenario, parse_scenario(scenario)  # paths into the document
        except ScenarioError as exc:
            errors = list(exc.errors)
            try:  # report the request's other problems in the same response
                run_options_validate(None, schedulers=schedulers, options=options, baseline=baseline, seed=seed)
            except InputError as more:
                # RUT weights name resources, which only the (invalid) scenario defines
                errors.extend(e for e in more.errors if "rut" not in e.path)
            raise InputError(errors) from None
    run_options = run_options_validate(parsed, schedulers=schedulers, options=options, baseline=baseline, seed=seed)
    run_name = _run_name(name, parsed, run_options["schedulers"])
    with transaction.atomic():
        run = Run.objects.create(
            team_id=team_id,
            created_by=user,
            kind=kind,
            name=run_name,
            scenario=doc,
            scenario_name=parsed.name[:100],
            job_count=len(parsed.jobs),
            cluster=cluster,
            workload=workload,
            options=run_options,
            status=Run.Status.QUEUED,
            task_id=str(uuid.uuid4()),
        )
        transaction.on_commit(partial(_enqueue, run.pk, run.task_id))
    return run


def _enqueue(run_id: int, task_id: str) -> None:
    """Send the run to a worker; if the broker is unreachable, say so on the run's row."""
    from .tasks import run_execute

    try:
        run_execute.apply_async(args=[run_id], task_id=task_id)
    except Exception as exc:  # kombu raises several types for an unreachable broker
        logger.exception("could not queue run %s", run_id)
        Run.objects.filter(pk=run_id, status=Run.Status.QUEUED).update(
            status=Run.Status.FAILED,
            error=f"could not queue the run (is the task broker running?): {type(exc).__name__}: {exc}",
            finished_at=timezone.now(),
        )


@transaction.atomic
def run_cancel(*, run: Run, user: Any) -> Run:
    """Cancel a run: a queued one at once; a running one when its worker next reports progress.

    Cancelling a finished run changes nothing.
    """
    require_can_change(user, run.team_id, run.created_by_id, what="this run")
    now = timezone.now()
    if not Run.objects.filter(pk=run.pk, status=Run.Status.QUEUED).update(
        status=Run.Status.CANCELLED, cancel_requested=True, finished_at=now
    ):
        Run.objects.filter(pk=run.pk, status=Run.Status.RUNNING).update(cancel_requested=True)
    run.refresh_from_db(fields=["status", "cancel_requested", "finished_at", "progress", "error"])
    return run


def run_delete(*, run: Run, user: Any) -> None:
    """Delete a run and its results; a worker still running it stops at its next progress report."""
    require_can_change(user, run.team_id, run.created_by_id, what="this run")
    run.delete()


def run_figures(*, run: Run) -> dict[str, Any] | None:
    """The run's figures: the cache built by the task, or built now (and cached) if missing."""
    if run.figures is not None or run.status != Run.Status.SUCCEEDED:
        return run.figures
    from .execution import figures_build
    from .selectors import run_results

    figures = figures_build(run_results(run=run))
    if figures is not None:
        Run.objects.filter(pk=run.pk).update(figures=figures)
        run.figures = figures
    return figures


def runs_fail_stale(*, now: Any = None) -> int:
    """Fail runs still RUNNING past the hard time limit: their worker died without a word.

    A worker that is killed (out of memory, SIGKILL, machine lost) cannot record anything;
    a redelivered message finds the run RUNNING and, rightly, does not start it twice.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=int(settings.CELERY_TASK_TIME_LIMIT) + 300)
    return Run.objects.filter(status=Run.Status.RUNNING, started_at__lt=cutoff).update(
        status=Run.Status.FAILED,
        error="the worker stopped without reporting an outcome (lost, killed, or past the hard time limit)",
        finished_at=now,
    )

