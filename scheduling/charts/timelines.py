"""Figures over time: utilisation, active VMs, cumulative cost and fairness."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np

from ._common import (
    D3_NUM,
    LOWER_BOUND_COLOUR,
    Figure,
    Result,
    axis,
    axis_key,
    axis_ref,
    base_layout,
    fmt,
    framework_colours,
    num,
    palette_map,
    round_sig,
    scheduler_colours,
    stacked_rows,
    text,
    time_unit,
    timeline_end,
    vm_type_names,
)
from ._common import VM_TYPE_COLOURS as _VM_PALETTE
from .downsample import downsample_linear, downsample_step

__all__ = ["active_vms_figure", "cumulative_cost_figure", "fairness_figure", "utilisation_figure"]


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


def utilisation_figure(
    results: Mapping[str, Result],
    resource: str | None = None,
    *,
    of_on: bool = False,
    max_points: int = 2000,
) -> Figure:
    """Utilisation of each resource over time, one step line per scheduler.

    Parameters
    ----------
    results : mapping of str to dict
        Result documents keyed by scheduler spec.
    resource : str, optional
        Draw only this resource; by default one row per resource, sharing the time axis.
    of_on : bool, default False
        Plot ``utilisation_of_on`` (used / capacity of the VMs that are on) instead of
        ``utilisation`` (used / capacity of the whole cluster).
    max_points : int, default 2000
        Points per trace after :func:`~scheduling.charts.downsample_step`.
    """
    key = "utilisation_of_on" if of_on else "utilisation"
    resources: list[str] = []
    for r in results.values():
        for name in list(r.get("resources") or []) + list((r.get("timeline") or {}).get(key) or {}):
            if name not in resources:
                resources.append(str(name))
    if resource is not None:
        resources = [resource]
    colours = scheduler_colours(results)
    divisor, unit = time_unit(timeline_end(results.values()))
    rows = stacked_rows(len(resources))
    basis = "of VMs on" if of_on else "of cluster"
    data: list[dict[str, Any]] = []
    layout = base_layout(
        "Utilisation (" + (text(resource) if resource else "all resources") + f", {basis})",
        height=max(380, 200 + 220 * len(resources)),
        hovermode="x unified",
    )
    for row, res in enumerate(resources):
        layout[axis_key("yaxis", row)] = axis(
            f"Utilisation ({text(res)})", domain=list(rows[row]), range=[0, 1.05],
            tickformat=".0%", anchor=axis_ref("xaxis", row),
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Time ({unit})" if row == len(resources) - 1 else "",
            anchor=axis_ref("yaxis", row), **({"matches": "x"} if row else {}),
            showticklabels=row == len(resources) - 1,
        )
        for name, r in results.items():
            tl = r.get("timeline") or {}
            series: Any = (tl.get(key) or {}).get(res)
            if not _aligned(tl.get("t"), series):
                continue
            t, ys = downsample_step(tl["t"], {"u": series}, max_points)
            data.append(_step_trace(
                _scale(t, divisor), round_sig(ys["u"], 5), text(name), colours[name],
                legendgroup=text(name), showlegend=row == 0,
                xaxis=axis_ref("xaxis", row), yaxis=axis_ref("yaxis", row),
                hovertemplate=f"{text(res)}: %{{y:.1%}}",
            ))
    return {"data": data, "layout": layout}


def active_vms_figure(
    results: Mapping[str, Result],
    *,
    mode: Literal["stacked", "total"] = "stacked",
    max_points: int = 2000,
) -> Figure:
    """Active (turned-on) VMs over time.

    ``mode="stacked"`` draws, for each scheduler, a row of step areas stacked by VM type
    (one row when there is one scheduler); ``mode="total"`` draws one step line per
    scheduler with the total number of active VMs.
    """
    colours = scheduler_colours(results)
    types = vm_type_names(results)
    type_colours = palette_map(types, _VM_PALETTE)
    divisor, unit = time_unit(timeline_end(results.values()))
    data: list[dict[str, Any]] = []
    names = list(results)
    n_rows = len(names) if mode == "stacked" else 1
    rows = stacked_rows(n_rows, gap=0.08)
    layout = base_layout(
        "Active VMs" + (" by type" if mode == "stacked" else ""),
        height=max(380, 200 + 200 * n_rows), hovermode="x unified",
    )
    for row in range(n_rows):
        title = "Active VMs" if mode == "total" else f"Active VMs ({text(names[row])})"
        layout[axis_key("yaxis", row)] = axis(
            title, domain=list(rows[row]), rangemode="tozero", anchor=axis_ref("xaxis", row)
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Time ({unit})" if row == n_rows - 1 else "", anchor=axis_ref("yaxis", row),
            showticklabels=row == n_rows - 1, **({"matches": "x"} if row else {}),
        )
    seen_types: set[str] = set()
    for row, name in enumerate(names):
        tl = results[name].get("timeline") or {}
        t = tl.get("t") or []
        active = {str(k): v for k, v in (tl.get("active_vms") or {}).items() if _aligned(t, v)}
        total = np.zeros(len(t))
        for v in active.values():
            total += np.nan_to_num(np.asarray(v, dtype=float))
        if mode == "total":
            kt, ys = downsample_step(t, {"total": total.tolist()}, max_points)
            data.append(_step_trace(
                _scale(kt, divisor), round_sig(ys["total"]), text(name), colours[name],
                hovertemplate="%{y} VMs",
            ))
            continue
        kt, ys = downsample_step(t, {**active, "\0total": total.tolist()}, max_points)
        x = _scale(kt, divisor)
        for vm_type in types:
            if vm_type not in active:
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


def cumulative_cost_figure(results: Mapping[str, Result], *, max_points: int = 2000) -> Figure:
    """Cumulative billed cost over time (piecewise linear), one line per scheduler.

    The lower bound on cost is drawn as a dashed horizontal line ("no scheduler can do
    better"); when the schedulers' bounds differ each gets its own dashed line.
    """
    colours = scheduler_colours(results)
    end_s = timeline_end(results.values())
    divisor, unit = time_unit(end_s)
    data: list[dict[str, Any]] = []
    for name, r in results.items():
        tl = r.get("timeline") or {}
        if not _aligned(tl.get("t"), tl.get("cumulative_cost")):
            continue
        t, ys = downsample_linear(tl["t"], {"c": tl["cumulative_cost"]}, max_points)
        total = num(r.get("total_cost"))
        label = text(name) + (f" (total {fmt(total)})" if total is not None else "")
        data.append({
            "type": "scatter", "mode": "lines", "name": label, "x": _scale(t, divisor),
            "y": round_sig(ys["c"]), "line": {"color": colours[name], "width": 2},
            "hovertemplate": f"{text(name)}: %{{y:{D3_NUM}}}<extra></extra>",
        })
    bounds = {name: num(r.get("lower_bound_cost")) for name, r in results.items()}
    distinct = sorted({b for b in bounds.values() if b is not None})
    x_end = round_sig([end_s / divisor])[0] or 0.0
    annotations: list[dict[str, Any]] = []
    for name, bound in bounds.items():
        if bound is None:
            continue
        shared = len(distinct) == 1
        if shared and annotations:
            break
        label = f"Lower bound {fmt(bound)}" + ("" if shared else f" ({text(name)})")
        data.append({
            "type": "scatter", "mode": "lines", "name": label, "x": [0.0, x_end],
            "y": [bound, bound],
            "line": {"color": LOWER_BOUND_COLOUR if shared else colours[name], "dash": "dash", "width": 1.5},
            "hovertemplate": f"{label}<extra></extra>",
        })
        annotations.append({
            "x": x_end, "y": bound, "xref": "x", "yref": "y", "text": label, "showarrow": False,
            "xanchor": "right", "yanchor": "bottom", "font": {"size": 11, "color": LOWER_BOUND_COLOUR},
        })
    layout = base_layout(
        "Cumulative cost", hovermode="x unified", annotations=annotations,
        xaxis=axis(f"Time ({unit})"), yaxis=axis("Cumulative cost ($)", rangemode="tozero"),
    )
    return {"data": data, "layout": layout}


def fairness_figure(result: Result, *, max_points: int = 2000) -> Figure:
    """Each framework's dominant share against its fair share, for one scheduler.

    The share is a solid step line, the fair share a dashed step line of the same colour,
    and the shortfall (share below fair share while two or more frameworks have pending
    work) is shaded; the legend gives each framework's unfairness area.

    Raises
    ------
    ValueError
        If the result has no fairness section (fewer than two frameworks).
    """
    fairness = result.get("fairness")
    if not fairness:
        raise ValueError("this result has no fairness section (it needs two or more frameworks)")
    t = fairness.get("t") or []
    share = {str(k): np.asarray(v, dtype=float) for k, v in (fairness.get("share") or {}).items() if _aligned(t, v)}
    fair = {
        str(k): np.asarray(v, dtype=float) for k, v in (fairness.get("fair_share") or {}).items() if _aligned(t, v)
    }
    summary = {str(k): v for k, v in (fairness.get("frameworks") or {}).items()}
    names = list(dict.fromkeys([*summary, *share]))
    colours = framework_colours(result)
    divisor, unit = time_unit((num(t[-1]) or 0.0) if t else 0.0)
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
        upper = np.where(short, f, s)
        kt, ys = downsample_step(t, {"s": s, "f": f, "u": upper}, max_points)
        x = _scale(kt, divisor)
        info = summary.get(fw) or {}
        area = num(info.get("unfairness_area"))
        pct = num(info.get("unfairness_pct"))
        colour = colours.get(fw, "#555555")
        label = text(fw)
        data.append(_step_trace(
            x, round_sig(ys["s"], 5), f"{label}: share", colour, legendgroup=label,
            hovertemplate=f"{label} share: %{{y:.1%}}<extra></extra>",
        ))
        area_txt = "n/a" if area is None else f"{fmt(area)} share·s"
        if pct is not None:
            area_txt += f", {pct:.1f}%"
        data.append(_step_trace(
            x, round_sig(ys["u"], 5), f"{label}: below fair share ({area_txt})", colour,
            legendgroup=label, fill="tonexty", fillcolor=_rgba(colour, 0.3),
            hovertemplate=f"{label} unfairness area: {area_txt}<extra></extra>",
        ) | {"line": {"shape": "hv", "color": colour, "width": 0}})
        data.append(_step_trace(
            x, round_sig(ys["f"], 5), f"{label}: fair share", colour, legendgroup=label,
            hovertemplate=f"{label} fair share: %{{y:.1%}}<extra></extra>",
        ) | {"line": {"shape": "hv", "color": colour, "width": 1.5, "dash": "dash"}})
    contention_s = num(fairness.get("contention_s"))
    title = f"Fairness ({text(result.get('scheduler', ''))})"
    if contention_s is not None:
        title += f" — contention {fmt(contention_s / divisor)} {unit}"
    layout = base_layout(
        title, hovermode="x unified", height=460,
        xaxis=axis(f"Time ({unit})"),
        yaxis=axis("Dominant share", tickformat=".0%", range=[0, 1.05]),
    )
    return {"data": data, "layout": layout}


def _rgba(hex_colour: str, alpha: float) -> str:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"
