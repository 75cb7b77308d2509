"""``python -m scheduling share`` end to end, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "paper001-marathon-scylla.json"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scheduling", "share", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_share_prints_the_sharing_document_and_a_table(tmp_path):
    out = run(str(EXAMPLE), "--seed", "4", "--html", str(tmp_path / "s.html"))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["study"] == "sharing" and doc["mode"] == "offers" and doc["seed"] == 4
    assert [f["name"] for f in doc["frameworks"]] == ["marathon", "scylla"]
    assert {f["name"]: f["policy"] for f in doc["frameworks"]} == {
        "marathon": "greedy",
        "scylla": "first-fit",
    }
    for key in ("t", "running", "share", "fair_share", "utilisation"):
        assert key in doc["timeline"]
    assert set(doc["fairness"]["frameworks"]) == {"marathon", "scylla"}
    assert all(c["finished"] == c["tasks"] == 100 for c in doc["completion"].values())
    assert doc["makespan_s"] > 0
    assert "Worst unfairness" in out.stderr
    assert "scylla" in (tmp_path / "s.html").read_text()
    again = run(str(EXAMPLE), "--seed", "4", "-q")
    assert json.loads(again.stdout) == doc and again.stderr == ""


def test_set_overrides_a_framework_and_changes_the_outcome():
    base = json.loads(run(str(EXAMPLE), "-q").stdout)
    changed = json.loads(
        run(str(EXAMPLE), "-q", "--set", "*.offer_policy=bin-packing", "--set", "scylla.refuse_s=5").stdout
    )
    assert {f["name"]: (f["policy"], f["refuse_s"]) for f in changed["frameworks"]} == {
        "marathon": ("bin-packing", 5),
        "scylla": ("bin-packing", 5),
    }
    assert changed["timeline"] != base["timeline"]


def test_characterized_mode_takes_a_criterion_and_servers():
    out = run(str(EXAMPLE), "-q", "--mode", "characterized", "--criterion", "rpsdsf", "--servers", "joint")
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and doc["mode"] == "characterized" and doc["criterion"] == "rpsdsf"
    assert doc["servers"] == "joint"


def test_bad_options_exit_2_naming_the_option():
    out = run(str(EXAMPLE), "--set", "scylla.refuse_s=x", "--set", "nobody.hold_s=1", "--interval", "0")
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert "--set[1]: unknown framework 'nobody'" in out.stderr
    out = run(str(EXAMPLE), "--set", "scylla.refuse_s=x", "--interval", "0")
    assert "--set scylla.refuse_s: must be a number of seconds >= 0" in out.stderr
    assert "--interval: must be a number of seconds > 0" in out.stderr
    out = run(str(EXAMPLE), "--set", "refuse_s")
    assert out.returncode == 2 and "write FRAMEWORK.KEY=VALUE" in out.stderr
