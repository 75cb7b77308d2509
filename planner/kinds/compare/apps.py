from __future__ import annotations

from planner.runs import kinds


class CompareConfig(kinds.RunKindConfig):
    name = "planner.kinds.compare"
    label = "kind_compare"
    verbose_name = "Scheduler comparison (paper 003)"
    kind_class = "planner.kinds.compare.kind.CompareKind"
