"""Measures computed from a simulation's records: percentiles, cost per hour, unfairness.

Unfairness has two readings: :func:`window_unfairness` is paper 001's own (§II; notes §5), over
the window from "every framework has started launching" to "the first has launched all its
tasks" against a constant fair line; :func:`fairness_summary` is the pending-work reading
(fair share among the frameworks with work waiting, while two or more have some), which the
cost comparison's fairness figures use and the sharing study reports beside the first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]


def percentile(values: Sequence[float] | np.ndarray, q: float) -> float:
    """The ``q``-th percentile (linear interpolation); 0 for no values.

    >>> percentile([1, 2, 3, 4], 50)
    2.5
    """
    arr = np.asarray(values, dtype=float)
    return float(np.percentile(arr, q)) if arr.size else 0.0


def cost_by_hour(
    on_s: Sequence[float], off_s: Sequence[float], billed_s: Sequence[float], cost: Sequence[float]
) -> list[float]:
    """Billed cost falling in each hour of the timeline, from the VM on-intervals' columns.

    The cost of an on-interval is spread over the hours it covers in proportion to time;
    a billing surcharge (granularity, minimum period) is charged to the hour the VM was
    turned off.

    >>> cost_by_hour(on_s=[1800.0], off_s=[5400.0], billed_s=[3600.0], cost=[1.0])
    [0.5, 0.5]
    """
    if not len(on_s):
        return []
    end = max(off_s)
    # Python floats: the additions numpy would make, without its per-element cost.
    hours = [0.0] * max(1, math.ceil(end / 3600.0 - 1e-12))
    for on_f, off_f, billed, cost_f in zip(on_s, off_s, billed_s, cost, strict=True):
        on, off, interval_cost = float(on_f), float(off_f), float(cost_f)
        span = off - on
        rate = interval_cost / billed if billed > 0 else 0.0
        h = int(on // 3600)
        t = on
        while t < off - 1e-12:
            nxt = min(off, (h + 1) * 3600.0)
            hours[min(h, len(hours) - 1)] += rate * (nxt - t)
            t, h = nxt, h + 1
        surcharge = interval_cost - rate * span
        if abs(surcharge) > 1e-15:
            hours[min(int(off // 3600), len(hours) - 1)] += surcharge
    return [float(x) for x in hours]


@dataclass(frozen=True)
class FairnessAreas:
    """What :func:`fairness_summary` integrates over time: the contention time, and per framework
    the areas (share-seconds, over the contention time) of its fair share, of its dominant share
    (capped at 1), and of the gap where the share is below the fair share.

    Areas of consecutive stretches of one timeline add up (:meth:`plus`), so a long timeline can
    be integrated a block of rows at a time (:class:`scheduling.cost.timeline.TimelineRecorder`).
    """

    contention_s: float
    fair: tuple[float, ...]
    share: tuple[float, ...]
    gap: tuple[float, ...]

    @classmethod
    def zero(cls, frameworks: int) -> FairnessAreas:
        none = (0.0,) * frameworks
        return cls(0.0, none, none, none)

    def plus(self, other: FairnessAreas) -> FairnessAreas:
        def add(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        return FairnessAreas(
            self.contention_s + other.contention_s,
            add(self.fair, other.fair), add(self.share, other.share), add(self.gap, other.gap),
        )


def fairness_areas(
    t: FloatArray, dominant_share: FloatArray, fair_share: FloatArray, *, t_next: float | None = None
) -> FairnessAreas:
    """The areas of :class:`FairnessAreas` of step functions sampled at ``t`` (rows) per
    framework (columns); the last row holds until ``t_next`` (by default it has no duration).

    >>> a = fairness_areas(np.array([0.0, 10.0]), np.array([[0.2, 0.8], [0.5, 0.5]]),
    ...                    np.array([[0.5, 0.5], [0.5, 0.5]]), t_next=20.0)
    >>> a.contention_s, a.gap
    (20.0, (3.0, 0.0))
    """
    end = t_next if t_next is not None else t[-1] if len(t) else 0.0
    dt = np.diff(t, append=end) if len(t) else np.zeros(0)
    contention = (fair_share > 0).sum(axis=1) >= 2
    w = dt * contention
    columns = range(fair_share.shape[1]) if fair_share.ndim == 2 else range(0)
    return FairnessAreas(
        float(w.sum()),
        tuple(float((fair_share[:, k] * w).sum()) for k in columns),
        tuple(float((np.minimum(dominant_share[:, k], 1.0) * w).sum()) for k in columns),
        tuple(float((np.maximum(fair_share[:, k] - dominant_share[:, k], 0.0) * w).sum()) for k in columns),
    )


def fairness_figures(areas: FairnessAreas, names: list[str], weights: FloatArray) -> dict[str, Any]:
    """``contention_s`` and each framework's figures (:func:`fairness_summary`) from its areas."""
    frameworks: dict[str, Any] = {}
    for k, name in enumerate(names):
        fair_area, share_area = areas.fair[k], areas.share[k]
        received = 100.0 * share_area / fair_area if fair_area > 0 else None
        frameworks[name] = {
            "weight": float(weights[k]),
            "unfairness_area": areas.gap[k],
            "received_pct": received,
            "unfairness_pct": max(0.0, 100.0 - received) if received is not None else None,
        }
    return {"contention_s": areas.contention_s, "frameworks": frameworks}


def fairness_summary(
    t: FloatArray,
    dominant_share: FloatArray,
    fair_share: FloatArray,
    names: list[str],
    weights: FloatArray,
) -> dict[str, Any]:
    """Unfairness of each framework while two or more have pending work (the pending-work reading).

    ``dominant_share`` and ``fair_share`` are step functions sampled at ``t`` (rows) per
    framework (columns). The contention time is the time during which at least two
    frameworks have pending work (a positive fair share). Paper 001's own definition (§II) is
    :func:`window_unfairness`. For framework A: ``received_pct``
    is the area of its dominant share over the area of its fair share times 100 (the paper's
    ``U_A``), ``unfairness_pct`` is ``max(0, 100 - received_pct)`` and ``unfairness_area`` is
    the area (share-seconds) between the dominant share and the fair share where the share is
    below it (:func:`fairness_areas`, :func:`fairness_figures`).

    >>> t = np.array([0.0, 10.0, 20.0])
    >>> dominant_share = np.array([[0.2, 0.8], [0.5, 0.5], [0.0, 0.0]])
    >>> fair_share = np.array([[0.5, 0.5], [0.5, 0.5], [0.0, 0.0]])
    >>> s = fairness_summary(t, dominant_share, fair_share, ["a", "b"], np.ones(2))
    >>> s["contention_s"], s["frameworks"]["a"]["unfairness_area"], s["frameworks"]["a"]["received_pct"]
    (20.0, 3.0, 70.0)
    """
    figures = fairness_figures(fairness_areas(t, dominant_share, fair_share), names, weights)
    return {
        "t": t.tolist(),
        "share": {name: dominant_share[:, k].tolist() for k, name in enumerate(names)},
        "fair_share": {name: fair_share[:, k].tolist() for k, name in enumerate(names)},
        **figures,
    }


def window_unfairness(
    t: FloatArray,
    dominant_share: FloatArray,
    first_start: Sequence[float | None],
    last_start: Sequence[float | None],
    tasks: Sequence[int],
    names: list[str],
    weights: FloatArray,
) -> dict[str, Any]:
    """Unfairness of each framework as paper 001 defines it (§II; notes §5).

    ``dominant_share`` (rows at ``t``, a column per framework) is a step function of each
    framework's dominant share of its running tasks. Over the frameworks that have tasks
    (``tasks > 0``), the window runs from the latest first task start to the earliest last task
    start ("all have started launching" to "the first has launched all its tasks"). Framework
    A's fair share is a constant line, ``phi_A`` over the sum of ``phi`` of the frameworks that
    have tasks; ``received_pct`` is ``U_A`` = 100 x the area under its share over the window
    divided by the area under its fair line, ``unfairness_pct`` is ``max(0, 100 - U_A)`` and
    ``unfairness_area`` the area between the share and the fair line where the share is below
    it (share-seconds). When the window is empty (or a framework with tasks never started one)
    there is no contention window: ``window`` and the figures are ``None``, never 0.

    >>> t = np.array([0.0, 10.0, 20.0, 30.0])
    >>> share = np.array([[0.8, 0.0], [0.6, 0.2], [0.5, 0.5], [0.0, 0.5]])
    >>> u = window_unfairness(t, share, [0.0, 10.0], [25.0, 30.0], [5, 5], ["a", "b"], np.ones(2))
    >>> u["window"], u["contention_s"], u["frameworks"]["b"]["received_pct"]   # (0.2 * 10 + 0.5 * 5) / 7.5
    ([10.0, 25.0], 15.0, 60.0)
    >>> u["frameworks"]["b"]["unfairness_pct"], u["frameworks"]["b"]["unfairness_area"]
    (40.0, 3.0)
    >>> early = window_unfairness(t, share, [0.0, 10.0], [5.0, 30.0], [5, 5], ["a", "b"], np.ones(2))
    >>> early["window"] is None, early["frameworks"]["b"]["unfairness_pct"] is None
    (True, True)
    """
    has = [k for k, n in enumerate(tasks) if n > 0]
    firsts = [first_start[k] for k in has]
    lasts = [last_start[k] for k in has]
    window: list[float] | None = None
    if has and all(v is not None for v in firsts) and all(v is not None for v in lasts):
        start = max(float(v) for v in firsts if v is not None)
        end = min(float(v) for v in lasts if v is not None)
        if end > start:
            window = [start, end]
    weight_sum = float(sum(weights[k] for k in has))
    fair = {name: (float(weights[k]) / weight_sum if k in has and weight_sum > 0 else 0.0)
            for k, name in enumerate(names)}
    if window is not None and len(t):
        nxt = np.append(t[1:], max(float(t[-1]), window[1]))
        overlap = np.clip(np.minimum(nxt, window[1]) - np.maximum(t, window[0]), 0.0, None)
    else:
        overlap = np.zeros(len(t))
    frameworks: dict[str, Any] = {}
    for k, name in enumerate(names):
        info: dict[str, Any] = {"weight": float(weights[k]), "fair_share": fair[name], "received_pct": None,
                                "unfairness_pct": None, "unfairness_area": None}
        if window is not None and fair[name] > 0:
            span = window[1] - window[0]
            share = np.minimum(dominant_share[:, k], 1.0)
            received = 100.0 * float((share * overlap).sum()) / (fair[name] * span)
            info["received_pct"] = received
            info["unfairness_pct"] = max(0.0, 100.0 - received)
            info["unfairness_area"] = float((np.maximum(fair[name] - share, 0.0) * overlap).sum())
        frameworks[name] = info
    return {
        "window": window,
        "contention_s": None if window is None else window[1] - window[0],
        "frameworks": frameworks,
    }
