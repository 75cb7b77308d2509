"""allocate(), the variant specs and ``python -m scheduling allocate`` end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scheduling import parse_scenario
from scheduling.errors import ScenarioError
from scheduling.fairness import ALLOCATION_VARIANTS, allocate, parse_allocation_variant
from scheduling.fairness.tables import allocation_framework_table, fairness_table
from scheduling.tables import table_text

ROOT = Path(__file__).resolve().parents[3]
TABLE_I = ROOT / "examples" / "paper000-table1.json"


def scenario():
    return parse_scenario(json.loads(TABLE_I.read_text()))


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scheduling", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_every_listed_variant_parses_to_itself():
    for spec in ALLOCATION_VARIANTS:
        v = parse_allocation_variant(spec, path="v")
        assert v.spec == spec and v.label
    assert parse_allocation_variant(" DRF ", path="v").spec == "drf/rrr"
    assert parse_allocation_variant("pf", path="v").integer is False
    for bad, words in (
        ("", "must be"),
        ("drf/x", "unknown server selection"),
        ("bf-drf/rrr", "best fit"),
        ("pf/whole", "unknown option"),
        ("fifo", "unknown policy"),
    ):
        with pytest.raises(ScenarioError) as e:
            parse_allocation_variant(bad, path="variants[3]")
        assert e.value.errors[0].path == "variants[3]" and words in e.value.errors[0].message


def test_allocate_a_scenario_gives_the_document():
    doc = allocate(scenario(), policy="rpsdsf", servers="joint", trials=3, seed=2).to_dict()
    assert doc["label"] == "rPS-DSF (joint)" and doc["method"] == "progressive" and doc["trials"] == 3
    assert [m["id"] for m in doc["machines"]] == ["c1#1", "c2#1"]
    assert doc["mean"] == {"f1": {"c1#1": 19.0, "c2#1": 2.0}, "f2": {"c1#1": 2.0, "c2#1": 19.0}}
    assert doc["total_tasks"] == 42.0 and doc["total_std"] == 0.0 and doc["task_efficiency"] == 42.0
    assert doc["pf_inequality"] is None and doc["solver"] is None
    table = fairness_table({doc["label"]: doc})
    assert table["variants"] == ["rPS-DSF (joint)"]


def test_rps_dsf_joint_criteria_every_trial_by_hand():
    # rPS-DSF joint ends in 19, 2 / 2, 19 in every trial: x_1 = x_2 = 21, residuals c1 (3, 1), c2 (1, 3).
    # DRF 21 x 5/130; TSF 21 / 26; PS-DSF f1 21 max(5/100, 1/30) = 1.05 on c1 (3.5 on c2);
    # rPS-DSF f1 21 max(5/3, 1/1) = 35 on c1 (21 max(5/1, 1/3) = 105 on c2); f2 the mirror image.
    doc = allocate(scenario(), policy="rpsdsf", servers="joint", trials=20, seed=5).to_dict()
    assert doc["outcomes"] == [{"tasks": {"f1": [19, 2], "f2": [2, 19]}, "trials": 20}]
    table = allocation_framework_table({doc["label"]: doc})
    keys = [c["key"] for c in table["columns"]]
    rows = {row[1]: dict(zip(keys, row, strict=True)) for row in table["rows"]}
    for fw, best in (("f1", "c1#1"), ("f2", "c2#1")):
        assert rows[fw]["variant"] == "rPS-DSF (joint)" and rows[fw]["tasks"] == 21.0
        assert rows[fw]["tasks_std"] == 0.0
        assert rows[fw]["dominant_share"] == pytest.approx(2100 * 5 / 130)
        assert rows[fw]["tsf"] == pytest.approx(2100 / 26)
        assert (rows[fw]["psdsf_min"], rows[fw]["psdsf_min_machine"]) == (pytest.approx(105.0), best)
        assert (rows[fw]["rpsdsf_min"], rows[fw]["rpsdsf_min_machine"]) == (pytest.approx(3500.0), best)


def test_allocate_refuses_what_does_not_apply_with_paths():
    s = scenario()
    with pytest.raises(ScenarioError) as e:
        allocate(s, policy="drf", integer=False, tolerance=0.1)
    assert {x.path for x in e.value.errors} == {"integer", "tolerance"}
    with pytest.raises(ScenarioError) as e:
        allocate(s, policy="mmf", servers="rrr", trials=5)
    assert {x.path for x in e.value.errors} == {"servers", "trials"}
    no_demand = json.loads(TABLE_I.read_text())
    del no_demand["frameworks"][1]["task_demand"]
    with pytest.raises(ScenarioError) as e:
        allocate(parse_scenario(no_demand), policy="drf")
    assert str(e.value) == "frameworks[1].task_demand: required by the fairness engine"


def test_cli_allocate_prints_the_document_and_a_table(tmp_path):
    out = run(
        "allocate",
        str(TABLE_I),
        "--policy",
        "drf",
        "--trials",
        "50",
        "--seed",
        "3",
        "--html",
        str(tmp_path / "a.html"),
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    for key in ("machines", "mean", "std", "total_tasks", "total_std", "task_efficiency"):
        assert key in doc
    assert doc["machines"][0] == {"id": "c1#1", "vm_type": "c1", "capacity": {"cpu": 100, "mem": 30}}
    assert doc["trials"] == 50 and doc["seed"] == 3 and doc["total_std"] > 0
    assert "Tasks allocated" in out.stderr and "DRF (rrr)" in out.stderr
    # ... then every criterion per framework: the library's table, as the page and reports show it
    criteria = table_text(allocation_framework_table({doc["label"]: doc}))
    assert out.stderr.rstrip("\n").endswith(criteria) and "rPS-DSF (min over servers)" in criteria
    page = (tmp_path / "a.html").read_text()
    assert "DRF (rrr)" in page and "plotly" in page.lower() and "PS-DSF (min over servers)" in page
    again = run(
        "allocate", "-", "--policy", "drf", "--trials", "50", "--seed", "3", "-q", stdin=TABLE_I.read_text()
    )
    assert again.returncode == 0 and json.loads(again.stdout) == doc and again.stderr == ""


def test_cli_allocate_bad_input_exits_2_with_paths(tmp_path):
    bad = json.loads(TABLE_I.read_text())
    bad["frameworks"][0]["task_demand"]["cpu"] = -1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = run("allocate", str(path), "--policy", "tsf")
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert "frameworks[0].task_demand.cpu" in out.stderr
    out = run("allocate", str(TABLE_I), "--policy", "drf", "--trials", "0")
    assert out.returncode == 2 and "--trials: must be a whole number from 1 to 100,000" in out.stderr
    out = run("allocate", str(TABLE_I), "--policy", "bf-drf", "--servers", "joint")
    assert out.returncode == 2 and "servers:" in out.stderr
