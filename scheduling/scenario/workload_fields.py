"""A workload's sections read field by field (:func:`scheduling.scenario.parse_scenario` and
:func:`scheduling.scenario.parse_workload` call them): the frameworks, with the online sharing
simulator's fields (version 2: task queues, offer policy, refuse and hold times) and their
complex jobs and default network sensitivity (version 3), and the jobs, with their network
sensitivity (version 3). Every problem is added to the caller's
:class:`~scheduling.scenario.checks.Problems` with its path.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from .checks import Problems, entries, entry, first_of_its_name, listed, name, number, vector
from .complex_jobs import read_complex_jobs
from .document import (
    DEFAULT_FRAMEWORK,
    DEFAULT_HOLD_S,
    DEFAULT_OFFER_POLICY,
    DEFAULT_REFUSE_S,
    ComplexJob,
    Framework,
    Job,
    TaskQueue,
)
from .limits import LIMITS, OFFER_POLICIES

_JOB_KEYS = (
    "id", "framework", "arrival_s", "executors", "executor", "duration_s", "deadline_s",
    "network_sensitivity",
)
_REQUIRED_JOB_KEYS: Final = frozenset(("id", "arrival_s", "executors", "executor", "duration_s"))
_JOB_KEY_SET: Final = frozenset(_JOB_KEYS)
_ABSENT: Final = object()  # what ``dict.get`` gives for a field a job does not have
_FRAMEWORK_KEYS_V1 = ("name", "weight", "task_demand", "allowed_vm_types")
#: The frameworks' fields that version 2 adds (the online sharing simulator).
_FRAMEWORK_KEYS_V2 = ("queues", "offer_policy", "refuse_s", "hold_s")
#: The frameworks' fields that version 3 adds (paper 004's users' multi-task jobs; the default
#: network sensitivity of the framework's jobs, notes §8).
_FRAMEWORK_KEYS_V3 = ("complex_jobs", "network_sensitivity")
_QUEUE_KEYS = (
    "tasks", "tasks_per_job", "duration_s", "task_demand", "start_s",
    "interval_s", "rate_per_s", "arrival_s", "sequential",
)
_ARRIVAL_RULES = ("interval_s", "rate_per_s", "arrival_s", "sequential")


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
        # A bad sensitivity is reported at its path; the framework is kept (its jobs still name it).
        _, sensitivity = network_sensitivity(f, p, problems)
        if fw_name is not None and weight is not None and sharing is not None and complex_jobs is not None:
            queues, policy, refuse, hold = sharing
            out.append(Framework(
                name=fw_name, weight=weight, task_demand=demand, allowed_vm_types=allowed,
                queues=queues, offer_policy=policy, refuse_s=refuse, hold_s=hold, complex_jobs=complex_jobs,
                network_sensitivity=sensitivity or 0.0,
            ))
    return out


def network_sensitivity(item: Mapping[Any, Any], p: str, problems: Problems) -> tuple[bool, float | None]:
    """A job's or a framework's ``network_sensitivity`` (notes §8) as ``(ok, value)``: the value
    is ``None`` when the field is absent (or null); an invalid one is added to ``problems`` at
    ``<p>.network_sensitivity`` and comes back as ``(False, None)``.

    >>> problems = Problems()
    >>> network_sensitivity({"network_sensitivity": 0.3}, "jobs[0]", problems)
    (True, 0.3)
    >>> network_sensitivity({}, "jobs[1]", problems)
    (True, None)
    >>> network_sensitivity({"network_sensitivity": -1}, "jobs[3]", problems), str(problems.items[0])
    ((False, None), 'jobs[3].network_sensitivity: must be >= 0')
    """
    raw = item.get("network_sensitivity")
    if raw is None:
        return True, None
    value = number(raw, f"{p}.network_sensitivity", problems, minimum=0,
                   maximum=LIMITS["network_sensitivity"])
    return value is not None, value


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
    time_max, executors_max = LIMITS["time_s"], LIMITS["executors_per_job"]
    for n, item in enumerate(items):
        p = entry(item, n, "jobs", _JOB_KEY_SET, problems)  # as entries() does
        if p is None:
            continue
        # A dict (as JSON gives) is read with the dict's own operations once compiled.
        j: dict[Any, Any] = item if type(item) is dict else dict(item)
        if not all(k in j for k in _REQUIRED_JOB_KEYS):
            for k in ("id", "arrival_s", "executors", "executor", "duration_s"):
                if k not in j:
                    problems.add(f"{p}.{k}", "is required")
        # Each field looked up once (``_ABSENT`` when the job has no such key: a null given is
        # read, and reported, as the value it is).
        raw_id = j.get("id", _ABSENT)
        job_id = name(raw_id, p, problems, allow_int=True, field="id") if raw_id is not _ABSENT else None
        job_id = first_of_its_name(job_id, seen, p, "job id", problems, field="id")
        framework = DEFAULT_FRAMEWORK
        raw_framework = j.get("framework")
        if raw_framework is not None:
            fw_name = name(raw_framework, f"{p}.framework", problems)
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
        raw = j.get("arrival_s", _ABSENT)
        arrival = (
            number(raw, p, problems, minimum=0, maximum=time_max, field="arrival_s")
            if raw is not _ABSENT
            else None
        )
        raw = j.get("executors", _ABSENT)
        executors = (
            number(raw, p, problems, minimum=1, maximum=executors_max, integer=True, field="executors")
            if raw is not _ABSENT
            else None
        )
        raw = j.get("executor", _ABSENT)
        executor = (
            vector(raw, resources, p, problems, positive=False, field="executor")
            if raw is not _ABSENT
            else None
        )
        if executor is not None and not any(d > 0 for d in executor):  # finite amounts, one per resource
            problems.add(f"{p}.executor", "must demand some resource > 0")
            executor = None
        raw = j.get("duration_s", _ABSENT)
        duration = (
            number(raw, p, problems, minimum=0, exclusive=True, maximum=time_max, field="duration_s")
            if raw is not _ABSENT
            else None
        )
        deadline = None
        raw = j.get("deadline_s")
        if raw is not None:
            deadline = number(
                raw, p, problems, minimum=0, exclusive=True, maximum=time_max, field="deadline_s"
            )
            if deadline is None:
                continue
        sensitivity_ok, sensitivity = network_sensitivity(j, p, problems)
        if not sensitivity_ok:
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
            checked_job(job_id, arrival, int(executors), executor, duration, framework, deadline, sensitivity)
        )
    return out


def job_fields(jobs: Sequence[Job]) -> tuple[list[str], list[float], list[int]]:
    """Each job's framework, its executor's demands (one job's after another) and its
    executors: read in one compiled pass for the fit's and the bound's arrays.

    >>> job_fields([Job(id="a", arrival_s=0.0, executors=2, executor=(1.0, 4.0), duration_s=5.0)])
    (['default'], [1.0, 4.0], [2])
    """
    frameworks: list[str] = []
    demands: list[float] = []
    executors: list[int] = []
    for j in jobs:
        frameworks.append(j.framework)
        demands.extend(j.executor)
        executors.append(j.executors)
    return frameworks, demands, executors


def checked_job(
    id: str,
    arrival_s: float,
    executors: int,
    executor: tuple[float, ...],
    duration_s: float,
    framework: str,
    deadline_s: float | None,
    network_sensitivity: float | None,
) -> Job:
    """``Job(...)`` with every field given, for the parser's hundreds of thousands of jobs.

    The same frozen instance as the dataclass's ``__init__`` makes (that one sets each field by
    a generic ``object.__setattr__`` call, 1.4 us a job); this writes the slots directly (0.5 us
    interpreted; compiled with the parser, :mod:`scheduling.compiled`, without the interpreter's
    frame).

    >>> job = Job(id="a", arrival_s=0.0, executors=2, executor=(1.0,), duration_s=5.0)
    >>> checked_job("a", 0.0, 2, (1.0,), 5.0, DEFAULT_FRAMEWORK, None, None) == job
    True
    """
    job = _new_object(Job)
    _set_id(job, id)
    _set_arrival(job, arrival_s)
    _set_executors(job, executors)
    _set_executor(job, executor)
    _set_duration(job, duration_s)
    _set_framework(job, framework)
    _set_deadline(job, deadline_s)
    _set_sensitivity(job, network_sensitivity)
    return job


_new_object = object.__new__
# The slots' own setters, in the order of checked_job's parameters (a test checks they are all
# of Job's fields).
CHECKED_JOB_FIELDS = (
    "id", "arrival_s", "executors", "executor", "duration_s", "framework", "deadline_s", "network_sensitivity"
)
(_set_id, _set_arrival, _set_executors, _set_executor, _set_duration, _set_framework, _set_deadline,
 _set_sensitivity) = (Job.__dict__[name].__set__ for name in CHECKED_JOB_FIELDS)
