"""The simulation's timelines: one row per instant at which something happened.

Every series is a step function (the value holds from ``t[k]`` until ``t[k + 1]``) except the
cumulative cost, which is piecewise linear between the points. The recorder keeps one row per
instant (a second row at the same instant replaces the first) and builds the ``timeline`` and
``fairness`` sections of the result document (docs/results.md).

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

from collections.abc import Sequence
from itertools import chain, compress
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..metrics import fairness_summary
from .cluster import BoolArray, FloatArray

__all__ = ["RATE_DECIMALS", "TimelineRecorder"]

#: Decimals kept of the cost rate (currency units per hour).
RATE_DECIMALS = 9


class TimelineRecorder:
    """Rows of the timelines; the fairness series only when frameworks share the cluster."""

    def __init__(
        self, resources: Sequence[str], vm_types: Sequence[str], frameworks: Sequence[str], *, shared: bool
    ) -> None:
        self.resources = list(resources)
        self.vm_types = list(vm_types)
        self.frameworks = list(frameworks)
        self.shared = shared  # at least two frameworks have jobs: fairness is measured
        self.t: list[float] = []
        self._utilisation: list[list[float]] = []
        self._utilisation_of_on: list[list[float]] = []
        self._active_vms: list[list[int]] = []
        self._cost_rate: list[float] = []
        self._cumulative_cost: list[float] = []
        self._queued: list[int] = []
        self._running: list[int] = []
        self._dominant_share: list[list[float]] = []
        self._fair_share: list[list[float]] = []
        self._keep: BoolArray | None = None  # informative_rows(), until the next row
        self._rounded: list[float] = []  # _rounded_cost_rate(), computed with _keep

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
        if self.t and self.t[-1] == t:  # a second pass at the same instant: keep the last state
            for series in self._series():
                series.pop()
            self.t.pop()
        self.t.append(t)
        self._utilisation.append(utilisation)
        self._utilisation_of_on.append(utilisation_of_on)
        self._active_vms.append(active_vms)
        self._cost_rate.append(cost_rate_per_hour)
        self._cumulative_cost.append(cumulative_cost)
        self._queued.append(queued_jobs)
        self._running.append(running_jobs)
        self._dominant_share.append(dominant_share)
        self._fair_share.append(fair_share)

    def _series(self) -> tuple[list[Any], ...]:
        return (
            self._utilisation, self._utilisation_of_on, self._active_vms, self._cost_rate,
            self._cumulative_cost, self._queued, self._running, self._dominant_share, self._fair_share,
        )

    def _matrix(
        self, rows: list[list[float]] | list[list[int]], columns: int, dtype: type = float
    ) -> NDArray[Any]:
        # What ``np.array(rows)`` gives (float64, or int64 for rows of ints), read as one flat
        # sequence: much faster than numpy's look at every inner list.
        flat: NDArray[Any] = np.fromiter(chain.from_iterable(rows), dtype=dtype, count=len(self.t) * columns)
        return flat.reshape(len(self.t), columns)

    def informative_rows(self) -> BoolArray:
        """Which rows to keep: all but those that repeat the row before in every step series
        and lie on one straight stretch of the cumulative cost with their neighbours.

        Such a row changes no step function and no segment of the cumulative cost (drawn
        straight between points); it comes from a polling pass (``scheduling_interval_s``) that
        started nothing. The first and the last rows are always kept.
        """
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
        for matrix in (
            self._matrix(self._utilisation, len(self.resources)),
            self._matrix(self._utilisation_of_on, len(self.resources)),
            self._matrix(self._active_vms, len(self.vm_types), np.int64),
            self._matrix(self._dominant_share, len(self._dominant_share[0])),
            self._matrix(self._fair_share, len(self._fair_share[0])),
        ):
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
        return [round(rate, RATE_DECIMALS) for rate in self._cost_rate]

    def timeline_section(self) -> dict[str, Any]:
        """The ``timeline`` section of the result document (informative rows only)."""
        keep = self.informative_rows()
        utilisation = self._matrix(self._utilisation, len(self.resources))[keep]
        utilisation_of_on = self._matrix(self._utilisation_of_on, len(self.resources))[keep]
        active = self._matrix(self._active_vms, len(self.vm_types), np.int64)[keep]
        return {
            "t": _kept(self.t, keep),
            "utilisation": {r: utilisation[:, k].tolist() for k, r in enumerate(self.resources)},
            "utilisation_of_on": {r: utilisation_of_on[:, k].tolist() for k, r in enumerate(self.resources)},
            "active_vms": {name: active[:, k].tolist() for k, name in enumerate(self.vm_types)},
            "cost_rate_per_hour": _kept(self._rounded, keep),
            "cumulative_cost": _kept(self._cumulative_cost, keep),
            "queued_jobs": _kept(self._queued, keep),
            "running_jobs": _kept(self._running, keep),
        }

    def fairness_section(self, weights: FloatArray) -> dict[str, Any] | None:
        """The ``fairness`` section (paper 001's unfairness), or ``None`` when nobody shares.

        The figures are measured over every row; the series keep the informative rows, as the
        timeline does.
        """
        if not self.shared:
            return None
        n = len(self.frameworks)
        dominant_share = self._matrix(self._dominant_share, n)
        fair_share = self._matrix(self._fair_share, n)
        summary = fairness_summary(np.array(self.t), dominant_share, fair_share, self.frameworks, weights)
        keep = self.informative_rows()
        summary["t"] = _kept(self.t, keep)
        summary["share"] = {name: dominant_share[keep, k].tolist() for k, name in enumerate(self.frameworks)}
        summary["fair_share"] = {name: fair_share[keep, k].tolist() for k, name in enumerate(self.frameworks)}
        return summary


def _kept(values: list[Any], keep: BoolArray) -> list[Any]:
    return list(compress(values, keep.tolist()))
