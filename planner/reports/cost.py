"""The report content of a cost comparison (the cost kind's part of every report format).

>>> from scheduling import compare, parse_scenario
>>> doc = {"vm_types": [{"name": "s", "capacity": {"cpu": 4, "mem": 8}, "price_per_hour": 1.0, "count": 2}],
...        "jobs": [{"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 2, "mem": 2},
...                  "duration_s": 3600}]}
>>> results = {k: v.to_dict() for k, v in compare(parse_scenario(doc), schedulers=["edf-bfd"]).items()}
>>> content = cost_report({"run_name": "tiny"}, results, currency="€")
>>> content.tables[0].header("€")[:2], list(content.figures)[:2]
(['Scheduler', 'Total cost (€)'], ['cumulative_cost', 'cost_by_hour'])
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import partial
from typing import Any

from scheduling.cost.charts import all_figures
from scheduling.cost.tables import COST_METRICS
from scheduling.numbers import integral
from scheduling.tables import comparison_table

from .content import ReportContent
from .tables import (
    Cell,
    framework_table,
    hourly_table,
    jobs_table,
    summary_table,
    vm_type_table,
)

__all__ = ["PDF_FIGURES", "SHEET_CHARTS", "cost_report"]

#: The page's figures the PDF draws, in order (their readable default views), then each
#: scheduler's fairness chart.
PDF_FIGURES = (
    "cumulative_cost", "cost_by_hour", "utilisation", "active_vms", "active_vms@multiples", "cost_breakdown",
    "cost_by_framework", "deadlines", "completion",
)
#: Figures the XLSX draws as native charts on its summary sheet.
SHEET_CHARTS = ("cost_breakdown", "utilisation")


def _details(
    meta: Mapping[str, Any], results: Mapping[str, Mapping[str, Any]], baseline: str | None, currency: str
) -> list[tuple[str, Cell]]:
    run_id = meta.get("run_id")
    jobs = next((n for r in results.values() if (n := integral(r.get("jobs_total"))) is not None), None)
    scenario = meta.get("scenario_name")
    if scenario is None:
        names = (r["scenario_name"] for r in results.values() if isinstance(r.get("scenario_name"), str))
        scenario = next(names, "")
    return [
        ("Run", str(meta.get("run_name") or "")),
        ("Run id", run_id if isinstance(run_id, int) and not isinstance(run_id, bool) else str(run_id or "")),
        ("Scenario", str(scenario)),
        ("Created at", str(meta.get("created_at") or "")),
        ("Schedulers", ", ".join(results)),
        ("Baseline", baseline or ""),
        ("Jobs", jobs),
        ("Units", "times in seconds from the scenario's start; "
                  f"money in the VM types' price unit ({currency})"),
    ]


def cost_report(
    meta: Mapping[str, Any],
    results: Mapping[str, Mapping[str, Any]],
    *,
    baseline: str | None = None,
    currency: str = "$",
    figures: Collection[str] = (*PDF_FIGURES, "fairness:"),
) -> ReportContent:
    """A cost comparison's report content, for any format of :data:`planner.reports.FORMATS`.

    Parameters
    ----------
    meta : mapping
        ``run_name``, ``scenario_name``, ``created_at``, ``run_id`` (all optional).
    results : mapping of str to dict
        Result documents keyed by scheduler spec (docs/results.md).
    baseline : str, optional
        The scheduler savings are measured against (the page's choice); the first by default.
    currency : str, default "$"
        The team's currency symbol (display only).
    figures : collection of str, default: the PDF's
        Keys of :func:`scheduling.cost.charts.all_figures` to draw (``fairness:``: every
        scheduler's); the CSV needs none, the XLSX :data:`SHEET_CHARTS`.

    Raises
    ------
    ValueError
        If ``baseline`` is not one of ``results``.
    """
    comparison = comparison_table(
        results, baseline=baseline, currency=currency, metrics=COST_METRICS, detail=True
    )
    drawn = all_figures(results, currency=currency, only=figures) if results and figures else {}
    order = [*PDF_FIGURES, *(k for k in drawn if k not in PDF_FIGURES)]
    return ReportContent(
        title=str(meta.get("run_name") or ""),
        subtitle="Cluster What-If Planner - cost comparison of schedulers",
        details=_details(meta, results, comparison["baseline"], currency),
        comparison=comparison,
        tables=[
            summary_table(comparison), vm_type_table(results), framework_table(results),
            hourly_table(results),
        ],
        figures={key: drawn[key] for key in order if key in drawn},
        sheet_charts=tuple(key for key in SHEET_CHARTS if key in drawn),
        records=partial(jobs_table, results),
        currency=currency,
        keywords=", ".join(results),
    )
