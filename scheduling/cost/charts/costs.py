"""Figures of money: cost per VM type, per framework and per hour, per scheduler."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...charts import (
    D3_NUM,
    Figure,
    Result,
    axis,
    base_layout,
    caption,
    colour_ticks,
    fmt,
    round_sig,
    scheduler_colours,
    text,
)
from ...charts.palettes import LOWER_BOUND, UNUSED, colours
from ...numbers import finite
from .names import vm_type_names

__all__ = ["cost_breakdown_figure", "cost_by_framework_figure", "cost_by_hour_figure"]

UNUSED_CAPACITY = "(unused capacity)"


def cost_breakdown_figure(results: Mapping[str, Result], *, currency: str = "$") -> Figure:
    """Billed cost per VM type, stacked bars per scheduler, with each lower bound as a marker."""
    names = [text(n) for n in results]
    types = vm_type_names(results)
    type_colours = colours("vm_type", types)
    data: list[dict[str, Any]] = []
    for vm_type in types:
        y = [finite((r.get("cost_by_vm_type") or {}).get(vm_type)) or 0.0 for r in results.values()]
        data.append({
            "type": "bar", "name": text(vm_type), "x": names, "y": round_sig(y),
            "marker": {"color": type_colours[vm_type]},
            "hovertemplate": f"{text(vm_type)}: %{{y:{D3_NUM}}}<extra></extra>",
        })
    bounds = [finite(r.get("lower_bound_cost")) for r in results.values()]
    if any(b is not None for b in bounds):
        data.append({
            "type": "scatter", "mode": "markers", "name": "Lower bound", "x": names, "y": bounds,
            "marker": {"symbol": "line-ew-open", "size": 36, "color": LOWER_BOUND,
                       "line": {"width": 2, "color": LOWER_BOUND}},
            "hovertemplate": f"lower bound %{{y:{D3_NUM}}}<extra></extra>",
        })
    return {"data": data, "layout": _cost_bars_layout("Cost by VM type", results, names, currency)}


def _cost_bars_layout(
    title: str, results: Mapping[str, Result], names: list[str], currency: str
) -> dict[str, Any]:
    """A stacked cost bar per scheduler: its total on top, its name in its colour."""
    layout = base_layout(
        title, barmode="stack", annotations=_totals(results, names), hovermode="x unified",
        xaxis=axis("Scheduler", type="category"), yaxis=axis(f"Cost ({text(currency)})", rangemode="tozero"),
    )
    colour_ticks(layout, results)
    return layout


def _totals(results: Mapping[str, Result], names: list[str]) -> list[dict[str, Any]]:
    totals = [finite(r.get("total_cost")) for r in results.values()]
    return [
        {"x": n, "y": t, "text": fmt(t), "showarrow": False, "yanchor": "bottom", "font": {"size": 11}}
        for n, t in zip(names, totals, strict=True) if t is not None and math.isfinite(t)
    ]


def cost_by_framework_figure(results: Mapping[str, Result], *, currency: str = "$") -> Figure:
    """Billed cost per framework, stacked bars per scheduler, unused capacity last (hatched grey).

    Each job pays, per VM it holds, price x time x its RUT-weighted share of that VM; the
    rest of the bill is unused capacity, so a bar's parts add up to the total cost.
    """
    names = [text(n) for n in results]
    frameworks: list[str] = []
    for r in results.values():
        for key in r.get("cost_by_framework") or {}:
            if str(key) != UNUSED_CAPACITY and str(key) not in frameworks:
                frameworks.append(str(key))
    fw_colours = colours("framework", frameworks)
    data: list[dict[str, Any]] = []
    for fw in [*frameworks, UNUSED_CAPACITY]:
        y = [finite((r.get("cost_by_framework") or {}).get(fw)) or 0.0 for r in results.values()]
        if fw == UNUSED_CAPACITY and not any(y):
            continue
        marker: dict[str, Any] = {"color": fw_colours.get(fw, UNUSED)}
        if fw == UNUSED_CAPACITY:
            marker["pattern"] = {"shape": "/", "fgcolor": "#888888"}
        data.append({
            "type": "bar", "name": text(fw), "x": names, "y": [round(v, 9) for v in y], "marker": marker,
            "hovertemplate": f"{text(fw)}: %{{y:{D3_NUM}}}<extra></extra>",
        })
    return {"data": data, "layout": _cost_bars_layout("Cost by framework", results, names, currency)}


def cost_by_hour_figure(results: Mapping[str, Result], *, currency: str = "$") -> Figure:
    """Billed cost falling in each hour of the run, one bar per scheduler per hour (grouped)."""
    scheduler = scheduler_colours(results)
    data: list[dict[str, Any]] = []
    for name, r in results.items():
        costs = [finite(v) or 0.0 for v in r.get("cost_by_hour") or []]
        if not costs:
            continue
        data.append({
            "type": "bar", "name": text(name), "x": list(range(len(costs))),
            "y": [round(v, 9) for v in costs],
            "marker": {"color": scheduler[name]}, "legendgroup": text(name),
            "hovertemplate": f"{text(name)}, hour %{{x}}: %{{y:{D3_NUM}}}<extra></extra>",
        })
    hours = max((len(tr["x"]) for tr in data), default=0)
    layout = base_layout(
        "Cost per hour", barmode="group", hovermode="x unified",
        xaxis=axis("Hour of the run (hour 0 starts at the scenario's start)",
                   **({"dtick": 1} if hours <= 24 else {})),
        yaxis=axis(f"Cost in the hour ({text(currency)})", rangemode="tozero"),
    )
    if hours == 1:  # one bar per scheduler: the totals again, so say so
        caption(layout, "Every scheduler finished within the first hour: each bar is its total cost. "
                        "This chart tells more about runs longer than an hour.")
    return {"data": data, "layout": layout}
