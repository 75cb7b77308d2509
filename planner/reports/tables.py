"""The cost tables every report format shares, built from result documents.

Pure functions: they read a run's results (``dict[str, dict]``: scheduler spec -> the
document of ``SimulationResult.to_dict()``, see docs/results.md) and return
:class:`Table` objects of plain cells (``str``, ``int``, ``float`` or ``None``). The CSV,
XLSX and PDF writers only lay them out.

Units: times are seconds from the scenario's start; costs are in the price unit of the
VM types (prices are per hour); percentages are in percent (``12.5`` means 12.5 %).

>>> r = {"total_cost": 8.0, "lower_bound_cost": 6.0, "gap_to_lower_bound": 1 / 3}
>>> t = summary_table({"fifo": {**r, "total_cost": 10.0}, "edf": r}, baseline="fifo")
>>> t.column("saving_pct").label, t.rows[1][t.index("saving_pct")]
('Saving vs fifo (%)', 20.0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "DANGEROUS_PREFIXES",
    "MAX_JOB_ROWS",
    "UNUSED_CAPACITY",
    "Cell",
    "Column",
    "ColumnKind",
    "Table",
    "framework_table",
    "hourly_table",
    "jobs_table",
    "meta_rows",
    "neutralise",
    "placement_text",
    "report_tables",
    "resolve_baseline",
    "summary_table",
    "vm_type_table",
]

#: A table cell: text, a number, or ``None`` (blank: not applicable / unknown).
Cell = str | int | float | None

#: How a column's numbers are meant: the XLSX writer picks number formats from it, the
#: PDF writer picks text formats. ``pct`` values are in percent (12.5 = 12.5 %).
ColumnKind = Literal["text", "int", "number", "money", "price", "pct", "seconds", "hours"]

#: Leading characters that make a spreadsheet read a text cell as a formula (OWASP CSV
#: injection): ``=``, ``+``, ``-``, ``@``, tab, carriage return and line feed.
DANGEROUS_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "\n")

#: At most this many job rows in a jobs table (all schedulers together).
MAX_JOB_ROWS = 100_000

UNUSED_CAPACITY = "(unused capacity)"


def neutralise(text: str) -> str:
    """Make user-controlled text inert in a spreadsheet: prefix ``'`` when it could start a formula.

    Only text goes through this; numbers we write stay numbers.

    >>> [neutralise(s) for s in ('=HYPERLINK("http://x")', "@SUM(1)", "+1", "-2+3", "\\t=1", "m1.large")]
    ['\\'=HYPERLINK("http://x")', "'@SUM(1)", "'+1", "'-2+3", "'\\t=1", 'm1.large']
    """
    return "'" + text if text.startswith(DANGEROUS_PREFIXES) else text


@dataclass(frozen=True)
class Column:
    """One column of a :class:`Table`."""

    key: str  #: stable identifier, e.g. ``"total_cost"``
    label: str  #: header text, e.g. ``"Total cost"``
    kind: ColumnKind = "text"


@dataclass
class Table:
    """A titled table of plain cells; ``rows[i][j]`` belongs to ``columns[j]``."""

    key: str  #: stable identifier: ``summary``, ``vm_types``, ``frameworks``, ``hours``, ``jobs``
    title: str
    columns: list[Column]
    rows: list[list[Cell]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  #: shown under the title (e.g. truncation)

    def index(self, key: str) -> int:
        """The position of the column ``key`` (``KeyError`` when absent)."""
        for i, c in enumerate(self.columns):
            if c.key == key:
                return i
        raise KeyError(key)

    def column(self, key: str) -> Column:
        return self.columns[self.index(key)]

    def values(self, key: str) -> list[Cell]:
        """Every row's cell in the column ``key``."""
        i = self.index(key)
        return [row[i] for row in self.rows]


# --------------------------------------------------------------------------- helpers


def _num(value: Any) -> float | None:
    """A finite number as float, else ``None`` (bools, strings, NaN and infinities too)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    v = float(value)
    return v if math.isfinite(v) else None


def _int(value: Any) -> int | None:
    v = _num(value)
    return int(v) if v is not None and v == int(v) else None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _sequence(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list | tuple) else ()


def _pct(part: float | None, whole: float | None) -> float | None:
    if part is None or whole is None or whole == 0:
        return None
    return part / whole * 100.0


def resolve_baseline(results: Mapping[str, Mapping[str, Any]], baseline: str | None) -> str | None:
    """The scheduler savings are measured against.

    ``None`` picks the first scheduler of ``results`` (``None`` when there are none).

    Raises
    ------
    ValueError
        If ``baseline`` is given but is not one of the run's schedulers.
    """
    if baseline is None:
        return next(iter(results), None)
    if baseline not in results:
        raise ValueError(f"baseline {baseline!r} is not one of the run's schedulers: {', '.join(results)}")
    return baseline


def scenario_name(meta: Mapping[str, Any], results: Mapping[str, Mapping[str, Any]]) -> str:
    """The scenario's name from ``meta``, else from the first result, else ``""``."""
    name = meta.get("scenario_name")
    if name is None:
        for r in results.values():
            if isinstance(r.get("scenario_name"), str):
                return str(r["scenario_name"])
        return ""
    return str(name)


def meta_rows(
    meta: Mapping[str, Any], results: Mapping[str, Mapping[str, Any]], baseline: str | None
) -> list[tuple[str, Cell]]:
    """The report's header block: ``(label, value)`` pairs describing the run.

    ``meta`` is e.g. ``{"run_name": ..., "scenario_name": ..., "created_at": ..., "run_id": 12}``;
    every key is optional. Raises ``ValueError`` like :func:`resolve_baseline`.
    """
    base = resolve_baseline(results, baseline)
    rows: list[tuple[str, Cell]] = [
        ("Run", str(meta.get("run_name") or "")),
        ("Run id", _run_id(meta.get("run_id"))),
        ("Scenario", scenario_name(meta, results)),
        ("Created at", str(meta.get("created_at") or "")),
        ("Schedulers", ", ".join(results)),
        ("Baseline", base or ""),
        ("Jobs", _jobs_total(results)),
        ("Units", "times in seconds from the scenario's start; costs in the VM types' price unit"),
    ]
    return rows


def _run_id(value: Any) -> Cell:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return "" if value is None else str(value)


def _jobs_total(results: Mapping[str, Mapping[str, Any]]) -> int | None:
    for r in results.values():
        n = _int(r.get("jobs_total"))
        if n is not None:
            return n
    return None


def _vm_types(results: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, float | None, int | None]]:
    """Every VM type of the run, ``(name, price per hour, count)``, in scenario order."""
    seen: dict[str, tuple[str, float | None, int | None]] = {}
    for r in results.values():
        for vt in _sequence(r.get("vm_types")):
            vt = _mapping(vt)
            name = vt.get("name")
            if isinstance(name, str) and name not in seen:
                seen[name] = (name, _num(vt.get("price_per_hour")), _int(vt.get("count")))
    for r in results.values():
        for key in (*_mapping(r.get("cost_by_vm_type")), *_mapping(r.get("vm_hours_by_type"))):
            if isinstance(key, str) and key not in seen:
                seen[key] = (key, None, None)
    return list(seen.values())


# --------------------------------------------------------------------------- tables


def summary_table(results: Mapping[str, Mapping[str, Any]], baseline: str | None) -> Table:
    """One row per scheduler: cost, saving vs the baseline, lower bound, time and deadline measures.

    Saving = baseline's total cost - this scheduler's (negative when it costs more); in %
    of the baseline's cost. Raises ``ValueError`` like :func:`resolve_baseline`.
    """
    base = resolve_baseline(results, baseline)
    base_cost = _num(results[base].get("total_cost")) if base is not None else None
    vs = f" vs {base}" if base else ""
    columns = [
        Column("scheduler", "Scheduler"),
        Column("total_cost", "Total cost", "money"),
        Column("saving_pct", f"Saving{vs} (%)", "pct"),
        Column("saving", f"Saving{vs}", "money"),
        Column("lower_bound_cost", "Lower bound", "money"),
        Column("gap_pct", "Gap to lower bound (%)", "pct"),
        Column("makespan_s", "Makespan (s)", "seconds"),
        Column("jobs_total", "Jobs", "int"),
        Column("deadline_jobs", "Deadline jobs", "int"),
        Column("deadline_missed", "Deadlines missed", "int"),
        Column("deadline_miss_pct", "Deadlines missed (%)", "pct"),
        Column("deadline_violation_eq12_pct", "Deadline violation, eq. 12 (%)", "pct"),
        Column("mean_completion_s", "Mean completion (s)", "seconds"),
        Column("mean_wait_s", "Mean wait (s)", "seconds"),
        Column("ilp_fallbacks", "ILP fallbacks", "int"),
    ]
    rows: list[list[Cell]] = []
    for spec, r in results.items():
        cost = _num(r.get("total_cost"))
        saving = base_cost - cost if base_cost is not None and cost is not None else None
        gap = _num(r.get("gap_to_lower_bound"))
        ilp = r.get("ilp")
        fallbacks = _int(ilp.get("fallbacks")) if isinstance(ilp, Mapping) else None
        rows.append(
            [
                spec,
                cost,
                _pct(saving, base_cost),
                saving,
                _num(r.get("lower_bound_cost")),
                gap * 100.0 if gap is not None else None,
                _num(r.get("makespan_s")),
                _int(r.get("jobs_total")),
                _int(r.get("deadline_jobs")),
                _int(r.get("deadline_missed")),
                _num(r.get("deadline_miss_pct")),
                _num(r.get("deadline_violation_eq12_pct")),
                _num(r.get("mean_completion_s")),
                _num(r.get("mean_wait_s")),
                fallbacks,
            ]
        )
    notes = [f"Saving is measured against {base}; a negative saving costs more."] if base else []
    return Table("summary", "Summary", columns, rows, notes)


def vm_type_table(results: Mapping[str, Mapping[str, Any]]) -> Table:
    """One row per (scheduler, VM type): VM-hours billed and their cost.

    Every VM type of the scenario appears (0 when unused), so a scheduler's costs sum to
    its total cost.
    """
    columns = [
        Column("scheduler", "Scheduler"),
        Column("vm_type", "VM type"),
        Column("price_per_hour", "Price per hour", "price"),
        Column("count", "Machines", "int"),
        Column("vm_hours", "VM-hours", "hours"),
        Column("cost", "Cost", "money"),
        Column("share_pct", "Share of scheduler's cost (%)", "pct"),
    ]
    types = _vm_types(results)
    rows: list[list[Cell]] = []
    for spec, r in results.items():
        costs = _mapping(r.get("cost_by_vm_type"))
        hours = _mapping(r.get("vm_hours_by_type"))
        total = _num(r.get("total_cost"))
        for name, price, count in types:
            cost = _num(costs.get(name, 0.0))
            rows.append([spec, name, price, count, _num(hours.get(name, 0.0)), cost, _pct(cost, total)])
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
        Column("share_pct", "Share of scheduler's cost (%)", "pct"),
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
        total = _num(r.get("total_cost"))
        for name in names:
            cost = _num(costs.get(name, 0.0))
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
    columns = [Column("hour", "Hour", "int"), Column("from_s", "From (s)", "seconds")]
    columns += [Column(f"cost:{spec}", spec, "money") for spec in results]
    series = [[_num(v) for v in _sequence(r.get("cost_by_hour"))] for r in results.values()]
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


def jobs_table(results: Mapping[str, Mapping[str, Any]], max_rows: int = MAX_JOB_ROWS) -> Table:
    """One row per (scheduler, job) with its times, deadline outcome, cost and placement.

    At most ``max_rows`` rows (all schedulers together, in order); a note says when the
    table is cut.
    """
    columns = [
        Column("scheduler", "Scheduler"),
        Column("job", "Job"),
        Column("framework", "Framework"),
        Column("arrival_s", "Arrival (s)", "seconds"),
        Column("start_s", "Start (s)", "seconds"),
        Column("finish_s", "Finish (s)", "seconds"),
        Column("wait_s", "Wait (s)", "seconds"),
        Column("completion_s", "Completion (s)", "seconds"),
        Column("executors", "Executors", "int"),
        Column("deadline_s", "Deadline (s)", "seconds"),
        Column("met_deadline", "Met deadline"),
        Column("cost", "Cost", "money"),
        Column("placement", "Placement"),
    ]
    rows: list[list[Cell]] = []
    counts = {spec: len(_sequence(r.get("jobs"))) for spec, r in results.items()}
    total = sum(counts.values())
    # A cut shares the rows fairly between schedulers (smallest first, leftovers passed on),
    # so that every scheduler's first jobs can be compared side by side.
    quota: dict[str, int] = {}
    left = max_rows
    for k, spec in enumerate(sorted(counts, key=counts.__getitem__)):
        quota[spec] = min(counts[spec], left // (len(counts) - k))
        left -= quota[spec]
    for spec, r in results.items():
        for j in list(_sequence(r.get("jobs")))[: quota[spec]]:
            j = _mapping(j)
            met = j.get("met_deadline")
            rows.append(
                [
                    spec,
                    str(j.get("id", "")),
                    str(j.get("framework", "")),
                    _num(j.get("arrival_s")),
                    _num(j.get("start_s")),
                    _num(j.get("finish_s")),
                    _num(j.get("wait_s")),
                    _num(j.get("completion_s")),
                    _int(j.get("executors")),
                    _num(j.get("deadline_s")),
                    "yes" if met is True else "no" if met is False else "",
                    _num(j.get("cost")),
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


def report_tables(
    results: Mapping[str, Mapping[str, Any]],
    baseline: str | None,
    *,
    include_jobs: bool = False,
    max_job_rows: int = MAX_JOB_ROWS,
) -> list[Table]:
    """Summary, per VM type, per framework, per hour and optionally jobs, in that order."""
    tables = [
        summary_table(results, baseline),
        vm_type_table(results),
        framework_table(results),
        hourly_table(results),
    ]
    if include_jobs:
        tables.append(jobs_table(results, max_job_rows))
    return tables
