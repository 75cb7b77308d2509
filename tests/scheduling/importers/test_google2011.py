"""Google's 2011 trace: small tables written here in the trace's format (folders of gzipped parts)."""

from __future__ import annotations

import gzip
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
G2011 = get_importer("google-2011")
S = 1_000_000  # the trace's microseconds
NEVER = 2**63 - 1


def job_line(t: int, job: int, code: int) -> str:
    return f"{t},,{job},{code},user{job},2,name{job},logical{job}\n"


def task_line(t: int, job: int, task: int, code: int, cpu: float | str = "", mem: float | str = "") -> str:
    machine = "" if code == 0 else "42"
    return f"{t},,{job},{task},{machine},{code},user{job},2,0,{cpu},{mem},0.0001,0\n"


def machine_line(t: int, machine: int, code: int, cpu: float | str, mem: float | str) -> str:
    return f"{t},{machine},{code},platform,{cpu},{mem}\n"


#: Job 1: two tasks, submitted at 600 s, scheduled at 601 s, finished at 700 s and 720 s.
#: Job 2: one task, killed. Job 3: arrives at 0 (before the trace), finishes at 650 s.
JOBS = [
    job_line(0, 3, 0), job_line(0, 3, 1),
    job_line(600 * S, 1, 0), job_line(601 * S, 1, 1),
    job_line(602 * S, 2, 0), job_line(603 * S, 2, 1),
    job_line(650 * S, 3, 4),
    job_line(710 * S, 2, 5),
    job_line(720 * S, 1, 4),
]  # fmt: skip
TASKS = [
    task_line(0, 3, 0, 0, 0.5, 0.25), task_line(0, 3, 0, 1, 0.5, 0.25),
    task_line(600 * S, 1, 0, 0, 0.125, 0.0625), task_line(600 * S, 1, 1, 0, 0.25, 0.03125),
    task_line(601 * S, 1, 0, 1, 0.125, 0.0625), task_line(601 * S, 1, 1, 1, 0.25, 0.03125),
    task_line(602 * S, 2, 0, 0, 0.125, 0.125), task_line(603 * S, 2, 0, 1, 0.125, 0.125),
    task_line(650 * S, 3, 0, 4, 0.5, 0.25),
    task_line(700 * S, 1, 0, 4), task_line(710 * S, 2, 0, 5), task_line(720 * S, 1, 1, 4),
    task_line(NEVER, 2, 0, 4),
]  # fmt: skip
MACHINES = [
    machine_line(0, 10, 0, 0.5, 0.5), machine_line(0, 11, 0, 0.5, 0.5), machine_line(0, 12, 0, 1, 1),
    machine_line(0, 13, 0, "", ""), machine_line(5 * S, 11, 1, 0.5, 0.5),
    machine_line(6 * S, 11, 0, 0.5, 0.5),
]  # fmt: skip


def write_trace(
    root: Path, jobs: list[str] = JOBS, tasks: list[str] = TASKS, machines: list[str] = MACHINES
) -> Path:
    """The trace as distributed: a folder per table, each of gzipped parts in time order."""
    for table, lines in (("job_events", jobs), ("task_events", tasks), ("machine_events", machines)):
        (root / table).mkdir(parents=True)
        half = len(lines) // 2
        for k, part in enumerate((lines[:half], lines[half:])):
            with gzip.open(root / table / f"part-{k:05d}-of-00002.csv.gz", "wt") as f:
                f.write("".join(part))
    return root


def errors(fn: Any, *args: Any, **kwargs: Any) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        fn(*args, **kwargs)
    return [str(e) for e in info.value.errors]


def test_the_rule_on_a_small_trace(tmp_path: Path) -> None:
    root = write_trace(tmp_path / "clusterdata-2011-2")
    imported = G2011.read_sources(sources_from_paths([str(root)]))
    assert imported.jobs == [
        # arrives before the trace (time 0): at 0; one task of the largest machine's half
        {"id": "3", "arrival_s": 0, "executors": 1, "executor": {"cpu": 16, "mem": 16}, "duration_s": 650},
        # two tasks: the largest CPU and the largest memory request; first SCHEDULE to last FINISH
        {"id": "1", "arrival_s": 600, "executors": 2, "executor": {"cpu": 8, "mem": 4}, "duration_s": 119},
    ]
    assert imported.origins[1].endswith("job_events/part-00000-of-00002.csv.gz line 3")
    # machines: one VM type per capacity, the capacity-less one left out, a machine added twice once
    assert imported.document["vm_types"] == [
        {"name": "g2011-16c-32g", "capacity": {"cpu": 16, "mem": 32}, "price_per_hour": 0.96, "count": 2},
        {"name": "g2011-32c-64g", "capacity": {"cpu": 32, "mem": 64}, "price_per_hour": 1.92, "count": 1},
    ]
    warnings = [str(w) for w in imported.warnings]
    assert "machine_events: 1 machines added without a CPU or memory capacity are left out" in warnings
    assert "import: 1 job dropped: ended KILLED, LOST or FAILED (keep_killed=true keeps them)" in warnings
    parse_scenario({"version": 1, **imported.document})

    kept = G2011.read_sources(sources_from_paths([str(root)]), {"keep_killed": True, "machine_cpu": 64})
    assert [(j["id"], j["duration_s"], j["executor"]["cpu"]) for j in kept.jobs] == [
        ("3", 650, 32),
        ("1", 119, 16),
        ("2", 107, 8),
    ]


def test_the_files_themselves_and_task_events_alone(tmp_path: Path) -> None:
    root = write_trace(tmp_path)
    parts = sorted(str(p) for p in (root / "task_events").iterdir())
    alone = G2011.read_sources(sources_from_paths(parts))
    # without job_events: arrival at the first task SUBMIT, complete when the files end
    assert [(j["id"], j["arrival_s"], j["duration_s"]) for j in alone.jobs] == [
        ("3", 0, 650),
        ("1", 600, 119),
    ]
    assert "vm_types" not in alone.document
    assert any(w.path == "job_events" for w in alone.warnings)
    # pasted text: the table is recognised by its columns
    assert G2011.read_text("".join(TASKS)).jobs == alone.jobs


def test_window_sample_cap_and_deadlines(tmp_path: Path) -> None:
    sources = sources_from_paths([str(write_trace(tmp_path))])
    window = G2011.read_sources(sources, {"start_s": 500, "window_s": 200, "deadline": "factor"})
    assert [(j["id"], j["arrival_s"], j["deadline_s"]) for j in window.jobs] == [("1", 100, 238)]
    assert G2011.read_sources(sources, {"max_jobs": 1}).jobs[0]["id"] == "3"
    sampled = {
        j["id"] for j in G2011.read_sources(sources, {"sample": 0.5, "seed": 3, "keep_killed": True}).jobs
    }
    again = {
        j["id"] for j in G2011.read_sources(sources, {"sample": 0.5, "seed": 3, "keep_killed": True}).jobs
    }
    assert sampled == again


def test_vm_types_replace_the_machines_and_jobs_that_do_not_fit_are_dropped(tmp_path: Path) -> None:
    small = [{"name": "small", "capacity": {"cpu": 8, "mem": 8}, "price_per_hour": 0.1, "count": 1}]
    imported = G2011.read_sources(sources_from_paths([str(write_trace(tmp_path))]), vm_types=small)
    assert imported.document["vm_types"] == small
    assert [j["id"] for j in imported.jobs] == []  # job 3 is too large, job 1 needs two executors of 8 cpu
    assert {w.message for w in imported.warnings} >= {
        "1 job dropped: its executor fits no VM type of the cluster",
        "1 job dropped: needs more executors at once than the cluster holds",
    }


@pytest.mark.parametrize(
    ("table", "line", "message"),
    [
        ("task_events", "600000000,,1,0,,0,u,2,0,0.1\n",
         "has 10 columns; task_events has 13: time, missing info, job ID, task index, machine ID, "
         "event type, "
         "user, scheduling class, priority, CPU request, memory request, disk space request, "
         "different-machine restriction"),
        ("task_events", "600000000,,1,0,,0,u,2,0,lots,0.1,0,0\n",
         "CPU request: must be a number (or empty), got 'lots'"),
        ("task_events", "600000000,,1,0,,12,u,2,0,0.1,0.1,0,0\n",
         "event type: must be an event code from 0 to 8, got '12'"),
        ("task_events", "600000000,,1,0,,-1,u,2,0,0.1,0.1,0,0\n",
         "event type: must be an event code from 0 to 8, got '-1'"),
        ("job_events", "6e8,,1,0,u,2,n,l\n", "time: must be a whole number, got '6e8'"),
        ("machine_events", "0,10,0,p,half,0.5\n", "CPUs: must be a number (or empty), got 'half'"),
    ],
)  # fmt: skip
def test_a_malformed_line_names_the_file_the_line_and_the_column(
    tmp_path: Path, table: str, line: str, message: str
) -> None:
    lines = {"jobs": JOBS[:4], "tasks": TASKS[:4], "machines": MACHINES[:2]}
    key = {"job_events": "jobs", "task_events": "tasks", "machine_events": "machines"}[table]
    lines[key] = [*lines[key], line]
    root = write_trace(tmp_path, **lines)
    [error] = errors(G2011.read_sources, sources_from_paths([str(root)]))
    assert error.startswith(
        f"{root / table / 'part-00001-of-00002.csv.gz'} line {len(lines[key]) - len(lines[key]) // 2}"
    )
    assert error.endswith(message)


def test_a_line_out_of_time_order_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "task_events.csv"
    path.write_text(TASKS[2] + TASKS[0])
    assert errors(G2011.read_sources, [Source.from_path(path)]) == [
        f"{path} line 2: time 0 is earlier than the line before (600000000): "
        "task_events must be in time order "
        "(its part files in name order, as Google distributes them)"
    ]


def test_the_command_line_reads_the_folders_and_exits_2_on_a_bad_line(tmp_path: Path) -> None:
    root = write_trace(tmp_path / "trace")
    out_path = tmp_path / "S.json"
    run = [sys.executable, "-m", "scheduling", "import", "--format", "google-2011"]
    folders = [str(root / t) for t in ("job_events", "task_events", "machine_events")]
    out = subprocess.run([*run, *folders, "-o", str(out_path)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert [j["id"] for j in json.loads(out_path.read_text())["jobs"]] == ["3", "1"]
    assert "warning: import: 1 job dropped: ended KILLED" in out.stderr
    bad = tmp_path / "task_events.csv"
    bad.write_text(TASKS[0] + "0,,3,0,,x,u,2,0,0.5,0.25,0,0\n")
    out = subprocess.run([*run, str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert (out.returncode, out.stderr) == (
        2,
        f"error: {bad} line 2, event type: must be an event code from 0 to 8, got 'x'\n",
    )


def test_preview_stops_after_the_first_jobs(tmp_path: Path) -> None:
    sources = sources_from_paths([str(write_trace(tmp_path))])
    assert [j["id"] for j in G2011.preview(sources, limit=1).jobs] == ["3"]


@st.composite
def traces(draw: st.DrawFn) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """Jobs with a SUBMIT, tasks scheduled and finished later, and the jobs' expected fields."""
    events: list[tuple[int, int, str]] = []  # (time, rank: tasks first, line)
    expected = []
    for job in range(draw(st.integers(1, 8))):
        submit = draw(st.integers(0, 3000)) * S
        tasks = draw(
            st.lists(
                st.tuples(
                    st.integers(0, 10),
                    st.sampled_from([0.0625, 0.125, 0.25]),
                    st.sampled_from([0.03125, 0.0625]),
                ),
                min_size=1,
                max_size=5,
            )
        )
        start = submit + draw(st.integers(0, 50)) * S
        end = start + draw(st.integers(1, 500)) * S
        events.append((submit, 1, job_line(submit, job, 0)))
        for index, cpu, mem in tasks:
            events.append((submit, 0, task_line(submit, job, index, 0, cpu, mem)))
            events.append((start, 0, task_line(start, job, index, 1, cpu, mem)))
        events.append((end, 0, task_line(end, job, tasks[0][0], 4)))
        events.append((end, 1, job_line(end, job, 4)))
        expected.append({
            "id": str(job), "arrival_s": submit // S, "executors": len({t[0] for t in tasks}),
            "cpu": max(t[1] for t in tasks) * 32, "mem": max(t[2] for t in tasks) * 64,
            "duration_s": (end - start) // S,
        })  # fmt: skip
    events.sort(key=lambda e: (e[0], e[1]))
    return [e[2] for e in events if e[1] == 1], [e[2] for e in events if e[1] == 0], expected


@given(traces(), st.integers(0, 2000), st.integers(1, 8))
def test_job_count_arrivals_and_sizes_follow_the_rule(
    trace: tuple[list[str], list[str], list[dict[str, Any]]], start: int, cap: int
) -> None:
    jobs, tasks, expected = trace
    sources = [Source.from_text("job_events", "".join(jobs)), Source.from_text("task_events", "".join(tasks))]
    imported = G2011.read_sources(sources, {"start_s": start, "max_jobs": cap})
    admitted = sorted(
        (e for e in expected if e["arrival_s"] >= start), key=lambda e: (e["arrival_s"], int(e["id"]))
    )
    kept = sorted(admitted[:cap], key=lambda e: (e["arrival_s"], e["id"]))
    assert [j["id"] for j in imported.jobs] == [e["id"] for e in kept]
    for job, e in zip(imported.jobs, kept, strict=True):
        assert job["arrival_s"] == e["arrival_s"] - start
        assert job["executors"] == e["executors"]
        assert job["executor"] == {"cpu": e["cpu"], "mem": e["mem"]}
        assert job["duration_s"] == e["duration_s"]
