"""The cluster at any instant, replayed from a result document (no re-simulation).

An operator asks "what was happening at 02:14?". :func:`replay_snapshot` answers from one
result document (``SimulationResult.to_dict()``, docs/results.md) and an instant ``t`` in
seconds from the scenario's start: the VMs on, their used and free capacity per resource
and the executors on them, the queue with its deadlines, the job counts, the cost so far
and the utilisation. :class:`ReplayIndex` sorts the document's per-job and per-interval
columns once (numpy), so that each further snapshot of a 10,000-job run is a few binary
searches and takes milliseconds (``benchmarks/replay.py``). Per-job and per-interval detail
is read only through :mod:`scheduling.cost.document`, so both layouts work.

What "at ``t``" means, exactly as :mod:`scheduling.cost.simulator` does it:

* The snapshot is the state *after* everything that happens at ``t``: arrivals,
  completions, the scheduling pass and turning idle VMs off; the document's ``timeline``
  records the same state at each of its points, so the two agree there.
* A VM is on over ``[on_s, off_s)`` of each of its ``vm_intervals``.
* Executors hold their VMs' capacity over ``[placed_s, finish_s)``: the simulator takes the
  capacity when it places a job, and with a boot time (``options.boot_time_s``) the job
  starts later, at ``start_s``; in between its executors are listed with the state
  ``"booting"``. (Documents without ``placed_s`` use ``start_s``.) ``running`` counts the
  jobs placed and not finished, booting ones included, as the timeline's ``running_jobs``.
* The queue holds the jobs arrived and not yet placed (``arrival_s <= t < placed_s``) in the
  order the document's ordering tries them, by the ordering's own rule
  (:meth:`scheduling.cost.orderings.Ordering.queue_order`, described in :data:`QUEUE_ORDERS`); an
  ordering this module does not know is listed by arrival and says so.
* The cost so far is the billed cost accrued by ``t``: every VM interval closed by ``t``
  (``off_s <= t``) at its billed cost, and every VM on at ``t`` at its price for the time it
  has been on. At the timeline's points this is ``cumulative_cost`` (to float rounding);
  between two points it grows linearly at the rate of the VMs on (``cost_rate_per_hour``),
  and rounding up to a billing granularity or a minimum billed period is added when the VM
  is turned off, as the simulator bills it.
* An instant after the end (the last finish) shows the end, with ``clamped`` true.

>>> doc = {"scheduler": "fifo-bfd", "ordering": "fifo", "resources": ["cpu"], "total_cost": 2.0,
...        "vm_types": [{"name": "small", "count": 2, "capacity": {"cpu": 4}, "price_per_hour": 3.6}],
...        "jobs": [{"id": "a", "framework": "etl", "arrival_s": 0.0, "placed_s": 0.0, "start_s": 0.0,
...                  "finish_s": 1000.0, "executors": 3, "executor": {"cpu": 1.0}, "deadline_s": None,
...                  "met_deadline": None, "placement": {"small#1": 3}, "cost": 0.75}],
...        "vm_intervals": [{"vm": "small#1", "vm_type": "small", "on_s": 0.0, "off_s": 1000.0,
...                          "billed_s": 1000.0, "cost": 1.0}]}
>>> s = replay_snapshot(doc, 250)
>>> vm = s["vms"][0]
>>> vm["vm"], vm["used"], vm["free"], [(e["job"], e["count"]) for e in vm["executors"]]
('small#1', {'cpu': 3.0}, {'cpu': 1.0}, [('a', 3)])
>>> s["cost"]["so_far"], s["jobs"]["running"], s["utilisation"]["cpu"]
(0.25, 1, 0.375)
>>> replay_snapshot(doc, 5000)["t_s"], replay_snapshot(doc, 5000)["clamped"]
(1000.0, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..charts import time_unit
from ..errors import ScenarioError
from ..numbers import finite, integral
from ..scenario import SimulationOptions
from .document import has_network_fields, job_column, machine_names, machine_prices, vm_interval_column
from .job_table import rd_job
from .orderings import ORDERING_CLASSES, FifoOrdering, Ordering, QueueKeys

__all__ = ["QUEUE_LIMIT", "QUEUE_ORDERS", "ReplayIndex", "parse_instant", "replay_snapshot", "time_axis"]

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]
Result = Mapping[str, Any]

#: Queued jobs listed by a snapshot, first in the queue's order (the counts are complete).
QUEUE_LIMIT = 200

#: The order of the queue per ordering of the document, as the simulator's pass tries jobs.
QUEUE_ORDERS: dict[str, str] = {
    **{name: cls.queue_text for name, cls in ORDERING_CLASSES.items()},
    "arrival": "arrival order (the ordering is not one the replay knows)",
}

# Margin for windows computed from differences of floats (the exact test follows).
_SLACK = 1e-9


def parse_instant(value: object, *, path: str = "t") -> float:
    """An instant in seconds from the scenario's start, from a number or a query string.

    Raises :class:`~scheduling.ScenarioError` naming ``path`` for anything but a finite
    number ``>= 0`` (text that is not a number, NaN, infinity, a negative number, a boolean).

    >>> parse_instant("8040.5"), parse_instant(12)
    (8040.5, 12.0)
    >>> parse_instant("nan")
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: t: must be a finite number of seconds from the scenario's start
    """
    number: float | None
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            number = None
    else:
        number = finite(value)
    if number is None or not math.isfinite(number):
        raise ScenarioError.single(path, "must be a finite number of seconds from the scenario's start")
    if number < 0:
        raise ScenarioError.single(path, "must be >= 0 (seconds from the scenario's start)")
    return number


def time_axis(end_s: float) -> dict[str, Any]:
    """How the charts show a time axis that ends at ``end_s``: its unit and the divisor.

    The same rule as the charts' time axes (``scheduling.charts``), so that an instant on the
    replay's slider reads as it does on the timelines.

    >>> time_axis(7200)
    {'end_s': 7200.0, 'divisor': 60.0, 'unit': 'min'}
    """
    divisor, unit = time_unit(end_s)
    return {"end_s": float(end_s), "divisor": divisor, "unit": unit}


def replay_snapshot(doc: Result, t: object, *, queue_limit: int = QUEUE_LIMIT) -> dict[str, Any]:
    """The cluster at instant ``t`` of one result document, as JSON-ready data.

    Builds a :class:`ReplayIndex` each call: keep the index for several instants of one
    document. The fields are those of :meth:`ReplayIndex.snapshot`.

    >>> doc = {"resources": ["cpu"], "vm_types": [], "jobs": [], "vm_intervals": []}
    >>> replay_snapshot(doc, 0)["jobs"]
    {'total': 0, 'not_arrived': 0, 'queued': 0, 'running': 0, 'booting': 0, 'finished': 0}
    """
    return ReplayIndex(doc).snapshot(t, queue_limit=queue_limit)


def _floats(values: Sequence[Any]) -> Floats:
    """A float array; ``None`` and anything that is not a finite number become NaN.

    >>> _floats([1, 2.5, None, "3", float("inf")]).tolist()
    [1.0, 2.5, nan, nan, nan]
    """
    arr = np.asarray(values)
    if arr.ndim == 1 and arr.dtype.kind in "iuf":  # numbers only: one pass in C
        out = arr.astype(np.float64)
        out[~np.isfinite(out)] = np.nan
        return out
    numbers = [finite(v) for v in values]
    return np.array([np.nan if v is None else v for v in numbers], dtype=np.float64)


def _ints(values: Sequence[Any]) -> Ints:
    """An int array; anything that is not a whole number becomes 0."""
    arr = np.asarray(values)
    if arr.ndim == 1 and arr.dtype.kind in "iu":
        return arr.astype(np.int64)
    return np.array([integral(v) or 0 for v in values], dtype=np.int64)


def _window(sorted_keys: Floats, low: float, high: float) -> tuple[int, int]:
    """Positions of the keys in ``[low - slack, high]`` of a sorted array."""
    lo = int(np.searchsorted(sorted_keys, low - _SLACK * (1.0 + abs(low)), side="left"))
    hi = int(np.searchsorted(sorted_keys, high, side="right"))
    return lo, hi


class ReplayIndex:
    """Sorted per-job and per-interval arrays of one result document, built once.

    Building reads the document's detail once (tens of milliseconds for 10,000 jobs);
    :meth:`snapshot` then costs a few binary searches and work proportional to what is
    shown (the VMs on, their executors and the head of the queue).

    >>> doc = {"resources": ["cpu"], "ordering": "fifo", "total_cost": 0.0,
    ...        "vm_types": [{"name": "a", "count": 1, "capacity": {"cpu": 2}, "price_per_hour": 1.0}],
    ...        "jobs": [{"id": j, "framework": "f", "arrival_s": 10.0 * k, "placed_s": 100.0 * k,
    ...                  "start_s": 100.0 * k, "finish_s": 100.0 * (k + 1), "executors": 1,
    ...                  "executor": {"cpu": 2.0}, "deadline_s": 150.0 if k else None,
    ...                  "met_deadline": False if k else None, "placement": {"a#1": 1}, "cost": 0.0}
    ...                 for k, j in enumerate(["first", "second"])],
    ...        "vm_intervals": [{"vm": "a#1", "vm_type": "a", "on_s": 0.0, "off_s": 200.0,
    ...                          "billed_s": 200.0, "cost": 0.0556}]}
    >>> index = ReplayIndex(doc)
    >>> index.end_s
    200.0
    >>> [(q["job"], q["waited_s"], q["deadline_s"]) for q in index.snapshot(60)["queue"]["jobs"]]
    [('second', 50.0, 150.0)]
    """

    def __init__(self, doc: Result) -> None:
        self.scheduler = str(doc.get("scheduler") or "")
        self.ordering = str(doc.get("ordering") or "")
        self.resources: tuple[str, ...] = tuple(str(r) for r in doc.get("resources") or ())
        n_res = len(self.resources)
        vm_types = [vt for vt in doc.get("vm_types") or [] if isinstance(vt, Mapping)]
        self.type_names = [str(vt.get("name")) for vt in vm_types]
        type_of_name = {name: k for k, name in enumerate(self.type_names)}
        # Per VM type, plus a last row of zeros for a machine of no known type (index -1).
        self.type_capacity: Floats = np.array(
            [[finite((vt.get("capacity") or {}).get(r)) or 0.0 for r in self.resources] for vt in vm_types]
            + [[0.0] * n_res],
            dtype=np.float64,
        ).reshape(len(vm_types) + 1, n_res)
        prices = [finite(vt.get("price_per_hour")) or 0.0 for vt in vm_types]
        self.type_price: Floats = np.array([*prices, 0.0], dtype=np.float64)
        counts = np.array([integral(vt.get("count")) or 0 for vt in vm_types] + [0], dtype=np.float64)
        #: Capacity of the whole cluster per resource (what ``utilisation`` divides by).
        self.cluster_capacity: Floats = (self.type_capacity * counts[:, None]).sum(axis=0)
        self.total_cost = finite(doc.get("total_cost"))
        options = doc.get("options")
        self.options: dict[str, Any] = dict(options) if isinstance(options, Mapping) else {}

        # Machines: the scenario's, and any a document names beyond them.
        self.machine_names: list[str] = list(machine_names(doc))
        machine_of = {name: k for k, name in enumerate(self.machine_names)}

        def machine(name: Any) -> int:
            key = str(name)
            if key not in machine_of:
                machine_of[key] = len(self.machine_names)
                self.machine_names.append(key)
            return machine_of[key]

        # VM on-intervals.
        iv_machine = [machine(v) for v in vm_interval_column(doc, "vm")]
        iv_type = [type_of_name.get(str(v), -1) for v in vm_interval_column(doc, "vm_type")]
        self.iv_machine: Ints = np.array(iv_machine, dtype=np.int64)
        self.iv_on = _floats(vm_interval_column(doc, "on_s"))
        self.iv_off = _floats(vm_interval_column(doc, "off_s"))
        iv_cost = np.nan_to_num(_floats(vm_interval_column(doc, "cost")))
        self.machine_type: Ints = np.full(len(self.machine_names), -1, dtype=np.int64)
        self.machine_type[self.iv_machine] = np.array(iv_type, dtype=np.int64)
        # Each interval at its machine's marginal price (scenario version 4: 0 reserved, spot's).
        marginal = machine_prices(doc) if self.machine_names else []
        self.iv_price: Floats = np.array(
            [marginal[m] if m < len(marginal) else self.type_price[self.machine_type[m]] for m in iv_machine],
            dtype=np.float64,
        )
        #: Reserved VMs' hourly price, billed from 0 whether on or not (version 4).
        reserved = [vt["reserved"] for vt in vm_types if isinstance(vt.get("reserved"), Mapping)]
        self.reserved_rate = sum(
            (finite(r.get("price_per_hour")) or 0.0) * (integral(r.get("count")) or 0) for r in reserved
        )
        self._on_order: Ints = np.argsort(self.iv_on, kind="stable")
        self._on_sorted: Floats = self.iv_on[self._on_order]
        self._on_longest = float(np.max(self.iv_off - self.iv_on)) if len(self.iv_on) else 0.0
        off_order = np.argsort(self.iv_off, kind="stable")
        self._off_sorted: Floats = self.iv_off[off_order]
        # Billed cost of the intervals closed by the k-th turn-off, in order of turning off.
        self._closed_cost: Floats = np.concatenate([[0.0], np.cumsum(iv_cost[off_order])])

        # Jobs.
        self.job_ids = [str(v) for v in job_column(doc, "id")]
        self.frameworks = [str(v) for v in job_column(doc, "framework")]
        n = len(self.job_ids)
        self.arrival = _floats(job_column(doc, "arrival_s"))
        self.start = _floats(job_column(doc, "start_s"))
        placed = _floats(job_column(doc, "placed_s")) if n else np.zeros(0)
        self.placed: Floats = np.where(np.isnan(placed), self.start, placed)
        self.finish = _floats(job_column(doc, "finish_s"))
        self.executors: Ints = _ints(job_column(doc, "executors"))
        demands = job_column(doc, "executor")
        self.demand: Floats = np.array(
            [[finite((d or {}).get(r)) or 0.0 for r in self.resources] for d in demands], dtype=np.float64
        ).reshape(n, n_res)
        self.deadline = _floats(job_column(doc, "deadline_s"))
        #: Whether the document records each job's network stretch (notes §8); then every
        #: executor entry of a snapshot shows its job's.
        self.network = has_network_fields(doc)
        self.stretch = _floats(job_column(doc, "stretch")) if self.network else np.ones(0)
        self.met_deadline: list[bool | None] = [v if isinstance(v, bool) else None
                                                for v in job_column(doc, "met_deadline")]
        # Each job's placement, flattened: job j's (machine, executors) entries from entry_offsets[j].
        entry_machine: list[int] = []
        entry_count: list[int] = []
        offsets = [0]
        for placement in job_column(doc, "placement"):
            for name, count in (placement or {}).items():
                k = machine_of.get(name)
                entry_machine.append(machine(name) if k is None else k)
                entry_count.append(count)
            offsets.append(len(entry_machine))
        self.entry_machine: Ints = np.array(entry_machine, dtype=np.int64)
        self.entry_count: Ints = _ints(entry_count)
        self.entry_offsets: Ints = np.array(offsets, dtype=np.int64)
        if len(self.machine_type) < len(self.machine_names):  # machines seen only in placements
            extra = np.full(len(self.machine_names) - len(self.machine_type), -1, dtype=np.int64)
            self.machine_type = np.concatenate([self.machine_type, extra])

        self._arrival_order: Ints = np.argsort(self.arrival, kind="stable")
        self._arrival_sorted: Floats = self.arrival[self._arrival_order]
        self._placed_order: Ints = np.argsort(self.placed, kind="stable")
        self._placed_sorted: Floats = self.placed[self._placed_order]
        self._start_sorted: Floats = np.sort(self.start)
        self._finish_sorted: Floats = np.sort(self.finish)
        self._longest_hold = float(np.max(self.finish - self.placed)) if n else 0.0
        self._longest_wait = float(np.max(self.placed - self.arrival)) if n else 0.0
        known = ORDERING_CLASSES.get(self.ordering)
        #: The ordering whose rule orders the queue (an unknown one's queue is listed by arrival).
        self.queue_ordering: type[Ordering] = known or FifoOrdering
        #: The :data:`QUEUE_ORDERS` key of the queue's order.
        self.queue_order = self.ordering if known else "arrival"
        self._queue_keys = QueueKeys(
            arrival_s=self.arrival,
            deadline_s=self.deadline,
            demand=self.demand,
            executors=self.executors,
            rd_job=rd_job(self.demand, self.executors, self.cluster_capacity, self._rut()),
            total=self.cluster_capacity,
        )
        # An order that ignores the load is one order of all jobs, ranked once.
        self._rank: Ints | None = None
        if not self.queue_ordering.load_dependent:
            self._rank = self.queue_ordering.queue_rank(self._queue_keys)

        #: The end of the run: the last finish (the timeline's last point).
        self.end_s = max(float(np.max(self.finish)) if n else 0.0,
                         float(np.max(self.iv_off)) if len(self.iv_off) else 0.0)

    @property
    def nbytes(self) -> int:
        """About how much memory the index holds (its arrays, and its strings at ~80 bytes each)."""
        arrays = sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))
        strings = len(self.job_ids) + len(self.frameworks) + len(self.machine_names)
        return int(arrays + 80 * strings + 8 * len(self.met_deadline))

    # ------------------------------------------------------------------ the queue's order

    def _rut(self) -> Floats:
        """The run's RUT weights per resource (the defaults when its options do not read)."""
        try:
            options = SimulationOptions.from_dict(self.options, resources=self.resources)
        except ScenarioError:
            options = SimulationOptions()
        return np.array(options.rut_weights(self.resources), dtype=np.float64)

    def _queue_rank(self, queued: Ints, used_total: Floats) -> Ints:
        """``queued`` (job indices) in the queue's order at an instant with ``used_total`` in use."""
        if self._rank is not None:
            return queued[np.argsort(self._rank[queued], kind="stable")]
        return self.queue_ordering.queue_order(self._queue_keys, queued, used_total)

    # ------------------------------------------------------------------ the snapshot

    def snapshot(self, t: object, *, queue_limit: int = QUEUE_LIMIT) -> dict[str, Any]:
        """The cluster at instant ``t`` (seconds from the scenario's start), as JSON-ready data.

        Parameters
        ----------
        t : float or str
            The instant; anything :func:`parse_instant` refuses raises ``ScenarioError`` (path ``t``).
            Instants after :attr:`end_s` show the end, with ``clamped`` true.
        queue_limit : int, default :data:`QUEUE_LIMIT`
            How many queued jobs to list (the first in the queue's order).

        Returns
        -------
        dict
            ``t_s`` (the instant shown), ``requested_t_s``, ``clamped``, ``end_s``,
            ``scheduler``, ``resources``;
            ``jobs``: counts ``total``, ``not_arrived``, ``queued``, ``running`` (placed, not
            finished), ``booting`` (placed, waiting for a VM to boot), ``finished``;
            ``vms``: one entry per VM on, in the scenario's machine order: ``vm``, ``vm_type``,
            ``on_s``, ``price_per_hour``, ``capacity``, ``used``, ``free`` (per resource) and
            ``executors`` (``job``, ``framework``, ``count``, ``executor`` per-executor demand,
            ``state`` running or booting, ``placed_s``, ``start_s``, ``finish_s``; when the
            document records network stretches (notes §8), ``stretch``, how much longer than its
            duration the job runs, and ``job_vms``, the VMs its executors span);
            ``vms_on`` (count) and ``vms_on_by_type``;
            ``queue``: ``order`` (a :data:`QUEUE_ORDERS` key), ``order_text``, ``truncated``
            and ``jobs`` (``job``, ``framework``, ``arrival_s``, ``waited_s``, ``deadline_s``
            absolute or None, ``overdue`` past its deadline at ``t``, ``met_deadline`` the
            job's final outcome, ``executors``, ``executor``);
            ``cost``: ``so_far``, ``rate_per_hour`` (of the VMs on), ``total``;
            ``used``, ``capacity_on`` and ``cluster_capacity`` per resource;
            ``utilisation`` (of the cluster) and ``utilisation_of_on`` (of the VMs on).
        """
        requested = parse_instant(t)
        at = min(requested, self.end_s)
        res = self.resources

        # Counts: every job arrives <= is placed <= starts <= finishes.
        arrived = int(np.searchsorted(self._arrival_sorted, at, side="right"))
        placed = int(np.searchsorted(self._placed_sorted, at, side="right"))
        started = int(np.searchsorted(self._start_sorted, at, side="right"))
        finished = int(np.searchsorted(self._finish_sorted, at, side="right"))
        n = len(self.job_ids)

        # Jobs holding capacity: placed in (at - longest hold, at] and not finished.
        lo, hi = _window(self._placed_sorted, at - self._longest_hold, at)
        window = self._placed_order[lo:hi]
        holding = window[self.finish[window] > at]
        lengths = self.entry_offsets[holding + 1] - self.entry_offsets[holding]
        heads = np.repeat(self.entry_offsets[holding] - np.cumsum(lengths) + lengths, lengths)
        entries = np.arange(int(lengths.sum()), dtype=np.int64) + heads
        entry_job = np.repeat(holding, lengths)
        entry_machine = self.entry_machine[entries]
        entry_count = self.entry_count[entries]
        used = np.zeros((len(self.machine_names), len(res)))
        np.add.at(used, entry_machine, self.demand[entry_job] * entry_count[:, None])

        # VMs on: switched on in (at - longest interval, at] and not yet off.
        lo, hi = _window(self._on_sorted, at - self._on_longest, at)
        window = self._on_order[lo:hi]
        on_iv = window[self.iv_off[window] > at]
        on_iv = on_iv[np.argsort(self.iv_machine[on_iv], kind="stable")]
        on_machines = self.iv_machine[on_iv]
        on_types = self.machine_type[on_machines]
        capacity = self.type_capacity[on_types]

        # Cost: intervals closed by `at` at their billed cost, open ones at price x time on.
        closed = int(np.searchsorted(self._off_sorted, at, side="right"))
        rate = float(self.iv_price[on_iv].sum()) + self.reserved_rate
        so_far = float(self._closed_cost[closed]) + float(
            (self.iv_price[on_iv] * (at - self.iv_on[on_iv])).sum() / 3600.0
        ) + self.reserved_rate * at / 3600.0

        # Executors grouped by VM, each VM's in order of placement.
        grouped = np.lexsort((entry_job, self.placed[entry_job], entry_machine))
        executors: dict[int, list[dict[str, Any]]] = {}
        for e in grouped.tolist():
            j = int(entry_job[e])
            entry: dict[str, Any] = {
                "job": self.job_ids[j],
                "framework": self.frameworks[j],
                "count": int(entry_count[e]),
                "executor": self._vector(self.demand[j]),
                "state": "booting" if self.start[j] > at else "running",
                "placed_s": float(self.placed[j]),
                "start_s": float(self.start[j]),
                "finish_s": float(self.finish[j]),
            }
            if self.network:
                stretch = float(self.stretch[j])
                entry["stretch"] = stretch if math.isfinite(stretch) else 1.0
                entry["job_vms"] = int(self.entry_offsets[j + 1] - self.entry_offsets[j])
            executors.setdefault(int(entry_machine[e]), []).append(entry)
        vms: list[dict[str, Any]] = []
        by_type: dict[str, int] = dict.fromkeys(self.type_names, 0)
        for k, iv in enumerate(on_iv.tolist()):
            m = int(on_machines[k])
            kind = int(on_types[k])
            type_name = self.type_names[kind] if kind >= 0 else ""
            if kind >= 0:
                by_type[type_name] += 1
            vms.append({
                "vm": self.machine_names[m],
                "vm_type": type_name,
                "on_s": float(self.iv_on[iv]),
                "price_per_hour": float(self.iv_price[iv]),
                "capacity": self._vector(capacity[k]),
                "used": self._vector(used[m]),
                "free": self._vector(capacity[k] - used[m]),
                "executors": executors.get(m, []),
            })

        used_total = used.sum(axis=0)
        capacity_on = capacity.sum(axis=0)
        cluster = np.where(self.cluster_capacity > 0, self.cluster_capacity, 1.0)
        some_on = capacity_on > 1e-12
        of_on = np.where(some_on, used_total / np.where(some_on, capacity_on, 1.0), 0.0)
        return {
            "t_s": at,
            "requested_t_s": requested,
            "clamped": requested > self.end_s,
            "end_s": self.end_s,
            "scheduler": self.scheduler,
            "resources": list(res),
            "jobs": {
                "total": n,
                "not_arrived": n - arrived,
                "queued": arrived - placed,
                "running": placed - finished,
                "booting": placed - started,
                "finished": finished,
            },
            "vms_on": len(vms),
            "vms_on_by_type": by_type,
            "vms": vms,
            "queue": self._queue(at, used_total, queue_limit),
            "cost": {"so_far": so_far, "rate_per_hour": rate, "total": self.total_cost},
            "used": self._vector(used_total),
            "capacity_on": self._vector(capacity_on),
            "cluster_capacity": self._vector(self.cluster_capacity),
            "utilisation": self._vector(used_total / cluster),
            "utilisation_of_on": self._vector(of_on),
        }

    def _queue(self, at: float, used_total: Floats, limit: int) -> dict[str, Any]:
        lo, hi = _window(self._arrival_sorted, at - self._longest_wait, at)
        window = self._arrival_order[lo:hi]
        queued = self._queue_rank(window[self.placed[window] > at], used_total)
        shown = queued[: max(0, limit)].tolist()
        jobs = []
        for j in shown:
            deadline = float(self.deadline[j])
            has_deadline = not math.isnan(deadline)
            jobs.append({
                "job": self.job_ids[j],
                "framework": self.frameworks[j],
                "arrival_s": float(self.arrival[j]),
                "waited_s": at - float(self.arrival[j]),
                "deadline_s": deadline if has_deadline else None,
                "overdue": has_deadline and at > deadline,
                "met_deadline": self.met_deadline[j],
                "executors": int(self.executors[j]),
                "executor": self._vector(self.demand[j]),
            })
        order = self.queue_order
        return {"order": order, "order_text": QUEUE_ORDERS[order], "truncated": len(queued) > len(shown),
                "jobs": jobs}

    def _vector(self, values: Floats) -> dict[str, float]:
        return {r: float(v) for r, v in zip(self.resources, values.tolist(), strict=True)}
