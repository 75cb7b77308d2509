"""The allocation study's start form: the shared start form (the scenario and the fields of
:data:`scheduling.fairness.params.ALLOCATION_PARAMS`), with the page's own suggestion of trials
and the ticked policies in the page's order."""

from __future__ import annotations

from typing import Any

from planner.web.start import StartForm
from scheduling.params import param_named

__all__ = ["AllocationStartForm"]

#: Trials the page suggests. A request that gives none runs the declared default (1, the
#: library's and the API's); on the page, the randomised policies' means and spreads over 100
#: trials are what its table (± a standard deviation) and heatmaps are for.
PAGE_TRIALS = 100


class AllocationStartForm(StartForm):
    """An allocation study: its scenario, the policies (tick boxes), trials, seed and baseline."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["trials"].initial = PAGE_TRIALS

    def param_values(self) -> dict[str, Any]:
        """The request's parameters, the ticked policies in the order the page lists them (tick
        boxes have no order of their own; the run's columns follow it)."""
        values = super().param_values()
        if values.get("variants"):
            order = param_named(self.kind.params, "variants").choices
            values["variants"] = sorted(values["variants"], key=order.index)
        return values
