"""Run options: one declaration read by documents, scheduler specs and the command line."""

from __future__ import annotations

import dataclasses

import pytest

from scheduling import ScenarioError, SimulationOptions, option_fields, parse_overrides, parse_scheduler
from scheduling.scenario import OPTION_DECLARATIONS

RESOURCES = ("cpu", "mem")


def test_every_option_is_declared_once_with_the_dataclass_default():
    declared = [d.name for d in OPTION_DECLARATIONS]
    assert sorted(declared) == sorted(f.name for f in dataclasses.fields(SimulationOptions))
    defaults = SimulationOptions()
    for f in option_fields(RESOURCES):
        if f.resource is None:
            assert f.default == getattr(defaults, f.name)
        assert f.help and f.label


@pytest.mark.parametrize(
    ("resources", "weights"),
    [(("cpu", "mem"), (0.8, 0.2)), (("cpu", "mem", "gpu"), (0.8, 0.2, 0.0)), (("gpu", "net"), (0.5, 0.5))],
)
def test_rut_weights_are_one_field_per_resource_of_the_scenario(resources, weights):
    rut = [f for f in option_fields(resources) if f.name.startswith("rut.")]
    assert [f.name for f in rut] == [f"rut.{r}" for r in resources]
    assert [f.resource for f in rut] == list(resources)
    assert tuple(f.default for f in rut) == weights == SimulationOptions().rut_weights(resources)


@pytest.mark.parametrize(
    "field", [f for f in option_fields(RESOURCES) if f.kind == "number" and not f.resource]
)
def test_the_declared_bounds_are_the_bounds_applied(field):
    above = (field.maximum or 0) * 2 + 1
    with pytest.raises(ScenarioError) as info:
        SimulationOptions.from_dict({field.name: above}, resources=RESOURCES)
    assert [str(e) for e in info.value.errors] == [f"options.{field.name}: must be <= {field.maximum:g}"]
    low = field.minimum if field.exclusive_minimum else (field.minimum or 0) - 1
    with pytest.raises(ScenarioError):
        SimulationOptions.from_dict({field.name: low}, resources=RESOURCES)


def test_overrides_are_typed_by_the_declaration():
    fields = option_fields(("cpu", "gpu"))
    assert parse_overrides(
        ["rut.cpu=0.25, rut.gpu=0.75", "edf_backfill=no", "ilp_method=integer"], fields, path="x"
    ) == {"rut": {"cpu": 0.25, "gpu": 0.75}, "edf_backfill": False, "ilp_method": "integer"}
    assert parse_overrides("boot_time_s=5,boot_time_s=7", fields, path="x") == {"boot_time_s": 7.0}
    assert parse_overrides("", fields, path="x") == {}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("boot_time_s", ["scheduler.boot_time_s: expected key=value, got 'boot_time_s'"]),
        ("boot_time_s=later", ["scheduler.boot_time_s: must be a number, got 'later'"]),
        (
            "rut.gpu=1",
            [
                "scheduler.rut.gpu: unknown option (options: rut.cpu, rut.mem, ilp_time_limit_s, "
                "ilp_method, boot_time_s, min_billed_s, billing_granularity_s, scheduling_interval_s, "
                "edf_backfill)"
            ],
        ),
        (
            "edf_backfill=maybe,ilp_method=magic",
            [
                "scheduler.edf_backfill: must be true or false",
                "scheduler.ilp_method: must be one of knapsack, integer, binary",
            ],
        ),
    ],
)
def test_override_errors_have_paths(text, expected):
    with pytest.raises(ScenarioError) as info:
        overrides = parse_overrides(text, option_fields(RESOURCES), path="scheduler")
        SimulationOptions.from_dict(overrides, resources=RESOURCES, path="scheduler")
    assert [str(e) for e in info.value.errors] == expected


def test_scheduler_specs_use_the_same_parser_and_rules():
    spec = parse_scheduler("edf-ilp:ilp_time_limit_s=0.5,edf_backfill=true", resources=RESOURCES)
    assert (spec.options.ilp_time_limit_s, spec.options.edf_backfill) == (0.5, True)
    with pytest.raises(ScenarioError) as info:
        parse_scheduler(
            "edf-bfd:rut.cpu=0.5,rut.mem=0.6,ilp_time_limit_s=0", resources=RESOURCES, path="schedulers[2]"
        )
    assert sorted(str(e) for e in info.value.errors) == [
        "schedulers[2].ilp_time_limit_s: must be > 0",
        "schedulers[2].rut: weights must sum to 1 (eq. 5 of paper 003), got 1.1",
    ]


def test_overrides_apply_over_a_base():
    base = SimulationOptions(boot_time_s=30, min_billed_s=60)
    spec = parse_scheduler("edf-bfd:min_billed_s=0", resources=RESOURCES, base=base)
    assert (spec.options.boot_time_s, spec.options.min_billed_s) == (30, 0)
