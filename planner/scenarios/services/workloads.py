"""Writes of workloads: frameworks and jobs, imported through the library's importers or generated.

A workload is checked by :func:`scheduling.parse_workload`, its own rules without a cluster
(the cluster's are checked when the two make a scenario). A failed check raises
:class:`~planner.core.errors.InputError` with paths into the document (``jobs[3].executor.cpu``),
or into the imported file (``line 5 (job j-17), cpu``), and leaves the database unchanged.
What is valid but probably not meant comes back as the returned workload's ``warnings``.
"""

from __future__ import annotations

import io
import re
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
from scheduling import LIMITS, FieldError, ScenarioError, parse_workload
from scheduling import Workload as ParsedWorkload
from scheduling.generators import generate_jobs, parse_generator_spec
from scheduling.importers import get_importer

from ..jobstore import PAGE_SIZE_MAX, jobs_column, jobs_replace_range, jobs_store
from ..models import Cluster, Workload

__all__ = [
    "frameworks_with",
    "workload_create",
    "workload_delete",
    "workload_generate",
    "workload_import",
    "workload_import_csv",
    "workload_update",
    "workload_update_page",
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
    from .uploads import inline_import_check  # uploads imports this module

    inline_import_check(len(text), "csv")
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


def _page_range(workload: Workload, offset: Any, count: Any, jobs: Any) -> tuple[int, int]:
    problems = []
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= workload.job_count:
        problems.append(FieldError("page.offset", f"must be a whole number from 0 to {workload.job_count}"))
    elif (
        isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= workload.job_count - offset
    ):
        problems.append(
            FieldError("page.count", f"must be a whole number from 0 to {workload.job_count - offset}")
        )
    if not isinstance(jobs, list):
        problems.append(FieldError("page.jobs", "must be a list"))
    elif len(jobs) > PAGE_SIZE_MAX * 2:
        problems.append(
            FieldError("page.jobs", f"holds {len(jobs):,} jobs; a page saves at most {PAGE_SIZE_MAX * 2:,}")
        )
    if problems:
        raise InputError(problems)
    new_total = workload.job_count - count + len(jobs)
    if new_total > LIMITS["jobs"]:
        raise InputError.single(
            "page.jobs", f"would make {new_total:,} jobs; the limit is {int(LIMITS['jobs']):,}"
        )
    return offset, count


def _shift(errors: Any, offset: int) -> list[FieldError]:
    """A page's errors at the jobs' places in the whole workload (``jobs[3]`` -> ``jobs[50003]``)."""
    out = []
    for e in errors:
        m = _PAGE_JOB.match(e.path)
        out.append(FieldError(f"jobs[{int(m.group(1)) + offset}]{m.group(2)}", e.message) if m else e)
    return out


_PAGE_JOB = re.compile(r"^jobs\[(\d+)\](.*)$")


@transaction.atomic
def workload_update_page(
    *,
    workload: Workload,
    user: Any,
    offset: Any,
    count: Any,
    jobs: Any,
    frameworks: Any = UNSET,
    name: Any = UNSET,
    description: Any = UNSET,
) -> Workload:
    """Replace jobs ``offset:offset + count`` of a paged workload by ``jobs`` (one page of the
    editor, with rows added or removed), and its frameworks, name or description.

    The page's jobs are checked with the frameworks as :func:`workload_update` checks a whole
    workload (errors at their places in the whole workload, ``jobs[50003].executor.cpu``); the
    rest is checked against the stored jobs a column at a time: ids stay unique, and every
    framework a stored job names stays declared. Only the chunks the page touches are written.
    """
    require_can_change(user, workload.team_id, workload.created_by_id, what="this workload")
    workload = Workload.objects.select_for_update().get(pk=workload.pk)
    offset, count = _page_range(workload, offset, count, jobs)
    new_name, new_description = name_and_description(workload, name, description)
    new_frameworks = (
        workload.frameworks if frameworks is UNSET else ([] if frameworks is None else frameworks)
    )
    if not isinstance(new_frameworks, list):
        raise InputError.single("frameworks", "must be a list")
    with scenario_errors_as_input():
        try:
            parsed = parse_workload(
                {"frameworks": new_frameworks, "jobs": jobs}, resources=list(workload.resources)
            )
        except ScenarioError as exc:
            raise ScenarioError(_shift(exc.errors, offset)) from None
    page_ids = {str(job.get("id")): k for k, job in enumerate(jobs) if isinstance(job, Mapping)}
    declared = {f.get("name") for f in new_frameworks if isinstance(f, Mapping)}
    problems: list[FieldError] = []
    missing: set[str] = set()
    for first, ids in jobs_column(workload, "id"):
        for k, job_id in enumerate(ids):
            index = first + k
            if offset <= index < offset + count:
                continue
            if str(job_id) in page_ids:
                problems.append(
                    FieldError(
                        f"jobs[{offset + page_ids[str(job_id)]}].id",
                        f"job {index + 1:,} of the workload has the id {job_id!r}",
                    )
                )
    for first, names in jobs_column(workload, "framework"):
        for k, fw_name in enumerate(names):
            if not offset <= first + k < offset + count and fw_name is not None and fw_name not in declared:
                missing.add(fw_name)
    if missing:
        problems.append(
            FieldError(
                "frameworks",
                f"jobs on other pages belong to {', '.join(sorted(map(repr, missing)))}, "
                "which must stay declared",
            )
        )
    if problems:
        raise InputError(problems)
    if new_name != workload.name:
        check_name_free(Workload, workload.team_id, new_name, exclude_pk=workload.pk)
    workload.name, workload.description, workload.frameworks = new_name, new_description, new_frameworks
    workload.job_count = jobs_replace_range(workload, offset, count, jobs)
    with name_kept_free(Workload, new_name):
        workload.save()
    workload.warnings = tuple(_shift(parsed.warnings, offset))
    return workload
