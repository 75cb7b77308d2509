"""A scenario's jobs and frameworks as arrays, the form the engine reads them in.

Jobs keep their position in the scenario as their index everywhere in the engine (queues,
placements, result columns).

>>> import numpy as np
>>> from scheduling.scenario import parse_scenario
>>> scenario = parse_scenario({"vm_types": [{"name": "a", "capacity": {"cpu": 4, "mem": 16},
...     "price_per_hour": 1, "count": 2}], "jobs": [{"id": "j", "arrival_s": 5, "executors": 2,
...     "executor": {"cpu": 2, "mem": 4}, "duration_s": 60, "deadline_s": 100}]})
>>> jobs = JobTable.from_scenario(scenario, rut=np.array([0.8, 0.2]), total=np.array([8.0, 32.0]))
>>> jobs.ids, jobs.deadline_s, round(float(jobs.resource_demand[0]), 3)
(['j'], [105.0], 0.45)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..numbers import weighted_rows
from ..scenario import JobShapes, Scenario
from .cluster import BoolArray, FloatArray, IntArray

__all__ = ["JobTable", "network_stretch", "rd_job"]


def rd_job(demand: FloatArray, executors: IntArray, total: FloatArray, rut: FloatArray) -> FloatArray:
    """RD_job (eq. 9 of paper 003): each job's RUT-weighted demand over the cluster's capacity.

    ``demand`` is one executor's demand per job and resource, ``executors`` the executors per
    job, ``total`` the cluster's capacity per resource (a resource of none counts as 1) and
    ``rut`` the RUT weight per resource. EDF's job queue orders jobs by it (Algorithm 1).

    >>> rd_job(np.array([[2.0, 4.0]]), np.array([2]), np.array([8.0, 32.0]), np.array([0.8, 0.2])).tolist()
    [0.45]
    """
    rd: FloatArray = weighted_rows(demand / np.where(total > 0, total, 1.0), rut) * executors
    return rd


def network_stretch(sensitivity: float, executors: int, vms: int) -> float:
    """How much longer a network-bound job runs when its executors are spread (notes §8).

    A job of ``executors`` executors placed on ``vms`` distinct VMs with network sensitivity
    ``sigma`` lasts ``d * (1 + sigma * (vms - 1) / max(executors - 1, 1))``: 1 when its
    executors share one VM (all its shuffles stay on the machine), ``1 + sigma`` when every
    executor has a VM of its own. Paper 003 measured the effect on real Spark (PageRank, Fig. 6);
    it does not model it, nor does its authors' simulator. A job of sensitivity 0 is never
    stretched.

    >>> network_stretch(0.3, 4, 2)  # 4 executors on 2 VMs: 1 + 0.3 * 1 / 3
    1.1
    >>> [network_stretch(0.3, 4, 4), network_stretch(0.3, 4, 1), network_stretch(0.3, 1, 1)]
    [1.3, 1.0, 1.0]
    >>> network_stretch(0.0, 8, 8)
    1.0
    """
    return 1.0 + sensitivity * (vms - 1) / max(executors - 1, 1)


@dataclass(frozen=True)
class JobTable:
    """Per job (index = position in the scenario) and per framework, what the engine needs."""

    ids: list[str]
    demand: FloatArray  # (jobs, resources): one executor's demand
    executors: IntArray
    arrival_s: FloatArray
    duration_s: FloatArray
    deadline_s: list[float | None]  # absolute (arrival + deadline), None without a deadline
    framework: IntArray  # index into framework_names
    framework_names: list[str]  # declared frameworks, then those only jobs name ("default")
    framework_weight: FloatArray
    framework_allowed: BoolArray  # (frameworks, VM types): may the framework use the type?
    resource_demand: FloatArray  # RD_job, eq. 9 of paper 003
    network_sensitivity: FloatArray  # sigma of notes §8 (the job's, else its framework's, else 0)

    @property
    def count(self) -> int:
        return len(self.ids)

    @property
    def network_bound(self) -> bool:
        """Whether any job has a network sensitivity (then results show each job's stretch)."""
        return bool((self.network_sensitivity > 0).any())

    @classmethod
    def from_scenario(cls, scenario: Scenario, *, rut: FloatArray, total: FloatArray) -> JobTable:
        """Arrays of ``scenario``'s jobs.

        ``rut`` weighs the resources and ``total`` (the cluster's capacity per resource,
        :attr:`Cluster.total <scheduling.cost.cluster.Cluster.total>`) normalises them in RD_job (eq. 9).
        """
        jobs = scenario.jobs
        n_resources = len(scenario.resources)
        frameworks = scenario.framework_map()
        names = list(frameworks)
        index = {name: k for k, name in enumerate(names)}
        shapes = JobShapes.of_jobs(jobs)  # one compiled pass, as the fit's
        demand = shapes.executor.reshape(len(jobs), n_resources)  # (0 x n for no jobs)
        executors = shapes.executors
        type_names = [t.name for t in scenario.vm_types]
        allowed = np.ones((len(names), len(type_names)), dtype=bool)
        for k, name in enumerate(names):
            allowed_types = frameworks[name].allowed_vm_types
            if allowed_types is not None:
                allowed[k] = [t in allowed_types for t in type_names]
        resource_demand = rd_job(demand, executors, total, rut)
        return cls(
            ids=[j.id for j in jobs],
            demand=demand,
            executors=executors,
            arrival_s=np.array([j.arrival_s for j in jobs], dtype=float),
            duration_s=np.array([j.duration_s for j in jobs], dtype=float),
            deadline_s=[j.absolute_deadline_s for j in jobs],
            framework=np.array([index[f] for f in shapes.frameworks.tolist()], dtype=np.int64),
            framework_names=names,
            framework_weight=np.array([frameworks[f].weight for f in names], dtype=float),
            framework_allowed=allowed,
            resource_demand=resource_demand,
            network_sensitivity=np.array(scenario.network_sensitivities(), dtype=float),
        )
