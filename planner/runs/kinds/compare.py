"""The scheduler comparison (paper 003): one part per scheduler, the lower bound once per run."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.conf import settings

from planner.core.errors import FieldError, InputError
from planner.reports import FORMATS, ReportContent, cost_report
from scheduling import (
    DEFAULT_RESOURCES,
    Scenario,
    ScenarioError,
    SimulationOptions,
    lower_bound_cost,
    parse_scheduler,
    simulate,
)
from scheduling.charts import scheduler_colours
from scheduling.cost.charts import all_figures, gantt_figure, gantt_page_size
from scheduling.cost.tables import COST_METRICS, cheapest, headline
from scheduling.numbers import seed_error
from scheduling.tables import comparison_table

from . import Headline, PartSpec, Progress, RunKind, RunPlan, Variant, register

logger = logging.getLogger(__name__)


def comparison_options(
    scenario: Scenario | None, *, schedulers: Any, options: Any, baseline: Any, seed: Any
) -> dict[str, Any]:
    """The run's ``options`` JSON, every part checked by the library against the scenario.

    Paths name the request's fields: ``schedulers[1]: unknown placement ...``,
    ``options.rut: weights must sum to 1 ...``, ``baseline``, ``seed``. With ``scenario``
    None (it was invalid) they are checked against the default resources, so that one
    response can report every problem.
    """
    errors: list[FieldError] = []
    if schedulers is None:
        schedulers = list(settings.PLANNER_DEFAULT_SCHEDULERS)
    resources = scenario.resources if scenario is not None else DEFAULT_RESOURCES
    base = scenario.options if scenario is not None else SimulationOptions()
    scenario_options = base
    if options is not None:
        if not isinstance(options, Mapping):
            errors.append(FieldError("options", "must be an object (or null for the scenario's own options)"))
        else:
            try:
                base = SimulationOptions.from_dict(options, resources=resources, base=scenario_options)
            except ScenarioError as exc:
                errors.extend(exc.errors)
    specs: list[str] = []
    limit = int(settings.PLANNER_MAX_SCHEDULERS_PER_RUN)
    if not isinstance(schedulers, list) or not schedulers:
        errors.append(FieldError("schedulers", "must be a non-empty list of scheduler specs such as edf-bfd"))
    elif len(schedulers) > limit:
        errors.append(FieldError("schedulers", f"lists {len(schedulers)} schedulers; the limit is {limit}"))
    else:
        for i, spec in enumerate(schedulers):
            path = f"schedulers[{i}]"
            try:
                parsed = parse_scheduler(spec, resources=resources, base=base, path=path)
            except ScenarioError as exc:
                errors.extend(exc.errors)
                continue
            if parsed.spec in specs:
                errors.append(FieldError(path, f"{parsed.spec!r} is listed twice"))
                continue
            specs.append(parsed.spec)
    if baseline is None or baseline == "":
        baseline = specs[0] if specs else None
    elif not isinstance(baseline, str) or (specs and baseline.strip() not in specs):
        errors.append(FieldError("baseline", "must be one of the run's schedulers"))
    else:
        baseline = baseline.strip()
    if seed is None:
        seed = 0
    if seed_error(seed) is not None:
        errors.append(FieldError("seed", str(seed_error(seed))))
    if errors:
        raise InputError(errors)
    return {
        "schedulers": specs,
        "baseline": baseline,
        "seed": seed,
        "options": dict(options) if options else None,
    }


PARAMS = ("schedulers", "options", "baseline", "seed")


class CompareKind(RunKind):
    """Simulate several schedulers on one scenario and compare their cost, deadlines and fairness."""

    key = "compare"
    label = "Scheduler comparison"
    variant_name = "scheduler"
    results_template = "web/kinds/compare.html"
    scripts = ("planner/charts.js", "planner/kinds/compare.js", "planner/kinds/replay.js")
    report_formats = tuple(FORMATS)
    new_run_url = "web:run-new"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        unknown = [key for key in params if key not in PARAMS]
        if unknown:
            raise InputError(
                FieldError(key, f"unknown field (a comparison takes {', '.join(PARAMS)})") for key in unknown
            )
        options = comparison_options(
            scenario,
            schedulers=params.get("schedulers"),
            options=params.get("options"),
            baseline=params.get("baseline"),
            seed=params.get("seed", 0),
        )
        specs: list[str] = options["schedulers"]
        name = f"{scenario.name if scenario else 'scenario'}: {' vs '.join(specs)}"
        return RunPlan(options, [PartSpec(spec, {"scheduler": spec}) for spec in specs], name)

    def prepare(self, scenario: Scenario, options: Mapping[str, Any]) -> dict[str, Any]:
        # The bound depends on the scenario alone (bounds.py): solve its small LP once, not per part.
        return {"lower_bound_cost": lower_bound_cost(scenario)}

    def execute(
        self,
        scenario: Scenario,
        options: Mapping[str, Any],
        context: Mapping[str, Any],
        payload: Mapping[str, Any],
        *,
        progress: Progress,
    ) -> list[Variant]:
        spec = str(payload["scheduler"])
        bound = context.get("lower_bound_cost")
        result = simulate(
            scenario,
            scheduler=spec,
            options=options.get("options"),
            seed=int(options.get("seed") or 0),
            progress=progress,
            lower_bound=float(bound) if isinstance(bound, (int, float)) else None,
        )
        return [Variant(spec, result.to_dict())]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        # Exactly what the cost metrics (scheduling.cost.tables) read; savings are computed on read.
        return headline(document)

    def table(
        self, summaries: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any], baseline: str | None,
        currency: str,
    ) -> dict[str, Any]:
        return dict(comparison_table(summaries, baseline=baseline, currency=currency, metrics=COST_METRICS))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        best = cheapest(summaries, currency=currency)
        return None if best is None else Headline(best["shown"], f"cheapest: {best['variant']}")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        figures = all_figures(dict(results), currency=currency)
        json.dumps(figures, allow_nan=False)  # the figures must be plain JSON
        return dict(figures)

    def figure_page(
        self, key: str, page: int, *, load: Callable[[str], Mapping[str, Any]], variants: Sequence[str],
        currency: str,
    ) -> dict[str, Any] | None:
        name, _, variant = key.partition(":")
        if name != "gantt" or variant not in variants:
            return None
        # The same page size as the first page, cached with the run's figures.
        return gantt_figure(load(variant), gantt_page_size(len(variants)), page=page)

    def report(
        self,
        *,
        meta: Mapping[str, Any],
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportContent:
        return cost_report(meta, results, baseline=baseline, currency=currency)

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        from django.urls import reverse

        variants: Sequence[str] = list(summaries)
        return {
            "colours": scheduler_colours(variants),
            "plotly": True,
            "actions": [
                *(
                    [{"label": "Compare with…", "url": f"{reverse('web:run-compare')}?b={run.pk}"}]
                    if run.status == "succeeded"
                    else []
                ),
                *(
                    [{"label": "Clone…", "url": f"{reverse('web:run-new')}?clone={run.pk}"}]
                    if run.is_finished
                    else []
                ),
            ],
            "settings": [
                ("Schedulers", ", ".join(run.options.get("schedulers") or [])),
                ("Baseline", run.options.get("baseline") or "the first"),
                ("Options", options_text(run.options.get("options"))),
            ],
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {
            "schedulers": list(run.options.get("schedulers") or []),
            "baseline": run.options.get("baseline"),
            "seed": int(run.options.get("seed") or 0),
            "options": run.options.get("options"),
        }


def options_text(options: Mapping[str, Any] | None) -> str:
    """``key=value, ...`` of a run's option overrides, or that it used the scenario's own."""
    if not options:
        return "the scenario's own"
    return ", ".join(f"{key}={value}" for key, value in options.items())


register(CompareKind())
