"""Charts and the HTML report, from hand-made result documents (docs/results.md).

The fixture ``tiny_result`` is small enough to check by hand:

* VM types: ``small`` (4 cpu, 16 mem, 0.36/h, 2 of them) and ``big`` (8 cpu, 32 mem,
  0.72/h, 1): cluster capacity 16 cpu, 64 mem.
* j1 (analytics) runs 0-600 s on small#1 (2 executors of 2 cpu / 4 mem), deadline 900: met.
* j2 (etl) runs 100-400 s on big#1 (2 x 4 cpu / 8 mem), deadline 350 s: missed.
* j3 (analytics) arrives at 200 s, runs 400-700 s on big#1 (1 x 4 cpu / 8 mem).
* small#1 is on 0-600 s (0.06), big#1 100-700 s (0.12): total 0.18.
* Fairness: etl has work 100-400 s, so contention is 100-400 s, when analytics holds a
  0.25 dominant share against a 0.5 fair share: unfairness area 0.25 x 300 = 75.
"""

from __future__ import annotations

import copy
import json
import math
import random
import re
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduling.charts import (
    active_vms_figure,
    all_figures,
    completion_figure,
    cost_breakdown_figure,
    cumulative_cost_figure,
    deadline_figure,
    downsample_linear,
    downsample_step,
    fairness_figure,
    gantt_figure,
    scheduler_colours,
    summary_rows,
    utilisation_figure,
)
from scheduling.html_report import render_html_report, write_html_report

EVIL = "<script>alert(1)</script>"
T = [0.0, 100.0, 200.0, 400.0, 600.0, 700.0]


def _job(jid: str, fw: str, arrival: float, start: float, finish: float, executors: int,
         cpu: float, mem: float, placement: dict[str, int], deadline: float | None, cost: float) -> dict[str, Any]:
    return {
        "id": jid, "framework": fw, "arrival_s": arrival, "start_s": start, "finish_s": finish,
        "wait_s": start - arrival, "completion_s": finish - arrival, "executors": executors,
        "executor": {"cpu": cpu, "mem": mem},
        "deadline_s": None if deadline is None else arrival + deadline,
        "met_deadline": None if deadline is None else finish <= arrival + deadline,
        "placement": placement, "cost": cost,
    }


def tiny_result(scheduler: str = "edf-bfd") -> dict[str, Any]:
    """The result document described in the module docstring."""
    ordering, _, placement = scheduler.partition("-")
    return {
        "scheduler": scheduler, "ordering": ordering, "placement": placement, "options": {}, "seed": 0,
        "resources": ["cpu", "mem"],
        "vm_types": [
            {"name": "small", "price_per_hour": 0.36, "count": 2, "capacity": {"cpu": 4, "mem": 16}},
            {"name": "big", "price_per_hour": 0.72, "count": 1, "capacity": {"cpu": 8, "mem": 32}},
        ],
        "total_cost": 0.18, "lower_bound_cost": 0.15, "gap_to_lower_bound": 0.2, "makespan_s": 700.0,
        "jobs_total": 3, "deadline_jobs": 2, "deadline_met": 1, "deadline_missed": 1,
        "deadline_miss_pct": 50.0, "deadline_violation_eq12_pct": 100.0,
        "mean_completion_s": 1600.0 / 3, "median_completion_s": 500.0, "p95_completion_s": 600.0,
        "mean_wait_s": 200.0 / 3,
        "vm_hours_by_type": {"small": 600 / 3600, "big": 600 / 3600},
        "cost_by_vm_type": {"small": 0.06, "big": 0.12},
        "cost_by_framework": {"analytics": 0.1, "etl": 0.06, "(unused capacity)": 0.02},
        "cost_by_hour": [0.18],
        "jobs": [
            _job("j1", "analytics", 0.0, 0.0, 600.0, 2, 2, 4, {"small#1": 2}, 900.0, 0.05),
            _job("j2", "etl", 100.0, 100.0, 400.0, 2, 4, 8, {"big#1": 2}, 250.0, 0.06),
            _job("j3", "analytics", 200.0, 400.0, 700.0, 1, 4, 8, {"big#1": 1}, None, 0.05),
        ],
        "vm_intervals": [
            {"vm": "small#1", "vm_type": "small", "on_s": 0.0, "off_s": 600.0, "billed_s": 600.0, "cost": 0.06},
            {"vm": "big#1", "vm_type": "big", "on_s": 100.0, "off_s": 700.0, "billed_s": 600.0, "cost": 0.12},
        ],
        "timeline": {
            "t": list(T),
            "utilisation": {"cpu": [0.25, 0.75, 0.75, 0.5, 0.25, 0.0],
                            "mem": [0.125, 0.375, 0.375, 0.25, 0.125, 0.0]},
            "utilisation_of_on": {"cpu": [1.0, 1.0, 1.0, 0.5, 0.5, 0.0],
                                  "mem": [0.5, 0.5, 0.5, 0.25, 0.25, 0.0]},
            "active_vms": {"small": [1, 1, 1, 1, 0, 0], "big": [0, 1, 1, 1, 1, 0]},
            "cost_rate_per_hour": [0.36, 1.08, 1.08, 1.08, 0.72, 0.0],
            "cumulative_cost": [0.0, 0.01, 0.04, 0.1, 0.16, 0.18],
            "queued_jobs": [0, 0, 1, 0, 0, 0], "running_jobs": [1, 2, 2, 2, 1, 0],
        },
        "fairness": {
            "t": list(T),
            "share": {"analytics": [0.25, 0.25, 0.25, 0.5, 0.25, 0.0], "etl": [0.0, 0.5, 0.5, 0.0, 0.0, 0.0]},
            "fair_share": {"analytics": [1.0, 0.5, 0.5, 1.0, 1.0, 0.0], "etl": [0.0, 0.5, 0.5, 0.0, 0.0, 0.0]},
            "contention_s": 300.0,
            "frameworks": {
                "analytics": {"weight": 1.0, "unfairness_area": 75.0, "received_pct": 50.0, "unfairness_pct": 50.0},
                "etl": {"weight": 1.0, "unfairness_area": 0.0, "received_pct": 100.0, "unfairness_pct": 0.0},
            },
        },
        "ilp": None,
        "scheduling_delay": {"decisions": 3, "mean_ms": 0.1, "median_ms": 0.1, "p99_ms": 0.2,
                             "max_ms": 0.2, "samples_ms": [0.1, 0.1, 0.2]},
    }


@pytest.fixture
def results() -> dict[str, dict[str, Any]]:
    """Two schedulers: edf-bfd (the tiny result) and a costlier fifo-spread with an ILP section."""
    other = tiny_result("fifo-spread")
    other["total_cost"] = 0.24
    other["gap_to_lower_bound"] = 0.6
    other["cost_by_vm_type"] = {"small": 0.12, "big": 0.12}
    other["timeline"]["cumulative_cost"] = [0.0, 0.02, 0.06, 0.14, 0.21, 0.24]
    other["ilp"] = {"decisions": 3, "fallbacks": 1, "fallback_jobs": ["j2"], "method": "knapsack"}
    other["fairness"] = None
    return {"edf-bfd": tiny_result(), "fifo-spread": other}


def _nums(values: list[float | None]) -> list[float]:
    """The values, none of them a gap."""
    assert None not in values
    return [v for v in values if v is not None]


def _valid(fig: dict[str, Any]) -> None:
    """Plain JSON (no NaN, no numpy) that Plotly accepts as a figure."""
    text = json.dumps(fig, allow_nan=False)
    assert json.loads(text) == fig
    go.Figure(fig)  # raises on an unknown or invalid property


# --------------------------------------------------------------------------- downsampling


def test_downsample_short_input_is_returned_whole() -> None:
    t, ys = downsample_step([0, 1, 2], {"a": [1, 2, 3], "b": [0, None, 1]}, max_points=10)
    assert t == [0.0, 1.0, 2.0]
    assert ys == {"a": [1.0, 2.0, 3.0], "b": [0.0, None, 1.0]}


def test_downsample_step_keeps_ends_and_extremes_and_reduces_size() -> None:
    rng = np.random.default_rng(1)
    n = 50_000
    t = np.cumsum(rng.exponential(1.0, n))
    a = rng.integers(0, 100, n).astype(float)
    a[12_345], a[40_000] = 1000.0, -50.0  # one spike and one dip
    b = np.sin(np.arange(n) / 500.0)
    kt, ys = downsample_step(t.tolist(), {"a": a.tolist(), "b": b.tolist()}, max_points=2000)
    assert 100 < len(kt) <= 2000
    assert kt[0] == t[0] and kt[-1] == t[-1]
    assert ys["a"][0] == a[0] and ys["a"][-1] == a[-1]
    assert max(_nums(ys["a"])) == 1000.0 and min(_nums(ys["a"])) == -50.0
    assert max(_nums(ys["b"])) == b.max() and min(_nums(ys["b"])) == b.min()
    # Step semantics: the spike is drawn from its start to exactly where it ends.
    i = kt.index(t[12_345])
    assert ys["a"][i] == 1000.0 and kt[i + 1] == t[12_346]
    # Kept points are original points.
    index = {x: k for k, x in enumerate(t.tolist())}
    assert all(ys["a"][j] == a[index[x]] for j, x in enumerate(kt))
    assert kt == sorted(kt)


def test_downsample_linear_keeps_ends_and_extremes() -> None:
    t = list(range(10_000))
    y = [math.sin(x / 300.0) + (5.0 if x == 7777 else 0.0) for x in t]
    kt, ys = downsample_linear(t, {"y": y}, max_points=500)
    assert len(kt) <= 500 and kt[0] == 0 and kt[-1] == 9999
    assert max(_nums(ys["y"])) == max(y) and min(_nums(ys["y"])) == min(y)
    assert 7777.0 in kt


def test_downsample_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="points"):
        downsample_step([0, 1, 2], {"a": [1, 2]})
    with pytest.raises(ValueError, match="max_points"):
        downsample_step([0, 1, 2], {"a": [1, 2, 3]}, max_points=1)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(-1000, 1000), min_size=1, max_size=400),
    max_points=st.integers(10, 60),
)
def test_downsample_step_properties(values: list[int], max_points: int) -> None:
    t = list(range(len(values)))
    kt, ys = downsample_step(t, {"v": values}, max_points=max_points)
    assert len(kt) <= max(max_points, 6)
    assert kt[0] == 0 and kt[-1] == len(values) - 1
    assert min(_nums(ys["v"])) == min(values) and max(_nums(ys["v"])) == max(values)
    assert all(ys["v"][j] == values[int(x)] for j, x in enumerate(kt))


# --------------------------------------------------------------------------- figures


def test_utilisation_one_row_per_resource_one_hv_trace_per_scheduler(results: dict[str, Any]) -> None:
    fig = utilisation_figure(results)
    _valid(fig)
    assert len(fig["data"]) == 4  # 2 resources x 2 schedulers
    assert [tr["name"] for tr in fig["data"]] == ["edf-bfd", "fifo-spread"] * 2
    assert all(tr["line"]["shape"] == "hv" for tr in fig["data"])
    assert {tr["yaxis"] for tr in fig["data"]} == {"y", "y2"}
    assert fig["layout"]["yaxis"]["title"]["text"] == "Utilisation (cpu)"
    assert fig["data"][0]["y"] == [0.25, 0.75, 0.75, 0.5, 0.25, 0.0]
    assert fig["data"][0]["x"] == pytest.approx([t / 60 for t in T], abs=1e-5)  # 700 s: axis in minutes
    assert fig["layout"]["xaxis2"]["title"]["text"] == "Time (min)"
    single = utilisation_figure(results, "mem", of_on=True)
    assert [tr["y"][0] for tr in single["data"]] == [0.5, 0.5]


def test_colours_are_consistent_per_scheduler(results: dict[str, Any]) -> None:
    colours = scheduler_colours(results)
    assert len(set(colours.values())) == 2
    for fig in (utilisation_figure(results), cumulative_cost_figure(results), completion_figure(results)):
        for tr in fig["data"]:
            name = tr["name"].split(" ")[0]
            if name in colours:
                assert tr["line"]["color"] == colours[name]


def test_active_vms_stacked_per_type_and_total_per_scheduler(results: dict[str, Any]) -> None:
    fig = active_vms_figure(results)
    _valid(fig)
    assert [tr["name"] for tr in fig["data"]] == ["small", "big", "small", "big"]
    assert all(tr["line"]["shape"] == "hv" and tr["stackgroup"] for tr in fig["data"])
    assert fig["data"][1]["y"] == [0, 1, 1, 1, 1, 0]
    total = active_vms_figure({"edf-bfd": results["edf-bfd"]}, mode="total")
    assert len(total["data"]) == 1 and total["data"][0]["y"] == [1, 2, 2, 2, 1, 0]


def test_cumulative_cost_lines_and_dashed_lower_bound(results: dict[str, Any]) -> None:
    fig = cumulative_cost_figure(results)
    _valid(fig)
    lines = [tr for tr in fig["data"] if "dash" not in tr["line"]]
    bounds = [tr for tr in fig["data"] if tr["line"].get("dash") == "dash"]
    assert len(lines) == 2 and len(bounds) == 1  # both share the bound 0.15
    assert lines[0]["y"][-1] == 0.18 and lines[1]["y"][-1] == 0.24
    assert "line" in lines[0] and lines[0]["line"].get("shape", "linear") == "linear"
    assert bounds[0]["y"] == [0.15, 0.15] and bounds[0]["x"] == pytest.approx([0.0, 700.0 / 60])
    assert fig["layout"]["yaxis"]["title"]["text"] == "Cumulative cost ($)"
    assert fig["layout"]["annotations"][0]["text"].startswith("Lower bound")


def test_fairness_shading_only_below_fair_share_during_contention(results: dict[str, Any]) -> None:
    fig = fairness_figure(results["edf-bfd"])
    _valid(fig)
    assert len(fig["data"]) == 6  # share, shading, fair share per framework
    names = [tr["name"] for tr in fig["data"]]
    assert names[0] == "analytics: share" and names[2] == "analytics: fair share"
    shade, share = fig["data"][1], fig["data"][0]
    assert shade["fill"] == "tonexty" and "75 share·s" in shade["name"]
    assert all(tr["line"]["shape"] == "hv" for tr in fig["data"])
    assert fig["data"][2]["line"]["dash"] == "dash"
    # Shaded where the upper edge differs from the share: 100-400 s only, up to 0.5.
    shaded = [(round(x * 60), lo, hi) for x, lo, hi in zip(shade["x"], share["y"], shade["y"], strict=True) if hi != lo]
    assert shaded == [(100, 0.25, 0.5), (200, 0.25, 0.5)]
    etl_shade = fig["data"][4]
    assert etl_shade["y"] == fig["data"][3]["y"]  # etl gets its fair share: nothing shaded
    with pytest.raises(ValueError, match="fairness"):
        fairness_figure(results["fifo-spread"])


def test_gantt_bars_per_job_and_vm_coloured_by_framework(results: dict[str, Any]) -> None:
    fig = gantt_figure(results["edf-bfd"])
    _valid(fig)
    bars = {tr["name"]: tr for tr in fig["data"] if tr["name"] != "VM on"}
    assert set(bars) == {"analytics", "etl"}
    assert bars["analytics"]["y"] == ["small#1", "big#1"]
    assert bars["analytics"]["base"] == pytest.approx([0.0, 400.0 / 60], abs=1e-5)  # minutes
    assert bars["analytics"]["x"] == pytest.approx([10.0, 5.0])
    assert bars["analytics"]["customdata"][1] == ["j3", 1, "0:06:40", "0:11:40"]
    assert bars["analytics"]["marker"]["color"] != bars["etl"]["marker"]["color"]
    assert fig["layout"]["yaxis"]["categoryarray"] == ["small#1", "big#1"]
    assert "first" not in fig["layout"]["title"]["text"]
    capped = gantt_figure(results["edf-bfd"], max_jobs=2)
    assert sum(len(tr["y"]) for tr in capped["data"] if tr["name"] != "VM on") == 2
    assert "first 2 of 3 jobs" in capped["layout"]["title"]["text"]


def test_completion_deadline_and_cost_breakdown(results: dict[str, Any]) -> None:
    comp = completion_figure(results)
    _valid(comp)
    assert len(comp["data"]) == 2 and comp["data"][0]["line"]["shape"] == "hv"
    # Completions 600, 300 and 500 s, in minutes: ECDF 0 -> 1/3 -> 2/3 -> 1.
    assert comp["data"][0]["x"] == pytest.approx([5.0, 5.0, 500 / 60, 10.0], abs=1e-5)
    assert comp["data"][0]["y"] == pytest.approx([0.0, 1 / 3, 2 / 3, 1.0], abs=1e-4)
    dl = deadline_figure(results)
    _valid(dl)
    assert [tr["name"] for tr in dl["data"]] == ["Met", "Missed"]
    assert dl["data"][0]["y"] == [1, 1] and dl["data"][1]["y"] == [1, 1]
    cb = cost_breakdown_figure(results)
    _valid(cb)
    bars = {tr["name"]: tr["y"] for tr in cb["data"] if tr["type"] == "bar"}
    assert bars == {"small": [0.06, 0.12], "big": [0.12, 0.12]}
    assert cb["layout"]["barmode"] == "stack"


def test_summary_rows(results: dict[str, Any]) -> None:
    rows = {r["key"]: r for r in summary_rows(results, baseline="fifo-spread")}
    assert list(rows) == [
        "total_cost", "saving_pct", "gap_to_lower_bound_pct", "makespan_s", "deadline_miss_pct",
        "deadline_violation_eq12_pct", "mean_completion_s", "mean_wait_s", "ilp_fallbacks",
    ]
    assert rows["total_cost"]["values"] == {"edf-bfd": "0.1800", "fifo-spread": "0.2400"}
    assert rows["saving_pct"]["raw"]["edf-bfd"] == pytest.approx(25.0)
    assert rows["saving_pct"]["values"] == {"edf-bfd": "+25.0%", "fifo-spread": "baseline"}
    assert rows["gap_to_lower_bound_pct"]["values"]["edf-bfd"] == "20.0%"
    assert rows["makespan_s"]["values"]["edf-bfd"] == "11 min 40 s"
    assert rows["deadline_miss_pct"]["values"]["edf-bfd"] == "1 / 2 (50.0%)"
    assert rows["deadline_violation_eq12_pct"]["values"]["edf-bfd"] == "100.0%"
    assert rows["ilp_fallbacks"]["values"] == {"edf-bfd": "—", "fifo-spread": "1 / 3 decisions"}
    assert summary_rows(results)[1]["values"]["edf-bfd"] == "baseline"  # first scheduler by default
    with pytest.raises(ValueError, match="baseline"):
        summary_rows(results, baseline="nope")


def test_all_figures_keys_and_json(results: dict[str, Any]) -> None:
    figs = all_figures(results)
    assert list(figs) == [
        "utilisation", "active_vms", "cumulative_cost", "cost_breakdown", "completion", "deadlines",
        "fairness:edf-bfd", "gantt:edf-bfd", "gantt:fifo-spread",
    ]
    for fig in figs.values():
        _valid(fig)


def _big_result(name: str, n_jobs: int, seed: int) -> dict[str, Any]:
    """A synthetic 10,000-job result: two events per job on the timeline."""
    rng = random.Random(seed)
    res = tiny_result(name)
    jobs = []
    for k in range(n_jobs):
        arrival = k * 3.0
        start = arrival + rng.uniform(0, 50)
        finish = start + rng.uniform(30, 3000)
        jobs.append(_job(f"job-{k}", rng.choice(["analytics", "etl"]), arrival, start, finish, 1, 1, 2,
                         {f"small#{rng.randint(1, 40)}": 1}, 4000.0 if k % 3 == 0 else None, 0.01))
    n = 2 * n_jobs
    t = np.sort(np.asarray([rng.uniform(0, 3.0 * n_jobs) for _ in range(n)]))
    res["jobs"] = jobs
    res["timeline"] = {
        "t": t.tolist(),
        "utilisation": {r: [rng.random() for _ in range(n)] for r in ("cpu", "mem")},
        "utilisation_of_on": {r: [rng.random() for _ in range(n)] for r in ("cpu", "mem")},
        "active_vms": {vt: [rng.randint(0, 40) for _ in range(n)] for vt in ("small", "big")},
        "cost_rate_per_hour": [rng.random() for _ in range(n)],
        "cumulative_cost": np.linspace(0, 100, n).tolist(),
        "queued_jobs": [0] * n, "running_jobs": [0] * n,
    }
    fair = {fw: [rng.random() for _ in range(n)] for fw in ("analytics", "etl")}
    res["fairness"] = {**res["fairness"], "t": t.tolist(), "share": fair, "fair_share": dict(fair)}
    return res


def test_ten_thousand_jobs_stay_under_two_megabytes() -> None:
    results = {name: _big_result(name, 10_000, seed) for seed, name in enumerate(["edf-bfd", "morpheus", "fifo-spread"])}
    raw = len(json.dumps(results))
    figs = all_figures(results)
    size = len(json.dumps(figs, allow_nan=False))
    assert size < 2_000_000 < raw
    for fig in figs.values():
        for tr in fig["data"]:
            assert len(tr.get("x") or []) <= 2000
    assert "first 500 of 10,000 jobs" in figs["gantt:edf-bfd"]["layout"]["title"]["text"]


# --------------------------------------------------------------------------- HTML report


def test_html_report_is_standalone_one_div_per_figure(results: dict[str, Any], tmp_path: Any) -> None:
    path = tmp_path / "report.html"
    write_html_report(path, results, title="Tiny & cheap")
    doc = path.read_text(encoding="utf-8")
    figs = all_figures(results)
    assert len(re.findall(r'<div class="chart" id="chart-\d+"', doc)) == len(figs)
    assert "<title>Tiny &amp; cheap</title>" in doc
    assert "Plotly.newPlot" in doc and len(doc) > 3_000_000  # plotly.js is inlined
    assert not re.search(r"<script[^>]+src=", doc)  # no network access
    assert "Total cost ($)" in doc and "fifo-spread" in doc
    payload = re.search(r'<script type="application/json" id="figures-data">(.*?)</script>', doc, re.S)
    assert payload is not None
    assert len(json.loads(payload.group(1))) == len(figs)


def test_html_report_escapes_malicious_names(results: dict[str, Any]) -> None:
    evil = copy.deepcopy(results["edf-bfd"])
    evil["scheduler"] = EVIL
    evil["jobs"][0]["id"] = EVIL
    evil["jobs"][0]["framework"] = EVIL
    evil["vm_types"][0]["name"] = EVIL
    evil["cost_by_vm_type"] = {EVIL: 0.06, "big": 0.12}
    evil["fairness"]["share"][EVIL] = evil["fairness"]["share"].pop("analytics")
    evil["fairness"]["fair_share"][EVIL] = evil["fairness"]["fair_share"].pop("analytics")
    evil["fairness"]["frameworks"][EVIL] = evil["fairness"]["frameworks"].pop("analytics")
    doc = render_html_report({EVIL: evil, "edf-bfd": results["edf-bfd"]}, title=EVIL)
    assert EVIL not in doc
    assert "alert(1)</script>" not in doc
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>" in doc
    # Inside the figures, names are escaped for Plotly's pseudo-HTML text too.
    payload = re.search(r'id="figures-data">(.*?)</script>', doc, re.S)
    assert payload is not None
    figures = json.loads(payload.group(1))
    assert EVIL not in json.dumps(figures, ensure_ascii=False)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in json.dumps(figures, ensure_ascii=False)


# --------------------------------------------------------------------------- real simulator


def test_real_simulator_results_build_every_figure(tmp_path: Any) -> None:
    scheduling = pytest.importorskip("scheduling")
    if not hasattr(scheduling, "simulate"):
        pytest.skip("the simulator is not available yet")
    scenario = scheduling.parse_scenario({
        "name": "tiny <two tenants>",
        "vm_types": [
            {"name": "small", "capacity": {"cpu": 4, "mem": 16}, "price_per_hour": 0.2, "count": 3},
            {"name": "big", "capacity": {"cpu": 16, "mem": 64}, "price_per_hour": 0.7, "count": 1},
        ],
        "frameworks": [{"name": "analytics", "weight": 2}, {"name": "etl"}],
        "jobs": [
            {"id": f"j{k}", "framework": "analytics" if k % 2 else "etl", "arrival_s": 30 * k,
             "executors": 1 + k % 3, "executor": {"cpu": 2, "mem": 4}, "duration_s": 200 + 50 * k,
             **({"deadline_s": 400} if k % 2 else {})}
            for k in range(8)
        ],
    })
    runs = scheduling.compare(scenario, schedulers=["fifo-spread", "edf-bfd", "morpheus"])
    results = {name: r.to_dict() for name, r in runs.items()}
    figs = all_figures(results)
    assert {"utilisation", "gantt:edf-bfd", "fairness:edf-bfd"} <= set(figs)
    for fig in figs.values():
        _valid(fig)
    assert len(summary_rows(results)) == 9
    path = tmp_path / "real.html"
    write_html_report(path, results, title=scenario.name)
    doc = path.read_text(encoding="utf-8")
    assert doc.count('class="chart"') == len(figs)
    assert "tiny &lt;two tenants&gt;" in doc
