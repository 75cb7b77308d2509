"""Figures of outcomes: executors on VMs (Gantt), completion times, deadlines."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple, TypedDict

import numpy as np

from ...charts import (
    D3_NUM,
    Figure,
    Result,
    axis,
    axis_key,
    axis_ref,
    base_layout,
    caption,
    clock,
    colour_ticks,
    downsample_step,
    fmt,
    round_sig,
    scheduler_colours,
    stacked_rows,
    text,
    time_unit,
)
from ...charts.palettes import GREY, colours
from ...numbers import finite, integral
from ..document import iter_vm_intervals, job_column, job_placed, jobs_at
from .names import framework_colours

__all__ = [
    "GanttPage",
    "completion_figure",
    "deadline_figure",
    "gantt_figure",
    "gantt_pages",
]

#: Jobs drawn on one page of the Gantt chart, by default.
JOBS_PER_PAGE = 300
#: A VM row is at most this many lanes tall (more lanes share its height).
MAX_ROW_LANES = 6


def _vm_sort_key(vm: str, type_order: Mapping[str, int]) -> tuple[int, str, int, str]:
    """VMs named ``<type>#<k>`` sort by the scenario's type order, then numerically by k."""
    m = re.fullmatch(r"(.*)#(\d+)", vm)
    if m is None:
        return (len(type_order), vm, 0, vm)
    vm_type, k = m.group(1), int(m.group(2))
    return (type_order.get(vm_type, len(type_order)), vm_type, k, vm)


class GanttPage(TypedDict):
    """One page of a Gantt chart: a run of jobs by start time."""

    page: int  #: 0-based
    first_job: int  #: 1-based position of its first job by start time
    last_job: int
    start_s: float  #: earliest start of its jobs
    end_s: float  #: latest finish of its jobs


class _Placed(NamedTuple):
    """The jobs that ran (a start, a finish and a placement), by start time then id, read from
    the document's columns (no job is built): their indices, and every job's start and finish."""

    order: list[int]
    start_s: list[float | None]
    finish_s: list[float | None]


def _placed_jobs(result: Result) -> _Placed:
    start = [finite(x) for x in job_column(result, "start_s")]
    finish = [finite(x) for x in job_column(result, "finish_s")]
    ids = job_column(result, "id")
    order = [
        i for i, (s, f, placed) in enumerate(zip(start, finish, job_placed(result), strict=True))
        if s is not None and f is not None and placed
    ]
    order.sort(key=lambda i: (start[i] or 0.0, str(ids[i])))
    return _Placed(order, start, finish)


def _pages(placed: _Placed, per_page: int) -> list[GanttPage]:
    per_page = max(1, per_page)
    jobs, start, finish = placed
    pages: list[GanttPage] = []
    for k in range(0, len(jobs), per_page):
        chunk = jobs[k:k + per_page]
        pages.append({
            "page": k // per_page, "first_job": k + 1, "last_job": k + len(chunk),
            "start_s": min(start[i] or 0.0 for i in chunk),
            "end_s": max(finish[i] or 0.0 for i in chunk),
        })
    return pages


def gantt_pages(result: Result, max_jobs: int = JOBS_PER_PAGE) -> list[GanttPage]:
    """The pages of :func:`gantt_figure` for ``max_jobs`` jobs per page (one per ``page=``).

    >>> r = {"vm_types": [{"name": "s", "count": 1}], "jobs": [
    ...     {"id": f"j{k}", "start_s": 10.0 * k, "finish_s": 10.0 * k + 5, "placement": {"s#1": 1}}
    ...     for k in range(5)]}
    >>> [(p["first_job"], p["last_job"], p["start_s"], p["end_s"]) for p in gantt_pages(r, 2)]
    [(1, 2, 0.0, 15.0), (3, 4, 20.0, 35.0), (5, 5, 40.0, 45.0)]
    """
    return _pages(_placed_jobs(result), max_jobs)


def _lanes(executors: list[tuple[float, float, int]]) -> tuple[list[int], int]:
    """Lane of each executor ``(start, finish, order)`` so that no two in a lane overlap.

    Greedy interval partitioning by start time: as many lanes as executors ever run at once.
    """
    free_at: list[float] = []
    lane = [0] * len(executors)
    for i in sorted(range(len(executors)), key=lambda i: (executors[i][0], executors[i][2])):
        start, finish, _ = executors[i]
        k = next((k for k, f in enumerate(free_at) if f <= start), len(free_at))
        if k == len(free_at):
            free_at.append(finish)
        else:
            free_at[k] = finish
        lane[i] = k
    return lane, len(free_at)


def gantt_figure(result: Result, max_jobs: int = JOBS_PER_PAGE, *, page: int = 0) -> Figure:
    """Executors on VMs over time, one page of ``max_jobs`` jobs by start time.

    Each VM is a row; inside it every executor running at the same time has its own lane
    (executors of one job in adjacent lanes are one bar), coloured by framework. The VMs'
    on periods are drawn behind as light grey bars. The title says which jobs the page
    shows out of how many; ``layout.meta`` holds ``{"page", "pages", "jobs",
    "jobs_per_page", "first_job", "last_job"}`` for a pager (:func:`gantt_pages`).

    Raises
    ------
    ValueError
        If ``page`` is not one of the pages (page 0 always exists, even when empty).
    """
    placed = _placed_jobs(result)
    pages = _pages(placed, max_jobs)
    if not (0 <= page < max(1, len(pages))):
        raise ValueError(f"page must be in 0..{max(1, len(pages)) - 1}, got {page}")
    per_page = max(1, max_jobs)
    shown = list(jobs_at(result, placed.order[page * per_page:(page + 1) * per_page]))
    type_order = {str(vt["name"]): i for i, vt in enumerate(result.get("vm_types") or [])}
    start_s = min([finite(j["start_s"]) or 0.0 for j in shown] or [0.0])
    end_s = max([finite(j["finish_s"]) or 0.0 for j in shown] or [0.0])
    divisor, unit = time_unit(end_s)
    fw_colours = framework_colours(result)
    # Executors per VM, then their lanes.
    per_vm: dict[str, list[tuple[float, float, int]]] = {}
    owners: dict[str, list[int]] = {}
    for n, j in enumerate(shown):
        start, finish = finite(j["start_s"]) or 0.0, finite(j["finish_s"]) or 0.0
        for vm, executors in j["placement"].items():
            for _ in range(max(1, integral(executors) or 1)):
                per_vm.setdefault(str(vm), []).append((start, finish, n))
                owners.setdefault(str(vm), []).append(n)
    vms = sorted(per_vm, key=lambda v: _vm_sort_key(v, type_order))
    rows: dict[str, tuple[float, float, int]] = {}  # vm -> (top, height, lanes)
    top = 0.0
    bars: dict[str, dict[str, list[Any]]] = {}
    for vm in vms:
        lane, n_lanes = _lanes(per_vm[vm])
        height = 1.0 + 0.25 * (min(n_lanes, MAX_ROW_LANES) - 1)
        rows[vm] = (top, height, n_lanes)
        step = 0.9 * height / n_lanes
        # Adjacent lanes of one job become one bar.
        runs: dict[int, list[int]] = {}
        for (_, _, n), k in zip(per_vm[vm], lane, strict=True):
            runs.setdefault(n, []).append(k)
        for n, lanes in runs.items():
            j = shown[n]
            fw = str(j.get("framework") if j.get("framework") is not None else "default")
            start, finish = finite(j["start_s"]) or 0.0, finite(j["finish_s"]) or 0.0
            lanes.sort()
            groups: list[list[int]] = [[lanes[0]]]
            for k in lanes[1:]:
                if k == groups[-1][-1] + 1:
                    groups[-1].append(k)
                else:
                    groups.append([k])
            b = bars.setdefault(fw, {"y": [], "base": [], "x": [], "width": [], "customdata": []})
            for g in groups:
                b["y"].append(top + 0.05 * height + step * (g[0] + len(g) / 2))
                b["width"].append(step * len(g) * 0.92)
                b["base"].append(start / divisor)
                b["x"].append((finish - start) / divisor)
                b["customdata"].append([text(j.get("id")), len(g), text(vm), clock(start), clock(finish)])
        top += height
    data: list[dict[str, Any]] = []
    on: dict[str, list[Any]] = {"y": [], "base": [], "x": [], "width": []}
    for iv in iter_vm_intervals(result):
        vm = str(iv.get("vm"))
        a, b_ = finite(iv.get("on_s")), finite(iv.get("off_s"))
        if vm not in rows or a is None or b_ is None or b_ < start_s or a > end_s:
            continue
        row_top, height, _ = rows[vm]
        a, b_ = max(a, start_s), min(b_, end_s)
        on["y"].append(row_top + height / 2)
        on["width"].append(height * 0.98)
        on["base"].append(a / divisor)
        on["x"].append((b_ - a) / divisor)
    if on["y"]:
        data.append({
            "type": "bar", "orientation": "h", "name": "VM on", "y": round_sig(on["y"]),
            "base": round_sig(on["base"]), "x": round_sig(on["x"]), "width": round_sig(on["width"]),
            "marker": {"color": "rgba(160,160,160,0.25)"}, "hoverinfo": "skip",
        })
    for fw in sorted(bars):
        b = bars[fw]
        data.append({
            "type": "bar", "orientation": "h", "name": text(fw), "y": round_sig(b["y"]),
            "base": round_sig(b["base"]), "x": round_sig(b["x"]), "width": round_sig(b["width"]),
            "customdata": b["customdata"], "opacity": 0.9,
            "marker": {"color": fw_colours.get(fw, GREY), "line": {"color": "#FFFFFF", "width": 0.5}},
            "hovertemplate": (
                f"<b>%{{customdata[0]}}</b> ({text(fw)})<br>"
                "%{customdata[2]}: %{customdata[1]} executor(s)<br>"
                "%{customdata[3]} → %{customdata[4]}<extra></extra>"
            ),
        })
    title = f"Executors on VMs ({text(result.get('scheduler', ''))})"
    ran = len(placed.order)
    meta = {"page": page, "pages": len(pages), "jobs": ran, "jobs_per_page": per_page,
            "first_job": page * per_page + 1 if shown else 0, "last_job": page * per_page + len(shown)}
    if len(shown) < ran:
        title += (f" — jobs {meta['first_job']:,}–{meta['last_job']:,} of {ran:,} by start time"
                  f" (page {page + 1} of {len(pages)})")
    layout = base_layout(
        title, height=int(min(2400, max(320, 160 + 22 * top))), barmode="overlay", bargap=0,
        xaxis=axis(f"Time ({unit})", range=[start_s / divisor, max(end_s, start_s + 1.0) / divisor]),
        yaxis=axis("VM", tickvals=[rows[v][0] + rows[v][1] / 2 for v in vms], ticktext=[text(v) for v in vms],
                   range=[top, 0.0], showgrid=False, zeroline=False),
        hovermode="closest", meta=meta,
    )
    if len(shown) < ran:
        caption(layout, f"Jobs {meta['first_job']:,}–{meta['last_job']:,} of {ran:,}: the others are "
                        "on the other pages. Each executor running at once has its own lane in its VM's row.")
    return {"data": data, "layout": layout}


def completion_figure(
    results: Mapping[str, Result], *, view: Literal["raw", "multiples"] = "raw", max_points: int = 2000
) -> Figure:
    """Distribution of completion times (finish - arrival): one ECDF step line per scheduler.

    ``view="multiples"`` draws one panel per scheduler on shared axes.
    """
    colours_ = scheduler_colours(results)
    samples: dict[str, np.ndarray] = {}
    for name, r in results.items():
        # completion_s (finish - arrival, the document's rule), the same IEEE subtractions a
        # column at a time; a job without a finite one is left out.
        completion = (np.asarray(job_column(r, "finish_s"), dtype=float)
                      - np.asarray(job_column(r, "arrival_s"), dtype=float))
        samples[name] = np.sort(completion[np.isfinite(completion)])
    top = max([float(s[-1]) for s in samples.values() if s.size] or [0.0])
    divisor, unit = time_unit(top)
    names = [n for n, s in samples.items() if s.size]
    panels: list[str | None] = list(names) if view == "multiples" and names else [None]
    rows = stacked_rows(len(panels), gap=0.08)
    layout = base_layout("Completion time distribution", hovermode="closest",
                         height=420 if len(panels) == 1 else 200 + 170 * len(panels))
    data: list[dict[str, Any]] = []
    for row, panel in enumerate(panels):
        refs = {"xaxis": axis_ref("xaxis", row), "yaxis": axis_ref("yaxis", row)}
        last = row == len(panels) - 1
        layout[axis_key("yaxis", row)] = axis(
            "Jobs completed within" if panel is None else text(panel), tickformat=".0%", range=[0, 1.05],
            domain=list(rows[row]), anchor=refs["xaxis"],
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Completion time ({unit})" if last else "", anchor=refs["yaxis"], showticklabels=last,
            **({"matches": "x"} if row else {"range": [0, top / divisor * 1.02 or 1.0]}),
        )
        for name in names if panel is None else [panel]:
            s = samples[name]
            x = np.concatenate([[s[0]], s])
            y = np.concatenate([[0.0], np.arange(1, s.size + 1) / s.size])
            kt, ys = downsample_step(x.tolist(), {"p": y.tolist()}, max_points)
            median = float(np.median(s)) / divisor
            data.append({
                "type": "scatter", "mode": "lines", "name": f"{text(name)} (median {fmt(median)} {unit})",
                "x": round_sig(np.asarray(kt) / divisor), "y": round_sig(ys["p"], 5),
                "legendgroup": text(name), "line": {"shape": "hv", "color": colours_[name], "width": 2},
                "hovertemplate": (f"{text(name)}: %{{y:.1%}} of jobs within %{{x:{D3_NUM}}} {unit}"
                                  "<extra></extra>"),
                **refs,
            })
    return {"data": data, "layout": layout}


def _eq12_words(r: Result) -> str:
    missed, met = integral(r.get("deadline_missed")), integral(r.get("deadline_met"))
    pct = finite(r.get("deadline_miss_pct"))
    words = "missed " + ("n/a" if pct is None else f"{pct:.1f}%") + " of jobs with a deadline"
    if missed is not None and met:
        words += f"; eq. 12 θd = missed ÷ met = {missed / met:.2f}"
    return words


def deadline_figure(results: Mapping[str, Result]) -> Figure:
    """Jobs with a deadline that met or missed it, stacked bars per scheduler."""
    names = [text(n) for n in results]
    met = [integral(r.get("deadline_met")) or 0 for r in results.values()]
    missed = [integral(r.get("deadline_missed")) or 0 for r in results.values()]
    notes = [_eq12_words(r) for r in results.values()]
    outcome = colours("outcome", ["Met", "Missed"])
    data = [
        {"type": "bar", "name": "Met", "x": names, "y": met, "text": met, "textposition": "inside",
         "marker": {"color": outcome["Met"]}, "customdata": notes,
         "hovertemplate": "%{x}: %{y} met (%{customdata})<extra></extra>"},
        # Labelled above the bar ("6 missed"), and outlined, so that 1-2 % missed still shows.
        {"type": "bar", "name": "Missed", "x": names, "y": missed, "text": [f"{m:,} missed" for m in missed],
         "textposition": "outside", "cliponaxis": False,
         "marker": {"color": outcome["Missed"], "line": {"color": outcome["Missed"], "width": 2}},
         "customdata": notes, "hovertemplate": "%{x}: %{y} missed (%{customdata})<extra></extra>"},
    ]
    title = "Deadline outcomes"
    if not any(met) and not any(missed):
        title += " — no job has a deadline"
    layout = base_layout(
        title, barmode="stack", xaxis=axis("Scheduler", type="category"),
        yaxis=axis("Jobs with a deadline", rangemode="tozero"), hovermode="closest",
    )
    colour_ticks(layout, results)
    return {"data": data, "layout": layout}
