"""Executor placement policies: ``{name: function}`` with one signature.

``place(cluster, demand, executors, allowed_types, ctx) -> {machine: executors} | None``
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..cluster import Cluster, PlacementContext
from .heuristics import place_bfd, place_consolidate, place_spread


def place_ilp(
    cluster: Cluster, demand: np.ndarray, executors: int, allowed_types: np.ndarray, ctx: PlacementContext
) -> dict[int, int] | None:
    """Exact placement (Algorithm 2 of paper 003); see :mod:`scheduling.placement.exact`."""
    from .exact import place_ilp as exact  # imported on first use: it loads the solvers

    return exact(cluster, demand, executors, allowed_types, ctx)


PlaceFn = Callable[[Cluster, np.ndarray, int, np.ndarray, PlacementContext], "dict[int, int] | None"]

PLACEMENT_FUNCTIONS: dict[str, PlaceFn] = {
    "bfd": place_bfd,
    "ilp": place_ilp,
    "consolidate": place_consolidate,
    "spread": place_spread,
}

__all__ = ["PLACEMENT_FUNCTIONS", "place_bfd", "place_consolidate", "place_ilp", "place_spread"]
