"""``python -m scheduling generate`` with network-bound jobs (notes §8)."""

from __future__ import annotations

import json

from tests.scheduling.test_cli import run


def test_generate_marks_a_share_of_the_jobs_network_bound() -> None:
    out = run("generate", "--jobs", "40", "--seed", "4", "--network-fraction", "0.5",
              "--network-sensitivity", "0.4")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    marked = [j for j in doc["jobs"] if "network_sensitivity" in j]
    assert doc["version"] == 3 and 0 < len(marked) < 40
    assert {j["network_sensitivity"] for j in marked} == {0.4}
    plain = json.loads(run("generate", "--jobs", "40", "--seed", "4").stdout)
    assert plain["version"] == 1
    assert [{k: v for k, v in j.items() if k != "network_sensitivity"} for j in doc["jobs"]] == plain["jobs"]


def test_a_bad_share_is_named() -> None:
    out = run("generate", "--jobs", "5", "--network-fraction", "2")
    assert out.returncode == 2 and "network_fraction: must be between 0 and 1" in out.stderr
