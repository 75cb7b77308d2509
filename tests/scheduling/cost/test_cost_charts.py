"""Charts of a cost comparison and its HTML report, from hand-made result documents (docs/results.md).

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
import random
import re
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

from scheduling.charts import (
    figure_for,
    scheduler_colours,
    utilisation_figure,
)
from scheduling.charts.palettes import PALETTES
from scheduling.cost.charts import (
    active_vms_figure,
    all_figures,
    completion_figure,
    cost_breakdown_figure,
    cumulative_cost_figure,
    deadline_figure,
    fairness_figure,
    gantt_figure,
    gantt_pages,
)
from scheduling.cost.document import to_columnar
from scheduling.cost.html import render_html_report, write_html_report
from scheduling.cost.tables import COST_METRICS
from scheduling.tables import comparison_table

EVIL = "<script>alert(1)</script>"
T = [0.0, 100.0, 200.0, 400.0, 600.0, 700.0]


def _job(jid: str, fw: str, arrival: float, start: float, finish: float, executors: int,
         cpu: float, mem: float, placement: dict[str, int], deadline: float | None,
         cost: float) -> dict[str, Any]:
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
            {"vm": "small#1", "vm_type": "small", "on_s": 0.0, "off_s": 600.0, "billed_s": 600.0,
             "cost": 0.06},
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
            "fair_share": {"analytics": [1.0, 0.5, 0.5, 1.0, 1.0, 0.0],
                           "etl": [0.0, 0.5, 0.5, 0.0, 0.0, 0.0]},
            "contention_s": 300.0,
            "frameworks": {
                "analytics": {"weight": 1.0, "unfairness_area": 75.0, "received_pct": 50.0,
                              "unfairness_pct": 50.0},
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


# --------------------------------------------------------------------------- figures


def test_utilisation_one_row_per_resource_one_hv_trace_per_scheduler(results: dict[str, Any]) -> None:
    fig = utilisation_figure(results, view="raw")
    _valid(fig)
    assert len(fig["data"]) == 4  # 2 resources x 2 schedulers
    assert [tr["name"] for tr in fig["data"]] == ["edf-bfd", "fifo-spread"] * 2
    assert all(tr["line"]["shape"] == "hv" for tr in fig["data"])
    assert {tr["yaxis"] for tr in fig["data"]} == {"y", "y2"}
    assert fig["layout"]["yaxis"]["title"]["text"] == "Utilisation (cpu)"
    assert fig["data"][0]["y"] == [0.25, 0.75, 0.75, 0.5, 0.25, 0.0]
    assert fig["data"][0]["x"] == pytest.approx([t / 60 for t in T], abs=1e-5)  # 700 s: axis in minutes
    assert fig["layout"]["xaxis2"]["title"]["text"] == "Time (min)"
    single = utilisation_figure(results, "mem", of_on=True, view="raw")
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
    total = active_vms_figure({"edf-bfd": results["edf-bfd"]}, mode="total", view="raw")
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
    shaded = [(round(x * 60), lo, hi)
              for x, lo, hi in zip(shade["x"], share["y"], shade["y"], strict=True) if hi != lo]
    assert shaded == [(100, 0.25, 0.5), (200, 0.25, 0.5)]
    etl_shade = fig["data"][4]
    assert etl_shade["y"] == fig["data"][3]["y"]  # etl gets its fair share: nothing shaded
    with pytest.raises(ValueError, match="fairness"):
        fairness_figure(results["fifo-spread"])


def _bars(fig: dict[str, Any]) -> list[tuple[str, float, float, float, float, str]]:
    """Every executor bar as (framework, y centre, thickness, start, finish, job id)."""
    out = []
    for tr in fig["data"]:
        if tr["name"] == "VM on":
            continue
        columns = (tr["y"], tr["width"], tr["base"], tr["x"], tr["customdata"])
        for y, w, base, x, cd in zip(*columns, strict=True):
            out.append((tr["name"], y, w, base, base + x, cd[0]))
    return out


def test_gantt_bars_per_job_and_vm_coloured_by_framework(results: dict[str, Any]) -> None:
    fig = gantt_figure(results["edf-bfd"])
    _valid(fig)
    bars = {tr["name"]: tr for tr in fig["data"] if tr["name"] != "VM on"}
    assert set(bars) == {"analytics", "etl"}
    assert fig["layout"]["yaxis"]["ticktext"] == ["small#1", "big#1"]
    # j1: its 2 executors on small#1 in 2 adjacent lanes, one bar; j3 follows j2 on big#1.
    assert [cd[0] for cd in bars["analytics"]["customdata"]] == ["j1", "j3"]
    assert bars["analytics"]["base"] == pytest.approx([0.0, 400.0 / 60], abs=1e-5)  # minutes
    assert bars["analytics"]["x"] == pytest.approx([10.0, 5.0])
    assert bars["analytics"]["customdata"][1] == ["j3", 1, "big#1", "0:06:40", "0:11:40"]
    assert bars["analytics"]["marker"]["color"] != bars["etl"]["marker"]["color"]
    assert "jobs" not in fig["layout"]["title"]["text"]
    assert fig["layout"]["meta"] == {"page": 0, "pages": 1, "jobs": 3, "jobs_per_page": 300,
                                     "first_job": 1, "last_job": 3}


def test_gantt_gives_each_concurrent_executor_its_own_lane() -> None:
    # One VM: a (2 executors, 0-100 s), b (1, 50-150 s), c (1, 100-200 s): at most 3 at once.
    res = tiny_result()
    res["jobs"] = [
        _job("a", "analytics", 0, 0, 100, 2, 1, 1, {"small#1": 2}, None, 0.0),
        _job("b", "etl", 0, 50, 150, 1, 1, 1, {"small#1": 1}, None, 0.0),
        _job("c", "etl", 0, 100, 200, 1, 1, 1, {"small#1": 1}, None, 0.0),
    ]
    res["vm_intervals"] = [{"vm": "small#1", "vm_type": "small", "on_s": 0.0, "off_s": 200.0,
                            "billed_s": 200.0, "cost": 0.02}]
    fig = gantt_figure(res)
    _valid(fig)
    bars = _bars(fig)
    assert sorted(b[5] for b in bars) == ["a", "b", "c"]  # a's two adjacent lanes are one bar
    # No two bars overlap in time and in height: each concurrent executor has its own lane.
    for i, p in enumerate(bars):
        for q in bars[i + 1:]:
            overlap_t = min(p[4], q[4]) - max(p[3], q[3]) > 1e-9
            overlap_y = abs(p[1] - q[1]) < (p[2] + q[2]) / 2 - 1e-9
            assert not (overlap_t and overlap_y), (p, q)
    a = next(b for b in bars if b[5] == "a")
    b = next(b for b in bars if b[5] == "b")
    assert a[2] == pytest.approx(2 * b[2])  # a is two lanes thick
    # c reuses a's first lane (free from 100 s on), so it sits within a's thickness.
    c = next(b for b in bars if b[5] == "c")
    assert abs(c[1] - a[1]) < a[2] / 2
    # Bars stay inside their VM's row (the row of the only tick).
    top, bottom = fig["layout"]["yaxis"]["range"][1], fig["layout"]["yaxis"]["range"][0]
    assert all(top <= y - w / 2 and y + w / 2 <= bottom for _, y, w, *_ in bars)


def test_gantt_pages_show_every_job_and_say_what_is_cut() -> None:
    res = _big_result("edf-bfd", 1_000, 3)
    pages = gantt_pages(res, 300)
    assert [(p["first_job"], p["last_job"]) for p in pages] == [(1, 300), (301, 600), (601, 900), (901, 1000)]
    seen: list[str] = []
    for p in pages:
        fig = gantt_figure(res, 300, page=p["page"])
        ids = {b[5] for b in _bars(fig)}
        seen += sorted(ids)
        assert f"jobs {p['first_job']:,}–{p['last_job']:,} of 1,000" in fig["layout"]["title"]["text"]
        assert fig["layout"]["meta"]["pages"] == 4
        assert any("other pages" in a["text"] for a in fig["layout"]["annotations"])
    assert len(seen) == len(set(seen)) == 1_000  # every job, once
    with pytest.raises(ValueError, match="page"):
        gantt_figure(res, 300, page=4)


def test_gantt_orders_jobs_by_start_then_id_as_text() -> None:
    # Many jobs start at one instant (the ids, ints and strings, then decide), -0.0 is 0.0, and
    # jobs that never ran are left out: the pages' order is the plain rule's, ``sorted`` by
    # ``(start, str(id))``.
    rng = random.Random(0)
    n = 2_000
    ids: list[Any] = [rng.choice([f"j{k}", k, f"Ä{k}", f"a{k % 7}"]) for k in range(n)]
    ids = [f"{x}-{k}" if isinstance(x, str) else x + n * k for k, x in enumerate(ids)]  # distinct
    starts = [rng.choice([0.0, -0.0, 60.0, 60.0, 120.5, rng.uniform(0, 500)]) for _ in range(n)]
    ran = [rng.random() > 0.05 for _ in range(n)]
    res = {
        "vm_types": [{"name": "s", "count": 1}],
        "jobs": [
            {"id": ids[k], "start_s": starts[k] if ran[k] else None,
             "finish_s": starts[k] + 10.0 if ran[k] else None, "placement": {"s#1": 1} if ran[k] else {}}
            for k in range(n)
        ],
    }
    expected = sorted((k for k in range(n) if ran[k]), key=lambda k: (starts[k] or 0.0, str(ids[k])))
    pages = gantt_pages(res, 100)
    assert pages[-1]["last_job"] == len(expected)
    for p in pages[:3] + pages[-2:]:
        fig = gantt_figure(res, 100, page=p["page"])
        shown = {b[5] for b in _bars(fig)}
        chunk = expected[p["first_job"] - 1:p["last_job"]]
        assert shown == {str(ids[k]) for k in chunk}
        assert p["start_s"] == min(starts[k] or 0.0 for k in chunk)


def test_figures_read_columnar_documents(results: dict[str, Any]) -> None:
    # Format 2 (columnar) and the older list layout give the same figures.
    columnar = {name: to_columnar(r) for name, r in results.items()}
    assert isinstance(columnar["edf-bfd"]["jobs"], dict)
    assert gantt_figure(columnar["edf-bfd"]) == gantt_figure(results["edf-bfd"])
    assert completion_figure(columnar) == completion_figure(results)
    assert fairness_figure(columnar["edf-bfd"]) == fairness_figure(results["edf-bfd"])
    assert all_figures(columnar) == all_figures(results)


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


def test_all_figures_keys_and_json(results: dict[str, Any]) -> None:
    figs = all_figures(results)
    assert list(figs) == [
        "cumulative_cost", "cumulative_cost@multiples", "utilisation", "utilisation@raw",
        "utilisation@multiples", "active_vms", "active_vms@raw", "active_vms@multiples", "cost_breakdown",
        "cost_by_framework", "cost_by_hour", "deadlines", "completion", "completion@multiples",
        "fairness:edf-bfd", "fairness:edf-bfd@raw", "gantt:edf-bfd", "gantt:fifo-spread",
    ]
    for fig in figs.values():
        _valid(fig)
    one = all_figures({"edf-bfd": results["edf-bfd"]})
    assert not any(k.endswith("@multiples") and k != "active_vms@multiples" for k in one)
    assert figure_for(one, "utilisation", "multiples") is one["utilisation"]
    assert figure_for(one, "utilisation", "raw") is one["utilisation@raw"]


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


FIVE = ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]


def test_ten_thousand_jobs_five_schedulers_stay_under_two_megabytes() -> None:
    results = {name: _big_result(name, 10_000, seed) for seed, name in enumerate(FIVE)}
    raw = len(json.dumps(results))
    figs = all_figures(results)
    size = len(json.dumps(figs, allow_nan=False, separators=(",", ":")))
    assert size < 2_000_000 < raw
    for fig in figs.values():
        for tr in fig["data"]:
            assert len(tr.get("x") or []) <= 2000
    assert "jobs 1–200 of 10,000" in figs["gantt:edf-bfd"]["layout"]["title"]["text"]
    assert figs["gantt:edf-bfd"]["layout"]["meta"]["pages"] == 50


# --------------------------------------------------------------------------- readable charts


def test_utilisation_views(results: dict[str, Any]) -> None:
    mean = utilisation_figure(results, view="mean")
    assert "of the whole cluster" in mean["layout"]["title"]["text"]
    assert "mean over 10-s windows" in mean["layout"]["title"]["text"]  # 700 s: 70 windows of 10 s
    cpu = next(tr for tr in mean["data"] if tr["name"] == "edf-bfd")
    x = np.asarray(cpu["x"]) * 60  # minutes -> s
    assert float(np.sum(np.asarray(cpu["y"][:-1]) * np.diff(x))) == pytest.approx(375.0, rel=1e-4)
    multiples = utilisation_figure(results, view="multiples")
    _valid(multiples)
    # One panel per scheduler, one line per resource (told apart by dash) in the scheduler's colour.
    assert {tr["yaxis"] for tr in multiples["data"]} == {"y", "y2"}
    assert [tr["name"] for tr in multiples["data"]] == [
        "edf-bfd · cpu", "edf-bfd · mem", "fifo-spread · cpu", "fifo-spread · mem"]
    assert [tr["line"]["dash"] for tr in multiples["data"]] == ["solid", "dash"] * 2
    assert multiples["layout"]["yaxis"]["title"]["text"] == "edf-bfd"


def test_total_active_vms_come_from_the_library(results: dict[str, Any]) -> None:
    raw = all_figures(results)["active_vms@raw"]
    assert [(tr["name"], tr["y"]) for tr in raw["data"]] == [
        ("edf-bfd", [1, 2, 2, 2, 1, 0]), ("fifo-spread", [1, 2, 2, 2, 1, 0])]
    mean = all_figures(results)["active_vms"]
    # VM-seconds are kept: small#1 600 s + big#1 600 s = 1,200 VM-s.
    tr = mean["data"][0]
    x = np.asarray(tr["x"]) * 60
    assert float(np.sum(np.asarray(tr["y"][:-1]) * np.diff(x))) == pytest.approx(1200.0, rel=1e-4)
    by_type = all_figures(results)["active_vms@multiples"]
    assert {tr["stackgroup"] for tr in by_type["data"]} == {"row0", "row1"}


def test_axis_titles_clear_the_tick_labels(results: dict[str, Any]) -> None:
    for key, fig in all_figures(results).items():
        for name, spec in fig["layout"].items():
            if name.startswith(("xaxis", "yaxis")):
                assert spec["automargin"] is True, (key, name)
                assert spec["title"]["standoff"] > 0, (key, name)


def test_fairness_chart_explains_its_words(results: dict[str, Any]) -> None:
    fig = fairness_figure(results["edf-bfd"])
    caption = " ".join(a["text"] for a in fig["layout"]["annotations"])
    for words in ("Contention", "share·s", "fair share", "weight"):
        assert words in caption
    hovers = " ".join(tr["hovertemplate"] for tr in fig["data"])
    assert "share × seconds" in hovers and "weights of frameworks with work waiting" in hovers
    assert fig["layout"]["margin"]["t"] > 60  # room for the caption under the title


def test_fairness_mean_view_keeps_the_unfairness_area(results: dict[str, Any]) -> None:
    fig = fairness_figure(results["edf-bfd"], view="mean")
    _valid(fig)
    assert "mean over 10-s windows" in fig["layout"]["title"]["text"]
    share, band = fig["data"][0], fig["data"][1]
    assert band["fill"] == "tonexty" and "75 share·s" in band["name"]
    x = np.asarray(share["x"]) * 60  # minutes -> s
    gap = np.asarray(band["y"]) - np.asarray(share["y"])
    # analytics: 0.25 below its fair share for the 300 s of contention = 75 share·s.
    assert float(np.sum(gap[:-1] * np.diff(x))) == pytest.approx(75.0, rel=1e-3)
    assert all_figures(results)["fairness:edf-bfd"] == fig


# --------------------------------------------------------------------------- palettes


def _figure_colours(fig: dict[str, Any]) -> dict[str, set[str]]:
    """Colour -> the names drawn in it (traces, and tick labels coloured by scheduler)."""
    out: dict[str, set[str]] = {}
    for tr in fig["data"]:
        colour = (tr.get("line") or {}).get("color") or (tr.get("marker") or {}).get("color")
        if isinstance(colour, str) and colour.startswith("#") and tr.get("name"):
            # "edf-bfd · cpu", "edf-bfd (total 0.18)", "etl: share" are all one thing.
            thing = str(tr["name"]).split(" (")[0].split(":")[0].split(" · ")[0]
            out.setdefault(colour.upper(), set()).add(thing)
    ticks = fig["layout"].get("xaxis", {}).get("ticktext") or []
    for tick in ticks:
        found = re.search(r"color:(#[0-9A-Fa-f]{6})\"><b>(.*?)</b>", tick)
        if found:
            out.setdefault(found.group(1).upper(), set()).add("scheduler " + found.group(2))
    return out


def test_every_figure_draws_each_thing_in_its_own_colour(results: dict[str, Any]) -> None:
    res = copy.deepcopy(results)
    for r in res.values():  # the clash of issue 7, in one run
        r["vm_types"][1]["name"] = "m1.xlarge"
        costs = r["cost_by_vm_type"]
        r["cost_by_vm_type"] = {"small": costs["small"], "m1.xlarge": costs["big"]}
        r["timeline"]["active_vms"]["m1.xlarge"] = r["timeline"]["active_vms"].pop("big")
    for key, fig in all_figures(res).items():
        for colour, things in _figure_colours(fig).items():
            assert len(things) == 1, (key, colour, things)
    cost = _figure_colours(all_figures(res)["cost_breakdown"])
    assert cost[PALETTES["scheduler"].fixed["edf-bfd"]] == {"scheduler edf-bfd"}


# --------------------------------------------------------------------------- HTML report


def test_html_report_is_standalone_one_div_per_figure(results: dict[str, Any], tmp_path: Any) -> None:
    path = tmp_path / "report.html"
    write_html_report(path, results, title="Tiny & cheap")
    doc = path.read_text(encoding="utf-8")
    figs = all_figures(results)
    defaults = [k for k in figs if "@" not in k]
    assert len(re.findall(r'<div class="chart" id="chart-\d+"', doc)) == len(defaults)
    assert "<title>Tiny &amp; cheap</title>" in doc
    assert "Plotly.react" in doc and len(doc) > 3_000_000  # plotly.js is inlined
    assert not re.search(r"<script[^>]+src=", doc)  # no network access
    assert 'data-view="raw"' in doc and 'data-view="multiples"' in doc
    payload = re.search(r'<script type="application/json" id="figures-data">(.*?)</script>', doc, re.S)
    assert payload is not None
    data = json.loads(payload.group(1))
    assert data["figures"] == json.loads(json.dumps(figs)) and [c["key"] for c in data["charts"]] == defaults


def test_html_report_table_is_the_presenters(results: dict[str, Any]) -> None:
    doc = render_html_report(results, title="t", baseline="fifo-spread", currency="€")
    table = comparison_table(results, baseline="fifo-spread", currency="€", metrics=COST_METRICS)
    for row in table["rows"]:
        assert f'<th scope="row">{row["label"]}</th>' in doc
        for cell in row["cells"]:
            cls = ' class="best"' if cell["best"] else ""
            assert f"<td{cls}>{cell['shown']}</td>" in doc
    assert "€0.1800" in doc and "<td>baseline</td>" in doc
    eq12 = next(r for r in table["rows"] if r["key"] == "deadline_violation_eq12")
    assert "eq. 12" in doc and "%" not in eq12["cells"][0]["shown"]


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
    figures = list(json.loads(payload.group(1))["figures"].values())  # keys are looked up, never shown
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
    path = tmp_path / "real.html"
    write_html_report(path, results, title=scenario.name)
    doc = path.read_text(encoding="utf-8")
    assert doc.count('class="chart"') == len([k for k in figs if "@" not in k])
    assert "tiny &lt;two tenants&gt;" in doc


def test_charts_that_add_little_say_why(results: dict[str, Any]) -> None:
    """Issue 22: cost per hour of a run under an hour, the missed part of the deadline bars,
    and schedulers whose curves are identical."""
    from scheduling.cost.charts import cost_by_hour_figure

    hourly = cost_by_hour_figure(results)
    assert "each bar is its total cost" in hourly["layout"]["annotations"][0]["text"]
    longer = {k: {**r, "cost_by_hour": [0.1, 0.08]} for k, r in results.items()}
    assert not cost_by_hour_figure(longer)["layout"].get("annotations")

    missed = next(t for t in deadline_figure(results)["data"] if t["name"] == "Missed")
    assert missed["text"] == ["1 missed", "1 missed"] and missed["textposition"] == "outside"
    assert missed["marker"]["line"]["width"] > 0  # a thin segment still shows

    twins = {"edf-bfd": results["edf-bfd"], "morpheus": copy.deepcopy(results["edf-bfd"]),
             "fifo-spread": results["fifo-spread"]}
    figures = all_figures(twins, only=["cumulative_cost", "utilisation"])
    names = [t.get("name") for fig in figures.values() for t in fig["data"]]
    assert "morpheus (same as edf-bfd)" in names and "morpheus" not in names
    assert "fifo-spread" in names and "edf-bfd" in names


@pytest.mark.parametrize(
    ("example", "schedulers"),
    [
        ("paper003-light.json", ["fifo-spread", "fifo-consolidate", "morpheus", "edf-bfd", "edf-ilp"]),
        ("paper003-high.json", ["edf-bfd", "fifo-spread"]),
    ],
)
def test_figures_joined_from_each_schedulers_piece_are_the_comparisons(
    example: str, schedulers: list[str]
) -> None:
    """The planner builds each scheduler's piece in its own part and joins them from the
    digests (stored as JSON): the same figures, in the same order, as from the full documents."""
    from pathlib import Path

    from scheduling import compare, parse_scenario
    from scheduling.cost.charts import figure_digest, join_figures, variant_figures
    from scheduling.packed import is_packed, unpack_tree

    root = Path(__file__).resolve().parents[3]
    scenario = parse_scenario(json.loads((root / "examples" / example).read_text()))
    docs = {name: r.to_dict() for name, r in compare(scenario, schedulers=schedulers).items()}
    pieces = json.loads(json.dumps(
        {name: variant_figures(name, doc, schedulers=len(docs)) for name, doc in docs.items()}
    ))
    whole = all_figures(docs, currency="€")
    joined = join_figures(pieces, currency="€")
    assert list(joined) == list(whole)
    assert json.dumps(joined) == json.dumps(whole)
    # What a digest keeps is a small part of the document; its columns are packed.
    assert all(len(json.dumps(unpack_tree(figure_digest(d)))) < len(json.dumps(d)) / 2 for d in docs.values())
    assert all(is_packed(pieces[name]["digest"]["timeline"]["t"]) for name in docs)
