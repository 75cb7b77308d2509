"""Celery tasks of runs. They take ids (JSON only) and leave the work to ``execution``."""

from __future__ import annotations

import logging
from typing import Any

from billiard.exceptions import WorkerLostError
from celery import shared_task
from celery.signals import celeryd_after_setup, worker_ready
from celery.worker.request import Request
from django.db import OperationalError

from . import execution, services

logger = logging.getLogger(__name__)

MAX_RETRIES = 5


def retry_countdown(retries: int) -> int:
    """Seconds before retry number ``retries + 1``: 10, 20, 40, 80, 160 (capped at 600)."""
    return min(600, 10 * 2**retries)


class PartRequest(Request):
    """A part's message in the worker's main process: notes on the part why its process died.

    When the pool process executing a part dies (the kernel's out-of-memory killer, ``kill
    -9``), the main process learns it as a :class:`WorkerLostError` with the signal. The note
    goes on the part that process held (still RUNNING: its lease lapses, the reaper queues it
    again and, after ``PLANNER_PART_MAX_ATTEMPTS`` claims, fails it with this reason).
    """

    def on_failure(self, exc_info: Any, send_failed_event: bool = True, return_ok: bool = False) -> Any:
        exc = getattr(exc_info, "exception", None)
        exc = getattr(exc, "exc", exc)  # ExceptionWithTraceback
        if isinstance(exc, WorkerLostError):
            try:
                execution.part_process_lost(str(self.id), str(exc), pid=self.worker_pid)
            except Exception:  # the database may be the reason; the reaper still recovers the part
                logger.warning("could not note the lost process of message %s", self.id, exc_info=True)
        return super().on_failure(exc_info, send_failed_event=send_failed_event, return_ok=return_ok)


@shared_task(
    bind=True,
    name="planner.runs.tasks.run_part_execute",
    Request=PartRequest,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
)
def run_part_execute(self: Any, part_id: int) -> str:
    """Execute the run part ``part_id`` if it is still QUEUED; a second delivery does nothing.

    Retries only on :class:`django.db.OperationalError` (a database restart or failover),
    with exponential backoff; ``execution`` has released the claim so the retry can run it.
    After the last retry the part stays queued and the reaper sends it again later.
    """
    try:
        return execution.part_execute_now(int(part_id), self.request.id)
    except OperationalError as exc:
        if self.request.retries >= MAX_RETRIES:
            logger.error("part %s: database still unavailable after %s retries", part_id, MAX_RETRIES)
            raise
        raise self.retry(exc=exc, countdown=retry_countdown(self.request.retries)) from exc


@shared_task(name="planner.runs.tasks.runs_reap")
def runs_reap() -> dict[str, int]:
    """Recover lost parts and messages (schedule it with celery beat; see CELERY_BEAT_SCHEDULE)."""
    outcome = services.runs_reap()
    outcome["work_dirs_removed"] = execution.stale_work_dirs_remove()
    return outcome


@celeryd_after_setup.connect
def _on_worker_setup(sender: Any = None, **_: Any) -> None:
    """Remember the worker's node name (``-n worker@host``) for the parts it claims."""
    if sender:
        execution.WORKER_NODE = str(sender)


@worker_ready.connect
def _on_worker_ready(**_: Any) -> None:
    """A worker that starts removes the solver folders its killed predecessors left."""
    try:
        execution.stale_work_dirs_remove()
    except OSError:
        logger.warning("could not clean the solver work folder", exc_info=True)


@shared_task(name="planner.runs.tasks.run_figures_build")
def run_figures_build(run_id: int) -> bool:
    """Build and store a finished run's missing figures (``services.run_figures_request`` sends
    it); running it twice only builds them twice. ``True`` if figures were stored."""
    if not services.run_figures_missing(int(run_id)):
        return False
    return services.run_figures_store(int(run_id)) is not None
