"""Reading result documents: the columnar layout (format 2) the simulator writes, and the older one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scheduling import Scenario, simulate
from scheduling.cost.document import (
    DERIVED_JOB_FIELDS,
    FORMAT,
    JOB_FIELDS,
    VM_INTERVAL_FIELDS,
    is_columnar,
    iter_jobs,
    iter_vm_intervals,
    job_column,
    job_count,
    job_placed,
    jobs_at,
    machine_names,
    to_columnar,
    vm_interval_column,
    vm_interval_cost,
    vm_interval_count,
)


@pytest.fixture
def simulated(scenario_of: Callable[..., Scenario]) -> dict[str, Any]:
    scenario = scenario_of(
        [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
            {"name": "big", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 0.5},
        ],
        [
            {"id": "a", "arrival_s": 0, "executors": 3, "executor": {"cpu": 3, "mem": 4}, "duration_s": 100},
            {"id": "b", "arrival_s": 10, "executors": 1, "executor": {"cpu": 1, "mem": 2}, "duration_s": 50,
             "deadline_s": 30},
        ],
    )
    return simulate(scenario, scheduler="fifo-consolidate").to_dict()


def old_layout(doc: dict[str, Any]) -> dict[str, Any]:
    """The same document with a dict per job and per interval, as stored before format 2."""
    old = {k: v for k, v in doc.items() if k not in ("format", "machines")}
    old["jobs"] = list(iter_jobs(doc))
    old["vm_intervals"] = list(iter_vm_intervals(doc))
    return old


def test_the_simulator_writes_format_2(simulated: dict[str, Any]) -> None:
    doc = simulated
    assert doc["format"] == FORMAT == 2 and is_columnar(doc)
    assert doc["machines"] == {"name": ["small#1", "small#2", "big#1"], "vm_type": [0, 0, 1]}
    assert list(doc["jobs"]) == list(JOB_FIELDS)
    assert not set(DERIVED_JOB_FIELDS) & set(doc["jobs"])
    assert list(doc["vm_intervals"]) == list(VM_INTERVAL_FIELDS)
    # Price-blind consolidation: a's three executors fill small#1 (one: 3 of 4 cpu), small#2 (one)
    # and big#1 (one); b (1 cpu) then fits on small#1.
    assert doc["jobs"]["placement"] == [[0, 1, 1, 1, 2, 1], [0, 1]]
    assert doc["jobs"]["executor"] == {"cpu": [3, 1], "mem": [4, 2]}


def test_accessors_read_every_field_of_both_layouts_alike(simulated: dict[str, Any]) -> None:
    doc = simulated
    old = old_layout(doc)
    assert not is_columnar(old)
    for layout in (doc, old):
        assert job_count(layout) == 2 and vm_interval_count(layout) == 3
        assert machine_names(layout) == ["small#1", "small#2", "big#1"]
        jobs = list(iter_jobs(layout))
        assert [j["placement"] for j in jobs] == [{"small#1": 1, "small#2": 1, "big#1": 1}, {"small#1": 1}]
        assert [j["wait_s"] for j in jobs] == [0.0, 0.0]
        assert [j["completion_s"] for j in jobs] == [100.0, 50.0]
        assert [j["met_deadline"] for j in jobs] == [None, False]  # b: 60 s > 10 + 30 s
        for key in (*JOB_FIELDS, *DERIVED_JOB_FIELDS):
            assert job_column(layout, key) == [j[key] for j in jobs], key
        assert list(iter_jobs(layout, 1)) == jobs[1:]
        assert list(jobs_at(layout, [1, 0, 1])) == [jobs[1], jobs[0], jobs[1]]
        assert job_placed(layout) == [True, True]
        intervals = list(iter_vm_intervals(layout))
        assert [(iv["vm"], iv["vm_type"], iv["on_s"], iv["off_s"]) for iv in intervals] == [
            ("small#1", "small", 0.0, 100.0),
            ("small#2", "small", 0.0, 100.0),
            ("big#1", "big", 0.0, 100.0),
        ]  # all three turned off at 100 s, in machine order
        for key in (*VM_INTERVAL_FIELDS[1:], "vm", "vm_type", "cost"):
            assert vm_interval_column(layout, key) == [iv[key] for iv in intervals], key
    assert to_columnar(old) == doc


def test_an_interval_s_cost_is_derived_with_the_simulator_s_rule(simulated: dict[str, Any]) -> None:
    doc = simulated
    costs = vm_interval_column(doc, "cost")
    assert costs == [
        vm_interval_cost(100.0, 0.24),
        vm_interval_cost(100.0, 0.24),
        vm_interval_cost(100.0, 0.5),
    ]
    assert sum(costs) == doc["total_cost"]  # bit for bit: the same floats, added in the same order
    assert vm_interval_cost(3600.0, 0.24) == 0.24
    # A columnar document that stores the column is read as stored.
    stored = {**doc, "vm_intervals": {**doc["vm_intervals"], "cost": [1.0, 2.0, 3.0]}}
    assert vm_interval_column(stored, "cost") == [1.0, 2.0, 3.0]
    assert [iv["cost"] for iv in iter_vm_intervals(stored)] == [1.0, 2.0, 3.0]


def test_total_cost_of_a_document_matches_the_sum_of_its_intervals(simulated: dict[str, Any]) -> None:
    doc = simulated
    assert doc["total_cost"] == pytest.approx((0.24 * 2 + 0.5) * 100 / 3600)
