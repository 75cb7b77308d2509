"""A multi-table trace's tables, read by one piece of code for Google 2011, Google 2019 and Alibaba 2018."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from scheduling import ScenarioError
from scheduling.importers import Source, alibaba2018, google2011, google2019
from scheduling.importers.trace_tables import MachineCount, TraceTables, csv_rows, table_columns
from scheduling.importers.traces import Report

PRICES = {"price_per_cpu_hour": 0.05, "price_per_gb_hour": 0.0}


def _count(sources: Sequence[Source], machines: MachineCount, options: Mapping[str, Any]) -> None:
    """``machine,cores,GB`` rows; an empty capacity is none."""
    for _, _, cells in csv_rows(sources, "machines", ("machine", "cores", "GB")):
        if machines.first(cells[0]):
            machines.add(float(cells[1]) if cells[1] else None, float(cells[2]) if cells[2] else None)


LAYOUT = TraceTables(
    ("tasks", "machines"),
    guess=lambda source: table_columns(source, {2: "tasks", 3: "machines"}),
    unknown="is no table of this trace",
    machines="machines",
    count_machines=_count,
    prefix="t",
)


def test_each_file_goes_to_the_table_its_path_names_else_to_the_one_its_columns_say() -> None:
    named = Source.from_text("trace/machines/part-0.csv.gz", "a,b\n")  # its path wins over its columns
    guessed = Source.from_text("part-1.csv", "\n\nm1,8,16\n")  # the first line that is not blank
    tasks = Source.from_text("part-2.csv", "t,1\n")
    assert LAYOUT.split([named, guessed, tasks]) == {"tasks": [tasks], "machines": [named, guessed]}
    with pytest.raises(ScenarioError) as info:
        LAYOUT.split([tasks, Source.from_text("odd.csv", "1,2,3,4\n")])
    assert [str(e) for e in info.value.errors] == ["odd.csv: is no table of this trace"]
    with pytest.raises(ScenarioError) as info:
        LAYOUT.split([Source.from_text("", "")])  # pasted text with nothing in it
    assert [str(e) for e in info.value.errors] == ["text: is no table of this trace"]


def test_csv_rows_skip_blank_lines_and_name_the_line_and_the_columns_of_a_bad_one() -> None:
    first = Source.from_text("a.csv", "1,2\n\n3,4\r\n")
    second = Source.from_text("b.csv", "5,6\n7\n")
    rows = csv_rows([first, second], "pairs", ("left", "right"))
    assert [(s.name, n, cells) for s, n, cells in [next(rows), next(rows), next(rows)]] == [
        ("a.csv", 1, ["1", "2"]), ("a.csv", 3, ["3", "4"]), ("b.csv", 1, ["5", "6"]),
    ]  # fmt: skip
    with pytest.raises(ScenarioError) as info:
        next(rows)
    assert [str(e) for e in info.value.errors] == ["b.csv line 2: has 1 columns; pairs has 2: left, right"]


def test_each_machine_counts_once_and_those_without_a_capacity_are_left_out_and_said() -> None:
    machines = Source.from_text("machines.csv", "m1,8,16\nm2,8,16.004\nm1,4,8\nm3,,\nm3,8,16\nm4,16,32\n")
    report = Report()
    tables = LAYOUT.read([machines], PRICES, report, None)
    assert tables == {"tasks": [], "machines": [machines]}
    assert report.vm_types == [
        {"name": "t-8c-16g", "capacity": {"cpu": 8.0, "mem": 16.0}, "price_per_hour": 0.4, "count": 2},
        {"name": "t-16c-32g", "capacity": {"cpu": 16.0, "mem": 32.0}, "price_per_hour": 0.8, "count": 1},
    ]
    assert [str(w) for w in report.warnings()] == [
        "machines: 1 machines added without a CPU or memory capacity are left out"
    ]


def test_a_cluster_given_by_the_caller_leaves_the_machine_table_unread() -> None:
    def unread() -> Any:
        raise AssertionError("the machine table was opened")

    report = Report()
    LAYOUT.read([Source("machines.csv", unread)], PRICES, report, [{"name": "given"}])
    assert report.vm_types is None and report.warnings() == ()


@pytest.mark.parametrize("module", [google2011, google2019, alibaba2018])
def test_every_multi_table_format_declares_its_tables_once(module: Any) -> None:
    assert module.LAYOUT.tables == module.IMPORTER.tables == module.TABLES
    assert module.LAYOUT.machines in module.LAYOUT.tables
