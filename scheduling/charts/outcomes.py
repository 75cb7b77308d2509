"""Figures of outcomes: executors on VMs (Gantt), completion times, deadlines, cost per VM type."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..result_document import iter_jobs, iter_vm_intervals, job_column
from ._common import (
    D3_NUM,
    LOWER_BOUND_COLOUR,
    MET_COLOUR,
    MISSED_COLOUR,
    VM_TYPE_COLOURS,
    Figure,
    Result,
    axis,
    base_layout,
    clock,
    fmt,
    framework_colours,
    num,
    palette_map,
    round_sig,
    scheduler_colours,
    text,
    time_unit,
    vm_type_names,
)
from .downsample import downsample_step

__all__ = ["completion_figure", "cost_breakdown_figure", "deadline_figure", "gantt_figure"]


def _vm_sort_key(vm: str, type_order: Mapping[str, int]) -> tuple[int, str, int, str]:
    """VMs named ``<type>#<k>`` sort by the scenario's type order, then numerically by k."""
    m = re.fullmatch(r"(.*)#(\d+)", vm)
    if m is None:
        return (len(type_order), vm, 0, vm)
    vm_type, k = m.group(1), int(m.group(2))
    return (type_order.get(vm_type, len(type_order)), vm_type, k, vm)


def gantt_figure(result: Result, max_jobs: int = 500) -> Figure:
    """Executors on VMs over time: one bar per (job, VM), coloured by framework.

    Each VM is a row; a job that spreads over several VMs gets a bar on each, from its
    start to its finish. The VMs' on periods are drawn behind as light grey bars. Only the
    first ``max_jobs`` jobs by start time are drawn, and the title says so when jobs are
    left out.
    """
    jobs = [
        j for j in iter_jobs(result)
        if num(j.get("start_s")) is not None and num(j.get("finish_s")) is not None and j.get("placement")
    ]
    jobs.sort(key=lambda j: (num(j["start_s"]) or 0.0, str(j.get("id"))))
    shown = jobs[: max(0, max_jobs)]
    type_order = {str(vt["name"]): i for i, vt in enumerate(result.get("vm_types") or [])}
    vms = sorted({str(vm) for j in shown for vm in j["placement"]}, key=lambda v: _vm_sort_key(v, type_order))
    end_s = max([num(j["finish_s"]) or 0.0 for j in shown] or [0.0])
    divisor, unit = time_unit(end_s)
    colours = framework_colours(result)
    bars: dict[str, dict[str, list[Any]]] = {}
    for j in shown:
        fw = str(j.get("framework", "default"))
        start, finish = num(j["start_s"]) or 0.0, num(j["finish_s"]) or 0.0
        b = bars.setdefault(fw, {"y": [], "base": [], "x": [], "customdata": []})
        for vm, executors in j["placement"].items():
            b["y"].append(text(vm))
            b["base"].append(start / divisor)
            b["x"].append((finish - start) / divisor)
            b["customdata"].append([text(j.get("id")), executors, clock(start), clock(finish)])
    data: list[dict[str, Any]] = []
    on: dict[str, list[Any]] = {"y": [], "base": [], "x": []}
    wanted = set(vms)
    for iv in iter_vm_intervals(result):
        vm = str(iv.get("vm"))
        a, b_ = num(iv.get("on_s")), num(iv.get("off_s"))
        if vm in wanted and a is not None and b_ is not None and a <= end_s and len(on["y"]) < 4 * max_jobs:
            on["y"].append(text(vm))
            on["base"].append(a / divisor)
            on["x"].append((min(b_, end_s) - a) / divisor)
    if on["y"]:
        data.append({
            "type": "bar", "orientation": "h", "name": "VM on", "y": on["y"],
            "base": round_sig(on["base"]), "x": round_sig(on["x"]),
            "marker": {"color": "rgba(160,160,160,0.25)"}, "width": 0.9,
            "hovertemplate": "%{y} on<extra></extra>",
        })
    for fw in sorted(bars):
        b = bars[fw]
        data.append({
            "type": "bar", "orientation": "h", "name": text(fw), "y": b["y"],
            "base": round_sig(b["base"]), "x": round_sig(b["x"]), "customdata": b["customdata"],
            "width": 0.6, "opacity": 0.85,
            "marker": {"color": colours.get(fw, "#555555"), "line": {"color": "#FFFFFF", "width": 0.5}},
            "hovertemplate": (
                f"<b>%{{customdata[0]}}</b> ({text(fw)})<br>%{{y}}: %{{customdata[1]}} executors<br>"
                "%{customdata[2]} → %{customdata[3]}<extra></extra>"
            ),
        })
    title = f"Executors on VMs ({text(result.get('scheduler', ''))})"
    if len(shown) < len(jobs):
        title += f" — first {len(shown):,} of {len(jobs):,} jobs by start time"
    layout = base_layout(
        title, height=int(min(2000, max(320, 140 + 22 * len(vms)))), barmode="overlay",
        xaxis=axis(f"Time ({unit})", rangemode="tozero"),
        yaxis=axis("VM", type="category", categoryorder="array", categoryarray=[text(v) for v in vms],
                   autorange="reversed", showgrid=False),
        hovermode="closest",
    )
    return {"data": data, "layout": layout}


def completion_figure(results: Mapping[str, Result], *, max_points: int = 2000) -> Figure:
    """Distribution of completion times (finish - arrival) as one ECDF step line per scheduler."""
    colours = scheduler_colours(results)
    samples: dict[str, np.ndarray] = {}
    for name, r in results.items():
        values = [num(v) for v in job_column(r, "completion_s")]
        samples[name] = np.sort(np.asarray([v for v in values if v is not None], dtype=float))
    top = max([float(s[-1]) for s in samples.values() if s.size] or [0.0])
    divisor, unit = time_unit(top)
    data: list[dict[str, Any]] = []
    for name, s in samples.items():
        if s.size == 0:
            continue
        x = np.concatenate([[s[0]], s])
        y = np.concatenate([[0.0], np.arange(1, s.size + 1) / s.size])
        kt, ys = downsample_step(x.tolist(), {"p": y.tolist()}, max_points)
        median = float(np.median(s)) / divisor
        data.append({
            "type": "scatter", "mode": "lines", "name": f"{text(name)} (median {fmt(median)} {unit})",
            "x": round_sig(np.asarray(kt) / divisor), "y": round_sig(ys["p"], 5),
            "line": {"shape": "hv", "color": colours[name], "width": 2},
            "hovertemplate": f"{text(name)}: %{{y:.1%}} of jobs within %{{x:{D3_NUM}}} {unit}<extra></extra>",
        })
    layout = base_layout(
        "Completion time distribution",
        xaxis=axis(f"Completion time ({unit})", rangemode="tozero"),
        yaxis=axis("Jobs completed within (%)", tickformat=".0%", range=[0, 1.05]),
        hovermode="closest",
    )
    return {"data": data, "layout": layout}


def deadline_figure(results: Mapping[str, Result]) -> Figure:
    """Jobs with a deadline that met or missed it, stacked bars per scheduler."""
    names = [text(n) for n in results]
    met = [int(r.get("deadline_met") or 0) for r in results.values()]
    missed = [int(r.get("deadline_missed") or 0) for r in results.values()]
    pct = [num(r.get("deadline_miss_pct")) for r in results.values()]
    eq12 = [num(r.get("deadline_violation_eq12_pct")) for r in results.values()]
    notes = [
        ("missed " + ("n/a" if p is None else f"{p:.1f}%") + ", eq. 12 " + ("n/a" if e is None else f"{e:.1f}%"))
        for p, e in zip(pct, eq12, strict=True)
    ]
    data = [
        {"type": "bar", "name": "Met", "x": names, "y": met, "text": met, "textposition": "inside",
         "marker": {"color": MET_COLOUR}, "customdata": notes,
         "hovertemplate": "%{x}: %{y} met (%{customdata})<extra></extra>"},
        {"type": "bar", "name": "Missed", "x": names, "y": missed, "text": missed, "textposition": "inside",
         "marker": {"color": MISSED_COLOUR}, "customdata": notes,
         "hovertemplate": "%{x}: %{y} missed (%{customdata})<extra></extra>"},
    ]
    title = "Deadline outcomes"
    if not any(met) and not any(missed):
        title += " — no job has a deadline"
    layout = base_layout(
        title, barmode="stack", xaxis=axis("Scheduler", type="category"),
        yaxis=axis("Jobs with a deadline", rangemode="tozero"), hovermode="closest",
    )
    _colour_ticks(layout, results)
    return {"data": data, "layout": layout}


def cost_breakdown_figure(results: Mapping[str, Result]) -> Figure:
    """Billed cost per VM type, stacked bars per scheduler, with each lower bound as a marker."""
    names = [text(n) for n in results]
    types = vm_type_names(results)
    colours = palette_map(types, VM_TYPE_COLOURS)
    data: list[dict[str, Any]] = []
    for vm_type in types:
        y = [num((r.get("cost_by_vm_type") or {}).get(vm_type)) or 0.0 for r in results.values()]
        data.append({
            "type": "bar", "name": text(vm_type), "x": names, "y": round_sig(y),
            "marker": {"color": colours[vm_type]},
            "hovertemplate": f"{text(vm_type)}: %{{y:{D3_NUM}}}<extra></extra>",
        })
    bounds = [num(r.get("lower_bound_cost")) for r in results.values()]
    if any(b is not None for b in bounds):
        data.append({
            "type": "scatter", "mode": "markers", "name": "Lower bound", "x": names, "y": bounds,
            "marker": {"symbol": "line-ew-open", "size": 36, "color": LOWER_BOUND_COLOUR,
                       "line": {"width": 2, "color": LOWER_BOUND_COLOUR}},
            "hovertemplate": f"lower bound %{{y:{D3_NUM}}}<extra></extra>",
        })
    totals = [num(r.get("total_cost")) for r in results.values()]
    annotations = [
        {"x": n, "y": t, "text": fmt(t), "showarrow": False, "yanchor": "bottom", "font": {"size": 11}}
        for n, t in zip(names, totals, strict=True) if t is not None
    ]
    layout = base_layout(
        "Cost by VM type", barmode="stack", annotations=annotations, hovermode="x unified",
        xaxis=axis("Scheduler", type="category"), yaxis=axis("Cost ($)", rangemode="tozero"),
    )
    _colour_ticks(layout, results)
    return {"data": data, "layout": layout}


def _colour_ticks(layout: dict[str, Any], results: Mapping[str, Result]) -> None:
    """Write each scheduler's x tick label in its colour, as in the line charts."""
    colours = scheduler_colours(results)
    layout["xaxis"]["tickvals"] = [text(n) for n in results]
    layout["xaxis"]["ticktext"] = [
        f'<span style="color:{colours[n]}"><b>{text(n)}</b></span>' for n in results
    ]
