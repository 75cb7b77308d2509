"""What a part's task does, apart from Celery: claim the part, compute it, record the outcome.

Kept out of ``tasks.py`` so that the task stays a thin shell (retries, time limits) and
this code can be read and tested on its own. The life of a part:

1. **Claim**: ``QUEUED -> RUNNING`` with a conditional update that also counts the attempt
   and takes a lease; a duplicate delivery, a cancelled part or a deleted run changes no
   row and the task does nothing.
2. **Work**, through the run's kind (``kinds.py``), under a :class:`Heartbeat` that renews
   the lease from a background thread and a progress callback that records progress and
   notices a cancellation (its conditional write changes nothing any more).
3. **Record**: the part's results (with each variant's share of the figures, when its kind
   splits them) and ``SUCCEEDED`` in one transaction, conditional on the attempt still being
   this worker's; or ``FAILED`` with the reason.
4. **Close**: the last part to end stores the run's figures and then closes the run
   (``services.run_close_if_done``).

Every write of a worker names its attempt, so a worker that was given up on (its lease
lapsed and the reaper queued the part again) can never overwrite the attempt after it.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import Avg, Count, F, Max, OuterRef, QuerySet, Subquery
from django.utils import timezone

from scheduling import Scenario, ScenarioError, SchedulingError, parse_scenario

from .kinds import RunKind, Variant, get_kind
from .models import PROCESS_LOST, Run, RunJobChunk, RunPart, RunResult, Status
from .selectors import run_scenario_document
from .services import part_fail, run_close_if_done

logger = logging.getLogger(__name__)


class PartAborted(Exception):
    """Raised from the progress callback: the part was cancelled, deleted or given up on."""


#: The Celery node name of this worker (``worker@host``, from ``celery worker -n``), set when
#: the worker starts (``planner.runs.tasks``); ``None`` outside a worker.
WORKER_NODE: str | None = None


def worker_name(pid: int | None = None) -> str:
    """``node:pid`` of this process (or of its sibling pool process ``pid``), recorded on the
    parts it claims.

    The node is the Celery worker's name (``-n worker@host``; by default ``celery@`` and the
    machine's host name), so that parts claimed by workers on several machines, or by
    several workers on one, say which worker ran them.
    """
    return f"{WORKER_NODE or socket.gethostname()}:{pid or os.getpid()}"


def _lease_until() -> object:
    return timezone.now() + timedelta(seconds=float(settings.PLANNER_PART_LEASE_S))


@dataclass(frozen=True)
class Claim:
    part_id: int
    run_id: int
    attempt: int
    position: int


def part_claim(part_id: int, task_id: str | None = None) -> Claim | None:
    """Claim, for this worker, the part message ``task_id`` carries, or a fairer one.

    A message is a token: it carries the queued part whose ``task_id`` it is (``part_id``
    for a message no part names any more, as a direct call). Before claiming that part, the
    worker looks for a queued part of a team whose turn comes first (fewer running parts, or
    as many and an older last start: :func:`_fairer_part`) and, if there is one, claims it
    instead and hands its own message over to the part it
    carried: the two parts swap their messages, so every queued part still has exactly one.
    One team's hundreds of queued parts therefore delay another team's part by at most one
    part's duration: the next worker that frees up takes it, whatever message it reads.

    ``None`` when the carried part is not queued (any more): a duplicate delivery, a
    cancelled part or a deleted run.
    """
    for _ in range(3):  # a message being handed over meanwhile: read what it carries again
        carried = _carried_part(part_id, task_id)
        if carried is None:
            return None
        fairer = _fairer_part(carried)
        if fairer is not None:
            with transaction.atomic():
                claim = _claim_queued(fairer["id"])
                if claim is not None:
                    _hand_over(carried, fairer)
                    return claim
        claim = _claim_queued(carried["id"])
        if claim is not None:
            return claim
    return None


_MESSAGE_FIELDS = ("id", "task_id", "sent_at", "sends", "run__team_id", "run__job_count")


def _carried_part(part_id: int, task_id: str | None) -> dict[str, Any] | None:
    """The queued part a message carries: the one with its task id, else ``part_id``."""
    if task_id:
        named = RunPart.objects.filter(task_id=task_id).values("status", *_MESSAGE_FIELDS).first()
        if named is not None:
            return named if named["status"] == Status.QUEUED else None
    return RunPart.objects.filter(pk=part_id, status=Status.QUEUED).values("status", *_MESSAGE_FIELDS).first()


def _fairer_part(carried: dict[str, Any]) -> dict[str, Any] | None:
    """A queued part of a team whose turn comes before the carried part's team's, if any.

    Teams take turns: the team with the fewest running parts first and, among equals, the
    one whose last part started longest ago (a team that never ran first). Within a team, its
    oldest run's first part. Only parts of the same queue (a heavy run's part is left to the
    heavy queue's workers, and the other way round).
    """
    team = carried["run__team_id"]
    waiting = RunPart.objects.filter(status=Status.QUEUED, run__cancel_requested=False)
    waiting = waiting.exclude(run__team_id=team)
    heavy = str(settings.PLANNER_HEAVY_QUEUE or "")
    if heavy:
        limit = int(settings.PLANNER_HEAVY_RUN_JOBS)
        if int(carried["run__job_count"]) >= limit:
            waiting = waiting.filter(run__job_count__gte=limit)
        else:
            waiting = waiting.filter(run__job_count__lt=limit)
    others = set(waiting.values_list("run__team_id", flat=True).distinct()[:1000])
    if not others:
        return None
    teams = [*others, team]
    running = dict(
        RunPart.objects.filter(status=Status.RUNNING, run__team_id__in=teams)
        .values("run__team_id")
        .annotate(n=Count("id"))
        .values_list("run__team_id", "n")
    )
    recent = timezone.now() - timedelta(days=1)
    last_start = dict(
        RunPart.objects.filter(run__team_id__in=teams, started_at__gte=recent)
        .values("run__team_id")
        .annotate(last=Max("started_at"))
        .values_list("run__team_id", "last")
    )

    def turn(t: Any) -> tuple[int, float]:
        last = last_start.get(t)
        return running.get(t, 0), (last.timestamp() if last is not None else float("-inf"))

    first = min(others, key=lambda t: (turn(t), t))
    if turn(first) >= turn(team):
        return None
    return (
        waiting.filter(run__team_id=first)
        .order_by("run__created_at", "run_id", "position")
        .values(*_MESSAGE_FIELDS)
        .first()
    )


def _hand_over(carried: dict[str, Any], taken: dict[str, Any]) -> None:
    """The message that was consumed (``carried``'s) is now the taken part's; the taken part's
    message, still in the broker, carries ``carried`` from now on (with its send record)."""
    RunPart.objects.filter(pk=carried["id"], status=Status.QUEUED).update(
        task_id=taken["task_id"], sent_at=taken["sent_at"], sends=taken["sends"]
    )
    RunPart.objects.filter(pk=taken["id"]).update(
        task_id=carried["task_id"], sent_at=carried["sent_at"], sends=carried["sends"]
    )


def _claim_queued(part_id: int) -> Claim | None:
    """``QUEUED -> RUNNING`` with a conditional update: the attempt counted, the lease taken."""
    now = timezone.now()
    claimed = RunPart.objects.filter(pk=part_id, status=Status.QUEUED).update(
        status=Status.RUNNING,
        attempts=F("attempts") + 1,
        lease_until=_lease_until(),
        worker=worker_name()[:255],
        progress=0.0,
        started_at=now,
        finished_at=None,
    )
    if not claimed:
        return None
    # Only a claim changes ``attempts``, and none can happen while the part is RUNNING.
    row = RunPart.objects.filter(pk=part_id).values("run_id", "attempts", "position").first()
    if row is None:  # the run was deleted in between
        return None
    Run.objects.filter(pk=row["run_id"], status=Status.QUEUED).update(status=Status.RUNNING, started_at=now)
    return Claim(part_id, row["run_id"], row["attempts"], row["position"])


def part_process_lost(task_id: str, what: str, pid: int | None = None) -> bool:
    """Note on the running part of the pool process ``pid`` of this worker (without a pid:
    of message ``task_id``) that its process died, and how.

    ``what`` is the pool's account (``Worker exited prematurely: signal 9 (SIGKILL)``): a
    process killed by signal 9 was, most often, killed by the kernel for lack of memory.

    The process is what identifies the part: its claim recorded ``node:pid``. The message's id
    does not always: a killed part's message goes back to the broker behind everything queued,
    and when the reaper has queued the part again (with a new message) before that stale one
    is read, the stale one claims it (:func:`part_claim`), so the part carries another id.
    """
    hint = " (killed: most often the kernel's out-of-memory killer)" if "SIGKILL" in what else ""
    held = {"worker": worker_name(pid)[:255]} if pid else {"task_id": task_id}
    note = f"{PROCESS_LOST}: {what}{hint}"[:1000]
    return bool(RunPart.objects.filter(status=Status.RUNNING, **held).update(error=note))


def _mine(claim: Claim) -> QuerySet[RunPart]:
    return RunPart.objects.filter(pk=claim.part_id, status=Status.RUNNING, attempts=claim.attempt)


class Heartbeat:
    """Renews the part's lease every ``PLANNER_PART_HEARTBEAT_S`` from a background thread.

    The lease proves the worker process is alive even while the computation makes no
    progress report for a while (an exact solve, building a large result document). When
    a renewal changes no row, the part is no longer this worker's (cancelled, deleted,
    given up on): :attr:`lost` is set and the next progress report stops the computation.
    With an interval of 0 (tests on an in-memory database) only progress reports renew it.
    """

    def __init__(self, claim: Claim, interval_s: float):
        self.claim = claim
        self.interval_s = interval_s
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def renew(self, progress: float | None = None) -> bool:
        fields: dict[str, Any] = {"lease_until": _lease_until()}
        if progress is not None:
            fields["progress"] = round(min(max(float(progress), 0.0), 1.0), 4)
        if not _mine(self.claim).update(**fields):
            self.lost.set()
            return False
        return True

    def _beat(self) -> None:
        try:
            while not self._stop.wait(self.interval_s):
                try:
                    if not self.renew():
                        return
                except OperationalError:
                    logger.warning("part %s: could not renew the lease", self.claim.part_id, exc_info=True)
        finally:
            connection.close()  # this thread's own connection

    def __enter__(self) -> Heartbeat:
        if self.interval_s > 0:
            self._thread = threading.Thread(
                target=self._beat, name=f"heartbeat-{self.claim.part_id}", daemon=True
            )
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)


class ProgressReporter:
    """The library's ``progress`` callback: records the part's progress and the run's.

    At most one write every ``interval_s``. The write is conditional on the part still
    being this worker's attempt, so the same query that reports progress notices a
    cancellation, a deleted run or a part given up on, and raises :class:`PartAborted`.
    """

    def __init__(self, heartbeat: Heartbeat, interval_s: float):
        self.heartbeat = heartbeat
        self.interval_s = interval_s
        self._last: float | None = None

    def __call__(self, fraction: float) -> None:
        if self.heartbeat.lost.is_set():
            raise PartAborted
        now = time.monotonic()
        if self._last is not None and now - self._last < self.interval_s:
            return
        self._last = now
        try:
            mine = self.heartbeat.renew(progress=fraction)
            if mine:
                run_progress_update(self.heartbeat.claim.run_id)
        except OperationalError:
            # Progress is a courtesy; a database hiccup must not cost the computation.
            logger.warning("part %s: could not record progress", self.heartbeat.claim.part_id, exc_info=True)
            return
        if not mine:
            raise PartAborted


def run_progress_update(run_id: int) -> None:
    """The run's progress: the mean of its parts' (one statement)."""
    mean = (
        RunPart.objects.filter(run_id=OuterRef("pk")).order_by().values("run_id").annotate(m=Avg("progress")).values("m")
    )
    Run.objects.filter(pk=run_id, status=Status.RUNNING).update(progress=Subquery(mean[:1]))


# --------------------------------------------------------------------------- solver files


def work_root() -> Path:
    return Path(settings.PLANNER_WORK_DIR)


@contextmanager
def solver_files(part_id: int) -> Iterator[Path]:
    """A private temporary folder for the part's solver files, removed when it ends.

    PuLP's command-line solvers write model and solution files to ``$TMPDIR``; a worker
    killed mid-solve used to leave them in /tmp. The folder's name carries the process id
    so that :func:`stale_work_dirs_remove` can delete the folders of dead processes.
    """
    folder = work_root() / f"part-{part_id}-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    saved = {key: os.environ.get(key) for key in ("TMPDIR", "TMP", "TEMP")}
    saved_tempdir = tempfile.tempdir
    os.environ.update(TMPDIR=str(folder), TMP=str(folder), TEMP=str(folder))
    tempfile.tempdir = str(folder)
    try:
        yield folder
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        tempfile.tempdir = saved_tempdir
        shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stale_work_dirs_remove() -> int:
    """Delete the solver folders of processes that no longer exist (killed workers)."""
    removed = 0
    root = work_root()
    if not root.is_dir():
        return 0
    for folder in root.glob("part-*-*"):
        pid = folder.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed


# --------------------------------------------------------------------------- the run's scenario


@dataclass(frozen=True)
class _Held:
    """A run's scenario as its parts compute on it: parsed, with the kind's once-per-run context."""

    key: tuple[Any, ...]
    scenario: Scenario
    context: Mapping[str, Any]


#: The scenario of the run this process last ran a part of (one run's at most).
_held: _Held | None = None


def _held_key(run: Run) -> tuple[Any, ...]:
    # A run's scenario never changes once it is created (the run keeps its own copy), so its id
    # names it; with its creation time, a test database that hands an id out again does not
    # give a new run the scenario of an old one.
    return (run.pk, run.created_at)


def held_scenario(run: Run, kind: RunKind) -> tuple[Scenario, Mapping[str, Any]]:
    """The run's parsed scenario and the context its parts get, read once per process and run.

    The parts of a run are many Celery tasks, and a worker process often runs several of one
    run in a row (five schedulers on two processes: two or three each). Reading the scenario
    document and parsing it (0.1-0.2 s for 10,000 jobs; seconds for a run that keeps a
    million jobs apart) is then done by the first of them only: the process holds the last
    run's parsed scenario (:class:`~scheduling.Scenario` is immutable) for its next part.

    Bounded: one run's at most, and only a run of at most ``PLANNER_PART_HOLD_JOBS`` jobs
    (about 3.5 MB per 10,000 jobs parsed), so that a process never holds a big run's jobs while
    it computes another run's part; a different run's part drops it before reading its own.

    On a miss this costs a query for the document (one per job chunk for a run that keeps its
    jobs apart) and the parse. Raises :class:`~scheduling.ScenarioError` for a scenario the
    library rejects (nothing is then held).
    """
    global _held
    key = _held_key(run)
    held = _held
    if held is not None and held.key == key:
        return held.scenario, held.context
    _held = None  # never two runs' jobs at once
    # A run that keeps its jobs apart is checked whole here, for the first time: a problem the
    # request could not see fails the part with its path (the caller's ScenarioError).
    scenario = parse_scenario(run_scenario_document(run))
    # ... and what the kind computes once per run is computed from it here (the request never
    # held the jobs): the same scenario, so the same value.
    context = kind.prepare(scenario, run.options) if run.jobs_stored else run.context
    if run.job_count <= int(settings.PLANNER_PART_HOLD_JOBS):
        _held = _Held(key, scenario, context)
    return scenario, context


def held_scenario_drop() -> None:
    """Forget the scenario this process holds (tests; a process about to do other work)."""
    global _held
    _held = None


# --------------------------------------------------------------------------- the part


def _figure_pieces(kind: RunKind, variants: list[Variant], options: Mapping[str, Any]) -> list[Any]:
    """Each variant's share of the run's figures (the kind's ``variant_figures``), built here,
    where the document is at hand. A figure that cannot be drawn must not fail a part whose
    results are fine: the error is logged and the run's figures are built from the full
    documents at the end instead."""
    try:
        return [kind.variant_figures(v, options=options) for v in variants]
    except Exception:
        logger.exception("building a variant's figures failed; they will be built at the end")
        return [None] * len(variants)


def _store(
    claim: Claim, variants: list[Variant], summaries: list[dict[str, Any]], pieces: list[Any]
) -> bool:
    """The part's results and SUCCEEDED in one transaction; False if it is no longer this attempt's."""
    with transaction.atomic():
        if not _mine(claim).update(
            status=Status.SUCCEEDED, progress=1.0, error="", finished_at=timezone.now(), lease_until=None
        ):
            return False
        RunResult.objects.bulk_create(
            RunResult(
                run_id=claim.run_id, part_id=claim.part_id, variant=v.label, position=claim.position,
                summary=summary, result=v.document, figures=piece,
            )
            for v, summary, piece in zip(variants, summaries, pieces, strict=True)
        )
    return True


def _release(claim: Claim) -> None:
    """Give a claimed part back to the queue so that a retry of the task can claim it again."""
    try:
        _mine(claim).update(
            status=Status.QUEUED, progress=0.0, lease_until=None, attempts=F("attempts") - 1
        )
    except OperationalError:
        logger.exception("part %s: could not release the claim; the reaper will re-queue it", claim.part_id)


def part_execute_now(part_id: int, task_id: str | None = None) -> str:
    """Claim the part message ``task_id`` carries (or a fairer one: :func:`part_claim`) and
    execute it; returns the outcome (``skipped`` if it was not QUEUED).

    Only a :class:`django.db.OperationalError` escapes (after the claim is released), for the
    task to retry; every other failure is recorded on the part as FAILED with its reason.
    """
    claim = part_claim(part_id, task_id)
    if claim is None:  # a duplicate delivery, a cancelled part or a deleted run: nothing to do
        logger.info("part %s: not queued any more; skipping", part_id)
        return "skipped"
    part_id = claim.part_id
    try:
        with Heartbeat(claim, float(settings.PLANNER_PART_HEARTBEAT_S)) as heartbeat, solver_files(part_id):
            # Without its scenario: a process that ran one of the run's parts holds it parsed.
            run = Run.objects.only(
                "id", "kind", "jobs_stored", "job_count", "options", "context", "created_at"
            ).get(pk=claim.run_id)
            payload = RunPart.objects.values_list("payload", flat=True).get(pk=part_id)
            try:
                kind = get_kind(run.kind)
            except KeyError:
                return _failed(claim, f"unknown run kind {run.kind!r} (not registered on this worker)")
            scenario, context = held_scenario(run, kind)
            reporter = ProgressReporter(heartbeat, float(settings.PLANNER_RUN_PROGRESS_INTERVAL_S))
            variants = kind.execute(scenario, run.options, context, payload, progress=reporter)
            summaries = [kind.summary(v.document) for v in variants]
            pieces = _figure_pieces(kind, variants, run.options)
        if not _store(claim, variants, summaries, pieces):
            return "discarded"
        run_close_if_done(claim.run_id)
        return "succeeded"
    except PartAborted:
        run_close_if_done(claim.run_id)
        return "aborted"
    except (Run.DoesNotExist, RunPart.DoesNotExist, RunJobChunk.DoesNotExist):  # the run was deleted
        return "deleted"
    except ScenarioError as exc:
        return _failed(claim, "invalid scenario or options:\n" + "\n".join(str(e) for e in exc.errors))
    except SoftTimeLimitExceeded:
        return _failed(claim, f"time limit exceeded after {int(settings.CELERY_TASK_SOFT_TIME_LIMIT)} s")
    except SchedulingError as exc:  # SolverTimeout and other outcomes the library names
        return _failed(claim, f"{type(exc).__name__}: {exc}")
    except OperationalError:
        _release(claim)
        raise
    except Exception as exc:
        logger.exception("part %s failed", part_id)
        return _failed(claim, f"internal error: {type(exc).__name__}: {exc}")


def _failed(claim: Claim, reason: str) -> str:
    part_fail(claim.part_id, claim.attempt, reason)
    return "failed"
