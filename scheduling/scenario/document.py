"""The document's dataclasses: VM types, frameworks, jobs, a workload and a whole scenario.

Build them with :func:`~scheduling.scenario.parse_scenario` and
:func:`~scheduling.scenario.parse_workload`, which check every field; ``to_dict`` gives the
version-1 document back.

>>> from scheduling.scenario import parse_workload
>>> workload = parse_workload({"jobs": [{"id": "j1", "arrival_s": 0, "executors": 2,
...                                      "executor": {"cpu": 2, "mem": 4}, "duration_s": 60}]})
>>> workload.to_dict()["jobs"][0]["executor"]
{'cpu': 2, 'mem': 4}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import FieldError
from .checks import plain
from .limits import SCENARIO_VERSION
from .options import SimulationOptions

__all__ = ["Framework", "Job", "Scenario", "VMType", "Workload"]

#: The framework of a job that names none.
DEFAULT_FRAMEWORK = "default"


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
    framework: str = DEFAULT_FRAMEWORK
    deadline_s: float | None = None  # relative to arrival

    @property
    def absolute_deadline_s(self) -> float | None:
        return None if self.deadline_s is None else self.arrival_s + self.deadline_s


def _vector(resources: tuple[str, ...], values: tuple[float, ...]) -> dict[str, float | int]:
    return {r: plain(x) for r, x in zip(resources, values, strict=True)}


def _frameworks_doc(resources: tuple[str, ...], frameworks: tuple[Framework, ...]) -> list[dict[str, Any]]:
    out = []
    for f in frameworks:
        d: dict[str, Any] = {"name": f.name, "weight": plain(f.weight)}
        if f.task_demand is not None:
            d["task_demand"] = _vector(resources, f.task_demand)
        if f.allowed_vm_types is not None:
            d["allowed_vm_types"] = list(f.allowed_vm_types)
        out.append(d)
    return out


def _jobs_doc(
    resources: tuple[str, ...], frameworks: tuple[Framework, ...], jobs: tuple[Job, ...]
) -> list[dict[str, Any]]:
    default_declared = any(f.name == DEFAULT_FRAMEWORK for f in frameworks)
    out = []
    for j in jobs:
        jd: dict[str, Any] = {"id": j.id}
        if j.framework != DEFAULT_FRAMEWORK or default_declared:
            jd["framework"] = j.framework
        jd.update(
            arrival_s=plain(j.arrival_s),
            executors=j.executors,
            executor=_vector(resources, j.executor),
            duration_s=plain(j.duration_s),
        )
        if j.deadline_s is not None:
            jd["deadline_s"] = plain(j.deadline_s)
        out.append(jd)
    return out


@dataclass(frozen=True)
class Workload:
    """Frameworks and their jobs, without a cluster. Build it with :func:`parse_workload`.

    ``warnings`` lists what is valid but probably not meant (a deadline shorter than the
    job's duration, ...), each with its path, like an error.
    """

    resources: tuple[str, ...]
    frameworks: tuple[Framework, ...]
    jobs: tuple[Job, ...]
    warnings: tuple[FieldError, ...] = field(default=(), compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """``{"resources", "frameworks", "jobs"}`` as a scenario document writes them."""
        return {
            "resources": list(self.resources),
            "frameworks": _frameworks_doc(self.resources, self.frameworks),
            "jobs": _jobs_doc(self.resources, self.frameworks, self.jobs),
        }


@dataclass(frozen=True)
class Scenario:
    """A validated scenario. Build it with :func:`parse_scenario`.

    ``warnings`` lists what is valid but probably not meant, each with its path.
    """

    name: str
    resources: tuple[str, ...]
    vm_types: tuple[VMType, ...]
    frameworks: tuple[Framework, ...]
    jobs: tuple[Job, ...]
    options: SimulationOptions = field(default_factory=SimulationOptions)
    description: str = ""
    warnings: tuple[FieldError, ...] = field(default=(), compare=False, repr=False)

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
        return tuple(sum(t.capacity[r] * t.count for t in self.vm_types) for r in range(len(self.resources)))

    def to_dict(self) -> dict[str, Any]:
        """The scenario as a version-1 document; ``parse_scenario(s.to_dict()) == s``."""
        res = self.resources
        doc: dict[str, Any] = {"version": SCENARIO_VERSION, "name": self.name}
        if self.description:
            doc["description"] = self.description
        doc["resources"] = list(res)
        doc["vm_types"] = [
            {
                "name": t.name,
                "capacity": _vector(res, t.capacity),
                "price_per_hour": t.price_per_hour,
                "count": t.count,
            }
            for t in self.vm_types
        ]
        doc["frameworks"] = _frameworks_doc(res, self.frameworks)
        doc["jobs"] = _jobs_doc(res, self.frameworks, self.jobs)
        if self.options != SimulationOptions():
            doc["options"] = self.options.to_dict()
        return doc
