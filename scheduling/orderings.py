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

>>> import numpy as np
>>> from scheduling.cluster import Cluster
>>> from scheduling.job_table import JobTable
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

import heapq
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from typing import ClassVar

import numpy as np

from .cluster import Cluster
from .job_table import JobTable
from .scenario import SimulationOptions

__all__ = ["ORDERING_CLASSES", "EdfOrdering", "FifoOrdering", "MorpheusOrdering", "Ordering", "TryStart"]

#: Starts a job whole and returns ``True``, or changes nothing and returns ``False``.
TryStart = Callable[[int], bool]


class Ordering(ABC):
    """The queue of one scheduler: jobs go in on arrival, passes take out those that start."""

    name: ClassVar[str]
    #: One line for people, in the paper's words (the new-comparison page shows it).
    description: ClassVar[str]

    def __init__(self, jobs: JobTable, cluster: Cluster, options: SimulationOptions) -> None:
        self.jobs = jobs
        self.cluster = cluster
        self.options = options

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

    def __init__(self, jobs: JobTable, cluster: Cluster, options: SimulationOptions) -> None:
        super().__init__(jobs, cluster, options)
        self._queue: deque[int] = deque()

    def enqueue(self, job: int) -> None:
        self._queue.append(job)

    def schedule_pass(self, try_start: TryStart) -> list[int]:
        started: list[int] = []
        while self._queue and try_start(self._queue[0]):
            started.append(self._queue.popleft())
        return started


class EdfOrdering(Ordering):
    """Algorithm 1 of paper 003: the deadline queue (EDF) first, then the job queue (RD_job)."""

    name = "edf"
    description = (
        "deadline jobs earliest deadline first, then the others by descending demand (Algorithm 1, eq. 9)"
    )

    def __init__(self, jobs: JobTable, cluster: Cluster, options: SimulationOptions) -> None:
        super().__init__(jobs, cluster, options)
        self._deadline_queue: list[tuple[float, float, int]] = []  # (deadline, arrival, job) heap
        self._job_queue: list[int] = []  # kept sorted by (-RD_job, arrival, index) when clean
        self._job_queue_sorted = True

    def enqueue(self, job: int) -> None:
        deadline = self.jobs.deadline_s[job]
        if deadline is not None:
            heapq.heappush(self._deadline_queue, (deadline, float(self.jobs.arrival_s[job]), job))
        else:
            self._job_queue.append(job)
            self._job_queue_sorted = False

    def schedule_pass(self, try_start: TryStart) -> list[int]:
        started: list[int] = []
        if self.options.edf_backfill:
            # A deadline job that does not fit no longer blocks later deadline jobs.
            waiting = []
            while self._deadline_queue:
                item = heapq.heappop(self._deadline_queue)
                if try_start(item[2]):
                    started.append(item[2])
                else:
                    waiting.append(item)
            self._deadline_queue = waiting
            heapq.heapify(self._deadline_queue)
        while self._deadline_queue and try_start(self._deadline_queue[0][2]):
            started.append(heapq.heappop(self._deadline_queue)[2])
        if self._deadline_queue or not self._job_queue:
            return started  # a deadline job waits unplaced: no regular job starts
        if not self._job_queue_sorted:
            rd, arrival = self.jobs.resource_demand, self.jobs.arrival_s
            self._job_queue.sort(key=lambda i: (-rd[i], arrival[i], i))
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

    def __init__(self, jobs: JobTable, cluster: Cluster, options: SimulationOptions) -> None:
        super().__init__(jobs, cluster, options)
        self._waiting: set[int] = set()
        self._total = np.where(cluster.total > 0, cluster.total, 1.0)

    def enqueue(self, job: int) -> None:
        self._waiting.add(job)

    def schedule_pass(self, try_start: TryStart) -> list[int]:
        started: list[int] = []
        demand, executors, arrival = self.jobs.demand, self.jobs.executors, self.jobs.arrival_s
        candidates = np.array(sorted(self._waiting), dtype=np.int64)
        tried = np.zeros(len(candidates), dtype=bool)
        while len(candidates) and not tried.all():
            load = self.cluster.used_total
            # eq. 10: c_job = max over resources of (load + the job's demand) / total
            c_job = ((load + demand[candidates] * executors[candidates, None]) / self._total).max(axis=1)
            c_job[tried] = np.inf
            order = np.lexsort((arrival[candidates], c_job))
            progressed = False
            for k in order:
                if tried[k]:
                    break
                tried[k] = True
                job = int(candidates[k])
                if try_start(job):
                    started.append(job)
                    self._waiting.discard(job)
                    progressed = True
                    break  # the load changed: recompute c_job
            if not progressed:
                break
        return started


#: The orderings by name; a scheduler spec's ``<ordering>`` is one of these keys.
ORDERING_CLASSES: dict[str, type[Ordering]] = {
    cls.name: cls for cls in (FifoOrdering, EdfOrdering, MorpheusOrdering)
}
