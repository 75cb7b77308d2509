"""Online sharing: frameworks sharing a fixed cluster over time (paper 000 §V, paper 001; notes §4-5).

Each framework's tasks arrive (its task queues and its jobs, :class:`~scheduling.scenario.TaskQueue`),
wait in one queue in arrival order, run for their duration once launched and are never
preempted. The allocator decides every ``allocation_interval_s`` seconds (Mesos' batch
allocation, 1 s by default), in one of two modes:

* ``offers``, the Mesos offer cycle (paper 001, Algorithm 1; notes §4) as Mesos 1.3 and
  Marathon 1.4 run it: the agents (servers) whose unallocated resources are allocatable (at
  least 0.01 cpu or 32 MB of memory: no disk-only offers), in a fresh random order; each
  agent's whole unallocated vector is offered to the registered framework with the smallest
  weighted dominant share (ties: fewest allocations so far, then name) that has not filtered
  that agent. Resources held in outstanding offers count in the share, and so does every
  offer until the decision ends, whether the framework launches into it or not. The framework
  answers by its ``offer_policy``: ``first-fit`` launches one pending task that fits,
  ``bin-packing`` as many as fit, ``greedy`` at most ``max_tasks_per_offer`` (5) and sets no
  filter while it has tasks waiting (Marathon), ``hold`` launches what fits, else, with tasks
  waiting, keeps the offer until a task fits (checked at each later decision) or ``hold_s``
  has passed (Aurora). Declining an offer, or using part of it, filters that agent for the
  framework for ``refuse_s`` seconds (a greedy framework with tasks waiting sets none);
  declined resources return to the pool for the next decision. A registered framework with
  nothing waiting declines every offer it gets (idle frameworks, paper 001 §V-D). Each agent
  is offered once per decision. A framework registers when its first task queue starts (its
  first job arrives; 0 without either). Each of these rules is an option of :func:`share`
  (:class:`~scheduling.fairness.sharing_inputs.OfferRules`), the Mesos behaviour by default.
* ``characterized``, workload-characterized allocation (paper 000 §V-A): each decision runs
  :func:`~scheduling.fairness.filling.progressive_filling` with the criterion and server
  selection over the free capacity, the running tasks counted in the criteria and the waiting
  tasks as the limit, and launches what it returns (one task's worth at a time).

Results (:meth:`SharingResult.to_dict`, the sharing document): per framework over time the
running tasks, dominant share, share held in offers, fair share (paper 001 §II, notes §5: its
weight over the weights of the frameworks that have tasks, a constant line) and waiting
tasks; utilisation per resource; unfairness over the contention window of §II, from "all
frameworks have started launching" to "the first has launched all its tasks"
(:func:`scheduling.metrics.window_unfairness`; none when that window is empty), and beside it
the pending-work reading (fair share among the frameworks with tasks waiting); makespan,
completion and offer counts.

:func:`share` is the front door; the run's inputs (the workload expanded into units of tasks,
the arguments checked) are :mod:`scheduling.fairness.sharing_inputs`', the simulation loop
and its step limits :mod:`scheduling.fairness.sharing_run`'s and the document
:mod:`scheduling.fairness.sharing_doc`'s.

>>> from scheduling.scenario import parse_scenario
>>> s = parse_scenario({"vm_types": [{"name": "node", "capacity": {"cpu": 4, "mem": 4},
...                                   "price_per_hour": 0, "count": 1}],
...     "frameworks": [{"name": "a", "task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "first-fit",
...                     "refuse_s": 0, "queues": [{"tasks": 4, "duration_s": 10}]}]})
>>> doc = share(s, seed=1).to_dict()
>>> doc["completion"]["a"]["last_start_s"], doc["makespan_s"]   # first fit: one task a second
(3.0, 13.0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..scenario import OFFER_POLICIES, Scenario, parse_scenario
from .model import FairnessProblem
from .sharing_doc import MAX_TIMELINE_POINTS, _document
from .sharing_inputs import SHARING_MODES, OfferRules, _settings
from .sharing_run import _Run

__all__ = ["MAX_TIMELINE_POINTS", "OFFER_POLICIES", "SHARING_MODES", "OfferRules", "SharingResult", "share"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class SharingResult:
    """One sharing run: the problem, every task's times and machine, and the document.

    ``framework``, ``arrival_s``, ``start_s``, ``finish_s`` and ``machine`` have one entry
    per task (``nan`` / -1 for a task not started by the horizon).
    """

    problem: FairnessProblem
    framework: NDArray[np.int64]
    demand: FloatArray  # (tasks, R)
    arrival_s: FloatArray
    start_s: FloatArray
    finish_s: FloatArray
    machine: NDArray[np.int64]
    document: dict[str, Any] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The sharing document (JSON-ready; ``docs/results.md``)."""
        return self.document


# --------------------------------------------------------------------------- the front door


def share(
    scenario: Scenario | Mapping[str, Any],
    *,
    mode: str = "offers",
    criterion: str = "drf",
    servers: str | None = None,
    allocation_interval_s: float = 1.0,
    seed: int = 0,
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    horizon_s: float | None = None,
    label: str | None = None,
    progress: Callable[[float], None] | None = None,
    max_tasks_per_offer: int = 5,
    registration: str = "queues",
    offers_count: str = "decision",
    minimum_offer: str = "mesos",
    drf_ties: str = "allocations",
) -> SharingResult:
    """Simulate the frameworks of ``scenario`` sharing its cluster over time.

    Parameters
    ----------
    scenario : Scenario or dict
        A validated scenario (or a scenario document, validated first): its frameworks' task
        queues (version 2) and its jobs (each job is its executors as tasks of its framework),
        on the machines of its VM types.
    mode : {"offers", "characterized"}
        The Mesos offer cycle, or workload-characterized progressive filling (module docstring).
    criterion : str
        ``drf`` in offers mode (Mesos sorts frameworks by DRF); in characterized mode one of
        :data:`~scheduling.fairness.filling.POLICIES`.
    servers : {"rrr", "joint", "best-fit"}, optional
        Characterized mode's server selection (rrr by default; bf-drf: best fit). The offer
        cycle visits agents in random order, which is ``rrr``.
    allocation_interval_s : float
        Seconds between two allocation decisions (Mesos' default 1 s).
    seed : int
        Seeds every random choice (agent order, ties, Poisson arrivals): the same seed gives
        the same document.
    overrides : mapping, optional
        Framework name -> ``{offer_policy, refuse_s, hold_s}`` replacing the scenario's.
    horizon_s : float, optional
        Stop at this simulated time (tasks not finished by then are reported so).
    label : str, optional
        The document's label.
    progress : callable, optional
        Called now and then with the fraction of tasks finished; it may raise to stop the run.
    max_tasks_per_offer : int
        The most tasks a greedy framework launches on one offer (Marathon 1.4: 5; 0: no limit).
    registration : {"queues", "start"}
        A framework registers when its first task queue starts (Mesos: the master does not know
        it before), or every framework at 0.
    offers_count : {"decision", "launched"}
        Every offer counts in its receiver's share in whole until the allocation decision ends
        (Mesos), or only what it launches (and holds).
    minimum_offer : {"mesos", "none"}
        Only agents with at least 0.01 cpu or 32 MB of memory unallocated are offered (Mesos),
        or any agent with anything unallocated.
    drf_ties : {"allocations", "random"}
        Frameworks of equal share in the fewest-allocations-then-name order (Mesos' sorter), or
        at random.

    Returns
    -------
    SharingResult
        ``.to_dict()`` is the sharing document.

    Raises
    ------
    ScenarioError
        For an unknown mode (path ``mode``), criterion or server selection, a bad interval,
        horizon, rule (its name) or override (``overrides.<framework>.<field>``), or a
        scenario with no framework that has work (``frameworks``).

    Examples
    --------
    Two first-fit frameworks on one 4-cpu agent: each offer launches one task, the agent
    goes to the framework with the smaller dominant share (on a tie, the one with fewer offers
    so far, then by name), so they alternate: a at 0 s, b at 1 s.

    >>> from scheduling.scenario import parse_scenario
    >>> fw = {"task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "first-fit", "refuse_s": 0,
    ...       "queues": [{"tasks": 2, "duration_s": 5}]}
    >>> s = parse_scenario({"vm_types": [{"name": "n", "capacity": {"cpu": 4, "mem": 4},
    ...     "price_per_hour": 0}], "frameworks": [{"name": "a", **fw}, {"name": "b", **fw}]})
    >>> doc = share(s, seed=0).to_dict()
    >>> sorted(c["first_start_s"] for c in doc["completion"].values()), doc["makespan_s"]
    ([0.0, 1.0], 8.0)
    """
    if not isinstance(scenario, Scenario):
        scenario = parse_scenario(scenario)
    rules = OfferRules(max_tasks_per_offer, registration, offers_count, minimum_offer, drf_ties)
    chosen, policies = _settings(
        scenario, mode, criterion, servers, allocation_interval_s, overrides, horizon_s, seed, rules
    )
    run = _Run(
        scenario,
        mode=mode,
        criterion=criterion,
        servers=chosen,
        interval=float(allocation_interval_s),
        policies=policies,
        horizon=horizon_s,
        seed=seed,
        progress=progress,
        rules=rules,
    )
    run.run()
    document = _document(run, scenario, label=label, seed=seed)
    demand = (
        run.shape_demand[run.task_shape] if len(run.task_shape) else np.zeros((0, len(scenario.resources)))
    )
    return SharingResult(
        problem=run.problem,
        framework=run.task_fw,
        demand=demand,
        arrival_s=run.arrival,
        start_s=run.start,
        finish_s=run.finish,
        machine=run.machine,
        document=document,
    )
