"""The cost comparison's command line (simulate) end to end, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scheduling.cost.document import iter_jobs, job_count

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scheduling", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_simulate_prints_results_for_each_scheduler(tmp_path):
    out = run(
        "simulate",
        "examples/paper003-light.json",
        "--scheduler",
        "fifo-spread",
        "--scheduler",
        "edf-bfd",
        "--scheduler",
        "edf-ilp",
        "--seed",
        "4",
        "--brief",
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert list(doc["results"]) == ["fifo-spread", "edf-bfd", "edf-ilp"]
    for r in doc["results"].values():
        for key in (
            "total_cost",
            "makespan_s",
            "deadline_jobs",
            "deadline_missed",
            "mean_completion_s",
            "lower_bound_cost",
        ):
            assert isinstance(r[key], (int, float))
        assert r["seed"] == 4
        assert job_count(r) == 1000
        assert {"id", "start_s", "finish_s", "placement"} <= set(next(iter_jobs(r)))
        assert r["lower_bound_cost"] <= r["total_cost"]
    costs = {k: v["total_cost"] for k, v in doc["results"].items()}
    assert costs["edf-bfd"] < costs["fifo-spread"]
    assert "scheduler" in out.stderr and "edf-bfd" in out.stderr  # the summary table


def test_invalid_input_exits_2_with_messages_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "vm_types": [{"name": "a", "capacity": {"cpu": 4, "mem": 4}, "price_per_hour": 1}],
                "jobs": [
                    {
                        "id": "j",
                        "arrival_s": 0,
                        "executors": 1,
                        "executor": {"cpu": -2, "mem": 1},
                        "duration_s": 5,
                    }
                ],
            }
        )
    )
    out = run("simulate", str(bad))
    assert out.returncode == 2
    assert "jobs[0].executor.cpu: must be >= 0" in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    for args in (
        ("simulate", str(tmp_path / "missing.json")),
        ("simulate", "examples/paper003-light.json", "--scheduler", "lifo-bfd"),
    ):
        out = run(*args)
        assert out.returncode == 2 and "error:" in out.stderr and "Traceback" not in out.stderr


def test_scenario_from_stdin_and_options():
    text = (ROOT / "examples" / "paper003-light.json").read_text()
    out = run(
        "simulate",
        "-",
        "--scheduler",
        "edf-bfd",
        "--option",
        "min_billed_s=3600",
        "--brief",
        "-q",
        stdin=text,
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)["results"]["edf-bfd"]
    assert r["options"]["min_billed_s"] == 3600 and out.stderr == ""
    assert all(hours >= 1 for hours in r["vm_hours_by_type"].values() if hours > 0)  # each on-period >= 1 h


def test_html_report(tmp_path):
    pytest.importorskip("plotly")
    page = tmp_path / "r.html"
    out = run(
        "simulate",
        "examples/paper003-light.json",
        "--scheduler",
        "fifo-spread",
        "--scheduler",
        "edf-bfd",
        "--html",
        str(page),
        "-q",
        "--brief",
        "-o",
        str(tmp_path / "r.json"),
    )
    assert out.returncode == 0, out.stderr
    html = page.read_text()
    assert "fifo-spread" in html and "edf-bfd" in html
    assert 'src="http' not in html and "src='http" not in html  # standalone: plotly.js is inlined
    assert '"Utilisation (cpu)"' in html or "Utilisation (cpu)" in html
    # --brief trims the JSON only: the page still draws the timelines.
    assert "timeline" not in json.loads((tmp_path / "r.json").read_text())["results"]["edf-bfd"]
    from scheduling import compare, load_scenario_json
    from scheduling.cost.html import render_html_report

    full = compare(
        load_scenario_json((ROOT / "examples" / "paper003-light.json").read_text()),
        schedulers=["fifo-spread", "edf-bfd"],
    )
    expected = render_html_report({k: v.to_dict() for k, v in full.items()})
    assert html.count('"hv"') == expected.count('"hv"') > 0  # every step trace, timelines included


# ------------------------------------------------------------------- inputs: importers, names, warnings

def test_run_option_errors_name_the_option():
    out = run("simulate", "examples/paper003-light.json", "--option", "boot_time_s=soon,rut.gpu=1", "-q")
    assert out.returncode == 2
    assert "error: --option.boot_time_s: must be a number, got 'soon'" in out.stderr
    assert "error: --option.rut.gpu: unknown option" in out.stderr


def test_the_seed_flag_is_the_declared_seed():
    from scheduling.cost.params import COMPARISON_PARAMS
    from scheduling.params import describe, param_named

    seed = param_named(COMPARISON_PARAMS, "seed")
    help_text = run("simulate", "--help").stdout
    assert "--seed SEED" in help_text and " ".join(help_text.split()).count(describe(seed)) == 1
    out = run("simulate", "examples/paper003-light.json", "--seed", "-1", "-q")
    assert out.returncode == 2 and out.stderr == "error: seed: must be a whole number from 0 to " \
        "9,223,372,036,854,775,807\n"
    out = run("simulate", "examples/paper003-light.json", "--seed", "x", "-q")
    assert out.returncode == 2 and "argument --seed: invalid int value: 'x'" in out.stderr


def test_simulate_shows_the_cost_split_only_when_a_price_is_not_on_demand(tmp_path):
    doc = json.loads((ROOT / "examples" / "paper003-light.json").read_text())
    doc["jobs"] = doc["jobs"][:60]
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(doc))
    doc["version"] = 4
    doc["vm_types"][0]["reserved"] = {"price_per_hour": 0.15, "count": 2}
    doc["vm_types"][1]["spot"] = {"price_per_hour": 0.12, "count": 2, "interruptions_per_hour": 1}
    markets = tmp_path / "markets.json"
    markets.write_text(json.dumps(doc))
    rows = ("Reserved cost", "On-demand cost", "Spot cost", "Reserved idle cost", "Spot interruptions",
            "Work lost to spot interruptions")
    with_markets = run("simulate", str(markets), "--scheduler", "edf-bfd", "--seed", "2",
                       "-o", str(tmp_path / "m.json"))
    assert with_markets.returncode == 0, with_markets.stderr
    assert all(row in with_markets.stderr for row in rows)
    result = json.loads((tmp_path / "m.json").read_text())["results"]["edf-bfd"]
    assert set(result["cost_by_market"]) == {"reserved", "on_demand", "spot"}
    without = run("simulate", str(plain), "--scheduler", "edf-bfd", "-o", str(tmp_path / "p.json"))
    assert without.returncode == 0, without.stderr
    assert not any(row in without.stderr for row in rows)
