"""Figures over time of a cost comparison (paper 003): active VMs, cumulative cost and fairness.

Views and trace helpers are every paper's (:mod:`scheduling.charts.timelines`); the
utilisation figure is shared too (:func:`scheduling.charts.utilisation_figure`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from ...charts import (
    D3_NUM,
    FAIRNESS_CAPTION,
    WINDOWS,
    Figure,
    Result,
    aligned,
    axis,
    axis_key,
    axis_ref,
    base_layout,
    caption,
    colours,
    downsample_linear,
    downsample_step,
    fmt,
    rgba,
    round_sig,
    scale_times,
    scheduler_colours,
    stacked_rows,
    step_trace,
    text,
    time_unit,
    timeline_end,
    window_duration,
    window_mean_step,
    window_words,
)
from ...charts.palettes import LOWER_BOUND
from ...numbers import finite
from .names import framework_colours, vm_type_names

__all__ = ["active_vms_figure", "cumulative_cost_figure", "fairness_figure"]


def _active_totals(r: Result) -> tuple[list[float], dict[str, list[float]]]:
    """Time points and, per VM type, the active VMs (aligned series only), plus their total."""
    tl = r.get("timeline") or {}
    t = _as_list(tl.get("t") or [])
    active = {str(k): _as_list(v) for k, v in (tl.get("active_vms") or {}).items() if aligned(t, v)}
    total = np.zeros(len(t))
    for v in active.values():
        total += np.nan_to_num(np.asarray(v, dtype=float))
    return t, {**active, "\0total": total.tolist()}


def _as_list(values: Any) -> list[Any]:
    """``values`` as a list: a list as it is (an unpacked column, :class:`scheduling.packed.Column`,
    keeps the array numpy takes from it), anything else copied into one."""
    return values if isinstance(values, list) else list(values)


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
            title += f": mean over {window_words(window_s)} windows"
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
            data.append(step_trace(
                scale_times(kt, divisor), round_sig(ys["total"], 5), text(name), colours_[name],
                legendgroup=text(name), hovertemplate=f"{text(name)}: %{{y:.3~r}} VMs<extra></extra>",
            ))
            continue
        kt, ys = downsample_step(t, series, max_points)
        x = scale_times(kt, divisor)
        for vm_type in types:
            if vm_type not in ys:
                continue
            data.append(step_trace(
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
            if not aligned(tl.get("t"), tl.get("cumulative_cost")):
                continue
            t, ys = downsample_linear(tl["t"], {"c": tl["cumulative_cost"]}, max_points)
            total = finite(results[name].get("total_cost"))
            label = text(name) + (f" (total {fmt(total)})" if total is not None else "")
            data.append({
                "type": "scatter", "mode": "lines", "name": label, "x": scale_times(t, divisor),
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
        str(k): np.asarray(v, dtype=float) for k, v in (fairness.get("share") or {}).items() if aligned(t, v)
    }
    fair = {
        str(k): np.asarray(v, dtype=float)
        for k, v in (fairness.get("fair_share") or {}).items() if aligned(t, v)
    }
    summary = {str(k): v for k, v in (fairness.get("frameworks") or {}).items()}
    # Sorted, as everywhere frameworks are listed (framework_names): a document read back from
    # PostgreSQL's jsonb has its objects' keys in jsonb's own order, not the simulator's.
    names = sorted({*summary, *share})
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
        x = scale_times(kt, divisor)
        info = summary.get(fw) or {}
        area = finite(info.get("unfairness_area"))
        pct = finite(info.get("unfairness_pct"))
        colour = colours_.get(fw, "#555555")
        label = text(fw)
        data.append(step_trace(
            x, round_sig(ys["s"], 5), f"{label}: share", colour, legendgroup=label,
            hovertemplate=f"{label}: dominant share %{{y:.1%}}<extra></extra>",
        ) | {"line": {"shape": "hv", "color": colour, "width": 2.5}})
        area_txt = "n/a" if area is None else f"{fmt(area)} share·s"
        if pct is not None:
            area_txt += f", {pct:.1f}%"
        data.append(step_trace(
            x, round_sig(ys["u"], 5), f"{label}: below fair share ({area_txt})", colour,
            legendgroup=label, fill="tonexty", fillcolor=rgba(colour, 0.35),
            hovertemplate=(f"{label} below its fair share during contention; unfairness area {area_txt} "
                           "(share × seconds)<extra></extra>"),
        ) | {"line": {"shape": "hv", "color": colour, "width": 0}})
        data.append(step_trace(
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
        title += f": mean over {window_words(window_s)} windows"
        words += "<br>Means over windows: the band is the mean shortfall, so its area is the same."
    layout = base_layout(
        title, hovermode="x unified", height=500,
        xaxis=axis(f"Time ({unit})"),
        yaxis=axis("Dominant share", tickformat=".0%", range=[0, 1.05]),
    )
    caption(layout, words)
    return {"data": data, "layout": layout}
