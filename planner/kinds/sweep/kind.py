"""Sweeps (issue 18): a scenario varied along axes, every point simulated, the Pareto front marked.

Everything is the library's (:mod:`scheduling.sweep`): the parameters and their checks
(:data:`~scheduling.sweep.params.SWEEP_PARAMS`, :func:`~scheduling.sweep.params.sweep_run`), the
points (:func:`~scheduling.sweep.document.plan_points`), one point's evaluation
(:func:`~scheduling.sweep.evaluate.evaluate_points`), the document the points make
(:func:`~scheduling.sweep.document.sweep_document`), its tables and figures, the presets.

**Parts.** The points are packed into parts by
:func:`scheduling.sweep.expand.point_batches`: consecutive points until the part's estimated
work reaches :data:`~scheduling.sweep.expand.TARGET_PART_S` (1 s), a point's work estimated as
its jobs (the scenario's jobs times its ``load.jobs`` factor) times
:data:`~scheduling.sweep.expand.SECONDS_PER_JOB`. So small points share a part (its claim,
heartbeat and result transaction are paid once for many points) and large points get one part
each (they spread over every worker). A part reports its progress after every point; each point
is one result (``point 17``), so the points of the parts that finished stay when a worker dies
(the lost part alone runs again) or the run is cancelled or fails.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from planner.reports import FORMATS, ReportBody
from planner.reports.content import pick_figures
from planner.reports.tables import detail_as_table, summary_table
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from scheduling import Scenario
from scheduling.charts import scheduler_colours
from scheduling.params import Preset
from scheduling.sweep.charts import all_figures
from scheduling.sweep.document import plan_points, sweep_document
from scheduling.sweep.evaluate import evaluate_points
from scheduling.sweep.expand import TARGET_PART_S, Point, point_batches
from scheduling.sweep.params import SWEEP_PARAMS, sweep_run, vary_text
from scheduling.sweep.setups import presets
from scheduling.sweep.tables import points_table, scheduler_summaries, sweep_metrics
from scheduling.tables import comparison_table, format_money

from .services import point_label

__all__ = ["SweepKind"]

#: Figures the PDF draws, by key or key prefix, in order.
PDF_FIGURES: tuple[str, ...] = (
    "cost-misses", "cost-unfairness", "band:total_cost:", "band:deadline_miss_pct:",
)


def _part_label(batch: Sequence[Point], total: int) -> str:
    first, last = batch[0].point, batch[-1].point
    return f"point {first} of {total}" if first == last else f"points {first}-{last} of {total}"


def _document(options: Mapping[str, Any] | None, records: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    return sweep_document(options, list(records.values()))


class SweepKind(RunKind):
    """Vary counts, prices, load, run options, schedulers and seeds; cost against misses."""

    key = "sweep"
    label = "Sweep"
    variant_name = "point"
    params = SWEEP_PARAMS
    results_template = "kinds/sweep/results.html"
    scripts = ("planner/charts.js", "planner/variant_charts.js")
    report_formats = tuple(FORMATS)
    start_url = "web:sweep-start"
    question = "What if… (sweep counts, prices, load)"

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        return self._plan(scenario, params, jobs=len(scenario.jobs) if scenario else 0)

    def plan_stored(self, scenario: Scenario, params: Mapping[str, Any], *, job_count: int) -> RunPlan:
        return self._plan(scenario, params, jobs=job_count)

    def _plan(self, scenario: Scenario | None, params: Mapping[str, Any], *, jobs: int) -> RunPlan:
        options = sweep_run(params, scenario=scenario)
        points = plan_points(options)
        batches = point_batches(points, jobs=jobs, target_s=TARGET_PART_S)
        parts = [PartSpec(_part_label(b, len(points)), {"points": [p.to_dict() for p in b]}) for b in batches]
        what = vary_text(options["vary"]) or "schedulers and seeds"
        name = f"{scenario.name if scenario else 'scenario'}: sweep of {what}"
        return RunPlan(options, parts, name[:200])

    def execute(self, scenario: Scenario, options: Mapping[str, Any], context: Mapping[str, Any],
                payload: Mapping[str, Any], *, progress: Progress) -> list[Variant]:
        points = [Point.from_dict(p) for p in payload["points"]]
        records = evaluate_points(scenario.to_dict(), points, progress=progress)
        return [Variant(point_label(int(r["point"])), r) for r in records]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        # A point's record is its own summary (a few hundred bytes): the table of every point,
        # the fronts and the bands are made from the summaries alone.
        return dict(document)

    def baseline(self, variants: Sequence[str], options: Mapping[str, Any], asked: str | None) -> str | None:
        return None  # points are compared on a front, not against one of them

    def table(self, summaries: Mapping[str, Mapping[str, Any]], *, options: Mapping[str, Any],
              baseline: str | None, currency: str) -> dict[str, Any]:
        doc = _document(options, summaries)
        return dict(comparison_table(scheduler_summaries(doc), baseline=None, currency=currency,
                                     metrics=sweep_metrics(doc)))

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        costs = [c for s in summaries.values() if isinstance(c := s.get("total_cost"), int | float)]
        if not costs:
            return None
        return Headline(format_money(min(costs), currency), f"cheapest of {len(summaries):,} points")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        return all_figures(_document(None, results), currency=currency) if results else None

    def report(self, *, results: Mapping[str, Mapping[str, Any]], options: Mapping[str, Any],
               baseline: str | None, currency: str) -> ReportBody:
        doc = _document(options, results)
        comparison = comparison_table(scheduler_summaries(doc), baseline=None, currency=currency,
                                      metrics=sweep_metrics(doc), detail=True)
        points = detail_as_table(points_table(doc, currency=currency))
        return ReportBody(
            subtitle="sweep: cost against deadline misses over every point",
            comparison=comparison,
            tables=[summary_table(comparison, "Scheduler"), points],
            figures=pick_figures(all_figures(doc, currency=currency), PDF_FIGURES),
        )

    def settings(self, options: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """The declared parameters' rows, then how many points they make."""
        return [*super().settings(options), ("Points", int(options.get("points") or 0))]

    def presets(self) -> Sequence[Preset]:
        return presets()

    def page_context(self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None,
                     currency: str) -> dict[str, Any]:
        doc = _document(run.options or None, summaries)
        table = points_table(doc, currency=currency)
        numeric = [c["unit"] != "text" for c in table["columns"]]
        rows = [
            {"point": int(p["point"]), "marked": marked,
             "cells": [{"text": t, "numeric": n} for t, n in zip(shown, numeric, strict=True)]}
            for p, shown, marked in zip(doc["points"], table["shown"], table["marked"], strict=True)
        ]
        return {
            "colours": scheduler_colours(list(doc["schedulers"])),
            "plotly": True,
            "what": "Each scheduler over its points.",
            "points_table": table,
            "point_rows": rows,
            "band_axes": list(doc["axes"]),
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"points": int((run.options or {}).get("points") or 0)}
