"""Scenario version 2: the frameworks' task queues, offer policy, refuse and holding seconds."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scheduling.errors import ScenarioError
from scheduling.scenario import SCENARIO_VERSION, TaskQueue, parse_scenario, parse_workload


def sharing_doc(**framework: Any) -> dict[str, Any]:
    return {
        "version": 2,
        "name": "two schedulers",
        "vm_types": [{"name": "node", "capacity": {"cpu": 8, "mem": 16}, "price_per_hour": 0, "count": 4}],
        "frameworks": [
            {"name": "marathon", "task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "greedy", "refuse_s": 0,
             "queues": [{"tasks": 100, "duration_s": 100}]},
            {"name": "scylla", "task_demand": {"cpu": 1, "mem": 1}, "offer_policy": "first-fit",
             "queues": [{"tasks": 100, "duration_s": 100, "interval_s": 2}], **framework},
        ],
    }


def messages(doc: Any) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    return [str(e) for e in info.value.errors]


def test_queues_and_policies_are_read() -> None:
    s = parse_scenario(sharing_doc())
    marathon, scylla = s.frameworks
    assert marathon.offer_policy == "greedy" and marathon.refuse_s == 0 and marathon.hold_s == 0
    assert scylla.offer_policy == "first-fit" and scylla.refuse_s == 5
    assert scylla.queues == (TaskQueue(tasks=100, duration_s=100, interval_s=2),)
    assert scylla.queues[0].arrival_rule == "interval" and marathon.queues[0].arrival_rule == "batch"
    assert s.jobs == ()  # a scenario of queues needs no jobs


def test_round_trip_writes_version_2_only_when_needed() -> None:
    s = parse_scenario(sharing_doc())
    doc = s.to_dict()
    assert doc["version"] == SCENARIO_VERSION - 2 == 2
    assert parse_scenario(doc) == s
    assert parse_scenario(copy.deepcopy(doc)).to_dict() == doc
    v1 = {"version": 1, "name": "v1", "resources": ["cpu", "mem"],
          "vm_types": [{"name": "n", "capacity": {"cpu": 1, "mem": 1}, "price_per_hour": 0, "count": 1}],
          "frameworks": [{"name": "a", "weight": 1, "task_demand": {"cpu": 1, "mem": 1}}], "jobs": []}
    assert parse_scenario(v1).to_dict() == v1


def test_every_arrival_rule_round_trips() -> None:
    queues = [
        {"tasks": 10, "tasks_per_job": 3, "duration_s": 5, "start_s": 7, "rate_per_s": 0.5},
        {"tasks": 4, "duration_s": 5, "arrival_s": [0, 1, 1, 9]},
        {"tasks": 6, "tasks_per_job": 2, "duration_s": 5, "sequential": True,
         "task_demand": {"cpu": 2, "mem": 1}},
    ]
    s = parse_scenario(sharing_doc(queues=queues, hold_s=300, offer_policy="hold"))
    q = s.frameworks[1].queues
    assert [x.arrival_rule for x in q] == ["rate", "list", "sequential"]
    assert [x.jobs for x in q] == [4, 4, 3]
    assert parse_scenario(s.to_dict()) == s


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"queues": [{"tasks": 1, "duration_s": 0}]}, "frameworks[1].queues[0].duration_s: must be > 0"),
        ({"queues": [{"tasks": 0, "duration_s": 1}]}, "frameworks[1].queues[0].tasks: must be > 0"),
        ({"queues": [{"tasks": 1.5, "duration_s": 1}]}, "frameworks[1].queues[0].tasks: must be an integer"),
        ({"queues": [{"duration_s": 1}]}, "frameworks[1].queues[0].tasks: is required"),
        ({"queues": [{"tasks": 2, "duration_s": 1, "interval_s": 1, "rate_per_s": 2}]},
         "frameworks[1].queues[0]: give one arrival rule, not interval_s and rate_per_s"),
        ({"queues": [{"tasks": 2, "duration_s": 1, "rate_per_s": 0}]},
         "frameworks[1].queues[0].rate_per_s: must be > 0"),
        ({"queues": [{"tasks": 3, "duration_s": 1, "arrival_s": [0, 1]}]},
         "frameworks[1].queues[0].arrival_s: lists 2 times for 3 jobs (one per job of tasks_per_job tasks)"),
        ({"queues": [{"tasks": 3, "duration_s": 1, "arrival_s": [0, -1, 2]}]},
         "frameworks[1].queues[0].arrival_s[1]: must be >= 0"),
        ({"queues": [{"tasks": 3, "duration_s": 1, "sequential": "yes"}]},
         "frameworks[1].queues[0].sequential: must be true or false"),
        ({"queues": [{"tasks": 3, "duration_s": 1, "colour": 1}]},
         "frameworks[1].queues[0].colour: unknown field (expected one of: arrival_s, duration_s, interval_s, "
         "rate_per_s, sequential, start_s, task_demand, tasks, tasks_per_job)"),
        ({"queues": [{"tasks": 3, "duration_s": 1, "task_demand": {"cpu": 9, "mem": 1}}]},
         "frameworks[1].queues[0].task_demand: a task of queue 0 does not fit on any VM type "
         "the framework may use"),
        ({"offer_policy": "lazy"},
         "frameworks[1].offer_policy: must be one of first-fit, bin-packing, greedy, hold"),
        ({"refuse_s": -1}, "frameworks[1].refuse_s: must be >= 0"),
        ({"hold_s": "long"}, "frameworks[1].hold_s: must be a number"),
        ({"queues": {"tasks": 1}}, "frameworks[1].queues: must be a list"),
    ],
)
def test_bad_fields_are_named(change: dict[str, Any], expected: str) -> None:
    assert expected in messages(sharing_doc(**change))


def test_a_queue_needs_a_demand() -> None:
    doc = sharing_doc()
    del doc["frameworks"][1]["task_demand"]
    assert messages(doc) == [
        "frameworks[1].queues[0].task_demand: is required (the framework has no task_demand)"]


def test_version_1_refuses_version_2_fields() -> None:
    doc = sharing_doc()
    doc["version"] = 1
    assert "frameworks[0].queues: is a version-2 field (the document says version 1)" in messages(doc)
    assert "frameworks[1].offer_policy: is a version-2 field (the document says version 1)" in messages(doc)


def test_workload_reads_queues_too() -> None:
    w = parse_workload({"frameworks": [{"name": "a", "task_demand": {"cpu": 1},
                                        "queues": [{"tasks": 2, "duration_s": 3}]}]})
    assert w.frameworks[0].queues[0].tasks == 2
    assert w.to_dict()["frameworks"][0]["queues"] == [{"tasks": 2, "duration_s": 3}]


def test_differences_name_offer_answers_and_queues() -> None:
    from scheduling.scenario import scenario_differences

    a = parse_scenario(sharing_doc())
    b = parse_scenario(sharing_doc(refuse_s=0, queues=[{"tasks": 50, "duration_s": 100}]))
    lines = [line for section in scenario_differences(a, b) for line in section.lines]
    assert "offer answers: scylla first-fit, refuse 5 s → first-fit, refuse 0 s" in lines
    assert "task queues changed for scylla" in lines
