"""Executor placement policies: ``{name: function}`` with one signature.

``place(cluster, demand, executors, allowed_types, ctx) -> {machine: executors} | None``

A policy reads the cluster and returns where the job's executors go, whole, or ``None`` when the
job cannot be placed now; it never changes the cluster. ``bfd``, ``consolidate`` and ``spread``
live in :mod:`~scheduling.placement.heuristics`; ``ilp`` (Algorithm 2 of paper 003) in
:mod:`~scheduling.placement.exact`, on top of the covering knapsack of
:mod:`~scheduling.placement.knapsack`.

>>> sorted(PLACEMENT_FUNCTIONS)
['bfd', 'consolidate', 'ilp', 'spread']
"""

from __future__ import annotations

from collections.abc import Callable

from ..cluster import BoolArray, Cluster, FloatArray, PlacementContext
from .heuristics import Assignment, place_bfd, place_consolidate, place_spread


def place_ilp(
    cluster: Cluster, demand: FloatArray, executors: int, allowed_types: BoolArray, ctx: PlacementContext
) -> Assignment | None:
    """Exact placement (Algorithm 2 of paper 003); see :mod:`scheduling.placement.exact`."""
    from .exact import place_ilp as exact  # imported on first use: it loads the solvers

    return exact(cluster, demand, executors, allowed_types, ctx)


PlaceFn = Callable[[Cluster, FloatArray, int, BoolArray, PlacementContext], "Assignment | None"]

PLACEMENT_FUNCTIONS: dict[str, PlaceFn] = {
    "bfd": place_bfd,
    "ilp": place_ilp,
    "consolidate": place_consolidate,
    "spread": place_spread,
}

__all__ = ["PLACEMENT_FUNCTIONS", "PlaceFn", "place_bfd", "place_consolidate", "place_ilp", "place_spread"]
