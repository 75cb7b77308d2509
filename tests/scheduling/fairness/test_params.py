"""The fairness studies' parameters as declared (``scheduling.fairness.params``): what an
allocation study and a sharing study take, the rules between the fields, the stored options
(``Run.options``' shape, which old runs keep), and every problem at once with its path."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from scheduling import ScenarioError, parse_scenario
from scheduling.fairness.allocation import allocate
from scheduling.fairness.params import (
    ALLOCATION_PARAMS,
    CONFIGURATION_PARAMS,
    DEFAULT_VARIANTS,
    LABEL_MAX,
    OVERRIDE_PARAMS,
    RULE_PARAMS,
    SHARING_PARAMS,
    allocation_run,
    configuration_label,
    configuration_text,
    overrides_text,
    parse_overrides,
    rules_text,
    sharing_run,
)
from scheduling.fairness.sharing import share
from scheduling.params import describe, param_named


def errors(call: Any, *args: Any, **kwargs: Any) -> dict[str, str]:
    """The problems ``call`` raises, path -> message."""
    with pytest.raises(ScenarioError) as caught:
        call(*args, **kwargs)
    return {e.path: e.message for e in caught.value.errors}


def two_tenants(**fw: Any) -> Any:
    return parse_scenario({
        "version": 1, "name": "two tenants", "resources": ["cpu", "mem"],
        "vm_types": [{"name": "node", "capacity": {"cpu": 8, "mem": 16}, "price_per_hour": 0, "count": 1}],
        "frameworks": [{"name": "a", "task_demand": {"cpu": 1, "mem": 1}, **fw},
                       {"name": "b", "task_demand": {"cpu": 1, "mem": 1}}],
        "jobs": [{"id": "a1", "framework": "a", "arrival_s": 0, "executors": 1,
                  "executor": {"cpu": 1, "mem": 1}, "duration_s": 5}],
    })


def test_a_scenario_with_nothing_to_share_is_refused_with_the_options() -> None:
    nothing = parse_scenario({
        "version": 1, "name": "idle", "resources": ["cpu", "mem"],
        "vm_types": [{"name": "node", "capacity": {"cpu": 8, "mem": 16}, "price_per_hour": 0, "count": 1}],
        "frameworks": [{"name": "a", "task_demand": {"cpu": 1, "mem": 1}}], "jobs": [],
    })
    assert errors(sharing_run, {}, scenario=nothing) == {
        "frameworks": "the sharing simulator needs a framework with task queues or jobs"}


# --------------------------------------------------------------------------- allocation


def test_an_allocation_study_of_nothing_given_is_the_declared_defaults() -> None:
    options = allocation_run({})
    assert options == {
        "variants": list(DEFAULT_VARIANTS),
        "labels": ["DRF (rrr)", "TSF (rrr)", "PS-DSF (rrr)", "rPS-DSF (joint)", "BF-DRF"],
        "trials": 1, "seed": 0, "baseline": "DRF (rrr)", "pf_reference": None,
    }
    assert list(options) == ["variants", "labels", "trials", "seed", "baseline", "pf_reference"]
    assert allocation_run({"variants": None, "trials": None, "seed": None, "baseline": ""}) == options


def test_variants_are_stored_as_specs_with_their_labels() -> None:
    options = allocation_run({"variants": ["DRF", "psdsf/joint", "bf-drf/best-fit", "mmf", "pf/integer"],
                              "trials": 20, "seed": 7})
    assert options["variants"] == ["drf/rrr", "psdsf/joint", "bf-drf", "mmf/fractional", "pf/integer"]
    assert options["labels"] == [
        "DRF (rrr)", "PS-DSF (joint)", "BF-DRF", "U-MMF (fractional)", "PF (integer)"]
    assert (options["trials"], options["seed"]) == (20, 7)


def test_the_pf_reference_is_the_fractional_optimum_when_the_run_has_it() -> None:
    assert allocation_run({"variants": ["pf/integer", "pf/fractional"]})["pf_reference"] == "pf/fractional"
    assert allocation_run({"variants": ["drf", "pf/integer"]})["pf_reference"] == "pf/integer"
    assert allocation_run({"variants": ["drf", "mmf"]})["pf_reference"] is None


def test_the_baseline_is_a_variant_by_spec_or_label_and_stored_as_its_label() -> None:
    assert allocation_run({"variants": ["drf", "bf-drf"], "baseline": "bf-drf"})["baseline"] == "BF-DRF"
    assert allocation_run({"variants": ["drf", "bf-drf"], "baseline": "BF-DRF"})["baseline"] == "BF-DRF"
    assert allocation_run({"variants": ["tsf/joint", "drf"]})["baseline"] == "TSF (joint)"
    assert errors(allocation_run, {"variants": ["drf"], "baseline": "tsf/rrr"}) == {
        "baseline": "must be one of the run's variants"}


def test_bad_variants_are_named_by_their_index() -> None:
    found = errors(allocation_run, {"variants": ["drf/rrr", "drf/fast", "nope", "drf", None]})
    assert set(found) == {"variants[1]", "variants[2]", "variants[3]", "variants[4]"}
    assert "unknown server selection 'fast'" in found["variants[1]"]
    assert "unknown policy 'nope'" in found["variants[2]"]
    assert found["variants[3]"] == "'drf/rrr' is listed twice"  # drf is drf/rrr
    assert found["variants[4]"] == "must not be null"
    assert errors(allocation_run, {"variants": []}) == {"variants": "must not be empty"}
    assert errors(allocation_run, {"variants": "drf/rrr"}) == {"variants": "must be a list"}
    assert errors(allocation_run, {"variants": ["drf", "tsf", "bf-drf"]}, max_variants=2) == {
        "variants": "lists 3; the limit is 2"}


@pytest.mark.parametrize(("params", "path", "message"), [
    ({"trials": 0}, "trials", "must be a whole number from 1 to 100,000"),
    ({"trials": 100_001}, "trials", "must be a whole number from 1 to 100,000"),
    ({"trials": 2.5}, "trials", "must be a whole number from 1 to 100,000"),
    ({"trials": True}, "trials", "must be a whole number from 1 to 100,000"),
    ({"trials": "5"}, "trials", "must be a whole number from 1 to 100,000"),
    ({"seed": -1}, "seed", "must be a whole number from 0 to 9,223,372,036,854,775,807"),
    ({"seed": 2**63}, "seed", "must be a whole number from 0 to 9,223,372,036,854,775,807"),
    ({"baseline": 3}, "baseline", "must be text"),
    ({"schedulers": ["edf-bfd"]}, "schedulers",
     "unknown field (an allocation study takes variants, trials, seed, baseline)"),
])
def test_each_bad_allocation_field_is_named(params: dict[str, Any], path: str, message: str) -> None:
    assert errors(allocation_run, params) == {path: message}


def test_every_problem_of_an_allocation_study_comes_at_once_with_the_scenarios() -> None:
    scenario = two_tenants()
    scenario = parse_scenario({**scenario.to_dict(), "frameworks": [
        {"name": "a", "task_demand": {"cpu": 1, "mem": 1}}, {"name": "b"}]})
    found = errors(allocation_run, {"variants": ["drx"], "trials": 0, "seed": -1, "colour": 1},
                   scenario=scenario)
    assert list(found) == ["colour", "variants[0]", "trials", "seed", "frameworks[1].task_demand"]
    # with good parameters, the scenario's problem alone; and the baseline's with it
    assert list(errors(allocation_run, {"variants": ["drf"], "baseline": "x"}, scenario=scenario)) == [
        "frameworks[1].task_demand", "baseline"]
    assert allocation_run({"variants": ["drf"]}, scenario=two_tenants())["variants"] == ["drf/rrr"]


def test_the_allocation_declarations() -> None:
    variants = param_named(ALLOCATION_PARAMS, "variants")
    assert variants.default == list(DEFAULT_VARIANTS) and variants.unique and variants.variants
    assert "bf-drf" in variants.choices
    assert dict(variants.labelled_choices())["rpsdsf/joint"] == "rPS-DSF (joint)"
    trials, seed = param_named(ALLOCATION_PARAMS, "trials"), param_named(ALLOCATION_PARAMS, "seed")
    assert (trials.flag, seed.flag) == ("--trials", "--seed")
    assert describe(trials).endswith("(1 to 100,000; default 1)")
    # the declared defaults are the library's
    signature = inspect.signature(allocate).parameters
    assert trials.default == signature["trials"].default and seed.default == signature["seed"].default


# --------------------------------------------------------------------------- sharing

#: The offer cycle's rules as Mesos 1.3 and Marathon 1.4 run them: every configuration's defaults.
MESOS = {"max_tasks_per_offer": 5, "registration": "queues", "offers_count": "decision",
         "minimum_offer": "mesos", "drf_ties": "allocations"}
STORED_KEYS = ["mode", "criterion", "servers", "allocation_interval_s", "seed", "horizon_s", "overrides",
               *MESOS, "label"]


def test_a_sharing_study_of_nothing_given_is_one_configuration_of_defaults() -> None:
    options = sharing_run({})
    assert options == {"configurations": [{
        "mode": "offers", "criterion": "drf", "servers": None, "allocation_interval_s": 1.0, "seed": 0,
        "horizon_s": None, "overrides": {}, **MESOS, "label": "offers drf",
    }], "baseline": "offers drf"}
    assert list(options["configurations"][0]) == STORED_KEYS
    assert sharing_run({"configurations": [None]}) == options  # a null configuration: every default
    assert sharing_run({"configurations": None, "baseline": None}) == options


def test_configurations_are_stored_in_the_runs_shape() -> None:
    options = sharing_run({"configurations": [
        {"label": " refuse 5 s ", "allocation_interval_s": 2, "seed": 1, "horizon_s": 300,
         "overrides": {"a": {"refuse_s": 5, "offer_policy": "first-fit"}, "b": {}, "c": None}},
        {"mode": "characterized", "criterion": "bf-drf", "overrides": {"a": {"hold_s": 0.5}}},
    ], "baseline": "refuse 5 s"}, scenario=None)
    first, second = options["configurations"]
    assert first == {"mode": "offers", "criterion": "drf", "servers": None, "allocation_interval_s": 2.0,
                     "seed": 1, "horizon_s": 300.0, "overrides": {"a": {"offer_policy": "first-fit",
                                                                        "refuse_s": 5.0}},
                     **MESOS, "label": "refuse 5 s"}
    assert isinstance(first["allocation_interval_s"], float) and isinstance(first["horizon_s"], float)
    assert second["label"] == "characterized bf-drf; a hold 0.5 s" and second["servers"] is None
    assert options["baseline"] == "refuse 5 s"
    assert all(list(c) == STORED_KEYS for c in options["configurations"])


def test_an_override_names_a_framework_of_the_scenario() -> None:
    assert errors(sharing_run, {"configurations": [{"overrides": {"zz": {"refuse_s": 1}}}]},
                  scenario=two_tenants()) == {
        "configurations[0].overrides.zz": "is not a framework of the scenario (a, b)"}
    # without a scenario (it was invalid) the names are not checked
    assert sharing_run({"configurations": [{"overrides": {"zz": {"refuse_s": 1}}}]})["configurations"]


@pytest.mark.parametrize(("configuration", "found"), [
    ({"criterion": "tsf"}, {"criterion": "the offer cycle sorts frameworks by DRF (criterion drf)"}),
    ({"servers": "joint"}, {"servers": "the offer cycle visits the agents in random order (rrr)"}),
    ({"mode": "characterized", "criterion": "bf-drf", "servers": "rrr"},
     {"servers": "bf-drf chooses servers by best fit (use policy drf with servers rrr for DRF under "
                 "randomised round robin)"}),
])
def test_the_offer_cycles_criterion_and_servers(configuration: dict[str, Any], found: dict[str, str]) -> None:
    assert errors(sharing_run, {"configurations": [configuration]}) == {
        f"configurations[0].{k}": v for k, v in found.items()}


def test_rules_that_pass() -> None:
    configs = sharing_run({"configurations": [
        {"servers": "rrr"}, {"mode": "characterized", "criterion": "rpsdsf", "servers": "joint"},
        {"mode": "characterized", "criterion": "bf-drf", "servers": "best-fit"},
    ]})["configurations"]
    assert [c["label"] for c in configs] == [
        "offers drf rrr", "characterized rpsdsf joint", "characterized bf-drf best-fit"]


def test_a_label_names_one_configuration() -> None:
    assert errors(sharing_run, {"configurations": [{"label": "x"}, {"label": "x "}]}) == {
        "configurations[1].label": "'x' names two configurations: give each its own label"}
    # the default labels too: two configurations changing nothing
    assert errors(sharing_run, {"configurations": [{}, {"seed": 3}]}) == {
        "configurations[1].label": "'offers drf' names two configurations: give each its own label"}
    assert errors(sharing_run, {"configurations": [{"label": "x" * (LABEL_MAX + 1)}]}) == {
        "configurations[0].label": f"must be at most {LABEL_MAX} characters"}


def test_the_baseline_is_the_label_of_a_configuration() -> None:
    options = sharing_run({"configurations": [{"label": "a"}, {"label": "b"}], "baseline": "b"})
    assert options["baseline"] == "b"
    assert errors(sharing_run, {"configurations": [{"label": "a"}], "baseline": "b"}) == {
        "baseline": "must be the label of one of the run's configurations"}


def test_every_problem_of_a_sharing_study_comes_at_once_with_its_path() -> None:
    found = errors(sharing_run, {"configurations": [
        {"label": "x", "mode": "lottery", "overrides": {"a": {"refuse_s": -1, "offer_policy": "grab"},
                                                        "zz": {"refuse_s": 1}}},
        {"label": "x", "allocation_interval_s": 0, "colour": "red"},
        {"label": "y", "mode": "offers", "criterion": "tsf", "servers": "joint"},
        {"label": "z", "mode": "characterized", "criterion": "bf-drf", "servers": "rrr"},
        {"label": "w", "overrides": {"a": {"colour": 1}, "b": "x"}, "seed": "1", "horizon_s": 0},
    ], "baseline": "nobody", "colour": 2}, scenario=two_tenants())
    assert list(found) == [
        "colour",
        "configurations[0].mode", "configurations[0].overrides.a.offer_policy",
        "configurations[0].overrides.a.refuse_s", "configurations[0].overrides.zz",
        "configurations[1].colour", "configurations[1].allocation_interval_s", "configurations[1].label",
        "configurations[2].criterion", "configurations[2].servers",
        "configurations[3].servers",
        "configurations[4].seed", "configurations[4].horizon_s", "configurations[4].overrides.a.colour",
        "configurations[4].overrides.b",
    ]
    assert found["configurations[0].overrides.a.refuse_s"] == "must be a number of seconds >= 0"
    assert found["configurations[1].allocation_interval_s"] == "must be a number of seconds > 0"
    assert found["configurations[1].colour"].startswith("unknown field (configuration takes label, mode")
    assert found["configurations[4].overrides.a.colour"] == (
        "unknown field (override takes offer_policy, refuse_s, hold_s)")


@pytest.mark.parametrize(("params", "path", "message"), [
    ({"configurations": "x"}, "configurations", "must be a list"),
    ({"configurations": []}, "configurations", "must not be empty"),
    ({"configurations": ["x"]}, "configurations[0]",
     "must be an object with label, mode, criterion, servers, allocation_interval_s, seed, horizon_s, "
     "overrides, max_tasks_per_offer, registration, offers_count, minimum_offer, drf_ties"),
    ({"configurations": [{"overrides": "x"}]}, "configurations[0].overrides", "must be an object"),
    ({"configurations": [{"mode": None, "seed": 2**63}]}, "configurations[0].seed",
     "must be a whole number from 0 to 9,223,372,036,854,775,807"),
])
def test_each_bad_sharing_field_is_named(params: dict[str, Any], path: str, message: str) -> None:
    assert errors(sharing_run, params) == {path: message}


def test_the_number_of_configurations_is_capped() -> None:
    many = {"configurations": [{"label": str(k)} for k in range(13)]}
    assert errors(sharing_run, many, max_variants=12) == {"configurations": "lists 13; the limit is 12"}


def test_the_configuration_declarations_agree_with_share() -> None:
    """What the command line's flags and the planner's fields default to is what ``share`` does."""
    signature = inspect.signature(share).parameters
    for p in CONFIGURATION_PARAMS:
        if p.name in ("label", "overrides"):
            continue
        assert p.default == signature[p.name].default, p.name
    assert [p.flag for p in CONFIGURATION_PARAMS] == [
        None, "--mode", "--criterion", "--servers", "--interval", "--seed", "--horizon", None,
        "--max-tasks-per-offer", "--registration", "--offers-count", "--minimum-offer", "--drf-ties"]
    assert {p.name: p.default for p in RULE_PARAMS} == MESOS


def test_each_rule_is_a_field_of_a_configuration_named_in_its_label() -> None:
    """Each of the offer cycle's rules can be turned off per configuration, to show what it changes;
    a configuration that does says so in its label and its settings' text."""
    options = sharing_run({"configurations": [
        {}, {"max_tasks_per_offer": 0}, {"registration": "start", "offers_count": "launched"},
        {"minimum_offer": "none", "drf_ties": "random"},
    ]})
    labels = [c["label"] for c in options["configurations"]]
    assert labels == ["offers drf", "offers drf (greedy unlimited)",
                      "offers drf (registered at 0, only launches count)",
                      "offers drf (any offer, random ties)"]
    assert configuration_text(options["configurations"][1]).endswith(", max_tasks_per_offer=0")
    assert rules_text(options["configurations"][0]) == ""
    assert errors(sharing_run, {"configurations": [{"max_tasks_per_offer": -1, "drf_ties": "oldest"}]}) == {
        "configurations[0].max_tasks_per_offer": "must be a whole number from 0 to 1,000,000",
        "configurations[0].drf_ties": "must be one of allocations, random"}
    assert [p.name for p in OVERRIDE_PARAMS] == ["offer_policy", "refuse_s", "hold_s"]
    assert [p.name for p in SHARING_PARAMS] == ["configurations", "baseline"]


# --------------------------------------------------------------------------- text forms


def test_overrides_are_written_and_read_back() -> None:
    text = "scylla: refuse_s=5, offer_policy=first-fit; aurora: hold_s=2.5"
    assert parse_overrides(text) == {"scylla": {"refuse_s": 5.0, "offer_policy": "first-fit"},
                                     "aurora": {"hold_s": 2.5}}
    assert parse_overrides(overrides_text(parse_overrides(text))) == parse_overrides(text)
    assert parse_overrides("a: refuse_s=1\nb: hold_s=2") == {"a": {"refuse_s": 1.0}, "b": {"hold_s": 2.0}}
    assert parse_overrides("") == {} and overrides_text(None) == "" and overrides_text({}) == ""


@pytest.mark.parametrize(("text", "message"), [
    ("scylla refuse_s 5", "write <framework>: key=value, ... (not 'scylla refuse_s 5')"),
    ("scylla: refuse_s", "scylla: write key=value (not 'refuse_s')"),
    ("scylla: =5", "scylla: write key=value (not '=5')"),
])
def test_bad_overrides_text_is_refused_at_its_path(text: str, message: str) -> None:
    assert errors(parse_overrides, text, "configurations[2].overrides") == {
        "configurations[2].overrides": message}


def test_a_configuration_in_words() -> None:
    config = sharing_run({"configurations": [{
        "mode": "characterized", "criterion": "tsf", "servers": "joint", "horizon_s": 60, "seed": 3,
        "overrides": {"a": {"offer_policy": "greedy", "refuse_s": 5, "hold_s": 1}}}]})["configurations"][0]
    assert configuration_label(config) == "characterized tsf joint; a greedy, refuse 5 s, hold 1 s"
    assert configuration_text(config) == (
        "mode=characterized, criterion=tsf, servers=joint, interval 1.0 s, seed 3, horizon 60.0 s; "
        "a: offer_policy=greedy, refuse_s=5.0, hold_s=1.0")
