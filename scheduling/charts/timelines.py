"""Figures over time every paper draws, and the trace helpers of every timeline figure.

:func:`utilisation_figure` draws a cost comparison's results and a sharing study's documents
alike; :func:`step_trace`, :func:`rgba`, :func:`aligned`, :func:`scale_times` and
:func:`window_words` build the timelines of every paper (the cost engine's active VMs and
cumulative cost in :mod:`scheduling.cost.charts.timelines`, the fairness and UDRF share
timelines), and :data:`FAIRNESS_CAPTION` says what a share chart's words mean.

Timelines of several schedulers come in *views* (:data:`View`), so a page only chooses
which figure to draw:

* ``"mean"``: one line per scheduler, the step mean over windows of a round duration (the
  readable default: a 13-hour run of four schedulers is no longer a tangle);
* ``"raw"``: one line per scheduler at full detail (downsampled keeping peaks and troughs);
* ``"multiples"``: one panel per scheduler, at full detail, on shared axes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from ._common import (
    Figure,
    Result,
    axis,
    axis_key,
    axis_ref,
    base_layout,
    round_sig,
    scheduler_colours,
    stacked_rows,
    text,
    time_unit,
    timeline_end,
)
from .downsample import downsample_step, window_duration, window_mean_step

__all__ = [
    "DASHES",
    "FAIRNESS_CAPTION",
    "WINDOWS",
    "View",
    "aligned",
    "rgba",
    "scale_times",
    "step_trace",
    "utilisation_figure",
    "window_words",
]

#: How the timelines of several schedulers are drawn (see the module's docstring).
View = Literal["mean", "raw", "multiples"]
#: Windows a smoothed ("mean") timeline is cut into, at most.
WINDOWS = 120
#: Line styles that tell resources apart inside one panel.
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def step_trace(
    x: list[float | None], y: list[float | None], name: str, colour: str, **extra: Any
) -> dict[str, Any]:
    """A step line (``shape: hv``: a value holds until the next point) of width 2; ``extra``
    adds or overrides trace keys."""
    trace: dict[str, Any] = {
        "type": "scatter",
        "mode": "lines",
        "name": name,
        "x": x,
        "y": y,
        "line": {"shape": "hv", "color": colour, "width": 2},
    }
    trace.update(extra)
    return trace


def aligned(t: Any, series: Any) -> bool:
    """Whether ``series`` is a non-empty list as long as the time points ``t``."""
    return bool(t) and series is not None and len(series) == len(t)


def scale_times(t: list[float], divisor: float) -> list[float | None]:
    """Time points in the axis' unit (:func:`~scheduling.charts.time_unit`'s divisor), rounded."""
    return round_sig(np.asarray(t, dtype=float) / divisor, 7)


def window_words(window_s: float) -> str:
    """A window's duration as a title writes it: ``5-min``, ``2-h``, ``30-s``."""
    if window_s >= 3600 and window_s % 3600 == 0:
        return f"{int(window_s // 3600)}-h"
    if window_s >= 60 and window_s % 60 == 0:
        return f"{int(window_s // 60)}-min"
    return f"{window_s:g}-s"


def _series(
    t: list[float], ys: Mapping[str, Any], view: View, max_points: int, window_s: float
) -> tuple[list[float], dict[str, list[float | None]]]:
    """The step series as the view draws them: windowed means, or downsampled raw points."""
    if view == "mean":
        return window_mean_step(t, ys, window_s)
    return downsample_step(t, ys, max_points)


def _resources(results: Mapping[str, Result], key: str) -> list[str]:
    out: list[str] = []
    for r in results.values():
        for name in list(r.get("resources") or []) + list((r.get("timeline") or {}).get(key) or {}):
            if str(name) not in out:
                out.append(str(name))
    return out


def utilisation_figure(
    results: Mapping[str, Result],
    resource: str | None = None,
    *,
    of_on: bool = False,
    view: View = "mean",
    max_points: int = 2000,
) -> Figure:
    """Utilisation of each resource over time.

    Parameters
    ----------
    results : mapping of str to dict
        Result documents keyed by scheduler spec.
    resource : str, optional
        Draw only this resource; by default every resource.
    of_on : bool, default False
        Plot ``utilisation_of_on`` (used / capacity of the VMs switched on) instead of
        ``utilisation`` (used / capacity of the whole cluster, what the run page shows).
    view : {"mean", "raw", "multiples"}, default "mean"
        ``mean`` (readable) and ``raw``: one row per resource, one line per scheduler
        (``mean``: the step mean over windows); ``multiples``: one row per scheduler, one
        line per resource, at full detail.
    max_points : int, default 2000
        Points per trace after :func:`~scheduling.charts.downsample_step`.
    """
    key = "utilisation_of_on" if of_on else "utilisation"
    resources = [resource] if resource is not None else _resources(results, key)
    colours_ = scheduler_colours(results)
    end_s = timeline_end(results.values())
    divisor, unit = time_unit(end_s)
    window_s = window_duration(end_s, WINDOWS)
    basis = "of the VMs switched on" if of_on else "of the whole cluster"
    what = text(resource) if resource else "all resources"
    title = f"Utilisation ({what}, {basis})"
    if view == "mean":
        title += f": mean over {window_words(window_s)} windows"
    names = list(results)
    panels = names if view == "multiples" else resources
    rows = stacked_rows(len(panels))
    layout = base_layout(title, height=max(380, 200 + (160 if view == "multiples" else 220) * len(panels)),
                         hovermode="x unified")
    data: list[dict[str, Any]] = []
    for row, panel in enumerate(panels):
        ytitle = text(panel) if view == "multiples" else f"Utilisation ({text(panel)})"
        layout[axis_key("yaxis", row)] = axis(
            ytitle, domain=list(rows[row]), range=[0, 1.05], tickformat=".0%", anchor=axis_ref("xaxis", row),
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Time ({unit})" if row == len(panels) - 1 else "",
            anchor=axis_ref("yaxis", row), **({"matches": "x"} if row else {}),
            showticklabels=row == len(panels) - 1,
        )
        refs = {"xaxis": axis_ref("xaxis", row), "yaxis": axis_ref("yaxis", row)}
        if view == "multiples":
            tl = results[panel].get("timeline") or {}
            series: dict[str, Any] = {
                res: s for res in resources if aligned(tl.get("t"), s := (tl.get(key) or {}).get(res))
            }
            if not series:
                continue
            t, ys = downsample_step(tl["t"], series, max_points)
            x = scale_times(t, divisor)
            for k, res in enumerate(resources):
                if res in ys:
                    data.append(step_trace(
                        x, round_sig(ys[res], 5), f"{text(panel)} · {text(res)}", colours_[panel],
                        legendgroup=text(panel), hovertemplate=f"{text(res)}: %{{y:.1%}}", **refs,
                    ) | {"line": {"shape": "hv", "color": colours_[panel], "width": 1.5,
                                  "dash": DASHES[k % len(DASHES)]}})
            continue
        for name, r in results.items():
            tl = r.get("timeline") or {}
            series_ = (tl.get(key) or {}).get(panel)
            if not aligned(tl.get("t"), series_):
                continue
            t, ys = _series(tl["t"], {"u": series_}, view, max_points, window_s)
            data.append(step_trace(
                scale_times(t, divisor), round_sig(ys["u"], 5), text(name), colours_[name],
                legendgroup=text(name), showlegend=row == 0,
                hovertemplate=f"{text(panel)}: %{{y:.1%}}", **refs,
            ))
    return {"data": data, "layout": layout}


#: What the fairness chart's words mean, under its title and in its hover text.
FAIRNESS_CAPTION = (
    "Solid: the framework's dominant share of the cluster. Dashed: its fair share, its weight ÷ "
    "the weights of the frameworks with work waiting.<br>Contention: time when two or more "
    "frameworks have work waiting. Shaded: share below the fair share during contention; its "
    "area, in share·s (share × seconds), is the unfairness."
)


def rgba(hex_colour: str, alpha: float) -> str:
    """``#RRGGBB`` with an opacity, as Plotly's ``rgba(r,g,b,a)`` (a shaded band's fill).

    >>> rgba("#0072B2", 0.35)
    'rgba(0,114,178,0.35)'
    """
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"
