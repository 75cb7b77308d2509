"""The parameters of an MRSU sizing run (scheduling/mrsu/params.py), declared once and read by
:func:`mrsu_run`: the defaults, the rules between parameters (where the requirements come from,
the unit against the scenario's resources, the sweep's size, the baseline), and every error at
its path into the request (``input.capacity.cpu``, ``sweep.loads[2]``, ``compositions[1]``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scheduling.errors import ScenarioError
from scheduling.mrsu.params import (
    MAX_SWEEP_CELLS,
    MRSU_PARAMS,
    SWEEP_PARAMS,
    input_scenario,
    loads_text,
    mrsu_run,
    recorded_scenario,
    unit_text,
)
from scheduling.mrsu.setups import PAPER_SWEEP
from scheduling.params import describe, param_named
from scheduling.scenario import Scenario, load_scenario_json, parse_scenario

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = json.loads((ROOT / "examples" / "mrsu" / "example.json").read_text())
#: Options as a run stores them: old runs display and clone, so their shape never changes.
OPTION_KEYS = ["requirements", "input", "unit", "slots", "compositions", "modes", "slots_valid", "sweep",
               "baseline"]
SWEEP_KEYS = ["loads", "seeds", "applications", "slots", "seed", "spread", "slots_valid"]


def light() -> Scenario:
    return load_scenario_json((ROOT / "examples" / "paper003-light.json").read_text())


def errors(params: dict[str, Any], **kwargs: Any) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as exc:
        mrsu_run(params, **kwargs)
    return [(e.path, e.message) for e in exc.value.errors]


def paths(params: dict[str, Any], **kwargs: Any) -> list[str]:
    return [p for p, _ in errors(params, **kwargs)]


# --------------------------------------------------------------------------- good input


def test_the_defaults_are_the_papers_units_on_the_scenarios_requirements() -> None:
    options = mrsu_run({})
    assert list(options) == OPTION_KEYS
    assert options == {
        "requirements": "scenario", "input": None, "unit": None, "slots": 30, "compositions": ["gcd", "min"],
        "modes": ["ft", "id"], "slots_valid": None, "sweep": None, "baseline": "gcd-ft",
    }
    json.dumps(options, allow_nan=False)  # stored as JSON


def test_the_requirements_default_to_the_input_when_one_is_given() -> None:
    options = mrsu_run({"input": EXAMPLE})
    assert options["requirements"] == "input" and options["input"] == EXAMPLE
    # the scenario's slots and unit mean nothing for an input: the unit is not read
    assert mrsu_run({"input": EXAMPLE, "unit": "cpu=1"}, scenario=light())["unit"] is None
    assert mrsu_run({"requirements": "input", "input": EXAMPLE})["requirements"] == "input"
    assert mrsu_run({"requirements": "scenario"}, scenario=light())["requirements"] == "scenario"


def test_a_sweep_given_as_true_is_the_papers_and_one_field_changes_one_value() -> None:
    paper = mrsu_run({"sweep": True})["sweep"]
    assert list(paper) == SWEEP_KEYS
    assert paper == {**PAPER_SWEEP, "spread": 0.5, "slots_valid": None}
    assert mrsu_run({"sweep": {}})["sweep"] == paper
    assert mrsu_run({"sweep": False})["sweep"] is None and mrsu_run({"sweep": None})["sweep"] is None
    small = mrsu_run({"sweep": {"loads": [0.5, 1.2], "seeds": 2, "slots_valid": 3}})["sweep"]
    assert small == {**paper, "loads": [0.5, 1.2], "seeds": 2, "slots_valid": 3}


def test_choices_are_deduplicated_and_a_single_value_is_a_list() -> None:
    options = mrsu_run({"compositions": ["min", "min"], "modes": "id"})
    assert options["compositions"] == ["min"] and options["modes"] == ["id"]
    assert options["baseline"] == "min-id"


def test_the_unit_is_read_against_the_scenarios_resources() -> None:
    scenario = light()
    assert mrsu_run({"unit": "cpu=1, mem=4"}, scenario=scenario)["unit"] == {"cpu": 1.0, "mem": 4.0}
    assert mrsu_run({"unit": {"cpu": 2, "mem": 8}}, scenario=scenario)["unit"] == {"cpu": 2.0, "mem": 8.0}
    assert mrsu_run({"unit": ""}, scenario=scenario)["unit"] is None
    assert errors({"unit": "cpu=0"}, scenario=scenario) == [
        ("unit.cpu", "must be a positive number"),
        ("unit.mem", "missing (the scenario's resources: cpu, mem)"),
    ]
    mapping = {"cpu": 1, "mem": -4, "gpu": 1}
    assert sorted(paths({"unit": mapping}, scenario=scenario)) == ["unit.gpu", "unit.mem"]
    assert paths({"unit": [1, 4]}, scenario=scenario) == ["unit"]


def test_the_baseline_is_one_of_the_units() -> None:
    assert mrsu_run({"baseline": "min-id"})["baseline"] == "min-id"
    assert errors({"baseline": "lcm-ft"}) == [("baseline", "must be one of gcd-ft, gcd-id, min-ft, min-id")]
    assert errors({"baseline": "min-id", "compositions": ["gcd"]}) == [
        ("baseline", "must be one of gcd-ft, gcd-id")]


# --------------------------------------------------------------------------- bad input


def test_every_problem_is_reported_at_its_path() -> None:
    bad_input = {"capacity": {"cpu": 0}, "applications": [{"name": "a", "priority": -1, "requirements": []}]}
    found = errors({
        "requirements": "input", "input": bad_input, "compositions": ["gcd", "lcm"], "modes": "xx",
        "slots_valid": 0, "colour": "red", "sweep": {"loads": [0.5, 0], "seeds": 0},
    })
    assert {p for p, _ in found} == {
        "colour", "compositions[1]", "modes[0]", "slots_valid", "sweep.loads[1]", "sweep.seeds",
        "input.capacity.cpu", "input.applications[0].priority", "input.applications[0].requirements",
    }
    messages = dict(found)
    assert messages["colour"].startswith("unknown field (an MRSU run takes requirements, input, slots")
    assert messages["slots_valid"] == "must be a whole number from 1 to 1,000"
    assert messages["sweep.loads[1]"] == "must be a number in (0, 10]"


def test_the_input_needs_requirements_input() -> None:
    assert errors({"requirements": "input"}) == [("input", "is required with requirements: input")]
    assert errors({"requirements": "scenario", "input": EXAMPLE}) == [
        ("input", "is only read with requirements: input")]
    assert paths({"requirements": "elsewhere"}) == ["requirements"]
    assert paths({"input": [1, 2]}) == ["input"]


def test_the_planner_limits_of_slots_and_the_sweep() -> None:
    assert paths({"slots": 0, "slots_valid": 1001}) == ["slots", "slots_valid"]
    assert paths({"sweep": {"loads": [0.1] * 41}}) == ["sweep.loads"]
    assert errors({"sweep": {"loads": [0.5, 0.5]}}) == [("sweep.loads[1]", "0.5 is listed twice")]
    assert paths({"sweep": {"loads": "50 80"}}) == ["sweep.loads"]  # the API takes fractions, listed
    assert paths({"sweep": {"seeds": 1001, "applications": 2001, "slots": 1001, "seed": -1, "spread": 1.5,
                            "workers": 2}}) == [
        "sweep.workers", "sweep.seeds", "sweep.applications", "sweep.slots", "sweep.seed", "sweep.spread"]
    assert paths({"sweep": "yes"}) == ["sweep"]


def test_one_sweep_load_point_is_at_most_max_sweep_cells() -> None:
    fits = {"seeds": 1000, "applications": 100, "slots": 30}  # 3,000,000 cells: the limit
    assert MAX_SWEEP_CELLS == 1000 * 100 * 30 and mrsu_run({"sweep": fits})["sweep"]["seeds"] == 1000
    assert errors({"sweep": {"seeds": 1000, "applications": 2000, "slots": 30}}) == [
        ("sweep.seeds",
         "seeds x applications x slots is 60,000,000; the limit of one load point is 3,000,000"),
    ]


def test_a_scenario_without_requirements_is_refused_when_it_is_given() -> None:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    empty = parse_scenario({**doc, "jobs": []})
    assert errors({"slots": 4}, scenario=empty) == [
        ("jobs", "the scenario has no jobs to take requirements from")]
    assert mrsu_run({"input": EXAMPLE}, scenario=empty)["requirements"] == "input"  # the input's own


# --------------------------------------------------------------------------- the recorded scenario


def test_a_run_on_an_input_records_the_inputs_machine() -> None:
    recorded = recorded_scenario({"input": EXAMPLE})
    assert recorded == input_scenario(EXAMPLE)
    assert recorded["vm_types"] == [
        {"name": "mrsu-input", "capacity": EXAMPLE["capacity"], "price_per_hour": 0, "count": 1}]
    assert parse_scenario(recorded).resources == tuple(EXAMPLE["capacity"])


def test_what_the_recorded_scenario_refuses_is_named_at_the_input() -> None:
    wide = {"capacity": {f"d{k}": 1 for k in range(17)}, "applications": [{"requirements": [{}]}]}
    with pytest.raises(ScenarioError) as exc:
        recorded_scenario({"input": wide})
    assert [(e.path, e.message) for e in exc.value.errors] == [
        ("input.capacity", "has 17 dimensions; the limit is 16")]
    huge = {"capacity": {"cpu": 4, "net": 4_000_000_000}, "applications": [{"requirements": [{"cpu": 1}]}]}
    with pytest.raises(ScenarioError) as exc:
        recorded_scenario({"input": huge})
    [error] = exc.value.errors
    assert error.path == "input.capacity.net" and "records the input as a scenario" in error.message


# --------------------------------------------------------------------------- declarations


def test_text_forms_read_back_what_they_write() -> None:
    loads = param_named(SWEEP_PARAMS, "loads")
    assert loads.text is not None
    assert loads.text.parse(loads_text([0.1, 0.5, 1.25]), "loads") == [0.1, 0.5, 1.25]
    with pytest.raises(ScenarioError) as exc:
        loads.text.parse("50 abc", "sweep.loads")
    assert [e.path for e in exc.value.errors] == ["sweep.loads[1]"]
    unit = param_named(MRSU_PARAMS, "unit")
    assert unit.text is not None and unit.text.parse(" cpu=1,mem=4 ", "unit") == "cpu=1,mem=4"
    assert unit_text({"cpu": 1.0, "mem": 4.0}) == "cpu=1,mem=4"


def test_every_parameter_says_what_it_is() -> None:
    for p in (*MRSU_PARAMS, *SWEEP_PARAMS):
        assert p.label and p.help, p.name
    seeds = param_named(SWEEP_PARAMS, "seeds")
    assert describe(seeds) == "Workloads drawn per load. (1 to 1,000; default 100)"
    assert [p.flag for p in SWEEP_PARAMS] == ["--loads", "--seeds", "--applications", "--slots", "--seed",
                                             "--spread", "--slots-valid"]
