"""The user dependency graph and its RDUCs (paper 004 Definitions 1-2, notes §7).

Two users depend on each other when their positive gross demands share a resource (a machine
class and resource kind); the RDUCs are the graph's connected components, found here by
breadth-first search over the resources (linear in users plus demands, as the paper's
reference [12]).

>>> rducs([{0, 1}, {1, 2}, {5}, {2}])
[[0, 1, 3], [2]]
>>> edges([{0, 1}, {1, 2}, {5}, {2}])
[(0, 1), (1, 3)]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["edges", "rducs", "users_by_resource"]


def users_by_resource(demanded: Sequence[set[int]]) -> dict[int, list[int]]:
    """Eq. (3): for each resource, the users with positive demand for it, :math:`\\mathcal{U}_{m,k}`."""
    out: dict[int, list[int]] = {}
    for u, resources in enumerate(demanded):
        for r in sorted(resources):
            out.setdefault(r, []).append(u)
    return out


def rducs(demanded: Sequence[set[int]]) -> list[list[int]]:
    """The RDUCs: lists of user indices, each sorted, in order of their first user.

    A user that demands nothing is left out (it has no resource to share).
    """
    by_resource = users_by_resource(demanded)
    seen = [False] * len(demanded)
    out = []
    for start in range(len(demanded)):
        if seen[start] or not demanded[start]:
            continue
        seen[start] = True
        component, queue = [], deque([start])
        while queue:
            u = queue.popleft()
            component.append(u)
            for r in demanded[u]:
                for v in by_resource[r]:
                    if not seen[v]:
                        seen[v] = True
                        queue.append(v)
                by_resource[r] = []  # every user of r is queued: never scan it again
        out.append(sorted(component))
    return out


def edges(demanded: Sequence[set[int]], *, limit: int | None = None) -> list[tuple[int, int]]:
    """Definition 1's edges ``(u, v)``, ``u < v``, sorted; at most ``limit`` of them (a dense
    graph of many users has quadratically many)."""
    by_resource = users_by_resource(demanded)
    out: set[tuple[int, int]] = set()
    for users in by_resource.values():
        for i, u in enumerate(users):
            for v in users[i + 1:]:
                out.add((u, v))
                if limit is not None and len(out) >= limit:
                    return sorted(out)
    return sorted(out)
