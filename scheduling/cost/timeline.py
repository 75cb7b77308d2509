"""The simulation's timelines: one row per instant at which something happened.

Every series is a step function (the value holds from ``t[k]`` until ``t[k + 1]``) except the
cumulative cost, which is piecewise linear between the points. The recorder keeps one row per
instant (a second row at the same instant replaces the first) and builds the ``timeline`` and
``fairness`` sections of the result document (docs/results.md).

Rows are kept compactly (typed arrays, 8 bytes a value; the newest rows, up to
:data:`PENDING_ROWS`, in plain lists that are copied into the arrays a block at a time:
appending to a typed array parses each value through CPython's general argument parser, which
cost a tenth of a simulation) and their number is bounded: once a run has produced
:data:`TIMELINE_ROWS_MAX` rows more than it keeps, the rows so far are reduced to their envelope
over buckets of time (:func:`scheduling.charts.downsample.envelope_rows`, the rule the charts
downsample with: each bucket's first and last rows and each series' extremes with the rows where
they stop). Buckets are powers of two seconds wide, aligned on 0, and only ever widen, so a
reduction over reduced rows keeps what one reduction over every row would. A run of fewer rows
(every run of up to some 50,000 jobs) keeps every row. The fairness figures are integrated over
every row, a block at a time before each reduction.

>>> recorder = TimelineRecorder(["cpu"], ["small"], ["a", "b"], shared=True)
>>> recorder.record(0.0, utilisation=[0.5], utilisation_of_on=[1.0], active_vms=[1],
...                 cost_rate_per_hour=0.24, cumulative_cost=0.0, queued_jobs=0, running_jobs=1,
...                 dominant_share=[0.5, 0.0], fair_share=[1.0, 0.0])
>>> recorder.record(60.0, utilisation=[0.0], utilisation_of_on=[0.0], active_vms=[0],
...                 cost_rate_per_hour=0.0, cumulative_cost=0.004, queued_jobs=0, running_jobs=0,
...                 dominant_share=[0.0, 0.0], fair_share=[0.0, 0.0])
>>> recorder.timeline_section()["active_vms"]
{'small': [1, 0]}
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from struct import pack
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..charts.downsample import envelope_rows
from ..metrics import FairnessAreas, fairness_areas, fairness_figures
from .cluster import BoolArray, FloatArray

__all__ = ["PENDING_ROWS", "RATE_DECIMALS", "TIMELINE_ROWS_MAX", "TimelineRecorder", "copy_pending"]

#: Decimals kept of the cost rate (currency units per hour).
RATE_DECIMALS = 9

#: Rows of the timelines kept at most, about: a run that produces this many rows more than it
#: keeps has them reduced to their envelope (module docstring). The charts draw at most 2,000
#: points a series, so the kept rows leave them as they were.
TIMELINE_ROWS_MAX = 50_000

#: Rows kept in lists before they are copied into the typed arrays, all at once.
PENDING_ROWS = 2048


def copy_pending(columns: Sequence[array[Any]], pending: Sequence[list[Any]]) -> None:
    """Append each list of ``pending`` to its typed array in ``columns`` in one copy, and empty
    the lists: the values an ``append`` each would store (``struct``'s type codes are the
    arrays'), without parsing each value through CPython's general argument parser.

    >>> columns, pending = (array("i", [1]), array("d")), ([2, 3], [0.5, 1.5])
    >>> copy_pending(columns, pending)
    >>> columns, pending
    ((array('i', [1, 2, 3]), array('d', [0.5, 1.5])), ([], []))
    """
    for column, values in zip(columns, pending, strict=True):
        # ``struct`` packs a list's values in one call (native sizes and order, as the array's
        # own type code means there), a third of what numpy's ``fromiter`` takes a value.
        column.frombytes(pack(f"{len(values)}{column.typecode}", *values))
        values.clear()


class TimelineRecorder:
    """Rows of the timelines; the fairness series only when frameworks share the cluster.

    Each series is one flat typed array (a row's values one after another); ``rows_max`` bounds
    the rows kept (:data:`TIMELINE_ROWS_MAX`).
    """

    def __init__(
        self,
        resources: Sequence[str],
        vm_types: Sequence[str],
        frameworks: Sequence[str],
        *,
        shared: bool,
        rows_max: int = TIMELINE_ROWS_MAX,
    ) -> None:
        self.resources = list(resources)
        self.vm_types = list(vm_types)
        self.frameworks = list(frameworks)
        self.shared = shared  # at least two frameworks have jobs: fairness is measured
        self.rows_max = rows_max
        n_shares = len(self.frameworks) if shared else 0
        self.t = array("d")
        # (series, values a row, numpy type of its matrix)
        self._utilisation = array("d")
        self._utilisation_of_on = array("d")
        self._active_vms = array("q")
        self._cost_rate = array("d")
        self._cumulative_cost = array("d")
        self._queued = array("q")
        self._running = array("q")
        self._dominant_share = array("d")
        self._fair_share = array("d")
        self._widths = (
            len(self.resources), len(self.resources), len(self.vm_types), 1, 1, 1, 1, n_shares, n_shares,
        )
        # The newest rows, one list a series (``self.t`` first), not yet in the arrays.
        self._pending: tuple[list[Any], ...] = tuple([] for _ in range(10))
        self._keep: BoolArray | None = None  # informative_rows(), until the next row
        self._rounded: list[float] = []  # _rounded_cost_rate(), computed with _keep
        # Bounded rows: the bucket width of the last reduction (seconds), the rows whose
        # fairness areas are summed in ``_areas`` already, and the rows reduced so far.
        self._width = 0.0
        self._integrated = 0
        self._areas = FairnessAreas.zero(n_shares)
        self.reductions = 0

    def record(
        self,
        t: float,
        *,
        utilisation: list[float],
        utilisation_of_on: list[float],
        active_vms: list[int],
        cost_rate_per_hour: float,
        cumulative_cost: float,
        queued_jobs: int,
        running_jobs: int,
        dominant_share: list[float],
        fair_share: list[float],
    ) -> None:
        """The state at ``t``, after everything that happened at ``t``."""
        self._keep = None
        pending = self._pending
        times = pending[0]
        if times and times[-1] == t:  # a second pass at the same instant: keep the last state
            for series, width in zip(pending[1:], self._widths, strict=True):
                del series[len(series) - width:]
            times.pop()
        elif not times and self.t and self.t[-1] == t:  # the same, the last row copied already
            for array_series, width in zip(self._series(), self._widths, strict=True):
                del array_series[len(array_series) - width:]
            self.t.pop()
        elif len(self.t) + len(times) >= 2 * self.rows_max:
            self._reduce()
        times.append(t)
        pending[1].extend(utilisation)
        pending[2].extend(utilisation_of_on)
        pending[3].extend(active_vms)
        pending[4].append(cost_rate_per_hour)
        pending[5].append(cumulative_cost)
        pending[6].append(queued_jobs)
        pending[7].append(running_jobs)
        if dominant_share:  # only when frameworks share the cluster
            pending[8].extend(dominant_share)
            pending[9].extend(fair_share)
        if len(times) >= PENDING_ROWS:
            self._flush()

    def _flush(self) -> None:
        """Copy the pending rows into the typed arrays (the same values: a float64 or int64 each,
        as appending them one by one stores), and empty the lists."""
        if self._pending[0]:
            copy_pending((self.t, *self._series()), self._pending)

    def _series(self) -> tuple[array[Any], ...]:
        return (
            self._utilisation, self._utilisation_of_on, self._active_vms, self._cost_rate,
            self._cumulative_cost, self._queued, self._running, self._dominant_share, self._fair_share,
        )

    def _matrix(self, series: array[Any], columns: int) -> NDArray[Any]:
        # float64 or int64 as the array's type, a row per row (a copy: the array grows on).
        dtype = np.int64 if series.typecode == "q" else np.float64
        return np.frombuffer(series, dtype=dtype).reshape(len(self.t), columns).copy()

    def _matrices(self) -> list[NDArray[Any]]:
        return [self._matrix(s, w) for s, w in zip(self._series(), self._widths, strict=True)]

    # ------------------------------------------------------------------ bounded rows

    def _integrate(self, end: int, t_next: float | None) -> None:
        """Add the fairness areas of rows ``[self._integrated, end)`` (the last holding until
        ``t_next``) to those summed so far."""
        if not self.shared or end <= self._integrated:
            return
        a, n = self._integrated, len(self.frameworks)
        t = np.frombuffer(self.t, dtype=np.float64)[a:end]
        dominant = np.frombuffer(self._dominant_share, dtype=np.float64)[a * n:end * n].reshape(-1, n)
        fair = np.frombuffer(self._fair_share, dtype=np.float64)[a * n:end * n].reshape(-1, n)
        self._areas = self._areas.plus(fairness_areas(t, dominant, fair, t_next=t_next))
        self._integrated = end

    def _reduce(self) -> None:
        """Keep the envelope of every row but the last (which a second row at its instant may
        still replace): over buckets of the narrowest power-of-two width, never narrower than
        the last one's, that makes at most ``rows_max`` rows of envelope."""
        self._flush()
        n = len(self.t) - 1
        t = np.frombuffer(self.t, dtype=np.float64)[:n].copy()
        self._integrate(n, float(self.t[n]))
        matrices = [m[:n] for m in self._matrices()]
        columns = [m[:, k].astype(float) for m in matrices for k in range(m.shape[1])]
        buckets = max(1, self.rows_max // (2 + 4 * len(columns)))
        span = float(t[-1] - t[0])
        width = max(self._width, 2.0 ** math.ceil(math.log2(span / buckets)) if span > 0 else 1.0)
        while math.floor(t[-1] / width) - math.floor(t[0] / width) + 1 > buckets:
            width *= 2.0
        self._width = width
        bucket = np.floor(t / width)
        starts = np.flatnonzero(np.r_[True, bucket[1:] != bucket[:-1]])
        kept = envelope_rows(columns, np.append(starts, n), step=True)
        kept = np.append(kept[kept < n], n)  # and the last row, as it is
        every = list(zip((self.t, *self._series()), (1, *self._widths), strict=True))
        kept_rows = [self._matrix(series, width_of_row)[kept].tobytes() for series, width_of_row in every]
        for (series, _), rows in zip(every, kept_rows, strict=True):
            del series[:]
            series.frombytes(rows)
        self._integrated = len(kept) - 1  # the rows before the last are in the areas
        self.reductions += 1

    # ------------------------------------------------------------------ the document

    def informative_rows(self) -> BoolArray:
        """Which rows to keep: all but those that repeat the row before in every step series
        and lie on one straight stretch of the cumulative cost with their neighbours.

        Such a row changes no step function and no segment of the cumulative cost (drawn
        straight between points); it comes from a polling pass (``scheduling_interval_s``) that
        started nothing. The first and the last rows are always kept.
        """
        self._flush()
        if self._keep is None:
            self._rounded = self._rounded_cost_rate()
            self._keep = self._informative_rows()
        return self._keep.copy()

    def _informative_rows(self) -> BoolArray:
        n = len(self.t)
        keep = np.ones(n, dtype=bool)
        if n <= 2:
            return keep
        same = np.ones(n - 1, dtype=bool)
        utilisation, utilisation_of_on, active, _, _, _, _, dominant, fair = self._matrices()
        for matrix in (utilisation, utilisation_of_on, active, dominant, fair):
            same &= (matrix[1:] == matrix[:-1]).all(axis=1)
        for series in (self._rounded, self._queued, self._running):
            values = np.asarray(series)
            same &= values[1:] == values[:-1]
        # Row j is on the cost line of row j - 1 when no surcharge landed at t[j]. A dropped row
        # must be on the line of the row before, and the row after on its own line: a surcharge
        # landing right after it is a jump that only the row before the jump pins down.
        t, cost = np.asarray(self.t), np.asarray(self._cumulative_cost)
        line = cost[:-1] + np.asarray(self._cost_rate[:-1]) * (t[1:] - t[:-1]) / 3600.0
        on_line = np.abs(cost[1:] - line) <= 1e-12 * np.maximum(1.0, np.abs(cost[1:]))
        same &= on_line
        same[:-1] &= on_line[1:]
        keep[1:] = ~same
        keep[-1] = True
        return keep

    def _rounded_cost_rate(self) -> list[float]:
        # The rate is the sum of the hourly prices of the VMs on, kept up to date by adding and
        # subtracting them, so its last bits drift. No figure reads them (the cumulative cost
        # keeps full precision): a billionth of a currency unit an hour is kept.
        # The rate stays the same over many rows (it changes when a VM turns on or off), and
        # ``round`` to a number of decimals is slow: each new value is rounded once. A zero is
        # always rounded (0.0 and -0.0 compare equal but are written differently).
        # The rates come back (the same VMs on again): each value is rounded once, remembered
        # (but a zero, which equals the other zero).
        out: list[float] = []
        last, rounded = math.nan, 0.0
        seen: dict[float, float] = {}
        for rate in self._cost_rate:
            if rate != last or rate == 0.0:
                last = rate
                found = seen.get(rate) if rate != 0.0 else None
                if found is None:
                    found = round(rate, RATE_DECIMALS)
                    if rate != 0.0:
                        seen[rate] = found
                rounded = found
            out.append(rounded)
        return out

    def timeline_section(self) -> dict[str, Any]:
        """The ``timeline`` section of the result document (informative rows only)."""
        self._flush()
        keep = self.informative_rows()
        series: tuple[array[Any], ...] = (self._utilisation, self._utilisation_of_on, self._active_vms)
        utilisation, utilisation_of_on, active = (
            self._matrix(s, w)[keep] for s, w in zip(series, self._widths, strict=False)
        )
        return {
            "t": _kept(self.t, keep),
            "utilisation": {r: utilisation[:, k].tolist() for k, r in enumerate(self.resources)},
            "utilisation_of_on": {r: utilisation_of_on[:, k].tolist() for k, r in enumerate(self.resources)},
            "active_vms": {name: active[:, k].tolist() for k, name in enumerate(self.vm_types)},
            "cost_rate_per_hour": _kept(self._rounded, keep),
            "cumulative_cost": _kept(self._cumulative_cost, keep),
            "queued_jobs": _kept(self._queued, keep),
            "running_jobs": _kept(self._running, keep),
            # Only when rows were reduced: the width of the buckets they are the envelope of.
            **({"envelope_s": self._width} if self.reductions else {}),
        }

    def fairness_section(self, weights: FloatArray) -> dict[str, Any] | None:
        """The ``fairness`` section (paper 001's unfairness), or ``None`` when nobody shares.

        The figures are measured over every row produced (integrated a block at a time when rows
        were reduced); the series keep the informative rows, as the timeline does.
        """
        if not self.shared:
            return None
        self._flush()
        self._integrate(len(self.t), None)
        n = len(self.frameworks)
        dominant_share = self._matrix(self._dominant_share, n)
        fair_share = self._matrix(self._fair_share, n)
        keep = self.informative_rows()
        return {
            "t": _kept(self.t, keep),
            "share": {name: dominant_share[keep, k].tolist() for k, name in enumerate(self.frameworks)},
            "fair_share": {name: fair_share[keep, k].tolist() for k, name in enumerate(self.frameworks)},
            **fairness_figures(self._areas, self.frameworks, weights),
        }


def _kept(values: Sequence[Any], keep: BoolArray) -> list[Any]:
    """The ``values`` of the rows kept: selected by numpy (a typed array is read as the buffer
    it is; a list of floats as float64, which holds each exactly) and given back as Python
    values, the same floats and ints."""
    kept: list[Any] = np.asarray(values)[keep].tolist()
    return kept
