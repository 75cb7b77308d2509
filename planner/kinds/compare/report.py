"""The report content of a scheduler comparison: its comparison, the cost per VM type, framework
and hour, the jobs, and the run page's figures. The rows are the library's
(:mod:`scheduling.cost.tables`, :mod:`scheduling.cost.charts`); this module lays them out.

>>> from scheduling import compare, parse_scenario
>>> doc = {"vm_types": [{"name": "s", "capacity": {"cpu": 4, "mem": 8}, "price_per_hour": 1.0, "count": 2}],
...        "jobs": [{"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 2, "mem": 2},
...                  "duration_s": 3600}]}
>>> results = {k: v.to_dict() for k, v in compare(parse_scenario(doc), schedulers=["edf-bfd"]).items()}
>>> body = comparison_report(results, currency="€")
>>> body.tables[0].header("€")[:2], list(body.figures)[:2]
(['Scheduler', 'Total cost (€)'], ['cumulative_cost', 'cost_by_hour'])
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import partial
from typing import Any

from planner.reports import VERDICT, ReportBody
from planner.reports.content import Figure, LazyFigures
from planner.reports.tables import Cell, Table, detail_as_table, summary_table
from scheduling.cost.charts import all_figures
from scheduling.cost.tables import (
    COST_METRICS,
    MAX_JOB_ROWS,
    framework_table,
    hourly_table,
    job_columns,
    job_rows,
    jobs_listed,
    recommendation,
    recommendation_text,
    vm_type_table,
)
from scheduling.numbers import integral
from scheduling.tables import comparison_table

__all__ = ["PDF_FIGURES", "SHEET_CHARTS", "comparison_report", "jobs_table"]

#: The page's figures the PDF draws, in order (their readable default views), then each
#: scheduler's fairness chart.
PDF_FIGURES = (
    "cumulative_cost", "cost_by_hour", "utilisation", "active_vms", "active_vms@multiples", "cost_breakdown",
    "cost_by_framework", "deadlines", "completion",
)
#: Figures the XLSX draws as native charts on its summary sheet.
SHEET_CHARTS = ("cost_breakdown", "utilisation")


def comparison_report(
    results: Mapping[str, Mapping[str, Any]],
    *,
    baseline: str | None = None,
    currency: str = "$",
    figures: Collection[str] = (*PDF_FIGURES, "fairness:"),
) -> ReportBody:
    """A scheduler comparison's report content, for any format of :data:`planner.reports.FORMATS`.

    Parameters
    ----------
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

    def drawn() -> dict[str, Figure]:
        every = all_figures(results, currency=currency, only=figures) if results and figures else {}
        order = [*PDF_FIGURES, *(k for k in every if k not in PDF_FIGURES)]
        return {key: every[key] for key in order if key in every}

    jobs = next((n for r in results.values() if (n := integral(r.get("jobs_total"))) is not None), None)
    details: list[tuple[str, Cell]] = [
        ("Baseline", comparison["baseline"] or ""),
        # Deadline misses first, then cost: the run list's rule (scheduling.cost.tables).
        (VERDICT, recommendation_text(recommendation(results, currency=currency))),
        ("Jobs", jobs),
        ("Units", "times in seconds from the scenario's start; "
                  f"money in the VM types' price unit ({currency})"),
    ]
    return ReportBody(
        subtitle="cost comparison of schedulers",
        comparison=comparison,
        tables=[
            summary_table(comparison),
            *(detail_as_table(table(results, currency=currency))
              for table in (vm_type_table, framework_table, hourly_table)),
        ],
        figures=LazyFigures(drawn),  # drawn by the formats that draw them (not the CSV)
        sheet_charts=tuple(SHEET_CHARTS),  # those drawn; the XLSX skips any that is not
        records=partial(jobs_table, results),
        details=details,
    )


def jobs_table(results: Mapping[str, Mapping[str, Any]], max_rows: int = MAX_JOB_ROWS) -> Table:
    """The "Jobs" table: :func:`scheduling.cost.tables.job_rows` (at most ``max_rows``, shared
    fairly between the schedulers), with a note when it is cut.

    Laid out here rather than by :func:`planner.reports.tables.rows_table`: its page text of
    every cell (``detail_table``'s ``shown``), which no file writes, would cost seconds for
    100,000 rows.
    """
    rows = job_rows(results, max_rows)
    total = jobs_listed(results)
    notes = []
    if total > len(rows):
        notes.append(
            f"Truncated: {len(rows):,} of {total:,} job rows (each scheduler's first jobs); every job is in "
            "the run's result documents (API: /api/runs/<id>/results/<scheduler>/)."
        )
    columns = job_columns(results)  # with each job's network stretch when some was network-bound
    cells: list[list[Cell]] = [[row[c.key] for c in columns] for row in rows]
    return Table("jobs", "Jobs", list(columns), cells, notes)
