"""The import of an upload, as a worker runs it (``tasks.upload_read``): read, check, store.

:func:`upload_read_now` claims the upload with a conditional update (``received`` ->
``reading``; or a ``reading`` one whose worker's lease lapsed), so a second delivery of the
message does nothing. It then

1. reads the files from the database a chunk at a time, through the format's importer
   (progress: the share of the bytes read), and records a preview (the first jobs, the VM
   types the files describe) as soon as the importer returns;
2. checks the jobs with :func:`scheduling.parse_workload`; an error about a job is put back on
   its file's line (``jobs.csv: line 5 (job j-17), C: must be > 0``);
3. stores the jobs as the upload's chunks (:mod:`.jobstore`) and ends ``ready``, in one
   transaction, or ends ``failed`` with every error and stores nothing.

Every write is conditional on the attempt (``status=reading, attempts=n``), so a worker that
was given up on cannot overwrite the attempt after it.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import timedelta
from typing import Any, BinaryIO, cast

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

from scheduling import FieldError, ScenarioError, parse_workload
from scheduling.collector import collector_paused
from scheduling.importers import Imported, Source, get_importer
from scheduling.importers.sources import numbered_lines
from scheduling.scenario import LIMITS

from .jobstore import JOBS_PER_CHUNK, jobs_store_chunks
from .models import Upload, UploadChunk, UploadFile
from .services.workloads import frameworks_with

logger = logging.getLogger(__name__)

__all__ = [
    "PREVIEW_JOBS",
    "file_lines",
    "file_source",
    "read_files",
    "upload_fail_now",
    "upload_read_now",
    "uploads_reap",
]

#: Jobs shown in an upload's preview.
PREVIEW_JOBS = 20
# Shares of the progress bar: reading the files, checking the jobs, storing them.
_READ, _CHECK = 0.6, 0.8
# What the preview keeps of the imported document besides its jobs.
_DOCUMENT_KEYS = ("name", "description", "resources", "vm_types", "options")


class _Lost(Exception):
    """The upload is no longer this attempt's (claimed again after a lapsed lease, deleted)."""


def _lease() -> Any:
    return timezone.now() + timedelta(seconds=int(settings.PLANNER_UPLOAD_LEASE_S))


def _claim(upload_id: int) -> int | None:
    """The attempt number this worker now holds, or ``None`` when another holds the upload."""
    now = timezone.now()
    with transaction.atomic():
        upload = (
            Upload.objects.select_for_update()
            .filter(pk=upload_id)
            .filter(Q(status=Upload.Status.RECEIVED) | Q(status=Upload.Status.READING, lease_until__lt=now))
            .first()
        )
        if upload is None:
            return None
        if upload.attempts >= int(settings.PLANNER_PART_MAX_ATTEMPTS):
            # Each attempt's worker was lost (killed, out of memory): a new one would be too.
            Upload.objects.filter(pk=upload_id).update(
                status=Upload.Status.FAILED,
                stage="failed",
                finished_at=now,
                lease_until=None,
                errors=[
                    {
                        "path": "",
                        "message": f"the import's worker was lost {upload.attempts} times "
                        "(killed, or out of memory?)",
                    }
                ],
            )
            return None
        attempt = upload.attempts + 1
        Upload.objects.filter(pk=upload_id).update(
            status=Upload.Status.READING,
            attempts=attempt,
            started_at=now,
            lease_until=_lease(),
            progress=0.0,
            stage="reading the files",
        )
        return attempt


class _Reporter:
    """Writes progress at most every ``PLANNER_RUN_PROGRESS_INTERVAL_S`` and renews the lease."""

    def __init__(self, upload_id: int, attempt: int):
        self.upload_id, self.attempt = upload_id, attempt
        self.last = 0.0

    def __call__(self, progress: float, stage: str, *, force: bool = False, **fields: Any) -> None:
        now = time.monotonic()
        if not force and now - self.last < float(settings.PLANNER_RUN_PROGRESS_INTERVAL_S):
            return
        self.last = now
        changed = Upload.objects.filter(
            pk=self.upload_id, status=Upload.Status.READING, attempts=self.attempt
        ).update(progress=min(1.0, progress), stage=stage[:200], lease_until=_lease(), **fields)
        if not changed:
            raise _Lost()


class _StoredBytes(io.RawIOBase):
    """A stored file's bytes, read from its :class:`UploadChunk` rows one at a time (one query
    each), so a worker never holds more than a chunk; ``on_bytes(n)`` hears of each chunk."""

    def __init__(self, file: UploadFile, on_bytes: Callable[[int], None] | None = None):
        self._pks = list(
            UploadChunk.objects.filter(file=file).order_by("position").values_list("pk", flat=True)
        )
        self._buffer = b""
        self._on_bytes = on_bytes

    def readable(self) -> bool:
        return True

    def readinto(self, target: Any) -> int:
        while not self._buffer and self._pks:
            self._buffer = bytes(UploadChunk.objects.values_list("data", flat=True).get(pk=self._pks.pop(0)))
            if self._on_bytes is not None:
                self._on_bytes(len(self._buffer))
        n = min(len(target), len(self._buffer))
        target[:n] = self._buffer[:n]
        self._buffer = self._buffer[n:]
        return n


def file_source(file: UploadFile, *, on_bytes: Callable[[int], None] | None = None) -> Source:
    """A stored file as the importers read files (:class:`scheduling.importers.Source`): its name
    as messages show it, its bytes from the database (gzipped or plain, as the reader finds)."""
    return Source(file.name, lambda: cast(BinaryIO, io.BufferedReader(_StoredBytes(file, on_bytes))))


def file_lines(file: UploadFile) -> Iterator[str]:
    """The text lines of a stored file (what the worker's importer reads), one chunk in memory."""
    for _, line in numbered_lines(file_source(file)):
        yield line


def _in_file(name: str | None, errors: Iterable[FieldError]) -> list[FieldError]:
    """Errors with the file's name in front, as the importers write them (``jobs.csv: line 5``);
    as they are when the files are several (a trace's origins name the file themselves)."""
    if name is None:
        return list(errors)
    return [FieldError(f"{name}: {e.path}" if e.path not in ("", name) else name, e.message) for e in errors]


def read_files(fmt: str, options: Mapping[str, Any], files: Sequence[UploadFile],
               *, on_bytes: Callable[[int], None] | None = None, preview: int | None = None) -> Imported:
    """The files read by the format's importer (:data:`scheduling.importers.IMPORTERS`), through
    the registry's one entry point for files (``read_sources``; ``preview``: only the first jobs).

    A trace format takes any number of files (its tables recognised by their names); another
    format reads one. :class:`ScenarioError` paths name the file.
    """
    importer = get_importer(fmt)
    sources = [file_source(f, on_bytes=on_bytes) for f in files]
    if preview is not None:
        return importer.preview(sources, dict(options), limit=preview)
    return importer.read_sources(sources, dict(options))


def _checked(imported: Imported, name: str | None) -> tuple[dict[str, Any], list[FieldError]]:
    """The workload's frameworks and resources, and the warnings; ScenarioError on the file's lines."""
    doc = imported.document
    jobs = imported.jobs
    where = name or "files"
    if not jobs:
        raise ScenarioError.single(where, "has no jobs")
    if len(jobs) > LIMITS["jobs"]:
        raise ScenarioError.single(where, f"has {len(jobs):,} jobs; the limit is {int(LIMITS['jobs']):,}")
    declared = [dict(f) for f in doc.get("frameworks") or [] if isinstance(f, Mapping)]
    frameworks = frameworks_with(declared, jobs)
    workload_doc: dict[str, Any] = {"frameworks": frameworks, "jobs": jobs}
    if doc.get("resources") is not None:
        workload_doc["resources"] = doc["resources"]
    try:
        parsed = parse_workload(workload_doc)
    except ScenarioError as exc:
        raise ScenarioError(_in_file(name, imported.locate(exc.errors))) from None
    kept = {k: doc[k] for k in _DOCUMENT_KEYS if k in doc}
    kept["frameworks"] = frameworks
    kept["resources"] = list(parsed.resources)
    return kept, _in_file(name, imported.locate(parsed.warnings))


def _failed(upload_id: int, attempt: int, errors: Sequence[FieldError]) -> str:
    shown = list(errors)[: int(LIMITS["errors_reported"])]
    Upload.objects.filter(pk=upload_id, status=Upload.Status.READING, attempts=attempt).update(
        status=Upload.Status.FAILED,
        errors=[{"path": e.path, "message": e.message} for e in shown],
        stage="failed",
        finished_at=timezone.now(),
        lease_until=None,
    )
    return "failed"


@collector_paused()  # millions of rows, columns and chunks, none in a cycle (scheduling.collector)
def upload_read_now(upload_id: int) -> str:
    """Import the upload ``upload_id`` if it is waiting (see the module); returns what happened."""
    attempt = _claim(upload_id)
    if attempt is None:
        return "skipped"
    upload = Upload.objects.get(pk=upload_id)
    files = list(upload.files.order_by("position"))
    report = _Reporter(upload_id, attempt)
    total = max(1, sum(f.size for f in files))
    done = [0]

    def on_bytes(n: int) -> None:
        done[0] += n
        report(_READ * done[0] / total, f"reading the files ({done[0] / total:.0%})")

    single = files[0].name if len(files) == 1 else None
    name = single or "files"
    try:
        try:  # the first jobs at once, from the importer's preview (a trace reads no further)
            first = read_files(upload.format, upload.options, files, preview=PREVIEW_JOBS)
        except ScenarioError:
            pass  # the whole read below reports it
        else:
            report(0.0, "reading the files", force=True, preview_jobs=list(first.jobs),
                   document={k: first.document[k] for k in _DOCUMENT_KEYS if k in first.document})
        imported = read_files(upload.format, upload.options, files, on_bytes=on_bytes)
        jobs = imported.jobs
        report(
            _READ,
            f"checking {len(jobs):,} jobs",
            force=True,
            preview_jobs=list(jobs[:PREVIEW_JOBS]),
            job_count=len(jobs),
            document={k: imported.document[k] for k in _DOCUMENT_KEYS if k in imported.document},
        )
        document, warnings = _checked(imported, single)
        report(_CHECK, f"storing {len(jobs):,} jobs", force=True)
        groups = [jobs[i : i + JOBS_PER_CHUNK] for i in range(0, len(jobs), JOBS_PER_CHUNK)]
        with transaction.atomic():
            stored = jobs_store_chunks(upload, _reporting(groups, report))
            changed = Upload.objects.filter(
                pk=upload_id, status=Upload.Status.READING, attempts=attempt
            ).update(
                status=Upload.Status.READY,
                progress=1.0,
                stage="ready to save",
                job_count=stored,
                document=document,
                warnings=[
                    {"path": w.path, "message": w.message} for w in warnings[: int(LIMITS["errors_reported"])]
                ],
                errors=[],
                finished_at=timezone.now(),
                lease_until=None,
            )
            if not changed:
                raise _Lost()
    except ScenarioError as exc:
        return _failed(upload_id, attempt, exc.errors)
    except _Lost:
        logger.info("upload %s: attempt %s lost its claim; its work is dropped", upload_id, attempt)
        return "lost"
    except OperationalError:
        _release(upload_id, attempt)
        raise  # the task retries
    except SoftTimeLimitExceeded:
        raise  # the task fails the upload with the reason
    except Exception as exc:  # a bug or a resource exhausted: the upload must not hang in "reading"
        logger.exception("upload %s: the import stopped", upload_id)
        reason = f"could not be imported ({type(exc).__name__})"
        return _failed(upload_id, attempt, [FieldError(name, reason)])
    return "ready"


def _release(upload_id: int, attempt: int) -> None:
    """Give the claim back (the attempt is not counted), if the database answers."""
    try:
        Upload.objects.filter(pk=upload_id, status=Upload.Status.READING, attempts=attempt).update(
            status=Upload.Status.RECEIVED, attempts=attempt - 1, lease_until=None
        )
    except OperationalError:
        logger.warning("upload %s: could not release the claim; its lease will lapse", upload_id)


def upload_fail_now(upload_id: int, message: str) -> None:
    """End a ``reading`` upload ``failed`` with ``message`` (the task's time limit, say)."""
    Upload.objects.filter(pk=upload_id, status=Upload.Status.READING).update(
        status=Upload.Status.FAILED,
        errors=[{"path": "", "message": message}],
        stage="failed",
        finished_at=timezone.now(),
        lease_until=None,
    )


def _reporting(groups: Sequence[Sequence[Any]], report: _Reporter) -> Iterator[Sequence[Any]]:
    for k, group in enumerate(groups):
        share = k / max(1, len(groups))
        report(_CHECK + (1 - _CHECK) * share, f"storing the jobs ({k}/{len(groups)} chunks)")
        yield group


def uploads_reap() -> int:
    """Send the import again of every upload whose message or worker was lost: ``received`` for
    longer than ``PLANNER_PART_RESEND_S``, or ``reading`` with a lapsed lease. A duplicate does
    nothing (the claim). Returns how many were sent."""
    from .tasks import upload_read

    now = timezone.now()
    stale = Upload.objects.filter(
        Q(
            status=Upload.Status.RECEIVED,
            created_at__lt=now - timedelta(seconds=int(settings.PLANNER_PART_RESEND_S)),
        )
        | Q(status=Upload.Status.READING, lease_until__lt=now)
    ).values_list("pk", flat=True)
    sent = 0
    for pk in list(stale):
        upload_read.delay(pk)
        sent += 1
    return sent
