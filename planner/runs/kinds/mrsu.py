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

Figures come from :mod:`scheduling.mrsu.charts`; summaries, the comparison table's metrics,
the advisor's rows and the joining of sweep parts from :mod:`scheduling.mrsu.tables`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse

from planner.core.errors import FieldError, InputError
from planner.reports import FORMATS, ReportContent
from planner.reports.tables import detail_as_table, summary_table
from scheduling import Scenario, ScenarioError, parse_scenario
from scheduling.charts import variant_colours
from scheduling.mrsu import mrsu_advise, mrsu_result, mrsu_sweep, parse_mrsu_input, scenario_problem
from scheduling.mrsu.advisor import parse_unit
from scheduling.mrsu.charts import mrsu_figures, sweep_figures
from scheduling.mrsu.setups import PAPER_SWEEP
from scheduling.mrsu.tables import MRSU_METRICS, combine_sweeps, mrsu_tables, result_summary
from scheduling.numbers import finite
from scheduling.tables import comparison_table, show

from . import Headline, PartSpec, Progress, RunKind, RunPlan, Variant, register

__all__ = [
    "MRSU_METRICS",
    "PAPER_SWEEP",
    "PARAMS",
    "MrsuKind",
    "combine_sweeps",
    "mrsu_options",
    "recorded_scenario",
]

PARAMS = (
    "requirements",
    "input",
    "slots",
    "compositions",
    "modes",
    "slots_valid",
    "unit",
    "sweep",
    "baseline",
)
SWEEP_KEYS = ("loads", "seeds", "applications", "slots", "seed", "spread", "slots_valid")
COMPOSITIONS = ("gcd", "min")
MODES = ("ft", "id")
#: Limits of a planner run (the library's own are far larger).
MAX_SLOTS = 1000
MAX_SWEEP = {"seeds": 1000, "applications": 2000, "slots": 1000}
MAX_LOADS = 40
#: Workload cells (seeds x applications x slots) of one load point, one part's memory: the
#: paper's set-up is 150,000.
MAX_SWEEP_CELLS = 3_000_000
ADVISOR = "advisor"

def sweep_label(load: float) -> str:
    return f"sweep {round(100 * load, 6):g}%"


def _int(value: Any, path: str, errors: list[FieldError], lo: int, hi: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        errors.append(FieldError(path, f"must be a whole number in {lo}..{hi}"))
        return None
    return int(value)


def _choices(value: Any, choices: Sequence[str], path: str, errors: list[FieldError]) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        errors.append(FieldError(path, f"must be a non-empty list of {', '.join(choices)}"))
        return []
    out: list[str] = []
    for i, item in enumerate(value):
        if item not in choices:
            errors.append(FieldError(f"{path}[{i}]", f"must be one of {', '.join(choices)}"))
        elif item not in out:
            out.append(str(item))
    return out


def _sweep(raw: Any, errors: list[FieldError]) -> dict[str, Any] | None:
    if raw in (None, False):
        return None
    if raw is True:
        raw = {}
    if not isinstance(raw, Mapping):
        errors.append(FieldError("sweep", f"must be an object with {', '.join(SWEEP_KEYS)}"))
        return None
    errors.extend(
        FieldError(f"sweep.{k}", f"unknown field (a sweep takes {', '.join(SWEEP_KEYS)})")
        for k in raw
        if k not in SWEEP_KEYS
    )
    out: dict[str, Any] = {}
    loads = raw.get("loads", list(PAPER_SWEEP["loads"]))
    if not isinstance(loads, list) or not loads or len(loads) > MAX_LOADS:
        errors.append(
            FieldError("sweep.loads", f"must be a list of 1 to {MAX_LOADS} loads (fractions: 0.5 is 50 %)")
        )
        loads = []
    out["loads"] = []
    for i, x in enumerate(loads):
        if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x) or not 0 < x <= 10:
            errors.append(
                FieldError(f"sweep.loads[{i}]", "must be in (0, 10] (a fraction of capacity: 0.5 is 50 %)")
            )
        elif float(x) in out["loads"]:
            errors.append(FieldError(f"sweep.loads[{i}]", "is listed twice"))
        else:
            out["loads"].append(float(x))
    for key, hi in MAX_SWEEP.items():
        out[key] = _int(raw.get(key, PAPER_SWEEP[key]), f"sweep.{key}", errors, 1, hi)
    sizes = [out[k] for k in MAX_SWEEP]
    if all(sizes) and math.prod(sizes) > MAX_SWEEP_CELLS:
        errors.append(
            FieldError(
                "sweep.seeds",
                f"seeds x applications x slots is {math.prod(sizes):,}; "
                f"the limit of one load point is {MAX_SWEEP_CELLS:,}",
            )
        )
    out["seed"] = _int(raw.get("seed", 0), "sweep.seed", errors, 0, 2**31 - 1)
    spread = raw.get("spread", 0.5)
    if isinstance(spread, bool) or not isinstance(spread, int | float) or not 0 <= spread <= 1:
        errors.append(FieldError("sweep.spread", "must be a number in [0, 1]"))
    out["spread"] = float(spread) if isinstance(spread, int | float) else 0.5
    valid = raw.get("slots_valid")
    out["slots_valid"] = None if valid is None else _int(valid, "sweep.slots_valid", errors, 1, MAX_SLOTS)
    return out


def _unit(raw: Any, scenario: Scenario | None, errors: list[FieldError]) -> dict[str, float] | None:
    if raw in (None, "", {}) or scenario is None:
        return None
    try:
        return parse_unit(raw, scenario.resources, path="unit")
    except ScenarioError as exc:
        errors.extend(exc.errors)
        return None


def mrsu_options(scenario: Scenario | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The run's ``options``: checked, with paths into the request (``input.applications[1].priority``,
    ``sweep.loads[2]``, ``compositions[0]``)."""
    errors: list[FieldError] = [
        FieldError(key, f"unknown field (an MRSU run takes {', '.join(PARAMS)})")
        for key in params
        if key not in PARAMS
    ]
    source = params.get("requirements") or ("input" if params.get("input") is not None else "scenario")
    if source not in ("scenario", "input"):
        errors.append(FieldError("requirements", "must be scenario or input"))
    options: dict[str, Any] = {"requirements": source, "input": None, "unit": None}
    if source == "input":
        try:
            parse_mrsu_input(params.get("input"))
            options["input"] = params.get("input")
        except ScenarioError as exc:
            errors.extend(FieldError(f"input.{e.path}" if e.path else "input", e.message) for e in exc.errors)
    else:
        if params.get("input") is not None:
            errors.append(FieldError("input", "is only read with requirements: input"))
        options["unit"] = _unit(params.get("unit"), scenario, errors)
    slots = params.get("slots", 30)
    options["slots"] = _int(slots, "slots", errors, 1, MAX_SLOTS)
    options["compositions"] = _choices(
        params.get("compositions", list(COMPOSITIONS)), COMPOSITIONS, "compositions", errors
    )
    options["modes"] = _choices(params.get("modes", list(MODES)), MODES, "modes", errors)
    valid = params.get("slots_valid")
    options["slots_valid"] = None if valid in (None, "") else _int(valid, "slots_valid", errors, 1, MAX_SLOTS)
    options["sweep"] = _sweep(params.get("sweep"), errors)
    labels = [f"{c}-{m}" for c in options["compositions"] for m in options["modes"]]
    baseline = params.get("baseline")
    if baseline in (None, ""):
        baseline = labels[0] if labels else None
    elif baseline not in labels:
        errors.append(FieldError("baseline", f"must be one of {', '.join(labels)}"))
    options["baseline"] = baseline
    if scenario is not None and source == "scenario" and not errors:
        try:  # the requirements of the scenario: say now if it has none to size
            scenario_problem(scenario, slots=int(options["slots"]))
        except ScenarioError as exc:
            errors.extend(exc.errors)
    if errors:
        raise InputError(errors)
    return options


def _allocations(summaries: Mapping[str, Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    return {k: v for k, v in summaries.items() if v.get("study") == "mrsu"}


class MrsuKind(RunKind):
    """Compose the MRSU of some requirements, allocate it, measure the misallocation; sweep; advise."""

    key = "mrsu"
    label = "MRSU sizing"
    variant_name = "unit"
    results_template = "web/kinds/mrsu.html"
    scripts = ("planner/charts.js", "planner/kinds/fairness.js")
    report_formats = tuple(FORMATS)
    new_run_url = "web:mrsu-new"

    def default_scenario(self, params: Mapping[str, Any]) -> Any | None:
        doc = params.get("input")
        if params.get("requirements", "input") == "input" and isinstance(doc, Mapping):
            return recorded_scenario(params)
        return None

    def plan(self, scenario: Scenario | None, params: Mapping[str, Any]) -> RunPlan:
        options = mrsu_options(scenario, params)
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
        known = [(finite(s.get("under")), k) for k, s in _allocations(summaries).items()]
        known = [(v, k) for v, k in known if v is not None]
        if not known:
            return None
        value, label = min(known)
        return Headline(show(value, "ratio"), f"least under-allocation: {label}")

    def figures(self, results: Mapping[str, Mapping[str, Any]], *, currency: str) -> dict[str, Any] | None:
        figures: dict[str, Any] = {}
        for label, doc in results.items():
            if doc.get("study") == "mrsu":
                for key, fig in mrsu_figures(doc).items():
                    figures[f"{key}:{label}"] = fig
        sweep = combine_sweeps(list(results.values()))
        if sweep is not None:
            figures.update(sweep_figures(sweep))
        json.dumps(figures, allow_nan=False)
        return figures or None

    def report(
        self,
        *,
        meta: Mapping[str, Any],
        results: Mapping[str, Mapping[str, Any]],
        options: Mapping[str, Any],
        baseline: str | None,
        currency: str,
    ) -> ReportContent:
        allocations = {k: v for k, v in results.items() if v.get("study") == "mrsu"}
        comparison = comparison_table(
            {k: result_summary(v) for k, v in allocations.items()},
            baseline=baseline,
            currency=currency,
            metrics=MRSU_METRICS,
            detail=True,
        )
        tables = [summary_table(comparison, "Unit")]
        tables += [detail_as_table(t) for t in mrsu_tables(results, currency=currency, detail=True)]
        figures = self.figures(results, currency=currency) or {}
        run_id = meta.get("run_id")
        return ReportContent(
            title=str(meta.get("run_name") or ""),
            subtitle="Cluster What-If Planner - MRSU sizing (paper 002)",
            details=[
                ("Run", str(meta.get("run_name") or "")),
                (
                    "Run id",
                    run_id if isinstance(run_id, int) and not isinstance(run_id, bool) else str(run_id or ""),
                ),
                ("Scenario", str(meta.get("scenario_name") or "")),
                ("Created at", str(meta.get("created_at") or "")),
                ("Requirements", str(options.get("requirements"))),
                ("Units", ", ".join(allocations)),
            ],
            comparison=comparison,
            tables=tables,
            figures={k: v for k, v in figures.items() if not k.startswith("snapshot:")},
            currency=currency,
            keywords=", ".join(allocations),
        )

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
            "actions": (
                [{"label": "Clone…", "url": f"{reverse('web:mrsu-new')}?clone={run.pk}"}]
                if run.is_finished
                else []
            ),
            "settings": [
                ("Requirements", options.get("requirements")),
                ("Compositions", ", ".join(options.get("compositions") or [])),
                ("Modes", ", ".join(options.get("modes") or [])),
                ("Validity interval T", options.get("slots_valid") or "whole horizon"),
            ],
        }

    def api_fields(self, run: Any) -> dict[str, Any]:
        return {"requirements": (run.options or {}).get("requirements")}


register(MrsuKind())


def recorded_scenario(params: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario a run on the MRSU input ``params["input"]`` records (:func:`input_scenario`).

    Raises :class:`InputError` at the input's fields (``input.capacity``), never the recorded
    scenario's (``resources``): every problem of the request when it has any (the input's own
    limits included), else what the scenario's limits refuse of the input.
    """
    recorded = input_scenario(params.get("input") or {})
    try:
        parse_scenario(recorded)
    except ScenarioError as exc:
        mrsu_options(None, {**params, "requirements": "input"})
        raise InputError([_input_path(e) for e in exc.errors]) from None
    return recorded


def _input_path(error: FieldError) -> FieldError:
    """An error of the scenario :func:`input_scenario` records, at the input field it comes from."""
    path = error.path
    for prefix, field in (("vm_types[0].capacity", "input.capacity"), ("resources", "input.capacity"),
                          ("name", "input.name")):
        if path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "["):
            path = field + path[len(prefix):] if prefix != "resources" else field
            break
    else:
        path = "input"
    return FieldError(path, f"{error.message} (the run records the input as a scenario of one machine)")


def input_scenario(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario document for a run on an MRSU input: one machine holding the input's capacity.

    The shared run machinery records a scenario with every run; the requirements are the input's.
    """
    capacity = dict(doc.get("capacity") or {}) if isinstance(doc, Mapping) else {}
    name = doc.get("name") if isinstance(doc, Mapping) else None
    return {
        "name": str(name or "MRSU input")[:100],
        "resources": list(capacity),
        "vm_types": [{"name": "mrsu-input", "capacity": capacity, "price_per_hour": 0, "count": 1}],
        "jobs": [],
    }
