"""Draw the Plotly figure dicts of :mod:`scheduling.charts` with matplotlib (for the PDF report).

The PDF shows the very figures the run page shows: same series, colours, time units and
downsampling, all decided by :mod:`scheduling.charts`. This module only translates the
features those figures use; anything else in a figure is ignored:

* ``scatter`` traces: lines (``line.shape`` ``hv`` or ``linear``, ``dash``, ``width``),
  markers (``line-ew-open`` as a short horizontal line), ``fill`` ``tonexty`` / ``tozeroy``
  and ``stackgroup`` areas; ``None`` in ``x`` or ``y`` is a gap;
* ``heatmap`` traces on category axes (``z``, ``colorscale``, ``zmin``/``zmax``, the values
  in the cells with a ``texttemplate``, a colour bar);
* ``bar`` traces: vertical bars on categories or numbers (``barmode`` ``stack``, ``group``
  or ``overlay``), horizontal bars with ``base`` and per-bar ``width`` (the Gantt chart),
  ``marker.color``, ``marker.pattern`` (hatched), ``opacity``, ``text`` inside the bar;
* subplots placed by their axes' ``domain``, ``anchor`` and ``matches``;
* axes: ``title``, ``range``, ``autorange: "reversed"``, ``rangemode: "tozero"``,
  ``tickformat`` ending in ``%``, ``tickvals`` / ``ticktext`` (coloured ``<span>`` kept),
  ``showticklabels``, ``type: "category"``, ``dtick``;
* ``layout.annotations`` (paper or data coordinates), ``layout.shapes`` (lines and
  rectangles), the title and the legend (below the plot).

Figures are drawn on a :class:`matplotlib.figure.Figure` given by the caller, never
through pyplot. Text is plain (the caller turns matplotlib's mathtext off); names arrive
HTML-escaped from the figures and are unescaped here.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MultipleLocator, PercentFormatter

__all__ = ["cell_text", "draw_figure", "plain_text"]

PlotlyFigure = Mapping[str, Any]
Rect = tuple[float, float, float, float]  # left, bottom, width, height in figure fractions

_DASHES: dict[str, Any] = {
    "solid": "-",
    "dash": (0, (5, 3)),
    "dot": (0, (1, 2)),
    "dashdot": (0, (5, 2, 1, 2)),
    "longdash": (0, (9, 3)),
    "longdashdot": (0, (9, 3, 1, 3)),
}
_PX = 0.75  # Plotly sizes are CSS pixels; matplotlib's are points

#: Plotly's marker symbols as matplotlib's (any other is a circle).
_MARKERS = {"circle": "o", "square": "s", "diamond": "D", "triangle-up": "^", "cross": "P", "x": "X",
            "star": "*", "hexagon": "h"}


def _marker(symbol: Any) -> str:
    """The matplotlib marker of a Plotly ``marker.symbol`` (``line-ew*``: a horizontal tick).

    >>> _marker("diamond"), _marker("line-ew-open"), _marker(None)
    ('D', '_', 'o')
    """
    name = str(symbol or "")
    return "_" if name.startswith("line-ew") else _MARKERS.get(name, "o")


def plain_text(value: Any) -> str:
    """Plotly pseudo-HTML as plain text: tags dropped, ``<br>`` a new line, entities decoded.

    >>> plain_text('<span style="color:#D55E00"><b>edf&lt;1&gt;</b></span><br>x')
    'edf<1>\\nx'
    """
    text = re.sub(r"<br\s*/?>", "\n", str(value if value is not None else ""))
    return html.unescape(re.sub(r"<[^>]*>", "", text))


def _span_colour(value: Any) -> str | None:
    match = re.search(r"color:\s*(#[0-9A-Fa-f]{6})", str(value or ""))
    return match.group(1) if match else None


def colour(value: Any, default: str = "#444444") -> Any:
    """A Plotly colour (``#RRGGBB`` or ``rgba(r,g,b,a)``) as matplotlib reads it."""
    text = str(value or "")
    match = re.fullmatch(r"rgba?\(([\d.\s]+),([\d.\s]+),([\d.\s]+)(?:,([\d.\s]+))?\)", text.replace(" ", ""))
    if match:
        r, g, b = (float(match.group(i)) / 255.0 for i in (1, 2, 3))
        return (r, g, b, float(match.group(4)) if match.group(4) else 1.0)
    return text if text.startswith("#") else default


def _numbers(values: Sequence[Any] | None) -> np.ndarray:
    return np.array(
        [v if isinstance(v, int | float) and not isinstance(v, bool) else np.nan for v in values or []],
        dtype=float,
    )


def _axis_key(ref: str, letter: str) -> str:
    """``"x2"`` -> ``"xaxis2"``; ``"x"`` -> ``"xaxis"``."""
    return f"{letter}axis{ref[1:]}"


class _Panel:
    """One pair of Plotly axes drawn as one matplotlib Axes, with its category positions."""

    def __init__(self, ax: Axes, x_key: str, y_key: str) -> None:
        self.ax = ax
        self.x_key, self.y_key = x_key, y_key
        self.categories: dict[str, int] = {}
        self.stack_top: dict[str, np.ndarray] = {}
        self.bar_bottoms: dict[int, float] = {}
        self.last_y: np.ndarray | None = None

    def x_positions(self, xs: Sequence[Any], categorical: bool) -> np.ndarray:
        if not categorical:
            return _numbers(xs)
        out = []
        for x in xs:
            out.append(self.categories.setdefault(str(x), len(self.categories)))
        return np.array(out, dtype=float)


def _panels(
    fig: Figure, layout: Mapping[str, Any], traces: Sequence[Mapping[str, Any]], rect: Rect
) -> dict[tuple[str, str], _Panel]:
    """One matplotlib Axes per pair of Plotly axes, placed by their domains inside ``rect``."""
    pairs: list[tuple[str, str]] = []
    for trace in traces:
        pair = (
            _axis_key(str(trace.get("xaxis") or "x"), "x"),
            _axis_key(str(trace.get("yaxis") or "y"), "y"),
        )
        if pair not in pairs:
            pairs.append(pair)
    for key, spec in layout.items():
        if re.fullmatch(r"yaxis\d*", key) and isinstance(spec, Mapping):
            pair = (_axis_key(str(spec.get("anchor") or "x"), "x"), key)
            if pair not in pairs:
                pairs.append(pair)
    if not pairs:
        pairs = [("xaxis", "yaxis")]
    left, bottom, width, height = rect
    panels: dict[tuple[str, str], _Panel] = {}
    first_x: dict[str, Axes] = {}
    for x_key, y_key in pairs:
        xd = (layout.get(x_key) or {}).get("domain") or [0.0, 1.0]
        yd = (layout.get(y_key) or {}).get("domain") or [0.0, 1.0]
        box = (
            left + width * xd[0],
            bottom + height * yd[0],
            width * (xd[1] - xd[0]),
            height * (yd[1] - yd[0]),
        )
        matches = (layout.get(x_key) or {}).get("matches")
        share = first_x.get(_axis_key(str(matches), "x")) if matches else None
        ax = fig.add_axes(box, sharex=share)
        first_x.setdefault(x_key, ax)
        panels[(x_key, y_key)] = _Panel(ax, x_key, y_key)
    return panels


def _legend_label(trace: Mapping[str, Any]) -> str:
    return plain_text(trace.get("name"))


def _scatter(panel: _Panel, trace: Mapping[str, Any], categorical: bool) -> Any:
    ax = panel.ax
    x = panel.x_positions(trace.get("x") or [], categorical)
    y = _numbers(trace.get("y"))
    n = min(x.size, y.size)
    x, y = x[:n], y[:n]
    line = trace.get("line") or {}
    shape = "steps-post" if line.get("shape") == "hv" else "default"
    mode = str(trace.get("mode") or "lines")
    stack = trace.get("stackgroup")
    fill = trace.get("fill")
    handle: Any = None
    lower: np.ndarray | None = None
    if stack:
        lower = panel.stack_top.get(str(stack), np.zeros(n))[:n]
        if lower.size < n:
            lower = np.concatenate([lower, np.zeros(n - lower.size)])
        y = lower + np.nan_to_num(y)
        panel.stack_top[str(stack)] = y
    elif fill == "tonexty" and panel.last_y is not None and panel.last_y.size == n:
        lower = panel.last_y
    elif fill == "tozeroy":
        lower = np.zeros(n)
    if lower is not None:
        face = colour(trace.get("fillcolor") or line.get("color"))
        if stack and trace.get("fillcolor") is None:
            face = colour(line.get("color"))
        handle = ax.fill_between(
            x,
            lower,
            y,
            step="post" if shape == "steps-post" else None,
            color=face,
            linewidth=0,
            alpha=None if isinstance(face, tuple) else (0.85 if stack else 0.35),
        )
    width = float(line.get("width", 2)) * _PX
    if "lines" in mode and width > 0:
        (handle_line,) = ax.plot(
            x,
            y,
            drawstyle=shape,
            color=colour(line.get("color")),
            linewidth=width,
            linestyle=_DASHES.get(str(line.get("dash") or "solid"), "-"),
        )
        handle = handle if stack else handle_line
    if "markers" in mode:
        marker = trace.get("marker") or {}
        symbol = _marker(marker.get("symbol"))
        size = float(marker.get("size", 6)) * _PX
        handle = ax.scatter(
            x,
            y,
            marker=symbol,
            s=size**2,
            color=colour(marker.get("color")),
            linewidths=float((marker.get("line") or {}).get("width", 1)) * 1.5,
            zorder=3,
        )
    panel.last_y = y
    return handle


def _bar(
    panel: _Panel,
    trace: Mapping[str, Any],
    layout: Mapping[str, Any],
    categorical: bool,
    group: tuple[int, int],
) -> Any:
    ax = panel.ax
    marker = trace.get("marker") or {}
    face = colour(marker.get("color"), "#888888")
    edge = marker.get("line") or {}
    hatch = "//" if (marker.get("pattern") or {}).get("shape") else None
    alpha = trace.get("opacity")
    if trace.get("orientation") == "h":
        y = _numbers(trace.get("y"))
        length = _numbers(trace.get("x"))
        base = _numbers(trace.get("base")) if trace.get("base") is not None else np.zeros(y.size)
        thickness: Any = trace.get("width", 0.8)
        thickness = _numbers(thickness) if isinstance(thickness, list) else float(thickness)
        return ax.barh(
            y,
            length,
            left=base,
            height=thickness,
            color=face,
            alpha=alpha,
            hatch=hatch,
            edgecolor=colour(edge.get("color"), "none") if edge else "none",
            linewidth=float(edge.get("width", 0)) * _PX,
        )
    x = panel.x_positions(trace.get("x") or [], categorical)
    y = np.nan_to_num(_numbers(trace.get("y")))
    mode = layout.get("barmode")
    if mode == "group":
        index, count = group
        width = 0.8 / max(1, count)
        x = x - 0.4 + width * (index + 0.5)
    else:
        width = 0.6
    bottom = np.array([panel.bar_bottoms.get(int(i), 0.0) for i in range(x.size)]) if mode == "stack" else 0.0
    bars = ax.bar(
        x,
        y,
        width,
        bottom=bottom,
        color=face,
        alpha=alpha,
        hatch=hatch,
        edgecolor="#888888" if hatch else "white",
        linewidth=0 if mode == "group" else 0.5,
    )
    if trace.get("text") is not None and mode == "stack":
        for xi, yi, b, label in zip(x, y, np.broadcast_to(bottom, y.shape), trace["text"], strict=False):
            if yi > 0 and trace.get("textposition") == "outside":  # above the stack, as Plotly puts it
                ax.text(xi, b + yi, plain_text(label), ha="center", va="bottom", fontsize=7, color="#222222")
            elif yi > 0:
                ax.text(
                    xi, b + yi / 2, plain_text(label), ha="center", va="center", fontsize=7, color="white"
                )
    if mode == "stack":
        for i, yi in enumerate(y):
            panel.bar_bottoms[i] = panel.bar_bottoms.get(i, 0.0) + float(yi)
    return bars


def _format_axis(panel: _Panel, layout: Mapping[str, Any], letter: str) -> None:
    ax = panel.ax
    key = panel.x_key if letter == "x" else panel.y_key
    spec: Mapping[str, Any] = layout.get(key) or {}
    axis = ax.xaxis if letter == "x" else ax.yaxis
    title = plain_text((spec.get("title") or {}).get("text"))
    (ax.set_xlabel if letter == "x" else ax.set_ylabel)(title)
    if str(spec.get("tickformat", "")).endswith("%"):
        axis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    categorical = spec.get("type") == "category" or bool(panel.categories and letter == "x")
    values, labels = spec.get("tickvals"), spec.get("ticktext")
    if categorical and letter == "x":
        names = [str(v) for v in values] if values else list(panel.categories)
        positions = [panel.categories.get(n, i) for i, n in enumerate(names)]
        texts = list(labels) if labels else names
        ax.set_xticks(positions, [plain_text(t) for t in texts])
        for tick, raw in zip(ax.get_xticklabels(), texts, strict=False):
            if (c := _span_colour(raw)) is not None:
                tick.set_color(c)
                tick.set_fontweight("bold")
        ax.set_xlim(-0.6, max(positions, default=0) + 0.6)
    elif values is not None:
        ticks = [float(v) for v in values]
        (ax.set_xticks if letter == "x" else ax.set_yticks)(ticks, [plain_text(t) for t in labels or ticks])
    elif spec.get("dtick"):
        axis.set_major_locator(MultipleLocator(float(spec["dtick"])))
    if spec.get("range"):
        low, high = (float(v) for v in spec["range"])
        (ax.set_xlim if letter == "x" else ax.set_ylim)(low, high)
    elif spec.get("rangemode") == "tozero":
        (ax.set_xlim if letter == "x" else ax.set_ylim)(_zero_or_low(ax, letter))
    if spec.get("autorange") == "reversed":
        (ax.invert_xaxis if letter == "x" else ax.invert_yaxis)()
    if spec.get("showticklabels") is False:
        axis.set_tick_params(labelbottom=False) if letter == "x" else axis.set_tick_params(labelleft=False)
    if spec.get("showgrid") is False:
        axis.grid(False)


def _zero_or_low(ax: Axes, letter: str) -> float:
    """0 when the data are not negative, else the current lower limit (``rangemode: "tozero"``)."""
    data_low = ax.dataLim.x0 if letter == "x" else ax.dataLim.y0
    low = (ax.get_xlim() if letter == "x" else ax.get_ylim())[0]
    return 0.0 if data_low >= 0 else float(low)


def _annotations(
    fig: Figure, layout: Mapping[str, Any], panels: Mapping[tuple[str, str], _Panel], rect: Rect
) -> None:
    left, bottom, width, height = rect
    for note in layout.get("annotations") or []:
        text = plain_text(note.get("text"))
        if not text:
            continue
        font = note.get("font") or {}
        kwargs: dict[str, Any] = {
            "ha": {"left": "left", "right": "right"}.get(str(note.get("xanchor")), "center"),
            "va": {"top": "top", "bottom": "bottom"}.get(str(note.get("yanchor")), "center"),
            "fontsize": float(font.get("size", 11)) * _PX,
            "color": colour(font.get("color"), "#222222"),
        }
        if note.get("xref") == "paper" and note.get("yref") == "paper":
            # A caption above the plot: the PDF page puts it under the page title.
            x = left + width * float(note.get("x", 0))
            y = bottom + height * float(note.get("y", 1)) + (0.008 if kwargs["va"] == "bottom" else 0)
            fig.text(x, y, text, wrap=True, **kwargs)
            continue
        x_ref, y_ref = str(note.get("xref") or "x"), str(note.get("yref") or "y")
        panel = panels.get((_axis_key(x_ref, "x"), _axis_key(y_ref, "y")))
        if panel is None:
            continue
        x = note.get("x")
        x_pos = float(panel.categories[str(x)]) if str(x) in panel.categories else x
        if not isinstance(x_pos, int | float) or not isinstance(note.get("y"), int | float):
            continue
        panel.ax.annotate(
            text,
            (x_pos, float(note["y"])),
            xytext=(0, 2 if kwargs["va"] == "bottom" else 0),
            textcoords="offset points",
            **kwargs,
        )


def _shapes(layout: Mapping[str, Any], panels: Mapping[tuple[str, str], _Panel]) -> None:
    for shape in layout.get("shapes") or []:
        panel = panels.get(
            (_axis_key(str(shape.get("xref") or "x"), "x"), _axis_key(str(shape.get("yref") or "y"), "y"))
        )
        if panel is None:
            continue
        line = shape.get("line") or {}
        x0, x1, y0, y1 = (float(shape.get(k, 0)) for k in ("x0", "x1", "y0", "y1"))
        style = {
            "color": colour(line.get("color")),
            "linewidth": float(line.get("width", 1)) * _PX,
            "linestyle": _DASHES.get(str(line.get("dash") or "solid"), "-"),
        }
        if shape.get("type") == "rect":
            panel.ax.add_patch(
                Rectangle(
                    (x0, y0),
                    x1 - x0,
                    y1 - y0,
                    facecolor=colour(shape.get("fillcolor"), "none"),
                    edgecolor=style["color"],
                    linewidth=style["linewidth"],
                )
            )
        else:
            panel.ax.plot([x0, x1], [y0, y1], **style)


def draw_figure(fig: Figure, plotly: PlotlyFigure, rect: Rect, *, legend: bool = True) -> list[Axes]:
    """Draw one Plotly figure dict of :mod:`scheduling.charts` into ``rect`` of ``fig``.

    ``rect`` is ``(left, bottom, width, height)`` in figure fractions for the plot area
    (axes domains are fractions of it); the legend goes under it and paper-referenced
    annotations (captions) above it. The figure's title is left to the caller (the PDF
    page's heading). Returns the axes drawn, top panel first.
    """
    layout: Mapping[str, Any] = plotly.get("layout") or {}
    traces: list[Mapping[str, Any]] = [t for t in plotly.get("data") or [] if t.get("visible", True) is True]
    panels = _panels(fig, layout, traces, rect)
    handles: dict[str, Any] = {}
    bar_groups: dict[str, list[Mapping[str, Any]]] = {}
    for trace in traces:
        if trace.get("type") == "bar" and trace.get("orientation") != "h":
            pair = (
                _axis_key(str(trace.get("xaxis") or "x"), "x"),
                _axis_key(str(trace.get("yaxis") or "y"), "y"),
            )
            bar_groups.setdefault(pair[0] + pair[1], []).append(trace)
    for trace in traces:
        pair = (
            _axis_key(str(trace.get("xaxis") or "x"), "x"),
            _axis_key(str(trace.get("yaxis") or "y"), "y"),
        )
        panel = panels[pair]
        categorical = (layout.get(pair[0]) or {}).get("type") == "category" or any(
            isinstance(v, str) for v in (trace.get("x") or [])[:1]
        )
        if trace.get("type") == "bar":
            group = bar_groups.get(pair[0] + pair[1], [])
            index = next((i for i, t in enumerate(group) if t is trace), 0)
            handle = _bar(panel, trace, layout, categorical, (index, len(group)))
        elif trace.get("type") == "heatmap":
            _heatmap(fig, panel, trace)
            continue  # a heatmap has a colour bar, no legend entry
        else:
            handle = _scatter(panel, trace, categorical)
        label = _legend_label(trace)
        if (
            handle is not None
            and trace.get("showlegend", True) is not False
            and label
            and label not in handles
        ):
            handles[label] = _legend_handle(trace)
    for panel in panels.values():
        panel.ax.grid(True, color="#E5E5E5", linewidth=0.6)
        panel.ax.set_axisbelow(True)
        for side in ("top", "right"):
            panel.ax.spines[side].set_visible(False)
        _format_axis(panel, layout, "x")
        _format_axis(panel, layout, "y")
    _annotations(fig, layout, panels, rect)
    _shapes(layout, panels)
    if legend and handles and layout.get("showlegend", True) is not False:
        left, bottom, _, _ = rect
        fig.legend(
            handles=list(handles.values()),
            labels=list(handles),
            loc="upper left",
            bbox_to_anchor=(left, bottom - 0.075),
            ncol=max(1, min(4, len(handles))),
            frameon=False,
            fontsize=8,
        )
    order = sorted(panels.values(), key=lambda p: -p.ax.get_position().y1)
    return [p.ax for p in order]


def cell_text(template: str, z: float, customdata: Any = None) -> str:
    """A heatmap cell's ``texttemplate`` filled as Plotly would: ``%{z}`` and ``%{customdata}``
    with their significant digits (``:.3~r``: 3); a missing value drops its part.

    >>> cell_text("%{z:.3~r} ± %{customdata:.2~r}", 6.25, 2.5), cell_text("%{z:.3~r}", 19.0)
    ('6.25 ± 2.5', '19')
    """

    def value(match: re.Match[str]) -> str:
        number = z if match.group(1) == "z" else customdata
        if isinstance(number, bool) or not isinstance(number, int | float) or not math.isfinite(number):
            return ""
        digits = re.search(r"\.(\d+)", match.group(2) or "")
        return f"{number:.{int(digits.group(1)) if digits else 3}g}"

    text = re.sub(r"%\{(z|customdata)(?::([^}]*))?\}", value, template)
    return text.removesuffix(" ± ").strip()


def _heatmap(fig: Figure, panel: _Panel, trace: Mapping[str, Any]) -> None:
    """A ``heatmap`` trace on category axes: cells coloured by ``z`` on the trace's
    ``colorscale`` (from ``zmin``), the values written in the cells when the trace has a
    ``texttemplate``, a colour bar titled as the trace's."""
    z = np.array([_numbers(row) for row in trace.get("z") or []], dtype=float)
    if z.size == 0:
        return
    xs = panel.x_positions([str(x) for x in trace.get("x") or range(z.shape[1])], True)
    ys = [plain_text(y) for y in trace.get("y") or range(z.shape[0])]
    stops = trace.get("colorscale") or [[0.0, "#FFFFFF"], [1.0, "#08306B"]]
    cmap = LinearSegmentedColormap.from_list("plotly", [(float(at), colour(c)) for at, c in stops])
    low = float(trace.get("zmin", np.nanmin(z)))
    high = float(trace.get("zmax", np.nanmax(z)))
    if not high > low:
        high = low + 1.0
    x_edges = np.append(xs - 0.5, xs[-1] + 0.5) if xs.size else np.arange(z.shape[1] + 1) - 0.5
    y_edges = np.arange(z.shape[0] + 1) - 0.5
    mesh = panel.ax.pcolormesh(x_edges, y_edges, z, cmap=cmap, vmin=low, vmax=high, edgecolors="white",
                               linewidth=1.0)
    panel.ax.set_yticks(range(len(ys)), ys)
    panel.ax.set_ylim(-0.5, len(ys) - 0.5)
    template = str(trace.get("texttemplate") or "")
    custom = trace.get("customdata") or []
    if template:
        for (row, col), value in np.ndenumerate(z):
            if np.isfinite(value):
                dark = (value - low) / (high - low) > 0.55
                extra = custom[row][col] if row < len(custom) and col < len(custom[row]) else None
                panel.ax.text(float(x_edges[col]) + 0.5, row, cell_text(template, float(value), extra),
                              ha="center", va="center", fontsize=8, color="white" if dark else "#222222")
    bar = fig.colorbar(mesh, ax=panel.ax, fraction=0.04, pad=0.02)
    title = plain_text(((trace.get("colorbar") or {}).get("title") or {}).get("text"))
    if title:
        bar.set_label(title, fontsize=8)
    bar.ax.tick_params(labelsize=7)


def _legend_handle(trace: Mapping[str, Any]) -> Any:
    """A legend key drawn like the trace: a line with its dash, or a filled patch."""
    line = trace.get("line") or {}
    marker = trace.get("marker") or {}
    if (
        trace.get("type") == "bar"
        or trace.get("stackgroup")
        or (trace.get("fill") and not line.get("width", 2))
    ):
        face = colour(marker.get("color") or trace.get("fillcolor") or line.get("color"), "#888888")
        hatch = "//" if (marker.get("pattern") or {}).get("shape") else None
        return Patch(facecolor=face, hatch=hatch, edgecolor="#888888" if hatch else "none")
    if "markers" in str(trace.get("mode")) and "lines" not in str(trace.get("mode")):
        symbol = _marker(marker.get("symbol"))
        return Line2D(
            [],
            [],
            color=colour(marker.get("color")),
            marker=symbol,
            linestyle="none",
            markersize=12,
            markeredgewidth=2,
        )
    return Line2D(
        [],
        [],
        color=colour(line.get("color")),
        linewidth=max(1.0, float(line.get("width", 2)) * _PX),
        linestyle=_DASHES.get(str(line.get("dash") or "solid"), "-"),
    )
