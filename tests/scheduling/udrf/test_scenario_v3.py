"""Scenario version 3: machine classes and users' complex jobs (paper 004)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scheduling.cli import main
from scheduling.errors import ScenarioError
from scheduling.scenario import parse_scenario, parse_workload

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "paper004-fig1.json"


def example() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return doc


def messages(doc: Any) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    return [str(e) for e in info.value.errors]


def test_round_trip_keeps_classes_and_jobs_and_writes_version_3() -> None:
    scenario = parse_scenario(example())
    doc = scenario.to_dict()
    assert doc["version"] == 3
    assert doc["vm_types"][0]["machine_class"] == "hadoop"
    assert parse_scenario(doc) == scenario
    assert list(scenario.class_capacity()) == ["hadoop", "standard", "public-ip", "high-memory"]
    assert scenario.class_capacity()["hadoop"] == (56, 64)
    u2 = scenario.frameworks[1].complex_jobs[0]
    assert (u2.classes, u2.runs, u2.duration_s, u2.arrival_s) == (("standard", "public-ip"), 1, 60.0, 0.0)


def test_a_class_defaults_to_its_vm_type() -> None:
    doc = example()
    del doc["vm_types"][3]["machine_class"]
    doc["frameworks"][3]["complex_jobs"][0]["tasks"][0]["machine_class"] = "high-memory-node"
    assert "high-memory-node" in parse_scenario(doc).class_capacity()


def test_older_versions_refuse_version_3_fields_and_stay_as_they_were() -> None:
    doc = example()
    doc["version"] = 2
    assert messages(doc)[:2] == [
        "vm_types[0].machine_class: is a version-3 field (the document says version 2)",
        "vm_types[1].machine_class: is a version-3 field (the document says version 2)",
    ]
    assert "frameworks[0].complex_jobs: is a version-3 field (the document says version 2)" in messages(doc)
    plain = {"version": 1, "vm_types": [{"name": "a", "capacity": {"cpu": 1, "mem": 1}, "price_per_hour": 0}],
             "jobs": [{"id": "j", "arrival_s": 0, "executors": 1, "executor": {"cpu": 1, "mem": 1},
                       "duration_s": 1}]}
    assert parse_scenario(plain).to_dict()["version"] == 1


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["frameworks"][0]["complex_jobs"][0]["tasks"][0].update(machine_class="gpu"),
         "frameworks[0].complex_jobs[0].tasks[0].machine_class: unknown machine class 'gpu' "
         "(the cluster's: hadoop, standard, public-ip, high-memory)"),
        (lambda d: d["frameworks"][0]["complex_jobs"][0]["tasks"][0]["demand"].update(cpu=-1),
         "frameworks[0].complex_jobs[0].tasks[0].demand.cpu: must be >= 0"),
        (lambda d: d["frameworks"][0]["complex_jobs"][0]["tasks"][0].update(demand={"cpu": 0, "mem": 0}),
         "frameworks[0].complex_jobs[0].tasks[0].demand: must have some resource > 0"),
        (lambda d: d["frameworks"][0]["complex_jobs"][0]["tasks"][0]["demand"].update(cpu=8),
         "frameworks[0].complex_jobs[0].tasks[0].demand: does not fit on any machine of class 'hadoop'"),
        (lambda d: d["frameworks"][0]["complex_jobs"][0]["tasks"][0].update(count=57),
         "frameworks[0].complex_jobs[0].tasks: one run needs more of class 'hadoop' than it has "
         "(57 cpu of 56)"),
        (lambda d: d["frameworks"][0]["complex_jobs"][0].update(runs=0),
         "frameworks[0].complex_jobs[0].runs: must be >= 1"),
        (lambda d: d["frameworks"][0]["complex_jobs"][0].update(duration_s=0),
         "frameworks[0].complex_jobs[0].duration_s: must be > 0"),
        (lambda d: d["frameworks"][0]["complex_jobs"][0].update(tasks=[]),
         "frameworks[0].complex_jobs[0].tasks: must list at least one task"),
        (lambda d: d["frameworks"][0]["complex_jobs"][1].update(id="job1"),
         "frameworks[0].complex_jobs[1].id: duplicate job id 'job1'"),
        (lambda d: d["frameworks"][0]["complex_jobs"][0].update(deadline_s=5),
         "frameworks[0].complex_jobs[0].deadline_s: unknown field "
         "(expected one of: arrival_s, duration_s, id, runs, tasks)"),
        (lambda d: d["vm_types"][0].update(machine_class=""),
         "vm_types[0].machine_class: must not be empty"),
    ],
)
def test_bad_fields_are_named(change: Any, expected: str) -> None:
    doc = copy.deepcopy(example())
    change(doc)
    assert expected in messages(doc)


def test_a_workload_alone_reads_complex_jobs_and_infers_resources() -> None:
    workload = parse_workload({"frameworks": [{"name": "u", "complex_jobs": [
        {"id": "a", "tasks": [{"machine_class": "gpu", "demand": {"gpu": 1, "cpu": 4}}]}]}]})
    assert workload.resources == ("gpu", "cpu")
    task = workload.to_dict()["frameworks"][0]["complex_jobs"][0]["tasks"][0]
    assert task["demand"] == {"gpu": 1, "cpu": 4}


def test_cli_udrf_prints_the_offline_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.json"
    assert main(["udrf", str(EXAMPLE), "--compare-drf", "-q", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())["offline"]
    assert [r["users"] for r in doc["rducs"]] == [["u1", "u2", "u3"], ["u4"]]
    assert doc["policies"]["udrf"]["users"][0]["jobs"] == {"job1": 28, "job2": 8}
    assert doc["policies"]["drf"]["users"][0]["jobs"] == {"job1": 8, "job2": 8}
    assert main(["udrf", str(EXAMPLE), "-q", "-o", str(out)]) == 0
    assert list(json.loads(out.read_text())["offline"]["policies"]) == ["udrf"]


def test_cli_refuses_bad_input_with_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = example()
    doc["frameworks"][0]["complex_jobs"][0]["tasks"][0]["machine_class"] = "gpu"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    assert main(["udrf", str(bad), "-q"]) == 2
    err = capsys.readouterr().err
    assert "frameworks[0].complex_jobs[0].tasks[0].machine_class: unknown machine class 'gpu'" in err
    assert main(["udrf", str(EXAMPLE), "--queue", "0", "--online", "-q"]) == 2
    assert "error: --queue: must be a whole number from 1 to 100,000" in capsys.readouterr().err
    # the online options are the planner's (one rule): no infinite interval or horizon, no negative seed
    assert main(["udrf", str(EXAMPLE), "--online", "--interval", "inf", "--horizon", "nan", "--seed", "-1",
                 "-q"]) == 2
    err = capsys.readouterr().err
    assert "error: --interval: must be a number of seconds in (0, 3600]" in err
    assert "error: --horizon: must be a number of seconds in (0, 2.592e+06]" in err
    assert "error: --seed: must be a whole number from 0 to 9,223,372,036,854,775,807" in err


def test_cli_udrf_generate_writes_a_valid_seeded_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    args = ["udrf-generate", "--users", "6", "--jobs", "20", "--classes", "8", "--seed", "3", "-o"]
    assert main([*args, str(a)]) == 0
    assert main([*args, str(b)]) == 0
    assert a.read_text() == b.read_text()
    scenario = parse_scenario(json.loads(a.read_text()))
    assert sum(len(f.complex_jobs) for f in scenario.frameworks) == 20
    assert len(scenario.class_capacity()) == 8
    assert main(["udrf", str(a), "--online", "--compare-drf", "-q", "-o", str(b)]) == 0
    assert set(json.loads(b.read_text())["online"]["policies"]) == {"udrf", "drf"}
    assert main(["udrf-generate", "--users", "0", "--jobs", "2000000"]) == 2
    err = capsys.readouterr().err
    assert "error: --users: must be a whole number from 1 to 1,000" in err
    assert "error: --jobs: must be a whole number from 1 to 200,000" in err
    bad_sizes = ["--max-runs", "100000000", "--seed", "-1", "--users", "9", "--jobs", "3"]
    assert main(["udrf-generate", *bad_sizes]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: --jobs: must be >= --users (9): every user has a job",
        "error: --max-runs: must be a whole number from 1 to 1,000,000",
        "error: --seed: must be a whole number from 0 to 9,223,372,036,854,775,807",
    ]
