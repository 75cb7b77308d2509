"""Shared helpers of every paper's chart builders: units, escaping, layout, colours and JSON-safe numbers.

Colours come from :mod:`scheduling.charts.palettes` only. Papers import these through
:mod:`scheduling.charts`.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ..numbers import finite
from .palettes import colours

#: A Plotly figure as plain JSON-ready data: ``{"data": [...], "layout": {...}}``.
Figure = dict[str, Any]
#: A result document with a ``timeline`` (a cost comparison's ``SimulationResult.to_dict()``, a
#: sharing study's document; see docs/results.md).
Result = Mapping[str, Any]

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"


def scheduler_colours(names: Iterable[str]) -> dict[str, str]:
    """Colour of each scheduler (:func:`scheduling.charts.palettes.colours`).

    >>> scheduler_colours(["edf-bfd", "fifo-spread"])
    {'edf-bfd': '#D55E00', 'fifo-spread': '#0072B2'}
    """
    return colours("scheduler", names)


def variant_colours(names: Iterable[str]) -> dict[str, str]:
    """The colour of each variant or configuration: the ``scheduler`` palette's.

    >>> variant_colours(["RRR-DRF", "rPS-DSF"]) == scheduler_colours(["RRR-DRF", "rPS-DSF"])
    True
    """
    return scheduler_colours(names)


def colour_ticks(layout: dict[str, Any], results: Mapping[str, Result]) -> None:
    """Write each scheduler's (each variant's) x tick label in its colour, as in the line charts."""
    colours_ = scheduler_colours(results)
    shown = short_texts(results)
    layout["xaxis"]["tickvals"] = [text(n) for n in results]
    layout["xaxis"]["ticktext"] = [
        f'<span style="color:{colours_[n]}"><b>{shown[str(n)]}</b></span>' for n in results
    ]


def text(value: Any) -> str:
    """A user-supplied string made safe for Plotly text (names, hover, ticks, titles).

    Plotly.js renders text as pseudo-HTML and decodes ``&amp;``, ``&lt;`` and ``&gt;``, so
    escaping these keeps a name such as ``<b>x</b>`` displayed literally.
    """
    return html.escape(str(value), quote=False)


#: Tick labels and panel titles longer than this many characters are shortened (the hover and
#: the legend keep the whole name).
SHORT_LABEL = 26


def short_text(value: Any, limit: int = SHORT_LABEL) -> str:
    """:func:`text`, shortened to ``limit`` characters with an ellipsis (for ticks and axis titles).

    >>> short_text("Marathon (greedy) against Scylla (first-fit, refuse 5 s)")
    'Marathon (greedy) against…'
    >>> short_text("a<b")
    'a&lt;b'
    """
    value = str(value)
    if len(value) > limit:
        value = value[: limit - 1].rstrip() + "…"
    return text(value)


def short_texts(names: Iterable[Any], limit: int = SHORT_LABEL) -> dict[str, str]:
    """Each name as a short, still distinct label: the words every name starts with are
    dropped (an ellipsis stands for them) before shortening to ``limit``.

    >>> short_texts(["Marathon against Scylla (first-fit, refuse 5 s)",
    ...              "Marathon against Scylla (bin-packing, refuse 0 s)"])
    {'Marathon against Scylla (first-fit, refuse 5 s)': '…(first-fit, refuse 5 s)', \
'Marathon against Scylla (bin-packing, refuse 0 s)': '…(bin-packing, refuse 0 s)'}
    >>> short_texts(["edf-bfd", "fifo-spread"])
    {'edf-bfd': 'edf-bfd', 'fifo-spread': 'fifo-spread'}
    """
    keys = [str(n) for n in names]
    if len(keys) < 2 or all(len(k) <= limit for k in keys):
        return {k: short_text(k, limit) for k in keys}
    words = [k.split(" ") for k in keys]
    common = 0
    while all(len(w) > common + 1 for w in words) and len({w[common] for w in words}) == 1:
        common += 1
    lead = "…" if common else ""
    return {k: short_text(lead + " ".join(w[common:]), limit) for k, w in zip(keys, words, strict=True)}


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


def caption(layout: dict[str, Any], lines: str) -> None:
    """Put an explanation under the figure's title (paper coordinates, above the plot)."""
    layout.setdefault("annotations", []).append({
        "text": lines, "xref": "paper", "yref": "paper", "x": 0, "y": 1.0, "xanchor": "left",
        "yanchor": "bottom", "yshift": 6, "showarrow": False, "align": "left",
        "font": {"size": 11, "color": "#555555"},
    })
    margin = layout.setdefault("margin", {})
    margin["t"] = max(int(margin.get("t", 60)), 60 + 16 * (lines.count("<br>") + 1))


def axis(title: str, **extra: Any) -> dict[str, Any]:
    """An axis with a title, light grid lines and a visible zero line."""
    # automargin + standoff: the title is pushed clear of the tick labels, however wide they are.
    ax: dict[str, Any] = {
        "title": {"text": title, "standoff": 10},
        "automargin": True,
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
            end = max(end, finite(t[-1]) or 0.0)
    return end
