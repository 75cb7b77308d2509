"""A sweep's points: the grid of its axes (or a seeded random sample of it), crossed with the
schedulers and the seeds, and the points batched into parts of a few seconds' work.

A *setting* is one value of every axis; a *point* is a setting run by one scheduler with one
seed. Points are numbered from 1 in a fixed order: settings in grid order (the first axis
changes slowest), then the schedulers in their order, then the seeds. The same options always
give the same points, so a part can carry its points and any process can re-derive them.

>>> grid = settings_grid({"counts.a": [1, 2], "load.jobs": [1.0, 2.0]})
>>> grid
[{'counts.a': 1, 'load.jobs': 1.0}, {'counts.a': 1, 'load.jobs': 2.0}, {'counts.a': 2, 'load.jobs': 1.0}, \
{'counts.a': 2, 'load.jobs': 2.0}]
>>> settings_sample({"counts.a": [1, 2], "load.jobs": [1.0, 2.0]}, size=2, seed=0) == \\
...     settings_sample({"counts.a": [1, 2], "load.jobs": [1.0, 2.0]}, size=2, seed=0)
True
>>> [(p.point, p.scheduler, p.seed) for p in sweep_points([{}], ["edf-bfd", "morpheus"], seeds=2)]
[(1, 'edf-bfd', 0), (2, 'edf-bfd', 1), (3, 'morpheus', 0), (4, 'morpheus', 1)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "SECONDS_PER_JOB",
    "TARGET_PART_S",
    "Point",
    "grid_size",
    "point_batches",
    "point_jobs",
    "settings_grid",
    "settings_sample",
    "sweep_points",
]

#: Simulated seconds of work per job of a point, measured on the shipped 1,000-job workload on
#: the paper's 14-VM cluster (0.2-0.3 s a point under each of the five named schedulers,
#: benchmarks/sweep.py): the estimate :func:`point_batches` packs parts by.
SECONDS_PER_JOB = 2.5e-4
#: The least estimated work of a part: shorter parts spend more on their claim, heartbeat and
#: result transaction than on simulating; longer ones balance worse over the workers (100
#: points of the 1,000-job workload make 25 parts: 13 and 12 on two processes).
TARGET_PART_S = 1.0


@dataclass(frozen=True)
class Point:
    """One point of a sweep: its number (from 1), its setting, its scheduler and its seed."""

    point: int
    settings: dict[str, Any] = field(default_factory=dict)
    scheduler: str = "edf-bfd"
    seed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"point": self.point, "settings": dict(self.settings), "scheduler": self.scheduler,
                "seed": self.seed}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Point:
        return cls(int(data["point"]), dict(data.get("settings") or {}), str(data["scheduler"]),
                   int(data.get("seed") or 0))


def grid_size(axes: Mapping[str, Sequence[Any]]) -> int:
    """How many settings the grid of ``axes`` has (1 with no axis: the scenario as it is).

    >>> grid_size({"a.x": [1, 2, 3], "b.y": [1, 2]}), grid_size({})
    (6, 1)
    """
    return math.prod(len(v) for v in axes.values())


def _setting(axes: Mapping[str, Sequence[Any]], index: int) -> dict[str, Any]:
    """The ``index``-th setting of the grid (mixed radix, the last axis changing fastest)."""
    out: dict[str, Any] = {}
    for key in reversed(list(axes)):
        values = axes[key]
        index, k = divmod(index, len(values))
        out[key] = values[k]
    return {key: out[key] for key in axes}


def settings_grid(axes: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every setting of the grid, the first axis changing slowest."""
    return [_setting(axes, i) for i in range(grid_size(axes))]


def settings_sample(axes: Mapping[str, Sequence[Any]], *, size: int, seed: int) -> list[dict[str, Any]]:
    """``size`` distinct settings of the grid drawn uniformly with ``seed``, in grid order.

    The grid is never built: settings are drawn by their index in it. ``size`` larger than the
    grid is every setting.
    """
    total = grid_size(axes)
    if size >= total:
        return settings_grid(axes)
    rng = np.random.default_rng(seed)
    chosen = sorted(int(i) for i in rng.choice(total, size=size, replace=False))
    return [_setting(axes, i) for i in chosen]


def sweep_points(
    settings: Sequence[Mapping[str, Any]], schedulers: Sequence[str], *, seeds: int
) -> list[Point]:
    """Every setting run by every scheduler with each of the seeds ``0 .. seeds - 1``, numbered from 1."""
    points: list[Point] = []
    for setting in settings:
        for spec in schedulers:
            for seed in range(seeds):
                points.append(Point(len(points) + 1, dict(setting), spec, seed))
    return points


def point_jobs(point: Point, jobs: int) -> float:
    """The jobs a point simulates: the scenario's ``jobs`` times its ``load.jobs`` factor."""
    return jobs * float(point.settings.get("load.jobs", 1.0))


def point_batches(
    points: Sequence[Point], *, jobs: int, target_s: float = TARGET_PART_S
) -> list[list[Point]]:
    """Consecutive points packed into batches of at least ``target_s`` estimated seconds each.

    The rule: a point's work is estimated as its jobs (:func:`point_jobs`) times
    :data:`SECONDS_PER_JOB`; points are added to a batch until the batch's estimate reaches
    ``target_s`` (the last batch may hold less). One batch is one part of a planner run, so a
    sweep of small points is a few parts of a few seconds each, and a sweep of large points is
    one part per point.

    >>> pts = sweep_points([{}], ["edf-bfd"], seeds=10)
    >>> [len(b) for b in point_batches(pts, jobs=1000)]  # 0.25 s a point: 4 a part
    [4, 4, 2]
    >>> [len(b) for b in point_batches(pts, jobs=100_000)]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    """
    batches: list[list[Point]] = []
    current: list[Point] = []
    estimate = 0.0
    for p in points:
        current.append(p)
        estimate += point_jobs(p, jobs) * SECONDS_PER_JOB
        if estimate >= target_s:
            batches.append(current)
            current, estimate = [], 0.0
    if current:
        batches.append(current)
    return batches
