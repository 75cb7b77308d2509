"""The comparison's declared parameters (scheduling.cost.params): defaults, good and bad requests,
the per-run cap, and specs and options checked against the scenario's resources."""

from __future__ import annotations

from typing import Any

import pytest

from scheduling import ScenarioError, parse_scenario
from scheduling.cost.params import COMPARISON_PARAMS, DEFAULT_SCHEDULERS, comparison_run
from scheduling.params import describe, param_named

GPU_SCENARIO = {
    "resources": ["cpu", "mem", "gpu"],
    "vm_types": [
        {"name": "g", "capacity": {"cpu": 8, "mem": 32, "gpu": 1}, "price_per_hour": 2.0, "count": 2},
    ],
    "jobs": [{"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 2, "mem": 2, "gpu": 1},
              "duration_s": 60}],
    "options": {"boot_time_s": 10},
}


def problems(params: Any, **kwargs: Any) -> dict[str, str]:
    with pytest.raises(ScenarioError) as exc:
        comparison_run(params, **kwargs)
    return {e.path: e.message for e in exc.value.errors}


def test_the_defaults() -> None:
    assert comparison_run({}) == {"schedulers": list(DEFAULT_SCHEDULERS), "baseline": DEFAULT_SCHEDULERS[0],
                                  "seed": 0, "options": None}
    nulls = {"schedulers": None, "baseline": None, "seed": None, "options": {}}
    assert comparison_run(nulls) == comparison_run({})


def test_a_request_is_stored_as_given() -> None:
    options = {"rut": {"cpu": 0.6, "mem": 0.4}, "edf_backfill": True}
    run = comparison_run({"schedulers": ["fifo-spread", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"],
                          "baseline": " edf-bfd:rut.cpu=0.5,rut.mem=0.5 ", "seed": 7, "options": options})
    assert run == {"schedulers": ["fifo-spread", "edf-bfd:rut.cpu=0.5,rut.mem=0.5"],
                   "baseline": "edf-bfd:rut.cpu=0.5,rut.mem=0.5", "seed": 7, "options": options}


@pytest.mark.parametrize(("params", "path", "message"), [
    ({"schedulers": []}, "schedulers", "must not be empty"),
    ({"schedulers": "edf-bfd"}, "schedulers", "must be a list"),
    ({"schedulers": ["edf-bfd", 3]}, "schedulers[1]", "must be text"),
    ({"schedulers": ["edf-bfd", "edf-bfd"]}, "schedulers[1]", "'edf-bfd' is listed twice"),
    ({"schedulers": ["edf-quantum"]}, "schedulers[0]", "unknown placement 'quantum'"),
    ({"schedulers": ["edf-bfd:rut.cpu=0.7"]}, "schedulers[0].rut", "weights must sum to 1"),
    ({"schedulers": ["edf-bfd:colour=red"]}, "schedulers[0].colour", "unknown option"),
    ({"baseline": "morpheus"}, "baseline", "must be one of the run's schedulers"),
    ({"seed": -1}, "seed", "must be a whole number from 0 to 9,223,372,036,854,775,807"),
    ({"seed": "7"}, "seed", "must be a whole number"),
    ({"seed": True}, "seed", "must be a whole number"),
    ({"options": [1]}, "options", "must be an object with rut, ilp_time_limit_s"),
    ({"options": {"ilp_method": "magic"}}, "options.ilp_method", "must be one of knapsack, integer, binary"),
    ({"options": {"boot_time_s": -1}}, "options.boot_time_s", "must be a number of seconds from 0"),
    ({"options": {"rut": {"cpu": 0.5, "mem": 0.4}}}, "options.rut", "weights must sum to 1"),
    ({"options": {"rut": {"gpu": 1.0}}}, "options.rut.gpu", "unknown resource (resources are cpu, mem)"),
    ({"options": {"colour": 1}}, "options.colour", "unknown field"),
    ({"colour": "red"}, "colour", "unknown field (a comparison takes schedulers, options, baseline, seed)"),
])
def test_every_bad_parameter_names_its_path(params: dict[str, Any], path: str, message: str) -> None:
    found = problems(params)
    assert path in found and found[path].startswith(message), found


def test_one_request_reports_every_problem() -> None:
    found = problems({"schedulers": ["edf-nope", 3, "edf-bfd", "edf-bfd"], "seed": -2, "colour": 1,
                      "options": {"ilp_method": "magic"}})
    assert set(found) == {"schedulers[0]", "schedulers[1]", "schedulers[3]", "seed", "colour",
                          "options.ilp_method"}


def test_the_per_run_cap() -> None:
    specs = ["fifo-spread", "edf-bfd", "morpheus"]
    assert problems({"schedulers": specs}, max_variants=2) == {"schedulers": "lists 3; the limit is 2"}
    assert comparison_run({"schedulers": specs}, max_variants=3)["schedulers"] == specs
    many = [f"edf-bfd:boot_time_s={i}" for i in range(50)]
    assert comparison_run({"schedulers": many})["schedulers"] == many  # no cap: the library's own use


def test_specs_and_options_are_checked_against_the_scenarios_resources() -> None:
    scenario = parse_scenario(GPU_SCENARIO)
    weights = {"cpu": 0.5, "mem": 0.3, "gpu": 0.2}
    run = comparison_run({"schedulers": ["edf-bfd:rut.cpu=0.4,rut.mem=0.4,rut.gpu=0.2"],
                          "options": {"rut": weights}}, scenario=scenario)
    assert run["options"] == {"rut": weights}
    # Without the scenario, the default resources: no gpu.
    assert "options.rut.gpu" in problems({"options": {"rut": weights}})
    spec = "edf-bfd:rut.cpu=0.4,rut.mem=0.4,rut.gpu=0.2"
    assert "schedulers[0].rut.gpu" in problems({"schedulers": [spec]})
    # The weights of a cpu-and-mem request leave the gpu out: they sum to 1 on this scenario too.
    assert comparison_run({"options": {"rut": {"cpu": 0.5, "mem": 0.5}}}, scenario=scenario)["options"]


def test_the_declaration_is_what_forms_flags_and_the_schema_show() -> None:
    assert [p.name for p in COMPARISON_PARAMS] == ["schedulers", "options", "baseline", "seed"]
    schedulers = param_named(COMPARISON_PARAMS, "schedulers")
    assert schedulers.variants and schedulers.min_items == 1
    assert schedulers.default == list(DEFAULT_SCHEDULERS)
    assert "fifo-consolidate" in schedulers.choices and "edf-bfd" in schedulers.choices
    options = param_named(COMPARISON_PARAMS, "options")
    assert [f.name for f in options.fields][:3] == ["rut", "ilp_time_limit_s", "ilp_method"]
    assert all(f.default is None for f in options.fields)  # an option not given keeps the scenario's
    seed = param_named(COMPARISON_PARAMS, "seed")
    assert seed.flag == "--seed" and describe(seed).endswith("(0 to 9,223,372,036,854,775,807; default 0)")
