"""Figures over time: utilisation, active VMs, cumulative cost and fairness.

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

from ..numbers import finite
from ._common import (
    D3_NUM,
    Figure,
    Result,
    axis,
    axis_key,
    axis_ref,
    base_layout,
    caption,
    fmt,
    framework_colours,
    round_sig,
    scheduler_colours,
    stacked_rows,
    text,
    time_unit,
    timeline_end,
    vm_type_names,
)
from .downsample import downsample_linear, downsample_step, window_duration, window_mean_step
from .palettes import LOWER_BOUND, colours

__all__ = [
    "View",
    "active_vms_figure",
    "cumulative_cost_figure",
    "fairness_figure",
    "utilisation_figure",
]

#: How the timelines of several schedulers are drawn (see the module's docstring).
View = Literal["mean", "raw", "multiples"]
#: Windows a smoothed ("mean") timeline is cut into, at most.
WINDOWS = 120
#: Line styles that tell resources apart inside one panel.
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def _step_trace(
    x: list[float | None], y: list[float | None], name: str, colour: str, **extra: Any
) -> dict[str, Any]:
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


def _aligned(t: Any, series: Any) -> bool:
    """Whether ``series`` is a non-empty list as long as the time points ``t``."""
    return bool(t) and series is not None and len(series) == len(t)


def _scale(t: list[float], divisor: float) -> list[float | None]:
    return round_sig(np.asarray(t, dtype=float) / divisor, 7)


def _window_words(window_s: float) -> str:
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
        title += f": mean over {_window_words(window_s)} windows"
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
                res: s for res in resources if _aligned(tl.get("t"), s := (tl.get(key) or {}).get(res))
            }
            if not series:
                continue
            t, ys = downsample_step(tl["t"], series, max_points)
            x = _scale(t, divisor)
            for k, res in enumerate(resources):
                if res in ys:
                    data.append(_step_trace(
                        x, round_sig(ys[res], 5), f"{text(panel)} · {text(res)}", colours_[panel],
                        legendgroup=text(panel), hovertemplate=f"{text(res)}: %{{y:.1%}}", **refs,
                    ) | {"line": {"shape": "hv", "color": colours_[panel], "width": 1.5,
                                  "dash": DASHES[k % len(DASHES)]}})
            continue
        for name, r in results.items():
            tl = r.get("timeline") or {}
            series_ = (tl.get(key) or {}).get(panel)
            if not _aligned(tl.get("t"), series_):
                continue
            t, ys = _series(tl["t"], {"u": series_}, view, max_points, window_s)
            data.append(_step_trace(
                _scale(t, divisor), round_sig(ys["u"], 5), text(name), colours_[name],
                legendgroup=text(name), showlegend=row == 0,
                hovertemplate=f"{text(panel)}: %{{y:.1%}}", **refs,
            ))
    return {"data": data, "layout": layout}


def _active_totals(r: Result) -> tuple[list[float], dict[str, list[float]]]:
    """Time points and, per VM type, the active VMs (aligned series only), plus their total."""
    tl = r.get("timeline") or {}
    t = list(tl.get("t") or [])
    active = {str(k): list(v) for k, v in (tl.get("active_vms") or {}).items() if _aligned(t, v)}
    total = np.zeros(len(t))
    for v in active.values():
        total += np.nan_to_num(np.asarray(v, dtype=float))
    return t, {**active, "\0total": total.tolist()}


def active_vms_figure(
    results: Mapping[str, Result],
    *,
    mode: Literal["stacked", "total"] = "stacked",
    view: Literal["mean", "raw"] = "mean",
    max_points: int = 2000,
) -> Figure:
    """Active (switched-on) VMs over time.

    ``mode="stacked"`` draws, for each scheduler, a row of step areas stacked by VM type
    (one row when there is one scheduler: the small multiples of active VMs);
    ``mode="total"`` draws one step line per scheduler with its total number of active
    VMs, at full detail (``view="raw"``) or as the mean over windows (``view="mean"``).
    """
    colours_ = scheduler_colours(results)
    types = vm_type_names(results)
    type_colours = colours("vm_type", types)
    end_s = timeline_end(results.values())
    divisor, unit = time_unit(end_s)
    window_s = window_duration(end_s, WINDOWS)
    data: list[dict[str, Any]] = []
    names = list(results)
    n_rows = len(names) if mode == "stacked" else 1
    rows = stacked_rows(n_rows, gap=0.08)
    if mode == "stacked":
        title = "Active VMs by type"
    else:
        title = "Active VMs (all types)"
        if view == "mean":
            title += f": mean over {_window_words(window_s)} windows"
    layout = base_layout(title, height=max(380, 200 + 200 * n_rows), hovermode="x unified")
    for row in range(n_rows):
        ytitle = "Active VMs" if mode == "total" else text(names[row])
        layout[axis_key("yaxis", row)] = axis(
            ytitle, domain=list(rows[row]), rangemode="tozero", anchor=axis_ref("xaxis", row)
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Time ({unit})" if row == n_rows - 1 else "", anchor=axis_ref("yaxis", row),
            showticklabels=row == n_rows - 1, **({"matches": "x"} if row else {}),
        )
    seen_types: set[str] = set()
    for row, name in enumerate(names):
        t, series = _active_totals(results[name])
        if not t:
            continue
        if mode == "total":
            if view == "mean":
                kt, ys = window_mean_step(t, {"total": series["\0total"]}, window_s)
            else:
                kt, ys = downsample_step(t, {"total": series["\0total"]}, max_points)
            data.append(_step_trace(
                _scale(kt, divisor), round_sig(ys["total"], 5), text(name), colours_[name],
                legendgroup=text(name), hovertemplate=f"{text(name)}: %{{y:.3~r}} VMs<extra></extra>",
            ))
            continue
        kt, ys = downsample_step(t, series, max_points)
        x = _scale(kt, divisor)
        for vm_type in types:
            if vm_type not in ys:
                continue
            data.append(_step_trace(
                x, round_sig(ys[vm_type]), text(vm_type), type_colours[vm_type],
                stackgroup=f"row{row}", legendgroup=text(vm_type),
                showlegend=vm_type not in seen_types,
                xaxis=axis_ref("xaxis", row), yaxis=axis_ref("yaxis", row),
                hovertemplate=f"{text(vm_type)}: %{{y}}",
            ) | {"line": {"shape": "hv", "color": type_colours[vm_type], "width": 0.5}})
            seen_types.add(vm_type)
    return {"data": data, "layout": layout}


def cumulative_cost_figure(
    results: Mapping[str, Result],
    *,
    view: Literal["raw", "multiples"] = "raw",
    max_points: int = 2000,
    currency: str = "$",
) -> Figure:
    """Cumulative billed cost over time (piecewise linear), one line per scheduler.

    The lower bound on cost is drawn as a dashed horizontal line ("no scheduler can do
    better"); when the schedulers' bounds differ each gets its own dashed line.
    ``view="multiples"`` draws one panel per scheduler (with its bound) on shared axes.
    """
    colours_ = scheduler_colours(results)
    end_s = timeline_end(results.values())
    divisor, unit = time_unit(end_s)
    names = list(results)
    panels = names if view == "multiples" and names else [None]
    rows = stacked_rows(len(panels), gap=0.08)
    x_end = round_sig([end_s / divisor])[0] or 0.0
    bounds = {name: finite(r.get("lower_bound_cost")) for name, r in results.items()}
    distinct = sorted({b for b in bounds.values() if b is not None})
    top = max([b for b in distinct] + [finite(r.get("total_cost")) or 0.0 for r in results.values()] + [0.0])
    layout = base_layout("Cumulative cost", hovermode="x unified", annotations=[],
                         height=max(420, 200 + 170 * len(panels)) if len(panels) > 1 else 420)
    data: list[dict[str, Any]] = []
    for row, panel in enumerate(panels):
        refs = {"xaxis": axis_ref("xaxis", row), "yaxis": axis_ref("yaxis", row)}
        last = row == len(panels) - 1
        ytitle = f"Cumulative cost ({text(currency)})" if panel is None else text(panel)
        layout[axis_key("yaxis", row)] = axis(
            ytitle, domain=list(rows[row]), anchor=refs["xaxis"],
            **({"rangemode": "tozero"} if panel is None else {"range": [0, top * 1.05 or 1.0]}),
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Time ({unit})" if last else "", anchor=refs["yaxis"], showticklabels=last,
            **({"matches": "x"} if row else {}),
        )
        shown = names if panel is None else [panel]
        for name in shown:
            tl = results[name].get("timeline") or {}
            if not _aligned(tl.get("t"), tl.get("cumulative_cost")):
                continue
            t, ys = downsample_linear(tl["t"], {"c": tl["cumulative_cost"]}, max_points)
            total = finite(results[name].get("total_cost"))
            label = text(name) + (f" (total {fmt(total)})" if total is not None else "")
            data.append({
                "type": "scatter", "mode": "lines", "name": label, "x": _scale(t, divisor),
                "y": round_sig(ys["c"]), "line": {"color": colours_[name], "width": 2},
                "legendgroup": text(name),
                "hovertemplate": f"{text(name)}: %{{y:{D3_NUM}}}<extra></extra>", **refs,
            })
        drawn: list[float] = []
        for name in shown:
            bound = bounds.get(name)
            shared = len(distinct) == 1
            if bound is None or (shared and drawn):
                continue
            drawn.append(bound)
            label = f"Lower bound {fmt(bound)}" + ("" if shared else f" ({text(name)})")
            data.append({
                "type": "scatter", "mode": "lines", "name": label, "x": [0.0, x_end], "y": [bound, bound],
                "line": {"color": LOWER_BOUND if shared else colours_[name], "dash": "dash", "width": 1.5},
                "showlegend": row == 0, "hovertemplate": f"{label}<extra></extra>", **refs,
            })
            layout["annotations"].append({
                "x": x_end, "y": bound, "xref": refs["xaxis"], "yref": refs["yaxis"], "text": label,
                "showarrow": False, "xanchor": "right", "yanchor": "bottom",
                "font": {"size": 11, "color": LOWER_BOUND},
            })
    return {"data": data, "layout": layout}


#: What the fairness chart's words mean, under its title and in its hover text.
FAIRNESS_CAPTION = (
    "Solid: the framework's dominant share of the cluster. Dashed: its fair share, its weight ÷ "
    "the weights of the frameworks with work waiting.<br>Contention: time when two or more "
    "frameworks have work waiting. Shaded: share below the fair share during contention; its "
    "area, in share·s (share × seconds), is the unfairness."
)


def fairness_figure(
    result: Result, *, view: Literal["raw", "mean"] = "raw", max_points: int = 2000
) -> Figure:
    """Each framework's dominant share against its fair share, for one scheduler.

    The share is a solid step line, the fair share a dashed step line of the same colour,
    and the shortfall (share below fair share while two or more frameworks have pending
    work) is shaded; the legend gives each framework's unfairness area. A caption under the
    title explains "contention", "share·s" and the fair-share line. ``view="mean"`` draws
    the means over windows (the readable view of a long run): the shaded band is then the
    mean shortfall above the mean share, so its area is still the unfairness area.

    Raises
    ------
    ValueError
        If the result has no fairness section (fewer than two frameworks with jobs).
    """
    fairness = result.get("fairness")
    if not fairness:
        raise ValueError("this result has no fairness section (it needs two or more frameworks)")
    t = fairness.get("t") or []
    share = {
        str(k): np.asarray(v, dtype=float) for k, v in (fairness.get("share") or {}).items() if _aligned(t, v)
    }
    fair = {
        str(k): np.asarray(v, dtype=float)
        for k, v in (fairness.get("fair_share") or {}).items() if _aligned(t, v)
    }
    summary = {str(k): v for k, v in (fairness.get("frameworks") or {}).items()}
    names = list(dict.fromkeys([*summary, *share]))
    colours_ = framework_colours(result)
    span = (finite(t[-1]) or 0.0) - (finite(t[0]) or 0.0) if t else 0.0
    divisor, unit = time_unit((finite(t[-1]) or 0.0) if t else 0.0)
    window_s = window_duration(span, WINDOWS)
    # Contention: at least two frameworks have pending work (a fair share > 0).
    pending = sum((np.nan_to_num(f) > 0).astype(int) for f in fair.values()) if fair else np.zeros(len(t))
    contention = np.asarray(pending) >= 2
    data: list[dict[str, Any]] = []
    for fw in names:
        if fw not in share:
            continue
        s = share[fw]
        f = fair.get(fw, np.full(len(t), np.nan))
        short = contention & (np.nan_to_num(s) < np.nan_to_num(f))
        if view == "mean":
            kt, ys = window_mean_step(t, {"s": s, "f": f, "d": np.where(short, f - s, 0.0)}, window_s)
            ys["u"] = [(a or 0.0) + (d or 0.0) for a, d in zip(ys["s"], ys["d"], strict=True)]
        else:
            kt, ys = downsample_step(t, {"s": s, "f": f, "u": np.where(short, f, s)}, max_points)
        x = _scale(kt, divisor)
        info = summary.get(fw) or {}
        area = finite(info.get("unfairness_area"))
        pct = finite(info.get("unfairness_pct"))
        colour = colours_.get(fw, "#555555")
        label = text(fw)
        data.append(_step_trace(
            x, round_sig(ys["s"], 5), f"{label}: share", colour, legendgroup=label,
            hovertemplate=f"{label}: dominant share %{{y:.1%}}<extra></extra>",
        ) | {"line": {"shape": "hv", "color": colour, "width": 2.5}})
        area_txt = "n/a" if area is None else f"{fmt(area)} share·s"
        if pct is not None:
            area_txt += f", {pct:.1f}%"
        data.append(_step_trace(
            x, round_sig(ys["u"], 5), f"{label}: below fair share ({area_txt})", colour,
            legendgroup=label, fill="tonexty", fillcolor=_rgba(colour, 0.35),
            hovertemplate=(f"{label} below its fair share during contention; unfairness area {area_txt} "
                           "(share × seconds)<extra></extra>"),
        ) | {"line": {"shape": "hv", "color": colour, "width": 0}})
        data.append(_step_trace(
            x, round_sig(ys["f"], 5), f"{label}: fair share", colour, legendgroup=label,
            hovertemplate=(f"{label}: fair share %{{y:.1%}} (its weight ÷ the weights of frameworks "
                           "with work waiting)<extra></extra>"),
        ) | {"line": {"shape": "hv", "color": colour, "width": 1.5, "dash": "dash"}})
    contention_s = finite(fairness.get("contention_s"))
    title = f"Fairness ({text(result.get('scheduler', ''))})"
    if contention_s is not None:
        title += f" — contention {fmt(contention_s / divisor)} {unit}"
    words = FAIRNESS_CAPTION
    if view == "mean":
        title += f": mean over {_window_words(window_s)} windows"
        words += "<br>Means over windows: the band is the mean shortfall, so its area is the same."
    layout = base_layout(
        title, hovermode="x unified", height=500,
        xaxis=axis(f"Time ({unit})"),
        yaxis=axis("Dominant share", tickformat=".0%", range=[0, 1.05]),
    )
    caption(layout, words)
    return {"data": data, "layout": layout}


def _rgba(hex_colour: str, alpha: float) -> str:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"
