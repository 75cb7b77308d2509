"""The report content of a scheduler comparison: its comparison, the cost per VM type, framework
and hour, the jobs, and the run page's figures.

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

from collections.abc import Collection, Mapping, Sequence
from functools import partial
from typing import Any

from planner.reports import ReportBody
from planner.reports.tables import Cell, Column, Table, summary_table
from scheduling.cost.charts import all_figures
from scheduling.cost.document import iter_jobs, job_count
from scheduling.cost.tables import COST_METRICS
from scheduling.numbers import finite, integral
from scheduling.tables import comparison_table

__all__ = ["MAX_JOB_ROWS", "PDF_FIGURES", "SHEET_CHARTS", "comparison_report", "jobs_table"]

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
    drawn = all_figures(results, currency=currency, only=figures) if results and figures else {}
    order = [*PDF_FIGURES, *(k for k in drawn if k not in PDF_FIGURES)]
    jobs = next((n for r in results.values() if (n := integral(r.get("jobs_total"))) is not None), None)
    details: list[tuple[str, Cell]] = [
        ("Baseline", comparison["baseline"] or ""),
        ("Jobs", jobs),
        ("Units", "times in seconds from the scenario's start; "
                  f"money in the VM types' price unit ({currency})"),
    ]
    return ReportBody(
        subtitle="cost comparison of schedulers",
        comparison=comparison,
        tables=[
            summary_table(comparison), vm_type_table(results), framework_table(results),
            hourly_table(results),
        ],
        figures={key: drawn[key] for key in order if key in drawn},
        sheet_charts=tuple(key for key in SHEET_CHARTS if key in drawn),
        records=partial(jobs_table, results),
        details=details,
    )


#: At most this many job rows in a jobs table (all schedulers together).
MAX_JOB_ROWS = 100_000

UNUSED_CAPACITY = "(unused capacity)"


# --------------------------------------------------------------------------- helpers


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _sequence(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list | tuple) else ()


def _pct(part: float | None, whole: float | None) -> float | None:
    if part is None or whole is None or whole == 0:
        return None
    return part / whole * 100.0


def _vm_types(results: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, float | None, int | None]]:
    """Every VM type of the run, ``(name, price per hour, count)``, in scenario order."""
    seen: dict[str, tuple[str, float | None, int | None]] = {}
    for r in results.values():
        for vt in _sequence(r.get("vm_types")):
            vt = _mapping(vt)
            name = vt.get("name")
            if isinstance(name, str) and name not in seen:
                seen[name] = (name, finite(vt.get("price_per_hour")), integral(vt.get("count")))
    for r in results.values():
        for key in (*_mapping(r.get("cost_by_vm_type")), *_mapping(r.get("vm_hours_by_type"))):
            if isinstance(key, str) and key not in seen:
                seen[key] = (key, None, None)
    return list(seen.values())



def vm_type_table(results: Mapping[str, Mapping[str, Any]]) -> Table:
    """One row per (scheduler, VM type): VM-hours billed and their cost.

    Every VM type of the scenario appears (0 when unused), so a scheduler's costs sum to
    its total cost.
    """
    columns = [
        Column("scheduler", "Scheduler"),
        Column("vm_type", "VM type"),
        Column("price_per_hour", "Price per hour", "price"),
        Column("count", "Machines", "count"),
        Column("vm_hours", "VM-hours", "hours"),
        Column("cost", "Cost", "money"),
        Column("share_pct", "Share of scheduler's cost", "percent"),
    ]
    types = _vm_types(results)
    rows: list[list[Cell]] = []
    for spec, r in results.items():
        costs = _mapping(r.get("cost_by_vm_type"))
        hours = _mapping(r.get("vm_hours_by_type"))
        total = finite(r.get("total_cost"))
        for name, price, count in types:
            cost = finite(costs.get(name, 0.0))
            rows.append([spec, name, price, count, finite(hours.get(name, 0.0)), cost, _pct(cost, total)])
    return Table("vm_types", "Cost per VM type", columns, rows)


def framework_table(results: Mapping[str, Mapping[str, Any]]) -> Table:
    """One row per (scheduler, framework) from ``cost_by_framework``, unused capacity last.

    Each job pays, per VM it uses, price x duration x its dominant share of that VM; the
    rest of the bill is the ``(unused capacity)`` line, so the rows sum to the total cost.
    """
    columns = [
        Column("scheduler", "Scheduler"),
        Column("framework", "Framework"),
        Column("cost", "Cost", "money"),
        Column("share_pct", "Share of scheduler's cost", "percent"),
    ]
    names: list[str] = []
    for r in results.values():
        for key in _mapping(r.get("cost_by_framework")):
            if isinstance(key, str) and key not in names and key != UNUSED_CAPACITY:
                names.append(key)
    if any(UNUSED_CAPACITY in _mapping(r.get("cost_by_framework")) for r in results.values()):
        names.append(UNUSED_CAPACITY)
    rows: list[list[Cell]] = []
    for spec, r in results.items():
        costs = _mapping(r.get("cost_by_framework"))
        total = finite(r.get("total_cost"))
        for name in names:
            cost = finite(costs.get(name, 0.0))
            rows.append([spec, name, cost, _pct(cost, total)])
    return Table(
        "frameworks",
        "Cost per framework",
        columns,
        rows,
        ["Each job pays its dominant share of the VMs it uses; the rest is unused capacity."],
    )


def hourly_table(results: Mapping[str, Mapping[str, Any]]) -> Table:
    """Billed cost falling in each hour of the timeline: one row per hour, one column per scheduler.

    Hours past a scheduler's last billed hour cost 0.
    """
    columns = [Column("hour", "Hour", "count"), Column("from_s", "From", "seconds")]
    columns += [Column(f"cost:{spec}", spec, "money") for spec in results]
    series = [[finite(v) for v in _sequence(r.get("cost_by_hour"))] for r in results.values()]
    n = max((len(s) for s in series), default=0)
    rows: list[list[Cell]] = []
    for h in range(n):
        rows.append([h, h * 3600.0, *(s[h] if h < len(s) else 0.0 for s in series)])
    return Table("hours", "Cost per hour", columns, rows, ["Hour 0 starts at the scenario's start."])


def placement_text(placement: Any) -> str:
    """A job's placement as text: ``m1.large#1 x2; m1.large#2 x1``.

    >>> placement_text({"m1.large#1": 2, "m1.large#2": 1})
    'm1.large#1 x2; m1.large#2 x1'
    """
    return "; ".join(f"{vm} x{n}" for vm, n in _mapping(placement).items())


def _job_count(r: Mapping[str, Any]) -> int:
    jobs = r.get("jobs")
    return job_count(r) if isinstance(jobs, Mapping | list | tuple) else 0


def jobs_table(results: Mapping[str, Mapping[str, Any]], max_rows: int = MAX_JOB_ROWS) -> Table:
    """One row per (scheduler, job) with its times, deadline outcome, cost and placement.

    At most ``max_rows`` rows (all schedulers together, in order); a note says when the
    table is cut.
    """
    columns = [
        Column("scheduler", "Scheduler"),
        Column("job", "Job"),
        Column("framework", "Framework"),
        Column("arrival_s", "Arrival", "seconds"),
        Column("start_s", "Start", "seconds"),
        Column("finish_s", "Finish", "seconds"),
        Column("wait_s", "Wait", "seconds"),
        Column("completion_s", "Completion", "seconds"),
        Column("executors", "Executors", "count"),
        Column("deadline_s", "Deadline", "seconds"),
        Column("met_deadline", "Met deadline"),
        Column("cost", "Cost", "money"),
        Column("placement", "Placement"),
    ]
    rows: list[list[Cell]] = []
    counts = {spec: _job_count(r) for spec, r in results.items()}
    total = sum(counts.values())
    # A cut shares the rows fairly between schedulers (smallest first, leftovers passed on),
    # so that every scheduler's first jobs can be compared side by side.
    quota: dict[str, int] = {}
    left = max_rows
    for k, spec in enumerate(sorted(counts, key=counts.__getitem__)):
        quota[spec] = min(counts[spec], left // (len(counts) - k))
        left -= quota[spec]
    for spec, r in results.items():
        if not quota[spec]:
            continue
        for job in iter_jobs(r, 0, quota[spec]):
            j = _mapping(job)
            met = j.get("met_deadline")
            rows.append(
                [
                    spec,
                    str(j.get("id", "")),
                    str(j.get("framework", "")),
                    finite(j.get("arrival_s")),
                    finite(j.get("start_s")),
                    finite(j.get("finish_s")),
                    finite(j.get("wait_s")),
                    finite(j.get("completion_s")),
                    integral(j.get("executors")),
                    finite(j.get("deadline_s")),
                    "yes" if met is True else "no" if met is False else "",
                    finite(j.get("cost")),
                    placement_text(j.get("placement")),
                ]
            )
    notes = []
    if total > len(rows):
        notes.append(
            f"Truncated: {len(rows):,} of {total:,} job rows (each scheduler's first jobs); every job is in "
            "the run's result documents (API: /api/runs/<id>/results/<scheduler>/)."
        )
    return Table("jobs", "Jobs", columns, rows, notes)
