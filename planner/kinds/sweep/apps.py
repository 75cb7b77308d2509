"""The sweep run kind: what if the cluster, its prices, its load or its schedulers were different."""
from __future__ import annotations

from planner.runs import kinds


class SweepConfig(kinds.RunKindConfig):
    name = "planner.kinds.sweep"
    label = "kind_sweep"
    verbose_name = "Sweeps of counts, prices, load and schedulers"
    kind_class = "planner.kinds.sweep.kind.SweepKind"
