"""Job orderings: which waiting job a scheduling pass tries next (paper 003).

Every ordering keeps its own queue behind one interface: :meth:`Ordering.enqueue` when a job
arrives, and :meth:`Ordering.schedule_pass`, which offers waiting jobs to ``try_start`` (the
placement) in the ordering's order and returns those that started. ``try_start`` either starts
the job whole and returns ``True`` or changes nothing and returns ``False``.

* ``fifo``: strict arrival order; the job at the head blocks the queue (Spark's FIFO, paper 003
  Section 6.1.3).
* ``edf``: Algorithm 1 of paper 003: deadline jobs earliest deadline first, and while one waits
  unplaced no regular job starts; regular jobs by descending RD_job (eq. 9), skipping one that
  does not fit. With the ``edf_backfill`` option a deadline job that does not fit no longer
  blocks later deadline jobs.
* ``morpheus``: ascending ``c_job`` (eq. 10), recomputed as the load changes.

Each ordering's order is one function of plain per-job arrays, :meth:`Ordering.queue_order`
(arrival, absolute deadline, RD_job, demand: :class:`QueueKeys`) and the cluster's load: the
simulator's queues follow it, and so does the replay of a result document
(:mod:`scheduling.cost.replay`), which has no simulator to ask.

>>> import numpy as np
>>> from scheduling.cost.cluster import Cluster
>>> from scheduling.cost.job_table import JobTable
>>> from scheduling.scenario import parse_scenario
>>> scenario = parse_scenario({"resources": ["cpu"], "vm_types": [{"name": "vm",
...     "capacity": {"cpu": 4}, "price_per_hour": 1}], "jobs": [
...     {"id": f"j{k}", "arrival_s": k, "executors": 1, "executor": {"cpu": 1}, "duration_s": 9,
...      **({"deadline_s": 50 - 10 * k} if k else {})} for k in range(3)]})
>>> cluster = Cluster(scenario)
>>> jobs = JobTable.from_scenario(scenario, rut=np.ones(1), total=cluster.total)
>>> edf = ORDERING_CLASSES["edf"](jobs, cluster, scenario.options)
>>> for job in range(3):
...     edf.enqueue(job)
>>> edf.schedule_pass(lambda job: True)  # j2's deadline (32 s) is earlier than j1's (41 s)
[2, 1, 0]
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from heapq import heapify, heappop, heappush
from typing import ClassVar

import numpy as np

from ..scenario import SimulationOptions
from .cluster import Cluster, FloatArray, IntArray
from .job_table import JobTable

__all__ = [
    "ORDERING_CLASSES",
    "EdfOrdering",
    "FifoOrdering",
    "MorpheusOrdering",
    "Ordering",
    "QueueKeys",
    "TryStart",
    "c_job",
]

#: Starts a job whole and returns ``True``, or changes nothing and returns ``False``.
TryStart = Callable[[int], bool]


@dataclass(frozen=True)
class QueueKeys:
    """What the orderings order waiting jobs by, per job (index = its position in the scenario)."""

    arrival_s: FloatArray
    deadline_s: FloatArray  # absolute (arrival + deadline); NaN for a job without a deadline
    demand: FloatArray  # (jobs, resources): one executor's demand
    executors: IntArray
    rd_job: FloatArray  # RD_job, eq. 9 of paper 003 (scheduling.cost.job_table.rd_job)
    total: FloatArray  # the cluster's capacity per resource

    @cached_property
    def job_load(self) -> FloatArray:
        """What each job adds to the cluster's load per resource: ``demand * executors``."""
        load: FloatArray = self.demand * self.executors[:, None]
        return load

    @classmethod
    def of_jobs(cls, jobs: JobTable, total: FloatArray) -> QueueKeys:
        """The keys of the simulator's job table on a cluster of capacity ``total``."""
        deadlines = np.array([np.nan if d is None else d for d in jobs.deadline_s], dtype=np.float64)
        return cls(
            arrival_s=jobs.arrival_s,
            deadline_s=deadlines,
            demand=jobs.demand,
            executors=jobs.executors,
            rd_job=jobs.resource_demand,
            total=total,
        )


def c_job(load: FloatArray, demand: FloatArray, executors: IntArray, total: FloatArray) -> FloatArray:
    """``c_job`` (eq. 10 of paper 003): the cluster's peak load, over resources, were the job placed.

    ``load`` is what the cluster uses per resource, ``demand`` one executor's demand per job,
    ``executors`` the executors per job and ``total`` the cluster's capacity (a resource of
    none counts as 1).

    >>> c_job(np.array([4.0, 2.0]), np.array([[2.0, 1.0], [1.0, 6.0]]), np.array([1, 1]),
    ...       np.array([8.0, 8.0])).tolist()
    [0.75, 1.0]
    """
    return _peak_load(load, demand * executors[:, None], total)


def _peak_load(load: FloatArray, job_load: FloatArray, total: FloatArray) -> FloatArray:
    """:func:`c_job` of jobs that add ``job_load`` (``demand * executors``, a row per job)."""
    if job_load.shape[1] == 0:
        return np.zeros(len(job_load))
    peak: FloatArray = ((load + job_load) / np.where(total > 0, total, 1.0)).max(axis=1)
    return peak


class Ordering(ABC):
    """The queue of one scheduler: jobs go in on arrival, passes take out those that start."""

    name: ClassVar[str]
    #: One line for people, in the paper's words (the new-comparison page shows it).
    description: ClassVar[str]
    #: The queue's order in words (the replay shows it).
    queue_text: ClassVar[str]
    #: Whether the order depends on the cluster's load (else it is one order of all jobs).
    load_dependent: ClassVar[bool] = False

    def __init__(self, jobs: JobTable, cluster: Cluster, options: SimulationOptions) -> None:
        self.jobs = jobs
        self.cluster = cluster
        self.options = options
        self.keys = QueueKeys.of_jobs(jobs, cluster.total)

    @classmethod
    @abstractmethod
    def queue_order(cls, keys: QueueKeys, waiting: IntArray, load: FloatArray) -> IntArray:
        """``waiting`` (job indices) in the order a pass offers them, while the cluster uses ``load``.

        Ties end with the job's index (its position in the scenario), so the order is total.
        """

    @classmethod
    def queue_rank(cls, keys: QueueKeys) -> IntArray:
        """Each job's position in the order of all jobs (for an order that ignores the load)."""
        n = len(keys.arrival_s)
        rank = np.empty(n, dtype=np.int64)
        rank[cls.queue_order(keys, np.arange(n, dtype=np.int64), np.zeros(len(keys.total)))] = np.arange(n)
        return rank

    def ranks(self) -> tuple[array[int], array[int]]:
        """:meth:`queue_rank` of every job, and the job of every rank: a queue of ranks (ints,
        compared as such) gives its jobs in the order of a queue of ``(rank, job)`` tuples,
        which compared two tuples at every step of the heap (8 bytes a job each, not 36)."""
        rank = self.queue_rank(self.keys)
        job_at = np.empty(len(rank), dtype=np.int64)
        job_at[rank] = np.arange(len(rank), dtype=np.int64)
        return array("q", rank.tolist()), array("q", job_at.tolist())

    @abstractmethod
    def enqueue(self, job: int) -> None:
        """Add an arrived job to the queue."""

    @abstractmethod
    def schedule_pass(self, try_start: TryStart) -> list[int]:
        """Offer waiting jobs to ``try_start`` in this ordering's order; the jobs that started."""


class FifoOrdering(Ordering):
    """Strict arrival order: the head blocks the queue (paper 003, Sections 2.1 and 6.4)."""

    name = "fifo"
    description = "jobs in arrival order; the first that does not fit blocks the rest (Spark's FIFO)"
    queue_text = "arrival order (FIFO: the first job blocks the others until it fits)"

    def __init__(self, jobs: JobTable, cluster: Cluster, options: SimulationOptions) -> None:
        super().__init__(jobs, cluster, options)
        self._rank, self._job_at = self.ranks()
        self._queue: list[int] = []  # the waiting jobs' ranks, a heap

    @classmethod
    def queue_order(cls, keys: QueueKeys, waiting: IntArray, load: FloatArray) -> IntArray:
        order: IntArray = waiting[np.lexsort((waiting, keys.arrival_s[waiting]))]
        return order

    def enqueue(self, job: int) -> None:
        heappush(self._queue, self._rank[job])

    def schedule_pass(self, try_start: TryStart) -> list[int]:
        started: list[int] = []
        job_at = self._job_at
        while self._queue and try_start(job_at[self._queue[0]]):
            started.append(job_at[heappop(self._queue)])
        return started


class EdfOrdering(Ordering):
    """Algorithm 1 of paper 003: the deadline queue (EDF) first, then the job queue (RD_job)."""

    name = "edf"
    description = (
        "deadline jobs earliest deadline first, then the others by descending demand (Algorithm 1, eq. 9)"
    )
    queue_text = (
        "deadline jobs by absolute deadline (EDF, Algorithm 1 of paper 003), then jobs without a "
        "deadline by descending RD_job (eq. 9), each tie by arrival"
    )

    def __init__(self, jobs: JobTable, cluster: Cluster, options: SimulationOptions) -> None:
        super().__init__(jobs, cluster, options)
        self._rank, self._job_at = self.ranks()
        self._deadline_queue: list[int] = []  # the waiting deadline jobs' ranks, a heap
        self._job_queue: list[int] = []  # kept in rank order when clean
        self._job_queue_sorted = True
        self._backfill: bool = options.edf_backfill  # read at every pass

    @classmethod
    def queue_order(cls, keys: QueueKeys, waiting: IntArray, load: FloatArray) -> IntArray:
        # Deadline jobs by (deadline, arrival), then the others by (-RD_job, arrival).
        deadline = keys.deadline_s[waiting]
        regular = np.isnan(deadline)
        key = np.where(regular, -keys.rd_job[waiting], deadline)
        order: IntArray = waiting[np.lexsort((waiting, keys.arrival_s[waiting], key, regular))]
        return order

    def enqueue(self, job: int) -> None:
        if self.jobs.deadline_s[job] is not None:
            heappush(self._deadline_queue, self._rank[job])
        else:
            self._job_queue.append(job)
            self._job_queue_sorted = False

    def schedule_pass(self, try_start: TryStart) -> list[int]:
        started: list[int] = []
        job_at = self._job_at
        if self._backfill:
            # A deadline job that does not fit no longer blocks later deadline jobs.
            waiting = []
            while self._deadline_queue:
                rank = heappop(self._deadline_queue)
                if try_start(job_at[rank]):
                    started.append(job_at[rank])
                else:
                    waiting.append(rank)
            self._deadline_queue = waiting
            heapify(self._deadline_queue)
        while self._deadline_queue and try_start(job_at[self._deadline_queue[0]]):
            started.append(job_at[heappop(self._deadline_queue)])
        if self._deadline_queue or not self._job_queue:
            return started  # a deadline job waits unplaced: no regular job starts
        if not self._job_queue_sorted:
            self._job_queue.sort(key=self._rank.__getitem__)
            self._job_queue_sorted = True
        keep = []
        for job in self._job_queue:  # descending RD_job; a job that does not fit is skipped
            if try_start(job):
                started.append(job)
            else:
                keep.append(job)
        self._job_queue = keep
        return started


class MorpheusOrdering(Ordering):
    """Ascending ``c_job`` (eq. 10 of paper 003), recomputed each time a job starts."""

    name = "morpheus"
    description = "the job that leaves the least loaded cluster first (Morpheus, eq. 10)"
    queue_text = (
        "ascending c_job at this instant's load (eq. 10 of paper 003), ties by arrival; the "
        "pass recomputes c_job after each job it places"
    )
    load_dependent = True

    def __init__(self, jobs: JobTable, cluster: Cluster, options: SimulationOptions) -> None:
        super().__init__(jobs, cluster, options)
        self._waiting: set[int] = set()

    @classmethod
    def queue_order(cls, keys: QueueKeys, waiting: IntArray, load: FloatArray) -> IntArray:
        c = _peak_load(load, keys.job_load[waiting], keys.total)  # c_job (eq. 10), products kept
        order: IntArray = waiting[np.lexsort((waiting, keys.arrival_s[waiting], c))]
        return order

    def enqueue(self, job: int) -> None:
        self._waiting.add(job)

    def schedule_pass(self, try_start: TryStart) -> list[int]:
        started: list[int] = []
        untried = np.array(sorted(self._waiting), dtype=np.int64)
        while len(untried):
            order = self.queue_order(self.keys, untried, self.cluster.used_total)
            for k, job in enumerate(order.tolist()):
                if try_start(job):
                    started.append(job)
                    self._waiting.discard(job)
                    untried = order[k + 1 :]  # the load changed: c_job again for the rest
                    break
            else:
                break  # none of them fits
        return started


#: The orderings by name; a scheduler spec's ``<ordering>`` is one of these keys.
ORDERING_CLASSES: dict[str, type[Ordering]] = {
    cls.name: cls for cls in (FifoOrdering, EdfOrdering, MorpheusOrdering)
}
