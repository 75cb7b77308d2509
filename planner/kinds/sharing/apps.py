from __future__ import annotations

from planner.runs import kinds


class SharingConfig(kinds.RunKindConfig):
    name = "planner.kinds.sharing"
    label = "kind_sharing"
    verbose_name = "Sharing study (papers 000 §V, 001)"
    kind_class = "planner.kinds.sharing.kind.SharingKind"
