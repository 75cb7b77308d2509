"""What a sweep's points say: the Pareto front of two figures, and a band over the seeds per axis.

* :func:`pareto_front`: the points no other point beats on both figures (both lower is
  better: cost against deadline misses, cost against unfairness);
* :func:`band`: the mean of a sample and its 95 % Student t-interval
  (:func:`t_quantile`, exact for whole degrees of freedom);
* :func:`parameter_bands`: for each axis and scheduler, one line over the axis's values,
  with a band over the seeds.

>>> pts = [{"point": 1, "c": 3.0, "m": 0}, {"point": 2, "c": 1.0, "m": 5}, {"point": 3, "c": 2.0, "m": 5},
...        {"point": 4, "c": 2.0, "m": 1}]
>>> pareto_front(pts, "c", "m")
[2, 4, 1]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..numbers import finite

__all__ = ["band", "parameter_bands", "pareto_front", "t_quantile"]


def pareto_front(records: Sequence[Mapping[str, Any]], x: str, y: str) -> list[int]:
    """The numbers (``point``) of the records on the Pareto front of ``x`` and ``y``, both to
    be minimised, by ascending ``x``.

    A record is on the front when no other record is at least as good on both and better on
    one; records equal on both are on it together. Records missing either figure are left out.

    >>> pareto_front([{"point": 1, "c": 1.0, "m": 2}, {"point": 2, "c": 1.0, "m": 2},
    ...               {"point": 3, "c": 1.0, "m": 3}, {"point": 4, "c": None, "m": 0}], "c", "m")
    [1, 2]
    """
    known = [(fx, fy, int(r["point"])) for r in records
             if (fx := finite(r.get(x))) is not None and (fy := finite(r.get(y))) is not None]
    known.sort()
    front: list[int] = []
    best = math.inf  # the lowest y among the records before the current group of equal (x, y)
    k = 0
    while k < len(known):
        j = k
        while j < len(known) and known[j][:2] == known[k][:2]:
            j += 1
        if known[k][1] < best:
            front.extend(n for _, _, n in known[k:j])
            best = known[k][1]
        k = j
    return front


def _t_cdf_two_sided(t: float, df: int) -> float:
    """P(|T| < t) of Student's t with ``df`` degrees of freedom (Abramowitz and Stegun 26.7.3-4,
    a finite sum for whole ``df``)."""
    theta = math.atan(t / math.sqrt(df))
    c, s = math.cos(theta), math.sin(theta)
    if df == 1:
        return 2 * theta / math.pi
    if df % 2:  # odd
        term, total = c, c
        for k in range(3, df - 1, 2):
            term *= c * c * (k - 1) / k
            total += term
        return 2 / math.pi * (theta + s * total)
    term, total = 1.0, 1.0
    for k in range(2, df - 1, 2):
        term *= c * c * (k - 1) / k
        total += term
    return s * total


def t_quantile(df: int, confidence: float = 0.95) -> float:
    """The two-sided Student t critical value: ``P(|T| < t) = confidence`` with ``df`` degrees
    of freedom (bisection on the exact distribution function).

    >>> [round(t_quantile(n), 3) for n in (1, 2, 4, 9, 30)]
    [12.706, 4.303, 2.776, 2.262, 2.042]
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    low, high = 0.0, 1.0
    while _t_cdf_two_sided(high, df) < confidence:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if _t_cdf_two_sided(mid, df) < confidence:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2


def band(values: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    """``(mean, low, high)``: the mean and its 95 % t-interval, ``mean ± t(n-1) s / sqrt(n)``
    (``s`` the sample standard deviation); no interval for fewer than two values.

    >>> [round(v, 4) for v in band([1.0, 2.0, 3.0])]  # s = 1, t(2) = 4.3027: 2 ± 4.3027 / sqrt(3)
    [2.0, -0.4841, 4.4841]
    >>> band([5.0]), band([])
    ((5.0, None, None), (None, None, None))
    """
    n = len(values)
    if n == 0:
        return None, None, None
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None, None
    s = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(n - 1) * s / math.sqrt(n)
    return mean, mean - half, mean + half


def parameter_bands(
    records: Sequence[Mapping[str, Any]], axes: Mapping[str, Sequence[Any]], metric: str,
) -> list[dict[str, Any]]:
    """For each axis and scheduler, ``metric`` over the axis's values with a band over the seeds.

    At each value of the axis, the records of the scheduler with that value are averaged per
    seed (over the other axes' settings), and the per-seed means give the mean and its 95 %
    t-interval (:func:`band`). A line: ``axis``, ``scheduler``, ``values``, ``mean``, ``low``,
    ``high``, ``seeds`` (how many per-seed means each value has).

    >>> recs = [{"scheduler": "s", "seed": k, "settings": {"load.jobs": v}, "c": v * 10 + k}
    ...         for v in (1, 2) for k in (0, 1, 2)]
    >>> line = parameter_bands(recs, {"load.jobs": [1, 2]}, "c")[0]
    >>> line["values"], line["mean"], [round(h, 3) for h in line["high"]], line["seeds"]
    ([1, 2], [11.0, 21.0], [13.484, 23.484], [3, 3])
    """
    schedulers = list(dict.fromkeys(str(r.get("scheduler")) for r in records))
    lines: list[dict[str, Any]] = []
    for axis, values in axes.items():
        # One pass over the records per axis: (scheduler, value) -> seed -> the figures.
        groups: dict[tuple[str, Any], dict[int, list[float]]] = {}
        for r in records:
            y = finite(r.get(metric))
            settings = r.get("settings") or {}
            if y is None or axis not in settings:
                continue
            key = (str(r.get("scheduler")), _hashable(settings[axis]))
            groups.setdefault(key, {}).setdefault(int(r.get("seed") or 0), []).append(y)
        for spec in schedulers:
            line: dict[str, Any] = {"axis": axis, "scheduler": spec, "values": list(values),
                                    "mean": [], "low": [], "high": [], "seeds": []}
            for value in values:
                per_seed = groups.get((spec, _hashable(value)), {})
                means = [math.fsum(v) / len(v) for _, v in sorted(per_seed.items())]
                mean, low, high = band(means)
                line["mean"].append(mean)
                line["low"].append(low)
                line["high"].append(high)
                line["seeds"].append(len(means))
            lines.append(line)
    return lines


def _hashable(value: Any) -> Any:
    """A setting's value as a key: its type too, so that ``True`` and ``1`` stay apart."""
    return (type(value) is bool, value if not isinstance(value, list | dict) else repr(value))
