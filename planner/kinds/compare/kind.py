"""The scheduler comparison (paper 003): one part per scheduler, the lower bound once per run.

Its parameters, their checks and defaults are the library's (:mod:`scheduling.cost.params`), its
tables and figures too (:mod:`scheduling.cost.tables`, :mod:`scheduling.cost.charts`); the
report content is laid out in :mod:`.report`, the pages are :mod:`.views`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.urls import reverse

from planner.reports import FORMATS, ReportBody
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from scheduling import Scenario, lower_bound_cost, simulate
from scheduling.charts import scheduler_colours
from scheduling.cost.charts import all_figures, gantt_figure, gantt_page_size, join_figures, variant_figures
from scheduling.cost.document import DETAIL_SECTIONS
from scheduling.cost.params import COMPARISON_PARAMS, comparison_run
from scheduling.cost.setups import presets
from scheduling.cost.tables import (
    COST_METRICS,
    RECOMMENDATION_RULE,
    headline,
    recommendation,
    recommendation_text,
)
from scheduling.params import Preset
from scheduling.tables import comparison_table

from .report import comparison_report


class CompareKind(RunKind):
    """Simulate several schedulers on one scenario and compare their cost, deadlines and fairness."""

    key = "compare"
    label = "Scheduler comparison"
    variant_name = "scheduler"
    params = COMPARISON_PARAMS
    results_template = "kinds/compare/results.html"
    scripts = ("planner/charts.js", "planner/kinds/compare/results.js", "planner/kinds/compare/replay.js")
    report_formats = tuple(FORMATS)
    large_result_keys = DETAIL_SECTIONS
    start_url = "web:compare-start"
    question = "Compare schedulers on a cluster"
    pages = (("Compare runs", "web:compare-side-by-side"),)

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = comparison_run(params, scenario=scenario,
                                 max_variants=settings.PLANNER_MAX_VARIANTS_PER_RUN)
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
        # Deadline misses first, then cost (scheduling.cost.tables.RECOMMENDATION_RULE).
        picks = recommendation(summaries, currency=currency)
        return Headline(picks[0]["shown"], recommendation_text(picks), RECOMMENDATION_RULE) if picks else None

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        figures = all_figures(dict(results), currency=currency)
        json.dumps(figures, allow_nan=False)  # the figures must be plain JSON
        return dict(figures)

    def variant_figures(self, variant: Variant, *, options: Mapping[str, Any]) -> dict[str, Any] | None:
        # The scheduler's Gantt chart and fairness figures, and the digest the figures over every
        # scheduler are joined from (the library's split of all_figures: the same figures).
        schedulers = len(options.get("schedulers") or []) or 1
        piece = variant_figures(variant.label, variant.document, schedulers=schedulers)
        json.dumps(piece, allow_nan=False)
        return piece

    def join_figures(
        self, pieces: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any], currency: str
    ) -> dict[str, Any] | None:
        return dict(join_figures(pieces, currency=currency))

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
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportBody:
        return comparison_report(results, baseline=baseline, currency=currency)

    def settings(self, options: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """The schedulers, the run options they override (or that the scenario's own were used)
        and the seed, labelled as declared. The baseline is not a setting here: the run page and
        the reports show the one chosen there."""
        label = {p.name: p.label for p in self.params}
        return [
            (label["schedulers"], ", ".join(options.get("schedulers") or [])),
            (label["options"], options_text(options.get("options"))),
            (label["seed"], int(options.get("seed") or 0)),
        ]

    def presets(self) -> Sequence[Preset]:
        return presets()

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        variants: Sequence[str] = list(summaries)
        return {
            "colours": scheduler_colours(variants),
            "plotly": True,
            "actions": (
                [{"label": "What if…", "url": reverse("web:compare-what-if", args=[run.pk])},
                 {"label": "Compare with…", "url": f"{reverse('web:compare-side-by-side')}?b={run.pk}"}]
                if run.status == "succeeded"
                else []
            ),
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {
            "schedulers": list(run.options.get("schedulers") or []),
            "baseline": run.options.get("baseline"),
            "seed": int(run.options.get("seed") or 0),
            "options": run.options.get("options"),
        }


def _override(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def options_text(options: Mapping[str, Any] | None) -> str:
    """A run's option overrides as ``key=value`` overrides are written (a scheduler spec's,
    the command line's ``--option``), or that it used the scenario's own.

    >>> options_text({"rut": {"cpu": 0.6, "mem": 0.4}, "boot_time_s": 30.0, "edf_backfill": True})
    'rut.cpu=0.6, rut.mem=0.4, boot_time_s=30, edf_backfill=yes'
    >>> options_text(None)
    "the scenario's own"
    """
    if not options:
        return "the scenario's own"
    items: list[str] = []
    for key, value in options.items():
        if isinstance(value, Mapping):  # per resource: rut.cpu=0.6
            items.extend(f"{key}.{name}={_override(v)}" for name, v in value.items())
        else:
            items.append(f"{key}={_override(value)}")
    return ", ".join(items)
