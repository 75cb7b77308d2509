"""How two scenarios differ (the compare page's warning)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scheduling.scenario import parse_scenario, scenario_differences
from scheduling.scenario.differences import JobColumns

BASE: dict[str, Any] = {
    "resources": ["cpu", "mem"],
    "vm_types": [
        {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 6},
        {"name": "large", "capacity": {"cpu": 12, "mem": 48}, "price_per_hour": 0.72, "count": 3},
    ],
    "frameworks": [{"name": "etl", "weight": 1}, {"name": "ml", "weight": 2}],
    "jobs": [
        {"id": f"j{k}", "framework": "etl" if k % 2 else "ml", "arrival_s": 10 * k, "executors": 2,
         "executor": {"cpu": 1, "mem": 2}, "duration_s": 100}
        for k in range(12)
    ],
}


def differences(change: Any) -> dict[str, list[str]]:
    other = copy.deepcopy(BASE)
    change(other)
    return {d.title: list(d.lines) for d in scenario_differences(parse_scenario(BASE), parse_scenario(other))}


def test_the_same_scenario_has_no_differences_whatever_its_name() -> None:
    def rename(doc: Any) -> None:
        doc["name"] = "another name"
        doc["description"] = "and a description"

    assert differences(rename) == {}


def test_cluster_changes_are_named() -> None:
    def change(doc: Any) -> None:
        doc["vm_types"][0]["count"] = 10
        doc["vm_types"][1]["price_per_hour"] = 0.8
        doc["vm_types"][1]["capacity"]["mem"] = 64
        doc["vm_types"].append(
            {"name": "gpu", "capacity": {"cpu": 8, "mem": 32}, "price_per_hour": 2, "count": 2}
        )

    assert differences(change) == {"Cluster": [
        "only in B: gpu ×2",
        "small: 6 → 10 VMs",
        "large: price 0.72 → 0.8 per hour",
        "large: capacity 12 cpu, 48 mem → 12 cpu, 64 mem",
    ]}


def test_workload_changes_are_counted_and_a_few_named() -> None:
    def change(doc: Any) -> None:
        del doc["jobs"][0]
        doc["jobs"][0]["duration_s"] = 200  # j1
        for k in range(2, 9):
            doc["jobs"][k]["executors"] = 3  # j3 ... j9
        doc["jobs"].append({**doc["jobs"][-1], "id": "new"})
        doc["frameworks"][1]["weight"] = 3

    assert differences(change) == {"Workload": [
        "1 job only in A: j0",
        "1 job only in B: new",
        "8 jobs changed (executors, sizes, times or deadline), e.g. j1, j3, j4, j5, j6 and 3 more",
        "framework weights: ml 2 → 3",
    ]}


def test_option_and_resource_changes() -> None:
    def options(doc: Any) -> None:
        doc["options"] = {"billing_granularity_s": 3600, "rut": {"cpu": 0.5, "mem": 0.5}}

    assert differences(options) == {"Scenario options": [
        "rut: default → cpu=0.5, mem=0.5", "billing_granularity_s: 0 → 3600"
    ]}

    def gpu(doc: Any) -> None:
        doc["resources"] = ["cpu", "mem", "gpu"]
        for t in doc["vm_types"]:
            t["capacity"]["gpu"] = 1
        for j in doc["jobs"]:
            j["executor"]["gpu"] = 0

    assert differences(gpu)["Cluster"] == ["resources cpu, mem → cpu, mem, gpu"]


def test_reserved_and_spot_prices_are_named() -> None:
    base = {"version": 4, "resources": ["cpu"],
            "vm_types": [{"name": "m", "capacity": {"cpu": 4}, "price_per_hour": 1.0, "count": 6}],
            "jobs": [{"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1}, "duration_s": 60}]}
    other = copy.deepcopy(base)
    other["vm_types"][0]["reserved"] = {"price_per_hour": 0.6, "count": 2}
    other["vm_types"][0]["spot"] = {"price_per_hour": 0.3, "interruptions_per_hour": 0.5}
    (section,) = scenario_differences(parse_scenario(base), parse_scenario(other))
    assert section.lines == ("m: reserved none → 2 at 0.6 per hour",
                             "m: spot none → 4 at 0.3 per hour, 0.5 interruptions/h")


def _reordered(doc: dict[str, Any]) -> None:
    doc["jobs"].reverse()
    doc["jobs"][0]["duration_s"] = 300


def _sensitive(doc: dict[str, Any]) -> None:
    doc["frameworks"][0]["network_sensitivity"] = 0.5
    doc["jobs"][2]["network_sensitivity"] = 0.0


def _fewer_and_more(doc: dict[str, Any]) -> None:
    doc["jobs"] = [*doc["jobs"][3:], {**doc["jobs"][0], "id": "new"}]
    doc["jobs"][4]["executor"] = {"mem": 2, "cpu": 2}
    doc["jobs"][5]["deadline_s"] = 500


def _other_resources(doc: dict[str, Any]) -> None:
    doc["resources"] = ["mem", "cpu"]
    doc["jobs"][1]["framework"] = "ml"


@pytest.mark.parametrize("change", [_reordered, _sensitive, _fewer_and_more, _other_resources])
def test_jobs_given_as_columns_differ_as_the_scenarios_own(change: Any) -> None:
    """A scenario parsed without its jobs, with its jobs as columns (a planner's run that keeps
    them apart) differs as the whole scenario does."""
    other = copy.deepcopy(BASE)
    change(other)
    a, b = parse_scenario(BASE), parse_scenario(other)
    expected = scenario_differences(a, b)
    assert any(d.title == "Workload" for d in expected)
    heads = [parse_scenario({**doc, "jobs": []}) for doc in (BASE, other)]
    got = scenario_differences(*heads, jobs=(JobColumns.of(a), JobColumns.of(b)))
    assert got == expected
