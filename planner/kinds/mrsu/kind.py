"""MRSU sizing (paper 002): the multi-resource schedulable unit of a scenario or an MRSU input.

Parts, each one library call:

* ``allocate`` (one per composition x mode): :func:`scheduling.mrsu.mrsu_result` of the
  requirements, from the run's scenario (:func:`scheduling.mrsu.scenario_problem`) or from
  an MRSU input document (``input``, :func:`scheduling.mrsu.parse_mrsu_input`). Variant
  ``gcd-ft``, ``min-id``...
* ``advise`` (requirements from the scenario only): :func:`scheduling.mrsu.mrsu_advise` of
  the scenario, with the unit the user typed. Variant ``advisor``.
* ``sweep`` (optional, one per load point, so the sweep fans out over workers):
  :func:`scheduling.mrsu.mrsu_sweep` of one load, reporting progress after every chunk of
  seeds. Variants ``sweep 50%``...; the figures join them into one sweep document (Figs. 3-5).

The parameters, their checks and the presets are the library's (:mod:`scheduling.mrsu.params`,
:func:`scheduling.mrsu.setups.presets`); figures come from :mod:`scheduling.mrsu.charts`
(:func:`~scheduling.mrsu.charts.run_figures`); summaries, the comparison table's metrics and
the advisor's rows from :mod:`scheduling.mrsu.tables`; the report's content is :mod:`.report`'s.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from planner.reports import FORMATS, ReportBody
from planner.runs.kinds import Headline, PartSpec, Progress, RunKind, RunPlan, Variant
from scheduling import Scenario
from scheduling.charts import variant_colours
from scheduling.mrsu import mrsu_advise, mrsu_result, mrsu_sweep, parse_mrsu_input, scenario_problem
from scheduling.mrsu.charts import run_figures
from scheduling.mrsu.params import MRSU_PARAMS, mrsu_run, recorded_scenario, unit_text
from scheduling.mrsu.setups import presets
from scheduling.mrsu.tables import MRSU_METRICS, mrsu_tables, result_summary
from scheduling.params import Preset, param_named
from scheduling.tables import best_variant, comparison_table

from .report import mrsu_report

__all__ = ["MrsuKind"]

ADVISOR = "advisor"


def sweep_label(load: float) -> str:
    return f"sweep {round(100 * load, 6):g}%"


def _allocations(summaries: Mapping[str, Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    return {k: v for k, v in summaries.items() if v.get("study") == "mrsu"}


class MrsuKind(RunKind):
    """Compose the MRSU of some requirements, allocate it, measure the misallocation; sweep; advise."""

    key = "mrsu"
    label = "MRSU sizing"
    variant_name = "unit"
    params = MRSU_PARAMS
    results_template = "kinds/mrsu/results.html"
    scripts = ("planner/charts.js", "planner/variant_charts.js")
    report_formats = tuple(FORMATS)
    start_url = "web:mrsu-start"
    question = "Size the unit to sell or schedule in"

    def default_scenario(self, params: Mapping[str, Any]) -> Any | None:
        """A request on an MRSU input that names no scenario records the input's machine."""
        if (params.get("requirements") or "input") == "input" and isinstance(params.get("input"), Mapping):
            return recorded_scenario(params)
        return None

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = mrsu_run(params, scenario=scenario)
        parts = [
            PartSpec(f"{c}-{m}", {"step": "allocate", "composition": c, "mode": m})
            for c in options["compositions"]
            for m in options["modes"]
        ]
        if options["requirements"] == "scenario":
            parts.append(PartSpec(ADVISOR, {"step": "advise"}))
        for i, load in enumerate((options["sweep"] or {}).get("loads") or []):
            parts.append(PartSpec(sweep_label(load), {"step": "sweep", "load": i}))
        what = (options["input"] or {}).get("name") if options["requirements"] == "input" else None
        name = f"{what or (scenario.name if scenario else 'scenario')}: MRSU sizing"
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
        step = payload["step"]
        if step == "allocate":
            base_units = None
            if options["requirements"] == "input":
                problem = parse_mrsu_input(options["input"])
            else:
                problem, base_units = scenario_problem(scenario, slots=int(options["slots"]))
            progress(0.0)
            doc = mrsu_result(
                problem,
                composition=payload["composition"],
                mode=payload["mode"],
                slots_valid=options.get("slots_valid"),
                base_units=base_units,
            )
            return [Variant(f"{payload['composition']}-{payload['mode']}", doc)]
        if step == "advise":
            return [Variant(ADVISOR, mrsu_advise(scenario, unit=options.get("unit")))]
        sweep = options["sweep"]
        load = sweep["loads"][int(payload["load"])]
        doc = mrsu_sweep(
            loads=[load],
            seeds=sweep["seeds"],
            applications=sweep["applications"],
            slots=sweep["slots"],
            seed=sweep["seed"],
            spread=sweep["spread"],
            slots_valid=sweep["slots_valid"],
            progress=progress,
        )
        return [Variant(sweep_label(load), doc)]

    def summary(self, document: Mapping[str, Any]) -> dict[str, Any]:
        return result_summary(document)

    def baseline(self, variants: Sequence[str], options: Mapping[str, Any], asked: str | None) -> str | None:
        units = [v for v in variants if v != ADVISOR and not v.startswith("sweep ")]
        return super().baseline(units, options, asked)

    def table(
        self,
        summaries: Mapping[str, Mapping[str, Any]],
        *,
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> dict[str, Any]:
        return dict(
            comparison_table(
                _allocations(summaries), baseline=baseline, currency=currency, metrics=MRSU_METRICS
            )
        )

    def headline(self, summaries: Mapping[str, Mapping[str, Any]], *, currency: str) -> Headline | None:
        advice = summaries.get(ADVISOR)
        if advice and advice.get("recommended"):
            row = next((r for r in advice.get("candidates") or [] if r["recommended"]), None)
            if row:
                return Headline(row["mrsu"], f"recommended unit ({advice['recommended']})")
        # Paper 002's headline measure (Fig. 5): the share of applications short in some slot.
        best = best_variant(_allocations(summaries), "dissatisfied_apps_pct", metrics=MRSU_METRICS)
        if best is None:
            return None
        return Headline(best["shown"], f"fewest dissatisfied applications: {best['variant']}")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        figures = run_figures(results)
        json.dumps(figures, allow_nan=False)  # the figures must be plain JSON
        return figures or None

    def report(
        self,
        *,
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportBody:
        return mrsu_report(results, baseline=baseline, currency=currency)

    def settings(self, options: Mapping[str, Any]) -> list[tuple[str, Any]]:
        """The declared parameters' rows, as they apply: an input has its own slots, T left
        empty is the whole horizon, and the advisor's unit (a document) is shown as typed."""
        shown = {**options, "slots_valid": options.get("slots_valid") or "whole horizon"}
        if options.get("requirements") == "input":
            shown.pop("slots", None)
        rows = super().settings(shown)
        if options.get("unit"):
            rows.append((param_named(MRSU_PARAMS, "unit").label, unit_text(options["unit"])))
        return rows

    def presets(self) -> Sequence[Preset]:
        return presets()

    def page_context(
        self, run: Any, summaries: Mapping[str, Mapping[str, Any]], *, baseline: str | None, currency: str
    ) -> dict[str, Any]:
        allocations = _allocations(summaries)
        tables = {t["key"]: t for t in mrsu_tables(summaries, currency=currency)}
        options = run.options or {}
        return {
            "colours": variant_colours(list(allocations)),
            "plotly": True,
            "what": "Misallocation of each unit (composition-mode) on the same requirements.",
            "units_table": tables.get("units"),
            "dimensions_table": tables.get("dimensions"),
            "advisor_tables": [tables[k] for k in ("advisor", "advisor_vm_types", "advisor_frameworks")
                               if k in tables],
            "sweep": options.get("sweep"),
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"requirements": (run.options or {}).get("requirements")}



