from __future__ import annotations

from planner.runs import kinds


class CheapestConfig(kinds.RunKindConfig):
    name = "planner.kinds.cheapest"
    label = "kind_cheapest"
    verbose_name = "The cheapest cluster (issue 18)"
    kind_class = "planner.kinds.cheapest.kind.CheapestKind"
