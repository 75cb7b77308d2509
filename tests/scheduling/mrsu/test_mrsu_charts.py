"""The MRSU figures stay light on large inputs: the allocation heatmap averages blocks of
applications and slots, the Fig. 2 snapshot keeps each stretch's extremes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scheduling.charts.downsample import block_groups, downsample_grid
from scheduling.mrsu import mrsu_result
from scheduling.mrsu.charts import (
    ALLOCATION_MAX_COLS,
    ALLOCATION_MAX_ROWS,
    allocation_figure,
    mrsu_figures,
    snapshot_figure,
)
from scheduling.mrsu.workload import synthetic_workload


def test_block_groups_cover_every_item_once():
    for n in (0, 1, 59, 60, 61, 1000, 1003):
        groups = block_groups(n, 60)
        assert len(groups) <= 60
        assert [i for a, b in groups for i in range(a, b)] == list(range(n))
    with pytest.raises(ValueError):
        block_groups(3, 0)


def test_downsample_grid_keeps_the_mean_and_small_grids_whole():
    rng = np.random.default_rng(1)
    z = rng.integers(0, 9, (120, 400)).astype(float)
    rows, cols, cells = downsample_grid(z, max_rows=60, max_cols=200)
    assert (len(rows), len(cols)) == (60, 200)
    assert np.mean(cells) == pytest.approx(z.mean())
    assert cells[0][0] == pytest.approx(z[0:2, 0:2].mean())
    small = [[1.0, 2.0], [3.0, 4.0]]
    assert downsample_grid(small) == ([(0, 1), (1, 2)], [(0, 1), (1, 2)], small)
    with pytest.raises(ValueError):
        downsample_grid([1.0, 2.0])


@pytest.fixture(scope="module")
def thousand() -> dict:
    # 1,000 applications x 25 slots x 4 dimensions: 100,000 cells, every coefficient kept (Fig. 2)
    problem = synthetic_workload(load=0.9, applications=1000, slots=25, seed=3)
    return mrsu_result(problem, composition="gcd", mode="id")


def test_a_thousand_application_page_stays_light(thousand):
    figures = mrsu_figures(thousand)
    heat = figures["allocation"]["data"][0]
    assert len(heat["z"]) <= ALLOCATION_MAX_ROWS and len(heat["y"]) == len(heat["z"])
    assert heat["y"][0] == "app1 … app17 (17)" and heat["y"][-1].endswith("app1000 (14)")
    assert len(heat["x"]) == 25  # the slots fit: kept whole
    assert figures["allocation"]["layout"]["height"] < 1200
    # the blocks average the units: the grid's total over application-slots is kept
    units = np.array([[sum(v.values()) for v in row] for row in thousand["allocation"].values()])
    weights = np.array([[17] * 25] * 58 + [[14] * 25])
    assert float((np.array(heat["z"]) * weights).sum()) == pytest.approx(float(units.sum()))
    snap = figures["snapshot"]["data"]
    assert all(len(t["y"]) <= 4 * 4000 for t in snap)
    assert len(json.dumps(figures)) < 600_000  # whole: several MB


def test_the_snapshot_keeps_the_extremes_at_their_indices(thousand):
    full = snapshot_figure(thousand, max_points=10**9)
    light = snapshot_figure(thousand)
    assert full is not None and light is not None
    for a, b in zip(full["data"], light["data"], strict=True):
        assert len(a["y"]) == 100_000 and len(b["y"]) < len(a["y"])
        assert min(b["y"]) == min(a["y"]) and max(b["y"]) == max(a["y"])
        assert all(a["y"][x] == y for x, y in zip(b["x"], b["y"], strict=True))
    assert "of 100,000 points" in json.dumps(light["layout"])


def test_small_results_are_drawn_whole():
    doc = {"composition": "gcd", "mode": "ft", "allocation": {"a": [1, 2], "b": [3, 4]}}
    heat = allocation_figure(doc)["data"][0]
    assert heat["z"] == [[1, 2], [3, 4]] and heat["y"] == ["a", "b"] and heat["x"] == [0, 1]
    assert "customdata" not in heat
    many_slots = {"composition": "gcd", "mode": "ft", "allocation": {"a": list(range(1000))}}
    heat = allocation_figure(many_slots)["data"][0]
    assert len(heat["x"]) == ALLOCATION_MAX_COLS and heat["x"][:2] == [0, 5]
    assert heat["z"][0][0] == pytest.approx(2.0)  # mean of slots 0-4
    assert heat["customdata"][0][0] == "0-4"


def test_a_runs_figures_are_each_units_then_the_joined_sweep():
    """run_figures: the figures of an MRSU run's documents (the planner's page and reports)."""
    from scheduling.mrsu import mrsu_advise, mrsu_sweep
    from scheduling.mrsu.charts import run_figures
    from scheduling.scenario import parse_scenario

    problem = synthetic_workload(load=0.5, applications=3, slots=4, seed=1)
    docs = {
        "gcd-ft": mrsu_result(problem, composition="gcd", mode="ft"),
        "min-id": mrsu_result(problem, composition="min", mode="id"),
        "sweep 100%": mrsu_sweep(loads=[1.0], seeds=1, applications=3, slots=2),
        "sweep 50%": mrsu_sweep(loads=[0.5], seeds=1, applications=3, slots=2),
    }
    figures = run_figures(docs)
    assert list(figures) == [
        "allocation:gcd-ft", "snapshot:gcd-ft", "allocation:min-id", "snapshot:min-id",
        "fig3-under", "fig3-over", "fig4-under", "fig4-over", "fig5", "fig5-slots",
    ]
    assert figures["fig5"]["data"][0]["x"] == [50.0, 100.0]  # the parts joined in load order
    scenario = parse_scenario({"resources": ["cpu"], "vm_types": [
        {"name": "m", "capacity": {"cpu": 4}, "price_per_hour": 1, "count": 1}],
        "frameworks": [{"name": "f", "task_demand": {"cpu": 1}}], "jobs": []})
    assert run_figures({"advisor": mrsu_advise(scenario)}) == {}  # the advice has no figures
    json.dumps(figures, allow_nan=False)


def test_the_snapshot_panels_of_a_run_have_titles_of_their_own() -> None:
    """Issue 22: four MRSU panels shared one title, so GCD and MIN could not be told apart."""
    from scheduling.mrsu.charts import snapshot_figure

    titles = set()
    for composition in ("gcd", "min"):
        for mode in ("ft", "id"):
            doc = {"mode": mode, "composition": composition,
                   "misallocation": {"coefficients": {"a": [[0.5, 0.0]]}}}
            figure = snapshot_figure(doc)
            assert figure is not None
            titles.add(figure["layout"]["title"]["text"])
    assert len(titles) == 4 and any("GCD, ID" in t for t in titles)
