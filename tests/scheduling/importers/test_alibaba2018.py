"""Alibaba's 2018 trace: small tables written here in the columns of its schema.txt (the trace has no
licence, so none of it is copied)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduling import ScenarioError, parse_scenario
from scheduling.importers import Source, get_importer, sources_from_paths

ROOT = Path(__file__).resolve().parents[3]
ALI = get_importer("alibaba-2018")

# task_name, instance_num, job_name, task_type, status, start_time, end_time, plan_cpu, plan_mem
TASKS = [
    "M1,4,j_1,1,Terminated,100,160,100,0.5\n",
    "R2_1,2,j_1,1,Terminated,160,230,200,1.0\n",
    "task_Nzg3ODAwNDgzMTAwNTc2NTQ2Mw==,1,j_2,12,Terminated,90,100,50,0.25\n",
    "M1,3,j_3,1,Failed,120,150,100,0.5\n",
    "M1,3,j_4,1,Running,130,0,100,0.5\n",
]
# machine_id, time_stamp, failure_domain_1, failure_domain_2, cpu_num, mem_size, status
MACHINES = [
    "m_1,0,1,a,96,100,USING\n",
    "m_2,0,1,b,96,100,USING\n",
    "m_1,500,1,a,96,100,USING\n",
    "m_3,0,2,c,64,50,USING\n",
    "m_4,0,2,c,96,101,USING\n",
]
# instance_name, task_name, job_name, task_type, status, start_time, end_time, machine_id, seq_no,
# total_seq_no, cpu_avg, cpu_max, mem_avg, mem_max
INSTANCES = ["i_1,M1,j_1,1,Terminated,100,150,m_1,1,1,80,100,0.4,0.5\n"]


def write_trace(root: Path, tasks: list[str] = TASKS) -> Path:
    root.mkdir(parents=True)
    (root / "batch_task.csv").write_text("".join(tasks))
    (root / "machine_meta.csv").write_text("".join(MACHINES))
    (root / "batch_instance.csv").write_text("".join(INSTANCES))
    (root / "schema.txt").write_text("not a table: skipped in a folder\n")
    return root


def errors(fn: Any, *args: Any, **kwargs: Any) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        fn(*args, **kwargs)
    return [str(e) for e in info.value.errors]


def test_one_job_per_task(tmp_path: Path) -> None:
    imported = ALI.read_sources(sources_from_paths([str(write_trace(tmp_path / "trace"))]))
    assert [
        (j["id"], j["arrival_s"], j["executors"], j["executor"], j["duration_s"]) for j in imported.jobs
    ] == [
        ("j_2/task_Nzg3ODAwNDgzMTAwNTc2NTQ2Mw==", 90, 1, {"cpu": 0.5, "mem": 1.28}, 10),
        ("j_1/M1", 100, 4, {"cpu": 1, "mem": 2.56}, 60),
        ("j_1/R2_1", 160, 2, {"cpu": 2, "mem": 5.12}, 70),
    ]
    assert imported.document["vm_types"] == [
        {"name": "ali2018-96c-512g", "capacity": {"cpu": 96, "mem": 512}, "price_per_hour": 5.76, "count": 2},
        {"name": "ali2018-64c-256g", "capacity": {"cpu": 64, "mem": 256}, "price_per_hour": 3.84, "count": 1},
    ]
    warnings = {str(w) for w in imported.warnings}
    assert warnings >= {
        "batch_task: 1 tasks name the tasks they wait for (M5_3_4: task 5 after tasks 3 and 4); the scenario "
        "has no dependencies, so the DAG is ignored",
        "batch_instance: not read: batch_task carries each task's instances, start and end",
        "import: 2 jobs dropped: a task not Terminated (keep_failed=true keeps those that ended)",
    }
    parse_scenario({"version": 1, **imported.document})
    kept = ALI.read_sources(sources_from_paths([str(tmp_path / "trace")]), {"keep_failed": True})
    assert "j_3/M1" in [j["id"] for j in kept.jobs] and "j_4/M1" not in [j["id"] for j in kept.jobs]


def test_one_job_per_job_with_its_tasks_serialised(tmp_path: Path) -> None:
    root = write_trace(tmp_path / "trace")
    imported = ALI.read_sources([Source.from_path(root / "batch_task.csv")], {"jobs": "job", "start_s": 95})
    assert imported.jobs == [
        {"id": "j_1", "arrival_s": 5, "executors": 4, "executor": {"cpu": 2, "mem": 5.12}, "duration_s": 130}
    ]
    assert "vm_types" not in imported.document


def test_window_cap_sample_and_deadlines(tmp_path: Path) -> None:
    sources = [Source.from_path(write_trace(tmp_path / "t") / "batch_task.csv")]
    assert [j["id"] for j in ALI.read_sources(sources, {"start_s": 95, "window_s": 10}).jobs] == ["j_1/M1"]
    assert [j["id"] for j in ALI.read_sources(sources, {"max_jobs": 1}).jobs] == ["j_1/M1"]
    drawn = ALI.read_sources(
        sources, {"sample": 0.5, "seed": 11, "deadline": "factor", "deadline_factor": 1.5}
    )
    assert (
        drawn.jobs
        == ALI.read_sources(
            sources, {"sample": 0.5, "seed": 11, "deadline": "factor", "deadline_factor": 1.5}
        ).jobs
    )
    assert all(j["deadline_s"] == 1.5 * j["duration_s"] for j in drawn.jobs)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("M1,4,j_1,1,Terminated,100,160,100\n",
         "line 6: has 8 columns; batch_task has 9: task_name, instance_num, job_name, task_type, status, "
         "start_time, end_time, plan_cpu, plan_mem"),
        ("M1,four,j_9,1,Terminated,100,160,100,0.5\n",
         "line 6 (job j_9/M1), instance_num: must be a number >= 0, got 'four'"),
        ("M1,4,j_9,1,Terminated,100,later,100,0.5\n", "line 6 (job j_9/M1), end_time: must be a number >= 0, "
         "got 'later'"),
        ("M1,4,,1,Terminated,100,160,100,0.5\n", "line 6, job_name: must not be empty"),
    ],
)  # fmt: skip
def test_a_malformed_line_names_the_file_the_line_and_the_column(
    tmp_path: Path, line: str, message: str
) -> None:
    root = write_trace(tmp_path / "trace", [*TASKS, line])
    assert errors(ALI.read_sources, sources_from_paths([str(root)])) == [
        f"{root / 'batch_task.csv'} {message}"
    ]


def test_the_command_line(tmp_path: Path) -> None:
    root = write_trace(tmp_path / "trace")
    out_path = tmp_path / "S.json"
    run = [sys.executable, "-m", "scheduling", "import", "--format", "alibaba-2018"]
    out = subprocess.run([*run, str(root), "-o", str(out_path)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out_path.read_text())["jobs"]) == 3
    assert "warning: batch_task: 1 tasks name the tasks they wait for" in out.stderr
    bad = write_trace(tmp_path / "bad", [*TASKS, "M1,4,j_9,1,Terminated,100,later,100,0.5\n"])
    out = subprocess.run([*run, str(bad / "batch_task.csv")], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 2 and f"{bad / 'batch_task.csv'} line 6 (job j_9/M1), end_time" in out.stderr


@st.composite
def task_tables(draw: st.DrawFn) -> list[tuple[str, int, str, str, int, int, int, float]]:
    rows = []
    for k in range(draw(st.integers(1, 25))):
        start = draw(st.integers(0, 10_000))
        rows.append((
            f"M{k + 1}", draw(st.integers(1, 50)), f"j_{draw(st.integers(1, 6))}",
            draw(st.sampled_from(["Terminated", "Terminated", "Failed"])), start,
            start + draw(st.integers(1, 3600)), draw(st.sampled_from([50, 100, 400])),
            draw(st.sampled_from([0.25, 0.5, 1.0])),
        ))  # fmt: skip
    return rows


@given(task_tables(), st.integers(0, 5000), st.integers(1, 30))
def test_job_count_arrivals_and_sizes_follow_the_rule(
    rows: list[tuple[str, int, str, str, int, int, int, float]], start: int, cap: int
) -> None:
    text = "".join(f"{n},{i},{j},1,{s},{a},{b},{c},{m}\n" for n, i, j, s, a, b, c, m in rows)
    imported = ALI.read_text(text, {"start_s": start, "max_jobs": cap})
    kept = [r for r in rows if r[3] == "Terminated" and r[4] >= start][:cap]
    assert sorted(j["id"] for j in imported.jobs) == sorted(f"{r[2]}/{r[0]}" for r in kept)
    by_id = {f"{r[2]}/{r[0]}": r for r in kept}
    for job in imported.jobs:
        _, instances, _, _, arrival, end, cpu, mem = by_id[job["id"]]
        assert job["arrival_s"] == arrival - start and job["duration_s"] == end - arrival
        assert job["executors"] == instances
        assert job["executor"] == {"cpu": cpu / 100, "mem": pytest.approx(mem * 5.12)}
