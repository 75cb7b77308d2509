"""Uploads: files that become a workload, imported in the background.

* :func:`upload_create` stores the files in the database, a chunk at a time (the request reads
  each file once, from Django's upload buffer), checks the format and its options, and queues
  the import (``tasks.upload_read``) when the transaction commits. It checks nothing of the
  files' content: a million jobs take minutes to read and check, on a worker
  (:mod:`planner.scenarios.importing`).
* :func:`upload_save` turns a ``ready`` upload into a workload, and the machines its files
  describe into VM types (at the prices the user sets) and a cluster, in one transaction; the
  jobs the worker stored move to the workload with one update.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from planner.core.errors import InputError, scenario_errors_as_input
from planner.core.names import check_name_free, clean_name
from planner.teams.access import require_can_change, require_member
from planner.teams.models import Team
from scheduling import FieldError, ScenarioError, name_problem
from scheduling.importers import get_importer
from scheduling.scenario import LIMITS

from ..models import JobChunk, Upload, UploadChunk, UploadFile, Workload
from .documents import scenario_import
from .workloads import workload_create

__all__ = [
    "INLINE_IMPORT_MAX_BYTES",
    "UPLOAD_CHUNK_BYTES",
    "inline_import_check",
    "upload_create",
    "upload_delete",
    "upload_save",
]

#: Bytes of an uploaded file per database row (a worker holds one in memory at a time).
UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024
#: The largest text imported inside its request (the editor's paste or file, a scenario
#: document posted whole): about 50,000 jobs, checked in seconds. Anything larger is an upload,
#: read and checked by a worker, so that no request spends minutes checking a document.
INLINE_IMPORT_MAX_BYTES = 8 * 1024 * 1024


def inline_import_check(size: int, path: str) -> None:
    """:class:`InputError` at ``path`` when ``size`` bytes are too many to import in a request."""
    if size > INLINE_IMPORT_MAX_BYTES:
        raise InputError.single(
            path, f"is larger than {INLINE_IMPORT_MAX_BYTES // 2**20} MB: upload it as a workload "
            "(Workloads, “Upload a workload or trace”, or POST /api/uploads/), imported in the background",
        )


def _file_name(upload: Any, index: int) -> str:
    name = str(getattr(upload, "name", "") or f"file-{index + 1}").rsplit("/", 1)[-1]
    problem = name_problem(name, max_chars=255)
    if problem is not None:
        raise InputError.single(f"files[{index}]", f"its name {problem}")
    return name


def upload_create(
    *, team: Team, user: Any, name: Any, format: Any, options: Any = None, files: Sequence[Any]
) -> Upload:
    """Store ``files`` (Django ``UploadedFile`` objects) as an upload and queue its import.

    ``format`` names an importer of :data:`scheduling.importers.IMPORTERS`; ``options`` are its
    options, checked here (errors at ``options.<name>``). The workload's ``name`` must be free
    now (and is checked again when the upload is saved). Each file may be as large as a scenario
    document (``LIMITS["document_bytes"]``). One insert per 4 MB of each file.
    """
    from ..tasks import upload_read

    require_member(user, team)
    name = clean_name(name)
    check_name_free(Workload, team, name)
    with scenario_errors_as_input():
        importer = get_importer(format)
        checked = importer.parse_options(options)
    if not files:
        raise InputError.single("files", "upload the file to import")
    # A trace format reads any number of files (a table's parts; its tables by their names);
    # the others read one.
    if getattr(importer, "stream", None) is None and len(files) != 1:
        raise InputError.single("files", f"{importer.label} reads one file, not {len(files)}")
    limit = int(LIMITS["document_bytes"])
    names = [_file_name(f, i) for i, f in enumerate(files)]
    for i, f in enumerate(files):
        if int(f.size or 0) > limit:
            raise InputError.single(f"files[{i}]", f"is larger than {limit // 2**20} MB")
    with transaction.atomic():
        upload = Upload.objects.create(
            team=team, created_by=user, name=name, format=importer.name, options=checked,
            total_bytes=sum(int(f.size or 0) for f in files),
        )
        for position, (f, file_name) in enumerate(zip(files, names, strict=True)):
            stored = UploadFile.objects.create(upload=upload, position=position, name=file_name, size=f.size)
            f.seek(0)
            k = 0
            while data := f.read(UPLOAD_CHUNK_BYTES):
                UploadChunk.objects.create(file=stored, position=k, data=data)
                k += 1
        upload_id = upload.pk
        transaction.on_commit(lambda: upload_read.delay(upload_id))
    return upload


def _priced_vm_types(
    vm_types: Sequence[Mapping[str, Any]], prices: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The files' VM types with the prices given (by name), else the files' own."""
    out = []
    missing = []
    for entry in vm_types:
        price = prices.get(entry["name"], entry.get("price_per_hour"))
        if price in (None, ""):
            missing.append(FieldError(f"prices.{entry['name']}", "is required: the files give no price"))
        out.append({**entry, "price_per_hour": price})
    if missing:
        raise InputError(missing)
    return out


def upload_save(*, upload: Upload, user: Any, name: Any = None, prices: Any = None) -> Upload:
    """Make the workload of a ``ready`` upload (and, when its files describe machines, their VM
    types at ``prices``, name -> hourly price, and a cluster of them), all in one transaction.

    A price not given is the files' own; a machine type without one is an error at
    ``prices.<name>``. VM types are found in, or added to, the team's catalogue as a scenario
    import does. The jobs were checked by the worker; whether they fit the cluster is checked
    when they run, as for any workload and cluster.
    """
    require_can_change(user, upload.team_id, upload.created_by_id, what="this upload")
    if prices is not None and not isinstance(prices, Mapping):
        raise InputError.single("prices", "must be an object of VM type names and hourly prices")
    prices = prices or {}
    with transaction.atomic():
        locked = Upload.objects.select_for_update().get(pk=upload.pk)
        if locked.status != Upload.Status.READY:
            raise InputError.single("", f"the upload is not ready to save ({locked.get_status_display()})")
        name = clean_name(name if name not in (None, "") else locked.name)
        doc = dict(locked.document)
        frameworks = list(doc.get("frameworks") or [])
        vm_types = doc.get("vm_types") or []
        cluster = None
        if vm_types:
            priced = _priced_vm_types(vm_types, prices)
            scenario: dict[str, Any] = {
                "name": name, "resources": doc.get("resources"), "vm_types": priced,
                "frameworks": frameworks, "jobs": [],
            }
            for key in ("description", "options"):
                if doc.get(key):
                    scenario[key] = doc[key]
            check_name_free(Workload, locked.team_id, name)
            try:
                outcome = scenario_import(team=locked.team, user=user, doc=scenario, name=name)
            except ScenarioError as exc:
                raise InputError(_price_paths(exc.errors, priced)) from None
            workload, cluster = outcome.workload, outcome.cluster
        else:
            workload = workload_create(
                team=locked.team, user=user, name=name, description=doc.get("description") or "",
                frameworks=frameworks, jobs=[],
            )
        JobChunk.objects.filter(upload=locked).update(workload=workload, upload=None)
        Workload.objects.filter(pk=workload.pk).update(
            job_count=locked.job_count, resources=list(doc.get("resources") or workload.resources)
        )
        workload.refresh_from_db()  # its jobs are the moved chunks now, not the empty list made
        locked.status, locked.workload, locked.cluster = Upload.Status.SAVED, workload, cluster
        locked.stage = "saved"
        locked.save(update_fields=["status", "workload", "cluster", "stage"])
    return locked


def _price_paths(errors: Sequence[FieldError], vm_types: Sequence[Mapping[str, Any]]) -> list[FieldError]:
    """Errors of the VM types' prices at ``prices.<name>``; the others as they are."""
    out = []
    for e in errors:
        for i, entry in enumerate(vm_types):
            if e.path == f"vm_types[{i}].price_per_hour":
                e = FieldError(f"prices.{entry['name']}", e.message)
        out.append(e)
    return out


def upload_delete(*, upload: Upload, user: Any) -> None:
    """Delete an upload, its files and any jobs it stored; a workload saved from it stays."""
    require_can_change(user, upload.team_id, upload.created_by_id, what="this upload")
    upload.delete()
