"""``python -m scheduling sweep``: the document, the CSV and the page; exit 2 with every problem at
its flag."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scheduling.cli import main


@pytest.fixture
def scenario_file(tmp_path: Path, small_doc: dict[str, Any]) -> Path:
    path = tmp_path / "small.json"
    path.write_text(json.dumps(small_doc))
    return path


def test_sweep_writes_the_document_the_csv_and_the_page(
    scenario_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, points, page = tmp_path / "sweep.json", tmp_path / "points.csv", tmp_path / "sweep.html"
    code = main(["sweep", str(scenario_file), "--vary", "counts.m1.large=1,3", "--vary", "load.jobs=1,2",
                 "--scheduler", "edf-bfd", "--scheduler", "morpheus", "--seeds", "2", "-o", str(out),
                 "--csv", str(points), "--html", str(page)])
    assert code == 0
    doc = json.loads(out.read_text())
    assert len(doc["points"]) == 16 and doc["axes"] == {"counts.m1.large": [1, 3], "load.jobs": [1.0, 2.0]}
    rows = list(csv.reader(points.open()))
    assert len(rows) == 17 and rows[0][-1] == "Pareto front"
    assert "Pareto front" in page.read_text() and "plotly" in page.read_text().lower()
    err = capsys.readouterr().err
    assert "16 of 16 points" in err and "Points on the cost-misses front" in err

    again = tmp_path / "again.json"
    assert main(["sweep", str(scenario_file), "--vary", "counts.m1.large=1,2,3", "--vary",
                 "prices.m1.large=0.5,1", "--sample", "3", "--seed", "9", "-q", "-o", str(again)]) == 0
    sampled = json.loads(again.read_text())
    assert len(sampled["points"]) == 3 and sampled["sample"] == 3
    assert main(["sweep", str(scenario_file), "--vary", "counts.m1.large=1,2,3", "--vary",
                 "prices.m1.large=0.5,1", "--sample", "3", "--seed", "9", "-q", "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == sampled  # the same sample with the same seed


def test_bad_input_exits_2_with_every_problem_at_its_flag(
    scenario_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["sweep", str(scenario_file), "--vary", "counts.m1.large=1,-1", "--vary", "prices=2",
                 "--vary", "load.jobs=1", "--vary", "load.sizes=2", "--scheduler", "edf-quantum",
                 "--seeds", "0", "-q"])
    assert code == 2
    errors = capsys.readouterr().err.splitlines()
    assert "error: --vary counts.m1.large[1]: must be a whole number from 0 to 100,000" in errors
    assert any(e.startswith("error: --vary prices: is not an axis") for e in errors)
    assert "error: --vary load.sizes: vary one load axis (load.jobs or load.sizes), not both" in errors
    assert any(e.startswith("error: --scheduler[0]: unknown placement 'quantum'") for e in errors)
    assert "error: --seeds: must be a whole number from 1 to 100" in errors
    assert not any("Traceback" in e for e in errors)

    assert main(["sweep", str(scenario_file), "--vary", "counts.m9=1", "-q"]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: --vary counts.m9: 'm9' is not a VM type of the scenario (m1.large, m1.xlarge)")
    assert main(["sweep", str(scenario_file), "--vary", "load.jobs", "-q"]) == 2
    assert "is not <axis>=<value>,<value>" in capsys.readouterr().err


def test_the_sweep_package_imports_no_django() -> None:
    code = ("import sys, scheduling.sweep, scheduling.sweep.cli, scheduling.sweep.charts, "
            "scheduling.sweep.setups; sys.exit(any(m.split('.')[0] in "
            "('django', 'rest_framework', 'planner') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], check=False, timeout=120).returncode == 0


def test_its_help_lists_every_axis(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["sweep", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert all(f"{prefix}." in out for prefix in ("counts", "prices", "reserved", "spot", "load", "options"))
    assert "60 % spot discount" in out
