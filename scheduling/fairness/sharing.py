"""Online sharing: frameworks sharing a fixed cluster over time (paper 000 §V, paper 001; notes §4-5).

Each framework's tasks arrive (its task queues and its jobs, :class:`~scheduling.scenario.TaskQueue`),
wait in one queue in arrival order, run for their duration once launched and are never
preempted. The allocator decides every ``allocation_interval_s`` seconds (Mesos' batch
allocation, 1 s by default), in one of two modes:

* ``offers``, the Mesos offer cycle (paper 001, Algorithm 1; notes §4): the agents (servers)
  with unallocated resources, in a fresh random order; each agent's whole unallocated vector
  is offered to the framework with the smallest weighted dominant share (resources held in
  outstanding offers count in it) that has not filtered that agent. The framework answers by
  its ``offer_policy``: ``first-fit`` launches one pending task that fits, ``bin-packing`` as
  many as fit, ``greedy`` as many as fit and sets no filter while it has tasks waiting
  (Marathon), ``hold`` launches what fits, else, with tasks waiting, keeps the offer until a
  task fits (checked at each later decision) or ``hold_s`` has passed (Aurora). Declining an
  offer, or using part of it, filters that agent for the framework for ``refuse_s`` seconds
  (a greedy framework with tasks waiting sets none); declined resources return to the pool for
  the next decision. A framework with nothing waiting declines every offer it gets (idle frameworks,
  paper 001 §V-D). Each agent is offered once per decision.
* ``characterized``, workload-characterized allocation (paper 000 §V-A): each decision runs
  :func:`~scheduling.fairness.filling.progressive_filling` with the criterion and server
  selection over the free capacity, the running tasks counted in the criteria and the waiting
  tasks as the limit, and launches what it returns (one task's worth at a time).

Results (:meth:`SharingResult.to_dict`, the sharing document): per framework over time the
running tasks, dominant share, share held in offers, fair share (notes §5: weight over the
weights of the frameworks with pending work, that is tasks waiting to launch, so that the
contention window ends, as paper 001's, once all but one framework have launched all their
tasks) and waiting tasks;
utilisation per resource; unfairness over the contention window
(:func:`scheduling.metrics.fairness_summary`); makespan, completion and offer counts.

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

import heapq
import math
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..charts.downsample import downsample_step
from ..errors import FieldError, ScenarioError
from ..metrics import fairness_summary
from ..numbers import seed_error
from ..scenario import OFFER_POLICIES, Scenario, parse_scenario
from ..scenario.checks import plain
from .filling import POLICIES, progressive_filling, server_selection
from .model import FairnessProblem

__all__ = ["MAX_TIMELINE_POINTS", "OFFER_POLICIES", "SHARING_MODES", "SharingResult", "share"]

FloatArray = NDArray[np.float64]

#: The allocation modes.
SHARING_MODES = ("offers", "characterized")
#: A document's timeline keeps at most about this many points (downsampled keeping the step
#: shape: every bucket's first and last points and each series' extremes). The fairness
#: figures are computed from the whole timeline first.
MAX_TIMELINE_POINTS = 4_000
#: A task fits when every resource of the offer covers its demand to within this.
FIT = 1e-9
#: The most steps (allocation decisions and event times) one simulation takes: a run that
#: would need more (tasks far longer than the interval, one decision a second over years of
#: simulated time) stops there, like a horizon, and its document says so (``stopped``).
MAX_STEPS = 2_000_000
#: ... and at most this many steps times agents (a decision may visit every agent), so that a
#: large cluster stops sooner: 50,000 steps on 1,000 agents (about 80 s; the hour of the
#: benchmark, 100 agents, takes 48,682 steps).
MAX_AGENT_STEPS = 50_000_000
#: The progress callback is called every this many loop steps.
PROGRESS_EVERY = 512


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


# --------------------------------------------------------------------------- the workload


@dataclass
class _Workload:
    """Every task of the run, grouped in units (a queue's job or a scenario job) that arrive together."""

    framework: list[int] = field(default_factory=list)
    shape: list[int] = field(default_factory=list)
    duration: list[float] = field(default_factory=list)
    unit_tasks: list[range] = field(default_factory=list)
    unit_arrival: list[float] = field(default_factory=list)  # nan: after the unit before it
    unit_next: list[int] = field(default_factory=list)  # the unit released when this one ends, or -1
    shapes: dict[tuple[float, ...], int] = field(default_factory=dict)

    def add_unit(
        self, fw: int, demand: tuple[float, ...], tasks: int, duration: float, arrival: float
    ) -> int:
        shape = self.shapes.setdefault(demand, len(self.shapes))
        first = len(self.framework)
        self.framework.extend([fw] * tasks)
        self.shape.extend([shape] * tasks)
        self.duration.extend([duration] * tasks)
        self.unit_tasks.append(range(first, first + tasks))
        self.unit_arrival.append(arrival)
        self.unit_next.append(-1)
        return len(self.unit_tasks) - 1


def _workload(scenario: Scenario, names: list[str], rng: np.random.Generator) -> _Workload:
    w = _Workload()
    index = {name: k for k, name in enumerate(names)}
    for f in scenario.frameworks:
        for q in f.queues:
            demand = q.task_demand if q.task_demand is not None else f.task_demand
            assert demand is not None  # validation requires one
            sizes = [q.job_size] * (q.tasks // q.job_size) + (
                [q.tasks % q.job_size] if q.tasks % q.job_size else []
            )
            if q.arrival_rule == "interval":
                assert q.interval_s is not None
                times = [q.start_s + k * q.interval_s for k in range(len(sizes))]
            elif q.arrival_rule == "rate":
                assert q.rate_per_s is not None
                times = (q.start_s + np.cumsum(rng.exponential(1.0 / q.rate_per_s, len(sizes)))).tolist()
            elif q.arrival_rule == "list":
                assert q.arrival_s is not None
                times = [q.start_s + a for a in q.arrival_s]
            elif q.arrival_rule == "sequential":
                times = [q.start_s] + [math.nan] * (len(sizes) - 1)
            else:
                times = [q.start_s] * len(sizes)
            before = -1
            for size, at in zip(sizes, times, strict=True):
                unit = w.add_unit(index[f.name], demand, size, q.duration_s, at)
                if q.arrival_rule == "sequential" and before >= 0:
                    w.unit_next[before] = unit
                before = unit
    for job in scenario.jobs:
        w.add_unit(index[job.framework], job.executor, job.executors, job.duration_s, job.arrival_s)
    return w


# --------------------------------------------------------------------------- arguments


def _settings(
    scenario: Scenario,
    mode: str,
    criterion: str,
    servers: str | None,
    interval: float,
    overrides: Mapping[str, Mapping[str, Any]] | None,
    horizon: float | None,
    seed: Any = 0,
) -> tuple[str, dict[str, tuple[str, float, float]]]:
    errors: list[FieldError] = []
    if seed_error(seed) is not None:
        errors.append(FieldError("seed", str(seed_error(seed))))
    if mode not in SHARING_MODES:
        errors.append(FieldError("mode", f"unknown mode {mode!r} (choose {', '.join(SHARING_MODES)})"))
    chosen = "rrr"
    if mode == "offers":
        if criterion != "drf":
            errors.append(FieldError("criterion", "the offer cycle sorts frameworks by DRF (criterion drf)"))
        if servers not in (None, "rrr"):
            errors.append(FieldError("servers", "the offer cycle visits the agents in random order (rrr)"))
    elif mode == "characterized":
        if criterion not in POLICIES:
            errors.append(FieldError("criterion", f"unknown criterion {criterion!r} ({', '.join(POLICIES)})"))
        else:
            try:
                chosen = server_selection(criterion, servers)
            except ScenarioError as exc:
                errors.extend(exc.errors)
    if not _positive(interval):
        errors.append(FieldError("allocation_interval_s", "must be a number > 0"))
    if horizon is not None and not _positive(horizon):
        errors.append(FieldError("horizon_s", "must be a number > 0"))
    policies = {f.name: (f.offer_policy, f.refuse_s, f.hold_s) for f in scenario.frameworks}
    for name in scenario.framework_map():
        policies.setdefault(name, ("bin-packing", 5.0, 0.0))
    for name, changes in (overrides or {}).items():
        path = f"overrides.{name}"
        if name not in policies:
            errors.append(FieldError(path, f"unknown framework {name!r}"))
            continue
        if not isinstance(changes, Mapping):
            errors.append(FieldError(path, "must be an object with offer_policy, refuse_s, hold_s"))
            continue
        policy, refuse, hold = policies[name]
        for key, value in changes.items():
            if key == "offer_policy":
                if value in OFFER_POLICIES:
                    policy = value
                else:
                    errors.append(FieldError(f"{path}.{key}", f"must be one of {', '.join(OFFER_POLICIES)}"))
            elif key in ("refuse_s", "hold_s"):
                if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
                    errors.append(FieldError(f"{path}.{key}", "must be a number >= 0"))
                elif key == "refuse_s":
                    refuse = float(value)
                else:
                    hold = float(value)
            else:
                errors.append(
                    FieldError(f"{path}.{key}", "unknown field (expected offer_policy, refuse_s, hold_s)")
                )
        policies[name] = (policy, refuse, hold)
    if not any(f.queues for f in scenario.frameworks) and not scenario.jobs:
        errors.append(
            FieldError("frameworks", "the sharing simulator needs a framework with task queues or jobs")
        )
    if errors:
        raise ScenarioError(errors)
    return chosen, policies


def _positive(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 < value < math.inf


# --------------------------------------------------------------------------- the simulation


class _Run:
    """The state of one sharing run, advanced event by event and decision by decision."""

    def __init__(
        self,
        scenario: Scenario,
        *,
        mode: str,
        criterion: str,
        servers: str,
        interval: float,
        policies: dict[str, tuple[str, float, float]],
        horizon: float | None,
        seed: int,
        progress: Callable[[float], None] | None,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.mode, self.criterion, self.servers, self.interval = mode, criterion, servers, interval
        self.horizon = horizon
        agents = sum(t.count for t in scenario.vm_types)
        self.max_steps = min(MAX_STEPS, max(1, MAX_AGENT_STEPS // max(1, agents)))
        #: Why the run stopped before every task finished, other than its horizon (``None``).
        self.stopped: dict[str, Any] | None = None
        self.on_progress = progress
        fmap = scenario.framework_map()
        self.names = list(fmap)
        n = len(self.names)
        self.policy = [policies[name][0] for name in self.names]
        self.refuse = np.array([policies[name][1] for name in self.names])
        self.hold_s = np.array([policies[name][2] for name in self.names])
        self.refuse_list: list[float] = self.refuse.tolist()
        self.w = _workload(scenario, self.names, self.rng)
        machine_types = tuple(t.name for t in scenario.vm_types for _ in range(t.count))
        capacity = np.array([t.capacity for t in scenario.vm_types for _ in range(t.count)], dtype=float)
        self.capacity = capacity.reshape(len(machine_types), len(scenario.resources))
        i, r = self.capacity.shape
        self.total = self.capacity.sum(axis=0)
        self.total_safe = np.where(self.total > 0, self.total, 1.0)
        self.allowed = np.array(
            [
                [
                    fmap[name].allowed_vm_types is None or vm in (fmap[name].allowed_vm_types or ())
                    for vm in machine_types
                ]
                for name in self.names
            ],
            dtype=bool,
        ).reshape(n, i)
        self.weight = np.array([fmap[name].weight for name in self.names], dtype=float)
        self.shape_demand = np.array(list(self.w.shapes), dtype=float).reshape(len(self.w.shapes), r)
        self.shape_unit = self.shape_demand / self.total_safe  # one task's share of each resource
        self.problem = FairnessProblem(
            resources=scenario.resources,
            machines=tuple(scenario.machine_names()),
            machine_types=machine_types,
            capacity=self.capacity,
            frameworks=tuple(self.names),
            demand=np.array(
                [
                    fmap[name].task_demand if fmap[name].task_demand is not None else np.ones(r)
                    for name in self.names
                ],
                dtype=float,
            ).reshape(n, r),
            weight=self.weight,
            allowed=self.allowed,
        )
        tasks = len(self.w.framework)
        self.task_fw = np.array(self.w.framework, dtype=np.int64)
        self.task_shape = np.array(self.w.shape, dtype=np.int64)
        self.duration = np.array(self.w.duration, dtype=float)
        self.arrival = np.full(tasks, np.nan)
        self.start = np.full(tasks, np.nan)
        self.finish = np.full(tasks, np.nan)
        self.machine = np.full(tasks, -1, dtype=np.int64)
        self.unit_of = np.empty(tasks, dtype=np.int64)
        for u, ids in enumerate(self.w.unit_tasks):
            self.unit_of[ids.start : ids.stop] = u
        self.unit_left = [len(ids) for ids in self.w.unit_tasks]
        self.tasks_of = np.bincount(self.task_fw, minlength=n)
        # state
        self.free = self.capacity.copy()  # capacity less the running tasks
        self.held = np.zeros((n, i, r))  # resources held in outstanding offers
        self.held_total = np.zeros((n, r))
        self.hold_until = np.full((n, i), np.inf)
        self.holding: set[tuple[int, int]] = set()
        self.filter_until = np.full((n, i), -np.inf)
        self.filter_amount = np.zeros((n, i, r))  # the resources refused, which the filter holds back
        self.usage = np.zeros((n, r))
        self.dominant = np.zeros(n)  # dominant share of usage + held, per framework
        self.running = np.zeros(n, dtype=np.int64)
        self.running_on = np.zeros((n, i), dtype=np.int64)
        self.waiting: list[deque[list[Any]]] = [deque() for _ in range(n)]  # runs [shape, deque of tasks]
        self.waiting_count = np.zeros(n, dtype=np.int64)
        self.unfinished = np.zeros(n, dtype=np.int64)  # arrived, not finished
        self.made = [0] * n
        self.accepted = [0] * n
        self.declined = [0] * n
        self.allowed_list: list[list[bool]] = self.allowed.tolist()
        self.shape_list: list[list[float]] = self.shape_demand.tolist()
        self.shape_need = [[(r, d) for r, d in enumerate(row) if d > 0] for row in self.shape_list]
        self.arrivals: list[tuple[float, int]] = [
            (a, u) for u, a in enumerate(self.w.unit_arrival) if not math.isnan(a)
        ]
        heapq.heapify(self.arrivals)
        self.finishes: list[tuple[float, int]] = []
        self.finished = 0
        self.rows: list[tuple[float, NDArray[np.float64]]] = []
        self.max_refuse = float(self.refuse.max()) if n else 0.0
        self.dirty = True  # something changed since the last timeline row

    # ------------------------------------------------------------------ bookkeeping

    def _dominant(self, n: int) -> None:
        self.dirty = True
        self.dominant[n] = float(((self.usage[n] + self.held_total[n]) / self.total_safe).max())

    def _arrive(self, unit: int, t: float) -> None:
        ids = self.w.unit_tasks[unit]
        fw = int(self.task_fw[ids.start])
        shape = int(self.task_shape[ids.start])
        self.arrival[ids.start : ids.stop] = t
        runs = self.waiting[fw]
        if runs and runs[-1][0] == shape:
            runs[-1][1].extend(ids)
        else:
            runs.append([shape, deque(ids)])
        self.waiting_count[fw] += len(ids)
        self.unfinished[fw] += len(ids)
        self.dirty = True

    def _launch(self, fw: int, run: list[Any], count: int, i: int, t: float) -> None:
        shape, ids = run
        demand = self.shape_demand[shape]
        for _ in range(count):
            task = ids.popleft()
            self.start[task] = t
            self.finish[task] = t + self.duration[task]
            self.machine[task] = i
            heapq.heappush(self.finishes, (float(self.finish[task]), task))
        self.free[i] -= demand * count
        self.usage[fw] += demand * count
        self.running[fw] += count
        self.running_on[fw, i] += count
        self.waiting_count[fw] -= count
        if not ids:
            self.waiting[fw].remove(run)
        self._dominant(fw)

    def _complete(self, task: int, t: float) -> None:
        fw, i = int(self.task_fw[task]), int(self.machine[task])
        demand = self.shape_demand[self.task_shape[task]]
        self.free[i] = np.minimum(self.free[i] + demand, self.capacity[i])
        self.usage[fw] = np.maximum(self.usage[fw] - demand, 0.0)
        self.running[fw] -= 1
        self.running_on[fw, i] -= 1
        self.unfinished[fw] -= 1
        self.finished += 1
        self._dominant(fw)
        unit = int(self.unit_of[task])
        self.unit_left[unit] -= 1
        if self.unit_left[unit] == 0 and self.w.unit_next[unit] >= 0:
            self._arrive(self.w.unit_next[unit], t)

    def _pack(self, fw: int, i: int, offer: list[float], t: float, most: int) -> tuple[int, list[float]]:
        """Launch up to ``most`` waiting tasks of ``fw`` that fit ``offer`` on ``i``, in queue order.

        Plain Python on short vectors: this runs once per offer, the simulator's inner loop."""
        launched = 0
        if not self.allowed_list[fw][i]:
            return 0, offer
        for run in list(self.waiting[fw]):
            if launched >= most:
                break
            need = self.shape_need[run[0]]
            fit = min(int((offer[r] + FIT) // d) for r, d in need) if need else 0
            k = min(fit, len(run[1]), most - launched)
            if k > 0:
                offer = [o - d * k for o, d in zip(offer, self.shape_list[run[0]], strict=True)]
                self._launch(fw, run, k, i, t)
                launched += k
        return launched, offer

    def _filter(self, fw: int, i: int, t: float, refused: Any) -> None:
        """Filter agent ``i`` for ``fw`` after a decline or a partial use of ``refused``; a greedy
        framework sets no filter while it still has tasks waiting (it wants every offer), but an
        idle one declines with its filter like any other.

        As Mesos' refused-offer filter, it holds back only offers that ``refused`` covers: once
        a task ends on the agent, what it offers is more than was refused, and is offered."""
        if self.policy[fw] == "greedy" and self.waiting_count[fw] > 0:
            return
        refuse = self.refuse_list[fw]
        if refuse > 0:
            self.filter_until[fw, i] = t + refuse
            self.filter_amount[fw, i] = refused

    def _release(self, fw: int, i: int) -> None:
        self.held_total[fw] = np.maximum(self.held_total[fw] - self.held[fw, i], 0.0)
        self.held[fw, i] = 0.0
        self.hold_until[fw, i] = np.inf
        self.holding.discard((fw, i))
        self._dominant(fw)

    def _held_offers(self, t: float) -> None:
        """Held offers: launch into them what now fits, else decline them once their time is up."""
        for fw, i in sorted(self.holding):
            launched, rest = 0, list[float]()
            if self.waiting_count[fw] > 0:
                launched, rest = self._pack(fw, i, self.held[fw, i].tolist(), t, int(self.waiting_count[fw]))
            if launched:
                self.accepted[fw] += 1
                self._release(fw, i)
                if any(x > FIT for x in rest):
                    self._filter(fw, i, t, rest)
            elif self.hold_until[fw, i] <= t + 1e-9:
                self.declined[fw] += 1
                refused = self.held[fw, i].copy()
                self._release(fw, i)
                self._filter(fw, i, t, refused)

    def _offer_cycle(self, t: float) -> None:
        if self.holding:
            self._held_offers(t)
        unallocated = self.free - self.held.sum(axis=0) if self.holding else self.free
        open_ = np.flatnonzero((unallocated > FIT).any(axis=1))
        if open_.size == 0:
            return
        offers = unallocated.tolist()
        # Filters set during this cycle concern agents already visited, so the eligibility of
        # every (agent, framework) can be read once: a filter holds back an offer it covers.
        covered = (unallocated[None, :, :] <= self.filter_amount + FIT).all(axis=2)
        eligible = (~((self.filter_until > t + 1e-9) & covered)).T.tolist()
        rng, policy, waiting = self.rng, self.policy, self.waiting_count
        order: list[int] = []
        keys: list[float] = []
        for i in rng.permutation(open_).tolist():
            if not order:  # frameworks by weighted dominant share, recomputed after every change
                keys = (self.dominant / self.weight).tolist()
                order = sorted(range(len(keys)), key=keys.__getitem__)
            can = eligible[i]
            ties: list[int] = []
            best = math.inf
            for f in order:
                if can[f]:
                    if not ties:
                        best = keys[f]
                        ties.append(f)
                    elif keys[f] <= best + 1e-12:
                        ties.append(f)
                    else:
                        break
            if not ties:
                continue
            fw = ties[0] if len(ties) == 1 else ties[int(rng.random() * len(ties))]
            offer = offers[i]
            self.made[fw] += 1
            most = 1 if policy[fw] == "first-fit" else int(waiting[fw])
            launched, rest = self._pack(fw, i, offer, t, most) if most else (0, offer)
            if launched:
                self.accepted[fw] += 1
                order = []
                if any(x > FIT for x in rest):
                    self._filter(fw, i, t, rest)
            elif policy[fw] == "hold" and self.hold_s[fw] > 0 and waiting[fw] > 0:
                self.held[fw, i] += offer
                self.held_total[fw] += offer
                if (fw, i) not in self.holding:
                    self.hold_until[fw, i] = t + self.hold_s[fw]
                    self.holding.add((fw, i))
                self._dominant(fw)
                order = []
            else:
                self.declined[fw] += 1
                self._filter(fw, i, t, offer)

    # ------------------------------------------------------------------ workload-characterized

    def _characterized(self, t: float) -> None:
        n, r = len(self.names), self.total.size
        if not self.waiting_count.any():
            return
        demand = self.problem.demand.copy()
        limit = np.zeros(n)
        for fw in range(n):
            if self.waiting[fw]:
                shape, ids = self.waiting[fw][0]
                demand[fw] = self.shape_demand[shape]
                limit[fw] = len(ids)
        fit_pairs = (self.free[None, :, :] >= demand[:, None, :] - FIT).all(axis=2) & self.allowed
        fit_pairs &= (limit > 0)[:, None]
        if not fit_pairs.any():
            return  # no waiting task fits anywhere: nothing to fill
        # Running tasks count in the criteria as tasks of the shape now asked for, by their
        # dominant share (exact when a framework has one shape, as in the papers).
        per_task = (demand / self.total_safe).max(axis=1)
        own = (self.usage / self.total_safe).max(axis=1)
        equivalent = np.where(per_task > 0, own / np.where(per_task > 0, per_task, 1.0), 0.0)
        spread = self.running_on / np.maximum(self.running, 1)[:, None]
        tasks = spread * equivalent[:, None]
        # Only the servers where some waiting task fits can take one; the others are folded
        # into one server no framework may use, which keeps the cluster's totals (DRF's
        # denominators) and spares progressive filling a visit to each. TSF counts tasks over
        # every allowed server, so it gets the whole cluster.
        servers = np.flatnonzero(fit_pairs.any(axis=0))
        rest = np.setdiff1d(np.arange(self.capacity.shape[0]), servers)
        if self.criterion == "tsf" or rest.size == 0:
            servers, capacity, residual, allowed = (
                np.arange(self.capacity.shape[0]),
                self.capacity,
                self.free,
                self.allowed,
            )
            placed = tasks
        else:
            capacity = np.vstack([self.capacity[servers], self.capacity[rest].sum(axis=0, keepdims=True)])
            residual = np.vstack([self.free[servers], np.zeros((1, r))])
            allowed = np.hstack([self.allowed[:, servers], np.zeros((n, 1), dtype=bool)])
            placed = np.hstack([tasks[:, servers], tasks[:, rest].sum(axis=1, keepdims=True)])
        names = tuple(self.problem.machines[k] for k in servers) + (
            ("(others)",) if len(capacity) > len(servers) else ()
        )
        problem = FairnessProblem(
            resources=self.problem.resources,
            machines=names,
            machine_types=names,
            capacity=capacity,
            frameworks=self.problem.frameworks,
            demand=demand.reshape(n, r),
            weight=self.weight,
            allowed=allowed,
        )
        x = progressive_filling(
            problem,
            policy=self.criterion,
            servers=self.servers,
            residual=residual,
            tasks=placed,
            limit=limit,
            rng=self.rng,
        )[0]
        for fw, k in zip(*np.nonzero(x), strict=True):
            count = int(x[fw, k])
            self.made[fw] += count
            self.accepted[fw] += count
            self._launch(int(fw), self.waiting[fw][0], count, int(servers[k]), t)

    # ------------------------------------------------------------------ the loop

    def _record(self, t: float) -> None:
        """A timeline row of the raw state (derived series are computed once, in :meth:`series`)."""
        if not self.dirty:
            return
        self.dirty = False
        row = np.concatenate(
            [self.running, self.waiting_count, self.usage.ravel(), self.dominant, self.free.sum(axis=0)],
            dtype=float,
        )
        if self.rows and self.rows[-1][0] == t:
            self.rows[-1] = (t, row)
        else:
            self.rows.append((t, row))

    def series(self) -> tuple[FloatArray, dict[str, FloatArray]]:
        """The timeline: times and, per kind, (rows, frameworks or resources) step series."""
        n, r = len(self.names), self.total.size
        t = np.array([row[0] for row in self.rows], dtype=float)
        table = np.array([row[1] for row in self.rows], dtype=float).reshape(
            len(self.rows), 3 * n + n * r + r
        )
        running, waiting = table[:, :n], table[:, n : 2 * n]
        usage = table[:, 2 * n : 2 * n + n * r].reshape(-1, n, r)
        dominant = table[:, 2 * n + n * r : 3 * n + n * r]
        free = table[:, 3 * n + n * r :]
        share = (usage / self.total_safe).max(axis=2) if r else np.zeros_like(running)
        # The fair share (notes §5): weight over the weights of the frameworks with pending work,
        # tasks waiting to launch (paper 001's window ends once a framework has launched them all).
        active = waiting > 0
        weight_sum = (active * self.weight).sum(axis=1, keepdims=True)
        fair = np.where(active, self.weight / np.where(weight_sum > 0, weight_sum, 1.0), 0.0)
        utilisation = (self.total - free) / self.total_safe
        return t, {
            "running": running,
            "share": share,
            "held": np.maximum(dominant - share, 0.0),
            "fair_share": fair,
            "pending": waiting,
            "utilisation": np.clip(utilisation, 0.0, None),
        }

    def run(self) -> None:
        decide = self._offer_cycle if self.mode == "offers" else self._characterized
        total = max(1, len(self.task_fw))
        tick = 0.0
        steps = 0
        self._record(0.0)
        while self.finished < len(self.task_fw):
            next_event = min(
                self.arrivals[0][0] if self.arrivals else math.inf,
                self.finishes[0][0] if self.finishes else math.inf,
            )
            if not self.waiting_count.any() and not self.holding and next_event > tick:
                # Nothing waits and no offer is held: every offer until the next event would be
                # declined. Skip those decisions, keeping the last ones whose filters could still
                # stand at the event (refuse-offer seconds before it).
                if next_event == math.inf:
                    break
                skip_to = next_event - self.max_refuse - 2 * self.interval
                if skip_to > tick:
                    tick = math.ceil(skip_to / self.interval) * self.interval
            t = min(next_event, tick)
            if self.horizon is not None and t > self.horizon:
                break
            if next_event <= tick:
                while self.finishes and self.finishes[0][0] <= t:
                    self._complete(heapq.heappop(self.finishes)[1], t)
                while self.arrivals and self.arrivals[0][0] <= t:
                    self._arrive(heapq.heappop(self.arrivals)[1], t)
            else:
                decide(t)
                tick = round((tick + self.interval) / self.interval) * self.interval
            self._record(t)
            steps += 1
            if self.on_progress is not None and steps % PROGRESS_EVERY == 0:
                self.on_progress(min(0.99, self.finished / total))
            if steps >= self.max_steps and self.finished < len(self.task_fw):
                self.stopped = {
                    "at_s": float(t),
                    "steps": steps,
                    "reason": f"stopped after {steps:,} steps (allocation decisions and event times, the "
                    f"most a simulation of {self.capacity.shape[0]:,} agents takes) at {t:,.0f} s with "
                    f"{len(self.task_fw) - self.finished:,} tasks unfinished: give a horizon or a longer "
                    "allocation interval",
                }
                break
        if self.on_progress is not None:
            self.on_progress(1.0)


# --------------------------------------------------------------------------- the document


def _vector(resources: tuple[str, ...], values: Any) -> dict[str, float | int]:
    return {r: plain(float(v)) for r, v in zip(resources, values, strict=True)}


def _none_or(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def _document(run: _Run, scenario: Scenario, *, label: str | None, seed: int) -> dict[str, Any]:
    names, res = run.names, scenario.resources
    t, kinds = run.series()
    running, share, held, fair, pending = (
        kinds[k] for k in ("running", "share", "held", "fair_share", "pending")
    )
    utilisation = kinds["utilisation"]
    summary = fairness_summary(t, share, fair, names, run.weight)
    contention = (fair > 0).sum(axis=1) >= 2
    window: list[float] | None = None
    if contention.any():
        rows = np.flatnonzero(contention)
        end = t[rows[-1] + 1] if rows[-1] + 1 < t.size else t[rows[-1]]
        window = [float(t[rows[0]]), float(end)]
    series: dict[str, Any] = {}
    for kind, values in (
        ("running", running),
        ("share", share),
        ("held", held),
        ("fair_share", fair),
        ("pending", pending),
    ):
        for k, name in enumerate(names):
            series[f"{kind}\x00{name}"] = values[:, k]
    for k, name in enumerate(res):
        series[f"utilisation\x00{name}"] = utilisation[:, k]
    kept_t, kept = downsample_step(t, series, MAX_TIMELINE_POINTS)
    timeline: dict[str, Any] = {"t": kept_t}
    for key, kept_values in kept.items():
        kind, name = key.split("\x00")
        integral = kind in ("running", "pending")
        timeline.setdefault(kind, {})[name] = [
            int(v) if integral and v is not None else v for v in kept_values
        ]
    for kind in ("running", "share", "held", "fair_share", "pending", "utilisation"):
        timeline.setdefault(kind, {})
    dt = np.diff(t, append=t[-1]) if t.size else np.zeros(0)
    busy = ((running.sum(axis=1) + pending.sum(axis=1)) > 0) & (dt > 0)
    stats: dict[str, Any] = {}
    for k, name in enumerate(res):
        u = utilisation[:, k]
        span = float((dt * busy).sum())
        stats[name] = {
            "mean": float((u * dt * busy).sum() / span) if span > 0 else None,
            "max": float(u.max()) if u.size else None,
            "busy_s": span,
        }
    completion: dict[str, Any] = {}
    for k, name in enumerate(names):
        mine = run.task_fw == k
        started = mine & ~np.isnan(run.start)
        done = mine & ~np.isnan(run.finish) & (run.finish <= (t[-1] if t.size else 0.0) + 1e-9)
        waits = (run.start - run.arrival)[started]
        completion[name] = {
            "tasks": int(mine.sum()),
            "launched": int(started.sum()),
            "finished": int(done.sum()),
            "first_start_s": float(run.start[started].min()) if started.any() else None,
            "last_start_s": float(run.start[started].max()) if started.any() else None,
            "last_finish_s": float(run.finish[done].max()) if done.any() else None,
            "mean_wait_s": float(waits.mean()) if waits.size else None,
            "max_wait_s": float(waits.max()) if waits.size else None,
        }
    all_done = run.finished == len(run.task_fw)
    makespan = float(np.nanmax(run.finish)) if all_done and len(run.task_fw) else None
    fmap = scenario.framework_map()
    frameworks = []
    for k, name in enumerate(names):
        f = fmap[name]
        demand = f.task_demand
        if demand is None and f.queues:
            demand = f.queues[0].task_demand
        if demand is None:
            first = next((j.executor for j in scenario.jobs if j.framework == name), None)
            demand = first
        frameworks.append(
            {
                "name": name,
                "weight": plain(float(run.weight[k])),
                "policy": run.policy[k] if run.mode == "offers" else None,
                "refuse_s": plain(float(run.refuse[k])),
                "hold_s": plain(float(run.hold_s[k])),
                "tasks": int(run.tasks_of[k]),
                "task_demand": None if demand is None else _vector(res, demand),
            }
        )
    return {
        "study": "sharing",
        "format": 1,
        "label": label
        or f"{'Offers' if run.mode == 'offers' else 'Characterized'} ({run.criterion.upper()})",
        "mode": run.mode,
        "criterion": run.criterion,
        "servers": run.servers,
        "allocation_interval_s": float(run.interval),
        "seed": seed,
        "horizon_s": run.horizon,
        "stopped": run.stopped,
        "resources": list(res),
        "machines": [
            {"id": m, "vm_type": vt, "capacity": _vector(res, run.capacity[i])}
            for i, (m, vt) in enumerate(zip(run.problem.machines, run.problem.machine_types, strict=True))
        ],
        "frameworks": frameworks,
        "timeline": timeline,
        "fairness": {
            "contention_s": summary["contention_s"],
            "window": window,
            "frameworks": summary["frameworks"],
        },
        "makespan_s": makespan,
        "completion": completion,
        "offers": {
            name: {
                "made": int(run.made[k]),
                "accepted": int(run.accepted[k]),
                "declined": int(run.declined[k]),
            }
            for k, name in enumerate(names)
        },
        "utilisation_stats": stats,
    }


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

    Returns
    -------
    SharingResult
        ``.to_dict()`` is the sharing document.

    Raises
    ------
    ScenarioError
        For an unknown mode (path ``mode``), criterion or server selection, a bad interval,
        horizon or override (``overrides.<framework>.<field>``), or a scenario with no
        framework that has work (``frameworks``).

    Examples
    --------
    Two first-fit frameworks on one 4-cpu agent: each offer launches one task, the agent
    goes to the framework with the smaller dominant share, so they alternate.

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
    chosen, policies = _settings(
        scenario, mode, criterion, servers, allocation_interval_s, overrides, horizon_s, seed
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
