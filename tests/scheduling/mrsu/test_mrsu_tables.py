"""The MRSU detail tables are declared once (presenter columns) and read the same from a
document (reports, CLI) and from the summary a run stores (the page)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scheduling.mrsu import mrsu_advise, mrsu_result, mrsu_sweep, parse_mrsu_input, scenario_problem
from scheduling.mrsu.cli import main
from scheduling.mrsu.tables import (
    ADVISOR_COLUMNS,
    APPLICATION_COLUMNS,
    DIMENSION_COLUMNS,
    FRAMEWORK_COLUMNS,
    SWEEP_COLUMNS,
    UNIT_COLUMNS,
    VM_TYPE_COLUMNS,
    mrsu_tables,
    result_summary,
)
from scheduling.scenario import parse_scenario
from scheduling.tables import UNITS, Column, table_text
from tests.scheduling.mrsu.mrsu_scenarios import SCENARIO

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = json.loads((ROOT / "examples" / "mrsu" / "example.json").read_text())
ALL_COLUMNS = {
    "units": UNIT_COLUMNS,
    "dimensions": DIMENSION_COLUMNS,
    "applications": APPLICATION_COLUMNS,
    "advisor": ADVISOR_COLUMNS,
    "advisor_vm_types": VM_TYPE_COLUMNS,
    "advisor_frameworks": FRAMEWORK_COLUMNS,
    "sweep": SWEEP_COLUMNS,
}


@pytest.fixture(scope="module")
def docs() -> dict:
    scenario = parse_scenario(SCENARIO)
    problem, base = scenario_problem(scenario, slots=4)
    out: dict = {}
    for comp in ("gcd", "min"):
        for mode in ("ft", "id"):
            out[f"{comp}-{mode}"] = {**mrsu_result(problem, composition=comp, mode=mode, slots_valid=2),
                                     "base_units": base}
    out["advisor"] = mrsu_advise(scenario, unit={"cpu": 1, "mem": 4})
    for load in (0.5, 1.2):
        out[f"sweep {load}"] = mrsu_sweep(loads=[load], seeds=2, applications=4, slots=3)
    return json.loads(json.dumps(out))  # as stored: JSON


def test_every_column_is_a_presenter_column_with_a_known_unit():
    for columns in ALL_COLUMNS.values():
        assert all(isinstance(c, Column) and c.unit in UNITS for c in columns)
    units = {c.key: c.unit for c in SWEEP_COLUMNS}
    assert units["dissatisfied_pct"] == units["dissatisfied_apps_pct"] == units["load_pct"] == "percent"


def test_the_files_tables_from_documents(docs):
    tables = {t["key"]: t for t in mrsu_tables(docs, currency="€", detail=True)}
    assert list(tables) == list(ALL_COLUMNS)
    for key, table in tables.items():
        assert [c["key"] for c in table["columns"]] == [c.key for c in ALL_COLUMNS[key]]
        assert all(len(row) == len(table["columns"]) for row in table["rows"])
    # every window of every allocation, the tuple in the scenario's units (cpu in tenths of a core)
    units = tables["units"]
    assert [r[:2] for r in units["rows"]][:2] == [["gcd-ft", "0-1"], ["gcd-ft", "2-3"]]
    assert len(units["rows"]) == 8 and all(r[4] == 2 for r in units["rows"])
    assert units["rows"][0][5] == "cpu 0.1, mem 1"
    # the advisor's recommendation is the marked row; prices in the currency given
    advice = tables["advisor"]
    recommended = docs["advisor"]["recommended"]
    assert [r[0] for r, m in zip(advice["rows"], advice["marked"], strict=True) if m] == [recommended]
    assert advice["shown"][0][7].startswith("€") and advice["shown"][0][7].endswith("/h")
    # the sweep: 2 compositions x 5 methods x 2 loads, the curves' own numbers
    sweep = tables["sweep"]
    assert len(sweep["rows"]) == 20
    gcd_ft_50 = sweep["rows"][0]
    assert gcd_ft_50[:3] == ["GCD", "MRSU-FT", 50.0]
    curves = docs["sweep 0.5"]["curves"]["gcd"]["mrsu-ft"]
    keys = [c.key for c in SWEEP_COLUMNS]
    assert keys[3:5] == ["dissatisfied_apps_pct", "dissatisfied_pct"]  # Fig. 5's measure first
    for metric in ("dissatisfied_apps_pct", "dissatisfied_pct", "under", "over", "over_every_cell"):
        assert gcd_ft_50[keys.index(metric)] == curves[metric][0]
    # applications: one row per allocation and application
    assert len(tables["applications"]["rows"]) == 4 * 2


def test_the_page_reads_the_same_rows_from_the_summaries(docs):
    summaries = json.loads(json.dumps({k: result_summary(v) for k, v in docs.items()}))
    page = {t["key"]: t for t in mrsu_tables(summaries, currency="€")}
    files = {t["key"]: t for t in mrsu_tables(docs, currency="€")}
    assert list(page) == ["units", "dimensions", "advisor", "advisor_vm_types", "advisor_frameworks"]
    # a summary keeps the first window: the files' first row of each allocation, shown alike
    first = {}
    for row in files["units"]["shown"]:
        first.setdefault(row[0], row)
    assert page["units"]["shown"] == list(first.values())
    for key in ("dimensions", "advisor", "advisor_vm_types", "advisor_frameworks"):
        assert page[key] == files[key]


def test_a_summary_stored_before_the_first_window_was_kept_still_shows():
    doc = mrsu_result(parse_mrsu_input(EXAMPLE), composition="gcd", mode="ft")
    summary = result_summary(doc)
    del summary["first_window"]
    table = mrsu_tables({"gcd-ft": summary})[0]
    assert table["shown"] == [["gcd-ft", "—", "cpu 2, mem 8, disk 100, net 500", "8", "1", "—"]]


def test_the_command_line_prints_the_pages_tables(capsys, tmp_path):
    path = tmp_path / "in.json"
    path.write_text(json.dumps(EXAMPLE))
    assert main(["mrsu", str(path), "--mode", "id", "-o", str(tmp_path / "out.json")]) == 0
    err = capsys.readouterr().err
    doc = json.loads((tmp_path / "out.json").read_text())
    units, dimensions = mrsu_tables({"gcd-id": result_summary(doc)})
    assert table_text(units) in err and table_text(dimensions) in err
    assert "Misallocation per dimension" in err
    # the comparison: Fig. 5's measure first, application-slots short beside it
    assert err.splitlines()[1].startswith("Dissatisfied applications")
    assert err.splitlines()[2].startswith("Application-slots short")
    assert main(["mrsu", str(path), "-q", "-o", str(tmp_path / "out.json")]) == 0
    assert capsys.readouterr().err == ""
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(SCENARIO))
    assert main(["mrsu-advise", str(scenario), "-o", str(tmp_path / "a.json")]) == 0
    err = capsys.readouterr().err
    assert "Which unit to sell" in err and "Stranded capacity per VM type" in err and "Recommended:" in err
