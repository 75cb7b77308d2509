"""Tables of a report: the :class:`Table` layout type and the cost kind's detail tables.

Pure functions: they read a run's results (``dict[str, dict]``: scheduler spec -> the
document of ``SimulationResult.to_dict()``, see docs/results.md; per-job detail through
:mod:`scheduling.cost.document`) and return :class:`Table` objects of plain cells
(``str``, ``int``, ``float`` or ``None``). The CSV, XLSX and PDF writers only lay them out.

Every column has a unit of :data:`scheduling.tables.UNITS`: the writers take the
label's unit suffix (``Cost ($)``), the CSV precision and the XLSX number format from it.
The summary table is not computed here: :func:`summary_table` lays out the library's
comparison (:func:`scheduling.tables.comparison_table`), savings included.

>>> from scheduling.cost.tables import COST_METRICS
>>> from scheduling.tables import comparison_table
>>> r = {"total_cost": 8.0, "lower_bound_cost": 6.0, "gap_to_lower_bound": 1 / 3}
>>> runs = {"fifo": {**r, "total_cost": 10.0}, "edf": r}
>>> t = summary_table(comparison_table(runs, metrics=COST_METRICS, detail=True))
>>> t.column("saving_pct").label, t.rows[1][t.index("saving_pct")], t.header()[t.index("saving")]
('Saving vs fifo', 20.0, 'Money saved vs fifo ($)')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scheduling.cost.document import iter_jobs, job_count
from scheduling.numbers import finite, integral
from scheduling.tables import Cell, Column, Comparison, DetailTable, labelled

__all__ = [
    "DANGEROUS_PREFIXES",
    "MAX_JOB_ROWS",
    "UNUSED_CAPACITY",
    "Cell",
    "Column",
    "Table",
    "detail_as_table",
    "framework_table",
    "hourly_table",
    "jobs_table",
    "neutralise",
    "placement_text",
    "summary_table",
    "vm_type_table",
]


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

    def header(self, currency: str = "$") -> list[str]:
        """Column labels as files write them, with their units: ``Cost ($)``, ``Makespan (s)``."""
        return [labelled(c.label, c.unit, currency) for c in self.columns]


def detail_as_table(detail: DetailTable) -> Table:
    """A library detail table (:func:`scheduling.tables.detail_table`) as a report :class:`Table`.

    >>> from scheduling.tables import detail_table
    >>> t = detail_as_table(detail_table("u", "Units", [Column("n", "Held", "count")], [{"n": 3}]))
    >>> t.header(), t.rows
    (['Held'], [[3]])
    """
    return Table(
        detail["key"],
        detail["title"],
        [Column(c["key"], c["label"], c["unit"]) for c in detail["columns"]],
        [list(row) for row in detail["rows"]],
        notes=list(detail["notes"]),
    )


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


# --------------------------------------------------------------------------- tables


def summary_table(comparison: Comparison, variant_label: str = "Scheduler") -> Table:
    """The library's comparison table laid out for files: one row per variant, one column per metric.

    Cells are the raw values (files round them by unit); the baseline's own saving is the
    text ``baseline``. The rows' notes (what a saving, the gap or eq. 12 mean) become the
    table's notes.
    """
    columns = [Column("scheduler", variant_label)]
    columns += [Column(row["key"], row["label"], row["unit"]) for row in comparison["rows"]]
    rows: list[list[Cell]] = []
    for k, variant in enumerate(comparison["variants"]):
        cells: list[Cell] = [variant]
        for row in comparison["rows"]:
            cell = row["cells"][k]
            cells.append("baseline" if row["relative"] and cell["baseline"] else cell["raw"])
        rows.append(cells)
    notes = list(dict.fromkeys(row["note"] for row in comparison["rows"] if row["note"]))
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
