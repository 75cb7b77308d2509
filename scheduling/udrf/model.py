"""The UDRF model (paper 004 §II-B): machine classes, users, jobs and their demands.

A *resource* is a pair (machine class, resource kind), such as ``("gpu", "cpu")``; the system's
capacity :math:`c_{m,k}` is the class's whole capacity (paper 004 pools a class, as the Google
trace's classes are pooled). A job's demand :math:`R^j_{m,k}` is the sum over its tasks of
``count`` x ``demand`` on the task's class. Users are the scenario's frameworks that list
``complex_jobs``; a user's weight scales its fair level (1 for every user in the paper).

>>> from scheduling.scenario import parse_scenario
>>> problem = UdrfProblem.from_scenario(parse_scenario({
...     "version": 3, "resources": ["cpu", "mem"],
...     "vm_types": [{"name": "n", "capacity": {"cpu": 8, "mem": 16}, "price_per_hour": 0, "count": 2}],
...     "frameworks": [{"name": "u1", "complex_jobs": [{"id": "a", "tasks": [
...         {"machine_class": "n", "demand": {"cpu": 1, "mem": 4}, "count": 2}]}]}]}))
>>> problem.resource_labels(), problem.capacity, problem.demands[0]
(['n/cpu', 'n/mem'], (16.0, 32.0), {0: 2.0, 1: 8.0})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..errors import ScenarioError
from ..scenario import ComplexJob, Scenario

__all__ = ["UdrfJob", "UdrfProblem"]


@dataclass(frozen=True)
class UdrfJob:
    """One job type of a user: its demand per resource index (sparse) and how it runs."""

    user: int
    id: str
    job: ComplexJob

    @property
    def classes(self) -> tuple[str, ...]:
        return self.job.classes


@dataclass(frozen=True)
class UdrfProblem:
    """Machine classes x resource kinds as flat resources, users and their jobs.

    ``demands[j]`` maps a resource index to job ``j``'s demand on it (only positive entries);
    resource ``r`` is class ``r // K``, kind ``r % K`` with ``K = len(kinds)``.
    """

    kinds: tuple[str, ...]
    classes: tuple[str, ...]
    capacity: tuple[Any, ...]  # per resource index (float, or Fraction when exact)
    users: tuple[str, ...]
    weights: tuple[Any, ...]
    jobs: tuple[UdrfJob, ...]
    demands: tuple[dict[int, Any], ...]
    user_jobs: tuple[tuple[int, ...], ...] = field(default=())

    @classmethod
    def from_scenario(cls, scenario: Scenario, *, exact: bool = False) -> UdrfProblem:
        """The problem of a scenario's complex jobs; ``exact`` keeps every number a ``Fraction``
        (for checks against the paper's hand-worked shares)."""
        num = (lambda x: Fraction(x).limit_denominator(10**9)) if exact else float
        kinds = scenario.resources
        k_count = len(kinds)
        class_cap = scenario.class_capacity()
        classes = tuple(class_cap)
        index = {c: i for i, c in enumerate(classes)}
        capacity = tuple(num(class_cap[c][k]) for c in classes for k in range(k_count))
        users: list[str] = []
        weights: list[Any] = []
        jobs: list[UdrfJob] = []
        demands: list[dict[int, Any]] = []
        user_jobs: list[tuple[int, ...]] = []
        for f in scenario.frameworks:
            if not f.complex_jobs:
                continue
            u = len(users)
            users.append(f.name)
            weights.append(num(f.weight))
            mine = []
            for job in f.complex_jobs:
                demand: dict[int, Any] = {}
                for t in job.tasks:
                    base = index[t.machine_class] * k_count
                    for k, d in enumerate(t.demand):
                        if d > 0:
                            demand[base + k] = demand.get(base + k, num(0)) + num(d) * t.count
                mine.append(len(jobs))
                jobs.append(UdrfJob(user=u, id=job.id, job=job))
                demands.append(demand)
            user_jobs.append(tuple(mine))
        if not users:
            raise ScenarioError.single(
                "frameworks",
                "no framework lists complex_jobs: UDRF needs users with jobs (scenario version 3)",
            )
        return cls(kinds=kinds, classes=classes, capacity=capacity, users=tuple(users),
                   weights=tuple(weights), jobs=tuple(jobs), demands=tuple(demands),
                   user_jobs=tuple(user_jobs))

    @property
    def resource_count(self) -> int:
        return len(self.capacity)

    def resource_label(self, r: int) -> str:
        """``class/kind``, the resource's name in documents and charts."""
        k = len(self.kinds)
        return f"{self.classes[r // k]}/{self.kinds[r % k]}"

    def resource_labels(self) -> list[str]:
        return [self.resource_label(r) for r in range(self.resource_count)]

    def gross_demand(self, u: int) -> dict[int, Any]:
        """Eq. (1): the user's gross demand, one of each of its jobs."""
        out: dict[int, Any] = {}
        for j in self.user_jobs[u]:
            for r, d in self.demands[j].items():
                out[r] = out.get(r, 0) + d
        return out

    @cached_property
    def pooled_capacity(self) -> tuple[Any, ...]:
        """Per resource kind, the whole cluster's capacity (every class's, pooled)."""
        k = len(self.kinds)
        return tuple(sum(self.capacity[c * k + kk] for c in range(len(self.classes))) for kk in range(k))

    def global_dominant_share(self, held: Mapping[int, Any] | Sequence[Any]) -> Any:
        """The global dominant share of what a user holds: the largest share of a resource kind
        over the whole cluster, classes pooled (unweighted; exact when the numbers are).

        ``held`` maps resource indices to amounts (or lists one amount per resource). The
        offline document and the online simulation both measure it here.

        >>> from scheduling.scenario import parse_scenario
        >>> p = UdrfProblem.from_scenario(parse_scenario({"version": 3, "resources": ["cpu", "mem"],
        ...     "vm_types": [{"name": "a", "capacity": {"cpu": 4, "mem": 8}, "price_per_hour": 0},
        ...                  {"name": "b", "capacity": {"cpu": 4, "mem": 8}, "price_per_hour": 0}],
        ...     "frameworks": [{"name": "u", "complex_jobs": [{"id": "j", "tasks": [
        ...         {"machine_class": "a", "demand": {"cpu": 1, "mem": 1}}]}]}]}))
        >>> p.global_dominant_share({0: 2.0, 1: 1.0, 2: 2.0}), p.global_dominant_share([0, 0, 0, 0])
        (0.5, 0.0)
        """
        k = len(self.kinds)
        per_kind: list[Any] = [0] * k
        for r, h in (held.items() if isinstance(held, Mapping) else enumerate(held)):
            per_kind[r % k] = per_kind[r % k] + h
        pooled = self.pooled_capacity
        return max((per_kind[kk] / pooled[kk] for kk in range(k) if pooled[kk] > 0), default=0)

    def positive_demand(self, u: int) -> set[int]:
        """Eq. (2): the resources the user demands, :math:`\\mathcal{P}_u`."""
        return {r for j in self.user_jobs[u] for r in self.demands[j]}
