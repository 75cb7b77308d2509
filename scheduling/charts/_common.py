"""Shared helpers of the chart builders: colours, units, escaping and JSON-safe numbers."""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..result_document import job_column

#: A Plotly figure as plain JSON-ready data: ``{"data": [...], "layout": {...}}``.
Figure = dict[str, Any]
#: A result document, ``SimulationResult.to_dict()`` (see docs/results.md).
Result = Mapping[str, Any]

#: Fixed colours of the named schedulers, so that a scheduler keeps its colour on every page.
#: Okabe-Ito colours (readable by colour-blind viewers), yellow left out (unreadable on white).
SCHEDULER_COLOURS: dict[str, str] = {
    "fifo-spread": "#0072B2",
    "fifo-consolidate": "#56B4E9",
    "morpheus": "#009E73",
    "edf-bfd": "#D55E00",
    "edf-ilp": "#CC79A7",
}
#: Colours given, in order of appearance, to the schedulers without a fixed colour.
EXTRA_SCHEDULER_COLOURS: tuple[str, ...] = (
    "#E69F00", "#000000", "#8C564B", "#7F7F7F", "#17BECF", "#BCBD22", "#9467BD", "#1F3A93",
)
#: Colours of frameworks (tenants), by sorted name (Tableau 10).
FRAMEWORK_COLOURS: tuple[str, ...] = (
    "#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F",
    "#EDC948", "#B07AA1", "#FF9DA7", "#9C755F", "#BAB0AC",
)
#: Colours of VM types, in the order the scenario lists them.
VM_TYPE_COLOURS: tuple[str, ...] = (
    "#1B9E77", "#D95F02", "#7570B3", "#E7298A", "#66A61E",
    "#E6AB02", "#A6761D", "#666666", "#1F78B4", "#B2DF8A",
)
MET_COLOUR = "#009E73"
MISSED_COLOUR = "#D55E00"
LOWER_BOUND_COLOUR = "#444444"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"


def scheduler_colours(names: Iterable[str]) -> dict[str, str]:
    """Colour of each scheduler: fixed for the named schedulers, then a palette in order.

    >>> scheduler_colours(["edf-bfd:rut.cpu=0.5", "edf-bfd"])
    {'edf-bfd:rut.cpu=0.5': '#E69F00', 'edf-bfd': '#D55E00'}
    """
    out: dict[str, str] = {}
    k = 0
    for name in names:
        if name in SCHEDULER_COLOURS:
            out[name] = SCHEDULER_COLOURS[name]
        else:
            out[name] = EXTRA_SCHEDULER_COLOURS[k % len(EXTRA_SCHEDULER_COLOURS)]
            k += 1
    return out


def palette_map(names: Iterable[str], palette: Sequence[str]) -> dict[str, str]:
    """Colour names from ``palette`` in the order given, cycling when there are more names."""
    return {name: palette[i % len(palette)] for i, name in enumerate(dict.fromkeys(names))}


def framework_colours(result: Result) -> dict[str, str]:
    """Colour of each framework of a result, by sorted name (the same in every figure)."""
    names = {str(f or "default") for f in job_column(result, "framework")}
    fairness = result.get("fairness") or {}
    names.update(str(f) for f in (fairness.get("frameworks") or {}))
    return palette_map(sorted(names), FRAMEWORK_COLOURS)


def vm_type_names(results: Mapping[str, Result]) -> list[str]:
    """VM type names in the scenario's order, united over the results."""
    names: dict[str, None] = {}
    for r in results.values():
        for vt in r.get("vm_types") or []:
            names[str(vt["name"])] = None
        for name in (r.get("cost_by_vm_type") or {}):
            names[str(name)] = None
        for name in ((r.get("timeline") or {}).get("active_vms") or {}):
            names[str(name)] = None
    return list(names)


def text(value: Any) -> str:
    """A user-supplied string made safe for Plotly text (names, hover, ticks, titles).

    Plotly.js renders text as pseudo-HTML and decodes ``&amp;``, ``&lt;`` and ``&gt;``, so
    escaping these keeps a name such as ``<b>x</b>`` displayed literally.
    """
    return html.escape(str(value), quote=False)


def time_unit(max_seconds: float) -> tuple[float, str]:
    """Divisor and axis unit for a time axis spanning ``max_seconds``: s, min or h."""
    if max_seconds >= 3 * 3600:
        return 3600.0, "h"
    if max_seconds >= 3 * 60:
        return 60.0, "min"
    return 1.0, "s"


def round_sig(values: Any, sig: int = 7) -> list[float | None]:
    """Values as plain floats rounded to ``sig`` significant digits of the largest one.

    Non-finite values become ``None`` (a gap), so the output always passes ``json.dumps``
    with ``allow_nan=False``. Rounding relative to the largest magnitude keeps the chart
    payload small without visible change.
    """
    arr = np.asarray(values, dtype=float).ravel()
    if arr.size == 0:
        return []
    finite = np.isfinite(arr)
    if finite.any():
        top = float(np.max(np.abs(arr[finite])))
        decimals = sig - 1 - (math.floor(math.log10(top)) if top > 0 else 0)
        arr = np.round(arr, max(0, min(decimals, 12)))
        arr = arr + 0.0  # turn -0.0 into 0.0
    return [float(x) if ok else None for x, ok in zip(arr.tolist(), finite.tolist(), strict=True)]


def fmt(value: float, digits: int = 4) -> str:
    """A number for labels: ``digits`` significant digits, thousands separators, no exponent.

    >>> fmt(50540.2), fmt(610.7234), fmt(0.0401234), fmt(0)
    ('50,540', '610.7', '0.04012', '0')
    """
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    if abs(value) >= 10 ** (digits - 1):
        return f"{value:,.0f}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{value:,.{decimals}f}".rstrip("0").rstrip(".")


def clock(seconds: float) -> str:
    """Time since the scenario's start as ``H:MM:SS`` (tenths below a minute).

    >>> clock(7384), clock(42.25), clock(183245)
    ('2:03:04', '0:00:42.2', '50:54:05')
    """
    if seconds < 60 and seconds != int(seconds):
        return f"0:00:{seconds:04.1f}"
    whole = round(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


#: d3-format of numbers in hover text, like :func:`fmt`.
D3_NUM = ",.4~r"


def num(value: Any) -> float | None:
    """A plain float, or ``None`` for missing / non-finite values."""
    if value is None or isinstance(value, bool):
        return None
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def base_layout(title: str, *, height: int = 420, **extra: Any) -> dict[str, Any]:
    """Layout shared by every figure: title, font, margins, legend, white background."""
    layout: dict[str, Any] = {
        "title": {"text": title, "x": 0.01, "xanchor": "left"},
        "font": {"family": FONT, "size": 13, "color": "#222222"},
        "height": height,
        # The legend sits at the bottom of the figure (container coordinates), below the x
        # axis' title whatever the plot's height; the bottom margin leaves it room.
        "margin": {"l": 70, "r": 20, "t": 60, "b": 110},
        "legend": {"orientation": "h", "yref": "container", "yanchor": "bottom", "y": 0.01, "x": 0},
        "plot_bgcolor": "#FFFFFF",
        "paper_bgcolor": "#FFFFFF",
        "hoverlabel": {"namelength": -1},
    }
    layout.update(extra)
    return layout


def axis(title: str, **extra: Any) -> dict[str, Any]:
    """An axis with a title, light grid lines and a visible zero line."""
    ax: dict[str, Any] = {
        "title": {"text": title},
        "showgrid": True,
        "gridcolor": "#E5E5E5",
        "zeroline": True,
        "zerolinecolor": "#BBBBBB",
        "linecolor": "#888888",
        "showline": True,
        "ticks": "outside",
    }
    ax.update(extra)
    return ax


def stacked_rows(n_rows: int, gap: float = 0.06) -> list[tuple[float, float]]:
    """Vertical domains, top row first, of ``n_rows`` subplots sharing an x axis."""
    n = max(1, n_rows)
    gap = gap if n > 1 else 0.0
    height = (1.0 - gap * (n - 1)) / n
    out = []
    for i in range(n):
        top = 1.0 - i * (height + gap)
        out.append((max(0.0, round(top - height, 6)), min(1.0, round(top, 6))))
    return out


def axis_key(kind: str, i: int) -> str:
    """Layout key of the i-th (0-based) axis: ``xaxis``, ``xaxis2`` ..."""
    return kind if i == 0 else f"{kind}{i + 1}"


def axis_ref(kind: str, i: int) -> str:
    """Trace reference of the i-th (0-based) axis: ``x``, ``x2`` ..."""
    return kind[0] if i == 0 else f"{kind[0]}{i + 1}"


def timeline_end(results: Iterable[Result]) -> float:
    """The latest timeline time over the results (0 when there is none)."""
    end = 0.0
    for r in results:
        t = (r.get("timeline") or {}).get("t") or []
        if t:
            end = max(end, num(t[-1]) or 0.0)
    return end
