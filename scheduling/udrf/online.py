"""Online UDRF (paper 004 Fig. 5, §V) against DRF, simulated decision by decision.

Jobs (a user's complex job types) arrive at their ``arrival_s`` into one waiting queue of
``queue_capacity`` jobs (100 in paper 004 §V); jobs beyond it wait outside in arrival order and
enter as room frees ("whenever the waiting queue is not full, we add jobs to the queue until it
becomes saturated"). A *run* of a job starts all its tasks at once on their machine classes
(pooled, as in :mod:`.model`: a run fits when every (class, resource) it demands has that much
unallocated) and holds them ``duration_s``; runs of one job may overlap. A job leaves the queue
once it has run ``runs`` times; its completion time is the end of its last run minus its arrival.

Decisions are taken every ``interval_s`` seconds (per second in the paper), only at the ticks
where a run ended or a job entered the queue: idle seconds are skipped, which changes nothing,
since an allocation that could not grow at one tick cannot grow at a later one until something
frees. The policies:

``udrf`` (Fig. 5)
    Per RDUC (:func:`.graph.rducs` on the users' demands), repeatedly the user with the lowest
    RDUC-wise dominant share (eq. 12 on what it holds now: the largest share of a (class,
    resource) it holds, divided by its weight) that has a queued job with runs left to start
    that fits starts one run of it (of its fitting jobs, the one with the fewest runs started,
    ties by queue order), until nothing fits.
``drf`` (the baseline of §V; notes §7)
    Every (class, resource) is a resource of its own and a user's unit of allocation is its
    current gross demand (eq. 1): one run of each of its queued jobs with runs left. The user
    with the lowest dominant share whose whole bundle fits starts it; until no bundle fits. A
    bundle larger than the whole cluster could never start, so a bundle takes the user's jobs in
    queue order, leaving out a job that would make it exceed the cluster's capacity.

Ties between users' shares are broken by a random order drawn afresh at every decision from
``seed``, so a run is reproducible. Because RDUCs share no resource, deciding them one after
another gives what deciding them in parallel (the paper's slave schedulers) would. A decision
looks only at the jobs that could have started to fit since the one before: jobs that use a
resource that was freed, and jobs that entered the queue.

The state is sampled after every decision (a run that ends between two ticks is seen at the
next one): per user its share, its global dominant share
(:meth:`~.model.UdrfProblem.global_dominant_share`, as offline) and runs running; per resource
kind the waste (unallocated capacity of every (class, kind) that a queued job with runs left
demands, summed over classes; paper 004 Fig. 9) and the utilisation (allocated over the
cluster's capacity of that kind). Per (class, kind), per user too, the time-weighted means of
what is held and wasted; a user's part of a resource's waste is in proportion to what its
queued jobs with runs left demand of it (one run each), so the users' parts add up to the
class's.

>>> from scheduling.scenario import load_scenario_json
>>> problem = UdrfProblem.from_scenario(load_scenario_json(open("examples/paper004-fig1.json").read()))
>>> result = simulate(problem, policy="udrf")
>>> result.summary()["completed"], float(result.completion_s.max())
(5, 60.0)
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..charts.downsample import window_mean_step
from ..errors import FieldError, ScenarioError
from ..scenario import Scenario
from .graph import rducs
from .model import UdrfProblem
from .params import ONLINE_LIMITS, read_online_options

__all__ = [
    "ONLINE_LIMITS", "ONLINE_POLICIES", "RUNS_BUCKETS", "OnlineResult", "check_online_options", "compare",
    "online_document", "simulate",
]

def check_online_options(
    *, interval_s: Any, horizon_s: Any, queue_capacity: Any, seed: Any, paths: dict[str, str] | None = None
) -> list[FieldError]:
    """The errors of the online simulation's options, each on its path (``paths`` renames
    them: the command line's ``--interval``): :data:`~scheduling.udrf.params.ONLINE_PARAMS`
    read by :func:`~scheduling.udrf.params.read_online_options`, one rule for every caller.
    ``None`` is an option's default.

    >>> for e in check_online_options(interval_s=float("inf"), horizon_s=None, queue_capacity=0,
    ...                               seed=-1, paths={"interval_s": "--interval"}):
    ...     print(e)
    --interval: must be a number of seconds in (0, 3600]
    queue_capacity: must be a whole number from 1 to 100,000
    seed: must be a whole number from 0 to 9,223,372,036,854,775,807
    """
    try:
        read_online_options({"interval_s": interval_s, "horizon_s": horizon_s,
                             "queue_capacity": queue_capacity, "seed": seed}, paths=paths)
    except ScenarioError as exc:
        return exc.errors
    return []


#: The online policies, with their labels.
ONLINE_POLICIES = {"udrf": "UDRF (online, Fig. 5)", "drf": "DRF (classes as resources, bundles)"}
#: The buckets of the comparison by runs (Fig. 10b): (low, high), high None for no bound.
RUNS_BUCKETS: tuple[tuple[int, int | None], ...] = (
    (1, 1), (2, 5), (6, 10), (11, 20), (21, 50), (51, 100), (101, None))

_EPS = 1e-9


@dataclass(frozen=True)
class OnlineResult:
    """One policy's simulation: the sampled state over time and every job's outcome.

    ``share``, ``global_share``, ``running``: one row per sample time, one column per user;
    ``wasted``, ``utilisation``: one column per resource kind. ``class_allocated`` and
    ``class_wasted`` are the time-weighted means over the simulated span per resource (class x
    kind, the problem's resource order); ``user_allocated`` and ``user_wasted`` the same per
    user, over the resources it demands (resource index -> mean), its part of the class's.
    ``started_s`` is the start of a job's first run,
    ``completed_s`` the end of its last; NaN when it did not happen by the horizon.
    ``decisions`` counts the ticks at which the scheduler ran.
    """

    policy: str
    users: tuple[str, ...]
    kinds: tuple[str, ...]
    times: np.ndarray
    share: np.ndarray
    running: np.ndarray
    wasted: np.ndarray
    utilisation: np.ndarray
    job_user: tuple[int, ...]
    job_ids: tuple[str, ...]
    job_classes: tuple[int, ...]
    job_runs: tuple[int, ...]
    arrival_s: np.ndarray
    started_s: np.ndarray
    completed_s: np.ndarray
    decisions: int
    horizon_s: float | None
    classes: tuple[str, ...] = ()
    class_allocated: np.ndarray | None = None
    class_wasted: np.ndarray | None = None
    global_share: np.ndarray | None = None
    user_allocated: tuple[dict[int, float], ...] = ()
    user_wasted: tuple[dict[int, float], ...] = ()

    @property
    def completion_s(self) -> np.ndarray:
        """Per job: end of its last run minus its arrival (NaN when not completed)."""
        out: np.ndarray = self.completed_s - self.arrival_s
        return out

    def class_means(self) -> list[dict[str, Any]]:
        """Per machine class: ``name``, and kind -> time-weighted mean ``allocated`` and
        ``wasted`` (unallocated capacity of a resource a queued job with runs left demands)."""
        if self.class_allocated is None or self.class_wasted is None:
            return []
        k = len(self.kinds)
        return [{"name": c,
                 "allocated": {kind: round(float(self.class_allocated[i * k + kk]), 6)
                               for kk, kind in enumerate(self.kinds)},
                 "wasted": {kind: round(float(self.class_wasted[i * k + kk]), 6)
                            for kk, kind in enumerate(self.kinds)}}
                for i, c in enumerate(self.classes)]

    def user_class_means(self, u: int) -> dict[str, dict[str, dict[str, float]]]:
        """User ``u``'s ``allocated`` and ``wasted``: class -> kind -> time-weighted mean, over
        the resources it demands (its part of :meth:`class_means`)."""
        k = len(self.kinds)
        out: dict[str, dict[str, dict[str, float]]] = {"allocated": {}, "wasted": {}}
        for key, per_user in (("allocated", self.user_allocated), ("wasted", self.user_wasted)):
            if u < len(per_user):
                for r, v in sorted(per_user[u].items()):
                    out[key].setdefault(self.classes[r // k], {})[self.kinds[r % k]] = round(float(v), 6)
        return out

    def mean_wasted(self) -> dict[str, float]:
        """Per resource kind, the time-weighted mean of the waste over the simulated span."""
        return {k: _time_mean(self.times, self.wasted[:, i]) for i, k in enumerate(self.kinds)}

    def summary(self) -> dict[str, Any]:
        """Completed jobs (a job not done at the horizon is not completed, and its completion
        time is left out of the means: ``unfinished`` counts them), completion-time mean and
        percentiles, makespan (end of the last run of a completed job), mean waste, decisions."""
        done = ~np.isnan(self.completed_s)
        comp = self.completion_s[done]
        n_done = int(done.sum())
        return {
            "completed": n_done,
            "jobs": len(self.job_ids),
            "unfinished": len(self.job_ids) - n_done,
            "mean_completion_s": float(comp.mean()) if n_done else None,
            "p50_completion_s": float(np.percentile(comp, 50)) if n_done else None,
            "p95_completion_s": float(np.percentile(comp, 95)) if n_done else None,
            "makespan_s": float(self.completed_s[done].max()) if n_done else None,
            "mean_wasted": self.mean_wasted(),
            "decisions": self.decisions,
        }

    def to_dict(self, *, max_points: int = 2000) -> dict[str, Any]:
        """The policy's part of :func:`online_document` (``P`` in ``docs/results.md``).

        Beyond ``max_points`` samples, each kept point is the time-weighted mean of its window
        (:func:`~scheduling.charts.downsample.window_mean_step`), so the area under every curve
        (resource-seconds wasted, runs x seconds) is kept.
        """
        series: dict[str, np.ndarray] = {}
        glob = self.global_share if self.global_share is not None else np.zeros_like(self.share)
        for u in range(len(self.users)):
            series[f"s{u}"] = self.share[:, u]
            series[f"g{u}"] = glob[:, u]
            series[f"r{u}"] = self.running[:, u]
        for i in range(len(self.kinds)):
            series[f"w{i}"] = self.wasted[:, i]
            series[f"u{i}"] = self.utilisation[:, i]
        times = self.times
        if len(times) > max_points and times[-1] > times[0]:
            window = (times[-1] - times[0]) / max(1, max_points - 1)
            kept_t, kept = window_mean_step(times, series, window)
            t_out = np.asarray(kept_t, dtype=float)
            cols = {k: np.asarray(v, dtype=float) for k, v in kept.items()}
        else:
            t_out, cols = times, series
        return {
            "times": _rounded(t_out, 3),
            "users": [{"name": name, "share": _rounded(cols[f"s{u}"], 6),
                       "global_share": _rounded(cols[f"g{u}"], 6),
                       "running": _rounded(cols[f"r{u}"], 3),
                       "mean_share": round(_time_mean(self.times, self.share[:, u]), 6),
                       "mean_global_share": round(_time_mean(self.times, glob[:, u]), 6),
                       "mean_running": round(_time_mean(self.times, self.running[:, u]), 6),
                       **self.user_class_means(u)} for u, name in enumerate(self.users)],
            "wasted": {k: _rounded(cols[f"w{i}"], 6) for i, k in enumerate(self.kinds)},
            "utilisation": {k: _rounded(cols[f"u{i}"], 6) for i, k in enumerate(self.kinds)},
            "classes": self.class_means(),
            "jobs": [{"user": self.users[self.job_user[j]], "id": self.job_ids[j],
                      "classes": self.job_classes[j], "runs": self.job_runs[j],
                      "arrival_s": float(self.arrival_s[j]),
                      "completed_s": _or_none(self.completed_s[j]),
                      "completion_s": _or_none(self.completed_s[j] - self.arrival_s[j])}
                     for j in range(len(self.job_ids))],
            "summary": self.summary(),
        }


def simulate(
    problem: UdrfProblem,
    *,
    policy: str = "udrf",
    interval_s: float = 1.0,
    horizon_s: float | None = None,
    queue_capacity: int = 100,
    seed: int = 0,
) -> OnlineResult:
    """Simulate ``policy`` (``udrf`` or ``drf``) online on the problem's jobs.

    Parameters
    ----------
    problem : UdrfProblem
        Classes, users and jobs (their runs, durations and arrivals come from the scenario).
    policy : {"udrf", "drf"}
        Fig. 5's online UDRF, or DRF with classes as resources and whole gross demands.
    interval_s : float, default 1.0
        Seconds between decision ticks (a run or arrival is acted on at the next tick).
    horizon_s : float, optional
        Stop at this time; jobs not done by then are not completed. By default, run until
        every job is done (every job fits its classes, which validation checks, so it ends).
    queue_capacity : int, default 100
        The waiting queue's size in jobs.
    seed : int, default 0
        Seeds the random order that breaks ties between users.

    Returns
    -------
    OnlineResult

    Raises
    ------
    ValueError
        For an unknown policy, ``interval_s <= 0``, ``queue_capacity < 1`` or a negative horizon.

    Examples
    --------
    Two users on one class of 4 cpu: u1's job needs 3 cpu for 10 s, u2's 2 cpu for 5 s, both
    at time 0. The tie at share 0 is broken at random; the other waits for the first to end.

    >>> from scheduling.scenario import parse_scenario
    >>> p = UdrfProblem.from_scenario(parse_scenario({"version": 3, "resources": ["cpu"],
    ...     "vm_types": [{"name": "n", "capacity": {"cpu": 4}, "price_per_hour": 0}],
    ...     "frameworks": [
    ...         {"name": "u1", "complex_jobs": [{"id": "a", "duration_s": 10, "tasks": [
    ...             {"machine_class": "n", "demand": {"cpu": 3}}]}]},
    ...         {"name": "u2", "complex_jobs": [{"id": "b", "duration_s": 5, "tasks": [
    ...             {"machine_class": "n", "demand": {"cpu": 2}}]}]}]}))
    >>> sorted(simulate(p, seed=0).completed_s.tolist())
    [5.0, 15.0]
    """
    if policy not in ONLINE_POLICIES:
        raise ValueError(f"policy must be one of {', '.join(ONLINE_POLICIES)}, got {policy!r}")
    if not interval_s > 0:
        raise ValueError(f"interval_s must be > 0, got {interval_s}")
    if queue_capacity < 1:
        raise ValueError(f"queue_capacity must be >= 1, got {queue_capacity}")
    if horizon_s is not None and horizon_s < 0:
        raise ValueError(f"horizon_s must be >= 0, got {horizon_s}")
    return _Simulation(problem, policy, float(interval_s), horizon_s, int(queue_capacity), seed).run()


class _Simulation:
    """The state of one simulation; :meth:`run` advances it tick by tick."""

    def __init__(self, problem: UdrfProblem, policy: str, interval_s: float,
                 horizon_s: float | None, queue_capacity: int, seed: int) -> None:
        self.problem = problem
        self.policy = policy
        self.interval = interval_s
        self.horizon = horizon_s
        self.queue_capacity = queue_capacity
        self.rng = random.Random(seed)
        self.cap = [float(c) for c in problem.capacity]
        self.inv_cap = [1.0 / c if c > 0 else 0.0 for c in self.cap]
        self.tol = [_EPS * max(1.0, c) for c in self.cap]
        n_users, n_jobs, n_res = len(problem.users), len(problem.jobs), len(self.cap)
        self.weight = [float(w) for w in problem.weights]
        self.demand = [tuple(sorted((r, float(d)) for r, d in problem.demands[j].items()))
                       for j in range(n_jobs)]
        self.demand_of = [dict(d) for d in self.demand]
        self.user = [job.user for job in problem.jobs]
        self.runs = [job.job.runs for job in problem.jobs]
        self.duration = [float(job.job.duration_s) for job in problem.jobs]
        self.arrival = [float(job.job.arrival_s) for job in problem.jobs]
        groups = rducs([problem.positive_demand(u) for u in range(n_users)])
        self.rduc_of = [0] * n_users
        for g, members in enumerate(groups):
            for u in members:
                self.rduc_of[u] = g
        self.arrival_order = sorted(range(n_jobs), key=lambda j: (self.arrival[j], j))
        self.next_arrival = 0
        # State.
        self.free = list(self.cap)
        self.held: list[dict[int, float]] = [{} for _ in range(n_users)]
        self.share = [0.0] * n_users
        self.global_share = [0.0] * n_users
        self.running = [0] * n_users
        self.started = [0] * n_jobs
        self.done = [0] * n_jobs
        self.completed = [math.nan] * n_jobs
        self.first_start = [math.nan] * n_jobs
        self.entry = [-1] * n_jobs  # position of entry into the queue
        self.entered = 0
        self.queue_len = 0
        #: per resource, the queued jobs with runs left to start that demand it
        self.jobs_on: list[set[int]] = [set() for _ in range(n_res)]
        self.wanted = np.zeros(n_res, dtype=bool)
        #: per user, its queued jobs with runs left to start, in queue order
        self.user_queue: list[list[int]] = [[] for _ in range(n_users)]
        self.finishes: list[tuple[float, int, int]] = []
        self.seq = 0
        self.decisions = 0
        # Samples.
        self.k_kinds = len(problem.kinds)
        pooled = np.asarray(self.cap).reshape(-1, self.k_kinds).sum(axis=0)
        self.pooled = np.where(pooled > 0, pooled, 1.0)
        self.cap_np = np.asarray(self.cap)
        self.times: list[float] = []
        self.share_rows: list[list[float]] = []
        self.global_rows: list[list[float]] = []
        self.running_rows: list[list[int]] = []
        self.wasted_rows: list[np.ndarray] = []
        self.util_rows: list[np.ndarray] = []
        # Per resource: the state since the last sample and its integral over time.
        self.last_allocated = np.zeros(len(self.cap_np))
        self.last_wasted = np.zeros(len(self.cap_np))
        self.allocated_area = np.zeros(len(self.cap_np))
        self.wasted_area = np.zeros(len(self.cap_np))
        # Per user and resource: what it held integrated up to ``held_since[u]`` (brought up to
        # date whenever its holding changes), and its part of the waste. A user's fraction of a
        # resource's waste changes only when the queue's demand on it does, so the part is
        # brought up to date then, from the resource's waste area since the last such change
        # (``wasted_mark``); per sample it would cost every (user, resource) waiting.
        self.held_area: list[dict[int, float]] = [{} for _ in range(n_users)]
        self.held_since = [0.0] * n_users
        self.user_wasted_area: list[dict[int, float]] = [{} for _ in range(n_users)]
        #: per resource, user -> [demand of its queued jobs with runs left (one run each), jobs]
        self.queued_demand: list[dict[int, list[float]]] = [{} for _ in range(n_res)]
        self.wasted_mark = [0.0] * n_res

    # -- the loop ------------------------------------------------------------------------------

    def run(self) -> OnlineResult:
        tick = -1
        horizon = self.horizon
        while True:
            nxt = self._next_event()
            if nxt is None:
                break
            tick = max(tick + 1, math.ceil(nxt / self.interval - _EPS))
            t = tick * self.interval
            if horizon is not None and t > horizon + _EPS:
                break
            if not self.times and t > 0:
                self._sample(0.0)
            freed = self._finish_until(t)
            arrived = self._admit(t)
            self.decisions += 1
            if self.policy == "udrf":
                self._decide_udrf(t, freed, arrived)
            else:
                self._decide_drf(t, freed, arrived)
            self._sample(t)
        if horizon is not None and (not self.times or self.times[-1] < horizon):
            self._finish_until(horizon)  # runs that end by the horizon complete their jobs
            self._sample(horizon)
        if not self.times:
            self._sample(0.0)
        return self._result()

    def _next_event(self) -> float | None:
        nxt = self.finishes[0][0] if self.finishes else None
        if self.next_arrival < len(self.arrival_order) and self.queue_len < self.queue_capacity:
            a = self.arrival[self.arrival_order[self.next_arrival]]
            nxt = a if nxt is None else min(nxt, a)
        return nxt

    def _finish_until(self, t: float) -> set[int]:
        """End every run due by ``t``; returns the resources freed."""
        freed: set[int] = set()
        finishes, free, cap = self.finishes, self.free, self.cap
        while finishes and finishes[0][0] <= t + _EPS * max(1.0, t):
            end, _, j = heapq.heappop(finishes)
            u = self.user[j]
            self._integrate_held(u, t)
            held = self.held[u]
            for r, d in self.demand[j]:
                free[r] = min(cap[r], free[r] + d)
                h = held[r] - d
                if h <= self.tol[r]:
                    del held[r]
                else:
                    held[r] = h
                freed.add(r)
            self._update_share(u)
            self.running[u] -= 1
            self.done[j] += 1
            if self.done[j] == self.runs[j]:
                self.completed[j] = end
                self.queue_len -= 1
        return freed

    def _admit(self, t: float) -> list[int]:
        """Jobs arrived by ``t`` enter the queue while it has room."""
        out = []
        order = self.arrival_order
        while (self.next_arrival < len(order) and self.queue_len < self.queue_capacity
               and self.arrival[order[self.next_arrival]] <= t + _EPS * max(1.0, t)):
            j = order[self.next_arrival]
            self.next_arrival += 1
            self.queue_len += 1
            self.entry[j] = self.entered
            self.entered += 1
            u = self.user[j]
            for r, d in self.demand[j]:
                self._integrate_wasted(r, t)
                entry = self.queued_demand[r].setdefault(u, [0.0, 0])
                entry[0] += d
                entry[1] += 1
                self.jobs_on[r].add(j)
                self.wanted[r] = True
            self.user_queue[self.user[j]].append(j)
            out.append(j)
        return out

    # -- decisions -----------------------------------------------------------------------------

    def _candidates(self, freed: set[int], arrived: list[int]) -> set[int]:
        """Jobs that may fit now: those that use a freed resource, and those that arrived."""
        cand = set(arrived)
        for r in freed:
            cand.update(self.jobs_on[r])
        return cand

    def _by_rduc(self, users: set[int]) -> list[list[int]]:
        groups: dict[int, list[int]] = {}
        for u in sorted(users):
            groups.setdefault(self.rduc_of[u], []).append(u)
        return [groups[g] for g in sorted(groups)]

    def _decide_udrf(self, t: float, freed: set[int], arrived: list[int]) -> None:
        jobs_of: dict[int, list[int]] = {}
        for j in sorted(self._candidates(freed, arrived), key=self.entry.__getitem__):
            jobs_of.setdefault(self.user[j], []).append(j)
        rng, share, started, runs, entry = self.rng, self.share, self.started, self.runs, self.entry
        for members in self._by_rduc(set(jobs_of)):
            heap = [(round(share[u], 12), rng.random(), u) for u in members]
            heapq.heapify(heap)
            while heap:
                _, tie, u = heapq.heappop(heap)
                fitting = [j for j in jobs_of[u] if started[j] < runs[j] and self._fits(self.demand[j])]
                if not fitting:
                    continue  # nothing of u fits, and the free capacity only shrinks in a decision
                jobs_of[u] = fitting
                best = min(fitting, key=lambda j: (started[j], entry[j]))
                self._start(best, t)
                heapq.heappush(heap, (round(share[u], 12), tie, u))

    def _decide_drf(self, t: float, freed: set[int], arrived: list[int]) -> None:
        users = {self.user[j] for j in self._candidates(freed, arrived)}
        rng, share = self.rng, self.share
        for members in self._by_rduc(users):
            heap = [(round(share[u], 12), rng.random(), u) for u in members]
            heapq.heapify(heap)
            while heap:
                _, tie, u = heapq.heappop(heap)
                bundle, demand = self._bundle(u)
                if not bundle or not self._fits(demand):
                    continue
                for j in bundle:
                    self._start(j, t)
                heapq.heappush(heap, (round(share[u], 12), tie, u))

    def _bundle(self, u: int) -> tuple[list[int], list[tuple[int, float]]]:
        """One run of each of the user's queued jobs with runs left (eq. 1 on the queue), in
        queue order, leaving out a job that would take the bundle beyond the cluster."""
        total: dict[int, float] = {}
        out = []
        cap, tol = self.cap, self.tol
        for j in self.user_queue[u]:
            dem = self.demand[j]
            if all(total.get(r, 0.0) + d <= cap[r] + tol[r] for r, d in dem):
                out.append(j)
                for r, d in dem:
                    total[r] = total.get(r, 0.0) + d
        return out, list(total.items())

    def _fits(self, demand: Sequence[tuple[int, float]]) -> bool:
        free, tol = self.free, self.tol
        return all(free[r] + tol[r] >= d for r, d in demand)

    def _start(self, j: int, t: float) -> None:
        u = self.user[j]
        self._integrate_held(u, t)
        held, free = self.held[u], self.free
        for r, d in self.demand[j]:
            free[r] -= d
            held[r] = held.get(r, 0.0) + d
        self._update_share(u)
        self.running[u] += 1
        if self.started[j] == 0:
            self.first_start[j] = t
        self.started[j] += 1
        heapq.heappush(self.finishes, (t + self.duration[j], self.seq, j))
        self.seq += 1
        if self.started[j] == self.runs[j]:  # no run left to start: out of the candidates
            for r, d in self.demand[j]:
                self._integrate_wasted(r, t)
                entry = self.queued_demand[r][u]
                entry[0] -= d
                entry[1] -= 1
                if not entry[1]:
                    del self.queued_demand[r][u]
                on = self.jobs_on[r]
                on.discard(j)
                if not on:
                    self.wanted[r] = False
            self.user_queue[u].remove(j)

    def _update_share(self, u: int) -> None:
        """Eq. (12) on what the user holds: its largest share of a (class, resource), weighted."""
        inv = self.inv_cap
        held = self.held[u]
        self.share[u] = max((h * inv[r] for r, h in held.items()), default=0.0) / self.weight[u]
        self.global_share[u] = float(self.problem.global_dominant_share(held))

    def _integrate_held(self, u: int, t: float) -> None:
        """Add what ``u`` held since its last change to its area, before it changes at ``t``."""
        span = t - self.held_since[u]
        if span > 0:
            area = self.held_area[u]
            for r, h in self.held[u].items():
                area[r] = area.get(r, 0.0) + h * span
        self.held_since[u] = t

    # -- samples and result --------------------------------------------------------------------

    def _sample(self, t: float) -> None:
        free = np.asarray(self.free)
        k = self.k_kinds
        if self.times:  # the state sampled last held until now
            span = t - self.times[-1]
            self.allocated_area += span * self.last_allocated
            self.wasted_area += span * self.last_wasted
        self.last_allocated = self.cap_np - free
        self.last_wasted = np.where(self.wanted, free, 0.0)
        self.times.append(t)
        self.share_rows.append(list(self.share))
        self.global_rows.append(list(self.global_share))
        self.running_rows.append(list(self.running))
        self.wasted_rows.append(self.last_wasted.reshape(-1, k).sum(axis=0))
        self.util_rows.append((self.cap_np - free).reshape(-1, k).sum(axis=0) / self.pooled)

    def _integrate_wasted(self, r: int, t: float) -> None:
        """Add each waiting user's part of resource ``r``'s waste since its demand on ``r`` last
        changed, before it changes at ``t``: the waste area in proportion to its demand."""
        area = self.wasted_area[r]
        if self.times:  # the state sampled last holds until ``t``
            area += (t - self.times[-1]) * self.last_wasted[r]
        gained = area - self.wasted_mark[r]
        self.wasted_mark[r] = area
        waiting = self.queued_demand[r]
        if gained == 0.0 or not waiting:
            return
        total = sum(d for d, _ in waiting.values())
        if total <= 0:
            return
        for u, (d, _) in waiting.items():
            mine = self.user_wasted_area[u]
            mine[r] = mine.get(r, 0.0) + gained * d / total

    def _result(self) -> OnlineResult:
        p = self.problem
        n_users, k = len(p.users), self.k_kinds
        end = self.times[-1] if self.times else 0.0
        for u in range(n_users):
            self._integrate_held(u, end)
        for r in range(len(self.cap)):
            self._integrate_wasted(r, end)
        span = end - self.times[0] if self.times else 0.0
        demanded = [sorted(p.positive_demand(u)) for u in range(n_users)]
        if span > 0:
            user_allocated = tuple({r: self.held_area[u].get(r, 0.0) / span for r in demanded[u]}
                                   for u in range(n_users))
            user_wasted = tuple({r: self.user_wasted_area[u].get(r, 0.0) / span for r in demanded[u]}
                                for u in range(n_users))
        else:  # a single instant: the state then
            user_allocated = tuple({r: self.held[u].get(r, 0.0) for r in demanded[u]} for u in range(n_users))
            now: list[dict[int, float]] = [{} for _ in range(n_users)]
            for r in np.flatnonzero(self.last_wasted).tolist():
                waiting = self.queued_demand[r]
                total = sum(d for d, _ in waiting.values())
                for u, (d, _) in waiting.items():
                    now[u][r] = float(self.last_wasted[r]) * d / total if total > 0 else 0.0
            user_wasted = tuple({r: now[u].get(r, 0.0) for r in demanded[u]} for u in range(n_users))
        return OnlineResult(
            policy=self.policy, users=p.users, kinds=p.kinds,
            times=np.asarray(self.times, dtype=float),
            share=np.asarray(self.share_rows, dtype=float).reshape(-1, n_users),
            global_share=np.asarray(self.global_rows, dtype=float).reshape(-1, n_users),
            running=np.asarray(self.running_rows, dtype=float).reshape(-1, n_users),
            wasted=np.asarray(self.wasted_rows, dtype=float).reshape(-1, k),
            utilisation=np.clip(np.asarray(self.util_rows, dtype=float).reshape(-1, k), 0.0, 1.0),
            job_user=tuple(self.user), job_ids=tuple(job.id for job in p.jobs),
            job_classes=tuple(len(job.classes) for job in p.jobs), job_runs=tuple(self.runs),
            arrival_s=np.asarray(self.arrival, dtype=float),
            started_s=np.asarray(self.first_start, dtype=float),
            completed_s=np.asarray(self.completed, dtype=float),
            decisions=self.decisions, horizon_s=self.horizon,
            classes=p.classes,
            class_allocated=self._area_mean(self.allocated_area, self.last_allocated),
            class_wasted=self._area_mean(self.wasted_area, self.last_wasted),
            user_allocated=user_allocated, user_wasted=user_wasted,
        )

    def _area_mean(self, area: np.ndarray, last: np.ndarray) -> np.ndarray:
        """The time-weighted mean over the sampled span (the last state where it has none)."""
        span = self.times[-1] - self.times[0] if self.times else 0.0
        out: np.ndarray = area / span if span > 0 else last.copy()
        return out


# -- the document ----------------------------------------------------------------------------------


def online_document(
    scenario: Scenario,
    *,
    policies: Sequence[str] = ("udrf", "drf"),
    interval_s: float = 1.0,
    horizon_s: float | None = None,
    queue_capacity: int = 100,
    seed: int = 0,
    max_points: int = 2000,
) -> dict[str, Any]:
    """Online UDRF (and DRF) on the scenario's complex jobs, as a JSON-ready document.

    Runs :func:`simulate` once per policy (the same seed for each). ``comparison`` compares the
    mean completion time of UDRF and DRF by the number of classes a job needs (Fig. 10c) and by
    its runs (Fig. 10b, in :data:`RUNS_BUCKETS`), over the jobs completed under both; it is
    empty unless both policies ran. ``reduction_pct`` is ``100 (DRF - UDRF) / DRF``.

    >>> from scheduling.scenario import load_scenario_json
    >>> doc = online_document(load_scenario_json(open("examples/paper004-fig1.json").read()))
    >>> doc["kind"], sorted(doc["policies"]), doc["comparison"]["by_classes"][0]["classes"]
    ('udrf-online', ['drf', 'udrf'], 1)
    """
    if max_points < 2:
        raise ValueError(f"max_points must be >= 2, got {max_points}")
    options = read_online_options({"interval_s": interval_s, "horizon_s": horizon_s,
                                   "queue_capacity": queue_capacity, "seed": seed})
    interval_s, horizon_s = options["interval_s"], options["horizon_s"]
    queue_capacity, seed = options["queue_capacity"], options["seed"]
    problem = UdrfProblem.from_scenario(scenario)
    k = len(problem.kinds)
    results = {name: simulate(problem, policy=name, interval_s=interval_s, horizon_s=horizon_s,
                              queue_capacity=queue_capacity, seed=seed)
               for name in dict.fromkeys(policies)}
    comparison: dict[str, list[dict[str, Any]]] = {"by_classes": [], "by_runs": []}
    if "udrf" in results and "drf" in results:
        comparison = compare(results["udrf"], results["drf"])
    return {
        "kind": "udrf-online",
        "scenario": scenario.name,
        "resources": list(problem.kinds),
        "classes": [{"name": c, "capacity": {problem.kinds[kk]: float(problem.capacity[i * k + kk])
                                             for kk in range(k)}}
                    for i, c in enumerate(problem.classes)],
        "interval_s": float(interval_s),
        "horizon_s": None if horizon_s is None else float(horizon_s),
        "queue_capacity": int(queue_capacity),
        "seed": seed,
        "policies": {name: r.to_dict(max_points=max_points) for name, r in results.items()},
        "comparison": comparison,
    }


def compare(udrf: OnlineResult, drf: OnlineResult) -> dict[str, list[dict[str, Any]]]:
    """Mean completion times of UDRF and DRF by classes and by runs (the document's
    ``comparison``), over the jobs both completed."""
    a, b = udrf.completion_s, drf.completion_s
    both = ~(np.isnan(a) | np.isnan(b))
    classes = np.asarray(udrf.job_classes)
    runs = np.asarray(udrf.job_runs)
    by_classes = [_row({"classes": int(n)}, a, b, both & (classes == n))
                  for n in sorted(set(classes.tolist()))]
    by_runs = []
    for low, high in RUNS_BUCKETS:
        mask = both & (runs >= low) & (runs <= (high if high is not None else runs.max(initial=0)))
        if mask.any():
            label = str(low) if low == high else f"{low}-{high}" if high is not None else f"{low}+"
            by_runs.append(_row({"runs": label}, a, b, mask))
    return {"by_classes": by_classes, "by_runs": by_runs}


def _row(head: dict[str, Any], a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> dict[str, Any]:
    n = int(mask.sum())
    ua = float(a[mask].mean()) if n else None
    da = float(b[mask].mean()) if n else None
    red = 100.0 * (da - ua) / da if ua is not None and da else None
    return {**head, "jobs": n, "udrf_mean_s": ua, "drf_mean_s": da, "reduction_pct": red}


def _time_mean(t: np.ndarray, y: np.ndarray) -> float:
    """Time-weighted mean of the step function ``y`` (``y[k]`` holds from ``t[k]`` to ``t[k+1]``)."""
    if len(t) < 2 or not t[-1] > t[0]:
        return float(y[-1]) if len(y) else 0.0
    return float(np.sum(y[:-1] * np.diff(t)) / (t[-1] - t[0]))


def _rounded(values: np.ndarray, digits: int) -> list[float]:
    """A series rounded to ``digits``, a whole number written as an integer: most samples of a
    share or of runs running are 0 or whole, and ``0`` is shorter than ``0.0`` (the document is
    a third smaller at 500 users; JSON has one number type)."""
    out: list[float] = []
    for x in np.round(np.asarray(values, dtype=float), digits).tolist():
        out.append(int(x) if x.is_integer() else x)
    return out


def _or_none(x: float) -> float | None:
    return None if math.isnan(x) else float(x)
