from __future__ import annotations

from planner.runs import kinds


class UdrfConfig(kinds.RunKindConfig):
    name = "planner.kinds.udrf"
    label = "kind_udrf"
    verbose_name = "UDRF study (paper 004)"
    kind_class = "planner.kinds.udrf.kind.UdrfKind"
