"""parse_workload: a workload's own rules, without a cluster, with the paths parse_scenario gives."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scheduling import DEFAULT_RESOURCES, ScenarioError, Workload, parse_scenario, parse_workload

JOBS = [
    {
        "id": "j1",
        "framework": "etl",
        "arrival_s": 0,
        "executors": 2,
        "executor": {"cpu": 2, "mem": 4},
        "duration_s": 60,
        "deadline_s": 600,
    },
    {
        "id": "j2",
        "framework": "etl",
        "arrival_s": 5,
        "executors": 1,
        "executor": {"cpu": 1, "mem": 1},
        "duration_s": 30,
    },
]
FRAMEWORKS = [{"name": "etl", "weight": 2, "allowed_vm_types": ["a-type-no-cluster-has-yet"]}]


def errors_of(doc: Any, **kwargs: Any) -> dict[str, str]:
    with pytest.raises(ScenarioError) as info:
        parse_workload(doc, **kwargs)
    return {e.path: e.message for e in info.value.errors}


def test_a_workload_parses_without_a_cluster():
    workload = parse_workload({"frameworks": FRAMEWORKS, "jobs": JOBS})
    assert isinstance(workload, Workload)
    assert workload.resources == ("cpu", "mem")
    assert [j.id for j in workload.jobs] == ["j1", "j2"]
    assert workload.frameworks[0].allowed_vm_types == ("a-type-no-cluster-has-yet",)
    assert workload.warnings == ()
    assert parse_workload(workload.to_dict()) == workload


def test_an_empty_workload_is_valid_with_the_default_resources():
    assert parse_workload({}).resources == DEFAULT_RESOURCES
    assert parse_workload({"frameworks": [], "jobs": []}).jobs == ()


def test_resources_are_the_executor_keys_in_order_of_first_mention():
    jobs = [{**JOBS[1], "executor": {"gpu": 1, "cpu": 1}}, {**JOBS[0], "executor": {"cpu": 1, "gpu": 2}}]
    assert parse_workload({"frameworks": FRAMEWORKS, "jobs": jobs}).resources == ("gpu", "cpu")
    doc = {"frameworks": FRAMEWORKS, "jobs": JOBS}
    assert parse_workload(doc, resources=("mem", "cpu")).resources == ("mem", "cpu")
    assert parse_workload({**doc, "resources": ["mem", "cpu"]}).resources == ("mem", "cpu")


def test_the_workload_errors_are_those_of_the_scenario_with_the_same_paths():
    jobs = copy.deepcopy(JOBS)
    jobs[1]["executor"]["cpu"] = -1
    jobs[0]["framework"] = "nobody"
    jobs.append({**JOBS[1], "id": "j1", "colour": "red"})
    workload_errors = errors_of({"frameworks": FRAMEWORKS, "jobs": jobs})
    cluster = [{"name": "a-type-no-cluster-has-yet", "capacity": {"cpu": 8, "mem": 8}, "price_per_hour": 1}]
    with pytest.raises(ScenarioError) as info:
        parse_scenario({"vm_types": cluster, "frameworks": FRAMEWORKS, "jobs": jobs})
    assert workload_errors == {e.path: e.message for e in info.value.errors}
    assert workload_errors["jobs[1].executor.cpu"] == "must be >= 0"
    assert workload_errors["jobs[0].framework"] == "unknown framework 'nobody'"
    assert workload_errors["jobs[2].id"] == "duplicate job id 'j1'"


def test_a_resource_name_that_cannot_be_stored_is_refused_where_it_first_appears():
    jobs = [JOBS[1], {**JOBS[0], "executor": {"cpu": 1, "mem": 1, "\ud800": 1}}]
    assert errors_of({"jobs": jobs}) == {
        "jobs[1].executor.\\ud800": "is not a resource name: contains a lone surrogate (\\ud800 at "
        "character 1), which is not a character: text must be valid Unicode"
    }


def test_allowed_vm_types_must_be_names_even_without_a_cluster():
    frameworks = [{"name": "etl", "allowed_vm_types": ["ok", "\udc00", 3, "tab\there"]}]
    errors = errors_of({"frameworks": frameworks, "jobs": []})
    assert set(errors) == {
        "frameworks[0].allowed_vm_types[1]",
        "frameworks[0].allowed_vm_types[2]",
        "frameworks[0].allowed_vm_types[3]",
    }


@pytest.mark.parametrize(
    ("doc", "path"),
    [
        ([], ""),
        ({"jobs": {}}, "jobs"),
        ({"frameworks": "etl"}, "frameworks"),
        ({"jobs": [], "vm_types": []}, "vm_types"),
        ({"jobs": [{"id": "x"}]}, "jobs[0].arrival_s"),
        ({"jobs": JOBS, "resources": ["cpu", "cpu"]}, "resources"),
    ],
)
def test_bad_workload_documents(doc: Any, path: str):
    assert path in errors_of(doc)


def test_warnings_come_back_with_the_workload():
    jobs = [{**JOBS[0], "deadline_s": 30}, {k: v for k, v in JOBS[1].items() if k != "framework"}]
    workload = parse_workload({"frameworks": FRAMEWORKS, "jobs": jobs})
    assert [w.path for w in workload.warnings] == ["jobs[0].deadline_s", "jobs[1].framework"]
    assert len(workload.jobs) == 2
