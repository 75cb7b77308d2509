from __future__ import annotations

from planner.runs import kinds


class ReproduceConfig(kinds.RunKindConfig):
    name = "planner.kinds.reproduce"
    label = "kind_reproduce"
    verbose_name = "Reproductions of the papers' tables and figures"
    kind_class = "planner.kinds.reproduce.kind.ReproduceKind"
