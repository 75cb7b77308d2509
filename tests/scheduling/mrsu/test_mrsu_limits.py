"""Size limits of an MRSU input (docs/mrsu.md, "Limits"): refused with field paths, before the
requirements are read; names follow the scenario's rule."""

from __future__ import annotations

from typing import Any

import pytest

from scheduling.errors import ScenarioError
from scheduling.mrsu import model
from scheduling.mrsu.model import LIMITS, parse_mrsu_input, scenario_problem
from scheduling.scenario import parse_scenario
from scheduling.scenario.limits import LIMITS as SCENARIO_LIMITS


def doc(applications: int = 2, slots: int = 3, dims: int = 2, **extra: Any) -> dict[str, Any]:
    names = [f"d{k}" for k in range(dims)]
    return {
        "capacity": {d: 100 for d in names},
        "applications": [
            {"name": f"a{n}", "requirements": [{d: 1 for d in names}] * slots} for n in range(applications)
        ],
        **extra,
    }


def errors(document: Any) -> list[tuple[str, str]]:
    with pytest.raises(ScenarioError) as exc:
        parse_mrsu_input(document)
    return [(e.path, e.message) for e in exc.value.errors]


def test_the_limits_are_the_documented_ones():
    assert LIMITS["applications"] == 10_000 and LIMITS["slots"] == 10_000
    # a planner run records an input as a scenario whose resources are its dimensions
    assert LIMITS["dimensions"] == SCENARIO_LIMITS["resources"] == 16
    assert LIMITS["cells"] == model.MAX_CELLS


def test_too_many_applications_is_refused_before_any_is_read():
    # every application is broken, yet only the count is reported: nothing else was read
    bad = {"capacity": {"cpu": 1}, "applications": [{"priority": -1}] * (LIMITS["applications"] + 1)}
    assert errors(bad) == [("applications", "has 10,001 applications; the limit is 10,000")]
    parse_mrsu_input(doc(applications=LIMITS["applications"], slots=1, dims=1))  # at the limit: fine


def test_too_many_slots_names_the_application():
    d = doc(applications=3, slots=2)
    d["applications"][1]["requirements"] = [{"d0": 1}] * (LIMITS["slots"] + 1)
    d["applications"][2]["priority"] = "high"  # not read: the size is refused first
    assert errors(d) == [("applications[1].requirements", "has 10,001 slots; the limit is 10,000")]


def test_too_many_dimensions():
    assert errors(doc(dims=17)) == [("capacity", "has 17 dimensions; the limit is 16")]
    assert parse_mrsu_input(doc(dims=16)).dimensions[-1] == "d15"


def test_too_many_cells(monkeypatch):
    monkeypatch.setitem(LIMITS, "cells", 11)
    assert errors(doc(applications=2, slots=3, dims=2)) == [
        ("applications", "2 applications x 3 slots x 2 dimensions is 12 cells; the limit is 11")
    ]
    monkeypatch.setitem(LIMITS, "cells", 12)
    assert parse_mrsu_input(doc(applications=2, slots=3, dims=2)).requirements.size == 12


def test_amounts_and_names():
    d = doc()
    d["capacity"]["d0"] = 2**53
    d["applications"][0]["requirements"] = [{"d1": 2.0**60}] * 3
    d["applications"][1]["name"] = "x" * 101
    d["name"] = "\ud800"
    found = dict(errors(d))
    assert found["capacity.d0"] == "must be below 2^53 (9,007,199,254,740,992)"
    assert found["applications[0].requirements[0].d1"].startswith("must be below 2^53")
    assert found["applications[1].name"] == "must be at most 100 characters"
    assert "name" in found
    assert errors({"capacity": {"": 1}, "applications": [{"requirements": [{}]}]}) == [
        ("capacity.", "a dimension's name must not be empty")
    ]


def test_errors_are_reported_up_to_the_scenario_limit_then_counted():
    d = doc(applications=1, slots=300, dims=1)
    d["applications"][0]["requirements"] = [{"d0": -1}] * 300
    found = errors(d)
    assert len(found) == int(SCENARIO_LIMITS["errors_reported"]) + 1
    assert found[-1] == ("", "... and 100 more errors")


def test_a_scenarios_horizon_has_the_slot_limit():
    s = parse_scenario({"vm_types": [{"name": "m", "capacity": {"cpu": 8, "mem": 32},
                                      "price_per_hour": 0.4, "count": 1}],
                        "jobs": [{"id": "a", "arrival_s": 0, "executors": 1,
                                  "executor": {"cpu": 1, "mem": 4}, "duration_s": 50}]})
    with pytest.raises(ScenarioError) as exc:
        scenario_problem(s, slots=LIMITS["slots"] + 1)
    assert [(e.path, e.message) for e in exc.value.errors] == [("slots", "must be in 1..10,000")]
    assert scenario_problem(s, slots=LIMITS["slots"])[0].slots == LIMITS["slots"]
