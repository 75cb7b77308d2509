from __future__ import annotations

from planner.runs import kinds


class MrsuConfig(kinds.RunKindConfig):
    name = "planner.kinds.mrsu"
    label = "kind_mrsu"
    verbose_name = "MRSU sizing (paper 002)"
    kind_class = "planner.kinds.mrsu.kind.MrsuKind"
