"""The scenario document of a cluster and a workload, and the import of a whole document.

The export is checked by :func:`scheduling.parse_scenario`: a workload that does not fit the
cluster raises :class:`scheduling.ScenarioError` with paths into the document, a summary
first (``jobs: 83 of 200 jobs need an executor larger than any VM type: ...``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.db import transaction

from planner.catalogue.models import VMType
from planner.core.errors import InputError
from planner.core.names import clean_name, free_name
from planner.teams.access import require_member
from planner.teams.models import Team
from scheduling import LIMITS, FieldError, Scenario, ScenarioError, parse_scenario
from scheduling.scenario import SCENARIO_VERSION, JobShapes, check_jobs_fit
from scheduling.scenario.document import DEFAULT_FRAMEWORK

from ..jobstore import StoredJobs, job_chunks, job_shapes, jobs_page, jobs_store
from ..models import Cluster, Workload
from .common import EntrySpec, cluster_entries_replace, uses_market_prices, vm_type_entry

__all__ = [
    "ScenarioImport",
    "scenario_document",
    "scenario_document_and_parsed",
    "scenario_document_chunked",
    "scenario_head_and_parsed",
    "scenario_head_checked",
    "scenario_import",
]


def _scenario_name(cluster: Cluster, workload: Workload) -> str:
    if cluster.name == workload.name:
        return cluster.name
    name = f"{workload.name} on {cluster.name}"
    return name if len(name) <= LIMITS["name_chars"] else name[: int(LIMITS["name_chars"]) - 1] + "…"


#: The frameworks' fields of version 2 (the online sharing simulator: docs/scenario.md, "Version 2").
VERSION_2_FRAMEWORK_FIELDS = ("queues", "offer_policy", "refuse_s", "hold_s")
#: The frameworks' fields of version 3 (UDRF's complex jobs, the network sensitivity of paper
#: 003's network-bound jobs: docs/scenario.md, "Version 3").
VERSION_3_FRAMEWORK_FIELDS = ("complex_jobs", "network_sensitivity")
#: The jobs' field of version 3 (a job's network sensitivity).
VERSION_3_JOB_FIELDS = ("network_sensitivity",)


def document_version(
    frameworks: Any, *, machine_classes: bool = False, jobs: Any = None, market_prices: bool = False
) -> int:
    """The lowest version with every field used, as ``Scenario.to_dict`` writes it: 4 with a VM
    type's reserved or spot VMs, 3 with a framework's or a job's version-3 field or a VM type's
    ``machine_class`` label, else 2 with a framework's version-2 field, else 1."""
    def uses(items: Any, keys: tuple[str, ...]) -> bool:
        return isinstance(items, list) and any(
            isinstance(f, Mapping) and any(key in f for key in keys) for f in items
        )

    if market_prices:
        return 4
    if machine_classes or uses(frameworks, VERSION_3_FRAMEWORK_FIELDS) or uses(jobs, VERSION_3_JOB_FIELDS):
        return 3
    return 2 if uses(frameworks, VERSION_2_FRAMEWORK_FIELDS) else 1


def scenario_document_and_parsed(
    cluster: Cluster, workload: Workload, *, name: str | None = None
) -> tuple[dict[str, Any], Scenario]:
    """The scenario document of a cluster and a workload, and its parsed form.

    Version 1, or version 2 when a framework sets one of its fields (``offer_policy``,
    ``refuse_s``, ``hold_s``, ``queues``), or version 3 when a framework has ``complex_jobs``,
    a framework or a job a ``network_sensitivity``, or a cluster entry a ``machine_class``
    label, as the library writes a scenario.

    Raises :class:`scheduling.ScenarioError` (paths into the document) when the two do not
    fit together, e.g. a job that fits on none of the cluster's VM types.
    """
    if cluster.team_id != workload.team_id:
        raise InputError.single("workload", "must belong to the same team as the cluster")
    entries = list(cluster.entries.select_related("vm_type").order_by("position", "id"))
    resources = list(cluster.resources)
    doc: dict[str, Any] = {
        "version": document_version(
            workload.frameworks, machine_classes=any(e.machine_class is not None for e in entries),
            jobs=workload.jobs,
            market_prices=any(uses_market_prices(e.vm_type, e.reserved_count, e.spot_count) for e in entries),
        ),
        "name": name or _scenario_name(cluster, workload),
    }
    description = workload.description or cluster.description
    if description:
        doc["description"] = description
    doc["resources"] = resources
    doc["vm_types"] = [
        vm_type_entry(e.vm_type, resources, e.count, e.machine_class, e.reserved_count, e.spot_count)
        for e in entries
    ]
    doc["frameworks"] = workload.frameworks
    doc["jobs"] = workload.jobs
    if cluster.options:
        doc["options"] = cluster.options
    return doc, parse_scenario(doc)


_CHUNK_JOB = re.compile(r"^jobs\[(\d+)\](.*)$")


def _scenario_head(
    cluster: Cluster, workload: Workload, *, name: str | None
) -> tuple[dict[str, Any], int]:
    """The document without its jobs (``"jobs": []`` at their place) and the lowest version its
    cluster and frameworks need (:func:`document_version` without the jobs)."""
    if cluster.team_id != workload.team_id:
        raise InputError.single("workload", "must belong to the same team as the cluster")
    entries = list(cluster.entries.select_related("vm_type").order_by("position", "id"))
    resources = list(cluster.resources)
    head: dict[str, Any] = {"version": 1, "name": name or _scenario_name(cluster, workload)}
    description = workload.description or cluster.description
    if description:
        head["description"] = description
    head["resources"] = resources
    head["vm_types"] = [
        vm_type_entry(e.vm_type, resources, e.count, e.machine_class, e.reserved_count, e.spot_count)
        for e in entries
    ]
    head["frameworks"] = workload.frameworks
    head["jobs"] = []
    if cluster.options:
        head["options"] = cluster.options
    version = document_version(
        workload.frameworks,
        machine_classes=any(e.machine_class is not None for e in entries),
        market_prices=any(uses_market_prices(e.vm_type, e.reserved_count, e.spot_count) for e in entries),
    )
    return head, version


def scenario_document_chunked(
    cluster: Cluster, workload: Workload, *, name: str | None = None
) -> tuple[dict[str, Any], Callable[[], Iterator[list[dict[str, Any]]]]]:
    """The scenario document of a cluster and a workload without its jobs (``"jobs": []`` at their
    place), and a function that yields the jobs a chunk at a time: the export of a workload of
    any size, checked as :func:`scenario_document` checks it, in the memory of one chunk.

    The jobs were checked field by field when they were stored; what the cluster adds is
    checked from their columns before any text is written (:func:`scenario_head_checked`: a job
    that fits no VM type is a :class:`scheduling.ScenarioError` at its path in the whole
    workload), so the chunks are read once, when the document is written.
    """
    checked, _ = scenario_head_and_parsed(cluster, workload, name=name)
    return checked, lambda: job_chunks(workload)


def scenario_head_and_parsed(
    cluster: Cluster, workload: Workload, *, jobs_of: Any = None, name: str | None = None
) -> tuple[dict[str, Any], Scenario]:
    """The scenario document of a cluster and a workload without its jobs (``"jobs": []`` at their
    place, the version they need), and its parsed form (the cluster, the frameworks and the
    options; no job), with the jobs checked against the cluster without reading them whole.

    The jobs are the stored jobs of ``jobs_of`` (a run's own copy of the workload's), else of the
    workload; they were checked field by field when they were stored, so what is left to check
    is what the cluster adds, read from their columns (:func:`jobstore.job_shapes`: about a
    second for a million jobs, where :func:`scenario_document_and_parsed` takes minutes):

    * the jobs fit the cluster (:func:`scheduling.scenario.check_jobs_fit`, the rule
      :func:`scheduling.parse_scenario` applies, with the same messages and paths);
    * their executors give the cluster's resources and each framework they name is declared:
      the first job that breaks one of these is read and checked by the library, and its
      errors are raised at its path (one job tells what every other shares).

    Raises :class:`scheduling.ScenarioError` (paths into the document) or :class:`InputError`.
    """
    head, version = _scenario_head(cluster, workload, name=name)
    return scenario_head_checked({**head, "version": version}, workload if jobs_of is None else jobs_of)


def scenario_head_checked(head: Mapping[str, Any], owner: Any) -> tuple[dict[str, Any], Scenario]:
    """A scenario document without its jobs (``"jobs": []``) checked with the stored jobs of
    ``owner`` (a workload, or a run that keeps its jobs apart) without reading them whole, as
    :func:`scenario_head_and_parsed` checks a cluster's: the document with its ``version``
    raised to what the jobs need, and its parsed form (no job).

    Raises :class:`scheduling.ScenarioError` (paths into the document).
    """
    parsed = parse_scenario({**head, "version": SCENARIO_VERSION})
    columns, paths = job_shapes(owner, parsed.resources)
    declared = {f.name for f in parsed.frameworks}
    named = columns["framework"]
    resources_differ = bool(len(named)) and (
        {p[1] for p in paths if p[0] == "executor"} != set(parsed.resources)
        or bool(np.isnan(columns["executor"]).any())
    )
    suspects = [0] if resources_differ else []
    for framework in {f for f in named.tolist() if f is not None and f not in declared}:
        suspects.append(int(np.flatnonzero(named == framework)[0]))
    if suspects:
        suspects = sorted(set(suspects))
        jobs = [jobs_page(owner, offset=i, limit=1)[0] for i in suspects]
        try:
            parse_scenario({**head, "version": SCENARIO_VERSION, "jobs": jobs})
        except ScenarioError as exc:
            raise ScenarioError(_renumbered(exc.errors, suspects)) from None
    shapes = JobShapes(
        frameworks=np.array([DEFAULT_FRAMEWORK if f is None else f for f in named.tolist()], dtype=object),
        executor=columns["executor"],
        executors=columns["executors"].astype(np.int64),
    )
    stored = StoredJobs(owner)
    check_jobs_fit(parsed, shapes, job_id=lambda i: stored[i].get("id"))
    version = max(3 if ("network_sensitivity",) in paths else 1, int(head.get("version") or 1))
    return {**head, "jobs": [], "version": version}, parsed


def _renumbered(errors: Any, indices: list[int]) -> list[FieldError]:
    """Errors of a document of the jobs ``indices`` at their paths in the whole workload."""
    out = []
    for e in errors:
        m = _CHUNK_JOB.match(e.path)
        out.append(FieldError(f"jobs[{indices[int(m.group(1))]}]{m.group(2)}", e.message) if m else e)
    return out


def scenario_document(cluster: Cluster, workload: Workload, *, name: str | None = None) -> dict[str, Any]:
    """The validated scenario document of a cluster and a workload (the export)."""
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
    # What the document has that is valid but probably not meant, with document paths.
    warnings: tuple[FieldError, ...] = ()


def _market_prices(entry: Mapping[str, Any]) -> tuple[float | None, float | None, float]:
    """A document VM type's reserved and spot prices and spot interruption rate (version 4)."""
    reserved, spot = entry.get("reserved") or {}, entry.get("spot") or {}
    return (
        None if "price_per_hour" not in reserved else float(reserved["price_per_hour"]),
        None if "price_per_hour" not in spot else float(spot["price_per_hour"]),
        float(spot.get("interruptions_per_hour", 0.0)),
    )


def _same_vm_type(vm_type: VMType, entry: Mapping[str, Any]) -> bool:
    reserved, spot, interruptions = _market_prices(entry)
    return (
        dict(vm_type.capacity) == dict(entry["capacity"])
        and float(vm_type.price_per_hour) == float(entry["price_per_hour"])
        # A catalogue type without a market's price fits a document that does not use that market.
        and (reserved is None or vm_type.reserved_price_per_hour == reserved)
        and (spot is None or (vm_type.spot_price_per_hour == spot
                              and vm_type.spot_interruptions_per_hour == interruptions))
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


def _classes_kept(specs: list[EntrySpec], names: list[str]) -> tuple[list[EntrySpec], dict[str, str]]:
    """The entries, and the classes renamed, that keep the document's machine classes.

    ``names`` are the document's VM type names, one per entry. An unlabelled VM type stored
    under another name is a class of the new name (the tasks must follow it), unless a label
    is its old name (the class has other VM types) or its new one (it would join that class):
    then it is labelled with its old name.
    """
    labels = {s.machine_class for s in specs if s.machine_class is not None}
    out: list[EntrySpec] = []
    classes_renamed: dict[str, str] = {}
    for spec, old in zip(specs, names, strict=True):
        new = spec.vm_type.name
        if spec.machine_class is None and new != old:
            if old in labels or new in labels:
                spec = spec._replace(machine_class=old)
            else:
                classes_renamed[old] = new
        out.append(spec)
    return out, classes_renamed


@transaction.atomic
def scenario_import(*, team: Team, user: Any, doc: Any, name: Any = None) -> ScenarioImport:
    """A cluster and a workload (in one transaction) from a scenario document (version 1 to 4).

    VM types are taken from the team's catalogue when one of the same name (or the same
    name with a suffix such as `` (2)``, from an earlier import) has the same capacity and
    price; otherwise they are created, under a suffixed name (``m1.large (2)``) when the
    name is taken by a different VM type. Existing VM types are never changed.

    Machine-class labels (``vm_types[].machine_class``, version 3) are kept on the cluster's
    entries. A VM type without one is a class named after it: when it is stored under another
    name, the complex jobs' tasks follow the new name, or, when a label of the document is
    its old or new name, it is labelled with its old name, so that every class keeps its
    name and its VM types.
    """
    require_member(user, team)
    scenario = parse_scenario(doc)  # ScenarioError: paths into the document
    canonical = scenario.to_dict()
    base_name = clean_name(name if name is not None else scenario.name)
    outcome_created: list[str] = []
    outcome_reused: list[str] = []
    renamed: dict[str, str] = {}
    catalogue = {t.name: t for t in VMType.objects.select_for_update().filter(team=team)}
    specs: list[EntrySpec] = []
    for entry, parsed in zip(canonical["vm_types"], scenario.vm_types, strict=True):
        label = entry.get("machine_class")
        markets = parsed.market_counts()
        same = _same_vm_type_named_like(catalogue, entry)
        if same is not None:  # the catalogue has it (perhaps from an earlier import, renamed)
            outcome_reused.append(same.name)
            if same.name != entry["name"]:
                renamed[entry["name"]] = same.name
            specs.append(EntrySpec(same, entry["count"], label, markets["reserved"], markets["spot"]))
            continue
        reserved_price, spot_price, interruptions = _market_prices(entry)
        vm_name = free_name(entry["name"], catalogue.keys())
        if vm_name != entry["name"]:
            renamed[entry["name"]] = vm_name
        vm_type = VMType.objects.create(
            team=team,
            name=vm_name,
            capacity=dict(entry["capacity"]),
            price_per_hour=float(entry["price_per_hour"]),
            reserved_price_per_hour=reserved_price,
            spot_price_per_hour=spot_price,
            spot_interruptions_per_hour=interruptions,
            description=f"Imported with the scenario {scenario.name!r}",
            created_by=user,
        )
        catalogue[vm_name] = vm_type
        outcome_created.append(vm_name)
        specs.append(EntrySpec(vm_type, entry["count"], label, markets["reserved"], markets["spot"]))
    specs, classes_renamed = _classes_kept(specs, [entry["name"] for entry in canonical["vm_types"]])
    frameworks = canonical["frameworks"]
    for f in frameworks:
        if f.get("allowed_vm_types") is not None:
            f["allowed_vm_types"] = [renamed.get(n, n) for n in f["allowed_vm_types"]]
        for job in f.get("complex_jobs", []):
            for task in job["tasks"]:
                task["machine_class"] = classes_renamed.get(task["machine_class"], task["machine_class"])
    cluster = Cluster.objects.create(
        team=team,
        name=free_name(base_name, set(Cluster.objects.filter(team=team).values_list("name", flat=True))),
        description=scenario.description,
        resources=list(canonical["resources"]),
        options=canonical.get("options") or {},
        created_by=user,
    )
    cluster_entries_replace(cluster, specs)
    workload = Workload.objects.create(
        team=team,
        name=free_name(base_name, set(Workload.objects.filter(team=team).values_list("name", flat=True))),
        description=scenario.description,
        frameworks=frameworks,
        job_count=len(canonical["jobs"]),
        resources=list(canonical["resources"]),
        created_by=user,
    )
    jobs_store(workload, canonical["jobs"])
    workload.jobs_known(canonical["jobs"])
    return ScenarioImport(
        cluster=cluster,
        workload=workload,
        vm_types_created=outcome_created,
        vm_types_reused=outcome_reused,
        vm_types_renamed=renamed,
        warnings=scenario.warnings,
    )
