"""Validation: a scenario document, or a workload alone, read field by field into dataclasses.

Validation collects *every* problem with its path (``jobs[3].executor.cpu: must be > 0``)
instead of stopping at the first, rejects NaN, infinities, negative or absurd values,
duplicate names, names that cannot be stored and dangling references, and enforces the size
limits in :data:`~scheduling.scenario.LIMITS` so that a hostile document cannot exhaust
memory. Warnings (valid, but probably not meant) come back with the parse, with paths too.

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

import math
from collections.abc import Mapping, Sequence
from typing import Any

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
from .complex_jobs import check_complex_jobs_fit, read_complex_jobs, uses_version_3
from .document import (
    DEFAULT_FRAMEWORK,
    DEFAULT_HOLD_S,
    DEFAULT_OFFER_POLICY,
    DEFAULT_REFUSE_S,
    ComplexJob,
    Framework,
    Job,
    Scenario,
    TaskQueue,
    VMType,
    Workload,
)
from .limits import DEFAULT_RESOURCES, LIMITS, OFFER_POLICIES, READABLE_VERSIONS
from .options import SimulationOptions, read_options

__all__ = [
    "executors_that_fit",
    "load_scenario_json",
    "parse_scenario",
    "parse_workload",
    "read_json_text",
]

_SCENARIO_KEYS = ("version", "name", "description", "resources", "vm_types", "frameworks", "jobs", "options")
_WORKLOAD_KEYS = ("resources", "frameworks", "jobs")
_JOB_KEYS = ("id", "framework", "arrival_s", "executors", "executor", "duration_s", "deadline_s")
_FRAMEWORK_KEYS_V1 = ("name", "weight", "task_demand", "allowed_vm_types")
#: The frameworks' fields that version 2 adds (the online sharing simulator).
_FRAMEWORK_KEYS_V2 = ("queues", "offer_policy", "refuse_s", "hold_s")
#: The frameworks' field that version 3 adds (paper 004's users' multi-task jobs).
_FRAMEWORK_KEYS_V3 = ("complex_jobs",)
_QUEUE_KEYS = (
    "tasks", "tasks_per_job", "duration_s", "task_demand", "start_s",
    "interval_s", "rate_per_s", "arrival_s", "sequential",
)
_ARRIVAL_RULES = ("interval_s", "rate_per_s", "arrival_s", "sequential")


# --------------------------------------------------------------------------- the parsers


def parse_scenario(doc: Any) -> Scenario:
    """Validate a scenario document (version 1, 2 or 3) and return a :class:`Scenario`.

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
        problems.add("version", f"unsupported version {version!r}; this program reads versions 1, 2 and 3")
    elif version == 1:
        _refuse_version_2_fields(doc.get("frameworks"), problems)
    if version in (1, 2):
        for path in uses_version_3(doc.get("vm_types"), doc.get("frameworks")):
            problems.add(path, f"is a version-3 field (the document says version {version})")

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
        wanted=_JOBS_WANTED[version if version in (1, 2, 3) and not isinstance(version, bool) else None],
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
    _check_feasible(scenario, problems)
    _check_queues_fit(scenario, problems)
    check_complex_jobs_fit(scenario, problems)
    problems.raise_if_any()
    return scenario


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
    for p, t in entries(items, "vm_types", ("name", "capacity", "price_per_hour", "count", "machine_class"),
                        problems):
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
        machine_class = None
        if "machine_class" in t and t["machine_class"] is not None:
            machine_class = name(t["machine_class"], f"{p}.machine_class", problems)
            if machine_class is None:
                continue
        if type_name is not None and capacity is not None and price is not None and count:
            out.append(VMType(name=type_name, capacity=capacity, price_per_hour=price, count=count,
                              machine_class=machine_class))
    if machines > LIMITS["machines"]:
        problems.add(
            "vm_types", f"describe {machines:,} machines in all; the limit is {int(LIMITS['machines']):,}"
        )
    return out


def _parse_frameworks(
    raw: Any, resources: tuple[str, ...], type_names: set[str] | None, problems: Problems
) -> list[Framework]:
    """``type_names``: the cluster's VM types, which ``allowed_vm_types`` must name (``None``: no cluster)."""
    items = listed(raw, "frameworks", problems, "frameworks")
    if items is None:
        return []
    out: list[Framework] = []
    seen: set[str] = set()
    queue_tasks = [0]  # every queue's tasks so far, against LIMITS["queue_tasks"]
    complex_count = [0]  # every framework's complex jobs so far, against LIMITS["complex_jobs"]
    known = _FRAMEWORK_KEYS_V1 + _FRAMEWORK_KEYS_V2 + _FRAMEWORK_KEYS_V3
    for p, f in entries(items, "frameworks", known, problems):
        if "name" not in f:
            problems.add(f"{p}.name", "is required")
            continue
        fw_name = first_of_its_name(
            name(f["name"], f"{p}.name", problems), seen, f"{p}.name", "framework name", problems
        )
        weight: float | None = 1.0
        if "weight" in f:
            weight = number(
                f["weight"], f"{p}.weight", problems, minimum=0, exclusive=True, maximum=LIMITS["weight"]
            )
        demand = None
        if "task_demand" in f and f["task_demand"] is not None:
            demand = vector(f["task_demand"], resources, f"{p}.task_demand", problems, positive=False)
            if demand is not None and not any(d > 0 for d in demand):
                problems.add(f"{p}.task_demand", "must have some resource > 0")
        allowed: tuple[str, ...] | None = None
        if "allowed_vm_types" in f and f["allowed_vm_types"] is not None:
            allowed = _allowed_vm_types(f["allowed_vm_types"], f"{p}.allowed_vm_types", type_names, problems)
        sharing = _read_sharing_fields(f, p, resources, demand is not None, problems, queue_tasks)
        complex_jobs: tuple[ComplexJob, ...] | None = ()
        if "complex_jobs" in f and f["complex_jobs"] is not None:
            complex_jobs = read_complex_jobs(f["complex_jobs"], f"{p}.complex_jobs", resources, problems,
                                             complex_count)
        if fw_name is not None and weight is not None and sharing is not None and complex_jobs is not None:
            queues, policy, refuse, hold = sharing
            out.append(Framework(
                name=fw_name, weight=weight, task_demand=demand, allowed_vm_types=allowed,
                queues=queues, offer_policy=policy, refuse_s=refuse, hold_s=hold, complex_jobs=complex_jobs,
            ))
    return out


def _refuse_version_2_fields(raw: Any, problems: Problems) -> None:
    """A document that says ``"version": 1`` must not use version 2's fields."""
    if not isinstance(raw, list):
        return
    for k, f in enumerate(raw):
        if isinstance(f, Mapping):
            for key in _FRAMEWORK_KEYS_V2:
                if key in f:
                    problems.add(
                        f"frameworks[{k}].{key}", "is a version-2 field (the document says version 1)"
                    )


def _read_sharing_fields(
    f: Mapping[Any, Any],
    p: str,
    resources: tuple[str, ...],
    has_demand: bool,
    problems: Problems,
    queue_tasks: list[int],
) -> tuple[tuple[TaskQueue, ...], str, float, float] | None:
    """A framework's version-2 fields: ``queues``, ``offer_policy``, ``refuse_s``, ``hold_s``."""
    ok = True
    policy = DEFAULT_OFFER_POLICY
    if "offer_policy" in f:
        if f["offer_policy"] in OFFER_POLICIES:
            policy = f["offer_policy"]
        else:
            problems.add(f"{p}.offer_policy", f"must be one of {', '.join(OFFER_POLICIES)}")
            ok = False
    seconds = {}
    for key, default in (("refuse_s", DEFAULT_REFUSE_S), ("hold_s", DEFAULT_HOLD_S)):
        value: float | None = default
        if key in f:
            value = number(f[key], f"{p}.{key}", problems, minimum=0, maximum=LIMITS["time_s"])
        if value is None:
            ok = False
        seconds[key] = value
    queues: list[TaskQueue] = []
    if "queues" in f and f["queues"] is not None:
        items = listed(f["queues"], f"{p}.queues", problems, "queues")
        if items is None:
            ok = False
        for qp, q in entries(items or [], f"{p}.queues", _QUEUE_KEYS, problems):
            queue = _read_queue(q, qp, resources, has_demand, problems)
            if queue is None:
                ok = False
                continue
            queue_tasks[0] += queue.tasks
            if queue_tasks[0] > LIMITS["queue_tasks"]:
                problems.add(
                    f"{qp}.tasks",
                    f"the queues hold {queue_tasks[0]:,} tasks so far; "
                    f"the limit is {int(LIMITS['queue_tasks']):,}",
                )
                ok = False
            queues.append(queue)
    if not ok:
        return None
    refuse, hold = seconds["refuse_s"], seconds["hold_s"]
    assert refuse is not None and hold is not None
    return tuple(queues), policy, refuse, hold


def _read_queue(
    q: Mapping[Any, Any], qp: str, resources: tuple[str, ...], has_demand: bool, problems: Problems
) -> TaskQueue | None:
    time_max = LIMITS["time_s"]
    ok = True
    for key in ("tasks", "duration_s"):
        if key not in q:
            problems.add(f"{qp}.{key}", "is required")
            ok = False
    tasks = (
        number(q["tasks"], f"{qp}.tasks", problems, minimum=0, exclusive=True,
               maximum=LIMITS["queue_tasks"], integer=True)
        if "tasks" in q else None
    )
    duration = (
        number(q["duration_s"], f"{qp}.duration_s", problems, minimum=0, exclusive=True, maximum=time_max)
        if "duration_s" in q else None
    )
    per_job = None
    if "tasks_per_job" in q and q["tasks_per_job"] is not None:
        per_job = number(q["tasks_per_job"], f"{qp}.tasks_per_job", problems, minimum=0, exclusive=True,
                         maximum=LIMITS["executors_per_job"], integer=True)
        ok = ok and per_job is not None
    demand = None
    if "task_demand" in q and q["task_demand"] is not None:
        demand = vector(q["task_demand"], resources, f"{qp}.task_demand", problems, positive=False)
        if demand is not None and not any(d > 0 for d in demand):
            problems.add(f"{qp}.task_demand", "must have some resource > 0")
            demand = None
        ok = ok and demand is not None
    elif not has_demand:
        problems.add(f"{qp}.task_demand", "is required (the framework has no task_demand)")
        ok = False
    start: float | None = 0.0
    if "start_s" in q:
        start = number(q["start_s"], f"{qp}.start_s", problems, minimum=0, maximum=time_max)
        ok = ok and start is not None
    rules = [k for k in _ARRIVAL_RULES if k in q and q[k] is not None and q[k] is not False]
    if len(rules) > 1:
        problems.add(qp, f"give one arrival rule, not {' and '.join(rules)}")
        ok = False
    interval = rate = None
    arrivals: tuple[float, ...] | None = None
    sequential = False
    if "interval_s" in q and q["interval_s"] is not None:
        interval = number(q["interval_s"], f"{qp}.interval_s", problems, minimum=0, maximum=time_max)
        ok = ok and interval is not None
    if "rate_per_s" in q and q["rate_per_s"] is not None:
        rate = number(q["rate_per_s"], f"{qp}.rate_per_s", problems, minimum=0, exclusive=True, maximum=1e6)
        ok = ok and rate is not None
    if "arrival_s" in q and q["arrival_s"] is not None:
        items = listed(q["arrival_s"], f"{qp}.arrival_s", problems, "queue_tasks")
        if items is None:
            ok = False
        else:
            read = [number(a, f"{qp}.arrival_s[{k}]", problems, minimum=0, maximum=time_max)
                    for k, a in enumerate(items)]
            if any(a is None for a in read):
                ok = False
            else:
                arrivals = tuple(a for a in read if a is not None)
                if tasks is not None and ok:
                    jobs = math.ceil(int(tasks) / int(per_job or 1))
                    if len(arrivals) != jobs:
                        problems.add(
                            f"{qp}.arrival_s",
                            f"lists {len(arrivals)} times for {jobs} jobs "
                            "(one per job of tasks_per_job tasks)",
                        )
                        ok = False
    if "sequential" in q and q["sequential"] is not None:
        if isinstance(q["sequential"], bool):
            sequential = q["sequential"]
        else:
            problems.add(f"{qp}.sequential", "must be true or false")
            ok = False
    if not ok or tasks is None or duration is None or start is None:
        return None
    return TaskQueue(
        tasks=int(tasks), duration_s=duration, tasks_per_job=None if per_job is None else int(per_job),
        task_demand=demand, start_s=start, interval_s=interval, rate_per_s=rate, arrival_s=arrivals,
        sequential=sequential,
    )


def _allowed_vm_types(
    raw: Any, path: str, type_names: set[str] | None, problems: Problems
) -> tuple[str, ...] | None:
    items = listed(raw, path, problems, "vm_types")
    if items is None:
        return None
    if not items:
        problems.add(path, "must allow at least one VM type (omit it to allow all)")
    good = []
    for k, type_name in enumerate(items):
        q = f"{path}[{k}]"
        if not isinstance(type_name, str):
            problems.add(q, "must be a string")
        elif type_names is not None and type_name not in type_names:
            problems.add(q, f"unknown VM type {type_name!r}")
        elif type_names is None and name(type_name, q, problems) is None:
            continue
        else:
            good.append(type_name)
    return tuple(dict.fromkeys(good))


#: What a scenario without jobs is told, by the version it says it is (no version: the newest).
_JOBS_WANTED = {
    1: "is required",
    2: "is required, or task queues on a framework (version 2)",
    3: "is required, or task queues (version 2) or complex jobs (version 3) on a framework",
    None: "is required, or task queues (version 2) or complex jobs (version 3) on a framework",
}


def _parse_jobs(
    raw: Any,
    resources: tuple[str, ...],
    frameworks: Sequence[Framework],
    problems: Problems,
    *,
    present: bool,
    required: bool,
    wanted: str = "is required",
) -> list[Job]:
    if not present:
        if required:
            problems.add("jobs", wanted)
        return []
    items = listed(raw, "jobs", problems, "jobs")
    if items is None:
        return []
    fw_names = {f.name for f in frameworks}
    # A job without a framework joins "default"; when other frameworks are declared, that
    # is rarely what was meant (issue 7), so it is worth a warning.
    hidden_default = bool(fw_names) and DEFAULT_FRAMEWORK not in fw_names
    declared = ", ".join(f.name for f in frameworks[:5]) + (", ..." if len(frameworks) > 5 else "")
    out: list[Job] = []
    seen: set[str] = set()
    time_max = LIMITS["time_s"]
    for p, j in entries(items, "jobs", _JOB_KEYS, problems):
        missing = [k for k in ("id", "arrival_s", "executors", "executor", "duration_s") if k not in j]
        for k in missing:
            problems.add(f"{p}.{k}", "is required")
        job_id = name(j["id"], f"{p}.id", problems, allow_int=True) if "id" in j else None
        job_id = first_of_its_name(job_id, seen, f"{p}.id", "job id", problems)
        framework = DEFAULT_FRAMEWORK
        if "framework" in j and j["framework"] is not None:
            fw_name = name(j["framework"], f"{p}.framework", problems)
            if fw_name is not None and fw_name not in fw_names:
                problems.add(f"{p}.framework", f"unknown framework {fw_name!r}")
                fw_name = None
            if fw_name is None:
                continue
            framework = fw_name
        elif hidden_default:
            problems.warn(
                f"{p}.framework",
                f"names no framework, so the job joins an undeclared framework {DEFAULT_FRAMEWORK!r} "
                f"(weight 1); the workload declares {declared}",
            )
        arrival = (
            number(j["arrival_s"], f"{p}.arrival_s", problems, minimum=0, maximum=time_max)
            if "arrival_s" in j
            else None
        )
        executors = (
            number(
                j["executors"],
                f"{p}.executors",
                problems,
                minimum=1,
                maximum=LIMITS["executors_per_job"],
                integer=True,
            )
            if "executors" in j
            else None
        )
        executor = (
            vector(j["executor"], resources, f"{p}.executor", problems, positive=False)
            if "executor" in j
            else None
        )
        if executor is not None and not any(x > 0 for x in executor):
            problems.add(f"{p}.executor", "must demand some resource > 0")
            executor = None
        duration = (
            number(j["duration_s"], f"{p}.duration_s", problems, minimum=0, exclusive=True, maximum=time_max)
            if "duration_s" in j
            else None
        )
        deadline = None
        if "deadline_s" in j and j["deadline_s"] is not None:
            deadline = number(
                j["deadline_s"], f"{p}.deadline_s", problems, minimum=0, exclusive=True, maximum=time_max
            )
            if deadline is None:
                continue
        if job_id is None or arrival is None or executors is None or executor is None or duration is None:
            continue
        if deadline is not None and deadline < duration:
            problems.warn(
                f"{p}.deadline_s",
                f"is shorter than the job's duration ({deadline:g} s < {duration:g} s): "
                "the job misses it even on an idle cluster",
            )
        out.append(
            Job(
                id=job_id,
                framework=framework,
                arrival_s=arrival,
                executors=int(executors),
                executor=executor,
                duration_s=duration,
                deadline_s=deadline,
            )
        )
    return out


# --------------------------------------------------------------------------- fitting the cluster


def executors_that_fit(capacity: tuple[float, ...], demand: tuple[float, ...]) -> int:
    """How many executors of ``demand`` an empty machine of ``capacity`` holds.

    >>> executors_that_fit((4, 16), (1, 6))
    2
    """
    k = math.inf
    for c, d in zip(capacity, demand, strict=True):
        if d > 0:
            k = min(k, math.floor(c / d + 1e-9))
    return int(k) if k != math.inf else 0


def _check_feasible(scenario: Scenario, problems: Problems) -> None:
    """Reject jobs that could never start even on an empty cluster (they would block queues).

    The detail of each job comes after one summary line per kind of misfit, so that a
    workload meant for a bigger cluster reads as one problem, not as 200.
    """
    fws = scenario.framework_map()
    cache: dict[tuple[str, tuple[float, ...]], int] = {}  # workloads repeat executor shapes
    misfits: list[int] = []
    crowded: list[tuple[int, int]] = []  # (job index, executors the allowed VMs hold)
    for i, job in enumerate(scenario.jobs):
        key = (job.framework, job.executor)
        holdable = cache.get(key, -1)
        if holdable < 0:
            allowed = fws[job.framework].allowed_vm_types
            holdable = cache[key] = sum(
                executors_that_fit(t.capacity, job.executor) * t.count
                for t in scenario.vm_types
                if allowed is None or t.name in allowed
            )
        if holdable == 0:
            misfits.append(i)
        elif holdable < job.executors:
            crowded.append((i, holdable))
    if not misfits and not crowded:
        return
    for line in _misfit_summary(scenario, misfits, crowded):
        problems.add("jobs", line)
    details = [(i, None) for i in misfits] + [(i, room) for i, room in crowded]
    for i, room in sorted(details, key=lambda d: d[0]):
        if room is None:
            problems.add(f"jobs[{i}].executor", "does not fit on any VM type the job's framework may use")
        else:
            problems.add(
                f"jobs[{i}].executors",
                f"needs {scenario.jobs[i].executors} executors "
                f"but the VMs it may use hold at most {room} at once",
            )


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


def _misfit_summary(scenario: Scenario, misfits: list[int], crowded: list[tuple[int, int]]) -> list[str]:
    jobs, resources = scenario.jobs, scenario.resources
    total = len(jobs)
    largest_vm = [max(t.capacity[r] for t in scenario.vm_types) for r in range(len(resources))]
    too_big = [
        i for i in misfits if any(x > cap for x, cap in zip(jobs[i].executor, largest_vm, strict=True))
    ]
    lines = []
    if too_big:
        largest_executor = [max(jobs[i].executor[r] for i in too_big) for r in range(len(resources))]
        over = [r for r in range(len(resources)) if largest_executor[r] > largest_vm[r]]
        executor_part = " and ".join(f"{largest_executor[r]:g} {resources[r]}" for r in over)
        vm_part = " and ".join(f"{largest_vm[r]:g} {resources[r]}" for r in over)
        lines.append(
            f"{len(too_big)} of {total} jobs need an executor larger than any VM type: "
            f"largest executor {executor_part}, largest VM {vm_part}"
        )
    if len(misfits) > len(too_big):
        lines.append(
            f"{len(misfits) - len(too_big)} of {total} jobs have an executor that fits no single VM type "
            "their framework may use"
        )
    if crowded:
        worst, room = max(crowded, key=lambda c: jobs[c[0]].executors / c[1])
        lines.append(
            f"{len(crowded)} of {total} jobs need more executors at once than the VMs they may use hold "
            f"(the most: job {jobs[worst].id!r}, {jobs[worst].executors} executors for room of {room})"
        )
    return lines
