from __future__ import annotations

from planner.runs import kinds


class AllocationConfig(kinds.RunKindConfig):
    name = "planner.kinds.allocation"
    label = "kind_allocation"
    verbose_name = "Allocation study (paper 000)"
    kind_class = "planner.kinds.allocation.kind.AllocationKind"
