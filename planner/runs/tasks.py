"""Celery tasks of runs. They take ids (JSON only) and leave the work to ``execution``."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from . import execution, services
from .models import Run

logger = logging.getLogger(__name__)

MAX_RETRIES = 5


def retry_countdown(retries: int) -> int:
    """Seconds before retry number ``retries + 1``: 10, 20, 40, 80, 160 (capped at 600)."""
    return min(600, 10 * 2**retries)


@shared_task(
    bind=True,
    name="planner.runs.tasks.run_execute",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
)
def run_execute(self: Any, run_id: int) -> str:
    """Execute the run ``run_id`` if it is still QUEUED; a second delivery does nothing.

    Retries only on :class:`django.db.OperationalError` (a database restart or failover),
    with exponential backoff; ``execution`` has released the claim so the retry can run it.
    """
    try:
        return execution.run_execute_now(int(run_id))
    except OperationalError as exc:
        if self.request.retries >= MAX_RETRIES:
            logger.error("run %s: database still unavailable after %s retries", run_id, MAX_RETRIES)
            try:
                Run.objects.filter(pk=run_id, status=Run.Status.QUEUED).update(
                    status=Run.Status.FAILED,
                    error=f"database unavailable: {exc}",
                    finished_at=timezone.now(),
                )
            except OperationalError:
                logger.exception("run %s: could not record the failure", run_id)
            raise
        raise self.retry(exc=exc, countdown=retry_countdown(self.request.retries)) from exc


@shared_task(name="planner.runs.tasks.runs_fail_stale")
def runs_fail_stale() -> int:
    """Fail runs whose worker died (schedule it with celery beat; see CELERY_BEAT_SCHEDULE)."""
    return services.runs_fail_stale()
