"""The command line end to end, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scheduling.cost.document import job_count

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scheduling", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_import_and_generate_round_trip(tmp_path):
    csv = tmp_path / "w.csv"
    csv.write_text("job-id,C,M,E,T_A,T_est,T_D\njob-0,4,6,7,39,153,396\n")
    out = run("import-rm", str(csv), "--scale", "2")
    assert out.returncode == 0, out.stderr
    assert sum(t["count"] for t in json.loads(out.stdout)["vm_types"]) == 28
    gen = tmp_path / "g.json"
    out = run(
        "generate", "--jobs", "30", "--seed", "9", "--framework", "a", "--framework", "b", "-o", str(gen)
    )
    assert out.returncode == 0, out.stderr
    again = run("generate", "--jobs", "30", "--seed", "9", "--framework", "a", "--framework", "b")
    assert json.loads(again.stdout) == json.loads(gen.read_text())
    assert run("validate", str(gen)).returncode == 0


JOBS_CSV = (
    "id,framework,arrival_s,executors,cpu,mem,duration_s,deadline_s\nj1,,0,2,2,4,300,900\nj2,,60,1,1,2,120,\n"
)


def test_the_jobs_csv_is_read_by_simulate_and_import(tmp_path):
    path = tmp_path / "jobs.csv"
    path.write_text(JOBS_CSV)
    out = run("simulate", str(path), "--scheduler", "edf-bfd", "--brief", "-q", "--preset", "paper-000")
    assert out.returncode == 0, out.stderr
    assert job_count(json.loads(out.stdout)["results"]["edf-bfd"]) == 2
    out = run("import", str(path), "--name", "two jobs")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["name"] == "two jobs" and [j["id"] for j in doc["jobs"]] == ["j1", "j2"]
    assert sum(t["count"] for t in doc["vm_types"]) == 14  # the paper-003 preset by default


def test_import_has_a_format_per_importer_and_options(tmp_path):
    rm = tmp_path / "w.txt"
    rm.write_text("job-id,C,M,E,T_A,T_est,T_D\njob-0,4,6,7,39,153,396\n")
    out = run("import", str(rm), "--format", "rm-simulator", "--option", "with_deadlines=false")
    assert out.returncode == 0, out.stderr
    assert "deadline_s" not in json.loads(out.stdout)["jobs"][0]
    out = run("import", str(rm))  # guessed from the header
    assert json.loads(out.stdout)["jobs"][0]["deadline_s"] == 357
    out = run("import", str(rm), "--option", "deadlines=no")
    assert (
        out.returncode == 2 and "--option.deadlines: unknown option (options: with_deadlines)" in out.stderr
    )
    doc = (ROOT / "examples" / "paper003-light.json").read_text()
    out = run("import", "-", stdin=doc)
    assert out.returncode == 0 and json.loads(out.stdout) == json.loads(doc)


def test_csv_errors_name_the_line_and_the_job(tmp_path):
    path = tmp_path / "jobs.csv"
    path.write_text(JOBS_CSV + "\nj4,,0,1,64,2,10,\n")
    out = run("validate", str(path))
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        "error: jobs: 1 of 3 jobs need an executor larger than any VM type: "
        "largest executor 64 cpu, largest VM 12 cpu",
        "error: line 5 (job j4), cpu, mem: does not fit on any VM type the job's framework may use",
    ]
    path.write_text(JOBS_CSV + "j3,,0,0,1,2,10,\n")
    out = run("validate", str(path))
    assert (out.returncode, out.stderr.splitlines()) == (
        2,
        ["error: line 4 (job j3), executors: must be >= 1"],
    )


def test_a_name_that_cannot_be_stored_exits_2(tmp_path):
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["vm_types"][1]["name"] = "\ud800"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))  # ensure_ascii: the file holds the escape \ud800, as a probe sends it
    out = run("validate", str(path))
    assert out.returncode == 2, out.stdout
    assert (
        "vm_types[1].name: contains a lone surrogate (\\ud800 at character 1), which is not a character: "
        "text must be valid Unicode" in out.stderr
    )


def test_warnings_go_to_stderr_and_do_not_fail(tmp_path):
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"][3]["deadline_s"] = 1
    path = tmp_path / "w.json"
    path.write_text(json.dumps(doc))
    out = run("validate", str(path))
    assert out.returncode == 0
    assert out.stdout.strip().endswith("1 warnings")
    assert out.stderr.startswith("warning: jobs[3].deadline_s: is shorter than the job's duration")


def test_generate_proposes_executors_the_preset_holds():
    out = run("generate", "--jobs", "200", "--cpu", "1", "40", "--preset", "paper-000", "--seed", "2")
    assert out.returncode == 0, out.stderr
    jobs = json.loads(out.stdout)["jobs"]
    assert max(j["executor"]["cpu"] for j in jobs) == 8  # paper-000's largest server


def test_a_reader_that_goes_away_stops_the_command_quietly(tmp_path: Path) -> None:
    """``python -m scheduling ... | head -1``: no BrokenPipeError traceback, exit 141."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "scheduling", "udrf-generate", "--users", "200", "--jobs", "2000",
         "--classes", "100"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # the reader goes away
    assert proc.wait(timeout=120) == 141
    assert proc.stderr.read() == b""


@pytest.mark.parametrize(("example", "said"), [
    ("paper004-fig1.json", "valid (version 3): 5 complex jobs, 19 machines of 4 types, 4 machine classes"),
    ("paper001-marathon-scylla.json", "valid (version 2): 2 task queues, 4 machines of 1 types"),
    ("paper003-light.json", "valid (version 1): 1000 jobs, 14 machines of 3 types"),
])
def test_validate_counts_the_work_each_version_has(example: str, said: str) -> None:
    out = run("validate", str(ROOT / "examples" / example))
    assert out.returncode == 0 and out.stdout.strip().endswith(said)
