"""The online sharing study (paper 000 Section V, paper 001): configurations side by side.

A configuration is one call of :func:`scheduling.fairness.sharing.share`: the allocation
mode (the Mesos offer cycle or workload-characterized), the criterion, the server
selection, the allocation interval, a seed, per-framework overrides of the offer cycle
(``offer_policy``, ``refuse_s``, ``hold_s``), for example "refuse 0 s" against "refuse 5 s",
and the offer cycle's rules (Mesos 1.3's and Marathon 1.4's by default, each one an option).
One part per configuration. The parameters, their checks and the presets are the library's
(:mod:`scheduling.fairness.params`, :mod:`scheduling.fairness.presets`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings

from planner.reports import FORMATS, ReportBody
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from scheduling import Scenario
from scheduling.charts import variant_colours
from scheduling.fairness.charts import sharing_figures
from scheduling.fairness.params import RULE_PARAMS, SHARING_PARAMS, configuration_text, sharing_run
from scheduling.fairness.presets import study_presets
from scheduling.fairness.sharing import share
from scheduling.fairness.tables import fairness_metrics, fairness_table, sharing_summary
from scheduling.params import Preset
from scheduling.tables import best_variant

from .report import sharing_report

__all__ = ["SharingKind"]


class SharingKind(RunKind):
    """Simulate frameworks sharing a cluster under several configurations; compare their unfairness."""

    key = "sharing"
    label = "Sharing study"
    variant_name = "configuration"
    params = SHARING_PARAMS
    results_template = "kinds/sharing/results.html"
    scripts = ("planner/charts.js", "planner/variant_charts.js")
    report_formats = tuple(FORMATS)
    start_url = "web:sharing-start"
    question = "See how a shared cluster treats each framework"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = sharing_run(params, scenario=scenario, max_variants=settings.PLANNER_MAX_VARIANTS_PER_RUN)
        labels = [c["label"] for c in options["configurations"]]
        parts = [PartSpec(c["label"], {"configuration": k}) for k, c in enumerate(options["configurations"])]
        name = f"{scenario.name if scenario else 'scenario'}: sharing, {' vs '.join(labels)}"
        return RunPlan(options, parts, name)

    def execute(
        self,
        scenario: Scenario,
        options: Mapping[str, Any],
        context: Mapping[str, Any],
        payload: Mapping[str, Any],
        *,
        progress: Progress,
    ) -> list[Variant]:
        c = options["configurations"][int(payload["configuration"])]
        # a configuration stored before the offer cycle's rules were options has none: Mesos' defaults
        rules = {p.name: c[p.name] for p in RULE_PARAMS if c.get(p.name) is not None}
        result = share(
            scenario, mode=c["mode"], criterion=c["criterion"], servers=c["servers"],
            allocation_interval_s=c["allocation_interval_s"], seed=c["seed"],
            overrides=c["overrides"] or None, horizon_s=c["horizon_s"], label=c["label"], progress=progress,
            **rules,
        )
        return [Variant(c["label"], result.to_dict())]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return sharing_summary(document)

    def table(
        self, summaries: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any], baseline: str | None,
        currency: str,
    ) -> dict[str, Any]:
        return dict(fairness_table(summaries, baseline=baseline, currency=currency))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        best = best_variant(summaries, "worst_unfairness_pct", metrics=fairness_metrics(summaries))
        return None if best is None else Headline(best["shown"], f"least unfair: {best['variant']}")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        figures = sharing_figures(dict(results))
        json.dumps(figures, allow_nan=False)
        return dict(figures)

    def report(
        self,
        *,
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportBody:
        return sharing_report(results, baseline=baseline, currency=currency)

    def settings(self, options: Mapping[str, Any]) -> list[tuple[str, Any]]:
        return [(c["label"], configuration_text(c)) for c in options.get("configurations") or []]

    def presets(self) -> Sequence[Preset]:
        return study_presets("sharing")

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        return {
            "colours": variant_colours(list(summaries)),
            "plotly": True,
            # configurations the simulation stopped before every task finished (not at a horizon)
            "stopped": [
                (label, (s.get("stopped") or {}).get("reason"))
                for label, s in summaries.items()
                if s.get("stopped")
            ],
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"configurations": list(run.options.get("configurations") or [])}
