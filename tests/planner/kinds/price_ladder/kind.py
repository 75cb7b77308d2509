"""The price ladder's ``RunKind``: one part per factor, each one library call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from planner.reports import ReportBody
from planner.reports.tables import summary_table
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from scheduling import Scenario, lower_bound_cost
from scheduling.params import Preset
from scheduling.tables import comparison_table, show

from .ladder import LADDER_METRICS, LADDER_PARAMS, PRESETS, ladder_run, repriced_bound


def _label(factor: float) -> str:
    return f"x{factor:g}"


class LadderKind(RunKind):
    """The scenario's lower bound with every VM price scaled by each factor."""

    key = "ladder"
    label = "Price ladder"
    variant_name = "factor"
    params = LADDER_PARAMS
    results_template = "kinds/ladder/results.html"
    report_formats = ("csv", "pdf")
    start_url = "web:ladder-start"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = ladder_run(params)
        parts = [PartSpec(_label(f), {"factor": f}) for f in options["factors"]]
        return RunPlan(options, parts, f"{scenario.name if scenario else '?'}: price ladder")

    def prepare(self, scenario: Scenario, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"base_bound": lower_bound_cost(scenario)}

    def execute(self, scenario: Scenario, options: Mapping[str, Any], context: Mapping[str, Any],
                payload: Mapping[str, Any], *, progress: Progress) -> list[Variant]:
        factor = float(payload["factor"])
        progress(0.5)
        bound = repriced_bound(scenario, factor)
        progress(1.0)
        return [Variant(_label(factor), {"factor": factor, "lower_bound_cost": bound,
                                         "base_bound": context["base_bound"]})]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return {"lower_bound_cost": document["lower_bound_cost"]}

    def table(self, summaries: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any],
              baseline: str | None, currency: str) -> dict[str, Any]:
        return dict(comparison_table(summaries, baseline=baseline, currency=currency, metrics=LADDER_METRICS))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        top = max(s["lower_bound_cost"] for s in summaries.values())
        return Headline(show(top, "money", currency), "highest bound")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        return {"ladder": {"data": [{"type": "bar", "x": list(results),
                                     "y": [r["lower_bound_cost"] for r in results.values()]}],
                           "layout": {"title": {"text": f"Lower bound ({currency})"}}}}

    def report(self, *, results: Mapping[str, Mapping[str, Any]], options: Mapping[str, Any],
               baseline: str | None, currency: str) -> ReportBody:
        comparison = comparison_table(results, baseline=baseline, currency=currency, metrics=LADDER_METRICS,
                                      detail=True)
        return ReportBody(subtitle="price ladder", comparison=comparison,
                          tables=[summary_table(comparison, "Factor")],
                          figures=self.figures(results, currency=currency) or {})

    def presets(self) -> Sequence[Preset]:
        return PRESETS

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        return {"note": f"{len(summaries)} factors"}
