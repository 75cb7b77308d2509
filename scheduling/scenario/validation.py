"""Validation: a scenario document, or a workload alone, read field by field into dataclasses.

Validation collects *every* problem with its path (``jobs[3].executor.cpu: must be > 0``)
instead of stopping at the first, rejects NaN, infinities, negative or absurd values,
duplicate names, names that cannot be stored and dangling references, and enforces the size
limits in :data:`~scheduling.scenario.LIMITS` so that a hostile document cannot exhaust
memory. Warnings (valid, but probably not meant) come back with the parse, with paths too.

This module reads the top-level document (its keys, version, resources and VM types) and checks
that the jobs fit the cluster; the frameworks and the jobs are read by
:mod:`scheduling.scenario.workload_fields`.

>>> workload = parse_workload({
...     "frameworks": [{"name": "etl"}],
...     "jobs": [{"id": "j1", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1, "gpu": 1},
...               "duration_s": 600, "deadline_s": 300}],
... })
>>> workload.resources
('cpu', 'gpu')
>>> [w.path for w in workload.warnings]
['jobs[0].framework', 'jobs[0].deadline_s']
>>> print(workload.warnings[1].message)
is shorter than the job's duration (300 s < 600 s): the job misses it even on an idle cluster
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..collector import collector_paused
from ..errors import ScenarioError
from ..jsontext import JSONSyntaxError, loads_strict
from .checks import (
    Problems,
    entries,
    first_of_its_name,
    listed,
    name,
    name_problem,
    number,
    shown,
    text_problem,
    unknown_keys,
    vector,
)
from .complex_jobs import check_complex_jobs_fit, uses_version_3
from .document import (
    Scenario,
    VMType,
    Workload,
)
from .fit import JobShapes, add_fit_problems, executors_that_fit
from .limits import DEFAULT_RESOURCES, LIMITS, READABLE_VERSIONS
from .options import SimulationOptions, read_options
from .prices import PRICE_FIELDS, read_market_prices, uses_version_4
from .workload_fields import _parse_frameworks, _parse_jobs, _refuse_version_2_fields

__all__ = [
    "executors_that_fit",
    "load_scenario_json",
    "parse_scenario",
    "parse_workload",
    "read_json_text",
]

_SCENARIO_KEYS = ("version", "name", "description", "resources", "vm_types", "frameworks", "jobs", "options")
_WORKLOAD_KEYS = ("resources", "frameworks", "jobs")


# --------------------------------------------------------------------------- the parsers


@collector_paused()
def parse_scenario(doc: Any) -> Scenario:
    """Validate a scenario document (version 1, 2, 3 or 4) and return a :class:`Scenario`.

    Raises :class:`~scheduling.errors.ScenarioError` listing every problem, each with its
    path; when jobs do not fit the cluster, the errors begin with a summary (path ``jobs``)
    before the per-job detail. Warnings come back as ``Scenario.warnings``.

    >>> doc = {
    ...     "name": "tiny",
    ...     "vm_types": [{"name": "small", "capacity": {"cpu": 4, "mem": 16},
    ...                   "price_per_hour": 0.24, "count": 2}],
    ...     "jobs": [{"id": "j1", "arrival_s": 0, "executors": 2,
    ...               "executor": {"cpu": 2, "mem": 4}, "duration_s": 60}],
    ... }
    >>> scenario = parse_scenario(doc)
    >>> scenario.resources, scenario.machine_names(), scenario.warnings
    (('cpu', 'mem'), ['small#1', 'small#2'], ())
    >>> parse_scenario({**doc, "jobs": [{**doc["jobs"][0], "executor": {"cpu": 6, "mem": 4}}]})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: jobs: 1 of 1 jobs need an executor larger than any VM type: \
largest executor 6 cpu, largest VM 4 cpu
    jobs[0].executor: does not fit on any VM type the job's framework may use
    """
    problems = Problems()
    if not isinstance(doc, Mapping):
        raise ScenarioError.single("", "the scenario must be a JSON object")
    unknown_keys(doc, _SCENARIO_KEYS, "", problems)
    version = doc.get("version")
    if "version" in doc and (isinstance(version, bool) or version not in READABLE_VERSIONS):
        readable = ", ".join(str(v) for v in READABLE_VERSIONS[:-1]) + f" and {READABLE_VERSIONS[-1]}"
        problems.add("version", f"unsupported version {version!r}; this program reads versions {readable}")
    elif version == 1:
        _refuse_version_2_fields(doc.get("frameworks"), problems)
    if version in (1, 2):
        for path in uses_version_3(doc.get("vm_types"), doc.get("frameworks"), doc.get("jobs")):
            problems.add(path, f"is a version-3 field (the document says version {version})")
    if version in (1, 2, 3):
        for path in uses_version_4(doc.get("vm_types")):
            problems.add(path, f"is a version-4 field (the document says version {version})")

    scenario_name = "Untitled scenario"
    if "name" in doc:
        scenario_name = name(doc["name"], "name", problems) or scenario_name
    description = ""
    if "description" in doc:
        problem = text_problem(doc["description"])
        if problem is not None:
            problems.add("description", problem)
        else:
            description = doc["description"]

    resources = DEFAULT_RESOURCES
    if "resources" in doc:
        resources = _read_resources(doc["resources"], problems) or resources
        problems.raise_if_any()  # everything below depends on the resource list

    vm_types = _parse_vm_types(doc.get("vm_types"), resources, problems, "vm_types" in doc)
    type_names = {t.name for t in vm_types}
    frameworks = _parse_frameworks(doc.get("frameworks", []), resources, type_names, problems)
    # A sharing scenario may describe its whole work as task queues (version 2), a UDRF
    # scenario as complex jobs (version 3).
    queued = any(f.queues or f.complex_jobs for f in frameworks)
    raw_frameworks = doc.get("frameworks")
    declared = isinstance(raw_frameworks, list) and any(
        isinstance(f, Mapping) and ("queues" in f or "complex_jobs" in f) for f in raw_frameworks
    )
    if "jobs" not in doc and not queued and declared and not problems.items:
        # Frameworks list queues or complex jobs, but none is left (empty lists; one refused at
        # its own path is said there): not "jobs: is required", which names a field nobody meant.
        problems.add("frameworks", "no framework has task queues or complex jobs, and there are no jobs")
    jobs = _parse_jobs(
        doc.get("jobs"), resources, frameworks, problems, present="jobs" in doc,
        required=not queued and not declared,
        wanted=_JOBS_WANTED[version if version in (1, 2, 3, 4) and not isinstance(version, bool) else None],
    )
    options = read_options(doc.get("options"), resources, "options", problems, SimulationOptions())
    problems.raise_if_any()

    scenario = Scenario(
        name=scenario_name,
        resources=resources,
        vm_types=tuple(vm_types),
        frameworks=tuple(frameworks),
        jobs=tuple(jobs),
        options=options or SimulationOptions(),
        description=description,
        warnings=problems.warnings(),
    )
    add_fit_problems(scenario, JobShapes.of_jobs(scenario.jobs), lambda i: scenario.jobs[i].id, problems)
    _check_queues_fit(scenario, problems)
    check_complex_jobs_fit(scenario, problems)
    problems.raise_if_any()
    return scenario


@collector_paused()
def parse_workload(doc: Any, *, resources: Sequence[str] | None = None) -> Workload:
    """Validate a workload, frameworks and jobs without a cluster, and return a :class:`Workload`.

    ``doc`` is ``{"frameworks": [...], "jobs": [...]}`` in the scenario document's own
    format (both optional), with an optional ``"resources"`` list. Every rule of
    :func:`parse_scenario` that does not need a cluster applies, with the same paths; the
    cluster's rules (a job fits a VM type; ``allowed_vm_types`` name VM types of the
    cluster) are checked when a cluster and the workload make a scenario.

    Parameters
    ----------
    doc
        The workload document.
    resources
        The resources, when ``doc`` has no ``"resources"``. Without either, they are the
        keys of the jobs' ``executor`` (and the frameworks' ``task_demand``) in order of
        first mention, or ``("cpu", "mem")`` when there are none.

    Returns
    -------
    Workload
        With ``warnings``: what is valid but probably not meant, each with its path.

    Raises
    ------
    ScenarioError
        Listing every problem with its path (``jobs[3].executor.cpu: must be >= 0``).

    Examples
    --------
    >>> job = {"id": "j1", "arrival_s": 0, "executors": 4, "executor": {"cpu": 2}, "duration_s": 60}
    >>> parse_workload({"jobs": [job]}).resources
    ('cpu',)
    >>> parse_workload({"jobs": [{**job, "executors": 0}]})
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: jobs[0].executors: must be >= 1
    """
    problems = Problems()
    if not isinstance(doc, Mapping):
        raise ScenarioError.single("", "the workload must be a JSON object with frameworks and jobs")
    unknown_keys(doc, _WORKLOAD_KEYS, "", problems)
    raw_frameworks = doc.get("frameworks", [])
    raw_jobs = doc.get("jobs", [])
    if raw_frameworks is None:
        raw_frameworks = []
    if raw_jobs is None:
        raw_jobs = []
    if "resources" in doc:
        chosen = _read_resources(doc["resources"], problems)
    elif resources is not None:
        chosen = _read_resources(list(resources), problems)
    else:
        chosen = _infer_resources(raw_frameworks, raw_jobs, problems)
    problems.raise_if_any()
    assert chosen is not None
    frameworks = _parse_frameworks(raw_frameworks, chosen, None, problems)
    jobs = _parse_jobs(raw_jobs, chosen, frameworks, problems, present=True, required=False)
    problems.raise_if_any()
    return Workload(
        resources=chosen, frameworks=tuple(frameworks), jobs=tuple(jobs), warnings=problems.warnings()
    )


def read_json_text(text: str | bytes) -> Any:
    """JSON text as a document, by the one rule of :mod:`scheduling.jsontext` (finite numbers
    that fit in 64 bits, at most 64 levels deep, valid Unicode), at most the size limit."""
    if len(text) > LIMITS["document_bytes"]:
        raise ScenarioError.single(
            "", f"the document is larger than {int(LIMITS['document_bytes']) // 2**20} MB"
        )
    try:
        return loads_strict(text)
    except JSONSyntaxError as exc:
        raise ScenarioError.single("", f"not valid JSON: {exc}") from None


def load_scenario_json(text: str | bytes) -> Scenario:
    """Parse JSON text (rejecting ``NaN`` and ``Infinity`` literals) and validate it."""
    return parse_scenario(read_json_text(text))


# --------------------------------------------------------------------------- resources


def _read_resources(raw: Any, problems: Problems) -> tuple[str, ...] | None:
    items = listed(raw, "resources", problems, "resources")
    if items is None:
        return None
    names = [name(r, f"resources[{i}]", problems) for i, r in enumerate(items)]
    if not items:
        problems.add("resources", "must name at least one resource")
        return None
    if any(n is None for n in names):
        return None
    dupes = {n for n in names if names.count(n) > 1}
    for d in sorted(dupes, key=str):
        problems.add("resources", f"duplicate resource {d!r}")
    return None if dupes else tuple(n for n in names if n is not None)


def _infer_resources(frameworks: Any, jobs: Any, problems: Problems) -> tuple[str, ...]:
    """The keys of the jobs' executors and frameworks' task demands, in order of first mention."""
    first_seen: dict[Any, str] = {}
    for items, list_name, key in ((frameworks, "frameworks", "task_demand"), (jobs, "jobs", "executor")):
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            amounts = item.get(key) if isinstance(item, Mapping) else None
            if isinstance(amounts, Mapping):
                for r in amounts:
                    first_seen.setdefault(r, f"{list_name}[{i}].{key}")
            for where, demand in _complex_demands(item, f"{list_name}[{i}]"):
                for r in demand:
                    first_seen.setdefault(r, where)
    good: list[str] = []
    for r, where in first_seen.items():
        problem = name_problem(r)
        if problem is not None:
            problems.add(f"{where}.{shown(r)}", f"is not a resource name: {problem}")
        else:
            good.append(r)
    if len(good) > LIMITS["resources"]:
        problems.add(
            "jobs", f"the executors name {len(good)} resources; the limit is {int(LIMITS['resources'])}"
        )
    return tuple(good) or DEFAULT_RESOURCES


def _complex_demands(item: Any, path: str) -> list[tuple[str, Mapping[Any, Any]]]:
    """The task demands of a framework's complex jobs, each with its path (for inferring resources)."""
    out: list[tuple[str, Mapping[Any, Any]]] = []
    jobs = item.get("complex_jobs") if isinstance(item, Mapping) else None
    for j, job in enumerate(jobs if isinstance(jobs, list) else []):
        tasks = job.get("tasks") if isinstance(job, Mapping) else None
        for t, task in enumerate(tasks if isinstance(tasks, list) else []):
            demand = task.get("demand") if isinstance(task, Mapping) else None
            if isinstance(demand, Mapping):
                out.append((f"{path}.complex_jobs[{j}].tasks[{t}].demand", demand))
    return out


# --------------------------------------------------------------------------- sections


def _parse_vm_types(raw: Any, resources: tuple[str, ...], problems: Problems, present: bool) -> list[VMType]:
    if not present:
        problems.add("vm_types", "is required")
        return []
    items = listed(raw, "vm_types", problems, "vm_types")
    if items is None:
        return []
    if not items:
        problems.add("vm_types", "must list at least one VM type")
    out: list[VMType] = []
    seen: set[str] = set()
    machines = 0
    for p, t in entries(
        items, "vm_types", ("name", "capacity", "price_per_hour", "count", "machine_class", *PRICE_FIELDS),
        problems,
    ):
        type_name = name(t["name"], f"{p}.name", problems) if "name" in t else None
        if "name" not in t:
            problems.add(f"{p}.name", "is required")
        if type_name is not None and "#" in type_name:
            problems.add(f"{p}.name", "must not contain '#' (machines are named <vm type>#<k>)")
            type_name = None
        type_name = first_of_its_name(type_name, seen, f"{p}.name", "VM type name", problems)
        capacity = None
        if "capacity" not in t:
            problems.add(f"{p}.capacity", "is required")
        else:
            capacity = vector(t["capacity"], resources, f"{p}.capacity", problems, positive=False)
            if capacity is not None and not any(c > 0 for c in capacity):
                problems.add(f"{p}.capacity", "must have some resource > 0")
                capacity = None
        price = None
        if "price_per_hour" not in t:
            problems.add(f"{p}.price_per_hour", "is required")
        else:
            price = number(
                t["price_per_hour"],
                f"{p}.price_per_hour",
                problems,
                minimum=0,
                maximum=LIMITS["price_per_hour"],
            )
        count = 1
        if "count" in t:
            c = number(
                t["count"], f"{p}.count", problems, minimum=1, maximum=LIMITS["machines"], integer=True
            )
            count = int(c) if c is not None else 0
        machines += count
        reserved, spot = read_market_prices(t, p, count, problems)
        machine_class = None
        if "machine_class" in t and t["machine_class"] is not None:
            machine_class = name(t["machine_class"], f"{p}.machine_class", problems)
            if machine_class is None:
                continue
        if type_name is not None and capacity is not None and price is not None and count:
            out.append(VMType(name=type_name, capacity=capacity, price_per_hour=price, count=count,
                              machine_class=machine_class, reserved=reserved, spot=spot))
    if machines > LIMITS["machines"]:
        problems.add(
            "vm_types", f"describe {machines:,} machines in all; the limit is {int(LIMITS['machines']):,}"
        )
    return out




#: What a scenario without jobs is told, by the version it says it is (no version: the newest).
_JOBS_WANTED = {
    1: "is required",
    2: "is required, or task queues on a framework (version 2)",
    3: "is required, or task queues (version 2) or complex jobs (version 3) on a framework",
    4: "is required, or task queues (version 2) or complex jobs (version 3) on a framework",
    None: "is required, or task queues (version 2) or complex jobs (version 3) on a framework",
}



# --------------------------------------------------------------------------- fitting the cluster


def _check_queues_fit(scenario: Scenario, problems: Problems) -> None:
    """Reject task queues whose task fits no machine its framework may use: they would wait forever."""
    for k, f in enumerate(scenario.frameworks):
        for q, queue in enumerate(f.queues):
            demand = queue.task_demand if queue.task_demand is not None else f.task_demand
            if demand is None:
                continue
            fits = any(
                executors_that_fit(t.capacity, demand) > 0
                for t in scenario.vm_types
                if f.allowed_vm_types is None or t.name in f.allowed_vm_types
            )
            if not fits:
                where = f"queues[{q}].task_demand" if queue.task_demand is not None else "task_demand"
                problems.add(
                    f"frameworks[{k}].{where}",
                    f"a task of queue {q} does not fit on any VM type the framework may use",
                )
