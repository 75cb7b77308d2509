"""The UDRF study's parameters, declared once (scheduling.udrf.params): the planner's run options,
the online simulation's checks (library and command line) and the flags all read them."""

from __future__ import annotations

import argparse
import math
from typing import Any

import pytest

from scheduling.errors import ScenarioError
from scheduling.params import add_flags, flag_values, param_named, read_params
from scheduling.udrf import online
from scheduling.udrf.cli import _udrf_flags
from scheduling.udrf.params import (
    ONLINE_LIMITS,
    ONLINE_PARAMS,
    UDRF_PARAMS,
    read_online_options,
    udrf_run,
)
from scheduling.udrf.setups import fig1_document


def _paths(exc: pytest.ExceptionInfo[ScenarioError]) -> dict[str, str]:
    return {e.path: e.message for e in exc.value.errors}


def test_a_runs_options_keep_their_stored_shape() -> None:
    # Run.options of a UDRF study: old runs display and clone with these keys
    assert udrf_run({}) == {
        "online": False, "compare_drf": True, "policies": ["udrf", "drf"], "interval_s": 1.0,
        "horizon_s": None, "queue_capacity": 100, "seed": 0, "baseline": "DRF",
    }
    options = udrf_run({"online": True, "compare_drf": False, "interval_s": 2, "horizon_s": 600,
                        "queue_capacity": 5, "seed": 9})
    assert options == {
        "online": True, "compare_drf": False, "policies": ["udrf"], "interval_s": 2.0, "horizon_s": 600.0,
        "queue_capacity": 5, "seed": 9, "baseline": "UDRF",
    }
    assert udrf_run({"baseline": "UDRF"})["baseline"] == "UDRF"


def test_every_bad_option_is_named_by_its_path() -> None:
    with pytest.raises(ScenarioError) as exc:
        udrf_run({"online": "yes", "compare_drf": 1, "interval_s": 0, "horizon_s": -1, "queue_capacity": 0,
                  "seed": -3, "colour": "red"})
    assert _paths(exc) == {
        "colour": "unknown field (a UDRF study takes online, compare_drf, interval_s, horizon_s, "
                  "queue_capacity, seed, baseline)",
        "online": "must be true or false",
        "compare_drf": "must be true or false",
        "interval_s": "must be a number of seconds in (0, 3600]",
        "horizon_s": "must be a number of seconds in (0, 2.592e+06]",
        "queue_capacity": "must be a whole number from 1 to 100,000",
        "seed": "must be a whole number from 0 to 9,223,372,036,854,775,807",
    }
    with pytest.raises(ScenarioError) as exc:
        udrf_run({"compare_drf": False, "baseline": "DRF"})
    assert _paths(exc) == {"baseline": "must be one of UDRF"}


def test_the_scenario_is_checked_with_the_options() -> None:
    from scheduling.scenario import parse_scenario

    no_complex_jobs = fig1_document()
    for user in no_complex_jobs["frameworks"]:
        user.pop("complex_jobs")
        user["task_demand"] = {"cpu": 1, "mem": 1}
    no_complex_jobs["jobs"] = []
    with pytest.raises(ScenarioError) as exc:
        udrf_run({"interval_s": -1}, scenario=parse_scenario(no_complex_jobs))
    assert set(_paths(exc)) == {"interval_s", "frameworks"}
    assert udrf_run({}, scenario=parse_scenario(fig1_document()))["policies"] == ["udrf", "drf"]


def test_the_online_limits_are_the_declarations() -> None:
    assert ONLINE_LIMITS == {"interval_s": 3600.0, "horizon_s": 30 * 86400.0, "queue_capacity": 100_000}
    assert online.ONLINE_LIMITS is ONLINE_LIMITS
    for name, top in ONLINE_LIMITS.items():
        assert param_named(ONLINE_PARAMS, name).maximum == top
        assert param_named(UDRF_PARAMS, name) is param_named(ONLINE_PARAMS, name)
    assert isinstance(ONLINE_LIMITS["queue_capacity"], int)


@pytest.mark.parametrize(("options", "errors"), [
    ({"interval_s": math.inf}, {"interval_s"}),
    ({"interval_s": 3600.5, "horizon_s": math.nan}, {"interval_s", "horizon_s"}),
    ({"queue_capacity": 100_001, "seed": True}, {"queue_capacity", "seed"}),
    ({"queue_capacity": 2.5, "seed": 2**63}, {"queue_capacity", "seed"}),
    ({"interval_s": "1"}, {"interval_s"}),
    ({"interval_s": 3600, "horizon_s": 30 * 86400, "queue_capacity": 1, "seed": 2**63 - 1}, set()),
])
def test_one_rule_for_the_library_the_planner_and_the_command_line(
    options: dict[str, Any], errors: set[str]
) -> None:
    """check_online_options, online_document and udrf_run refuse exactly the same values."""
    full = {"interval_s": 1.0, "horizon_s": None, "queue_capacity": 100, "seed": 0, **options}
    assert {e.path for e in online.check_online_options(**full)} == errors
    flags = {"interval_s": "--interval", "horizon_s": "--horizon", "queue_capacity": "--queue",
             "seed": "--seed"}
    renamed = online.check_online_options(**full, paths=flags)
    assert {e.path for e in renamed} == {flags[k] for k in errors}
    if errors:
        with pytest.raises(ScenarioError) as exc:
            udrf_run(full)
        assert set(_paths(exc)) == errors
        with pytest.raises(ScenarioError) as exc:
            read_online_options(full)
        assert set(_paths(exc)) == errors
    else:
        assert read_online_options(full)["seed"] == 2**63 - 1


def test_online_document_reads_its_options_by_the_declarations() -> None:
    from scheduling.scenario import parse_scenario

    scenario = parse_scenario(fig1_document())
    with pytest.raises(ScenarioError) as exc:
        online.online_document(scenario, interval_s=0, queue_capacity=0, seed=-1)
    assert set(_paths(exc)) == {"interval_s", "queue_capacity", "seed"}
    # a whole float is a whole number (the planner's JSON has one number type); None: the default
    doc = online.online_document(scenario, policies=("udrf",), queue_capacity=100.0, horizon_s=None)
    assert doc["queue_capacity"] == 100 and doc["interval_s"] == 1.0 and doc["seed"] == 0
    assert doc == online.online_document(scenario, policies=("udrf",))


def test_the_command_lines_flags_are_the_declarations() -> None:
    params = _udrf_flags()
    assert [p.flag for p in params] == ["--online", "--compare-drf", "--interval", "--horizon", "--queue",
                                       "--seed"]
    # --compare-drf is off unless given on the command line, on unless refused in the planner
    assert param_named(params, "compare_drf").default is False
    assert param_named(UDRF_PARAMS, "compare_drf").default is True
    parser = argparse.ArgumentParser()
    add_flags(parser, params)
    args = parser.parse_args(["--online", "--interval", "2", "--queue", "7"])
    given = flag_values(args, params)
    assert given == {"online": True, "interval_s": 2.0, "queue_capacity": 7}
    assert read_params(params, given) == {
        "online": True, "compare_drf": False, "interval_s": 2.0, "horizon_s": None, "queue_capacity": 7,
        "seed": 0,
    }
    text = " ".join(parser.format_help().split())
    assert "--interval INTERVAL" in text and "(1 to 100,000; default 100)" in text


def test_a_large_seed_is_kept_exactly() -> None:
    # a seed is read as the integer it is, not through a float (2**60 + 1 would become 2**60)
    assert udrf_run({"seed": 2**60 + 1})["seed"] == 2**60 + 1
    assert udrf_run({"seed": 2**63 - 1})["seed"] == 2**63 - 1
    assert online.check_online_options(interval_s=1, horizon_s=None, queue_capacity=1, seed=2**63 - 1) == []


def test_the_baseline_is_checked_beside_the_other_fields() -> None:
    """One response says every problem: a baseline that is no policy, with a bad interval."""
    with pytest.raises(ScenarioError) as exc:
        udrf_run({"interval_s": 0, "baseline": "FIFO"})
    assert _paths(exc) == {"interval_s": "must be a number of seconds in (0, 3600]",
                           "baseline": "must be one of UDRF, DRF"}
    with pytest.raises(ScenarioError) as exc:
        udrf_run({"seed": -1, "compare_drf": False, "baseline": "DRF"})
    assert set(_paths(exc)) == {"seed", "baseline"}
    with pytest.raises(ScenarioError) as exc:
        udrf_run({"baseline": 3})
    assert _paths(exc) == {"baseline": "must be text"}
