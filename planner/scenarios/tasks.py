"""Celery tasks of workloads. They take ids (JSON only) and leave the work to ``importing``."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError

from . import importing

logger = logging.getLogger(__name__)

MAX_RETRIES = 5


@shared_task(
    bind=True,
    name="planner.scenarios.tasks.upload_read",
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=settings.PLANNER_UPLOAD_SOFT_TIME_LIMIT_S,
    time_limit=settings.PLANNER_UPLOAD_SOFT_TIME_LIMIT_S + 60,
)
def upload_read(self: Any, upload_id: int) -> str:
    """Import the upload ``upload_id`` if it still waits; a second delivery does nothing.

    Retries only on :class:`django.db.OperationalError` (a database restart), with backoff
    (10 s, 20 s, ... 160 s); the claim's lease lets the retry take the upload back. At the soft
    time limit the upload fails with the reason.
    """
    try:
        return importing.upload_read_now(int(upload_id))
    except OperationalError as exc:
        if self.request.retries >= MAX_RETRIES:
            raise
        raise self.retry(exc=exc, countdown=min(600, 10 * 2**self.request.retries)) from exc
    except SoftTimeLimitExceeded:
        limit = int(settings.PLANNER_UPLOAD_SOFT_TIME_LIMIT_S)
        importing.upload_fail_now(int(upload_id), f"the import took longer than its time limit ({limit} s)")
        return "failed"


@shared_task(name="planner.scenarios.tasks.uploads_reap")
def uploads_reap() -> int:
    """Send again the imports whose message or worker was lost (scheduled with celery beat)."""
    return importing.uploads_reap()
