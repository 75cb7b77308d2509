"""Executor placement policies: ``{name: function}`` with one signature.

``place(cluster, demand, executors, allowed_types, ctx) -> {machine: executors} | None``

A policy reads the cluster and returns where the job's executors go, whole, or ``None`` when the
job cannot be placed now; it never changes the cluster. ``bfd``, ``consolidate`` and ``spread``
live in :mod:`~scheduling.cost.placement.heuristics`; ``ilp`` (Algorithm 2 of paper 003) in
:mod:`~scheduling.cost.placement.exact`, on top of the covering knapsack of
:mod:`~scheduling.cost.placement.knapsack`.

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
    """Exact placement (Algorithm 2 of paper 003); see :mod:`scheduling.cost.placement.exact`."""
    global _exact
    if _exact is None:
        from .exact import place_ilp as exact  # imported on first use: it loads the solvers

        _exact = exact
    return _exact(cluster, demand, executors, allowed_types, ctx)


PlaceFn = Callable[[Cluster, FloatArray, int, BoolArray, PlacementContext], "Assignment | None"]
_exact: PlaceFn | None = None  # the exact placement, once imported

PLACEMENT_FUNCTIONS: dict[str, PlaceFn] = {
    "bfd": place_bfd,
    "ilp": place_ilp,
    "consolidate": place_consolidate,
    "spread": place_spread,
}

#: One line for people per placement, in the paper's words (the new-comparison page shows it).
PLACEMENT_DESCRIPTIONS: dict[str, str] = {
    "bfd": "best-fit decreasing: VMs already on first, then the smallest VM that fits (Algorithm 3)",
    "ilp": "the cheapest VMs to turn on for the whole job, exact per decision (Algorithm 2, eqs. 1-4): "
           "optimal for each job as it starts, not over the run, so it can cost more overall than BFD",
    "consolidate": "packed onto the VMs in listed order, whatever their price (FIFO and Morpheus baselines)",
    "spread": "round-robin over every VM (Spark's default spreading, Fig. 3a)",
}

__all__ = [
    "PLACEMENT_DESCRIPTIONS",
    "PLACEMENT_FUNCTIONS",
    "PlaceFn",
    "place_bfd",
    "place_consolidate",
    "place_ilp",
    "place_spread",
]
