from __future__ import annotations

from planner.runs import kinds


class PriceLadderConfig(kinds.RunKindConfig):
    name = "tests.planner.kinds.price_ladder"
    label = "kind_price_ladder"
    verbose_name = "Price ladder (the worked example of a run kind)"
    kind_class = "tests.planner.kinds.price_ladder.kind.LadderKind"
