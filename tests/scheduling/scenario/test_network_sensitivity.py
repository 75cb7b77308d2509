"""Network sensitivity (notes §8, paper 003's network-bound jobs): version 3, on jobs and frameworks."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scheduling.errors import ScenarioError
from scheduling.scenario import LIMITS, parse_scenario, parse_workload, scenario_differences


def doc(**extra: Any) -> dict[str, Any]:
    """Two frameworks, one network-bound by default, and three jobs."""
    return {
        "name": "network",
        "vm_types": [{"name": "m1.large", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24,
                      "count": 4}],
        "frameworks": [{"name": "pagerank", "network_sensitivity": 0.3}, {"name": "sort"}],
        "jobs": [
            {"id": "pr-1", "framework": "pagerank", "arrival_s": 0, "executors": 4,
             "executor": {"cpu": 2, "mem": 4}, "duration_s": 60},
            {"id": "pr-2", "framework": "pagerank", "arrival_s": 5, "executors": 2,
             "executor": {"cpu": 2, "mem": 4}, "duration_s": 60, "network_sensitivity": 0},
            {"id": "sort-1", "framework": "sort", "arrival_s": 9, "executors": 2,
             "executor": {"cpu": 1, "mem": 2}, "duration_s": 30, "network_sensitivity": 0.5},
        ],
        **extra,
    }


def messages(document: Any) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(document)
    return [str(e) for e in info.value.errors]


def test_a_job_s_own_sensitivity_wins_over_its_framework_s_which_wins_over_zero() -> None:
    s = parse_scenario(doc())
    assert [j.network_sensitivity for j in s.jobs] == [None, 0.0, 0.5]
    assert [f.network_sensitivity for f in s.frameworks] == [0.3, 0.0]
    # pr-1 takes its framework's 0.3; pr-2 sets 0 explicitly (not network-bound); sort-1 sets its own.
    assert s.network_sensitivities() == (0.3, 0.0, 0.5)


def test_without_any_sensitivity_every_job_is_zero_and_the_document_stays_version_1() -> None:
    plain = doc()
    plain["frameworks"][0].pop("network_sensitivity")
    for job in plain["jobs"]:
        job.pop("network_sensitivity", None)
    s = parse_scenario(plain)
    assert s.network_sensitivities() == (0.0, 0.0, 0.0)
    assert s.version == 1 and s.to_dict()["version"] == 1
    assert "network_sensitivity" not in str(s.to_dict())


def test_the_sensitivity_round_trips_as_version_3() -> None:
    s = parse_scenario(doc())
    out = s.to_dict()
    assert out["version"] == 3
    assert out["frameworks"][0]["network_sensitivity"] == 0.3
    assert "network_sensitivity" not in out["frameworks"][1]
    assert [j.get("network_sensitivity") for j in out["jobs"]] == [None, 0, 0.5]
    assert parse_scenario(out) == s


def test_null_means_not_set() -> None:
    d = doc()
    d["jobs"][2]["network_sensitivity"] = None
    d["frameworks"][1]["network_sensitivity"] = None
    s = parse_scenario(d)
    assert s.jobs[2].network_sensitivity is None and s.network_sensitivities()[2] == 0.0


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["jobs"][0].update(network_sensitivity=-0.1),
         "jobs[0].network_sensitivity: must be >= 0"),
        (lambda d: d["jobs"][1].update(network_sensitivity="high"),
         "jobs[1].network_sensitivity: must be a number"),
        (lambda d: d["jobs"][2].update(network_sensitivity=True),
         "jobs[2].network_sensitivity: must be a number"),
        (lambda d: d["jobs"][2].update(network_sensitivity=LIMITS["network_sensitivity"] + 1),
         "jobs[2].network_sensitivity: must be <= 100"),
        (lambda d: d["frameworks"][0].update(network_sensitivity=-1),
         "frameworks[0].network_sensitivity: must be >= 0"),
    ],
)
def test_bad_values_are_named_by_their_field(change: Any, expected: str) -> None:
    d = doc()
    change(d)
    assert messages(d) == [expected]


def test_a_document_that_says_an_older_version_may_not_use_it() -> None:
    for version in (1, 2):
        assert messages(doc(version=version)) == [
            f"frameworks[0].network_sensitivity: is a version-3 field (the document says version {version})",
            f"jobs[1].network_sensitivity: is a version-3 field (the document says version {version})",
            f"jobs[2].network_sensitivity: is a version-3 field (the document says version {version})",
        ]
    assert parse_scenario(doc(version=3)).network_sensitivities() == (0.3, 0.0, 0.5)


def test_a_workload_alone_reads_it_with_the_same_paths() -> None:
    d = doc()
    workload = parse_workload({"frameworks": d["frameworks"], "jobs": d["jobs"]})
    assert [j.network_sensitivity for j in workload.jobs] == [None, 0.0, 0.5]
    d["jobs"][1]["network_sensitivity"] = -2
    with pytest.raises(ScenarioError) as info:
        parse_workload({"frameworks": d["frameworks"], "jobs": d["jobs"]})
    assert [str(e) for e in info.value.errors] == ["jobs[1].network_sensitivity: must be >= 0"]


def test_differences_name_the_jobs_whose_sensitivity_changed() -> None:
    a = parse_scenario(doc())
    changed = copy.deepcopy(doc())
    changed["frameworks"][0]["network_sensitivity"] = 0.4  # pr-1 follows its framework
    lines = [line for section in scenario_differences(a, parse_scenario(changed)) for line in section.lines]
    assert lines == ["network sensitivity (notes §8) changed for 1 job, e.g. pr-1"]
    assert scenario_differences(a, parse_scenario(doc())) == []
