"""Writes of workloads: frameworks and jobs, imported through the library's importers or generated.

A workload is checked by :func:`scheduling.parse_workload`, its own rules without a cluster
(the cluster's are checked when the two make a scenario). A failed check raises
:class:`~planner.core.errors.InputError` with paths into the document (``jobs[3].executor.cpu``),
or into the imported file (``line 5 (job j-17), cpu``), and leaves the database unchanged.
What is valid but probably not meant comes back as the returned workload's ``warnings``.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from planner.core.errors import InputError, scenario_errors_as_input
from planner.core.names import (
    UNSET,
    check_name_free,
    clean_description,
    clean_name,
    name_and_description,
    name_kept_free,
)
from planner.teams.access import require_can_change, require_member
from planner.teams.models import Team
from scheduling import Workload as ParsedWorkload
from scheduling import parse_workload
from scheduling.generators import generate_jobs, parse_generator_spec
from scheduling.importers import get_importer

from ..jobstore import jobs_store
from ..models import Cluster, Workload

__all__ = [
    "frameworks_with",
    "workload_create",
    "workload_delete",
    "workload_generate",
    "workload_import",
    "workload_import_csv",
    "workload_update",
]


def _workload_check(frameworks: Any, jobs: Any) -> ParsedWorkload:
    """The library's verdict on frameworks and jobs; :class:`InputError` with document paths."""
    if not isinstance(frameworks, list):
        raise InputError.single("frameworks", "must be a list")
    if not isinstance(jobs, list):
        raise InputError.single("jobs", "must be a list")
    with scenario_errors_as_input():
        return parse_workload({"frameworks": frameworks, "jobs": jobs})


def frameworks_with(frameworks: list[dict[str, Any]], jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``frameworks`` plus a weight-1 entry for each framework the jobs name but it lacks."""
    declared = {f.get("name") for f in frameworks if isinstance(f, Mapping)}
    out = list(frameworks)
    for job in jobs:
        name = job.get("framework") if isinstance(job, Mapping) else None
        if isinstance(name, str) and name not in declared:
            declared.add(name)
            out.append({"name": name, "weight": 1})
    return out


@transaction.atomic
def workload_create(
    *, team: Team, user: Any, name: Any, description: Any = "", frameworks: Any = None, jobs: Any = None
) -> Workload:
    """A workload of ``frameworks`` and ``jobs`` in the scenario document's format.

    The returned workload's ``warnings`` list what is valid but probably not meant.
    """
    require_member(user, team)
    name = clean_name(name)
    description = clean_description(description)
    frameworks = [] if frameworks is None else frameworks
    jobs = [] if jobs is None else jobs
    parsed = _workload_check(frameworks, jobs)
    check_name_free(Workload, team, name)
    with name_kept_free(Workload, name):
        workload = Workload.objects.create(
            team=team,
            name=name,
            description=description,
            frameworks=frameworks,
            job_count=len(jobs),
            resources=list(parsed.resources),
            created_by=user,
        )
    jobs_store(workload, jobs)
    workload.jobs_known(jobs)
    workload.warnings = parsed.warnings
    return workload


@transaction.atomic
def workload_update(
    *,
    workload: Workload,
    user: Any,
    name: Any = UNSET,
    description: Any = UNSET,
    frameworks: Any = UNSET,
    jobs: Any = UNSET,
) -> Workload:
    """Change a workload; the returned workload's ``warnings`` are those of its new jobs."""
    require_can_change(user, workload.team_id, workload.created_by_id, what="this workload")
    new_name, new_description = name_and_description(workload, name, description)
    warnings = workload.warnings
    new_jobs: list[Any] | None = None
    if frameworks is not UNSET or jobs is not UNSET:
        new_frameworks = (
            workload.frameworks if frameworks is UNSET else ([] if frameworks is None else frameworks)
        )
        new_jobs = workload.jobs if jobs is UNSET else ([] if jobs is None else jobs)
        parsed = _workload_check(new_frameworks, new_jobs)
        warnings = parsed.warnings
        workload.resources = list(parsed.resources)
        workload.frameworks, workload.job_count = new_frameworks, len(new_jobs)
    if new_name != workload.name:
        check_name_free(Workload, workload.team_id, new_name, exclude_pk=workload.pk)
    workload.name, workload.description = new_name, new_description
    with name_kept_free(Workload, new_name):
        workload.save()
    if new_jobs is not None and jobs is not UNSET:
        jobs_store(workload, new_jobs)
        workload.jobs_known(new_jobs)
    workload.warnings = warnings
    return workload


def workload_delete(*, workload: Workload, user: Any) -> None:
    """Delete a workload; runs made from it keep their copy of the scenario."""
    require_can_change(user, workload.team_id, workload.created_by_id, what="this workload")
    workload.delete()


def workload_import(
    *,
    workload: Workload,
    user: Any,
    text: Any,
    format: Any = "jobs",
    replace: bool = True,
    options: Any = None,
) -> Workload:
    """Replace (or extend) the workload's jobs with those of a file in one of the library's formats.

    ``format`` names an importer of :data:`scheduling.importers.IMPORTERS` (``jobs``,
    ``rm-simulator``, ``scenario-json``, ...) and ``options`` its options. Frameworks the
    file declares or its jobs name are added (weight 1 unless declared). Errors about the
    imported jobs name the file's line, the job and the column (``line 5 (job j-17), C``).
    """
    if not isinstance(text, str):
        raise InputError.single("csv", "must be text")
    with scenario_errors_as_input():
        importer = get_importer(format)
        imported = importer.read(io.StringIO(text), importer.parse_options(options))
    jobs = imported.jobs
    if not jobs:
        raise InputError.single("csv", "has no jobs")
    first_job = 0 if replace else len(workload.jobs)
    all_jobs = jobs if replace else [*workload.jobs, *jobs]
    declared = list(workload.frameworks)
    known = {f.get("name") for f in declared if isinstance(f, Mapping)}
    declared += [
        f
        for f in imported.document.get("frameworks") or []
        if isinstance(f, Mapping) and f.get("name") not in known
    ]
    try:
        return workload_update(
            workload=workload, user=user, jobs=all_jobs, frameworks=frameworks_with(declared, all_jobs)
        )
    except InputError as exc:
        raise InputError(imported.locate(exc.errors, first_job=first_job)) from None


#: The name the planner's demo command (and older callers) know it by.
workload_import_csv = workload_import


def workload_generate(
    *,
    workload: Workload,
    user: Any,
    seed: Any = 0,
    spec: Mapping[str, Any] | None = None,
    cluster: Cluster | None = None,
) -> Workload:
    """Replace the workload's jobs with synthetic ones (:func:`scheduling.generators.generate_jobs`).

    The same ``seed`` and ``spec`` always give the same jobs. With a ``cluster`` of the
    workload's team, executors are proposed only in sizes that fit a VM type of it that the
    job's framework may use (its ``allowed_vm_types``), and no more than those VMs hold.
    """
    if spec is not None and not isinstance(spec, Mapping):
        raise InputError.single("", "the generator's settings must be an object")
    vm_types = None
    if cluster is not None:
        if cluster.team_id != workload.team_id:
            raise InputError.single("cluster", "must belong to the workload's team")
        entries = cluster.entries.select_related("vm_type").order_by("position", "id")
        vm_types = [
            {"name": e.vm_type.name, "capacity": dict(e.vm_type.capacity), "count": e.count} for e in entries
        ]
    allowed = {
        f["name"]: f["allowed_vm_types"]
        for f in workload.frameworks
        if isinstance(f, Mapping)
        and isinstance(f.get("name"), str)
        and isinstance(f.get("allowed_vm_types"), list)
    }
    with scenario_errors_as_input():
        parsed = parse_generator_spec({**(spec or {}), "seed": seed})
        jobs = generate_jobs(parsed, vm_types=vm_types, allowed_vm_types=allowed)
    return workload_update(
        workload=workload, user=user, jobs=jobs, frameworks=frameworks_with(list(workload.frameworks), jobs)
    )
