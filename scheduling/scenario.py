"""The scenario document (JSON, version 1): parsing, validation and serialisation.

A scenario describes a cluster (VM types with capacities, hourly prices and counts), the
frameworks (tenants) that share it and their jobs. Validation collects *every* problem with
its path (``jobs[3].executor.cpu: must be > 0``) instead of stopping at the first, rejects
NaN, infinities, negative or absurd values, duplicate names and dangling references, and
enforces the size limits in :data:`LIMITS` so that a hostile document cannot exhaust memory.

Example
-------
>>> doc = {
...     "name": "tiny",
...     "vm_types": [{"name": "small", "capacity": {"cpu": 4, "mem": 16},
...                   "price_per_hour": 0.24, "count": 2}],
...     "jobs": [{"id": "j1", "arrival_s": 0, "executors": 2,
...               "executor": {"cpu": 2, "mem": 4}, "duration_s": 60}],
... }
>>> scenario = parse_scenario(doc)
>>> scenario.resources, scenario.machine_names()
(('cpu', 'mem'), ['small#1', 'small#2'])
>>> parse_scenario({**doc, "jobs": [{**doc["jobs"][0], "executors": 0}]})
Traceback (most recent call last):
...
scheduling.errors.ScenarioError: jobs[0].executors: must be >= 1
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from .errors import FieldError, ScenarioError

SCENARIO_VERSION = 1
DEFAULT_RESOURCES = ("cpu", "mem")

#: Size limits. A document beyond them is rejected before any large allocation.
LIMITS: dict[str, float] = {
    "document_bytes": 64 * 1024 * 1024,  # raw JSON text
    "resources": 16,
    "vm_types": 1_000,
    "machines": 100_000,  # sum of the VM types' counts
    "frameworks": 1_000,
    "jobs": 200_000,
    "executors_per_job": 100_000,
    "name_chars": 100,
    "capacity": 1e9,  # per resource per VM, in the resource's unit
    "price_per_hour": 1e6,
    "time_s": 1e9,  # arrivals, durations, deadlines (about 31 years)
    "weight": 1e6,
    "errors_reported": 200,
}


_CONTROL = re.compile(r"[\x00-\x1f]")


class _Errors:
    """Collects field errors; stops collecting (not validating) past the report limit."""

    def __init__(self) -> None:
        self.items: list[FieldError] = []
        self.dropped = 0

    def add(self, path: str, message: str) -> None:
        if len(self.items) < LIMITS["errors_reported"]:
            self.items.append(FieldError(path, message))
        else:
            self.dropped += 1

    def raise_if_any(self) -> None:
        if self.items:
            items = list(self.items)
            if self.dropped:
                items.append(FieldError("", f"... and {self.dropped} more errors"))
            raise ScenarioError(items)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class SimulationOptions:
    """Options of one simulation run; every field has a documented default.

    ``rut`` maps each resource to its Resource Unification Threshold (eq. 5 of paper 003:
    the weights sum to 1); ``None`` means 0.8 cpu / 0.2 mem when both exist, else equal
    weights. Billing options are off (0) by default: the VM is billed for exactly the
    seconds it is on. ``edf_backfill`` lets a deadline job that fits start while an earlier
    deadline job waits (Algorithm 1 of paper 003 makes the earliest deadline block the queue).
    """

    rut: tuple[tuple[str, float], ...] | None = None
    ilp_time_limit_s: float = 10.0
    ilp_method: str = "knapsack"
    boot_time_s: float = 0.0
    min_billed_s: float = 0.0
    billing_granularity_s: float = 0.0
    scheduling_interval_s: float = 0.0
    edf_backfill: bool = False

    ILP_METHODS = ("knapsack", "integer", "binary")

    def rut_weights(self, resources: tuple[str, ...]) -> tuple[float, ...]:
        """The RUT weight of each resource, in the scenario's resource order."""
        if self.rut is not None:
            given = dict(self.rut)
            return tuple(float(given.get(r, 0.0)) for r in resources)
        if "cpu" in resources and "mem" in resources:
            return tuple(0.8 if r == "cpu" else 0.2 if r == "mem" else 0.0 for r in resources)
        return tuple(1.0 / len(resources) for _ in resources)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["rut"] = dict(self.rut) if self.rut is not None else None
        return out

    @classmethod
    def from_dict(
        cls,
        data: Any,
        *,
        resources: tuple[str, ...],
        path: str = "options",
        base: SimulationOptions | None = None,
    ) -> SimulationOptions:
        """Parse options; raises :class:`ScenarioError` naming each bad field."""
        errors = _Errors()
        opts = _parse_options(data, resources, path, errors, base or cls())
        errors.raise_if_any()
        assert opts is not None
        return opts


def _parse_options(
    data: Any, resources: tuple[str, ...], path: str, errors: _Errors, base: SimulationOptions
) -> SimulationOptions | None:
    if data is None:
        return base
    if not isinstance(data, Mapping):
        errors.add(path, "must be an object")
        return None
    known = {f.name for f in fields(SimulationOptions)}
    _unknown_keys(data, known, path, errors)
    values: dict[str, Any] = {}
    for key in ("ilp_time_limit_s",):
        if key in data:
            v = _number(data[key], f"{path}.{key}", errors, minimum=0, exclusive=True, maximum=3600)
            if v is not None:
                values[key] = v
    for key in ("boot_time_s", "min_billed_s", "billing_granularity_s", "scheduling_interval_s"):
        if key in data:
            v = _number(data[key], f"{path}.{key}", errors, minimum=0, maximum=LIMITS["time_s"])
            if v is not None:
                values[key] = v
    if "edf_backfill" in data:
        flag = data["edf_backfill"]
        if isinstance(flag, bool):
            values["edf_backfill"] = flag
        elif isinstance(flag, (int, float)) and flag in (0, 1):
            values["edf_backfill"] = bool(flag)
        elif isinstance(flag, str) and flag.strip().lower() in ("true", "false", "1", "0", "yes", "no"):
            values["edf_backfill"] = flag.strip().lower() in ("true", "1", "yes")
        else:
            errors.add(f"{path}.edf_backfill", "must be true or false")
    if "ilp_method" in data:
        m = data["ilp_method"]
        if m not in SimulationOptions.ILP_METHODS:
            errors.add(f"{path}.ilp_method", f"must be one of {', '.join(SimulationOptions.ILP_METHODS)}")
        else:
            values["ilp_method"] = m
    if "rut" in data and data["rut"] is not None:
        rut = data["rut"]
        if not isinstance(rut, Mapping):
            errors.add(f"{path}.rut", "must be an object mapping resources to weights")
        else:
            parsed: list[tuple[str, float]] = []
            ok = True
            for r, w in rut.items():
                if r not in resources:
                    errors.add(f"{path}.rut.{r}", f"unknown resource (resources are {', '.join(resources)})")
                    ok = False
                    continue
                v = _number(w, f"{path}.rut.{r}", errors, minimum=0, maximum=1)
                if v is None:
                    ok = False
                else:
                    parsed.append((r, v))
            if ok:
                total = sum(w for _, w in parsed)
                if abs(total - 1.0) > 1e-6:
                    errors.add(f"{path}.rut", f"weights must sum to 1 (eq. 5 of paper 003), got {total:g}")
                else:
                    values["rut"] = tuple(sorted(parsed, key=lambda kv: resources.index(kv[0])))
    return replace(base, **values)


# --------------------------------------------------------------------------- scenario


@dataclass(frozen=True)
class VMType:
    name: str
    capacity: tuple[float, ...]  # in the scenario's resource order
    price_per_hour: float
    count: int


@dataclass(frozen=True)
class Framework:
    name: str
    weight: float = 1.0
    task_demand: tuple[float, ...] | None = None
    allowed_vm_types: tuple[str, ...] | None = None  # None: every type


@dataclass(frozen=True)
class Job:
    id: str
    arrival_s: float
    executors: int
    executor: tuple[float, ...]  # per-executor demand, in resource order
    duration_s: float
    framework: str = "default"
    deadline_s: float | None = None  # relative to arrival

    @property
    def absolute_deadline_s(self) -> float | None:
        return None if self.deadline_s is None else self.arrival_s + self.deadline_s


@dataclass(frozen=True)
class Scenario:
    """A validated scenario. Build it with :func:`parse_scenario`."""

    name: str
    resources: tuple[str, ...]
    vm_types: tuple[VMType, ...]
    frameworks: tuple[Framework, ...]
    jobs: tuple[Job, ...]
    options: SimulationOptions = field(default_factory=SimulationOptions)
    description: str = ""

    def machine_names(self) -> list[str]:
        """Machines are named ``<vm type>#<k>``, k = 1..count, in listed order."""
        return [f"{t.name}#{k}" for t in self.vm_types for k in range(1, t.count + 1)]

    def framework_map(self) -> dict[str, Framework]:
        """The declared frameworks, plus ``default`` (weight 1) for jobs that name none."""
        out = {f.name: f for f in self.frameworks}
        for j in self.jobs:
            if j.framework not in out:
                out[j.framework] = Framework(name=j.framework)
        return out

    def total_capacity(self) -> tuple[float, ...]:
        return tuple(
            sum(t.capacity[r] * t.count for t in self.vm_types) for r in range(len(self.resources))
        )

    def to_dict(self) -> dict[str, Any]:
        """The scenario as a version-1 document; ``parse_scenario(s.to_dict()) == s``."""
        res = self.resources

        def vec(v: tuple[float, ...]) -> dict[str, float]:
            return {r: _plain(x) for r, x in zip(res, v, strict=True)}

        doc: dict[str, Any] = {"version": SCENARIO_VERSION, "name": self.name}
        if self.description:
            doc["description"] = self.description
        doc["resources"] = list(res)
        doc["vm_types"] = [
            {"name": t.name, "capacity": vec(t.capacity), "price_per_hour": t.price_per_hour, "count": t.count}
            for t in self.vm_types
        ]
        fws = []
        for f in self.frameworks:
            d: dict[str, Any] = {"name": f.name, "weight": _plain(f.weight)}
            if f.task_demand is not None:
                d["task_demand"] = vec(f.task_demand)
            if f.allowed_vm_types is not None:
                d["allowed_vm_types"] = list(f.allowed_vm_types)
            fws.append(d)
        doc["frameworks"] = fws
        jobs = []
        for j in self.jobs:
            jd: dict[str, Any] = {"id": j.id}
            if j.framework != "default" or any(f.name == "default" for f in self.frameworks):
                jd["framework"] = j.framework
            jd.update(
                arrival_s=_plain(j.arrival_s),
                executors=j.executors,
                executor=vec(j.executor),
                duration_s=_plain(j.duration_s),
            )
            if j.deadline_s is not None:
                jd["deadline_s"] = _plain(j.deadline_s)
            jobs.append(jd)
        doc["jobs"] = jobs
        if self.options != SimulationOptions():
            doc["options"] = self.options.to_dict()
        return doc


def _plain(x: float) -> float | int:
    """Integers stay integers in JSON (``4`` rather than ``4.0``)."""
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else x


# --------------------------------------------------------------------------- parsing helpers


def _unknown_keys(data: Mapping[str, Any], known: Iterable[str], path: str, errors: _Errors) -> None:
    known = set(known)
    for key in data:
        if key not in known:
            where = f"{path}.{key}" if path else str(key)
            errors.add(where, f"unknown field (expected one of: {', '.join(sorted(known))})")


def _number(
    value: Any,
    path: str,
    errors: _Errors,
    *,
    minimum: float | None = None,
    exclusive: bool = False,
    maximum: float | None = None,
    integer: bool = False,
) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        errors.add(path, "must be an integer" if integer else "must be a number")
        return None
    if isinstance(value, float) and not math.isfinite(value):
        errors.add(path, "must be a finite number")
        return None
    if integer and not float(value).is_integer():
        errors.add(path, "must be an integer")
        return None
    if minimum is not None:
        if exclusive and value <= minimum:
            errors.add(path, f"must be > {minimum:g}")
            return None
        if not exclusive and value < minimum:
            errors.add(path, f"must be >= {minimum:g}")
            return None
    if maximum is not None and value > maximum:
        errors.add(path, f"must be <= {maximum:g}")
        return None
    return int(value) if integer else float(value)


def _name(value: Any, path: str, errors: _Errors, *, allow_int: bool = False) -> str | None:
    if allow_int and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        errors.add(path, "must be a string")
        return None
    if not value.strip():
        errors.add(path, "must not be empty")
        return None
    if len(value) > LIMITS["name_chars"]:
        errors.add(path, f"must be at most {int(LIMITS['name_chars'])} characters")
        return None
    if _CONTROL.search(value):
        errors.add(path, "must not contain control characters")
        return None
    return value


def _vector(
    value: Any, resources: tuple[str, ...], path: str, errors: _Errors, *, positive: bool
) -> tuple[float, ...] | None:
    """A per-resource amount such as ``{"cpu": 2, "mem": 4}``; every resource is required."""
    if not isinstance(value, Mapping):
        errors.add(path, f"must be an object with {', '.join(resources)}")
        return None
    ok = True
    for key in value:
        if key not in resources:
            errors.add(f"{path}.{key}", f"unknown resource (resources are {', '.join(resources)})")
            ok = False
    out = []
    for r in resources:
        if r not in value:
            errors.add(f"{path}.{r}", "is required")
            ok = False
            continue
        v = _number(
            value[r], f"{path}.{r}", errors, minimum=0, exclusive=positive, maximum=LIMITS["capacity"]
        )
        if v is None:
            ok = False
        else:
            out.append(v)
    return tuple(out) if ok else None


def _list(value: Any, path: str, errors: _Errors, limit_key: str) -> list[Any] | None:
    if not isinstance(value, list):
        errors.add(path, "must be a list")
        return None
    if len(value) > LIMITS[limit_key]:
        errors.add(path, f"has {len(value)} entries; the limit is {int(LIMITS[limit_key]):,}")
        return None
    return value


# --------------------------------------------------------------------------- the parser


def parse_scenario(doc: Any) -> Scenario:
    """Validate a version-1 scenario document and return a :class:`Scenario`.

    Raises :class:`~scheduling.errors.ScenarioError` listing every problem, each with its
    path. See the module docstring for an example.
    """
    errors = _Errors()
    if not isinstance(doc, Mapping):
        raise ScenarioError.single("", "the scenario must be a JSON object")
    _unknown_keys(
        doc,
        ("version", "name", "description", "resources", "vm_types", "frameworks", "jobs", "options"),
        "",
        errors,
    )
    if "version" in doc and doc["version"] != SCENARIO_VERSION:
        errors.add("version", f"unsupported version {doc['version']!r}; this program reads version 1")

    name = "Untitled scenario"
    if "name" in doc:
        name = _name(doc["name"], "name", errors) or name
    description = ""
    if "description" in doc:
        if not isinstance(doc["description"], str):
            errors.add("description", "must be a string")
        elif len(doc["description"]) > 10_000:
            errors.add("description", "must be at most 10,000 characters")
        else:
            description = doc["description"]

    resources: tuple[str, ...] = DEFAULT_RESOURCES
    if "resources" in doc:
        raw = _list(doc["resources"], "resources", errors, "resources")
        if raw is not None:
            names = [_name(r, f"resources[{i}]", errors) for i, r in enumerate(raw)]
            if not raw:
                errors.add("resources", "must name at least one resource")
            elif all(n is not None for n in names):
                dupes = {n for n in names if names.count(n) > 1}
                for d in sorted(dupes, key=str):
                    errors.add("resources", f"duplicate resource {d!r}")
                if not dupes:
                    resources = tuple(n for n in names if n is not None)
            errors.raise_if_any()  # everything below depends on the resource list

    vm_types = _parse_vm_types(doc.get("vm_types"), resources, errors, "vm_types" in doc)
    type_names = {t.name for t in vm_types}
    frameworks = _parse_frameworks(doc.get("frameworks", []), resources, type_names, errors)
    fw_names = {f.name for f in frameworks}
    jobs = _parse_jobs(doc.get("jobs"), resources, fw_names, errors, "jobs" in doc)
    options = _parse_options(doc.get("options"), resources, "options", errors, SimulationOptions())
    errors.raise_if_any()

    scenario = Scenario(
        name=name,
        resources=resources,
        vm_types=tuple(vm_types),
        frameworks=tuple(frameworks),
        jobs=tuple(jobs),
        options=options or SimulationOptions(),
        description=description,
    )
    _check_feasible(scenario, errors)
    errors.raise_if_any()
    return scenario


def _parse_vm_types(raw: Any, resources: tuple[str, ...], errors: _Errors, present: bool) -> list[VMType]:
    if not present:
        errors.add("vm_types", "is required")
        return []
    items = _list(raw, "vm_types", errors, "vm_types")
    if items is None:
        return []
    if not items:
        errors.add("vm_types", "must list at least one VM type")
    out: list[VMType] = []
    seen: set[str] = set()
    machines = 0
    for i, t in enumerate(items):
        p = f"vm_types[{i}]"
        if not isinstance(t, Mapping):
            errors.add(p, "must be an object")
            continue
        _unknown_keys(t, ("name", "capacity", "price_per_hour", "count"), p, errors)
        name = _name(t.get("name"), f"{p}.name", errors) if "name" in t else None
        if "name" not in t:
            errors.add(f"{p}.name", "is required")
        if name is not None:
            if "#" in name:
                errors.add(f"{p}.name", "must not contain '#' (machines are named <vm type>#<k>)")
                name = None
            elif name in seen:
                errors.add(f"{p}.name", f"duplicate VM type name {name!r}")
                name = None
            else:
                seen.add(name)
        cap = (
            _vector(t["capacity"], resources, f"{p}.capacity", errors, positive=False)
            if "capacity" in t
            else None
        )
        if "capacity" not in t:
            errors.add(f"{p}.capacity", "is required")
        elif cap is not None and not any(c > 0 for c in cap):
            errors.add(f"{p}.capacity", "must have some resource > 0")
            cap = None
        price = None
        if "price_per_hour" not in t:
            errors.add(f"{p}.price_per_hour", "is required")
        else:
            price = _number(
                t["price_per_hour"], f"{p}.price_per_hour", errors, minimum=0, maximum=LIMITS["price_per_hour"]
            )
        count = 1
        if "count" in t:
            c = _number(t["count"], f"{p}.count", errors, minimum=1, maximum=LIMITS["machines"], integer=True)
            count = int(c) if c is not None else 0
        machines += count
        if name is not None and cap is not None and price is not None and count:
            out.append(VMType(name=name, capacity=cap, price_per_hour=price, count=count))
    if machines > LIMITS["machines"]:
        errors.add("vm_types", f"describe {machines:,} machines in all; the limit is {int(LIMITS['machines']):,}")
    return out


def _parse_frameworks(
    raw: Any, resources: tuple[str, ...], type_names: set[str], errors: _Errors
) -> list[Framework]:
    items = _list(raw, "frameworks", errors, "frameworks")
    if items is None:
        return []
    out: list[Framework] = []
    seen: set[str] = set()
    for i, f in enumerate(items):
        p = f"frameworks[{i}]"
        if not isinstance(f, Mapping):
            errors.add(p, "must be an object")
            continue
        _unknown_keys(f, ("name", "weight", "task_demand", "allowed_vm_types"), p, errors)
        if "name" not in f:
            errors.add(f"{p}.name", "is required")
            continue
        name = _name(f["name"], f"{p}.name", errors)
        if name is not None and name in seen:
            errors.add(f"{p}.name", f"duplicate framework name {name!r}")
            name = None
        if name is not None:
            seen.add(name)
        weight: float | None = 1.0
        if "weight" in f:
            weight = _number(f["weight"], f"{p}.weight", errors, minimum=0, exclusive=True, maximum=LIMITS["weight"])
        demand = None
        if "task_demand" in f and f["task_demand"] is not None:
            demand = _vector(f["task_demand"], resources, f"{p}.task_demand", errors, positive=False)
            if demand is not None and not any(d > 0 for d in demand):
                errors.add(f"{p}.task_demand", "must have some resource > 0")
        allowed: tuple[str, ...] | None = None
        if "allowed_vm_types" in f and f["allowed_vm_types"] is not None:
            lst = _list(f["allowed_vm_types"], f"{p}.allowed_vm_types", errors, "vm_types")
            if lst is not None:
                good = []
                for k, tn in enumerate(lst):
                    q = f"{p}.allowed_vm_types[{k}]"
                    if not isinstance(tn, str):
                        errors.add(q, "must be a string")
                    elif tn not in type_names:
                        errors.add(q, f"unknown VM type {tn!r}")
                    else:
                        good.append(tn)
                if not lst:
                    errors.add(f"{p}.allowed_vm_types", "must allow at least one VM type (omit it to allow all)")
                allowed = tuple(dict.fromkeys(good))
        if name is not None and weight is not None:
            out.append(Framework(name=name, weight=weight, task_demand=demand, allowed_vm_types=allowed))
    return out


_JOB_KEYS = ("id", "framework", "arrival_s", "executors", "executor", "duration_s", "deadline_s")


def _parse_jobs(
    raw: Any, resources: tuple[str, ...], fw_names: set[str], errors: _Errors, present: bool
) -> list[Job]:
    if not present:
        errors.add("jobs", "is required")
        return []
    items = _list(raw, "jobs", errors, "jobs")
    if items is None:
        return []
    out: list[Job] = []
    seen: set[str] = set()
    tmax = LIMITS["time_s"]
    for i, j in enumerate(items):
        p = f"jobs[{i}]"
        if not isinstance(j, Mapping):
            errors.add(p, "must be an object")
            continue
        _unknown_keys(j, _JOB_KEYS, p, errors)
        missing = [k for k in ("id", "arrival_s", "executors", "executor", "duration_s") if k not in j]
        for k in missing:
            errors.add(f"{p}.{k}", "is required")
        jid = _name(j["id"], f"{p}.id", errors, allow_int=True) if "id" in j else None
        if jid is not None:
            if jid in seen:
                errors.add(f"{p}.id", f"duplicate job id {jid!r}")
                jid = None
            else:
                seen.add(jid)
        fw = "default"
        if "framework" in j and j["framework"] is not None:
            fwn = _name(j["framework"], f"{p}.framework", errors)
            if fwn is not None and fwn not in fw_names:
                errors.add(f"{p}.framework", f"unknown framework {fwn!r}")
                fwn = None
            if fwn is None:
                continue
            fw = fwn
        arrival = _number(j["arrival_s"], f"{p}.arrival_s", errors, minimum=0, maximum=tmax) if "arrival_s" in j else None
        n = (
            _number(j["executors"], f"{p}.executors", errors, minimum=1, maximum=LIMITS["executors_per_job"], integer=True)
            if "executors" in j
            else None
        )
        ex = _vector(j["executor"], resources, f"{p}.executor", errors, positive=False) if "executor" in j else None
        if ex is not None and not any(x > 0 for x in ex):
            errors.add(f"{p}.executor", "must demand some resource > 0")
            ex = None
        dur = (
            _number(j["duration_s"], f"{p}.duration_s", errors, minimum=0, exclusive=True, maximum=tmax)
            if "duration_s" in j
            else None
        )
        deadline = None
        if "deadline_s" in j and j["deadline_s"] is not None:
            deadline = _number(j["deadline_s"], f"{p}.deadline_s", errors, minimum=0, exclusive=True, maximum=tmax)
            if deadline is None:
                continue
        if None in (jid, arrival, n, ex, dur) or missing:
            continue
        assert jid is not None and arrival is not None and n is not None and ex is not None and dur is not None
        out.append(
            Job(id=jid, framework=fw, arrival_s=arrival, executors=int(n), executor=ex, duration_s=dur, deadline_s=deadline)
        )
    return out


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


def _check_feasible(scenario: Scenario, errors: _Errors) -> None:
    """Reject jobs that could never start even on an empty cluster (they would block queues)."""
    fws = scenario.framework_map()
    cache: dict[tuple[str, tuple[float, ...]], int] = {}  # workloads repeat executor shapes
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
            errors.add(f"jobs[{i}].executor", "does not fit on any VM type the job's framework may use")
        elif holdable < job.executors:
            errors.add(
                f"jobs[{i}].executors",
                f"needs {job.executors} executors but the VMs it may use hold at most {holdable} at once",
            )


def load_scenario_json(text: str | bytes) -> Scenario:
    """Parse JSON text (rejecting ``NaN`` and ``Infinity`` literals) and validate it."""
    if len(text) > LIMITS["document_bytes"]:
        raise ScenarioError.single("", f"the document is larger than {int(LIMITS['document_bytes']) // 2**20} MB")

    def reject(token: str) -> Any:
        raise ValueError(f"{token} is not allowed; numbers must be finite")

    try:
        doc = json.loads(text, parse_constant=reject)
    except (ValueError, RecursionError) as exc:
        raise ScenarioError.single("", f"not valid JSON: {exc}") from None
    return parse_scenario(doc)
