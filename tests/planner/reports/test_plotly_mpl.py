"""The matplotlib renderer of our Plotly figure dicts, feature by feature, on small hand-made figures."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_hex, to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from planner.reports.plotly_mpl import draw_figure, plain_text
from scheduling.cost.charts import active_vms_figure, gantt_figure

RECT = (0.1, 0.2, 0.8, 0.7)


def _draw(fig: dict[str, Any]) -> tuple[Figure, list[Any]]:
    page = Figure(figsize=(8, 6))
    return page, draw_figure(page, fig, RECT)


def _bars(ax: Any) -> list[Rectangle]:
    return [p for p in ax.patches if isinstance(p, Rectangle)]


def test_step_and_linear_lines_with_dash_width_and_gaps() -> None:
    fig = {
        "data": [
            {
                "type": "scatter",
                "mode": "lines",
                "name": "a",
                "x": [0, 1, 2],
                "y": [1, None, 3],
                "line": {"shape": "hv", "color": "#0072B2", "width": 2, "dash": "dash"},
            },
            {
                "type": "scatter",
                "mode": "lines",
                "name": "b",
                "x": [0, 2],
                "y": [0, 2],
                "line": {"color": "#D55E00"},
            },
        ],
        "layout": {"xaxis": {"title": {"text": "Time (h)"}}, "yaxis": {"title": {"text": "Cost ($)"}}},
    }
    _, (ax,) = _draw(fig)
    a, b = ax.get_lines()
    assert a.get_drawstyle() == "steps-post" and b.get_drawstyle() == "default"
    assert to_hex(a.get_color()).upper() == "#0072B2" and a.get_linestyle() == "--"
    assert a.get_linewidth() == pytest.approx(1.5)  # 2 CSS px
    assert np.isnan(a.get_ydata()[1])  # a gap, not a zero
    assert ax.get_xlabel() == "Time (h)" and ax.get_ylabel() == "Cost ($)"


def test_stacked_areas_add_up_and_fill_between_traces() -> None:
    fig = active_vms_figure(
        {
            "s": {
                "vm_types": [{"name": "a"}, {"name": "b"}],
                "timeline": {"t": [0.0, 60.0, 120.0], "active_vms": {"a": [1, 2, 0], "b": [3, 1, 0]}},
            }
        },
        mode="stacked",
    )
    _, (ax,) = _draw(fig)
    tops = [line.get_ydata().tolist() for line in ax.get_lines()]
    assert tops == [[1, 2, 0], [4, 3, 0]]  # b is drawn on top of a
    areas = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(areas) == 2
    fill = {
        "data": [
            {"type": "scatter", "mode": "lines", "name": "share", "x": [0, 1], "y": [0.2, 0.2]},
            {
                "type": "scatter",
                "mode": "lines",
                "name": "below",
                "x": [0, 1],
                "y": [0.5, 0.5],
                "fill": "tonexty",
                "fillcolor": "rgba(255,0,0,0.3)",
                "line": {"width": 0},
            },
        ],
        "layout": {},
    }
    _, (ax,) = _draw(fill)
    (area,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    ys = area.get_paths()[0].vertices[:, 1]
    assert ys.min() == pytest.approx(0.2) and ys.max() == pytest.approx(0.5)
    assert tuple(area.get_facecolor()[0]) == pytest.approx(to_rgba((1.0, 0.0, 0.0, 0.3)))
    assert len(ax.get_lines()) == 1  # a width-0 line is not drawn


def test_subplots_by_domain_share_x_and_hide_inner_tick_labels() -> None:
    fig = {
        "data": [
            {"type": "scatter", "mode": "lines", "x": [0, 1], "y": [0, 1], "xaxis": "x", "yaxis": "y"},
            {"type": "scatter", "mode": "lines", "x": [0, 2], "y": [0, 1], "xaxis": "x2", "yaxis": "y2"},
        ],
        "layout": {
            "yaxis": {"domain": [0.55, 1.0], "anchor": "x", "tickformat": ".0%"},
            "xaxis": {"anchor": "y", "showticklabels": False},
            "yaxis2": {"domain": [0.0, 0.45], "anchor": "x2"},
            "xaxis2": {"anchor": "y2", "matches": "x", "title": {"text": "Time (min)"}},
        },
    }
    _, (top, bottom) = _draw(fig)
    assert top.get_position().y0 == pytest.approx(0.2 + 0.7 * 0.55)
    assert bottom.get_position().y1 == pytest.approx(0.2 + 0.7 * 0.45)
    assert top.get_shared_x_axes().joined(top, bottom)
    assert top.yaxis.get_major_formatter()(0.5, 0) == "50%"
    assert bottom.get_xlabel() == "Time (min)"


def test_stacked_and_grouped_bars_with_coloured_category_ticks() -> None:
    fig = {
        "data": [
            {
                "type": "bar",
                "name": "small",
                "x": ["fifo", "edf"],
                "y": [1.0, 2.0],
                "marker": {"color": "#332288"},
                "text": [1, 2],
            },
            {
                "type": "bar",
                "name": "big",
                "x": ["fifo", "edf"],
                "y": [3.0, 0.5],
                "marker": {"color": "#88CCEE"},
            },
            {
                "type": "scatter",
                "mode": "markers",
                "name": "Lower bound",
                "x": ["fifo", "edf"],
                "y": [2.0, 2.0],
                "marker": {"symbol": "line-ew-open", "color": "#444444"},
            },
        ],
        "layout": {
            "barmode": "stack",
            "annotations": [{"x": "edf", "y": 2.5, "text": "2.5", "showarrow": False}],
            "xaxis": {
                "type": "category",
                "tickvals": ["fifo", "edf"],
                "ticktext": ['<span style="color:#0072B2"><b>fifo</b></span>', "edf"],
            },
        },
    }
    _, (ax,) = _draw(fig)
    bars = _bars(ax)
    assert [(b.get_x() + b.get_width() / 2, b.get_y(), b.get_height()) for b in bars] == [
        (0, 0, 1.0),
        (1, 0, 2.0),
        (0, 1.0, 3.0),
        (1, 2.0, 0.5),
    ]
    labels = ax.get_xticklabels()
    assert [t.get_text() for t in labels] == ["fifo", "edf"]
    assert to_hex(labels[0].get_color()).upper() == "#0072B2"
    assert [t.get_text() for t in ax.texts] == ["1", "2", "2.5"]
    grouped = {
        "data": [
            {"type": "bar", "name": "a", "x": [0, 1], "y": [1, 2]},
            {"type": "bar", "name": "b", "x": [0, 1], "y": [3, 4]},
        ],
        "layout": {"barmode": "group"},
    }
    _, (ax,) = _draw(grouped)
    xs = sorted(round(b.get_x() + b.get_width() / 2, 6) for b in _bars(ax))
    assert xs == [-0.2, 0.2, 0.8, 1.2]


def test_gantt_lanes_draw_as_horizontal_bars_in_their_rows() -> None:
    result = {
        "scheduler": "s",
        "vm_types": [{"name": "v", "count": 1}],
        "jobs": [
            {"id": "a", "framework": "etl", "start_s": 0.0, "finish_s": 100.0, "placement": {"v#1": 2}},
            {"id": "b", "framework": "etl", "start_s": 50.0, "finish_s": 80.0, "placement": {"v#1": 1}},
        ],
        "vm_intervals": [{"vm": "v#1", "vm_type": "v", "on_s": 0.0, "off_s": 100.0}],
    }
    fig = gantt_figure(result)
    _, (ax,) = _draw(fig)
    bars = _bars(ax)
    _on, a, b = bars  # the VM's on period first, behind
    trace = next(t for t in fig["data"] if t["name"] == "etl")
    assert a.get_x() == pytest.approx(trace["base"][0]) and a.get_width() == pytest.approx(trace["x"][0])
    assert a.get_height() == pytest.approx(trace["width"][0])
    assert a.get_y() + a.get_height() <= b.get_y() + 1e-9 or b.get_y() + b.get_height() <= a.get_y() + 1e-9
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # top row first
    assert [t.get_text() for t in ax.get_yticklabels()] == ["v#1"]


def test_captions_legends_and_text() -> None:
    fig = {
        "data": [
            {
                "type": "scatter",
                "mode": "lines",
                "name": "a &lt;b&gt;",
                "x": [0, 1],
                "y": [0, 1],
                "legendgroup": "a",
            },
            {
                "type": "scatter",
                "mode": "lines",
                "name": "hidden",
                "x": [0, 1],
                "y": [1, 1],
                "showlegend": False,
            },
        ],
        "layout": {
            "annotations": [
                {
                    "text": "Contention: two frameworks wait.<br>share·s",
                    "xref": "paper",
                    "yref": "paper",
                    "x": 0,
                    "y": 1,
                    "xanchor": "left",
                    "yanchor": "bottom",
                }
            ]
        },
    }
    page, _ = _draw(fig)
    assert any(t.get_text() == "Contention: two frameworks wait.\nshare·s" for t in page.texts)
    (legend,) = page.legends
    assert [t.get_text() for t in legend.get_texts()] == ["a <b>"]
    assert plain_text("x<br>y &amp; <i>z</i>") == "x\ny & z"
