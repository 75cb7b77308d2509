"""The generator's network-bound jobs (notes §8): a share of the jobs gets a network sensitivity."""

from __future__ import annotations

import pytest

from scheduling import ScenarioError, parse_scenario
from scheduling.generators import parse_generator_spec, synthetic_jobs
from scheduling.presets import preset_vm_types


def test_the_share_is_drawn_last_so_every_other_draw_is_unchanged() -> None:
    before = synthetic_jobs(seed=11, jobs=400)
    network = synthetic_jobs(seed=11, jobs=400, network_fraction=0.25, network_sensitivity=0.39)
    marked = [j.pop("network_sensitivity", None) for j in network]
    assert network == before  # the same jobs otherwise
    assert set(marked) == {None, 0.39}
    assert 0.18 < marked.count(0.39) / len(marked) < 0.32  # about a quarter of 400
    assert synthetic_jobs(seed=11, jobs=400, network_fraction=0.25, network_sensitivity=0.39) == [
        {**j, **({"network_sensitivity": m} if m is not None else {})}
        for j, m in zip(before, marked, strict=True)]  # seeded
    every = synthetic_jobs(seed=3, jobs=20, network_fraction=1, network_sensitivity=2)
    assert {j["network_sensitivity"] for j in every} == {2}
    assert all("network_sensitivity" not in j for j in synthetic_jobs(seed=3, jobs=20, network_sensitivity=2))


def test_the_generated_scenario_is_version_3_and_valid() -> None:
    jobs = synthetic_jobs(seed=5, jobs=50, network_fraction=0.5, network_sensitivity=0.3,
                          vm_types=preset_vm_types("paper-003"))
    scenario = parse_scenario({"version": 3, "vm_types": preset_vm_types("paper-003"), "jobs": jobs})
    assert scenario.version == 3 and 0 < sum(s > 0 for s in scenario.network_sensitivities()) < 50


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"network_fraction": 1.5}, "network_fraction: must be between 0 and 1"),
        ({"network_fraction": "half"}, "network_fraction: must be a number"),
        ({"network_sensitivity": -0.1}, "network_sensitivity: must be between 0 and 100"),
        ({"network_sensitivity": 101}, "network_sensitivity: must be between 0 and 100"),
    ],
)
def test_the_settings_are_checked_with_their_paths(data: dict[str, object], expected: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_generator_spec(data)
    assert [str(e) for e in info.value.errors] == [expected]
    assert parse_generator_spec({"network_fraction": 0.3, "network_sensitivity": 0.5}).network_fraction == 0.3
