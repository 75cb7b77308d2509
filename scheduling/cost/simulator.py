"""Discrete-event simulation of a cloud cluster under one scheduler (paper 003).

Events are job arrivals and executor completions. A job runs its ``duration_s`` once started,
or longer when it is network-bound and its executors span several VMs (its stretch, notes §8,
:func:`~scheduling.cost.job_table.network_stretch`), fixed when it is placed. After all events
at one instant, machines
left without executors are turned off, and then a scheduling pass starts what the ordering and
the placement allow (a VM emptied at ``t`` is off for every placement made at ``t``, as in paper
003; if the pass turns it on again, that is a new on-interval). A VM is billed per second at its
hourly price from the moment it is turned on until it is turned off (optionally rounded up to a
billing granularity and a minimum billed period, and with a boot delay before executors start).

Reserved and spot prices (scenario version 4): a VM is billed by its market. A reserved VM is
billed its reserved price for the whole horizon, from 0 until the last job finishes, whether it
is on or not (:func:`~scheduling.cost.document.horizon_cost`); an on-demand or spot VM per second
while on. A spot VM of a type with ``interruptions_per_hour`` is reclaimed at the instants of a
Poisson process of that rate, drawn from the run's seed and the machine's index (so one machine
is reclaimed at the same instants under every scheduler, when it is on then). A reclaimed VM
stops: its executors are lost, the work they had done since they started is counted as lost
(executor-seconds and resource-seconds), and they are placed again, by the same placement, each
running the job's whole (stretched) duration from its new start; re-placements are tried before
the waiting jobs at every scheduling pass and block none of them. A job finishes when its last
executor does. The slot of a reclaimed VM may be turned on again (a new spot VM).

The ordering (:mod:`scheduling.cost.orderings`) decides which waiting job is tried next, the
placement (:mod:`scheduling.cost.placement`) where its executors go; the result document is built by
:mod:`scheduling.cost.result_builder` and read with :mod:`scheduling.cost.document`.

>>> from scheduling.scenario import parse_scenario
>>> scenario = parse_scenario({"vm_types": [{"name": "a", "capacity": {"cpu": 4, "mem": 16},
...     "price_per_hour": 3.6, "count": 2}], "jobs": [{"id": "j1", "arrival_s": 0,
...     "executors": 2, "executor": {"cpu": 2, "mem": 4}, "duration_s": 100}]})
>>> r = simulate(scenario, scheduler="edf-bfd")
>>> r.total_cost, r.makespan_s, r.jobs[0]["placement"]
(0.1, 100.0, {'a#1': 2})
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from heapq import heappop, heappush
from time import perf_counter
from typing import Any, Final

import numpy as np

from ..collector import collector_paused
from ..errors import ScenarioError
from ..numbers import row_numbers
from ..scenario import LIMITS, Scenario, SimulationOptions
from .billing import vm_interval_cost
from .bounds import lower_bound_cost
from .cluster import Cluster, Multiples, PlacementContext, executors_in
from .document import iter_jobs
from .job_table import JobTable, network_stretch
from .orderings import ORDERING_CLASSES
from .placement import PLACEMENT_FUNCTIONS
from .result_builder import Holdings, Placements, RunRecord, SpotLosses, VmInterval, build_result_document
from .schedulers import SchedulerSpec, parse_scheduler
from .timeline import PENDING_ROWS, TimelineRecorder, copy_pending

__all__ = ["Progress", "SimulationResult", "billed_seconds", "compare", "simulate"]

Progress = Callable[[float], None]

#: The shares recorded when no two frameworks share the cluster (one list for every row: never changed).
_NO_SHARES: Final[list[float]] = []

# At one instant: free capacity (completions, then reclaimed spot VMs) before taking arrivals.
# (Final: compiled, each is a constant in the code, not a look-up in the module at every event.)
_COMPLETION: Final = 0
_INTERRUPTION: Final = 1
_ARRIVAL: Final = 2
_TICK: Final = 3


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
    document: dict[str, Any] = field(repr=False)

    @property
    def jobs(self) -> list[dict[str, Any]]:
        """Every job as one dict (the fields of docs/results.md, derived ones included)."""
        return list(iter_jobs(self.document))

    def to_dict(self) -> dict[str, Any]:
        return self.document


@collector_paused()
def simulate(
    scenario: Scenario,
    *,
    scheduler: str,
    options: SimulationOptions | dict[str, Any] | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    lower_bound: float | None = None,
    path: str = "scheduler",
) -> SimulationResult:
    """Simulate ``scenario`` under one scheduler.

    One scheduler of a comparison run on its own, with the comparison's ``lower_bound``, gives
    the same result document as :func:`compare` (apart from the wall-clock
    ``scheduling_delay``), so the schedulers of a comparison can run as separate tasks.

    Parameters
    ----------
    scenario : Scenario
        A validated scenario (:func:`scheduling.parse_scenario`).
    scheduler : str
        ``<ordering>-<placement>`` or a named scheduler, with optional overrides
        (see :mod:`scheduling.cost.schedulers`).
    options : SimulationOptions or dict, optional
        Run options; defaults to the scenario's own ``options``.
    seed : int
        Recorded in the result. The simulation itself breaks every tie by listed order, so
        it is deterministic; the seed draws the spot VMs' interruptions (scenario version 4).
    progress : callable, optional
        Called with the fraction done; an exception raised by it aborts the run.
    lower_bound : float, optional
        A precomputed :func:`scheduling.cost.bounds.lower_bound_cost` of ``scenario``. Without it the
        bound is solved here (a small linear programme).
    path : str
        Where an invalid ``scheduler`` is reported (``schedulers[2]`` for the third of a
        comparison).

    Returns
    -------
    SimulationResult
        ``result.to_dict()`` is the result document of docs/results.md.

    Raises
    ------
    ScenarioError
        If ``scheduler`` or ``options`` is invalid (the message names ``path``), or spot VMs
        are reclaimed more than ``LIMITS["interruptions"]`` times in the run (named at the
        ``interruptions_per_hour`` of the type reclaimed most).

    Examples
    --------
    >>> from scheduling.scenario import parse_scenario
    >>> scenario = parse_scenario({"resources": ["cpu"], "vm_types": [{"name": "vm",
    ...     "capacity": {"cpu": 4}, "price_per_hour": 3.6}], "jobs": [{"id": "a", "arrival_s": 0,
    ...     "executors": 1, "executor": {"cpu": 4}, "duration_s": 100}]})
    >>> simulate(scenario, scheduler="fifo-spread").total_cost
    0.1
    """
    base = _options(scenario, options)
    spec = parse_scheduler(scheduler, resources=scenario.resources, base=base, path=path)
    bound = lower_bound_cost(scenario) if lower_bound is None else lower_bound
    return _Simulation(scenario, spec, seed, progress).run(bound)


@collector_paused()
def compare(
    scenario: Scenario,
    *,
    schedulers: Iterable[str],
    options: SimulationOptions | dict[str, Any] | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    lower_bound: float | None = None,
) -> dict[str, SimulationResult]:
    """Simulate several schedulers on one scenario; results keyed by scheduler spec.

    Every scheduler is parsed before any is simulated (an invalid one raises
    :class:`~scheduling.errors.ScenarioError` naming ``schedulers[i]``), and the lower bound is
    solved once unless ``lower_bound`` gives it. ``progress`` receives the fraction of the
    whole comparison done.

    >>> from scheduling.scenario import parse_scenario
    >>> scenario = parse_scenario({"resources": ["cpu"], "vm_types": [{"name": "vm",
    ...     "capacity": {"cpu": 4}, "price_per_hour": 3.6, "count": 2}], "jobs": [{"id": "a",
    ...     "arrival_s": 0, "executors": 2, "executor": {"cpu": 1}, "duration_s": 100}]})
    >>> {name: r.total_cost for name, r in compare(scenario, schedulers=["fifo-spread", "edf-bfd"]).items()}
    {'fifo-spread': 0.2, 'edf-bfd': 0.1}
    """
    base = _options(scenario, options)
    specs = [
        parse_scheduler(s, resources=scenario.resources, base=base, path=f"schedulers[{i}]")
        for i, s in enumerate(schedulers)
    ]
    bound = lower_bound_cost(scenario) if lower_bound is None else lower_bound
    out: dict[str, SimulationResult] = {}
    for i, spec in enumerate(specs):

        def part(fraction: float, i: int = i) -> None:
            if progress is not None:
                progress((i + fraction) / len(specs))

        out[spec.spec] = _Simulation(scenario, spec, seed, part).run(bound)
    return out


def billed_seconds(on_s: float, off_s: float, options: SimulationOptions) -> float:
    """Seconds billed for one on-interval: rounded up to the billing granularity, at least the
    minimum billed period (both off by default: exact per-second billing, eq. 11 of paper 003).

    >>> billed_seconds(0.0, 100.0, SimulationOptions(billing_granularity_s=60.0, min_billed_s=150.0))
    150.0
    """
    seconds = off_s - on_s
    granularity = options.billing_granularity_s
    if granularity > 0:
        seconds = math.ceil(seconds / granularity - 1e-9) * granularity
    return max(seconds, options.min_billed_s)


class _Piece:
    """Executors of one job that started together: its first placement, or executors lost to a
    reclaimed spot VM and placed again. Kept only while they run.

    A plain class, not a dataclass: compiled (:mod:`scheduling.compiled`), its constructor is
    native, where a dataclass's is generated Python."""

    __slots__ = ("assignment", "finish_s", "job", "placed_s", "start_s")

    def __init__(
        self, job: int, assignment: dict[int, int], placed_s: float, start_s: float, finish_s: float
    ) -> None:
        self.job = job
        self.assignment = assignment  # executors per machine (a copy: a reclaimed VM's are taken out)
        self.placed_s = placed_s
        self.start_s = start_s
        self.finish_s = finish_s


def _options(scenario: Scenario, options: SimulationOptions | dict[str, Any] | None) -> SimulationOptions:
    if options is None:
        return scenario.options
    if isinstance(options, SimulationOptions):
        return options
    return SimulationOptions.from_dict(options, resources=scenario.resources, base=scenario.options)


class _Simulation:
    """One run: the event loop, the cluster's state, and the bill as it accrues."""

    def __init__(self, scenario: Scenario, spec: SchedulerSpec, seed: int, progress: Progress | None):
        self.scenario = scenario
        self.spec = spec
        self.options = spec.options
        self.seed = seed
        self.progress = progress
        self.cluster = Cluster(scenario)
        self.place = PLACEMENT_FUNCTIONS[spec.placement]
        self.ctx = PlacementContext(
            rut=np.array(self.options.rut_weights(scenario.resources), dtype=float),
            ilp_time_limit_s=self.options.ilp_time_limit_s,
            ilp_method=self.options.ilp_method,
        )
        self.jobs = jobs = JobTable.from_scenario(scenario, rut=self.ctx.rut, total=self.cluster.total)
        self.ordering = ORDERING_CLASSES[spec.ordering](self.jobs, self.cluster, self.options)
        n, n_resources = self.jobs.count, len(scenario.resources)
        n_frameworks = len(self.jobs.framework_names)
        # Per event the simulator reads and writes Python lists and floats, not numpy scalars
        # (numpy's per-call cost would be most of the work); the arithmetic is the same IEEE
        # operations, and the arrays of the result are built once at the end. Per-job floats
        # are kept in typed arrays (8 bytes a value, where a list of floats takes 32), which
        # read and write as fast as lists.
        self._executors: list[int] = jobs.executors.tolist()
        self._framework: list[int] = jobs.framework.tolist()
        self._duration = array("d", jobs.duration_s.tolist())
        self._sensitivity = array("d", jobs.network_sensitivity.tolist())
        self._allowed: list[np.ndarray] = list(jobs.framework_allowed)  # per framework
        # One executor's demand per job, as an array (what placements take) and as floats: jobs
        # of one shape (the same bytes) share them.
        rows = np.ascontiguousarray(jobs.demand, dtype=float)
        self._shape_of, first = row_numbers(rows)
        self._shape_arrays: list[np.ndarray] = [rows[i].copy() for i in first]
        self._shape_rows: list[list[float]] = [a.tolist() for a in self._shape_arrays]
        # Each shape's multiples (demand x executors), the cluster's own: looked up once per run.
        self._shape_multiples = [self.cluster.multiples_of(a) for a in self._shape_arrays]
        self._price: list[float] = self.cluster.price.tolist()
        self._interruptions: list[float] = self.cluster.interruptions_per_hour.tolist()
        self._boot_time_s: float = self.options.boot_time_s  # read at every VM turned on
        # Run state
        self.now = 0.0
        self.start = array("d", [math.nan]) * n
        self.finish = array("d", [math.nan]) * n
        self.placed_at = array("d", [math.nan]) * n
        self.stretch = array("d", [1.0]) * n  # each job's network stretch (notes §8), fixed at placement
        self.placements = Placements(n)  # where each job started
        # Running executors, by piece: piece p < n is job p's first placement; pieces n, n + 1,
        # ... are executors placed again after a spot VM was reclaimed (only with spot
        # interruptions). A piece is dropped when its executors end or are all lost, so this
        # holds the running ones only.
        self.alive: dict[int, _Piece] = {}
        self.next_piece = n
        self.live_pieces: list[int] = [0] * n
        self.holdings = Holdings()  # what each job held of each machine and when
        self.lost: list[tuple[int, int]] = []  # (job, executors) waiting to be placed again
        self.lost_by_job: list[int] = [0] * n
        self.losses = SpotLosses(n_resources)
        # Spot interruptions: each spot machine's Poisson process, and the instant it is due.
        self.reclaim_due: list[float] = [math.nan] * self.cluster.n_machines
        self._next_reclaim = np.full(self.cluster.n_machines, math.nan)
        self._reclaim_rng: dict[int, np.random.Generator] = {}
        self._reclaims_to_schedule: list[tuple[int, float]] = []
        self.failed_version = array("q", [-1]) * n
        self.capacity_version = 0
        self.delays_ms = array("d")
        self._delays_pending: list[float] = []  # the newest, copied into delays_ms a block at a time
        self.queued = 0
        self.running = 0
        # Accounting
        self.on_since: list[float] = [math.nan] * self.cluster.n_machines
        self.ready_at: list[float] = [0.0] * self.cluster.n_machines  # when its executors can start
        self.on_capacity: list[float] = [0.0] * n_resources
        self.intervals: list[VmInterval] = []
        self.interrupted: list[bool] = []  # per interval: ended by a spot interruption
        self.released: set[int] = set()  # left without executors at this instant: off, not yet billed
        self.cumulative_cost = 0.0
        # Reserved VMs are billed from 0 whether on or not: their price accrues all along.
        self.rate_per_hour = 0.0
        if scenario.has_market_prices:
            self.rate_per_hour = float(self.cluster.rate[self.cluster.reserved].sum())
        self.last_t = 0.0
        self.framework_usage: list[list[float]] = [[0.0] * n_resources for _ in range(n_frameworks)]
        self.framework_pending: list[int] = [0] * n_frameworks
        # Fairness is measured only when at least two frameworks have jobs (declaring one is
        # not enough: a framework without jobs never shares the cluster).
        shared = len(np.unique(self.jobs.framework)) >= 2
        self._total_or_one: list[float] = np.where(self.cluster.total > 0, self.cluster.total, 1.0).tolist()
        self._fair_shares: dict[tuple[bool, ...], list[float]] = {}
        self.timeline = TimelineRecorder(
            scenario.resources, self.cluster.type_names, self.jobs.framework_names, shared=shared
        )

    # ------------------------------------------------------------------ main loop

    def run(self, lower_bound: float) -> SimulationResult:
        # Events at one instant happen in the order (kind, then when they were scheduled).
        # Arrivals are known from the start: they are read in order from a sorted list, and
        # only the others (completions, interruptions, ticks) wait in a heap.
        order = np.argsort(self.jobs.arrival_s, kind="stable")
        arrivals: list[int] = order.tolist()
        arrival_s: list[float] = self.jobs.arrival_s[order].tolist()
        del order
        n_arrivals, a = len(arrivals), 0
        events: list[tuple[float, int, int, int]] = []
        seq = 0
        interval = self.options.scheduling_interval_s
        tick_pending = False
        done = 0
        report_every = max(1, self.jobs.count // 100)
        while events or a < n_arrivals:
            while events and self._stale(events[0]):
                heappop(events)
            if events:
                t = events[0][0]
                if a < n_arrivals and arrival_s[a] < t:
                    t = arrival_s[a]
            elif a < n_arrivals:
                t = arrival_s[a]
            else:
                break
            # The bill accrues per second (rounding surcharges land at turn-off).
            self.cumulative_cost += self.rate_per_hour * (t - self.last_t) / 3600.0
            self.last_t = t
            ticked = False
            # Completions and interruptions at ``t`` (the heap's kinds below arrivals), then
            # the arrivals at ``t``, then a tick.
            while events and events[0][0] == t and events[0][1] < _ARRIVAL:
                event = heappop(events)
                _, kind, _, i = event
                if kind == _COMPLETION:
                    if i not in self.alive:
                        continue  # its executors were all lost to reclaimed spot VMs
                    if self._complete(i):
                        done += 1
                        if self.progress is not None and done % report_every == 0:
                            self.progress(done / self.jobs.count)
                elif not self._stale(event):  # an interruption
                    self._reclaim(i, t)
            while a < n_arrivals and arrival_s[a] == t:
                self._arrive(arrivals[a])
                a += 1
            if events and events[0][0] == t:  # a tick (no other kind is left at ``t``)
                heappop(events)
                ticked, tick_pending = True, False
            # A VM left without executors is off before the pass: BFD's "list of used VMs"
            # (Algorithm 3 of paper 003) and the ILP's fixed y = 1 (Algorithm 2) cover only VMs
            # that still run an executor. One the pass turns on again starts a new on-interval.
            if self.released:
                self._turn_off_idle(t)
            # Event-driven passes by default; with an interval, passes only on its multiples
            # (the paper's prototype polled every 10 s).
            if interval <= 0 or ticked:
                self.now = t
                for p in self._place_lost() if self.lost else ():
                    heappush(events, (self.alive[p].finish_s, _COMPLETION, seq, p))
                    seq += 1
                for i in self.ordering.schedule_pass(self._try_start):
                    heappush(events, (float(self.finish[i]), _COMPLETION, seq, i))
                    seq += 1
            for v, due in self._reclaims_to_schedule:
                heappush(events, (due, _INTERRUPTION, seq, v))
                seq += 1
            self._reclaims_to_schedule.clear()
            if interval > 0 and (self.queued or self.lost) and not tick_pending:
                nxt = t + interval if ticked else math.ceil(t / interval - 1e-12) * interval
                heappush(events, (nxt, _TICK, seq, -1))
                seq += 1
                tick_pending = True
            self._record(t)
        if self.progress is not None:
            self.progress(1.0)
        return self._result(lower_bound)

    def _stale(self, event: tuple[float, int, int, int]) -> bool:
        """An event that no longer happens: a completion of executors all lost, or the
        interruption of a spot VM turned off (or reclaimed) since it was drawn, or left without
        executors at that very instant (it is turned off then anyway)."""
        t, kind, _, i = event
        if kind == _COMPLETION:
            return i not in self.alive
        if kind == _INTERRUPTION:
            cluster = self.cluster
            on = cluster.machine_on[i] and cluster.machine_executors[i] > 0
            return not (on and self.reclaim_due[i] == t)
        return False

    # ------------------------------------------------------------------ jobs

    def _arrive(self, i: int) -> None:
        self.queued += 1
        self.framework_pending[self._framework[i]] += 1
        self.ordering.enqueue(i)

    def _try_start(self, i: int) -> bool:
        """Place job ``i`` whole at ``self.now`` and start it, or change nothing."""
        # Free capacity only shrinks between releases, so a job that failed since the last
        # release fails again; skipping it keeps long backlogs cheap.
        if self.failed_version[i] == self.capacity_version:
            return False
        t = self.now
        shape, executors, framework = self._shape_of[i], self._executors[i], self._framework[i]
        demand = self._shape_arrays[shape]
        self.ctx.job_id = self.jobs.ids[i]
        t0 = perf_counter()
        assignment = self.place(self.cluster, demand, executors, self._allowed[framework], self.ctx)
        self._delay_since(t0)
        if assignment is None:
            self.failed_version[i] = self.capacity_version
            return False
        if executors_in(assignment) != executors:
            raise AssertionError(f"placement of {self.jobs.ids[i]} is not whole")
        start = self._turn_on(assignment, demand, t, self._shape_multiples[shape])
        self.placements.add(i, assignment)
        self.placed_at[i] = t
        self.start[i] = start
        duration = self._duration[i]
        sensitivity = self._sensitivity[i]
        if sensitivity > 0:  # a network-bound job runs longer the more VMs it spans (notes §8)
            self.stretch[i] = network_stretch(sensitivity, executors, len(assignment))
            duration = duration * self.stretch[i]
        finish = self.finish[i] = start + duration
        self.alive[i] = _Piece(i, dict(assignment), t, start, finish)
        self.live_pieces[i] = 1
        self.queued -= 1
        self.running += 1
        usage = self.framework_usage  # as ``usage += demand * executors``
        u, m = usage[framework], self._shape_multiples[shape][executors]
        usage[framework] = [u[r] + m[r] for r in range(len(u))]
        return True

    def _delay_since(self, t0: float) -> None:
        """Record the scheduling delay of a placement that started at ``perf_counter()`` ``t0``
        (in a list, copied a block at a time: a typed array's ``append`` parses its argument)."""
        pending = self._delays_pending
        pending.append((perf_counter() - t0) * 1000.0)
        if len(pending) >= PENDING_ROWS:
            copy_pending((self.delays_ms,), (pending,))

    def _turn_on(
        self, assignment: dict[int, int], demand: np.ndarray, t: float, times: Multiples | None = None
    ) -> float:
        """Start executors at ``t`` (turning machines on); when they can start running."""
        cluster, ready_at = self.cluster, self.ready_at
        for v in cluster.apply(assignment, demand, times):
            self.on_since[v] = t
            ready_at[v] = t + self._boot_time_s
            capacity = cluster.capacity_rows[v]
            on_capacity = self.on_capacity
            self.on_capacity = [on_capacity[r] + capacity[r] for r in range(len(on_capacity))]
            self.rate_per_hour += self._price[v]
            if self._interruptions[v] > 0:
                self._draw_reclaim(v, t)
        ready = t  # the latest of ``t`` and its machines' ready times (a compiled loop)
        for v in assignment:
            if ready_at[v] > ready:
                ready = ready_at[v]
        return ready

    def _complete(self, p: int) -> bool:
        """Executors of piece ``p`` end; whether that finishes their job."""
        piece = self.alive[p]
        del self.alive[p]  # (no method call: ``dict.pop`` is not a compiled primitive)
        i, assignment = piece.job, piece.assignment
        self.holdings.add(i, assignment, piece.placed_s, piece.finish_s)
        shape = self._shape_of[i]
        # Machines left idle are off in the cluster at once (no placement comes before the
        # pass), and billed as turned off at ``t`` by _turn_off_idle, in index order.
        released = self.cluster.release(
            assignment, self._shape_arrays[shape], self._shape_multiples[shape], turn_off_idle=True
        )
        self.released.update(released)
        self.capacity_version += 1
        k = self._framework[i]
        self.live_pieces[i] -= 1
        executors = self._executors[i] if p == i and not self.lost_by_job[i] else executors_in(assignment)
        usage, times = self.framework_usage, self._shape_multiples[shape]
        u, m = usage[k], times[executors]
        usage[k] = [max(u[r] - m[r], 0.0) for r in range(len(u))]  # max(u - x * n, 0)
        if self.live_pieces[i] or (self.lost and any(j == i for j, _ in self.lost)):
            return False
        self.running -= 1
        self.framework_pending[k] -= 1
        return True

    # ------------------------------------------------------------------ spot interruptions

    def _draw_reclaim(self, v: int, t: float) -> None:
        """The first instant after ``t`` of machine ``v``'s interruption process (Poisson, its
        type's rate per hour, from the run's seed and ``v``): when the machine on since ``t``
        is reclaimed, unless it is off by then."""
        rng = self._reclaim_rng.get(v)
        mean_s = 3600.0 / float(self.cluster.interruptions_per_hour[v])
        if rng is None:
            rng = self._reclaim_rng[v] = np.random.default_rng([self.seed % 2**63, v])
            self._next_reclaim[v] = float(rng.exponential(mean_s))
        while self._next_reclaim[v] <= t:
            self._next_reclaim[v] += float(rng.exponential(mean_s))
        self.reclaim_due[v] = self._next_reclaim[v]
        self._reclaims_to_schedule.append((v, float(self._next_reclaim[v])))

    def _reclaim(self, v: int, t: float) -> None:
        """Spot VM ``v`` is reclaimed at ``t``: it stops, and its executors are lost."""
        cluster, jobs = self.cluster, self.jobs
        self.losses.interruptions += 1
        if self.losses.interruptions > LIMITS["interruptions"]:
            k = int(cluster.type_of[v])
            raise ScenarioError.single(
                f"vm_types[{k}].spot.interruptions_per_hour",
                f"spot VMs were reclaimed more than {int(LIMITS['interruptions']):,} times in one run: "
                "at this rate jobs this long hardly ever finish on spot VMs",
            )
        for p in sorted(q for q, piece in self.alive.items() if v in piece.assignment):
            piece = self.alive[p]
            i = piece.job
            k = piece.assignment.pop(v)
            self.holdings.add(i, {v: k}, piece.placed_s, t)
            ran = max(0.0, t - piece.start_s)
            self.losses.lose(k, ran, jobs.demand[i])
            self.cluster.release({v: k}, jobs.demand[i])
            fw = self._framework[i]
            row = self._shape_rows[self._shape_of[i]]
            usage = self.framework_usage
            usage[fw] = [max(u - x * k, 0.0) for u, x in zip(usage[fw], row, strict=True)]
            self.lost.append((i, k))
            self.lost_by_job[i] += k
            if not piece.assignment:
                del self.alive[p]
                self.live_pieces[i] -= 1
        self.capacity_version += 1
        self.released.discard(v)
        self._turn_off(v, t, interrupted=True)

    def _place_lost(self) -> list[int]:
        """Place lost executors again (before any waiting job); the new pieces."""
        placed: list[int] = []
        waiting: list[tuple[int, int]] = []
        jobs, t = self.jobs, self.now
        for i, k in self.lost:
            demand = self._shape_arrays[self._shape_of[i]]
            self.ctx.job_id = jobs.ids[i]
            t0 = perf_counter()
            assignment = self.place(self.cluster, demand, k, self._allowed[self._framework[i]], self.ctx)
            self._delay_since(t0)
            if assignment is None:
                waiting.append((i, k))
                continue
            start = self._turn_on(assignment, demand, t)
            p, self.next_piece = self.next_piece, self.next_piece + 1
            finish = start + float(jobs.duration_s[i]) * float(self.stretch[i])
            self.alive[p] = _Piece(i, dict(assignment), t, start, finish)
            self.live_pieces[i] += 1
            self.finish[i] = max(self.finish[i], finish)
            self.losses.replaced += k
            fw = self._framework[i]
            row = self._shape_rows[self._shape_of[i]]
            self.framework_usage[fw] = [u + x * k for u, x in zip(self.framework_usage[fw], row, strict=True)]
            placed.append(p)
        self.lost = waiting
        return placed

    # ------------------------------------------------------------------ VMs and the bill

    def _turn_off_idle(self, t: float) -> None:
        """Bill the machines left idle at ``t`` (off in the cluster already, _complete) as off."""
        if not self.released:
            return
        idle = sorted(self.released)
        self.released.clear()
        for v in idle:
            self._turn_off(v, t, interrupted=False)

    def _turn_off(self, v: int, t: float, *, interrupted: bool) -> None:
        cluster = self.cluster
        cluster.turn_off(v)
        on = self.on_since[v]
        billed = billed_seconds(on, t, self.options)
        self.intervals.append(VmInterval(v, on, t, billed))
        self.interrupted.append(interrupted)
        price = self._price[v]
        # The bill accrues per second (in the event loop); rounding surcharges land at turn-off.
        self.cumulative_cost += vm_interval_cost(billed, price) - vm_interval_cost(t - on, price)
        on_capacity, capacity = self.on_capacity, cluster.capacity_rows[v]
        self.on_capacity = [on_capacity[r] - capacity[r] for r in range(len(on_capacity))]
        self.rate_per_hour -= price
        self.on_since[v] = math.nan
        self.reclaim_due[v] = math.nan

    # ------------------------------------------------------------------ timelines and result

    def _record(self, t: float) -> None:
        # Per event: Python floats where numpy's per-call cost would dominate (the divisions
        # are the same IEEE operations), and each fair share computed once per set of
        # frameworks with pending work.
        total = self._total_or_one
        used, on_capacity = self.cluster.used, self.on_capacity
        if self.timeline.shared:
            dominant_share = [
                max([row[r] / total[r] for r in range(len(row))]) for row in self.framework_usage
            ]
            key = tuple([k > 0 for k in self.framework_pending])
            fair_share = self._fair_shares.get(key)
            if fair_share is None:
                pending = np.array(key, dtype=bool)
                weights = self.jobs.framework_weight
                weight_sum = float(weights[pending].sum())
                # The fair share (notes §5): weight over the weights of frameworks with pending work.
                fair_share = self._fair_shares[key] = (
                    np.where(pending, weights / weight_sum, 0.0) if weight_sum > 0 else np.zeros(len(weights))
                ).tolist()
        else:
            dominant_share = fair_share = _NO_SHARES
        self.timeline.record(
            t,
            utilisation=[used[r] / total[r] for r in range(len(used))],
            utilisation_of_on=[
                used[r] / on_capacity[r] if on_capacity[r] > 1e-12 else 0.0 for r in range(len(used))
            ],
            active_vms=self.cluster.active_by_type,  # copied into the timeline's arrays
            cost_rate_per_hour=self.rate_per_hour,
            cumulative_cost=self.cumulative_cost,
            queued_jobs=self.queued,
            running_jobs=self.running,
            dominant_share=dominant_share,
            fair_share=fair_share,
        )

    def _result(self, lower_bound: float) -> SimulationResult:
        copy_pending((self.delays_ms,), (self._delays_pending,))
        placed_s = np.array(self.placed_at, dtype=float)
        unplaced = np.flatnonzero(np.isnan(placed_s))
        if len(unplaced):  # validation makes every job placeable on an empty cluster
            stuck = [self.jobs.ids[i] for i in unplaced[:5].tolist()]
            raise AssertionError(f"jobs never started: {stuck}")
        record = RunRecord(
            scenario=self.scenario,
            spec=self.spec,
            seed=self.seed,
            lower_bound=lower_bound,
            cluster=self.cluster,
            jobs=self.jobs,
            rut=self.ctx.rut,
            placed_s=placed_s,
            start_s=np.array(self.start, dtype=float),
            finish_s=np.array(self.finish, dtype=float),
            stretch=np.array(self.stretch, dtype=float),
            placements=self.placements,
            holdings=self.holdings,
            intervals=self.intervals,
            interrupted=self.interrupted,
            lost_executors=np.array(self.lost_by_job, dtype=np.int64),
            losses=self.losses,
            timeline=self.timeline,
            delays_ms=self.delays_ms,
            placement_stats=self.ctx.stats,
            placement_events=self.ctx.events,
        )
        document = build_result_document(record)
        return SimulationResult(
            scheduler=self.spec.spec,
            total_cost=document["total_cost"],
            lower_bound_cost=lower_bound,
            makespan_s=document["makespan_s"],
            deadline_jobs=document["deadline_jobs"],
            deadline_missed=document["deadline_missed"],
            mean_completion_s=document["mean_completion_s"],
            document=document,
        )
