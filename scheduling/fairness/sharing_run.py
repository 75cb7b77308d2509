"""The simulation loop of an online sharing run (:func:`scheduling.fairness.sharing.share`):
the state of one run, advanced event by event (arrivals, finishes) and decision by decision
(the Mesos offer cycle or workload-characterized progressive filling), with the step limits
that stop a run too long to simulate.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..scenario import Scenario
from .filling import progressive_filling
from .model import FairnessProblem
from .sharing_inputs import MIN_CPU, MIN_MEM_GB, OfferRules, _workload, registration_times

__all__ = ["MAX_AGENT_STEPS", "MAX_STEPS"]

FloatArray = NDArray[np.float64]

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
        rules: OfferRules | None = None,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.mode, self.criterion, self.servers, self.interval = mode, criterion, servers, interval
        self.rules = rules if rules is not None else OfferRules()
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
        # the offer cycle's rules (notes §4)
        self.registered_at = np.array(registration_times(scenario, self.names, self.rules.registration))
        self.all_registered = not (self.registered_at > 0).any()
        # offered this decision and not launched into: it counts in the share until the decision ends
        self.in_decision = np.zeros((n, r))
        self.name_rank = [sorted(self.names).index(name) for name in self.names]
        self.greedy_most = self.rules.max_tasks_per_offer or None
        resources = list(scenario.resources)
        # Mesos' allocatable(): at least MIN_CPU cpu or MIN_MEM memory (a scenario with neither
        # resource: any positive amount)
        self.min_offer = np.full(r, np.inf)
        if self.rules.minimum_offer == "mesos" and ("cpu" in resources or "mem" in resources):
            if "cpu" in resources:
                self.min_offer[resources.index("cpu")] = MIN_CPU
            if "mem" in resources:
                self.min_offer[resources.index("mem")] = MIN_MEM_GB
        else:
            self.min_offer[:] = FIT

    # ------------------------------------------------------------------ bookkeeping

    def _dominant(self, n: int) -> None:
        self.dirty = True
        self.dominant[n] = float(
            ((self.usage[n] + self.held_total[n] + self.in_decision[n]) / self.total_safe).max()
        )

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
        # an agent is offered only when its unallocated resources are allocatable (notes §4)
        open_ = np.flatnonzero(
            (unallocated >= self.min_offer - FIT).any(axis=1) & (unallocated > FIT).any(axis=1)
        )
        if open_.size == 0:
            return
        offers = unallocated.tolist()
        # Filters set during this cycle concern agents already visited, so the eligibility of
        # every (agent, framework) can be read once: a filter holds back an offer it covers.
        covered = (unallocated[None, :, :] <= self.filter_amount + FIT).all(axis=2)
        eligible = (~((self.filter_until > t + 1e-9) & covered)).T.tolist()
        registered = [True] * len(self.names) if self.all_registered else (
            (self.registered_at <= t + 1e-9).tolist()
        )
        rng, policy, waiting = self.rng, self.policy, self.waiting_count
        by_count = self.rules.drf_ties == "allocations"
        count_offers = self.rules.offers_count == "decision"
        offered: set[int] = set()
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
                if can[f] and registered[f]:
                    if not ties:
                        best = keys[f]
                        ties.append(f)
                    elif keys[f] <= best + 1e-12:
                        ties.append(f)
                    else:
                        break
            if not ties:
                continue
            if len(ties) == 1:
                fw = ties[0]
            elif by_count:  # Mesos' DRF sorter: fewest allocations so far, then the name
                fw = min(ties, key=lambda f: (self.made[f], self.name_rank[f]))
            else:
                fw = ties[int(rng.random() * len(ties))]
            offer = offers[i]
            self.made[fw] += 1
            if by_count:
                order = []  # the count orders ties: sort again
            if policy[fw] == "first-fit":
                most = min(1, int(waiting[fw]))
            elif policy[fw] == "greedy" and self.greedy_most is not None:
                most = min(self.greedy_most, int(waiting[fw]))  # Marathon's max_tasks_per_offer
            else:
                most = int(waiting[fw])
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
                continue
            else:
                self.declined[fw] += 1
                self._filter(fw, i, t, offer)
            if count_offers and any(x > FIT for x in rest):
                # the offer counts in whole until the decision ends (notes §4): what was not
                # launched into returns to the pool at the next decision
                self.in_decision[fw] += rest
                offered.add(fw)
                self._dominant(fw)
                order = []
        for fw in offered:
            self.in_decision[fw] = 0.0
            self._dominant(fw)

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
        # The fair share of paper 001 §II (notes §5): a constant line, the weight over the weights
        # of the frameworks that have tasks.
        has = self.tasks_of > 0
        weight_sum = float((self.weight * has).sum())
        line = np.where(has, self.weight / weight_sum, 0.0) if weight_sum > 0 else np.zeros(n)
        fair = np.broadcast_to(line, running.shape).copy()
        # The pending-work reading: weight over the weights of the frameworks with tasks waiting.
        active = waiting > 0
        pending_sum = (active * self.weight).sum(axis=1, keepdims=True)
        pending_fair = np.where(active, self.weight / np.where(pending_sum > 0, pending_sum, 1.0), 0.0)
        utilisation = (self.total - free) / self.total_safe
        return t, {
            "running": running,
            "share": share,
            "held": np.maximum(dominant - share, 0.0),
            "fair_share": fair,
            "pending_fair_share": pending_fair,
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
