"""The per-dimension table (mrsu.tables.DIMENSION_COLUMNS / dimension_rows): hand-worked figures on a
two-application, two-slot input, and a scenario's amounts converted from its base units (a
1.5-core executor makes the cpu base unit a tenth of a core). Over-allocation counts, as paper
002 counts it, only in the (slot, dimension) cells where some application is short; the
every-cell figures stay beside it (issue 17)."""

from __future__ import annotations

import json

import pytest

from scheduling.mrsu import mrsu_result, parse_mrsu_input, scenario_problem
from scheduling.mrsu.cli import main
from scheduling.mrsu.tables import DIMENSION_COLUMNS, DIMENSION_NOTE, mrsu_tables, result_summary
from scheduling.scenario import parse_scenario
from scheduling.tables import table_text
from tests.scheduling.mrsu.mrsu_scenarios import SCENARIO

# capacity 8 cpu, 8 mem; equal priorities.
#   GCD: cpu gcd(4, 2, 2, 2, 8) = 2, mem gcd(2, 6, 2, 2, 8) = 2: the unit (2, 2), X = 4 units.
#   Needs: a (2, 1) units, b (3, 1). Slot 0 asks 5 > 4: floor(0.5 x 4) = 2 each, a is
#   satisfied, b is one short. Slot 1: one each, exact.
#   Allocated, slot 0: a (4, 4) for (4, 2); b (4, 4) for (2, 6).
#   rho, slot 0: a cpu 0, mem 2/4 = 0.5; b cpu 2/4 = 0.5, mem (4 - 6)/6 = -1/3; slot 1 all 0.
#   Only (slot 0, mem) is contended (b is short of mem; nobody of cpu): a's 2 GB surplus counts,
#   b's 2 cpu surplus does not. Means over the 2 x 2 cells of a dimension: cpu over 0 (every
#   cell: 0.5/4), under 0; mem over 0.5/4 (every cell the same), under (1/3)/4 = 1/12.
#   Over-allocated per slot: cpu 0 (every slot: 2 in slot 0, by b: 1); mem 2 by a in slot 0: 1.
#   VM-static: peaks a (4, 2), b (2, 6) both fit (6, 8 of 8, 8); nobody is ever short, so no
#   over-allocation counts. Every cell: slot 1 gives a 2 cpu too many (rho 2/4) and b 4 mem
#   (rho 4/6): cpu 0.5/4, mem (2/3)/4; over-allocated per slot cpu 1, mem 2.
#   Optimal: slot 0 totals (6, 8) fit, so exactly the requirements: all 0.
HAND = {
    "capacity": {"cpu": 8, "mem": 8},
    "applications": [
        {"name": "a", "requirements": [{"cpu": 4, "mem": 2}, {"cpu": 2, "mem": 2}]},
        {"name": "b", "requirements": [{"cpu": 2, "mem": 6}, {"cpu": 2, "mem": 2}]},
    ],
}
HAND_ROWS = [
    # dimension, allocation, under, over, % of application-slots short of it, over-allocated per slot
    # while some application is short, over-allocated per slot in every slot
    ("cpu", "gcd-ft", 0.0, 0.0, 0.0, 0.0, 1.0),
    ("cpu", "VM-static", 0.0, 0.0, 0.0, 0.0, 1.0),
    ("cpu", "Optimal", 0.0, 0.0, 0.0, 0.0, 0.0),
    ("mem", "gcd-ft", 1 / 12, 0.125, 25.0, 1.0, 1.0),  # b in slot 0, one of four
    ("mem", "VM-static", 0.0, 0.0, 0.0, 0.0, 2.0),
    ("mem", "Optimal", 0.0, 0.0, 0.0, 0.0, 0.0),
]

# cpu 1.5 per executor: base unit 0.1 cpu (mem stays 1 GB). Horizon 0-80 s in 4 slots of 20 s.
#   spark (2 x (1.5, 4) from 0 to 50): (30, 8) tenths/GB in slots 0-2, nothing in slot 3;
#   etl (1 x (2, 8) from 20 to 80): nothing in slot 0, (20, 8) in slots 1-3. Capacity (320, 80).
#   MIN-FT: the unit (20, 8) = 2 cores, 8 GB. spark needs max(ceil(30/20), 1) = 2 units = (40, 16):
#   10 tenths and 8 GB over in slots 0-2; etl exactly 1 unit. Over-allocated per slot: cpu 30/4 =
#   7.5 tenths = 0.75 cores, mem 24/4 = 6 GB.
#   GCD-FT: the unit (10, 8) = 1 core, 8 GB: spark 3 units (30, 24), etl 2 units (20, 16):
#   cpu exact, mem 16 + 8 over: (16 + 24 + 24 + 8)/4 = 18 GB.
#   VM-static: the peaks (30, 8) and (20, 8) every slot: spark idle in slot 3, etl in slot 0:
#   cpu (30 + 20)/4 = 12.5 tenths = 1.25 cores, mem (8 + 8)/4 = 4 GB.
#   The cluster holds everyone's requirement in every slot (MIN-FT: 3 of 10 units), so nobody
#   is short: these are the every-slot amounts; counted as the paper counts, all are 0.


def _rows(table: dict) -> list[tuple]:
    return [tuple(r) for r in table["rows"]]


def _close(rows: list[tuple], expected: list[tuple]) -> None:
    assert len(rows) == len(expected)
    for row, want in zip(rows, expected, strict=True):
        assert row[:2] == want[:2]
        assert row[2:] == pytest.approx(want[2:], abs=1e-8)


@pytest.fixture(scope="module")
def hand() -> dict:
    return json.loads(json.dumps(mrsu_result(parse_mrsu_input(HAND), composition="gcd", mode="ft")))


@pytest.fixture(scope="module")
def scenario_docs() -> dict:
    problem, base = scenario_problem(parse_scenario(SCENARIO), slots=4)
    assert problem.requirements.tolist() == [
        [[30, 8], [30, 8], [30, 8], [0, 0]],
        [[0, 0], [20, 8], [20, 8], [20, 8]],
    ]
    assert base == {"cpu": 0.1, "mem": 1.0}
    docs = {f"{c}-ft": mrsu_result(problem, composition=c, mode="ft", base_units=base)
            for c in ("gcd", "min")}
    return json.loads(json.dumps(docs))


def _table(docs: dict) -> dict:
    return {t["key"]: t for t in mrsu_tables(docs)}["dimensions"]


def test_the_hand_worked_document(hand):
    assert hand["mrsu"] == {"cpu": 2, "mem": 2} and hand["allocation"] == {"a": [2, 1], "b": [2, 1]}
    m = hand["misallocation"]
    assert m["by_dimension"] == {
        "cpu": {"over": 0, "over_every_cell": 0.125, "under": 0, "short_pct": 0},
        "mem": {"over": 0.125, "over_every_cell": 0.125, "under": pytest.approx(1 / 12), "short_pct": 25},
    }
    assert m["over"] == pytest.approx(0.5 / 8) and m["over_every_cell"] == pytest.approx(1 / 8)
    assert m["over_allocated"] == {"cpu": 0, "mem": 1}
    assert m["over_allocated_every_cell"] == {"cpu": 1, "mem": 1}
    assert m["by_application"] == {
        "a": {"over": 0.125, "over_every_cell": 0.125, "under": 0, "short_slots": 0},
        "b": {"over": 0, "over_every_cell": 0.125, "under": pytest.approx(1 / 12), "short_slots": 1},
    }
    vm = hand["baselines"]["vm-static"]["misallocation"]
    assert vm["over_allocated"] == {"cpu": 0, "mem": 0} and vm["over"] == 0
    assert vm["over_allocated_every_cell"] == {"cpu": 1, "mem": 2}
    assert "base_units" not in hand  # an input's amounts are already its units
    assert hand["dissatisfied_pct"] == 25.0  # b in slot 0, of four application-slots


def test_the_hand_worked_table_from_the_document_and_from_its_summary(hand):
    table = _table({"gcd-ft": hand})
    assert [c.key for c in DIMENSION_COLUMNS] == [c["key"] for c in table["columns"]]
    assert [c["key"] for c in table["columns"]] == [
        "dimension", "allocation", "under", "over", "short_pct", "over_allocated",
        "over_allocated_every_cell",
    ]
    _close(_rows(table), HAND_ROWS)
    assert table["shown"][3] == ["mem", "gcd-ft", "0.08", "0.12", "25.0%", "1", "1"]
    assert table["notes"] == [DIMENSION_NOTE]
    summary = json.loads(json.dumps(result_summary(hand)))  # as a run stores it
    assert _table({"gcd-ft": summary}) == table


def test_the_baselines_are_listed_once_after_the_units(hand):
    id_doc = mrsu_result(parse_mrsu_input(HAND), composition="min", mode="id")
    rows = _rows(_table({"gcd-ft": hand, "min-id": id_doc}))
    assert [r[:2] for r in rows[:4]] == [("cpu", "gcd-ft"), ("cpu", "min-id"), ("cpu", "VM-static"),
                                         ("cpu", "Optimal")]
    assert len(rows) == 2 * 4
    # documents of different requirements: each one's baselines, named by its unit
    other = mrsu_result(parse_mrsu_input({**HAND, "capacity": {"cpu": 4, "mem": 8}}), composition="gcd")
    labels = [r[1] for r in _rows(_table({"gcd-ft": hand, "other": other})) if r[0] == "cpu"]
    assert labels == ["gcd-ft", "other", "VM-static", "Optimal", "VM-static (other)", "Optimal (other)"]


def test_without_baselines_only_the_units_rows():
    doc = mrsu_result(parse_mrsu_input(HAND), composition="gcd", mode="ft", baselines=False)
    assert [r[:2] for r in _rows(_table({"gcd-ft": doc}))] == [("cpu", "gcd-ft"), ("mem", "gcd-ft")]


def test_a_summary_stored_before_it_kept_the_dimensions_shows_no_such_table(hand):
    summary = result_summary(hand)
    del summary["by_dimension"]
    assert [t["key"] for t in mrsu_tables({"gcd-ft": summary})] == ["units"]


def test_a_scenarios_document_is_in_base_units_and_the_table_in_its_own(scenario_docs):
    gcd, mn = scenario_docs["gcd-ft"], scenario_docs["min-ft"]
    # the document: the problem's integers, and what one of them stands for
    assert mn["base_units"] == {"cpu": 0.1, "mem": 1.0}
    assert mn["mrsu"] == {"cpu": 20, "mem": 8} and mn["capacity"] == {"cpu": 320, "mem": 80}
    assert mn["misallocation"]["over_allocated_every_cell"] == {"cpu": 7.5, "mem": 6}
    assert gcd["misallocation"]["over_allocated_every_cell"] == {"cpu": 0, "mem": 18}
    vm = mn["baselines"]["vm-static"]["misallocation"]
    assert vm["over_allocated_every_cell"] == {"cpu": 12.5, "mem": 4}
    # nobody is short: no over-allocation counts as the paper counts it
    for doc in (mn, gcd):
        for m in (doc["misallocation"], doc["baselines"]["vm-static"]["misallocation"]):
            assert m["over_allocated"] == {"cpu": 0, "mem": 0} and m["over"] == 0
    # the table: cores and GB, through mrsu.tables.in_units
    table = _table(scenario_docs)
    amounts = {(r[0], r[1]): r[6] for r in _rows(table)}
    assert amounts == {
        ("cpu", "gcd-ft"): 0.0, ("cpu", "min-ft"): 0.75, ("cpu", "VM-static"): 1.25, ("cpu", "Optimal"): 0.0,
        ("mem", "gcd-ft"): 18.0, ("mem", "min-ft"): 6.0, ("mem", "VM-static"): 4.0, ("mem", "Optimal"): 0.0,
    }
    assert {r[5] for r in _rows(table)} == {r[3] for r in _rows(table)} == {0.0}
    every = {d: mn["misallocation"]["by_dimension"][d]["over_every_cell"] for d in ("cpu", "mem")}
    # rho over, every cell: min-ft spark cpu (40 - 30)/40 in 3 of 8 cells; mem (16 - 8)/16 in 3 of 8
    assert every == {"cpu": pytest.approx(0.75 / 8), "mem": pytest.approx(1.5 / 8)}
    vm_every = {d: vm["by_dimension"][d]["over_every_cell"] for d in ("cpu", "mem")}
    assert vm_every == {"cpu": 0.25, "mem": 0.25}  # 2 idle cells of 8
    # the unit table converts with the same function: 2 cores
    units = {t["key"]: t for t in mrsu_tables(scenario_docs)}["units"]
    assert units["shown"][1][2] == "cpu 2, mem 8"


def test_the_command_line_shows_a_scenarios_amounts_in_its_units(capsys, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(SCENARIO))
    out = tmp_path / "out.json"
    assert main(["mrsu", str(path), "--composition", "min", "--slots", "4", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    doc = json.loads(out.read_text())
    assert doc["misallocation"]["over_allocated_every_cell"] == {"cpu": 7.5, "mem": 6}
    assert table_text(_table({"min-ft": result_summary(doc)})) in err
    cpu_row = next(line for line in err.splitlines() if line.startswith("cpu        min-ft"))
    assert cpu_row.split()[-2:] == ["0", "0.75"]  # while some application is short; every slot
