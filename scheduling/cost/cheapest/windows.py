"""The demand-window test: a cluster too small for the work due in some window misses a deadline.

Every deadline job that meets its deadline runs inside ``[arrival, arrival + deadline]``. So
for any window ``[a, d]``, the work of the deadline jobs that arrive at or after ``a`` and are
due by ``d`` (executors x demand x duration, per resource, each job at its unstretched
duration: a network stretch only adds to it) must fit in the cluster's capacity over the
window: ``W_r(a, d) <= capacity_r * (d - a)`` for every resource ``r``. A cluster that fails
this for some window misses some deadline whatever the scheduler does; so does every cluster
with no more VMs of any type (its capacity is no larger). The test holds for every window at
once exactly when each resource's capacity reaches the *demand density*
``max over windows of W_r(a, d) / (d - a)``, computed once per workload by
:func:`demand_density`, so testing a candidate costs one comparison per resource.

Windows of no length count too: a job due within less than twice its duration runs, wherever
it starts, through its *compulsory part* ``[deadline - duration, arrival + duration]``, so at
every instant the executors of the compulsory parts that cover it must fit in the cluster's
capacity (the peak of that profile is a density like a window's). A job due before it can end
(a deadline shorter than its duration) makes every cluster fail.

It is a necessary condition only, and only for a target of no missed deadline: a target that
allows misses lets any job run late.

>>> from scheduling.scenario import parse_scenario
>>> s = parse_scenario({"resources": ["cpu"], "vm_types": [{"name": "v", "capacity": {"cpu": 4},
...     "price_per_hour": 1, "count": 2}], "jobs": [
...     {"id": "a", "arrival_s": 0, "executors": 2, "executor": {"cpu": 2}, "duration_s": 50,
...      "deadline_s": 100},
...     {"id": "b", "arrival_s": 50, "executors": 4, "executor": {"cpu": 2}, "duration_s": 50,
...      "deadline_s": 50}]})
>>> density = demand_density(s)
>>> density.density, density.windows
((8.0,), ((50.0, 100.0),))
>>> density.compulsory, density.instants
((8.0,), (50.0,))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ...scenario import Job, Scenario

__all__ = ["DemandDensity", "demand_density", "passes_demand_windows"]

#: Window sums held at once (a block of starts x every deadline x resources): about 16 MB.
_CELLS = 2_000_000

#: Relative slack of the comparison: a cluster is pruned only when its capacity is short by
#: more than rounding, so no feasible cluster is ever pruned for a floating-point residue.
_SLACK = 1e-9


@dataclass(frozen=True)
class DemandDensity:
    """Per resource, the densest window's work per second and that window ``(a, d)`` in seconds
    (``None`` where no deadline job uses the resource), the peak of the compulsory parts and
    its instant, and the first job that cannot meet its deadline on any cluster (if one)."""

    resources: tuple[str, ...]
    density: tuple[float, ...]  # resource units that must be available, per second of the window
    windows: tuple[tuple[float, float] | None, ...]
    compulsory: tuple[float, ...] = ()  # resource units running at the compulsory parts' peak
    instants: tuple[float | None, ...] = ()
    impossible_job: str | None = None  # due before it can end: no cluster meets every deadline

    @property
    def need(self) -> tuple[float, ...]:
        """The capacity per resource a cluster needs to pass (``inf``: none passes)."""
        if self.impossible_job is not None:
            return (float("inf"),) * len(self.resources)
        compulsory = self.compulsory or (0.0,) * len(self.resources)
        return tuple(max(a, b) for a, b in zip(self.density, compulsory, strict=True))

    def to_dict(self) -> dict[str, object]:
        compulsory = self.compulsory or (0.0,) * len(self.resources)
        instants = self.instants or (None,) * len(self.resources)
        return {
            "impossible_job": self.impossible_job,
            "resources": {
                r: {
                    "need": n,
                    "density": d,
                    "window_s": list(w) if w is not None else None,
                    "compulsory": c,
                    "compulsory_at_s": i,
                }
                for r, n, d, w, c, i in zip(
                    self.resources, self.need, self.density, self.windows, compulsory, instants, strict=True
                )
            },
        }


def demand_density(scenario: Scenario) -> DemandDensity:
    """The densest demand window of ``scenario``'s deadline jobs, per resource (module docstring).

    Windows start at a deadline job's arrival and end at one's absolute deadline (the densest
    window of any kind is one of these: moving its start up to the next arrival or its end back
    to the last deadline keeps its work and shortens it). A window of no length holding work (a
    deadline of 0) has an infinite density: no cluster meets it. Time ``O(n^2)`` in deadline jobs,
    in blocks of memory ``O(n)``.
    """
    jobs = [j for j in scenario.jobs if j.deadline_s is not None]
    n_res = len(scenario.resources)
    if not jobs:
        return DemandDensity(
            scenario.resources, (0.0,) * n_res, (None,) * n_res, (0.0,) * n_res, (None,) * n_res
        )
    impossible = next((j.id for j in jobs if float(j.deadline_s or 0.0) < j.duration_s * (1 - _SLACK)), None)
    arrival = np.array([j.arrival_s for j in jobs], dtype=float)
    due = np.array([j.arrival_s + float(j.deadline_s or 0.0) for j in jobs], dtype=float)
    work = np.array([np.asarray(j.executor, dtype=float) * (j.executors * j.duration_s) for j in jobs])
    by_due = np.argsort(due, kind="stable")
    due_sorted, work_sorted, arrival_sorted = due[by_due], work[by_due], arrival[by_due]
    starts = np.unique(arrival)
    best = np.zeros(n_res)
    where: list[tuple[float, float] | None] = [None] * n_res
    block = max(1, _CELLS // (len(jobs) * max(n_res, 1)))
    for b in range(0, len(starts), block):
        a = starts[b : b + block]  # (A,)
        inside = arrival_sorted[None, :] >= a[:, None]  # (A, J): job arrives at or after a
        w = np.cumsum(inside[:, :, None] * work_sorted[None, :, :], axis=1)  # (A, J, R): due by due_sorted[j]
        length = due_sorted[None, :] - a[:, None]  # (A, J)
        with np.errstate(divide="ignore", invalid="ignore"):
            dens = np.where(length[:, :, None] > 0, w / length[:, :, None], np.where(w > 0, np.inf, 0.0))
        for r in range(n_res):
            k = int(np.argmax(dens[:, :, r]))
            i, j = divmod(k, dens.shape[1])
            if dens[i, j, r] > best[r]:
                best[r] = float(dens[i, j, r])
                where[r] = (float(a[i]), float(due_sorted[j]))
    compulsory, instants = _compulsory_peak(jobs, n_res)
    return DemandDensity(
        scenario.resources, tuple(float(x) for x in best), tuple(where), compulsory, instants, impossible
    )


def _compulsory_peak(jobs: list[Job], n_res: int) -> tuple[tuple[float, ...], tuple[float | None, ...]]:
    """Per resource, the most the compulsory parts (module docstring) run at one instant, and when."""
    events: list[tuple[float, int, int]] = []  # (time, 0 = an end before 1 = a start, job)
    for k, j in enumerate(jobs):
        lo, hi = j.arrival_s + float(j.deadline_s or 0.0) - j.duration_s, j.arrival_s + j.duration_s
        if hi > lo:
            events += [(lo, 1, k), (hi, 0, k)]
    events.sort()
    running, peak = np.zeros(n_res), np.zeros(n_res)
    at: list[float | None] = [None] * n_res
    for t, start, k in events:
        amount = np.asarray(jobs[k].executor, dtype=float) * jobs[k].executors
        running = running + amount if start else running - amount
        for r in np.flatnonzero(running > peak):
            peak[r], at[r] = running[r], t
    return tuple(float(x) for x in peak), tuple(at)


def passes_demand_windows(capacity: NDArray[np.float64], density: DemandDensity) -> NDArray[np.bool_]:
    """Per cluster (row of ``capacity``: its total per resource), does it pass every window?

    >>> d = DemandDensity(("cpu", "mem"), (8.0, 10.0), ((0.0, 1.0), (0.0, 1.0)))
    >>> passes_demand_windows(np.array([[8.0, 32.0], [4.0, 16.0]]), d).tolist()
    [True, False]
    """
    need = np.asarray(density.need, dtype=float)
    ok = np.asarray((capacity >= need[None, :] * (1 - _SLACK)).all(axis=1), dtype=bool)
    return ok
