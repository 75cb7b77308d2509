"""Figures of fairness studies, from the hand-made documents of ``fairness_documents``.

The numbers that can be wrong are checked against the documents: the heatmap's cells are the
mean tasks and its hover the standard deviations, error bars are the standard deviations,
the shaded polygon of a share timeline has the unfairness area, downsampling keeps the step
shape; names are escaped and every figure is plain JSON that Plotly accepts.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

from scheduling.charts import scheduler_colours, utilisation_figure, variant_colours
from scheduling.charts.palettes import HEAT, PALETTES
from scheduling.fairness.allocation_doc import allocation_document
from scheduling.fairness.charts import (
    allocation_figures,
    allocation_heatmap_figure,
    allocation_totals_figure,
    outcomes_figure,
    running_tasks_figure,
    share_timeline_figure,
    sharing_completion_figure,
    sharing_figures,
    sharing_utilisation_figure,
    stranded_figure,
    unfairness_figure,
)
from scheduling.fairness.model import FairnessProblem
from scheduling.metrics import fairness_summary
from tests.scheduling.fairness.fairness_documents import (
    EVIL,
    allocation_docs,
    renamed,
    rps_dsf,
    rrr_drf,
    sharing_doc,
    sharing_docs,
)


def _valid(fig: dict[str, Any]) -> None:
    """Plain JSON (no NaN, no numpy) that Plotly accepts as a figure."""
    text = json.dumps(fig, allow_nan=False)
    assert json.loads(text) == fig
    go.Figure(fig)  # raises on an unknown or invalid property


def _named(fig: dict[str, Any], name: str) -> dict[str, Any]:
    return next(tr for tr in fig["data"] if tr.get("name") == name)


def _shade(fig: dict[str, Any], framework: str) -> dict[str, Any]:
    """The shading trace of ``framework`` (its name carries the unfairness area)."""
    return next(tr for tr in fig["data"] if tr["name"].startswith(f"{framework}: below fair share"))


def _shaded_area(x: list[float], lower: list[float], upper: list[float]) -> float:
    """Area between two step lines (``hv``) drawn on the same x: the fill between them."""
    return sum((u - lo) * (b - a) for a, b, lo, u in zip(x[:-1], x[1:], lower[:-1], upper[:-1], strict=True))


def three_servers() -> dict[str, Any]:
    """Two c1 servers and one c2; two trials: f1 (3, 1, 0) then (5, 1, 2), f2 (0, 2, 4) then (0, 0, 4).

    Means: f1 (4, 1, 1), f2 (0, 1, 4); sample std sqrt(2) where the trials differ by 2.
    By VM type: f1 has 5 tasks on c1 (2.5 per server), 1 on c2; f2 has 1 on c1, 4 on c2.
    """
    p = FairnessProblem(
        resources=("cpu", "mem"), machines=("c1#1", "c1#2", "c2#1"), machine_types=("c1", "c1", "c2"),
        capacity=np.array([[100.0, 30.0], [100.0, 30.0], [30.0, 100.0]]), frameworks=("f1", "f2"),
        demand=np.array([[5.0, 1.0], [1.0, 5.0]]), weight=np.ones(2), allowed=np.ones((2, 3), bool),
    )
    x = np.array([[[3, 1, 0], [0, 2, 4]], [[5, 1, 2], [0, 0, 4]]], dtype=float)
    return allocation_document(p, x, meta={"label": "two trials", "method": "progressive", "trials": 2})


# --------------------------------------------------------------------------- allocation


def test_heatmap_cells_are_the_means_and_hover_the_std() -> None:
    fig = allocation_heatmap_figure(rps_dsf())
    _valid(fig)
    (hm,) = fig["data"]
    assert hm["type"] == "heatmap" and hm["x"] == ["c1#1", "c2#1"] and hm["y"] == ["f1", "f2"]
    assert hm["z"] == [[19.0, 2.0], [2.0, 19.0]]  # paper 000's Table I, rPS-DSF
    assert hm["customdata"] == [[0.0, 0.0], [0.0, 0.0]] and "std" in hm["hovertemplate"]
    assert hm["colorscale"] == [[s, c] for s, c in HEAT] and hm["zmin"] == 0 and "texttemplate" in hm
    assert fig["layout"]["yaxis"]["autorange"] == "reversed"  # the first framework on top

    drf = allocation_heatmap_figure(rrr_drf())["data"][0]
    assert drf["z"] == [[6.25, 4.75], [4.75, 6.25]]
    assert drf["customdata"][0][0] == pytest.approx(2.5)  # 5, 5, 5, 10


def test_heatmap_by_vm_type_sums_the_servers_of_a_type() -> None:
    doc = three_servers()
    by_server = allocation_heatmap_figure(doc)["data"][0]
    assert by_server["z"] == [[4.0, 1.0, 1.0], [0.0, 1.0, 4.0]]
    assert by_server["customdata"][0] == pytest.approx([2**0.5, 0.0, 2**0.5])
    fig = allocation_heatmap_figure(doc, by="vm_type")
    _valid(fig)
    hm = fig["data"][0]
    assert hm["x"] == ["c1", "c2"] and hm["z"] == [[5.0, 1.0], [1.0, 4.0]]
    # [servers, mean per server, largest per-server std]
    assert hm["customdata"][0][0] == [2, 2.5, pytest.approx(2**0.5)]
    assert hm["customdata"][1][1] == [1, 4.0, 0.0]
    assert "VM type" in fig["layout"]["title"]["text"]
    # "auto" switches to VM types beyond max_machines servers.
    assert allocation_heatmap_figure(doc, max_machines=2)["data"][0]["x"] == ["c1", "c2"]
    assert allocation_heatmap_figure(doc, max_machines=3)["data"][0]["x"] == ["c1#1", "c1#2", "c2#1"]


def test_totals_bars_are_the_means_with_std_error_bars() -> None:
    fig = allocation_totals_figure(allocation_docs())
    _valid(fig)
    f1 = _named(fig, "f1")
    assert f1["type"] == "bar" and f1["x"] == ["RRR-DRF", "rPS-DSF"] and f1["y"] == [11.0, 21.0]
    assert f1["error_y"]["array"] == [pytest.approx(2.0), 0.0] and f1["error_y"]["visible"] is True
    total = _named(fig, "Total (mean ± std)")
    assert total["y"] == [22.0, 42.0] and total["error_y"]["array"] == [pytest.approx(4.0), 0.0]
    assert not any(tr["name"].startswith("Task efficiency") for tr in fig["data"])  # weights all 1
    assert fig["layout"]["barmode"] == "group"
    ticks = fig["layout"]["xaxis"]["ticktext"]
    assert variant_colours(["RRR-DRF", "rPS-DSF"])["RRR-DRF"] in ticks[0]

    weighted = allocation_totals_figure({"w": rps_dsf(weights=(2.0, 1.0))})
    assert _named(weighted, "Task efficiency (eq. 10)")["y"] == [63.0]


def test_stranded_bars_are_fractions_of_capacity_per_variant() -> None:
    docs = allocation_docs()
    fig = stranded_figure(docs)
    _valid(fig)
    drf, rps = _named(fig, "RRR-DRF"), _named(fig, "rPS-DSF")
    assert drf["x"] == ["cpu", "mem"] and drf["y"] == [pytest.approx(64 / 130, abs=1e-5)] * 2
    assert rps["y"] == [pytest.approx(4 / 130, abs=1e-5)] * 2
    assert rps["customdata"][0] == [4.0, 130.0, pytest.approx(4 / 130)]
    assert rps["marker"]["color"] == variant_colours(docs)["rPS-DSF"]
    assert fig["layout"]["yaxis"]["tickformat"] == ".0%"


def test_outcomes_show_each_allocation_and_its_frequency() -> None:
    fig = outcomes_figure(rrr_drf())
    _valid(fig)
    f1, f2 = _named(fig, "f1"), _named(fig, "f2")
    assert fig["layout"]["yaxis"]["ticktext"] == ["#1: 3 trials (75%)", "#2: 1 trial (25%)"]
    assert f1["x"] == [10.0, 14.0] and f1["base"] == [0.0, 0.0]  # 5 + 5, then 10 + 4
    assert f2["x"] == [10.0, 14.0] and f2["base"] == [10.0, 14.0]  # stacked after f1
    assert f1["customdata"][1] == "10 on c1#1, 4 on c2#1"


def test_allocation_figures_keys() -> None:
    docs = allocation_docs()
    figs = allocation_figures(docs)
    # rPS-DSF's single trial has one outcome: no outcomes chart for it.
    assert list(figs) == ["heatmap:RRR-DRF", "heatmap:rPS-DSF", "totals", "stranded", "outcomes:RRR-DRF"]
    for fig in figs.values():
        _valid(fig)
    with pytest.raises(ValueError, match="not a document of a allocation study"):
        allocation_figures({"s": sharing_doc()})
    assert allocation_figures({}) == {}


# --------------------------------------------------------------------------- sharing


def test_shaded_area_is_the_unfairness_area() -> None:
    doc = sharing_doc()
    for view in ("panels", "overlay"):
        fig = share_timeline_figure(doc, view=view)  # type: ignore[arg-type]
        _valid(fig)
        for fw, area in (("a", 3.0), ("b", 0.0)):
            share, shade = _named(fig, f"{fw}: share"), _shade(fig, fw)
            assert shade["fill"] == "tonexty" and fig["data"].index(shade) == fig["data"].index(share) + 1
            assert shade["x"] == share["x"]
            assert _shaded_area(share["x"], share["y"], shade["y"]) == pytest.approx(area)
            assert doc["fairness"]["frameworks"][fw]["unfairness_area"] == pytest.approx(area)
    fig = share_timeline_figure(doc)
    a_share, a_shade = _named(fig, "a: share"), _named(fig, "a: below fair share (3 share·s, 20.0%)")
    # Shaded 10-20 s only: at 30-40 s a waits alone (fair share 1) but nobody contends.
    shaded = zip(a_share["x"], a_share["y"], a_shade["y"], strict=True)
    assert [x for x, lo, hi in shaded if hi > lo] == [10.0]
    assert _named(fig, "a: fair share")["line"]["dash"] == "dash"
    held = _named(fig, "a: share with offers held")
    assert held["y"][1] == pytest.approx(0.3) and held["line"]["dash"] == "dot"  # 0.2 + 0.1 held
    assert all(tr["line"]["shape"] == "hv" for tr in fig["data"])
    # One panel per framework; the overlay puts all in one.
    assert {tr.get("yaxis") for tr in fig["data"]} == {"y", "y2"}
    assert {tr.get("yaxis") for tr in share_timeline_figure(doc, view="overlay")["data"]} == {"y"}


def test_no_held_line_without_offers_and_the_window_bounds_the_shading() -> None:
    doc = sharing_doc()
    doc["timeline"]["held"] = {"a": [0.0] * 5, "b": [0.0] * 5}
    fig = share_timeline_figure(doc)
    assert not any("offers held" in tr["name"] for tr in fig["data"])
    doc["fairness"]["window"] = [0.0, 10.0]  # contention ends before a's shortfall
    fig = share_timeline_figure(doc)
    share = _named(fig, "a: share")
    assert _shade(fig, "a")["y"] == share["y"]


def test_downsampled_share_timeline_keeps_the_step_shape() -> None:
    rng = np.random.default_rng(8)
    n = 5000
    t = np.cumsum(rng.integers(1, 4, n)).astype(float)
    a = rng.integers(2, 7, n) / 8  # 0.25 to 0.75 ...
    a[1234] = 1.0  # ... but one short spike to the top
    a[4321] = 0.0  # ... and a dip to nothing
    b = 1.0 - a
    fair = np.full((n, 2), 0.5)
    summary = fairness_summary(t, np.c_[a, b], fair, ["a", "b"], np.ones(2))
    doc = sharing_doc()
    doc["timeline"] = {"t": t.tolist(), "share": {"a": a.tolist(), "b": b.tolist()},
                       "fair_share": {"a": [0.5] * n, "b": [0.5] * n}}
    doc["fairness"] = {"contention_s": summary["contention_s"], "frameworks": summary["frameworks"]}
    fig = share_timeline_figure(doc, max_points=300)
    _valid(fig)
    share, shade = _named(fig, "a: share"), _shade(fig, "a")
    assert 10 < len(share["x"]) <= 300 and shade["x"] == share["x"]
    divisor = 60.0  # the span is minutes long, drawn with 4 decimals (7 significant digits)
    index = {round(v, 4): k for k, v in enumerate(t / divisor)}
    assert len(index) == n
    kept = [index[round(x, 4)] for x in share["x"]]  # every kept time is an original time ...
    assert kept == sorted(kept) and kept[0] == 0 and kept[-1] == n - 1
    assert share["y"] == pytest.approx(a[kept].tolist())  # ... holding its original value
    assert 1234 in kept and 1235 in kept and 4321 in kept and 4322 in kept  # extremes and where they end
    assert all(hi >= lo for lo, hi in zip(share["y"], shade["y"], strict=True))
    assert all(tr["line"]["shape"] == "hv" for tr in fig["data"])
    # Undownsampled, the shading is exactly the document's area.
    full = share_timeline_figure(doc, max_points=n)
    s, u = _named(full, "a: share"), _shade(full, "a")
    assert _shaded_area(s["x"], s["y"], u["y"]) * divisor == pytest.approx(summary["frameworks"]["a"][
        "unfairness_area"], rel=1e-5)


def test_running_tasks_one_panel_per_configuration() -> None:
    docs = sharing_docs()
    fig = running_tasks_figure(docs)
    _valid(fig)
    runs = [tr for tr in fig["data"] if tr["name"] == "a"]
    assert [tr["yaxis"] for tr in runs] == ["y", "y2"] and runs[0]["y"] == [4.0, 1.0, 4.0, 0.0, 0.0]
    pending = [tr for tr in fig["data"] if tr["name"] == "a: pending"]
    assert pending[0]["visible"] == "legendonly" and pending[0]["y"] == [3.0, 3.0, 0.0, 1.0, 0.0]
    assert fig["layout"]["yaxis"]["title"]["text"] == "refuse 5 s"
    one = running_tasks_figure(sharing_doc())  # a single document
    assert {tr["name"] for tr in one["data"]} == {"a", "b", "a: pending", "b: pending"}


def test_unfairness_completion_and_utilisation() -> None:
    docs = sharing_docs()
    fig = unfairness_figure(docs)
    _valid(fig)
    assert _named(fig, "a")["y"] == [pytest.approx(20.0), 0.0]
    assert _named(fig, "b")["y"] == [0.0, pytest.approx(20.0)]
    assert _named(fig, "a")["customdata"][0] == [pytest.approx(80.0), pytest.approx(3.0)]

    fig = sharing_completion_figure(docs)
    _valid(fig)
    finish = [tr for tr in fig["data"] if tr["name"] == "a"]
    assert finish[0]["y"] == [40.0, 40.0] and finish[1]["y"] == [5.0, 5.0] and finish[1]["yaxis"] == "y2"
    assert _named(fig, "Makespan")["y"] == [40.0, 35.0]
    assert fig["layout"]["yaxis"]["title"]["text"] == "Last task finished (s)"

    assert sharing_utilisation_figure(docs, view="raw") == utilisation_figure(docs, view="raw")
    cpu = _named(sharing_utilisation_figure(docs, view="raw"), "refuse 5 s")
    assert cpu["y"] == [1.0, 0.875, 1.0, 0.0, 0.0]


def test_sharing_figures_keys_and_json() -> None:
    docs = sharing_docs()
    figs = sharing_figures(docs)
    assert list(figs) == [
        "share:refuse 5 s", "share:refuse 5 s@overlay", "share:refuse 1 s", "share:refuse 1 s@overlay",
        "unfairness", "running", "utilisation", "utilisation@raw", "utilisation@multiples", "completion",
    ]
    for fig in figs.values():
        _valid(fig)
    one = sharing_figures({"only": sharing_doc("only")}, max_points=50)
    assert "utilisation@multiples" not in one
    with pytest.raises(ValueError, match="not a document of a sharing study"):
        sharing_figures({"r": rps_dsf()})


# --------------------------------------------------------------------------- across figures


def test_names_are_escaped_everywhere() -> None:
    alloc = {EVIL: renamed(rrr_drf(), "f1", EVIL), "ok": rps_dsf()}
    sharing = {EVIL: renamed(sharing_doc(), "a", EVIL), "ok": sharing_doc("ok")}
    figures = [*allocation_figures(alloc).values(), *sharing_figures(sharing).values()]
    text = json.dumps(figures, ensure_ascii=False)
    assert EVIL not in text and "&lt;b&gt;x&lt;/b&gt;" in text
    for fig in figures:
        _valid(fig)


def test_a_framework_keeps_its_colour_and_variants_take_the_scheduler_palette() -> None:
    figs = {**allocation_figures(allocation_docs()), **sharing_figures(sharing_docs())}
    seen: dict[str, set[str]] = {}
    for key, fig in figs.items():
        if key.startswith("utilisation") or key == "stranded":
            continue  # drawn per variant
        for tr in fig["data"]:
            colour = (tr.get("marker") or {}).get("color") or (tr.get("line") or {}).get("color")
            name = str(tr.get("name") or "").split(":")[0]
            if name in ("f1", "f2", "a", "b"):
                seen.setdefault(name, set()).add(colour)
    assert all(len(c) == 1 for c in seen.values()), seen
    assert {c for cs in seen.values() for c in cs} <= set(PALETTES["framework"].colours)
    assert variant_colours(["x", "y"]) == scheduler_colours(["x", "y"])


def test_missing_values_are_gaps_not_nan() -> None:
    doc = copy.deepcopy(rrr_drf())
    doc["tasks"]["f1"] = {"mean": None, "std": None}
    doc["total_tasks"] = None
    doc["std"]["f2"]["c1#1"] = None
    doc["machines"][0]["capacity"]["cpu"] = 0
    for fig in allocation_figures({"v": doc, "w": rps_dsf()}).values():
        _valid(fig)
    assert _named(allocation_totals_figure({"v": doc}), "f1")["y"] == [None]
    s = copy.deepcopy(sharing_doc())
    s["completion"]["a"] = {}
    s["makespan_s"] = None
    s["fairness"]["frameworks"]["a"]["unfairness_pct"] = None
    for fig in sharing_figures({"s": s}).values():
        _valid(fig)


def test_heatmap_prints_the_standard_deviation_a_report_cannot_hover() -> None:
    """Issue 22: the PDF's heatmap captions said "hover for the standard deviation"."""
    for doc in (rps_dsf(), rrr_drf()):
        for by in ("machine", "vm_type"):
            fig = allocation_heatmap_figure(doc, by=by)
            captions = " ".join(a["text"] for a in fig["layout"].get("annotations", []))
            assert "hover" not in captions.lower()
    drf = allocation_heatmap_figure(rrr_drf())
    assert drf["data"][0]["texttemplate"] == "%{z:.3~r} ± %{customdata:.2~r}"
    assert "± their sample standard deviation" in drf["layout"]["annotations"][0]["text"]
    exact = allocation_heatmap_figure(rps_dsf())  # no spread: the means alone
    assert exact["data"][0]["texttemplate"] == "%{z:.3~r}"
