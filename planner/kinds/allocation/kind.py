"""The static allocation study (paper 000, Sections III-IV): one part per allocation variant.

A variant is a spec of :func:`scheduling.fairness.allocation.parse_allocation_variant`
(``drf/rrr``, ``psdsf/joint``, ``bf-drf``, ``pf/fractional``); each part calls
:func:`scheduling.fairness.allocation.allocate` once. When the run has a PF variant, the PF
allocation is the reference of every variant's PF inequality (paper 000, eq. 9): each part
solves it for itself (the PF part uses its own allocation), so that parts stay independent
and no optimisation runs in the request that starts the run. The parameters, their checks
and the presets are the library's (:mod:`scheduling.fairness.params`,
:mod:`scheduling.fairness.presets`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings

from planner.reports import FORMATS, ReportBody
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from scheduling import Scenario
from scheduling.charts import variant_colours
from scheduling.fairness.allocation import (
    EXACT_POLICIES,
    Allocation,
    AllocationVariant,
    allocate,
    parse_allocation_variant,
)
from scheduling.fairness.charts import allocation_figures
from scheduling.fairness.params import ALLOCATION_PARAMS, allocation_run
from scheduling.fairness.presets import study_presets
from scheduling.fairness.tables import (
    allocation_framework_table,
    allocation_summary,
    fairness_metrics,
    fairness_table,
)
from scheduling.params import Preset
from scheduling.tables import best_variant

from .report import allocation_report

__all__ = ["AllocationKind"]


def _allocate(scenario: Scenario, variant: AllocationVariant, options: Mapping[str, Any], *,
              progress: Progress | None, pf_reference: Allocation | None = None) -> Allocation:
    exact = variant.policy in EXACT_POLICIES
    return allocate(
        scenario,
        policy=variant.policy,
        servers=None if exact else variant.servers,
        trials=1 if exact else int(options.get("trials") or 1),
        seed=None if exact else int(options.get("seed") or 0),
        integer=variant.integer if exact else None,
        pf_reference=pf_reference,
        progress=progress,
        label=variant.label,
    )


class AllocationKind(RunKind):
    """Allocate one cluster to its frameworks under several policies and compare the allocations."""

    key = "allocation"
    label = "Allocation study"
    variant_name = "policy"
    params = ALLOCATION_PARAMS
    results_template = "kinds/allocation/results.html"
    scripts = ("planner/charts.js", "planner/variant_charts.js")
    report_formats = tuple(FORMATS)
    start_url = "web:allocation-start"
    question = "Split a cluster fairly between frameworks"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = allocation_run(params, scenario=scenario,
                                 max_variants=settings.PLANNER_MAX_VARIANTS_PER_RUN)
        parts = [
            PartSpec(label, {"variant": spec})
            for spec, label in zip(options["variants"], options["labels"], strict=True)
        ]
        name = f"{scenario.name if scenario else 'scenario'}: allocation of {', '.join(options['labels'])}"
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
        variant = parse_allocation_variant(str(payload["variant"]), path="variant")
        reference_spec = options.get("pf_reference")
        if reference_spec is None:
            result = _allocate(scenario, variant, options, progress=progress)
        elif reference_spec == variant.spec:
            result = _allocate(scenario, variant, options, progress=progress)
            result = dataclasses.replace(result, pf_reference=result)  # eq. (9) against itself: 0
        else:
            pf = parse_allocation_variant(str(reference_spec), path="pf_reference")
            reference = _allocate(scenario, pf, options, progress=lambda f: progress(0.5 * f))
            result = _allocate(scenario, variant, options, progress=lambda f: progress(0.5 + 0.5 * f),
                               pf_reference=reference)
        return [Variant(variant.label, result.to_dict())]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return allocation_summary(document)

    def table(
        self, summaries: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any], baseline: str | None,
        currency: str,
    ) -> dict[str, Any]:
        return dict(fairness_table(summaries, baseline=baseline, currency=currency))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        best = best_variant(summaries, "total_tasks", metrics=fairness_metrics(summaries))
        return None if best is None else Headline(f"{best['shown']} tasks", f"most tasks: {best['variant']}")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        figures = allocation_figures(dict(results))
        json.dumps(figures, allow_nan=False)  # the figures must be plain JSON
        return dict(figures)

    def report(
        self,
        *,
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportBody:
        return allocation_report(results, baseline=baseline, currency=currency)

    def settings(self, options: Mapping[str, Any]) -> list[tuple[str, Any]]:
        reference = str(options.get("pf_reference") or "none")
        return [*super().settings(options), ("PF reference (eq. 9)", reference)]

    def presets(self) -> Sequence[Preset]:
        return study_presets("allocation")

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        variants: Sequence[str] = list(summaries)
        return {
            "colours": variant_colours(variants),
            "plotly": True,
            # every criterion per framework: the CLI's, the HTML page's and the reports' table
            "criteria_table": allocation_framework_table(summaries, currency=currency) if summaries else None,
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"variants": list(run.options.get("variants") or [])}
