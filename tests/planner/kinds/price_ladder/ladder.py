"""The price ladder's "library" part: its parameters declared once, the computation of one part,
its metric. (A real kind keeps these in its paper's package under ``scheduling/``.)"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from scheduling import ScenarioError, lower_bound_cost
from scheduling.errors import FieldError
from scheduling.numbers import finite
from scheduling.params import Param, Preset, TextForm, read_params
from scheduling.scenario import Scenario
from scheduling.tables import Metric


def _factors(text: str, path: str) -> list[float]:
    out = []
    for i, word in enumerate(text.replace(",", " ").split()):
        try:
            out.append(float(word))
        except ValueError:
            raise ScenarioError([FieldError(f"{path}[{i}]", f"{word!r} is not a number")]) from None
    return out


LADDER_PARAMS: tuple[Param, ...] = (
    Param("factors", "list", "Price factors", "Each VM price is multiplied by each factor in turn.",
          default=[0.5, 1.0, 2.0], item=Param("factor", "number", minimum=0, exclusive_minimum=True),
          min_items=1, max_items=10, unique=True, variants=True,
          text=TextForm(_factors, lambda v: " ".join(f"{x:g}" for x in v), "0.5 1 2")),
)

#: The kind's one row in the comparison table: its metric, the shared table machinery.
LADDER_METRICS = (
    Metric("lower_bound_cost", "Lower bound", "money", ("lower_bound_cost",),
           lambda h, _base: finite(h.get("lower_bound_cost")), better="lower",
           note="No schedule of the repriced cluster can cost less."),
)

PRESETS = (
    Preset("halves-and-doubles", "Halve and double every price", "The bound at 0.5x, 1x and 2x the prices.",
           None, {"factors": [0.5, 1.0, 2.0]}),
)


def ladder_run(params: Mapping[str, Any]) -> dict[str, Any]:
    """The run's options: its factors, checked by the declarations (``factors[1]: ...``)."""
    return read_params(LADDER_PARAMS, params, what="a price ladder")


def repriced_bound(scenario: Scenario, factor: float) -> float:
    """The lower bound of ``scenario`` with every VM price multiplied by ``factor``."""
    return lower_bound_cost(dataclasses.replace(scenario, vm_types=tuple(
        dataclasses.replace(t, price_per_hour=t.price_per_hour * factor) for t in scenario.vm_types)))
