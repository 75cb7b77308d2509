"""The search for the cheapest cluster that meets a target, with the bound, not blindly.

Every candidate of the space (:mod:`.space`) is first sorted into what is known without
simulating it:

1. **no fit**: some job cannot start on the empty cluster (:func:`.space.fits`): infeasible;
2. **demand window** (a target of no missed deadline only): the cluster fails the
   demand-window test (:mod:`.windows`), so it misses a deadline whatever the scheduler does;
3. **bound**: its lower bound (:mod:`.candidate_bounds`) is infinite: it cannot do the work
   due by the last deadline with the misses allowed.

Each rule, failed by a cluster, is failed by every cluster with no more VMs of any type.
The others are simulated in increasing order of their bound (then of the cluster's price per
hour, then of their counts), and the search stops when the next one's bound is at least the
cheapest cost of a simulated candidate that met the target: none of the rest can be cheaper
(their simulated cost is at least their bound), so they are pruned by the bound too. A
candidate meets the target only when simulated: more VMs can miss more deadlines (a list
scheduler's timing anomalies), so nothing is inferred from a neighbour.

The simulations can run in parallel: :class:`CheapestSearch` proposes the next batch given the
results so far (:meth:`~CheapestSearch.next_batch`, :meth:`~CheapestSearch.record`), and a
search can be split into ``parts`` that each walk every ``parts``-th candidate of the same order
(part ``i`` takes positions ``i, i + parts, ...``) with their own cheapest cost so far.
:func:`join_parts` puts the parts' documents together into the answer. It stays sound: a part
stops only where the next bound of its own share is at least its own cheapest cost, which is at
least the cheapest of all parts.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import ScenarioError
from ...numbers import weighted_rows
from ...scenario import Scenario, SimulationOptions
from ..simulator import simulate
from .candidate_bounds import CandidateBounds
from .space import SearchSpace, cluster_scenario, fits
from .windows import DemandDensity, demand_density, passes_demand_windows

__all__ = [
    "FORMAT",
    "PRUNE_RULES",
    "CandidateOutcome",
    "CheapestSearch",
    "Progress",
    "Target",
    "evaluate_candidate",
    "search_part",
]

Progress = Callable[[float], None]

#: The version of a search part's document (:meth:`CheapestSearch.document`).
FORMAT = 1

#: Why a candidate was not simulated, in the order the rules are applied.
PRUNE_RULES = ("no_fit", "demand_window", "bound")


@dataclass(frozen=True)
class Target:
    """What the cheapest cluster must achieve: at most ``max_miss_pct`` % of the deadline jobs
    miss their deadlines and, if given, a mean and a 95th-percentile completion time (arrival to
    finish) at most so many seconds.

    >>> Target(max_miss_pct=1.0).max_missed(1000), Target().max_missed(1000)
    (10, 0)
    """

    max_miss_pct: float = 0.0
    max_mean_completion_s: float | None = None
    max_p95_completion_s: float | None = None

    def max_missed(self, deadline_jobs: int) -> int:
        """The most deadline jobs that may miss: ``floor(x % of them)``."""
        return math.floor(self.max_miss_pct * deadline_jobs / 100.0 + 1e-9)

    def met(
        self, missed: int, deadline_jobs: int, mean_completion_s: float, p95_completion_s: float | None
    ) -> bool:
        if missed > self.max_missed(deadline_jobs):
            return False
        if self.max_mean_completion_s is not None and mean_completion_s > self.max_mean_completion_s:
            return False
        p95 = p95_completion_s if p95_completion_s is not None else 0.0
        return self.max_p95_completion_s is None or p95 <= self.max_p95_completion_s

    def to_dict(self) -> dict[str, float | None]:
        return {
            "max_miss_pct": self.max_miss_pct,
            "max_mean_completion_s": self.max_mean_completion_s,
            "max_p95_completion_s": self.max_p95_completion_s,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Target:
        return cls(
            float(d.get("max_miss_pct") or 0.0), d.get("max_mean_completion_s"), d.get("max_p95_completion_s")
        )


@dataclass(frozen=True)
class CandidateOutcome:
    """What one simulated candidate did: its cost (the VMs it turned on), its misses, its
    completion times and whether that meets the target."""

    index: int
    counts: tuple[int, ...]
    bound: float
    cost: float
    missed: int
    deadline_jobs: int
    mean_completion_s: float
    p95_completion_s: float | None
    makespan_s: float
    meets: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "counts": list(self.counts),
            "bound": self.bound,
            "cost": self.cost,
            "missed": self.missed,
            "deadline_jobs": self.deadline_jobs,
            "miss_pct": 100.0 * self.missed / self.deadline_jobs if self.deadline_jobs else 0.0,
            "mean_completion_s": self.mean_completion_s,
            "p95_completion_s": self.p95_completion_s,
            "makespan_s": self.makespan_s,
            "meets": self.meets,
        }


def evaluate_candidate(
    scenario: Scenario,
    counts: Sequence[int],
    *,
    index: int,
    bound: float,
    scheduler: str,
    target: Target,
    options: SimulationOptions | None = None,
    seed: int = 0,
    global_bound: float | None = None,
) -> CandidateOutcome:
    """Simulate one candidate (a process of its own may call this: every argument pickles).

    One simulation of the cluster ``counts`` (:func:`scheduling.cost.simulate`); a few tenths of
    a second for 1,000 jobs with ``edf-bfd``.
    """
    result = simulate(
        cluster_scenario(scenario, counts),
        scheduler=scheduler,
        options=options,
        seed=seed,
        lower_bound=global_bound,
    )
    doc = result.to_dict()
    p95 = doc.get("p95_completion_s")
    return CandidateOutcome(
        index=index,
        counts=tuple(int(n) for n in counts),
        bound=bound,
        cost=float(result.total_cost),
        missed=int(result.deadline_missed),
        deadline_jobs=int(result.deadline_jobs),
        mean_completion_s=float(result.mean_completion_s),
        p95_completion_s=None if p95 is None else float(p95),
        makespan_s=float(result.makespan_s),
        meets=target.met(
            int(result.deadline_missed),
            int(result.deadline_jobs),
            float(result.mean_completion_s),
            None if p95 is None else float(p95),
        ),
    )


class CheapestSearch:
    """The state of one search (or one part of it): what to simulate next, given what is known.

    Building it sorts every candidate by the rules of the module docstring (vectorised; the
    bound is one small linear program per candidate that passes the other rules, about a
    tenth of a millisecond each). Then ask :meth:`next_batch` for candidates, simulate them
    (:func:`evaluate_candidate`, in any order, in parallel), :meth:`record` each outcome, and
    repeat until :attr:`done`; :meth:`document` is the part's result.

    >>> from scheduling.scenario import parse_scenario
    >>> s = parse_scenario({"resources": ["cpu"], "vm_types": [
    ...     {"name": "a", "capacity": {"cpu": 2}, "price_per_hour": 1},
    ...     {"name": "b", "capacity": {"cpu": 4}, "price_per_hour": 3}], "jobs": [
    ...     {"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 2}, "duration_s": 3600,
    ...      "deadline_s": 3600}]})
    >>> from scheduling.cost.cheapest.space import search_space
    >>> search = CheapestSearch(s, space=search_space(s, {"a": [0, 2], "b": [0, 1]}), scheduler="edf-bfd")
    >>> while not search.done:
    ...     for k in search.next_batch(2):
    ...         search.record(search.evaluate(k))
    >>> doc = search.document()
    >>> doc["best"]["counts"], doc["best"]["cost"], doc["simulated"], doc["next_bound"], doc["stopped_by"]
    ([1, 0], 1.0, 2, 1.0, 'bound')
    >>> doc["pruned_before"]
    {'no_fit': 1, 'demand_window': 0, 'bound': 0}
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        space: SearchSpace,
        scheduler: str,
        target: Target | None = None,
        options: SimulationOptions | None = None,
        seed: int = 0,
        part: int = 0,
        parts: int = 1,
        max_simulations: int | None = None,
        time_budget_s: float | None = None,
    ):
        if not 0 <= part < parts:
            raise ScenarioError.single("part", f"must be from 0 to {parts - 1}")
        self.scenario = scenario
        self.space = space
        self.scheduler = scheduler
        self.target = target or Target()
        self.options = options
        self.seed = seed
        self.part, self.parts = part, parts
        self.max_simulations = max_simulations
        self.time_budget_s = time_budget_s
        self.started = time.monotonic()
        self.counts = space.counts()
        n = len(self.counts)
        deadline_jobs = sum(1 for j in scenario.jobs if j.deadline_s is not None)
        self.max_missed = self.target.max_missed(deadline_jobs)
        self.rule = np.full(n, -1, dtype=np.int64)  # index into PRUNE_RULES, -1: to simulate
        fit = fits(scenario, self.counts)
        self.rule[~fit] = 0
        self.windows: DemandDensity | None = None
        if self.max_missed == 0 and deadline_jobs:
            self.windows = demand_density(scenario)
            per_vm = np.array([t.capacity for t in scenario.vm_types], dtype=float)
            capacity = np.column_stack([weighted_rows(self.counts.astype(float), per_vm[:, r])
                                        for r in range(per_vm.shape[1])])
            self.rule[(self.rule < 0) & ~passes_demand_windows(capacity, self.windows)] = 1
        self.bounds = CandidateBounds(scenario, max_missed=self.max_missed)
        self.bound = np.full(n, np.nan)
        open_ = np.flatnonzero(self.rule < 0)
        self.bound[open_] = self.bounds.bounds(self.counts[open_])
        self.rule[open_[np.isinf(self.bound[open_])]] = 2
        queued = np.flatnonzero(self.rule < 0)
        price = weighted_rows(self.counts.astype(float), [t.price_per_hour for t in scenario.vm_types])
        keys = [self.counts[queued, c] for c in reversed(range(self.counts.shape[1]))]
        order = np.lexsort((*keys, price[queued], self.bound[queued]))
        #: Every candidate to simulate, in the search's order; this part walks ``queue[part::parts]``.
        self.queue = queued[order]
        self.own = self.queue[part::parts]
        self.position = 0  # the next of ``own`` to propose
        self.pending: set[int] = set()
        self.outcomes: dict[int, CandidateOutcome] = {}
        self.best: CandidateOutcome | None = None

    # ------------------------------------------------------------------ stepping

    @property
    def global_bound(self) -> float:
        """The bound over every cluster shape (:func:`scheduling.cost.lower_bound_cost`)."""
        return self.bounds.global_bound

    def _next_bound(self) -> float | None:
        return float(self.bound[self.own[self.position]]) if self.position < len(self.own) else None

    def _stop_reason(self) -> str | None:
        nxt = self._next_bound()
        if nxt is None:
            return "exhausted"
        if self.best is not None and nxt >= self.best.cost:
            return "bound"
        if (
            self.max_simulations is not None
            and len(self.outcomes) + len(self.pending) >= self.max_simulations
        ):
            return "budget"
        if self.time_budget_s is not None and time.monotonic() - self.started >= self.time_budget_s:
            return "time"
        return None

    def next_batch(self, size: int) -> list[int]:
        """Up to ``size`` candidates (indices into the space) to simulate next: the following
        ones of this part's order whose bound is below the cheapest cost met so far."""
        batch: list[int] = []
        while len(batch) < size and self._stop_reason() is None:
            k = int(self.own[self.position])
            self.position += 1
            self.pending.add(k)
            batch.append(k)
        return batch

    def evaluate(self, index: int) -> CandidateOutcome:
        """Simulate candidate ``index`` here (:func:`evaluate_candidate`)."""
        return evaluate_candidate(self.scenario, self.counts[index].tolist(), **self.evaluate_kwargs(index))

    def evaluate_kwargs(self, index: int) -> dict[str, Any]:
        """The keyword arguments of :func:`evaluate_candidate` for candidate ``index``."""
        return {
            "index": index,
            "bound": float(self.bound[index]),
            "scheduler": self.scheduler,
            "target": self.target,
            "options": self.options,
            "seed": self.seed,
            # With market prices each candidate's document solves its own bound (its reservations).
            "global_bound": None if self.bounds.markets else self.global_bound,
        }

    def record(self, outcome: CandidateOutcome) -> None:
        """Take one simulated candidate's outcome into account."""
        self.pending.discard(outcome.index)
        self.outcomes[outcome.index] = outcome
        if outcome.meets and (
            self.best is None or (outcome.cost, outcome.index) < (self.best.cost, self.best.index)
        ):
            self.best = outcome

    @property
    def done(self) -> bool:
        """No candidate left to propose and none being simulated."""
        return self.stopped_by is not None

    @property
    def stopped_by(self) -> str | None:
        """Why the search is over (``bound``, ``exhausted``, ``budget``), ``None`` while it is not."""
        return None if self.pending else self._stop_reason()

    # ------------------------------------------------------------------ the part's document

    def document(self) -> dict[str, Any]:
        """This part's result: what it simulated, why it stopped, what it left and why.

        ``stopped_by`` is ``bound`` (the next bound reached the cheapest cost met), ``exhausted``
        (its share is done), ``budget`` or ``time`` (a budget was spent: not certified).
        ``certified`` says that every candidate of its share it did not simulate has a bound at
        least its cheapest cost met; ``pruned_before`` counts the candidates of the whole space
        each rule took out before any simulation (:func:`.answer.join_parts` adds those the
        bound left when the parts stopped).
        """
        pruned = {rule: int((self.rule == i).sum()) for i, rule in enumerate(PRUNE_RULES)}
        nxt = self._next_bound()
        stopped_by = self.stopped_by
        rank = {int(k): r for r, k in enumerate(self.queue)}
        return {
            "format": FORMAT,
            "part": self.part,
            "parts": self.parts,
            "scenario": self.scenario.name,
            "scheduler": self.scheduler,
            "seed": self.seed,
            "target": self.target.to_dict(),
            "max_missed": self.max_missed,
            "space": {"vm_types": list(self.space.vm_types), "counts": self.space.ranges()},
            "prices": [t.price_per_hour for t in self.scenario.vm_types],
            "reserved": {t.name: t.reserved.count for t in self.scenario.vm_types if t.reserved is not None},
            "candidates": len(self.counts),
            "to_simulate": len(self.queue),
            "own": len(self.own),
            "simulated": len(self.outcomes),
            "pruned_before": pruned,
            "stopped_by": stopped_by,
            "next_bound": nxt,
            "certified": stopped_by in ("bound", "exhausted"),
            "best": self.best.to_dict() if self.best is not None else None,
            "global_lower_bound": self.global_bound,
            "horizon_s": self.bounds.horizon_s,
            "demand_windows": self.windows.to_dict() if self.windows is not None else None,
            "maximal_pruned": {
                rule: _maximal(self.counts[self.rule == i]) for i, rule in enumerate(PRUNE_RULES)
            },
            "tried": [
                {**self.outcomes[k].to_dict(), "rank": rank[k]}
                for k in sorted(self.outcomes, key=rank.__getitem__)
            ],
        }


#: The most maximal pruned clusters a document lists per rule.
MAX_LISTED = 50


def _maximal(counts: np.ndarray) -> list[list[int]]:
    """The clusters of ``counts`` that no other one of them dominates (no fewer VMs of every
    type): every pruned cluster is at most one of these, as each rule goes down to smaller ones."""
    if len(counts) == 0:
        return []
    rows = counts[np.lexsort([counts[:, c] for c in range(counts.shape[1])])[::-1]]
    kept: list[np.ndarray] = []
    for row in rows:
        if not any((k >= row).all() for k in kept):
            kept.append(row)
            if len(kept) >= MAX_LISTED:
                break
    return [[int(x) for x in k] for k in sorted(kept, key=lambda r: r.tolist())]


_WORKER_SCENARIO: list[Scenario] = []  # the scenario of a worker process, sent once


def _worker_init(scenario: Scenario) -> None:
    _WORKER_SCENARIO[:] = [scenario]


def _evaluate_job(counts: list[int], kwargs: dict[str, Any]) -> CandidateOutcome:
    return evaluate_candidate(_WORKER_SCENARIO[0], counts, **kwargs)


def search_part(
    scenario: Scenario,
    *,
    space: SearchSpace,
    scheduler: str,
    target: Target | None = None,
    options: SimulationOptions | None = None,
    seed: int = 0,
    part: int = 0,
    parts: int = 1,
    workers: int = 1,
    max_simulations: int | None = None,
    time_budget_s: float | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run one part of a search (the whole search with ``parts=1``) and return its document.

    ``max_simulations`` and ``time_budget_s`` stop it early (no new candidate is proposed once
    either is spent; the document then says it is not certified): the planner gives a part the
    time its worker allows, so a large search ends with what it found rather than being killed.

    ``workers`` > 1 simulates batches of that many candidates in as many processes (each batch
    the next candidates in the order; all of a batch are recorded before the next is proposed).
    ``progress`` gets the fraction of this part's candidates simulated or skipped; it may raise
    to stop the search.
    """
    search = CheapestSearch(
        scenario,
        space=space,
        scheduler=scheduler,
        target=target,
        options=options,
        seed=seed,
        part=part,
        parts=parts,
        max_simulations=max_simulations,
        time_budget_s=time_budget_s,
    )
    for outcome in _run(search, workers):
        search.record(outcome)
        if progress is not None and len(search.own):
            progress(min(1.0, search.position / len(search.own)))
    if progress is not None:
        progress(1.0)
    return search.document()


def _run(search: CheapestSearch, workers: int) -> Iterator[CandidateOutcome]:
    """The outcomes of the candidates the search proposes, batch by batch."""
    if workers <= 1:
        while not search.done:
            for k in search.next_batch(1):
                yield search.evaluate(k)
        return
    # Keep every worker busy: a new candidate is proposed as soon as one ends, so the order is
    # the search's and each proposal knows every outcome recorded so far.
    with ProcessPoolExecutor(
        max_workers=workers, initializer=_worker_init, initargs=(search.scenario,)
    ) as pool:
        running: set[Future[CandidateOutcome]] = set()
        while True:
            for k in search.next_batch(workers - len(running)):
                running.add(pool.submit(_evaluate_job, search.counts[k].tolist(), search.evaluate_kwargs(k)))
            if not running:
                return
            ended, running = wait(running, return_when=FIRST_COMPLETED)
            for future in ended:
                yield future.result()
