"""Server-side downsampling of timelines: keep what the eye sees, or smooth it on purpose.

A 10,000-job run has tens of thousands of timeline events; a chart is a few hundred pixels
wide. The time axis is cut into buckets of equal duration and each bucket keeps only its
first and last points and, per series, the points where the minimum and maximum occur, so
peaks and troughs survive (the "M4" idea). Every series of a call shares the kept times,
so stacked areas and fill-between shading stay aligned.

For a step function (value holds from ``t[k]`` until ``t[k+1]``) the point *after* each
extreme is kept too: it is where the extreme value stops, so a short spike is neither lost
nor drawn longer than it lasted.

A heatmap has the same problem in two directions: :func:`downsample_grid` averages blocks of
neighbouring rows and columns (``k`` rows of ``k`` applications become one), so every cell
still shows the mean of what it covers and the total is kept.

Overlaid timelines of several schedulers are unreadable at full detail (the last line hides
the rest), so the readable default is a *step mean over windows* of a round duration
(:func:`window_duration`, :func:`window_mean_step`): each window shows the time-weighted
mean of the series, so the area under the curve (VM-hours, a cost) is kept.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = [
    "block_groups",
    "downsample_grid",
    "downsample_linear",
    "downsample_step",
    "envelope_rows",
    "window_duration",
    "window_mean_step",
]

#: A series: a sequence of numbers (``None`` for a gap) or a 1-D numpy array.
Series = Sequence[float | int | None] | np.ndarray


def downsample_step(
    t: Series, ys: Mapping[str, Series], max_points: int = 2000
) -> tuple[list[float], dict[str, list[float | None]]]:
    """Downsample step functions sharing the time points ``t``.

    Parameters
    ----------
    t : sequence of float
        Time points, non-decreasing (other orders are bucketed by position instead).
    ys : mapping of str to sequence of float
        Series of the same length as ``t``; series ``s`` holds ``s[k]`` from ``t[k]``
        until ``t[k+1]``. ``None`` is a gap.
    max_points : int, default 2000
        Target number of points. The result has at most ``max(max_points, 2 + 4 * len(ys))``
        points; inputs no longer than ``max_points`` are returned whole.

    Returns
    -------
    t : list of float
        The kept time points, in input order.
    ys : dict of str to list of float or None
        Each series at the kept points.

    Raises
    ------
    ValueError
        If a series' length differs from ``t``'s or ``max_points`` < 2.

    Examples
    --------
    The spike to 7 and the dip to -2 survive, each with the point where it ends:

    >>> t = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    >>> ys = {"busy": [0, 0, 0, 7, 0, 0, 0, 0, -2, 0]}
    >>> downsample_step(t, ys, max_points=6)
    ([0.0, 3.0, 4.0, 8.0, 9.0], {'busy': [0.0, 7.0, 0.0, -2.0, 0.0]})
    >>> downsample_step([0, 1], {"a": [1, 0]})
    ([0.0, 1.0], {'a': [1.0, 0.0]})
    """
    return _downsample(t, ys, max_points, step=True)


def downsample_linear(
    t: Series, ys: Mapping[str, Series], max_points: int = 2000
) -> tuple[list[float], dict[str, list[float | None]]]:
    """Downsample piecewise-linear series sharing the time points ``t``.

    Same contract as :func:`downsample_step`, for series drawn as straight segments
    between points (cumulative cost): each bucket keeps its first and last points and
    each series' minimum and maximum. At most ``max(max_points, 2 + 2 * len(ys))`` points.

    Examples
    --------
    >>> downsample_linear([0, 1, 2, 3, 4, 5], {"c": [0, 1, 5, 2, 3, 4]}, max_points=4)
    ([0.0, 2.0, 5.0], {'c': [0.0, 5.0, 4.0]})
    """
    return _downsample(t, ys, max_points, step=False)


def _downsample(
    t: Series, ys: Mapping[str, Series], max_points: int, *, step: bool
) -> tuple[list[float], dict[str, list[float | None]]]:
    if max_points < 2:
        raise ValueError(f"max_points must be >= 2, got {max_points}")
    tt = np.asarray(t, dtype=float).ravel()
    arrays = {str(k): np.asarray(v, dtype=float).ravel() for k, v in ys.items()}
    n = tt.size
    for name, arr in arrays.items():
        if arr.size != n:
            raise ValueError(f"series {name!r} has {arr.size} points, t has {n}")
    if n <= max_points:
        keep = np.arange(n)
    else:
        keep = _kept_indices(tt, list(arrays.values()), max_points, step=step)
    t_out = [float(x) for x in tt[keep].tolist()]
    ys_out = {name: _plain(arr[keep]) for name, arr in arrays.items()}
    return t_out, ys_out


def _kept_indices(tt: np.ndarray, series: list[np.ndarray], max_points: int, *, step: bool) -> np.ndarray:
    n = tt.size
    per_bucket = 2 + len(series) * (4 if step else 2)
    n_buckets = max(1, max_points // per_bucket)
    finite_t = np.isfinite(tt)
    ordered = bool(finite_t.all()) and bool(np.all(np.diff(tt) >= 0))
    if ordered and tt[-1] > tt[0]:
        # Buckets of equal duration: a dense burst collapses into its envelope.
        edges = np.linspace(tt[0], tt[-1], n_buckets + 1)
        starts = np.searchsorted(tt, edges[:-1], side="left")
        starts[0] = 0
    else:
        starts = np.linspace(0, n, n_buckets + 1).astype(np.int64)[:-1]
    return envelope_rows(series, np.unique(np.append(starts, n)), step=step)


def envelope_rows(series: Sequence[np.ndarray], bounds: np.ndarray, *, step: bool) -> np.ndarray:
    """The rows the envelope keeps (the "M4" rule of this module): of each bucket of rows
    ``[bounds[j], bounds[j + 1])``, its first and last rows and the rows of each series'
    minimum and maximum (``nan`` never is one), and for step functions the row after each
    extreme (where it stops). Sorted row indices.

    Buckets of buckets keep what the coarser buckets alone would: the rows kept from a bucket
    include its extremes, so keeping again over unions of buckets gives the same rows as
    keeping once over the unions (how :mod:`scheduling.cost.timeline` keeps a long run's rows
    bounded as they are produced).

    >>> envelope_rows([np.array([0.0, 5.0, 1.0, 2.0, 0.0, 0.0])], np.array([0, 3, 6]), step=True).tolist()
    [0, 1, 2, 3, 4, 5]
    >>> envelope_rows([np.array([0.0, 5.0, 1.0, 2.0, 1.0, 1.0])], np.array([0, 6]), step=False).tolist()
    [0, 1, 5]
    """
    n = len(series[0]) if series else int(bounds[-1]) if len(bounds) else 0
    bounds = np.asarray(bounds, dtype=np.int64)
    if np.any(np.diff(bounds) < 0):
        raise ValueError("bucket bounds must not decrease")
    starts, ends = bounds[:-1], bounds[1:]
    full = ends > starts  # buckets with rows
    starts, ends = starts[full], ends[full]
    if not starts.size:
        return np.zeros(0, dtype=np.int64)
    kept = [starts, ends - 1]
    # The buckets follow each other: each one's rows are a segment of ``reduceat`` over the
    # rows from the first bucket's start to the last one's end.
    first_row, beyond = int(starts[0]), int(ends[-1])
    rows = np.arange(first_row, beyond, dtype=np.int64)
    segments = starts - first_row
    for s in series:
        s = np.asarray(s, dtype=float)[first_row:beyond]
        for values, reduce in ((np.where(np.isnan(s), np.inf, s), np.minimum),
                               (np.where(np.isnan(s), -np.inf, s), np.maximum)):
            extreme = reduce.reduceat(values, segments)
            # The first row of each bucket holding its extreme, as argmin and argmax give it.
            at = values == np.repeat(extreme, ends - starts)
            first = np.minimum.reduceat(np.where(at, rows, beyond), segments)
            kept.append(first)
            if step:
                after = first + 1
                kept.append(after[after < n])
    return np.unique(np.concatenate(kept))


def _plain(arr: np.ndarray) -> list[float | None]:
    values: list[float | None] = arr.astype(float).tolist()
    for k in np.flatnonzero(~np.isfinite(arr)).tolist():
        values[k] = None
    return values


#: Window durations offered for smoothed timelines (seconds), smallest first.
WINDOW_STEPS_S = (
    1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
)


def window_duration(span_s: float, windows: int = 120) -> float:
    """The smallest round window duration that cuts ``span_s`` into at most ``windows`` windows.

    >>> window_duration(13 * 3600), window_duration(700), window_duration(0)
    (600.0, 10.0, 1.0)
    """
    target = span_s / max(1, windows)
    return float(next((w for w in WINDOW_STEPS_S if w >= target), WINDOW_STEPS_S[-1] * math.ceil(
        target / WINDOW_STEPS_S[-1])))


def window_mean_step(
    t: Series, ys: Mapping[str, Series], window_s: float
) -> tuple[list[float], dict[str, list[float | None]]]:
    """Time-weighted mean of step functions over consecutive windows of ``window_s`` seconds.

    Series ``s`` holds ``s[k]`` from ``t[k]`` until ``t[k+1]`` (``None``: a gap, counted as 0).
    Windows start at ``t[0]``; the last one ends at ``t[-1]``. Returns the window starts plus
    the end, and each series' mean per window with the last mean repeated at the end (ready
    to draw as a step line); the area under each curve is kept.

    Examples
    --------
    >>> window_mean_step([0, 1, 2, 3, 4], {"y": [0, 4, 0, 2, 0]}, window_s=2)
    ([0.0, 2.0, 4.0], {'y': [2.0, 1.0, 1.0]})
    """
    tt = np.asarray(t, dtype=float).ravel()
    arrays = {str(k): np.nan_to_num(np.asarray(v, dtype=float).ravel()) for k, v in ys.items()}
    for name, arr in arrays.items():
        if arr.size != tt.size:
            raise ValueError(f"series {name!r} has {arr.size} points, t has {tt.size}")
    if window_s <= 0:
        raise ValueError(f"window_s must be > 0, got {window_s}")
    if tt.size < 2 or not tt[-1] > tt[0]:
        return [float(x) for x in tt.tolist()], {k: _plain(v) for k, v in arrays.items()}
    n_windows = max(1, math.ceil((tt[-1] - tt[0]) / window_s - 1e-9))
    edges = np.minimum(tt[0] + window_s * np.arange(n_windows + 1), tt[-1])
    dt = np.diff(tt)
    out: dict[str, list[float | None]] = {}
    for name, y in arrays.items():
        area = np.concatenate(([0.0], np.cumsum(y[:-1] * dt)))  # integral from t[0] to t[k]
        cum = np.interp(edges, tt, area)
        means = np.diff(cum) / np.diff(edges)
        out[name] = _plain(np.append(means, means[-1]))
    return [float(x) for x in edges.tolist()], out


def block_groups(n: int, max_groups: int) -> list[tuple[int, int]]:
    """``range(n)`` cut into at most ``max_groups`` runs ``[start, end)`` of ``ceil(n / max_groups)``
    items each (the last may be shorter); one run per item when ``n <= max_groups``.

    >>> block_groups(5, 2), block_groups(3, 5), block_groups(0, 4)
    ([(0, 3), (3, 5)], [(0, 1), (1, 2), (2, 3)], [])
    """
    if max_groups < 1:
        raise ValueError(f"max_groups must be >= 1, got {max_groups}")
    size = max(1, math.ceil(n / max_groups))
    return [(a, min(a + size, n)) for a in range(0, n, size)]


def downsample_grid(
    z: Sequence[Sequence[float]] | np.ndarray, max_rows: int = 60, max_cols: int = 200
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[list[float]]]:
    """Average a heatmap's blocks of neighbouring rows and columns down to at most
    ``max_rows`` x ``max_cols`` cells.

    Parameters
    ----------
    z : 2-D sequence of float
        The cells, ``z[i][j]`` (finite numbers).
    max_rows, max_cols : int
        The most rows and columns kept; a dimension already within its limit is kept whole.

    Returns
    -------
    rows, cols : list of (start, end)
        The input rows (columns) each output row (column) covers, ``[start, end)``
        (:func:`block_groups`).
    z : list of list of float
        The mean of each block: the sum of the input cells over the block's size, so the
        mean over the whole grid is kept when the blocks are of equal size.

    Examples
    --------
    >>> rows, cols, z = downsample_grid([[1, 2, 3], [3, 4, 5], [5, 6, 7]], max_rows=2, max_cols=3)
    >>> rows, cols, z
    ([(0, 2), (2, 3)], [(0, 1), (1, 2), (2, 3)], [[2.0, 3.0, 4.0], [5.0, 6.0, 7.0]])
    """
    grid = np.asarray(z, dtype=float)
    if grid.ndim != 2:
        raise ValueError(f"z must be 2-D, got {grid.ndim} dimensions")
    rows = block_groups(grid.shape[0], max_rows)
    cols = block_groups(grid.shape[1], max_cols)
    if not rows or not cols:
        return rows, cols, [[] for _ in rows]
    r0 = np.array([a for a, _ in rows])
    c0 = np.array([a for a, _ in cols])
    sums = np.add.reduceat(np.add.reduceat(grid, r0, axis=0), c0, axis=1)
    sizes = np.outer([b - a for a, b in rows], [b - a for a, b in cols])
    return rows, cols, [[float(v) for v in row] for row in (sums / sizes).tolist()]
