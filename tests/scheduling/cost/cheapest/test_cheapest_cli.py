"""``python -m scheduling cheapest`` end to end, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scheduling", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def small_workload(tmp_path: Path, jobs: int = 15) -> Path:
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:jobs]
    path = tmp_path / "light-head.json"
    path.write_text(json.dumps(doc))
    return path


def test_the_answer_document_and_the_summary(tmp_path):
    answer = tmp_path / "answer.json"
    page = tmp_path / "answer.html"
    out = run(
        "cheapest",
        str(small_workload(tmp_path)),
        "--scheduler",
        "edf-bfd",
        "--counts",
        "m1.large=0-4",
        "--counts",
        "m1.xlarge=0-2",
        "--counts",
        "m2.xlarge=1-3",
        "--max-miss-pct",
        "0",
        "--seed",
        "3",
        "--workers",
        "2",
        "-o",
        str(answer),
        "--html",
        str(page),
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(answer.read_text())
    assert doc["candidates"] == 5 * 3 * 3 and doc["seed"] == 3 and doc["scheduler"] == "edf-bfd"
    assert set(doc["pruned"]) == {"bound", "demand_window", "no_fit"}
    assert doc["simulated"] + sum(doc["pruned"].values()) == doc["candidates"]
    assert set(doc["answer"]["counts"]) == {"m1.large", "m1.xlarge", "m2.xlarge"}
    assert doc["answer"]["missed"] == 0 and doc["answer"]["cost"] > 0
    assert "cheapest within the space" in out.stderr and "Lower bound over every cluster shape" in out.stderr
    assert "Frontier of cost against deadlines missed" in out.stderr
    assert "Plotly" in page.read_text() or "plotly" in page.read_text()


def test_bad_input_exits_2_naming_the_flag(tmp_path):
    src = str(small_workload(tmp_path, 3))
    out = run("cheapest", src, "--counts", "m9=0-2", "--counts", "m1.large=5-1", "--max-miss-pct", "101")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "--counts: m1.large=5-1: the lowest count must not exceed the highest" in out.stderr
    out = run("cheapest", src, "--counts", "m9=0-2", "--max-miss-pct", "101", "--scheduler", "edf-nope")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "--max-miss-pct: must be a number from 0 to 100" in out.stderr
    out = run("cheapest", src, "--counts", "m9=0-2", "--scheduler", "edf-nope")
    assert "--counts m9: is not a VM type of the scenario" in out.stderr
    assert "--scheduler: unknown placement 'nope'" in out.stderr


def test_reserved_vms_at_the_scenarios_reserved_price(tmp_path):
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:10]
    doc["version"] = 4
    doc["vm_types"][2]["reserved"] = {"price_per_hour": 0.45, "count": 1}
    path = tmp_path / "reserved.json"
    path.write_text(json.dumps(doc))
    answer = tmp_path / "answer.json"
    out = run(
        "cheapest",
        str(path),
        "--counts",
        "m1.large=0-2",
        "--counts",
        "m2.xlarge=1-2",
        "--reserved",
        "m2.xlarge=2",
        "--max-miss-pct",
        "50",
        "-q",
        "-o",
        str(answer),
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(answer.read_text())
    assert got["reserved"] == {"m2.xlarge": 2} and got["answer"] is not None
    out = run(
        "cheapest", str(path), "--counts", "m1.large=0-2", "--reserved", "m1.large=1", "--reserved", "x"
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "--reserved: x: must be VMTYPE=N" in out.stderr
    out = run("cheapest", str(path), "--counts", "m1.large=0-2", "--reserved", "m1.large=1")
    assert "--reserved m1.large: the VM type has no reserved price" in out.stderr
