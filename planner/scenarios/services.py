"""Writes of clusters and workloads, and the scenario document they make together.

Everything is validated by the library (:func:`scheduling.parse_scenario`) before anything
is stored; a failed check raises :class:`~planner.core.errors.InputError` (paths into the
request, such as ``entries[1].count``) or :class:`scheduling.ScenarioError` (paths into a
scenario document, such as ``jobs[3].executor.cpu``) and leaves the database unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from planner.catalogue.models import VMType
from planner.core.errors import FieldError, InputError, prefix_rewriter, scenario_errors_as_input
from planner.core.names import clean_description, clean_name, free_name
from planner.teams.access import require_can_change, require_member
from planner.teams.models import Team
from scheduling import LIMITS, Scenario, ScenarioError, parse_scenario
from scheduling.generators import synthetic_jobs
from scheduling.importers import import_rm_csv

from .csv_jobs import workload_jobs_from_csv
from .models import Cluster, ClusterEntry, Workload

__all__ = [
    "ScenarioImport",
    "cluster_create",
    "cluster_delete",
    "cluster_update",
    "scenario_document",
    "scenario_document_and_parsed",
    "scenario_import",
    "workload_create",
    "workload_delete",
    "workload_generate",
    "workload_import_csv",
    "workload_jobs_from_csv",
    "workload_update",
]

_UNSET: Any = object()
DEFAULT_RESOURCES = ["cpu", "mem"]


# --------------------------------------------------------------------------- clusters


def _resolve_entries(team: Team, entries: Any) -> list[tuple[VMType, Any]]:
    """``[{"vm_type": id or name, "count": n}, ...]`` as (VM type of the team, raw count) pairs."""
    if not isinstance(entries, list):
        raise InputError.single("entries", "must be a list of {vm_type, count} objects")
    if len(entries) > LIMITS["vm_types"]:
        raise InputError.single("entries", f"has {len(entries)} entries; the limit is {int(LIMITS['vm_types']):,}")
    catalogue = list(VMType.objects.filter(team=team))
    by_id = {t.pk: t for t in catalogue}
    by_name = {t.name: t for t in catalogue}
    errors: list[FieldError] = []
    pairs: list[tuple[VMType, Any]] = []
    seen: dict[int, int] = {}
    for i, entry in enumerate(entries):
        path = f"entries[{i}]"
        if not isinstance(entry, Mapping):
            errors.append(FieldError(path, "must be an object with vm_type and count"))
            continue
        for key in entry:
            if key not in ("vm_type", "count"):
                errors.append(FieldError(f"{path}.{key}", "unknown field (expected one of: count, vm_type)"))
        ref = entry.get("vm_type")
        vm_type: VMType | None = None
        if isinstance(ref, VMType):
            vm_type = by_id.get(ref.pk)
        elif isinstance(ref, int) and not isinstance(ref, bool):
            vm_type = by_id.get(ref)
        elif isinstance(ref, str):
            vm_type = by_name.get(ref)
        if "vm_type" not in entry:
            errors.append(FieldError(f"{path}.vm_type", "is required"))
            continue
        if vm_type is None:
            errors.append(FieldError(f"{path}.vm_type", f"the team has no VM type {ref!r} (give its id or name)"))
            continue
        if vm_type.pk in seen:
            errors.append(FieldError(f"{path}.vm_type", f"VM type {vm_type.name!r} is already listed in entries[{seen[vm_type.pk]}]"))
            continue
        seen[vm_type.pk] = i
        if "count" not in entry:
            errors.append(FieldError(f"{path}.count", "is required"))
            continue
        pairs.append((vm_type, entry["count"]))
    if errors:
        raise InputError(errors)
    return pairs


def _vm_type_entry(vm_type: VMType, resources: Sequence[str], count: Any) -> dict[str, Any]:
    """A VM type as a document ``vm_types`` entry; capacities of unmodelled resources are left out."""
    return {
        "name": vm_type.name,
        "capacity": {r: vm_type.capacity[r] for r in resources if r in vm_type.capacity},
        "price_per_hour": vm_type.price_per_hour,
        "count": count,
    }


def _cluster_validate(resources: Any, pairs: list[tuple[VMType, Any]], options: Any) -> None:
    """Check the cluster half of a scenario as the library would check the whole document."""
    if not isinstance(resources, list):
        raise InputError.single("resources", "must be a list of resource names")
    names = [t.name for t, _ in pairs]

    def rewrite(e: FieldError) -> FieldError:
        path = e.path
        if path.startswith("vm_types[") and ".capacity" in path:  # the VM type lacks a resource
            index, _, rest = path[len("vm_types[") :].partition("]")
            vm_name = names[int(index)] if index.isdigit() and int(index) < len(names) else "?"
            return FieldError(f"entries[{index}].vm_type", f"VM type {vm_name!r}: {rest.lstrip('.')}: {e.message}")
        return FieldError(prefix_rewriter("vm_types", "entries")(path), e.message)

    doc = {
        "resources": resources,
        "vm_types": [_vm_type_entry(t, [r for r in resources if isinstance(r, str)], count) for t, count in pairs],
        "jobs": [],
        "options": options if options else None,
    }
    try:
        parse_scenario(doc)
    except ScenarioError as exc:
        raise InputError([rewrite(e) for e in exc.errors]) from None


def _cluster_entries_replace(cluster: Cluster, pairs: list[tuple[VMType, Any]]) -> None:
    cluster.entries.all().delete()
    ClusterEntry.objects.bulk_create(
        ClusterEntry(cluster=cluster, vm_type=t, count=int(count), position=i) for i, (t, count) in enumerate(pairs)
    )


def _check_unique(model: type[Cluster] | type[Workload], team: Team | int, name: str, exclude_pk: int | None = None) -> None:
    qs = model.objects.filter(team=team, name=name)
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    if qs.exists():
        raise InputError.single("name", f"the team already has a {model._meta.verbose_name} named {name!r}")


def _clean_options(options: Any) -> dict[str, Any]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InputError.single("options", "must be an object")
    return dict(options)


@transaction.atomic
def cluster_create(
    *,
    team: Team,
    user: Any,
    name: Any,
    entries: Any,
    resources: Any = None,
    description: Any = "",
    options: Any = None,
) -> Cluster:
    """A cluster of ``entries`` (``[{"vm_type": id or name, "count": n}]``) from the team's catalogue."""
    require_member(user, team)
    name = clean_name(name)
    description = clean_description(description)
    resources = list(DEFAULT_RESOURCES) if resources is None else resources
    options = _clean_options(options)
    pairs = _resolve_entries(team, entries)
    _cluster_validate(resources, pairs, options)
    _check_unique(Cluster, team, name)
    try:
        with transaction.atomic():
            cluster = Cluster.objects.create(
                team=team, name=name, description=description, resources=list(resources), options=options, created_by=user
            )
    except IntegrityError:
        raise InputError.single("name", f"the team already has a cluster named {name!r}") from None
    _cluster_entries_replace(cluster, pairs)
    return cluster


@transaction.atomic
def cluster_update(
    *,
    cluster: Cluster,
    user: Any,
    name: Any = _UNSET,
    entries: Any = _UNSET,
    resources: Any = _UNSET,
    description: Any = _UNSET,
    options: Any = _UNSET,
) -> Cluster:
    """Change a cluster; given ``entries`` replace the old ones all at once."""
    require_can_change(user, cluster.team_id, cluster.created_by_id, what="this cluster")
    new_name = cluster.name if name is _UNSET else clean_name(name)
    new_description = cluster.description if description is _UNSET else clean_description(description)
    if resources is _UNSET:
        new_resources = cluster.resources
    else:
        new_resources = list(DEFAULT_RESOURCES) if resources is None else resources
    new_options = cluster.options if options is _UNSET else _clean_options(options)
    if entries is _UNSET:
        current = cluster.entries.select_related("vm_type").order_by("position", "id")
        pairs: list[tuple[VMType, Any]] = [(e.vm_type, e.count) for e in current]
    else:
        pairs = _resolve_entries(cluster.team, entries)
    _cluster_validate(new_resources, pairs, new_options)
    if new_name != cluster.name:
        _check_unique(Cluster, cluster.team_id, new_name, exclude_pk=cluster.pk)
    cluster.name, cluster.description = new_name, new_description
    cluster.resources, cluster.options = list(new_resources), new_options
    try:
        with transaction.atomic():
            cluster.save()
    except IntegrityError:
        raise InputError.single("name", f"the team already has a cluster named {new_name!r}") from None
    if entries is not _UNSET:
        _cluster_entries_replace(cluster, pairs)
    return cluster


def cluster_delete(*, cluster: Cluster, user: Any) -> None:
    """Delete a cluster; runs made from it keep their copy of the scenario."""
    require_can_change(user, cluster.team_id, cluster.created_by_id, what="this cluster")
    cluster.delete()


# --------------------------------------------------------------------------- workloads


def workload_resources(frameworks: Any, jobs: Any) -> list[str]:
    """The resources a workload demands, in order of first mention (``["cpu", "mem"]`` if none)."""
    seen: dict[str, None] = {}
    for items, key in ((frameworks, "task_demand"), (jobs, "executor")):
        if not isinstance(items, list):
            continue
        for item in items:
            vector = item.get(key) if isinstance(item, Mapping) else None
            if isinstance(vector, Mapping):
                for r in vector:
                    seen.setdefault(str(r), None)
    return list(seen) or list(DEFAULT_RESOURCES)


def _workload_validate(frameworks: Any, jobs: Any) -> list[str]:
    """Check frameworks and jobs as a document's would be, on a cluster where every job fits.

    The cluster half is checked when a cluster and a workload are put together
    (:func:`scenario_document`); here only the workload's own rules apply. Returns the
    workload's resources.
    """
    if not isinstance(frameworks, list):
        raise InputError.single("frameworks", "must be a list")
    if not isinstance(jobs, list):
        raise InputError.single("jobs", "must be a list")
    resources = workload_resources(frameworks, jobs)
    allowed = {
        name
        for f in frameworks
        if isinstance(f, Mapping) and isinstance(f.get("allowed_vm_types"), list)
        for name in f["allowed_vm_types"]
        if isinstance(name, str) and name.strip() and "#" not in name and len(name) <= LIMITS["name_chars"]
        and not any(ord(c) < 32 for c in name)
    }
    names = sorted(allowed | {"(any VM type)"})[: int(LIMITS["vm_types"])]
    count = max(1, int(LIMITS["machines"]) // len(names))
    roomy = {r: LIMITS["capacity"] for r in resources}
    doc = {
        "resources": resources,
        "vm_types": [{"name": n, "capacity": roomy, "price_per_hour": 0, "count": count} for n in names],
        "frameworks": frameworks,
        "jobs": jobs,
    }
    try:
        parse_scenario(doc)
    except ScenarioError as exc:
        errors = []
        for e in exc.errors:
            if e.path.startswith("vm_types"):
                continue  # about the stand-in cluster, not the workload
            if e.path.startswith("resources"):
                errors.append(FieldError("jobs", f"resource names (the keys of executor): {e.message}"))
            else:
                errors.append(e)
        raise InputError(errors or exc.errors) from None
    return resources


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
    """A workload of ``frameworks`` and ``jobs`` in the scenario document's format."""
    require_member(user, team)
    name = clean_name(name)
    description = clean_description(description)
    frameworks = [] if frameworks is None else frameworks
    jobs = [] if jobs is None else jobs
    resources = _workload_validate(frameworks, jobs)
    _check_unique(Workload, team, name)
    try:
        with transaction.atomic():
            return Workload.objects.create(
                team=team,
                name=name,
                description=description,
                frameworks=frameworks,
                jobs=jobs,
                job_count=len(jobs),
                resources=resources,
                created_by=user,
            )
    except IntegrityError:
        raise InputError.single("name", f"the team already has a workload named {name!r}") from None


@transaction.atomic
def workload_update(
    *,
    workload: Workload,
    user: Any,
    name: Any = _UNSET,
    description: Any = _UNSET,
    frameworks: Any = _UNSET,
    jobs: Any = _UNSET,
) -> Workload:
    require_can_change(user, workload.team_id, workload.created_by_id, what="this workload")
    new_name = workload.name if name is _UNSET else clean_name(name)
    new_description = workload.description if description is _UNSET else clean_description(description)
    if frameworks is not _UNSET or jobs is not _UNSET:
        new_frameworks = workload.frameworks if frameworks is _UNSET else ([] if frameworks is None else frameworks)
        new_jobs = workload.jobs if jobs is _UNSET else ([] if jobs is None else jobs)
        workload.resources = _workload_validate(new_frameworks, new_jobs)
        workload.frameworks, workload.jobs, workload.job_count = new_frameworks, new_jobs, len(new_jobs)
    if new_name != workload.name:
        _check_unique(Workload, workload.team_id, new_name, exclude_pk=workload.pk)
    workload.name, workload.description = new_name, new_description
    try:
        with transaction.atomic():
            workload.save()
    except IntegrityError:
        raise InputError.single("name", f"the team already has a workload named {new_name!r}") from None
    return workload


def workload_delete(*, workload: Workload, user: Any) -> None:
    """Delete a workload; runs made from it keep their copy of the scenario."""
    require_can_change(user, workload.team_id, workload.created_by_id, what="this workload")
    workload.delete()


CSV_FORMATS = ("jobs", "rm-simulator")


def workload_import_csv(
    *, workload: Workload, user: Any, text: Any, format: str = "jobs", replace: bool = True
) -> Workload:
    """Replace (or extend) the workload's jobs with those of a CSV text.

    ``format="jobs"``: a header ``id,framework,arrival_s,executors,<resources...>,duration_s,
    deadline_s`` (:func:`workload_jobs_from_csv`). ``format="rm-simulator"``: the paper-003
    authors' ``job-id,C,M,E,T_A,T_est,T_D`` (:func:`scheduling.importers.import_rm_csv`).
    Frameworks the jobs name are added with weight 1.
    """
    if not isinstance(text, str):
        raise InputError.single("csv", "must be text")
    if format not in CSV_FORMATS:
        raise InputError.single("format", f"must be one of {', '.join(CSV_FORMATS)}")
    if format == "jobs":
        jobs = workload_jobs_from_csv(text)
    else:
        with scenario_errors_as_input(prefix_rewriter("", "csv")):
            jobs = import_rm_csv(text)["jobs"]
    if not jobs:
        raise InputError.single("csv", "has no jobs")
    all_jobs = jobs if replace else [*workload.jobs, *jobs]
    return workload_update(
        workload=workload, user=user, jobs=all_jobs, frameworks=frameworks_with(list(workload.frameworks), all_jobs)
    )


_GENERATE_KEYS = {
    "jobs",
    "arrival_rate_per_s",
    "executors",
    "executor",
    "integer_sizes",
    "duration_s",
    "deadline_fraction",
    "deadline_slack",
    "frameworks",
    "start_s",
}


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _generate_spec(spec: Mapping[str, Any]) -> dict[str, Any]:
    """Type-check the keywords of :func:`scheduling.generators.synthetic_jobs`; it checks the values."""
    errors: list[FieldError] = []
    out: dict[str, Any] = {}

    def pair(key: str, value: Any, *, integer: bool = False) -> tuple[Any, Any] | None:
        kind = int if integer else (int, float)
        if (
            isinstance(value, (list, tuple))
            and len(value) == 2
            and all(isinstance(v, kind) and not isinstance(v, bool) for v in value)
        ):
            return (value[0], value[1])
        errors.append(FieldError(key, f"must be a [low, high] pair of {'integers' if integer else 'numbers'}"))
        return None

    for key, value in spec.items():
        if key not in _GENERATE_KEYS:
            errors.append(FieldError(key, f"unknown field (expected one of: {', '.join(sorted(_GENERATE_KEYS))})"))
        elif key == "jobs":
            if isinstance(value, int) and not isinstance(value, bool):
                out[key] = value
            else:
                errors.append(FieldError(key, "must be an integer"))
        elif key in ("arrival_rate_per_s", "deadline_fraction", "start_s"):
            if _is_number(value) and (key != "start_s" or 0 <= value <= LIMITS["time_s"]):
                out[key] = float(value)
            else:
                errors.append(FieldError(key, "must be a number" + (" between 0 and 1e9" if key == "start_s" else "")))
        elif key == "integer_sizes":
            if isinstance(value, bool):
                out[key] = value
            else:
                errors.append(FieldError(key, "must be true or false"))
        elif key in ("executors", "duration_s", "deadline_slack"):
            parsed = pair(key, value, integer=key == "executors")
            if parsed is not None:
                out[key] = parsed
        elif key == "executor":
            if not isinstance(value, Mapping) or not value or len(value) > LIMITS["resources"]:
                errors.append(FieldError(key, 'must map each resource to a [low, high] range, e.g. {"cpu": [1, 4]}'))
                continue
            ranges = {}
            for r, rng in value.items():
                parsed = pair(f"executor.{r}", rng)
                if parsed is not None:
                    ranges[str(r)] = parsed
            out[key] = ranges
        elif key == "frameworks":
            if isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value) and len(value) <= LIMITS["frameworks"]:
                out[key] = list(dict.fromkeys(value))
            else:
                errors.append(FieldError(key, "must be a list of framework names"))
    if errors:
        raise InputError(errors)
    return out


def workload_generate(*, workload: Workload, user: Any, seed: Any = 0, spec: Mapping[str, Any] | None = None) -> Workload:
    """Replace the workload's jobs with synthetic ones (:func:`scheduling.generators.synthetic_jobs`).

    The same ``seed`` and ``spec`` always give the same jobs.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise InputError.single("seed", "must be an integer between 0 and 2**63 - 1")
    if spec is not None and not isinstance(spec, Mapping):
        raise InputError.single("", "the generator's settings must be an object")
    kwargs = _generate_spec(spec or {})
    with scenario_errors_as_input():
        jobs = synthetic_jobs(seed=seed, **kwargs)
    return workload_update(
        workload=workload, user=user, jobs=jobs, frameworks=frameworks_with(list(workload.frameworks), jobs)
    )


# --------------------------------------------------------------------------- scenarios


def _scenario_name(cluster: Cluster, workload: Workload) -> str:
    if cluster.name == workload.name:
        return cluster.name
    name = f"{workload.name} on {cluster.name}"
    return name if len(name) <= LIMITS["name_chars"] else name[: int(LIMITS["name_chars"]) - 1] + "…"


def scenario_document_and_parsed(
    cluster: Cluster, workload: Workload, *, name: str | None = None
) -> tuple[dict[str, Any], Scenario]:
    """The version-1 scenario document of a cluster and a workload, and its parsed form.

    Raises :class:`scheduling.ScenarioError` (paths into the document) when the two do not
    fit together, e.g. a job that fits on none of the cluster's VM types.
    """
    if cluster.team_id != workload.team_id:
        raise InputError.single("workload", "must belong to the same team as the cluster")
    entries = cluster.entries.select_related("vm_type").order_by("position", "id")
    resources = list(cluster.resources)
    doc: dict[str, Any] = {"version": 1, "name": name or _scenario_name(cluster, workload)}
    description = workload.description or cluster.description
    if description:
        doc["description"] = description
    doc["resources"] = resources
    doc["vm_types"] = [_vm_type_entry(e.vm_type, resources, e.count) for e in entries]
    doc["frameworks"] = workload.frameworks
    doc["jobs"] = workload.jobs
    if cluster.options:
        doc["options"] = cluster.options
    return doc, parse_scenario(doc)


def scenario_document(cluster: Cluster, workload: Workload, *, name: str | None = None) -> dict[str, Any]:
    """The validated version-1 scenario document of a cluster and a workload (the export)."""
    return scenario_document_and_parsed(cluster, workload, name=name)[0]


@dataclass
class ScenarioImport:
    """What :func:`scenario_import` made."""

    cluster: Cluster
    workload: Workload
    vm_types_created: list[str] = field(default_factory=list)
    vm_types_reused: list[str] = field(default_factory=list)
    # A document's VM type whose name the team already uses for a different VM type is
    # created under a free name; frameworks' allowed_vm_types follow the new name.
    vm_types_renamed: dict[str, str] = field(default_factory=dict)


def _same_vm_type(vm_type: VMType, entry: Mapping[str, Any]) -> bool:
    return dict(vm_type.capacity) == dict(entry["capacity"]) and float(vm_type.price_per_hour) == float(
        entry["price_per_hour"]
    )


def _same_vm_type_named_like(catalogue: Mapping[str, VMType], entry: Mapping[str, Any]) -> VMType | None:
    """A VM type named ``entry["name"]`` or ``entry["name"] (k)`` with the same capacity and price."""
    name = entry["name"]
    suffixed = re.compile(re.escape(name) + r" \((\d+)\)")
    candidates = [(0, catalogue[name])] if name in catalogue else []
    for other, vm_type in catalogue.items():
        match = suffixed.fullmatch(other)
        if match:
            candidates.append((int(match.group(1)), vm_type))
    return next((t for _, t in sorted(candidates, key=lambda c: c[0]) if _same_vm_type(t, entry)), None)


@transaction.atomic
def scenario_import(*, team: Team, user: Any, doc: Any, name: Any = None) -> ScenarioImport:
    """A cluster and a workload (in one transaction) from a version-1 scenario document.

    VM types are taken from the team's catalogue when one of the same name (or the same
    name with a suffix such as `` (2)``, from an earlier import) has the same capacity and
    price; otherwise they are created, under a suffixed name (``m1.large (2)``) when the
    name is taken by a different VM type. Existing VM types are never changed.
    """
    require_member(user, team)
    scenario = parse_scenario(doc)  # ScenarioError: paths into the document
    canonical = scenario.to_dict()
    base_name = clean_name(name if name is not None else scenario.name)
    outcome_created: list[str] = []
    outcome_reused: list[str] = []
    renamed: dict[str, str] = {}
    catalogue = {t.name: t for t in VMType.objects.select_for_update().filter(team=team)}
    pairs: list[tuple[VMType, int]] = []
    for entry in canonical["vm_types"]:
        same = _same_vm_type_named_like(catalogue, entry)
        if same is not None:  # the catalogue has it (perhaps from an earlier import, renamed)
            outcome_reused.append(same.name)
            if same.name != entry["name"]:
                renamed[entry["name"]] = same.name
            pairs.append((same, entry["count"]))
            continue
        vm_name = free_name(entry["name"], catalogue.keys())
        if vm_name != entry["name"]:
            renamed[entry["name"]] = vm_name
        vm_type = VMType.objects.create(
            team=team,
            name=vm_name,
            capacity=dict(entry["capacity"]),
            price_per_hour=float(entry["price_per_hour"]),
            description=f"Imported with the scenario {scenario.name!r}",
            created_by=user,
        )
        catalogue[vm_name] = vm_type
        outcome_created.append(vm_name)
        pairs.append((vm_type, entry["count"]))
    frameworks = canonical["frameworks"]
    if renamed:
        for f in frameworks:
            if f.get("allowed_vm_types") is not None:
                f["allowed_vm_types"] = [renamed.get(n, n) for n in f["allowed_vm_types"]]
    cluster = Cluster.objects.create(
        team=team,
        name=free_name(base_name, set(Cluster.objects.filter(team=team).values_list("name", flat=True))),
        description=scenario.description,
        resources=list(canonical["resources"]),
        options=canonical.get("options") or {},
        created_by=user,
    )
    _cluster_entries_replace(cluster, list(pairs))
    workload = Workload.objects.create(
        team=team,
        name=free_name(base_name, set(Workload.objects.filter(team=team).values_list("name", flat=True))),
        description=scenario.description,
        frameworks=frameworks,
        jobs=canonical["jobs"],
        job_count=len(canonical["jobs"]),
        resources=list(canonical["resources"]),
        created_by=user,
    )
    return ScenarioImport(
        cluster=cluster,
        workload=workload,
        vm_types_created=outcome_created,
        vm_types_reused=outcome_reused,
        vm_types_renamed=renamed,
    )
