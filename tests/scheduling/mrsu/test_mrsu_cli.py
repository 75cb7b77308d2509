"""The mrsu, mrsu-sweep and mrsu-advise commands, the advisor and the MRSU charts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scheduling.errors import ScenarioError
from scheduling.mrsu.advisor import mrsu_advise, parse_unit
from scheduling.mrsu.charts import mrsu_figures, sweep_figures
from scheduling.mrsu.cli import main
from scheduling.scenario import parse_scenario

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "mrsu/example.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_mrsu_command_prints_the_document(capsys):
    code, out, _ = run(capsys, "mrsu", str(EXAMPLE), "--composition", "gcd", "--mode", "ft")
    assert code == 0
    doc = json.loads(out)
    assert doc["mrsu"] == {"cpu": 2, "mem": 8, "disk": 100, "net": 500}
    assert doc["units_available"] == 8
    assert set(doc["allocation"]) == {"web", "etl", "batch"} and len(doc["allocation"]["web"]) == 4
    assert {"over", "under"} <= set(doc["misallocation"]) and "dissatisfied_pct" in doc


def test_mrsu_id_units_per_dimension(capsys, tmp_path):
    code, _, _ = run(
        capsys,
        "mrsu",
        str(EXAMPLE),
        "--composition",
        "min",
        "--mode",
        "id",
        "--slots-valid",
        "2",
        "-o",
        str(tmp_path / "r.json"),
        "--html",
        str(tmp_path / "r.html"),
    )
    assert code == 0
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["units_available"] == {"cpu": 6, "mem": 12, "disk": 12, "net": 8}
    assert len(doc["windows"]) == 2
    assert isinstance(doc["allocation"]["web"][0], dict)
    assert "plotly" in (tmp_path / "r.html").read_text()[:2_000_000].lower()


@pytest.mark.parametrize(
    ("doc", "paths"),
    [
        (
            {"capacity": {"cpu": 0}, "applications": [{"requirements": [{"gpu": 1}]}]},
            ["capacity.cpu", "applications[0].requirements[0].gpu"],
        ),
        ([1, 2], [""]),
    ],
)
def test_bad_input_exits_2_with_paths(capsys, tmp_path, doc, paths):
    f = tmp_path / "in.json"
    f.write_text(json.dumps(doc))
    code, out, err = run(capsys, "mrsu", str(f))
    assert code == 2 and out == ""
    assert "Traceback" not in err
    for p in paths:
        assert f"error: {p}" in err


def test_not_json_and_missing_file(capsys, tmp_path):
    f = tmp_path / "in.json"
    f.write_text("{nope")
    code, _, err = run(capsys, "mrsu", str(f))
    assert code == 2 and "not JSON" in err
    code, _, err = run(capsys, "mrsu", str(tmp_path / "absent.json"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "mrsu", str(EXAMPLE), "--slots-valid", "0")
    assert code == 2 and "--slots-valid" in err


def test_sweep_command(capsys):
    code, out, err = run(
        capsys, "mrsu-sweep", "--loads", "50", "100", "--seeds", "2", "--applications", "6", "--slots", "3"
    )
    assert code == 0 and "100.0 %" in err
    doc = json.loads(out)
    assert doc["loads"] == [0.5, 1.0] and set(doc["curves"]["gcd"]) == {
        "mrsu-ft",
        "mrsu-id",
        "vm-static",
        "optimal",
        "vm-scaled",
    }
    # Fig. 5 as numbers on stderr: dissatisfied applications, then application-slots short beside
    tables = err[err.index("Dissatisfied applications (%), GCD"):].splitlines()
    assert tables[1].split() == ["Method", "50%", "100%"]
    ft = doc["curves"]["gcd"]["mrsu-ft"]
    assert tables[2].split() == ["MRSU-FT", *(f"{v:.1f}%" for v in ft["dissatisfied_apps_pct"])]
    slots = err[err.index("Application-slots short (%), GCD"):].splitlines()
    assert slots[2].split() == ["MRSU-FT", *(f"{v:.1f}%" for v in ft["dissatisfied_pct"])]
    code, _, err = run(capsys, "mrsu-sweep", "--loads", "50", "--seeds", "1", "--applications", "2", "-q")
    assert code == 0 and err == ""
    code, _, err = run(capsys, "mrsu-sweep", "--loads", "x", "--quiet")
    assert code == 2 and "--loads" in err
    # every bad value exits 2 at its flag (the declared parameters' rule: scheduling.mrsu.params)
    for flags, path in ((["--slots-valid", "0"], "--slots-valid"), (["--spread", "1.5"], "--spread"),
                        (["--loads", "0"], "--loads[0]"), (["--seed", "-1"], "--seed"),
                        (["--applications", "0"], "--applications")):
        code, _, err = run(capsys, "mrsu-sweep", *flags, "--seeds", "1", "--quiet")
        assert code == 2 and f"error: {path}: must be" in err, err
    code, _, err = run(capsys, "mrsu-sweep", "--seeds", "100001", "--quiet")
    assert code == 2 and "error: --seeds: must be a whole number from 1 to 100,000" in err
    # percentages only: 2.5 is 2.5 %, 2 is 2 % (no switch between fractions and percentages)
    code, out, _ = run(capsys, "mrsu-sweep", "--loads", "2", "2.5", "150%", "--seeds", "1", "--applications",
                       "3", "--slots", "2", "--quiet")
    assert code == 0 and json.loads(out)["loads"] == [0.02, 0.025, 1.5]


SCENARIO = {
    "name": "two types",
    "vm_types": [
        {"name": "m", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.4, "count": 2},
        {"name": "c", "capacity": {"cpu": 16, "mem": 20}, "price_per_hour": 0.5, "count": 1},
    ],
    "frameworks": [{"name": "spark", "task_demand": {"cpu": 2, "mem": 8}}, {"name": "web"}],
    "jobs": [
        {
            "id": "j1",
            "arrival_s": 0,
            "executors": 3,
            "executor": {"cpu": 1.5, "mem": 3},
            "duration_s": 10,
            "framework": "web",
        }
    ],
}


def test_advisor_by_hand():
    a = mrsu_advise(parse_scenario(SCENARIO), unit={"cpu": 1, "mem": 4})
    # scaled by 10 in cpu (1.5): gcd(20, 15, 80, 160) = 5 -> 0.5 cpu; mem gcd(8, 3, 32, 20) = 1
    gcd = a["candidates"]["gcd"]
    assert gcd["mrsu"] == {"cpu": 0.5, "mem": 1}
    # per machine: m min(16, 32) = 16, c min(32, 20) = 20 -> 52 units held
    assert gcd["vm_types"]["m"]["units_per_machine"] == 16 and gcd["vm_types"]["c"]["units_per_machine"] == 20
    assert gcd["units_held"] == 52
    # user unit (1, 4): web's (1.5 cpu, 3 GB) executor needs max(2, 1) = 2 units -> (2, 8): (0.5, 5) over
    user = a["candidates"]["user"]
    assert user["frameworks"]["web"]["units_per_executor"] == 2
    assert user["frameworks"]["web"]["over_allocated"] == {"cpu": 0.5, "mem": 5.0}
    # c holds min(16, 5) = 5 units of (1, 4), stranding 11 cpu: 0.1 per unit, m 8 units: 0.05 per unit
    assert user["vm_types"]["c"]["stranded"] == {"cpu": 11, "mem": 0}
    assert user["vm_types"]["m"]["price_per_unit"] == 0.05
    assert user["least_waste_vm_type"]["vm_type"] == "m" and user["least_waste_vm_type"]["as_good"] == []
    assert a["recommended"] in a["candidates"]


def test_the_advisor_names_the_types_as_good_as_its_pick() -> None:
    """Paper 003's three VM types all hold 4 GB a core: for the unit (1 cpu, 4 GB) each strands
    nothing at $0.06 a unit, so the pick (the first) has the other two as good."""
    from scheduling.mrsu.advisor import mrsu_advise
    from scheduling.mrsu.tables import advisor_rows
    from scheduling.scenario import load_scenario_json

    scenario = load_scenario_json((ROOT / "examples" / "paper003-light.json").read_text())
    doc = mrsu_advise(scenario, unit={"cpu": 1, "mem": 4})
    mix = doc["candidates"]["user"]["least_waste_vm_type"]
    assert (mix["vm_type"], mix["as_good"]) == ("m1.large", ["m1.xlarge", "m2.xlarge"])
    row = next(r for r in advisor_rows(doc) if r["candidate"] == "user")
    assert row["least_waste_vm_type"] == "25 x m1.large (as good: m1.xlarge, m2.xlarge)"


def test_advise_command_and_unit_errors(capsys, tmp_path):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(SCENARIO))
    code, out, _ = run(capsys, "mrsu-advise", str(f), "--unit", "cpu=1,mem=4")
    assert code == 0 and set(json.loads(out)["candidates"]) == {"gcd", "min", "user"}
    code, _, err = run(capsys, "mrsu-advise", str(f), "--unit", "cpu=1,disk=2")
    assert code == 2 and "--unit.disk" in err and "--unit.mem" in err
    with pytest.raises(ScenarioError):
        parse_unit("cpu=-1,mem=1", ("cpu", "mem"))


def test_parse_unit_names_errors_under_the_callers_path():
    with pytest.raises(ScenarioError) as exc:
        parse_unit("cpu=-1,gpu=2", ("cpu", "mem"), path="unit")
    assert [e.path for e in exc.value.errors] == ["unit.cpu", "unit.gpu", "unit.mem"]
    with pytest.raises(ScenarioError) as exc:
        parse_unit({"cpu": "x", "mem": True}, ("cpu", "mem"), path="request.unit")
    assert [(e.path, e.message) for e in exc.value.errors] == [
        ("request.unit.cpu", "must be a positive number"),
        ("request.unit.mem", "must be a positive number"),
    ]
    with pytest.raises(ScenarioError) as exc:
        parse_unit(5, ("cpu",), path="unit")  # type: ignore[arg-type]
    assert [e.path for e in exc.value.errors] == ["unit"]
    # a mapping and its text read the same
    assert parse_unit({"cpu": 1, "mem": 4.5}, ("cpu", "mem")) == parse_unit("cpu=1,mem=4.5", ("cpu", "mem"))


def test_charts(capsys):
    run(capsys, "mrsu", str(EXAMPLE))
    main(["mrsu", str(EXAMPLE)])
    doc = json.loads(capsys.readouterr().out)
    figs = mrsu_figures(doc)
    assert list(figs) == ["allocation", "snapshot"]
    snap = figs["snapshot"]["data"]
    assert [t["name"] for t in snap] == ["VM-static", "MRSU-FT"]
    assert len(snap[1]["y"]) == 3 * 4 * 4  # applications x dimensions x slots, as Fig. 2
    json.dumps(figs)
    from scheduling.mrsu.sweep import mrsu_sweep

    sf = sweep_figures(mrsu_sweep(loads=[0.5, 1.0], seeds=2, applications=5, slots=3))
    assert list(sf) == ["fig3-under", "fig3-over", "fig4-under", "fig4-over", "fig5", "fig5-slots"]
    assert [t["name"] for t in sf["fig3-over"]["data"]] == [
        "MRSU-FT GCD",
        "MRSU-FT MIN",
        "MRSU-ID GCD",
        "MRSU-ID MIN",
    ]
    json.dumps(sf)


def test_advisor_leaves_unused_dimensions_out():
    s = parse_scenario(
        {
            "resources": ["cpu", "mem", "gpu"],
            "vm_types": [
                {"name": "m", "capacity": {"cpu": 8, "mem": 32, "gpu": 0}, "price_per_hour": 1, "count": 1}
            ],
            "frameworks": [{"name": "f", "task_demand": {"cpu": 2, "mem": 8, "gpu": 0}}],
            "jobs": [],
        }
    )
    gcd = mrsu_advise(s)["candidates"]["gcd"]
    # gcd(2, 8) = 2 cpu, gcd(8, 32) = 8 GB; nobody uses gpu, so it does not limit the 4 units of m
    assert gcd["mrsu"] == {"cpu": 2, "mem": 8, "gpu": 0}
    assert (
        gcd["units_held"] == 4 and gcd["stranded_pct"] == 0 and gcd["vm_types"]["m"]["price_per_unit"] == 0.25
    )


def test_mrsu_takes_a_planner_scenario(capsys):
    code, out, _ = run(
        capsys, "mrsu", str(ROOT / "examples" / "paper003-light.json"), "--slots", "10", "--mode", "id"
    )
    assert code == 0
    doc = json.loads(out)
    assert doc["base_units"] == {"cpu": 1.0, "mem": 1.0} and doc["slots"] == 10
    assert doc["capacity"] == {"cpu": 100, "mem": 400}
    assert list(doc["allocation"]) == ["default"]


def test_the_sweeps_flags_are_its_declared_parameters_with_the_librarys_limits(capsys):
    """``mrsu-sweep``'s flags are a planner run's sweep parameters (scheduling.mrsu.params): the same
    help and defaults, but the library's larger limits: more seeds than a planner run takes, a load
    listed twice, a first seed past 2**31."""
    from scheduling.mrsu.cli import SWEEP_FLAGS
    from scheduling.mrsu.params import SWEEP_PARAMS
    from scheduling.params import describe

    assert [p.flag for p in SWEEP_FLAGS] == [p.flag for p in SWEEP_PARAMS]
    assert [p.default for p in SWEEP_FLAGS] == [p.default for p in SWEEP_PARAMS]
    with pytest.raises(SystemExit):
        main(["mrsu-sweep", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert " ".join(describe(SWEEP_FLAGS[1]).split()) in help_text  # --seeds
    code, out, _ = run(capsys, "mrsu-sweep", "--seeds", "1001", "--loads", "50", "50", "--applications", "1",
                       "--slots", "1", "--seed", str(2**31), "--quiet")
    doc = json.loads(out)
    assert code == 0 and doc["seeds"] == 1001 and doc["loads"] == [0.5, 0.5] and doc["seed"] == 2**31


def test_mrsus_slot_flags_are_checked_at_the_flag(capsys):
    # T beyond a planner run's 1,000 slots is the whole horizon; no slots at all is refused
    code, out, _ = run(capsys, "mrsu", str(EXAMPLE), "--slots-valid", "5000", "--quiet")
    assert code == 0 and json.loads(out)["slots_valid"] == 5000
    code, _, err = run(capsys, "mrsu", str(EXAMPLE), "--slots", "0", "--quiet")
    assert code == 2 and "error: --slots: must be a whole number from 1 to 10,000" in err
