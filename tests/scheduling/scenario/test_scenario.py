"""The scenario document: validation with paths, limits, name rules, warnings, fit summaries, round trips."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from scheduling import (
    LIMITS,
    ScenarioError,
    SimulationOptions,
    load_scenario_json,
    name_problem,
    parse_scenario,
)
from scheduling.importers import import_rm_csv

DATA = Path(__file__).resolve().parents[4] / "shared" / "data" / "rm-simulator"
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

ISSUE_EXAMPLE = {
    "name": "Light load on the paper's cluster",
    "resources": ["cpu", "mem"],
    "vm_types": [{"name": "m1.large", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 6}],
    "frameworks": [
        {
            "name": "analytics",
            "weight": 1,
            "task_demand": {"cpu": 1, "mem": 2},
            "allowed_vm_types": ["m1.large"],
        }
    ],
    "jobs": [
        {
            "id": "j1",
            "framework": "analytics",
            "arrival_s": 0,
            "executors": 4,
            "executor": {"cpu": 2, "mem": 4},
            "duration_s": 300,
            "deadline_s": 900,
        }
    ],
}


def messages(doc: object) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    return [str(e) for e in info.value.errors]


def test_issue_example_parses_and_names_machines():
    sc = parse_scenario(ISSUE_EXAMPLE)
    assert sc.resources == ("cpu", "mem")
    assert sc.machine_names() == [f"m1.large#{k}" for k in range(1, 7)]
    assert sc.jobs[0].absolute_deadline_s == 900
    assert sc.frameworks[0].allowed_vm_types == ("m1.large",)


def test_round_trip_through_to_dict():
    sc = parse_scenario(ISSUE_EXAMPLE)
    assert parse_scenario(json.loads(json.dumps(sc.to_dict()))) == sc


def test_optional_fields_default():
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    del doc["resources"], doc["frameworks"]
    del doc["jobs"][0]["framework"], doc["jobs"][0]["deadline_s"]
    sc = parse_scenario(doc)
    assert sc.resources == ("cpu", "mem")
    assert sc.jobs[0].framework == "default" and sc.jobs[0].deadline_s is None
    assert sc.vm_types[0].count == 6


def test_every_error_is_collected_with_its_path():
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    doc["jobs"] = [
        dict(doc["jobs"][0]),
        {**doc["jobs"][0], "id": "j2", "executor": {"cpu": -1, "mem": 4}},
        {**doc["jobs"][0], "id": "j1", "framework": "nobody"},
        {**doc["jobs"][0], "id": "j4", "executors": 2.5, "colour": "red"},
    ]
    got = messages(doc)
    assert "jobs[1].executor.cpu: must be >= 0" in got
    assert "jobs[2].id: duplicate job id 'j1'" in got
    assert "jobs[2].framework: unknown framework 'nobody'" in got
    assert "jobs[3].executors: must be an integer" in got
    assert any(m.startswith("jobs[3].colour: unknown field") for m in got)


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (
            lambda d: d["vm_types"][0].update(price_per_hour=float("nan")),
            "vm_types[0].price_per_hour: must be a finite number",
        ),
        (
            lambda d: d["vm_types"][0].update(price_per_hour=float("inf")),
            "vm_types[0].price_per_hour: must be a finite number",
        ),
        (lambda d: d["vm_types"][0].update(count=0), "vm_types[0].count: must be >= 1"),
        (lambda d: d["vm_types"][0].update(count=True), "vm_types[0].count: must be an integer"),
        (
            lambda d: d["vm_types"][0]["capacity"].update(cpu=1e12),
            "vm_types[0].capacity.cpu: must be <= 1e+09",
        ),
        (
            lambda d: d["vm_types"].append(dict(d["vm_types"][0])),
            "vm_types[1].name: duplicate VM type name 'm1.large'",
        ),
        (
            lambda d: d["frameworks"][0].update(allowed_vm_types=["m9"]),
            "frameworks[0].allowed_vm_types[0]: unknown VM type 'm9'",
        ),
        (lambda d: d["frameworks"][0].update(weight=0), "frameworks[0].weight: must be > 0"),
        (lambda d: d["jobs"][0].update(duration_s=0), "jobs[0].duration_s: must be > 0"),
        (lambda d: d["jobs"][0].update(deadline_s=-5), "jobs[0].deadline_s: must be > 0"),
        (lambda d: d["jobs"][0].update(arrival_s="soon"), "jobs[0].arrival_s: must be a number"),
        (lambda d: d["jobs"][0]["executor"].pop("mem"), "jobs[0].executor.mem: is required"),
        (lambda d: d.update(resources=["cpu", "cpu"]), "resources: duplicate resource 'cpu'"),
        (
            lambda d: d.update(version=5),
            "version: unsupported version 5; this program reads versions 1, 2, 3 and 4",
        ),
        (
            lambda d: d["jobs"][0]["executor"].update(cpu=5),
            "jobs[0].executor: does not fit on any VM type the job's framework may use",
        ),
        (
            lambda d: d["jobs"][0].update(executors=13),
            "jobs[0].executors: needs 13 executors but the VMs it may use hold at most 12 at once",
        ),
        (
            lambda d: d.update(options={"rut": {"cpu": 0.5, "mem": 0.6}}),
            "options.rut: weights must sum to 1 (eq. 5 of paper 003), got 1.1",
        ),
        (
            lambda d: d.update(options={"ilp_method": "magic"}),
            "options.ilp_method: must be one of knapsack, integer, binary",
        ),
    ],
)
def test_bad_values_are_named(mutate, expected):
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    mutate(doc)
    assert expected in messages(doc)


def test_missing_sections_and_wrong_types():
    assert messages({}) == [
        "vm_types: is required",
        "jobs: is required, or task queues (version 2) or complex jobs (version 3) on a framework",
    ]
    # what a document without jobs is told follows the version it says it is
    assert messages({"version": 1})[-1] == "jobs: is required"
    assert messages({"version": 2})[-1] == "jobs: is required, or task queues on a framework (version 2)"
    # frameworks that list complex jobs or queues, all empty: said on frameworks, not on jobs
    machine = {"name": "m", "capacity": {"cpu": 1, "mem": 1}, "price_per_hour": 0, "count": 1}
    empty = {"version": 3, "vm_types": [machine], "frameworks": [{"name": "u", "complex_jobs": []}]}
    assert messages(empty) == [
        "frameworks: no framework has task queues or complex jobs, and there are no jobs"]
    # a complex job refused at its own path: no jobs error on top
    bad = {**empty, "frameworks": [{"name": "u", "complex_jobs": [
        {"id": "j", "tasks": [{"machine_class": "gpu", "demand": {"cpu": 1, "mem": 1}}]}]}]}
    paths = [m.split(":")[0] for m in messages(bad)]
    assert paths == ["frameworks[0].complex_jobs[0].tasks[0].machine_class"]
    assert messages([]) == ["the scenario must be a JSON object"]
    assert "jobs: must be a list" in messages({**ISSUE_EXAMPLE, "jobs": {"a": 1}})


def test_size_limits_reject_before_work():
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    doc["vm_types"][0]["count"] = int(LIMITS["machines"]) + 1
    assert "vm_types[0].count: must be <= 100000" in messages(doc)
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    doc["jobs"] = [doc["jobs"][0]] * (int(LIMITS["jobs"]) + 1)
    limit = int(LIMITS["jobs"])
    assert messages(doc) == [f"jobs: has {limit + 1} entries; the limit is {limit:,}"]


def test_error_report_is_capped():
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    doc["jobs"] = [{**doc["jobs"][0], "id": f"j{i}", "duration_s": -1} for i in range(500)]
    got = messages(doc)
    assert len(got) == LIMITS["errors_reported"] + 1
    assert got[-1] == "... and 300 more errors"


def test_json_loader_rejects_nan_literals_and_garbage():
    with pytest.raises(ScenarioError, match="NaN is not allowed"):
        load_scenario_json('{"vm_types": [], "jobs": [], "x": NaN}')
    with pytest.raises(ScenarioError, match="not valid JSON"):
        load_scenario_json("{")
    with pytest.raises(ScenarioError, match="larger than"):
        load_scenario_json(" " * (int(LIMITS["document_bytes"]) + 1))


def test_options_parse_and_defaults():
    opts = SimulationOptions.from_dict(
        {"rut": {"cpu": 0.6, "mem": 0.4}, "boot_time_s": 30}, resources=("cpu", "mem")
    )
    assert opts.rut_weights(("cpu", "mem")) == (0.6, 0.4)
    assert opts.boot_time_s == 30
    assert SimulationOptions().rut_weights(("cpu", "mem")) == (0.8, 0.2)  # the paper's RUT
    assert SimulationOptions().rut_weights(("cpu", "gpu", "net")) == pytest.approx((1 / 3,) * 3)


def test_rm_simulator_deadline_is_made_relative():
    text = "job-id,C,M,E,T_A,T_est,T_D\njob-0,4,6,7,39,153,396\njob-1,5,8,1,96,54,173\n"
    doc = import_rm_csv(text)
    sc = parse_scenario(doc)
    assert [j.deadline_s for j in sc.jobs] == [357, 77]
    assert [j.absolute_deadline_s for j in sc.jobs] == [396, 173]
    assert sum(t.count for t in sc.vm_types) == 14


def test_rm_simulator_errors_name_lines():
    with pytest.raises(ScenarioError) as info:
        import_rm_csv("job-id,C,M,E,T_A,T_est,T_D\njob-0,4,x,7,39,153,396\njob-1,5,8,1,96,54,90\n")
    assert [str(e) for e in info.value.errors] == [
        "line 2 (job job-0), M: must be a number, got 'x'",
        "line 3 (job job-1), T_D: the absolute deadline must come after T_A",
    ]
    with pytest.raises(ScenarioError, match="missing columns: T_D"):
        import_rm_csv("job-id,C,M,E,T_A,T_est\n")


@pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data is not beside the repository")
@pytest.mark.parametrize(
    "name", ["workload_jobs_low_load.csv", "workload_jobs_high_load.csv", "workload_jobs.csv"]
)
def test_shipped_workloads_import(name):
    sc = parse_scenario(import_rm_csv((DATA / name).read_text()))
    assert len(sc.jobs) in (1_000, 10_000)
    assert all(j.deadline_s is not None and j.deadline_s > 0 for j in sc.jobs)


def test_examples_are_valid():
    paths = sorted(EXAMPLES.glob("*.json"))
    assert paths, f"no examples in {EXAMPLES}"  # an empty glob would pass without checking anything
    for path in paths:
        scenario = load_scenario_json(path.read_text())
        # a workload for the cost engine, frameworks with tasks for the fairness engine, or
        # users with complex jobs for UDRF
        assert scenario.jobs or any(f.task_demand or f.complex_jobs for f in scenario.frameworks), path


# --------------------------------------------------------------------------- names that cannot be stored

SURROGATE = "\ud800"


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d.update(name=SURROGATE), "name"),
        (lambda d: d["vm_types"][0].update(name="m1" + SURROGATE), "vm_types[0].name"),
        (lambda d: d["frameworks"][0].update(name=SURROGATE), "frameworks[0].name"),
        (lambda d: d["jobs"][0].update(id=SURROGATE), "jobs[0].id"),
        (lambda d: d["jobs"][0].update(framework=SURROGATE), "jobs[0].framework"),
        (lambda d: d.update(resources=["cpu", SURROGATE]), "resources[1]"),
        (lambda d: d.update(description="fine " + SURROGATE), "description"),
    ],
)
def test_a_lone_surrogate_in_a_name_is_refused_with_its_path(mutate, path):
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    mutate(doc)
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    problems = {e.path: e.message for e in info.value.errors}
    assert "lone surrogate" in problems[path]
    for e in info.value.errors:  # every message can be printed, logged and sent as JSON
        str(e).encode("utf-8")


def test_a_surrogate_key_is_escaped_in_the_path():
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    doc["jobs"][0]["executor"][SURROGATE] = 1
    doc["jobs"][0][SURROGATE + "x"] = 1
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    paths = [e.path for e in info.value.errors]
    assert "jobs[0].executor.\\ud800" in paths and "jobs[0].\\ud800x" in paths
    json.dumps([e.to_dict() for e in info.value.errors], ensure_ascii=False).encode("utf-8")


def test_name_problem_is_the_rule_the_parser_applies():
    assert name_problem(SURROGATE) == (
        "contains a lone surrogate (\\ud800 at character 1), which is not a character: "
        "text must be valid Unicode"
    )
    assert name_problem("a\x00b") == "must not contain control or format characters (U+0000 at character 2)"
    assert name_problem("x" * 200, max_chars=200) is None
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    doc["vm_types"][0]["name"] = tab = "a\tb"
    assert "vm_types[0].name: " + str(name_problem(tab)) in messages(doc)


# --------------------------------------------------------------------------- warnings


def test_warnings_do_not_block_and_have_paths():
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    doc["jobs"].append({**doc["jobs"][0], "id": "j2", "deadline_s": 100})  # duration 300
    doc["jobs"].append({k: v for k, v in doc["jobs"][0].items() if k != "framework"} | {"id": "j3"})
    scenario = parse_scenario(doc)
    assert [str(w) for w in scenario.warnings] == [
        "jobs[1].deadline_s: is shorter than the job's duration (100 s < 300 s): "
        "the job misses it even on an "
        "idle cluster",
        "jobs[2].framework: names no framework, so the job joins an undeclared framework "
        "'default' (weight 1); "
        "the workload declares analytics",
    ]
    assert len(scenario.jobs) == 3 and scenario.jobs[2].framework == "default"


def test_no_framework_warning_without_declared_frameworks_or_with_a_declared_default():
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    del doc["jobs"][0]["framework"]
    assert parse_scenario({**doc, "frameworks": []}).warnings == ()
    declared = [*doc["frameworks"], {"name": "default", "weight": 1}]
    assert parse_scenario({**doc, "frameworks": declared}).warnings == ()


def test_warnings_are_capped_like_errors():
    doc = copy.deepcopy(ISSUE_EXAMPLE)
    doc["jobs"] = [{**doc["jobs"][0], "id": f"j{i}", "deadline_s": 1} for i in range(250)]
    warnings = parse_scenario(doc).warnings
    assert len(warnings) == LIMITS["errors_reported"] + 1
    assert str(warnings[-1]) == "... and 50 more warnings"


# --------------------------------------------------------------------------- does not fit: summary first


def _cluster_of_12_cpus() -> dict:
    return {
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.24, "count": 2},
            {"name": "large", "capacity": {"cpu": 12, "mem": 48}, "price_per_hour": 0.72, "count": 1},
        ],
        "frameworks": [{"name": "small-only", "allowed_vm_types": ["small"]}],
    }


def _job(i: int, cpu: float, mem: float = 4, executors: int = 1, framework: str | None = None) -> dict:
    job = {
        "id": f"j-{i}",
        "arrival_s": 0,
        "executors": executors,
        "executor": {"cpu": cpu, "mem": mem},
        "duration_s": 60,
    }
    return job | ({"framework": framework} if framework else {})


def test_a_workload_too_big_for_the_cluster_is_summarised_before_the_detail():
    jobs = [
        _job(0, 2),
        _job(1, 16),
        _job(2, 3),
        _job(3, 14, mem=64),
        _job(4, 8, framework="small-only"),
        _job(5, 4, executors=6),
    ]
    got = messages({**_cluster_of_12_cpus(), "jobs": jobs})
    assert got == [
        "jobs: 2 of 6 jobs need an executor larger than any VM type: largest executor 16 cpu and 64 mem, "
        "largest VM 12 cpu and 48 mem",
        "jobs: 1 of 6 jobs have an executor that fits no single VM type their framework may use",
        "jobs: 1 of 6 jobs need more executors at once than the VMs they may use hold (the most: job 'j-5', "
        "6 executors for room of 5)",
        "jobs[1].executor: does not fit on any VM type the job's framework may use",
        "jobs[3].executor: does not fit on any VM type the job's framework may use",
        "jobs[4].executor: does not fit on any VM type the job's framework may use",
        "jobs[5].executors: needs 6 executors but the VMs it may use hold at most 5 at once",
    ]


def test_the_summary_names_only_the_resources_that_are_too_big():
    jobs = [_job(i, 16 if i % 3 == 0 else 2) for i in range(200)]
    got = messages({**_cluster_of_12_cpus(), "jobs": jobs})
    assert (
        got[0]
        == "jobs: 67 of 200 jobs need an executor larger than any VM type: "
        "largest executor 16 cpu, largest VM 12 cpu"
    )
    assert len(got) == 1 + 67
