"""Discrete-event simulation of a cloud cluster under one scheduler (paper 003).

Events are job arrivals and executor completions. After all events at one instant, machines
left without executors are turned off, and then a scheduling pass starts what the ordering and
the placement allow (a VM emptied at ``t`` is off for every placement made at ``t``, as in paper
003; if the pass turns it on again, that is a new on-interval). A VM is billed per second at its
hourly price from the moment it is turned on until it is turned off (optionally rounded up to a
billing granularity and a minimum billed period, and with a boot delay before executors start).

>>> from scheduling.scenario import parse_scenario
>>> sc = parse_scenario({"vm_types": [{"name": "a", "capacity": {"cpu": 4, "mem": 16},
...     "price_per_hour": 3.6, "count": 2}], "jobs": [{"id": "j1", "arrival_s": 0,
...     "executors": 2, "executor": {"cpu": 2, "mem": 4}, "duration_s": 100}]})
>>> r = simulate(sc, scheduler="edf-bfd")
>>> r.total_cost, r.makespan_s, r.jobs[0]["placement"]
(0.1, 100.0, {'a#1': 2})
"""

from __future__ import annotations

import heapq
import math
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .bounds import lower_bound_cost
from .cluster import Cluster, PlacementContext
from .metrics import cost_by_hour, fairness_summary, percentile
from .placement import PLACEMENT_FUNCTIONS
from .scenario import Scenario, SimulationOptions
from .schedulers import SchedulerSpec, parse_scheduler

Progress = Callable[[float], None]

_COMPLETION, _ARRIVAL, _TICK = 0, 1, 2  # at one instant: free capacity before taking arrivals


@dataclass
class SimulationResult:
    """The outcome of one simulation; :meth:`to_dict` is the JSON result document."""

    scheduler: str
    total_cost: float
    lower_bound_cost: float
    makespan_s: float
    deadline_jobs: int
    deadline_missed: int
    mean_completion_s: float
    jobs: list[dict[str, Any]]
    document: dict[str, Any] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        return self.document


def simulate(
    scenario: Scenario,
    *,
    scheduler: str,
    options: SimulationOptions | dict[str, Any] | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    lower_bound: float | None = None,
) -> SimulationResult:
    """Simulate ``scenario`` under one scheduler.

    Parameters
    ----------
    scenario : Scenario
        A validated scenario (:func:`scheduling.parse_scenario`).
    scheduler : str
        ``<ordering>-<placement>`` or a named scheduler, with optional overrides
        (see :mod:`scheduling.schedulers`).
    options : SimulationOptions or dict, optional
        Run options; defaults to the scenario's own ``options``.
    seed : int
        Recorded in the result. The simulation itself breaks every tie by listed order, so
        it is deterministic; the seed is kept so that randomised policies stay reproducible.
    progress : callable, optional
        Called with the fraction done; an exception raised by it aborts the run.
    lower_bound : float, optional
        A precomputed :func:`scheduling.bounds.lower_bound_cost` (saves solving it again).
    """
    base = _options(scenario, options)
    spec = parse_scheduler(scheduler, resources=scenario.resources, base=base)
    lb = lower_bound_cost(scenario) if lower_bound is None else lower_bound
    return _Simulation(scenario, spec, seed, progress).run(lb)


def compare(
    scenario: Scenario,
    *,
    schedulers: Iterable[str],
    options: SimulationOptions | dict[str, Any] | None = None,
    seed: int = 0,
    progress: Progress | None = None,
) -> dict[str, SimulationResult]:
    """Simulate several schedulers on one scenario; results keyed by scheduler spec."""
    base = _options(scenario, options)
    specs = [
        parse_scheduler(s, resources=scenario.resources, base=base, path=f"schedulers[{i}]")
        for i, s in enumerate(schedulers)
    ]
    lb = lower_bound_cost(scenario)
    out: dict[str, SimulationResult] = {}
    for i, spec in enumerate(specs):

        def part(frac: float, i: int = i) -> None:
            if progress is not None:
                progress((i + frac) / len(specs))

        out[spec.spec] = _Simulation(scenario, spec, seed, part).run(lb)
    return out


def _options(scenario: Scenario, options: SimulationOptions | dict[str, Any] | None) -> SimulationOptions:
    if options is None:
        return scenario.options
    if isinstance(options, SimulationOptions):
        return options
    return SimulationOptions.from_dict(options, resources=scenario.resources, base=scenario.options)


class _Simulation:
    def __init__(self, scenario: Scenario, spec: SchedulerSpec, seed: int, progress: Progress | None):
        self.sc = scenario
        self.spec = spec
        self.opts = spec.options
        self.seed = seed
        self.progress = progress
        self.cluster = Cluster(scenario)
        self.place_fn = PLACEMENT_FUNCTIONS[spec.placement]
        self.ctx = PlacementContext(
            rut=np.array(self.opts.rut_weights(scenario.resources), dtype=float),
            ilp_time_limit_s=self.opts.ilp_time_limit_s,
            ilp_method=self.opts.ilp_method,
        )
        jobs = scenario.jobs
        n, R = len(jobs), len(scenario.resources)
        self.n = n
        self.demand = np.array([j.executor for j in jobs], dtype=float).reshape(n, R)
        self.execs = np.array([j.executors for j in jobs], dtype=np.int64)
        self.arrival = np.array([j.arrival_s for j in jobs], dtype=float)
        self.duration = np.array([j.duration_s for j in jobs], dtype=float)
        fws = scenario.framework_map()
        self.fw_names = list(fws)
        fw_index = {name: k for k, name in enumerate(self.fw_names)}
        self.fw_of = np.array([fw_index[j.framework] for j in jobs], dtype=np.int64)
        self.fw_weight = np.array([fws[f].weight for f in self.fw_names], dtype=float)
        # Fairness is measured only when at least two frameworks have jobs (declaring one is
        # not enough: a framework without jobs never shares the cluster).
        self.shared = len(np.unique(self.fw_of)) >= 2
        type_names = [t.name for t in scenario.vm_types]
        self.fw_allowed = np.ones((len(self.fw_names), len(type_names)), dtype=bool)
        for k, name in enumerate(self.fw_names):
            allowed = fws[name].allowed_vm_types
            if allowed is not None:
                self.fw_allowed[k] = [t in allowed for t in type_names]
        total = self.cluster.total
        # RD_job (eq. 9 of paper 003): RUT-weighted demand normalised by cluster totals.
        self.rd = (self.demand / np.where(total > 0, total, 1.0)) @ self.ctx.rut * self.execs
        # Run state
        self.start = np.full(n, np.nan)
        self.finish = np.full(n, np.nan)
        self.placed_at = np.full(n, np.nan)
        self.assignment: list[dict[int, int] | None] = [None] * n
        self.failed_version = np.full(n, -1, dtype=np.int64)
        self.capacity_version = 0
        self.delays_ms: list[float] = []
        # Queues
        self.fifo: deque[int] = deque()
        self.deadline_q: list[tuple[float, float, int]] = []
        self.regular: list[int] = []  # kept sorted by (-RD, arrival, index)
        self.regular_dirty = False
        self.waiting: set[int] = set()  # morpheus
        # Accounting
        self.on_since = np.full(self.cluster.n_machines, np.nan)
        self.on_capacity = np.zeros(R)
        self.intervals: list[tuple[int, float, float]] = []
        self.released: set[int] = set()  # machines left without executors since the last pass
        self.cum_cost = 0.0
        self.rate_per_hour = 0.0
        self.last_t = 0.0
        self.fw_usage = np.zeros((len(self.fw_names), R))
        self.fw_pending = np.zeros(len(self.fw_names), dtype=np.int64)
        self.queued = 0
        self.running = 0
        self.tl: dict[str, list[Any]] = {k: [] for k in ("t", "util", "util_on", "active", "rate", "cum", "queued", "running", "share", "fair")}

    # ------------------------------------------------------------------ main loop

    def run(self, lower_bound: float) -> SimulationResult:
        events: list[tuple[float, int, int, int]] = []
        seq = 0
        for i in np.argsort(self.arrival, kind="stable"):
            events.append((float(self.arrival[i]), _ARRIVAL, seq, int(i)))
            seq += 1
        heapq.heapify(events)
        interval = self.opts.scheduling_interval_s
        tick_pending = False
        done = 0
        report_every = max(1, self.n // 100)
        while events:
            t = events[0][0]
            self._advance(t)
            ticked = False
            while events and events[0][0] == t:
                _, kind, _, i = heapq.heappop(events)
                if kind == _ARRIVAL:
                    self._enqueue(i)
                elif kind == _COMPLETION:
                    self._complete(i)
                    done += 1
                    if self.progress is not None and done % report_every == 0:
                        self.progress(done / self.n)
                else:
                    ticked, tick_pending = True, False
            # A VM left without executors is off before the pass: BFD's "list of used VMs"
            # (Algorithm 3 of paper 003) and the ILP's fixed y = 1 (Algorithm 2) cover only VMs
            # that still run an executor. One the pass turns on again starts a new on-interval.
            self._turn_off_idle(t)
            # Event-driven passes by default; with an interval, passes only on its multiples
            # (the paper's prototype polled every 10 s).
            if interval <= 0 or ticked:
                for i in self._pass(t):
                    heapq.heappush(events, (float(self.finish[i]), _COMPLETION, seq, i))
                    seq += 1
            if interval > 0 and self.queued and not tick_pending:
                nxt = t + interval if ticked else math.ceil(t / interval - 1e-12) * interval
                heapq.heappush(events, (nxt, _TICK, seq, -1))
                seq += 1
                tick_pending = True
            self._record(t)
        if self.progress is not None:
            self.progress(1.0)
        return self._result(lower_bound)

    # ------------------------------------------------------------------ queues

    def _enqueue(self, i: int) -> None:
        self.queued += 1
        self.fw_pending[self.fw_of[i]] += 1
        o = self.spec.ordering
        if o == "fifo":
            self.fifo.append(i)
        elif o == "edf":
            deadline = self.sc.jobs[i].absolute_deadline_s
            if deadline is not None:
                heapq.heappush(self.deadline_q, (deadline, float(self.arrival[i]), i))
            else:
                self.regular.append(i)
                self.regular_dirty = True
        else:
            self.waiting.add(i)

    def _pass(self, t: float) -> list[int]:
        started: list[int] = []
        o = self.spec.ordering
        if o == "fifo":
            # Strict arrival order: the head blocks the queue (paper 003, Section 6.4).
            while self.fifo and self._try_start(self.fifo[0], t):
                started.append(self.fifo.popleft())
        elif o == "edf":
            # Algorithm 1: deadline jobs in EDF order; while one waits unplaced, no regular job.
            if self.opts.edf_backfill:
                # A deadline job that does not fit no longer blocks later deadline jobs.
                waiting = []
                while self.deadline_q:
                    item = heapq.heappop(self.deadline_q)
                    if self._try_start(item[2], t):
                        started.append(item[2])
                    else:
                        waiting.append(item)
                self.deadline_q = waiting
                heapq.heapify(self.deadline_q)
            while self.deadline_q and self._try_start(self.deadline_q[0][2], t):
                started.append(heapq.heappop(self.deadline_q)[2])
            if not self.deadline_q and self.regular:
                if self.regular_dirty:
                    self.regular.sort(key=lambda i: (-self.rd[i], self.arrival[i], i))
                    self.regular_dirty = False
                keep = []
                for i in self.regular:  # descending RD_job; a job that does not fit is skipped
                    if self._try_start(i, t):
                        started.append(i)
                    else:
                        keep.append(i)
                self.regular = keep
        else:
            started = self._morpheus_pass(t)
        return started

    def _morpheus_pass(self, t: float) -> list[int]:
        """Jobs in ascending c_job (eq. 10 of paper 003), recomputed as the load changes."""
        started: list[int] = []
        total = np.where(self.cluster.total > 0, self.cluster.total, 1.0)
        candidates = np.array(sorted(self.waiting), dtype=np.int64)
        tried = np.zeros(len(candidates), dtype=bool)
        while len(candidates) and not tried.all():
            load = self.cluster.used_total
            c = ((load + self.demand[candidates] * self.execs[candidates, None]) / total).max(axis=1)
            c[tried] = np.inf
            order = np.lexsort((self.arrival[candidates], c))
            progressed = False
            for k in order:
                if tried[k]:
                    break
                tried[k] = True
                i = int(candidates[k])
                if self._try_start(i, t):
                    started.append(i)
                    self.waiting.discard(i)
                    progressed = True
                    break  # the load changed: recompute c_job
            if not progressed:
                break
        return started

    # ------------------------------------------------------------------ placing and ending

    def _try_start(self, i: int, t: float) -> bool:
        # Free capacity only shrinks between releases, so a job that failed since the last
        # release fails again; skipping it keeps long backlogs cheap.
        if self.failed_version[i] == self.capacity_version:
            return False
        allowed = self.fw_allowed[self.fw_of[i]]
        t0 = time.perf_counter()
        assignment = self.place_fn(self.cluster, self.demand[i], int(self.execs[i]), allowed, self.ctx)
        self.delays_ms.append((time.perf_counter() - t0) * 1000.0)
        if assignment is None:
            self.failed_version[i] = self.capacity_version
            if self.ctx.events and self.ctx.events[-1].get("job") is None:
                self.ctx.events[-1]["job"] = self.sc.jobs[i].id
            return False
        if self.ctx.events and self.ctx.events[-1].get("job") is None:
            self.ctx.events[-1]["job"] = self.sc.jobs[i].id
        if sum(assignment.values()) != self.execs[i]:
            raise AssertionError(f"placement of {self.sc.jobs[i].id} is not whole")
        for v in self.cluster.apply(assignment, self.demand[i]):
            self.on_since[v] = t
            self.cluster.ready_at[v] = t + self.opts.boot_time_s
            self.on_capacity += self.cluster.capacity[v]
            self.rate_per_hour += float(self.cluster.price[v])
        ready = max(float(self.cluster.ready_at[v]) for v in assignment)
        self.assignment[i] = assignment
        self.placed_at[i] = t
        self.start[i] = max(t, ready)
        self.finish[i] = self.start[i] + self.duration[i]
        self.queued -= 1
        self.running += 1
        self.fw_usage[self.fw_of[i]] += self.demand[i] * self.execs[i]
        return True

    def _complete(self, i: int) -> None:
        assignment = self.assignment[i]
        assert assignment is not None
        self.released.update(self.cluster.release(assignment, self.demand[i]))
        self.capacity_version += 1
        self.running -= 1
        self.fw_pending[self.fw_of[i]] -= 1
        self.fw_usage[self.fw_of[i]] -= self.demand[i] * self.execs[i]
        self.fw_usage[self.fw_of[i]] = np.maximum(self.fw_usage[self.fw_of[i]], 0.0)

    def _turn_off_idle(self, t: float) -> None:
        cl = self.cluster
        idle = sorted(v for v in self.released if cl.on[v] and cl.executors[v] == 0)
        self.released.clear()
        for v in idle:
            cl.turn_off(v)
            on = float(self.on_since[v])
            self.intervals.append((v, on, t))
            raw = (t - on) * cl.price[v] / 3600.0
            self.cum_cost += self._billed_cost(v, on, t) - raw  # rounding surcharges land at turn-off
            self.on_capacity -= cl.capacity[v]
            self.rate_per_hour -= float(cl.price[v])
            self.on_since[v] = np.nan

    def _billed_seconds(self, on: float, off: float) -> float:
        s = off - on
        g = self.opts.billing_granularity_s
        if g > 0:
            s = math.ceil(s / g - 1e-9) * g
        return max(s, self.opts.min_billed_s)

    def _billed_cost(self, v: int, on: float, off: float) -> float:
        return self._billed_seconds(on, off) * float(self.cluster.price[v]) / 3600.0

    # ------------------------------------------------------------------ timelines

    def _advance(self, t: float) -> None:
        self.cum_cost += self.rate_per_hour * (t - self.last_t) / 3600.0
        self.last_t = t

    def _record(self, t: float) -> None:
        cl = self.cluster
        total = np.where(cl.total > 0, cl.total, 1.0)
        on_cap = np.where(self.on_capacity > 1e-12, self.on_capacity, 1.0)
        if self.shared:
            share = (self.fw_usage / total).max(axis=1)
            pending = self.fw_pending > 0
            wsum = float(self.fw_weight[pending].sum())
            fair = np.where(pending, self.fw_weight / wsum, 0.0) if wsum > 0 else np.zeros(len(self.fw_names))
        else:
            share = fair = np.zeros(0)
        row = (
            t,
            (cl.used_total / total).tolist(),
            np.where(self.on_capacity > 1e-12, cl.used_total / on_cap, 0.0).tolist(),
            cl.on_count_by_type.tolist(),
            self.rate_per_hour,
            self.cum_cost,
            self.queued,
            self.running,
            share.tolist(),
            fair.tolist(),
        )
        keys = ("t", "util", "util_on", "active", "rate", "cum", "queued", "running", "share", "fair")
        if self.tl["t"] and self.tl["t"][-1] == t:
            for k, v in zip(keys, row, strict=True):
                self.tl[k][-1] = v
        else:
            for k, v in zip(keys, row, strict=True):
                self.tl[k].append(v)

    # ------------------------------------------------------------------ the result document

    def _result(self, lower_bound: float) -> SimulationResult:
        sc, cl = self.sc, self.cluster
        res = sc.resources
        names = cl.names
        type_names = cl.type_names
        if np.isnan(self.finish).any():  # validation makes every job placeable on an empty cluster
            stuck = [sc.jobs[i].id for i in np.flatnonzero(np.isnan(self.finish))[:5]]
            raise AssertionError(f"jobs never started: {stuck}")

        intervals_doc = []
        vm_hours = dict.fromkeys(type_names, 0.0)
        cost_type = dict.fromkeys(type_names, 0.0)
        total_cost = 0.0
        for v, on, off in self.intervals:
            billed = self._billed_seconds(on, off)
            cost = billed * float(cl.price[v]) / 3600.0
            tn = type_names[int(cl.type_of[v])]
            vm_hours[tn] += billed / 3600.0
            cost_type[tn] += cost
            total_cost += cost
            intervals_doc.append(
                {"vm": names[v], "vm_type": tn, "on_s": on, "off_s": off, "billed_s": billed, "cost": cost}
            )

        jobs_doc = []
        cost_fw = dict.fromkeys(self.fw_names, 0.0)
        completions = self.finish - self.arrival
        met = missed = 0
        for i, job in enumerate(sc.jobs):
            assignment = self.assignment[i] or {}
            held = float(self.finish[i] - self.placed_at[i])
            # The job pays, for each VM it holds, the VM's price times its share of the VM in
            # the RUT-weighted unified form of eq. 8 (paper 003). Shares of co-located jobs add
            # up to at most 1, so the attributed costs never exceed the bill.
            jcost = 0.0
            for v, k in assignment.items():
                cap = np.where(cl.capacity[v] > 0, cl.capacity[v], np.inf)
                frac = float((self.demand[i] * k / cap) @ self.ctx.rut)
                jcost += float(cl.price[v]) * held / 3600.0 * min(frac, 1.0)
            cost_fw[job.framework] += jcost
            deadline = job.absolute_deadline_s
            ok = None if deadline is None else bool(self.finish[i] <= deadline + 1e-9)
            if ok is True:
                met += 1
            elif ok is False:
                missed += 1
            jobs_doc.append(
                {
                    "id": job.id,
                    "framework": job.framework,
                    "arrival_s": job.arrival_s,
                    "placed_s": float(self.placed_at[i]),
                    "start_s": float(self.start[i]),
                    "finish_s": float(self.finish[i]),
                    "wait_s": float(self.start[i] - self.arrival[i]),
                    "completion_s": float(completions[i]),
                    "executors": job.executors,
                    "executor": dict(zip(res, job.executor, strict=True)),
                    "deadline_s": deadline,
                    "met_deadline": ok,
                    "placement": {names[v]: k for v, k in sorted(assignment.items())},
                    "cost": jcost,
                }
            )
        cost_fw["(unused capacity)"] = max(0.0, total_cost - sum(cost_fw.values()))

        deadline_jobs = met + missed
        first_arrival = float(self.arrival.min()) if self.n else 0.0
        makespan = float(self.finish.max()) - first_arrival if self.n else 0.0
        tl = self.tl
        util = np.array(tl["util"]).reshape(len(tl["t"]), len(res))
        util_on = np.array(tl["util_on"]).reshape(len(tl["t"]), len(res))
        active = np.array(tl["active"]).reshape(len(tl["t"]), len(type_names))
        timeline = {
            "t": tl["t"],
            "utilisation": {r: util[:, k].tolist() for k, r in enumerate(res)},
            "utilisation_of_on": {r: util_on[:, k].tolist() for k, r in enumerate(res)},
            "active_vms": {tn: active[:, k].tolist() for k, tn in enumerate(type_names)},
            "cost_rate_per_hour": tl["rate"],
            "cumulative_cost": tl["cum"],
            "queued_jobs": tl["queued"],
            "running_jobs": tl["running"],
        }
        fairness = None
        if self.shared:
            share = np.array(tl["share"]).reshape(len(tl["t"]), len(self.fw_names))
            fair = np.array(tl["fair"]).reshape(len(tl["t"]), len(self.fw_names))
            fairness = fairness_summary(np.array(tl["t"]), share, fair, self.fw_names, self.fw_weight)

        delays = self.delays_ms
        ilp = None
        if self.spec.placement == "ilp":
            fallback_jobs = [e.get("job") for e in self.ctx.events if e.get("kind") == "ilp_fallback"]
            ilp = {
                "decisions": int(self.ctx.stats.get("ilp_decisions", 0)),
                "fallbacks": int(self.ctx.stats.get("ilp_fallbacks", 0)),
                "fallback_jobs": fallback_jobs,
                "method": self.opts.ilp_method,
            }
        doc: dict[str, Any] = {
            "scheduler": self.spec.spec,
            "ordering": self.spec.ordering,
            "placement": self.spec.placement,
            "options": self.opts.to_dict(),
            "seed": self.seed,
            "scenario_name": sc.name,
            "resources": list(res),
            "vm_types": [
                {"name": t.name, "price_per_hour": t.price_per_hour, "count": t.count,
                 "capacity": dict(zip(res, t.capacity, strict=True))}
                for t in sc.vm_types
            ],
            "total_cost": total_cost,
            "lower_bound_cost": lower_bound,
            "gap_to_lower_bound": (total_cost / lower_bound - 1.0) if lower_bound > 0 else None,
            "makespan_s": makespan,
            "jobs_total": self.n,
            "deadline_jobs": deadline_jobs,
            "deadline_met": met,
            "deadline_missed": missed,
            "deadline_miss_pct": 100.0 * missed / deadline_jobs if deadline_jobs else None,
            "deadline_violation_eq12_pct": 100.0 * missed / met if met else None,
            "mean_completion_s": float(completions.mean()) if self.n else 0.0,
            "median_completion_s": percentile(completions, 50),
            "p95_completion_s": percentile(completions, 95),
            "mean_wait_s": float((self.start - self.arrival).mean()) if self.n else 0.0,
            "vm_hours_by_type": vm_hours,
            "cost_by_vm_type": cost_type,
            "cost_by_framework": cost_fw,
            "cost_by_hour": cost_by_hour(intervals_doc),
            "jobs": jobs_doc,
            "vm_intervals": intervals_doc,
            "timeline": timeline,
            "fairness": fairness,
            "ilp": ilp,
            "scheduling_delay": {
                "decisions": len(delays),
                "mean_ms": float(np.mean(delays)) if delays else 0.0,
                "median_ms": percentile(delays, 50),
                "p99_ms": percentile(delays, 99),
                "max_ms": float(max(delays)) if delays else 0.0,
                "samples_ms": delays,
            },
        }
        return SimulationResult(
            scheduler=self.spec.spec,
            total_cost=total_cost,
            lower_bound_cost=lower_bound,
            makespan_s=makespan,
            deadline_jobs=deadline_jobs,
            deadline_missed=missed,
            mean_completion_s=doc["mean_completion_s"],
            jobs=jobs_doc,
            document=doc,
        )
