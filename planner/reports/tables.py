"""Tables of a report: the :class:`Table` layout type every kind's content is made of.

A :class:`Table` holds plain cells (``str``, ``int``, ``float`` or ``None``); the CSV, XLSX
and PDF writers only lay it out. A kind's tables come from the library: its comparison
(:func:`summary_table`) and its detail tables (:func:`detail_as_table`, :func:`rows_table`).

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

from scheduling.tables import Cell, Column, Comparison, DetailTable, detail_table, labelled

__all__ = [
    "DANGEROUS_PREFIXES",
    "Cell",
    "Column",
    "Table",
    "detail_as_table",
    "neutralise",
    "rows_table",
    "summary_table",
]


#: Leading characters that make a spreadsheet read a text cell as a formula (OWASP CSV
#: injection): ``=``, ``+``, ``-``, ``@``, tab, carriage return and line feed.
DANGEROUS_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "\n")


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


def rows_table(key: str, title: str, columns: Sequence[Column], rows: Sequence[Mapping[str, Any]]) -> Table:
    """The library's row dicts and column declarations as a report :class:`Table`."""
    return detail_as_table(detail_table(key, title, columns, rows))
