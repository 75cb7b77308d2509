"""The static allocation study (paper 000, Sections III-IV): one part per allocation variant.

A variant is a spec of :func:`scheduling.fairness.allocation.parse_allocation_variant`
(``drf/rrr``, ``psdsf/joint``, ``bf-drf``, ``pf/fractional``); each part calls
:func:`scheduling.fairness.allocation.allocate` once. When the run has a PF variant, the PF
allocation is the reference of every variant's PF inequality (paper 000, eq. 9): each part
solves it for itself (the PF part uses its own allocation), so that parts stay independent
and no optimisation runs in the request that starts the run.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.urls import reverse

from planner.core.errors import FieldError, InputError
from planner.reports import FORMATS, ReportContent
from planner.reports.fairness import fairness_report
from scheduling import Scenario, ScenarioError
from scheduling.charts import variant_colours
from scheduling.fairness.allocation import (
    EXACT_POLICIES,
    Allocation,
    AllocationVariant,
    allocate,
    parse_allocation_variant,
)
from scheduling.fairness.charts import allocation_figures
from scheduling.fairness.model import fairness_problem
from scheduling.fairness.tables import allocation_framework_table, allocation_summary, fairness_table
from scheduling.numbers import finite, seed_error
from scheduling.tables import show

from . import Headline, PartSpec, Progress, RunKind, RunPlan, Variant, register

__all__ = ["PARAMS", "AllocationKind", "allocation_options", "check_seed"]

#: Trials of progressive filling per variant (each trial fills the whole cluster once).
TRIALS_MAX = 100_000
DEFAULT_VARIANTS = ("drf/rrr", "tsf/rrr", "psdsf/rrr", "rpsdsf/joint", "bf-drf")
PARAMS = ("variants", "trials", "seed", "baseline")


def check_seed(seed: Any, errors: list[FieldError], path: str = "seed") -> int:
    """``seed`` (0 by default) or an error on ``path`` (the library's rule)."""
    if seed is None:
        return 0
    problem = seed_error(seed)
    if problem is not None:
        errors.append(FieldError(path, problem))
        return 0
    return int(seed)


def _limit() -> int:
    return int(getattr(settings, "PLANNER_MAX_SCHEDULERS_PER_RUN", 12))


def allocation_options(scenario: Scenario | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The run's ``options`` JSON, checked by the library; errors name the request's fields
    (``variants[2]: unknown policy 'drx' ...``, ``trials``, ``seed``, ``frameworks[1].task_demand``)."""
    errors: list[FieldError] = [
        FieldError(key, f"unknown field (an allocation study takes {', '.join(PARAMS)})")
        for key in params if key not in PARAMS
    ]
    raw = params.get("variants")
    if raw is None:
        raw = list(DEFAULT_VARIANTS)
    parsed: list[AllocationVariant] = []
    if not isinstance(raw, list) or not raw:
        errors.append(FieldError("variants", "must be a non-empty list of variant specs such as drf/rrr, "
                                             "psdsf/joint, bf-drf or pf/fractional"))
    elif len(raw) > _limit():
        errors.append(FieldError("variants", f"lists {len(raw)} variants; the limit is {_limit()}"))
    else:
        for i, spec in enumerate(raw):
            path = f"variants[{i}]"
            try:
                variant = parse_allocation_variant(spec, path=path)
            except ScenarioError as exc:
                errors.extend(exc.errors)
                continue
            if any(v.spec == variant.spec for v in parsed):
                errors.append(FieldError(path, f"{variant.spec!r} is listed twice"))
                continue
            parsed.append(variant)
    trials = params.get("trials", 1)
    if trials is None:
        trials = 1
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= TRIALS_MAX:
        errors.append(FieldError("trials", f"must be a whole number from 1 to {TRIALS_MAX:,}"))
    seed = check_seed(params.get("seed", 0), errors)
    labels = [v.label for v in parsed]
    baseline = params.get("baseline")
    if baseline in (None, ""):
        baseline = labels[0] if labels else None
    elif baseline not in labels and baseline not in [v.spec for v in parsed]:
        errors.append(FieldError("baseline", "must be one of the run's variants"))
    else:
        baseline = next((v.label for v in parsed if baseline in (v.spec, v.label)), baseline)
    if scenario is not None:
        try:
            fairness_problem(scenario)  # every framework needs a task demand: say so now
        except ScenarioError as exc:
            errors.extend(exc.errors)
    if errors:
        raise InputError(errors)
    # The reference of eq. (9): the fractional PF optimum when the run has it, else the integer one.
    pf = [v.spec for v in parsed if v.policy == "pf"]
    reference = "pf/fractional" if "pf/fractional" in pf else (pf[0] if pf else None)
    return {
        "variants": [v.spec for v in parsed],
        "labels": labels,
        "trials": trials,
        "seed": seed,
        "baseline": baseline,
        "pf_reference": reference,
    }


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
    results_template = "web/kinds/allocation.html"
    scripts = ("planner/charts.js", "planner/kinds/fairness.js")
    report_formats = tuple(FORMATS)
    new_run_url = "web:allocation-new"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = allocation_options(scenario, params)
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
        totals = [(finite(s.get("total_tasks")), label) for label, s in summaries.items()]
        known = [(v, label) for v, label in totals if v is not None]
        if not known:
            return None
        value, label = max(known, key=lambda item: item[0])
        return Headline(f"{show(value, 'tasks')} tasks", f"most tasks: {label}")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        figures = allocation_figures(dict(results))
        json.dumps(figures, allow_nan=False)  # the figures must be plain JSON
        return dict(figures)

    def report(
        self,
        *,
        meta: Mapping[str, Any],
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportContent:
        return fairness_report(meta, results, baseline=baseline, currency=currency, details=[
            ("Variants", ", ".join(options.get("variants") or [])),
            ("Trials", int(options.get("trials") or 1)),
            ("Seed", int(options.get("seed") or 0)),
            ("PF reference (eq. 9)", str(options.get("pf_reference") or "none")),
        ])

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        variants: Sequence[str] = list(summaries)
        return {
            "colours": variant_colours(variants),
            "plotly": True,
            # every criterion per framework: the CLI's, the HTML page's and the reports' table
            "criteria_table": allocation_framework_table(summaries, currency=currency) if summaries else None,
            "actions": (
                [{"label": "Clone…", "url": f"{reverse('web:allocation-new')}?clone={run.pk}"}]
                if run.is_finished else []
            ),
            "settings": [
                ("Variants", ", ".join(run.options.get("variants") or [])),
                ("Trials", run.options.get("trials")),
                ("PF reference (eq. 9)", run.options.get("pf_reference") or "none"),
            ],
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"variants": list(run.options.get("variants") or [])}


register(AllocationKind())
