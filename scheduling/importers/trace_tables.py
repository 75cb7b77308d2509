"""A multi-table trace's files: which table each one is, their rows, and the cluster of its machines.

Google's 2011 and 2019 traces and Alibaba's 2018 trace each come as tables (jobs, tasks or
instances, machines), every table one or more files read a line at a time. What differs per
format (its columns, its event codes, the rule that makes jobs of its rows) stays in the
format's module; what each of them does with its files is here, once:

* :class:`TraceTables`, declared once per format: its tables; each file to its table, by the
  table's name in its path (:func:`~.sources.table_of`) or else by the format's look at its
  first line (:func:`table_columns` for a CSV table without a header: its number of columns);
  its machine table counted (:class:`MachineCount`: each machine once, at the first row the
  format takes for it, by capacity) and made VM types (:func:`~.traces.vm_types_of_machines`)
  unless the caller gives the cluster;
* :func:`csv_rows`: the rows of a CSV table without a header, split into cells, their number
  checked, blank lines skipped, never more than the current line held.

>>> def count(sources, machines, options):
...     for _, _, cells in csv_rows(sources, "machines", ("machine", "cores", "GB")):
...         if machines.first(cells[0]):
...             machines.add(float(cells[1]), float(cells[2]))
>>> layout = TraceTables(("tasks", "machines"), guess=lambda source: None, unknown="is no table",
...                      machines="machines", count_machines=count, prefix="t")
>>> report = Report()
>>> tables = layout.read([Source.from_text("machines.csv", "m1,8,16\\nm2,8,16\\nm1,4,8\\n")],
...                      {"price_per_cpu_hour": 0.05, "price_per_gb_hour": 0}, report, None)
>>> tables["tasks"], report.vm_types
([], [{'name': 't-8c-16g', 'capacity': {'cpu': 8.0, 'mem': 16.0}, 'price_per_hour': 0.4, 'count': 2}])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ScenarioError
from .sources import Source, line_of, numbered_lines, table_of
from .traces import Report, vm_types_of_machines

__all__ = ["CountMachines", "MachineCount", "TraceTables", "csv_cells", "csv_rows", "table_columns"]


def csv_cells(line: str) -> list[str]:
    """The cells of a line of CSV without quoting (the traces' tables have none)."""
    return line.rstrip("\r\n").split(",")


def table_columns(
    source: Source, tables: Mapping[int, str], *, split: Callable[[str], list[str]] = csv_cells
) -> str | None:
    """The table of a file its name does not give, by the column count of its first line
    (``tables``: column count -> table)."""
    for _, line in numbered_lines(source):
        if line.strip():
            return tables.get(len(split(line)))
    return None


def csv_rows(
    sources: Iterable[Source], table: str, columns: tuple[str, ...]
) -> Iterator[tuple[Source, int, list[str]]]:
    """``(source, line number, cells)`` of each line of a headerless CSV table, file after file.

    A blank line is skipped; any other line without exactly one cell per column is a
    :class:`ScenarioError` at its line naming the table's columns.
    """
    width = len(columns)
    for source in sources:
        for n, line in numbered_lines(source):
            cells = line.rstrip("\r\n").split(",")  # csv_cells, inlined: the hot loop of a trace
            if len(cells) != width:
                if not line.strip():
                    continue
                raise ScenarioError.single(
                    line_of(source, n),
                    f"has {len(cells)} columns; {table} has {width}: {', '.join(columns)}",
                )
            yield source, n, cells


class MachineCount:
    """A trace's machines counted by capacity, each machine once.

    A format reads its machine table and, for each row that may add a machine, asks
    :meth:`first`; for a machine seen first it gives the capacity (:meth:`add`), or says it has
    none (:meth:`add` of ``None``: the machine is left out and counted).
    """

    def __init__(self) -> None:
        self.seen: set[Hashable] = set()
        #: ``(cores, GB)``, each rounded to 0.01, -> how many machines have it
        self.capacities: Counter[tuple[float, float]] = Counter()
        #: machines whose first row gave no capacity
        self.unknown = 0

    def first(self, machine: Hashable) -> bool:
        """Whether ``machine`` is seen here for the first time (it is seen from now on)."""
        if machine in self.seen:
            return False
        self.seen.add(machine)
        return True

    def add(self, cores: float | None, gb: float | None = None) -> None:
        """The capacity of the machine just seen first: ``cores`` and ``gb`` (``None``: it has none)."""
        if cores is None or gb is None:
            self.unknown += 1
            return
        self.capacities[(round(cores, 2), round(gb, 2))] += 1


#: ``count(sources, machines, options)``: read a machine table's files into ``machines``.
CountMachines = Callable[[Sequence[Source], MachineCount, Mapping[str, Any]], None]


@dataclass(frozen=True)
class TraceTables:
    """The tables of a trace format, declared once: what its files may be and how its machines count.

    ``tables``: the tables' names (a file's path names its table); ``guess(source)``: the table
    of a file whose path names none, from its first line (``None``: none of them); ``unknown``:
    what the error on such a file says (how the format's files are named, what they hold);
    ``machines``: the table of machines, read by ``count_machines`` into VM types named
    ``<prefix>-<cores>c-<GB>g``.
    """

    tables: tuple[str, ...]
    guess: Callable[[Source], str | None]
    unknown: str
    machines: str
    count_machines: CountMachines
    prefix: str

    def read(
        self,
        sources: Sequence[Source],
        options: Mapping[str, Any],
        report: Report,
        vm_types: Sequence[Mapping[str, Any]] | None,
    ) -> dict[str, list[Source]]:
        """The files of each table (every table a key, in declared order), once the machines'
        cluster is in ``report.vm_types`` (:meth:`cluster`). Reads each file's first line when its
        path names no table, and the whole machine table."""
        tables = self.split(sources)
        self.cluster(tables[self.machines], options, report, vm_types)
        return tables

    def split(self, sources: Iterable[Source]) -> dict[str, list[Source]]:
        """The files of each table: by the table named in a file's path (:func:`~.sources.table_of`),
        else by :attr:`guess`; a file that is neither is a :class:`ScenarioError` saying :attr:`unknown`."""
        out: dict[str, list[Source]] = {t: [] for t in self.tables}
        for source in sources:
            table = table_of(source.name, self.tables) or self.guess(source)
            if table is None:
                raise ScenarioError.single(source.name or "text", self.unknown)
            out[table].append(source)
        return out

    def cluster(
        self,
        sources: Sequence[Source],
        options: Mapping[str, Any],
        report: Report,
        vm_types: Sequence[Mapping[str, Any]] | None,
    ) -> None:
        """The cluster of the machine table's files ``sources``, as ``report.vm_types``.

        Only when there are such files and the caller gives no cluster (``vm_types`` is
        ``None``): machines without a capacity are counted in the report, the others become VM
        types (:func:`~.traces.vm_types_of_machines`, priced by ``options``).
        """
        if not sources or vm_types is not None:
            return
        machines = MachineCount()
        self.count_machines(sources, machines, options)
        if machines.unknown:
            left_out = "machines added without a CPU or memory capacity are left out"
            report.count(self.machines, left_out, machines.unknown)
        if machines.capacities:
            report.vm_types = vm_types_of_machines(
                machines.capacities, options, prefix=self.prefix, report=report
            )
