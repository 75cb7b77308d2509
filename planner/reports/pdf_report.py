"""A run's report as a PDF drawn with matplotlib: a summary page, then charts.

Pages (A4 landscape):

1. the run's description and the summary table (one page per 6 schedulers);
2. cost over time: cumulative cost per scheduler with the lower bound, and cost per hour;
3. utilisation over time, one panel per resource (4 resources per page);
4. active VMs by type, one stacked panel per scheduler (6 schedulers per page);
5. cost per VM type and per framework, stacked bars;
6. deadline outcomes and the completion-time distribution.

Figures are built with :class:`matplotlib.figure.Figure` directly, never through pyplot,
so nothing global (backend, figure registry) is touched and nothing leaks in a long-lived
worker. Long timelines are averaged over time windows before drawing (a 10,000-job run
has about 20,000 points per scheduler), so big reports render in a few seconds. The file
is deterministic: no creation date is written.
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from scheduling.charts import format_duration, format_money

from .tables import (
    UNUSED_CAPACITY,
    Cell,
    ColumnKind,
    Table,
    meta_rows,
    resolve_baseline,
    scenario_name,
    summary_table,
)

__all__ = ["CREATOR", "pdf_page_count", "run_report_pdf"]

CREATOR = "Cluster What-If Planner"
PAGE_SIZE = (11.69, 8.27)  # A4 landscape, inches
SCHEDULERS_PER_PAGE = 6
RESOURCES_PER_PAGE = 4
MAX_STEPS = 600  # time windows a long step timeline is averaged into
UTILISATION_STEPS = 150  # fewer for the overlaid utilisation lines: legible, not a noise band
ACTIVE_VM_STEPS = 250
MAX_ECDF_POINTS = 400
MAX_PARTS = 8  # VM types / frameworks drawn separately; the rest are grouped as "other"

_SCHEDULER_COLOURS = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
]  # fmt: skip
_PART_COLOURS = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
]  # fmt: skip
_UNUSED_COLOUR = "#d9d9d9"
_OTHER_COLOUR = "#9e9e9e"  # a group of the smaller VM types / frameworks
_MET, _MISSED, _NO_DEADLINE = "#59a14f", "#e15759", "#bab0ac"

_RC: Any = {  # Any: matplotlib types rc keys as a Literal union
    "font.size": 9,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "pdf.fonttype": 42,  # embedded TrueType: the text is selectable and searchable
}


# --------------------------------------------------------------------------- text helpers


def _esc(text: Any) -> str:
    """User text for matplotlib: ``$`` would start mathtext (and could fail to parse)."""
    return str(text).replace("$", r"\$")


def _wrap(text: str, width: int) -> str:
    """Wrap a scheduler spec or name, also at ``:`` and ``,`` (specs have no spaces)."""
    spaced = text.replace(":", ": ").replace(",", ", ")
    lines = textwrap.wrap(spaced, width=width, break_long_words=True, break_on_hyphens=True)
    return "\n".join(line.rstrip() for line in lines) or text


def _format(value: Cell, kind: ColumnKind) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if kind in ("money", "price"):
        return format_money(value)
    if kind == "pct":
        return f"{value:,.1f} %"
    if kind == "seconds":
        return format_duration(value)
    if kind == "int":
        return f"{value:,.0f}"
    return f"{value:,.2f}"


def _time_unit(t_max: float) -> tuple[float, str]:
    """Divisor and axis label for a timeline lasting ``t_max`` seconds."""
    if t_max <= 2 * 60:
        return 1.0, "time (s)"
    if t_max <= 3 * 3600:
        return 60.0, "time (min)"
    if t_max <= 4 * 86400:
        return 3600.0, "time (h)"
    return 86400.0, "time (days)"


def _colour(i: int) -> str:
    return _SCHEDULER_COLOURS[i % len(_SCHEDULER_COLOURS)]


def _part_colour(i: int) -> str:
    return _PART_COLOURS[i % len(_PART_COLOURS)]


# --------------------------------------------------------------------------- data helpers


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    v = float(value)
    return v if math.isfinite(v) else None


def _array(values: Any) -> np.ndarray:
    """A float array from a list of numbers, ``None`` / junk as NaN."""
    if not isinstance(values, list | tuple):
        return np.zeros(0)
    return np.array([v if _num(v) is not None else np.nan for v in values], dtype=float)


def _timeline(r: Mapping[str, Any]) -> Mapping[str, Any]:
    tl = r.get("timeline")
    return tl if isinstance(tl, Mapping) else {}


def step_windows(
    t: np.ndarray, ys: Sequence[np.ndarray], max_steps: int = MAX_STEPS
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Average step functions over equal time windows when they have more than ``max_steps`` points.

    ``ys[i][k]`` holds from ``t[k]`` until ``t[k+1]``. Returns the window starts (plus the
    end) and each series' time-weighted mean per window (the last value repeated at the
    end), ready for a post-step plot; the area under each curve, hence a cost or
    VM-hours reading, is preserved. Short inputs come back unchanged.

    >>> t = np.array([0.0, 1, 2, 3, 4])
    >>> tt, (y,) = step_windows(t, [np.array([0.0, 4, 0, 2, 0])], max_steps=2)
    >>> tt.tolist(), y.tolist()
    ([0.0, 2.0, 4.0], [2.0, 1.0, 1.0])
    """
    n = t.size
    if n <= max_steps or n < 2 or not t[-1] > t[0]:
        return t, list(ys)
    edges = np.linspace(t[0], t[-1], max_steps + 1)
    dt = np.diff(t)
    out = []
    for y in ys:
        y0 = np.nan_to_num(y)
        area = np.concatenate(([0.0], np.cumsum(y0[:-1] * dt)))  # integral from t[0] to t[k]
        cum = np.interp(edges, t, area)
        means = np.diff(cum) / np.diff(edges)
        out.append(np.append(means, means[-1]))
    return edges, out


def _linear_points(
    t: np.ndarray, y: np.ndarray, max_points: int = 2 * MAX_STEPS
) -> tuple[np.ndarray, np.ndarray]:
    """Resample a piecewise-linear series (cumulative cost) on an even grid when it is long."""
    if t.size <= max_points or not t[-1] > t[0]:
        return t, y
    grid = np.linspace(t[0], t[-1], max_points)
    return grid, np.interp(grid, t, y)


def _chunks(items: Sequence[str], size: int) -> list[list[str]]:
    return [list(items[i : i + size]) for i in range(0, len(items), size)] or [[]]


def _resources(results: Mapping[str, Mapping[str, Any]]) -> list[str]:
    out: list[str] = []
    for r in results.values():
        res = r.get("resources")
        for name in res if isinstance(res, list) else []:
            if isinstance(name, str) and name not in out:
                out.append(name)
    return out


def _vm_type_names(results: Mapping[str, Mapping[str, Any]]) -> list[str]:
    out: list[str] = []
    for r in results.values():
        for vt in r.get("vm_types") or []:
            name = vt.get("name") if isinstance(vt, Mapping) else None
            if isinstance(name, str) and name not in out:
                out.append(name)
        for name in (*(r.get("cost_by_vm_type") or {}), *(_timeline(r).get("active_vms") or {})):
            if isinstance(name, str) and name not in out:
                out.append(name)
    return out


Part = tuple[str, list[str]]  # (label, names it stands for)


def group_parts(
    names: Sequence[str], weight: Callable[[str], float], kind: str, keep: int = MAX_PARTS
) -> list[Part]:
    """Keep the ``keep - 1`` heaviest names (in their given order) and group the rest.

    >>> group_parts(["a", "b", "c"], {"a": 1, "b": 5, "c": 2}.get, "types", keep=2)
    [('b', ['b']), ('2 other types', ['a', 'c'])]
    >>> group_parts(["a", "b"], {"a": 1, "b": 5}.get, "types", keep=2)
    [('a', ['a']), ('b', ['b'])]
    """
    if len(names) <= keep:
        return [(n, [n]) for n in names]
    heavy = set(sorted(names, key=lambda n: -weight(n))[: keep - 1])
    rest = [n for n in names if n not in heavy]
    return [*((n, [n]) for n in names if n in heavy), (f"{len(rest)} other {kind}", rest)]


def _short(text: str, width: int = 28) -> str:
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def pdf_page_count(results: Mapping[str, Mapping[str, Any]]) -> int:
    """How many pages :func:`run_report_pdf` produces for ``results``."""
    if not results:
        return 1
    per_schedulers = math.ceil(len(results) / SCHEDULERS_PER_PAGE)
    per_resources = max(1, math.ceil(len(_resources(results)) / RESOURCES_PER_PAGE))
    return per_schedulers + 1 + per_resources + per_schedulers + 1 + 1


# --------------------------------------------------------------------------- pages


def _page(title: str, subtitle: str = "") -> Figure:
    fig = Figure(figsize=PAGE_SIZE)
    fig.text(0.04, 0.955, title, fontsize=15, fontweight="bold", va="top", parse_math=False)
    if subtitle:
        fig.text(0.04, 0.915, subtitle, fontsize=9, color="#555555", va="top", parse_math=False)
    return fig


def _footer(fig: Figure, run_name: str, number: int, total: int) -> None:
    left = f"{CREATOR} - {run_name}" if run_name else CREATOR
    fig.text(0.04, 0.02, left, fontsize=7, color="#777777", parse_math=False)
    fig.text(0.96, 0.02, f"page {number} / {total}", fontsize=7, color="#777777", ha="right")


def _summary_pages(
    meta: Mapping[str, Any], results: Mapping[str, Mapping[str, Any]], baseline: str | None, table: Table
) -> list[Figure]:
    run_name = str(meta.get("run_name") or "Run report")
    specs = list(results)
    chunks = _chunks(specs, SCHEDULERS_PER_PAGE)
    pages = []
    priced = {spec: v for spec in specs if (v := _num(results[spec].get("total_cost"))) is not None}
    cheapest = min(priced, key=lambda k: priced[k]) if priced else None
    for n, chunk in enumerate(chunks):
        suffix = f" ({n + 1}/{len(chunks)})" if len(chunks) > 1 else ""
        fig = _page(
            f"Run report: {run_name}{suffix}", "Cluster What-If Planner - cost comparison of schedulers"
        )
        if n == 0:
            details = [
                (label, value) for label, value in meta_rows(meta, results, baseline) if label != "Units"
            ]
            y = 0.86
            for label, value in details:
                text = "" if value is None else f"{value:,}" if isinstance(value, int) else str(value)
                fig.text(0.04, y, f"{label}:", fontsize=9, fontweight="bold", va="top")
                fig.text(0.16, y, textwrap.shorten(text, 150) or "-", fontsize=9, va="top", parse_math=False)
                y -= 0.03
            if cheapest is not None:
                base = resolve_baseline(results, baseline)
                line = f"Cheapest: {cheapest}, total cost {format_money(priced[cheapest])}"
                saving = table.rows[specs.index(cheapest)][table.index("saving_pct")]
                if base and base != cheapest and isinstance(saving, float):
                    line += f" ({saving:.1f} % less than {base})"
                fig.text(
                    0.04,
                    y - 0.01,
                    line,
                    fontsize=11,
                    fontweight="bold",
                    color="#2c6e2f",
                    va="top",
                    parse_math=False,
                )
                y -= 0.05
            top = y - 0.01
        else:
            top = 0.86
        if not chunk:
            fig.text(0.04, top, "This run has no results.", fontsize=11, va="top")
        else:
            ax = fig.add_axes((0.04, 0.07, 0.92, max(0.2, top - 0.07)))
            ax.axis("off")
            _draw_summary_table(ax, table, chunk, cheapest)
        pages.append(fig)
    return pages


def _draw_summary_table(ax: Axes, table: Table, specs: list[str], cheapest: str | None) -> None:
    rows_by_spec = {row[0]: row for row in table.rows}
    metrics = [c for c in table.columns if c.key != "scheduler"]
    text = [[_esc(_format(rows_by_spec[s][table.index(c.key)], c.kind)) for s in specs] for c in metrics]
    header = [_esc(_wrap(s, 18)) for s in specs]
    header_lines = max((h.count("\n") + 1 for h in header), default=1)
    n_rows = len(metrics) + 1
    # Row heights in axes units: the header is as tall as its wrapped lines.
    unit = 1.0 / (n_rows - 1 + max(1.3, 0.75 * header_lines + 0.5))
    tbl = ax.table(
        cellText=text,
        rowLabels=[_esc(c.label) for c in metrics],
        colLabels=header,
        cellLoc="right",
        rowLoc="left",
        colLoc="center",
        loc="upper right",
    )
    tbl.auto_set_font_size(False)
    tbl.set_fontsize(9)
    label_w = 0.26
    col_w = min(0.15, (1.0 - label_w) / max(1, len(specs)))
    for (row, col), cell in tbl.get_celld().items():
        cell.set_edgecolor("#cccccc")
        cell.set_height(unit * (max(1.3, 0.75 * header_lines + 0.5) if row == 0 else 1.0))
        cell.set_width(label_w if col == -1 else col_w)
        if row == 0:
            cell.set_facecolor("#eef2f7")
            cell.get_text().set_fontweight("bold")
            if cheapest is not None and col >= 0 and specs[col] == cheapest:
                cell.set_facecolor("#dcefdc")
        elif col == -1:
            cell.get_text().set_fontweight("bold")
            cell.set_facecolor("#f7f7f7" if row % 2 else "white")
        else:
            cell.set_facecolor("#f7f7f7" if row % 2 else "white")
            if cheapest is not None and specs[col] == cheapest:
                cell.set_facecolor("#eef8ee")


def _cost_page(results: Mapping[str, Mapping[str, Any]]) -> Figure:
    fig = _page(
        "Cost over time",
        "Cumulative billed cost of each scheduler; dashed: the lower bound no scheduler can beat",
    )
    ax1 = fig.add_axes((0.07, 0.50, 0.70, 0.36))
    ax2 = fig.add_axes((0.07, 0.09, 0.70, 0.32))
    t_max = max((_array(_timeline(r).get("t"))[-1:].tolist() or [0.0])[0] for r in results.values())
    t_max = t_max if math.isfinite(t_max) else 0.0
    hours = max((len(r.get("cost_by_hour") or []) for r in results.values()), default=0)
    div, label = _time_unit(max(t_max, hours * 3600.0))
    bounds = _lower_bounds(results)
    handles: list[Any] = []
    for i, (spec, r) in enumerate(results.items()):
        tl = _timeline(r)
        t, c = _array(tl.get("t")), _array(tl.get("cumulative_cost"))
        if t.size and t.size == c.size:
            tt, cc = _linear_points(t, c)
            ax1.plot(tt / div, cc, color=_colour(i), lw=1.6)
        per_hour = _array(r.get("cost_by_hour"))
        if per_hour.size:
            edges = np.arange(per_hour.size + 1) * 3600.0 / div
            ax2.stairs(per_hour, edges, color=_colour(i), lw=1.4)
        handles.append(Line2D([], [], color=_colour(i), lw=2, label=_esc(_wrap(spec, 30))))
    for b in bounds:
        ax1.axhline(b, color="black", ls="--", lw=1)
    if bounds:
        handles.append(Line2D([], [], color="black", ls="--", lw=1, label="lower bound"))
    ax1.set_title("Cumulative cost", loc="left")
    ax1.set_ylabel("cost")
    ax1.set_xlabel(label)
    ax1.set_ylim(bottom=0)
    ax1.set_xlim(left=0)
    ax2.set_title("Cost per hour", loc="left")
    ax2.set_ylabel("cost in the hour")
    ax2.set_xlabel(label)
    ax2.set_ylim(bottom=0)
    ax2.set_xlim(left=0)
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.79, 0.86), frameon=False)
    return fig


def _utilisation_pages(results: Mapping[str, Mapping[str, Any]]) -> list[Figure]:
    resources = _resources(results) or ["cpu"]
    pages = []
    t_max = _max_t(results)
    div, label = _time_unit(t_max)
    for chunk in _chunks(resources, RESOURCES_PER_PAGE):
        fig = _page(
            "Utilisation over time",
            "Lines: used / capacity of the VMs that are on (how well each scheduler packs). "
            "Grey: used / whole cluster. Long runs are averaged over time windows.",
        )
        height = 0.78 / len(chunk)
        for k, res in enumerate(chunk):
            ax = fig.add_axes((0.07, 0.86 - (k + 1) * height + 0.06, 0.70, height - 0.09))
            first = True
            for i, r in enumerate(results.values()):
                tl = _timeline(r)
                t = _array(tl.get("t"))
                on = _array((tl.get("utilisation_of_on") or {}).get(res))
                whole = _array((tl.get("utilisation") or {}).get(res))
                if not t.size:
                    continue
                if first and whole.size == t.size:
                    tt, (w,) = step_windows(t, [whole], UTILISATION_STEPS)
                    ax.fill_between(tt / div, w * 100, step="post", color="#bbbbbb", alpha=0.5, lw=0)
                    first = False
                if on.size == t.size:
                    tt, (u,) = step_windows(t, [on], UTILISATION_STEPS)
                    ax.step(tt / div, u * 100, where="post", color=_colour(i), lw=1.1, alpha=0.9)
            ax.set_title(_esc(res), loc="left")
            ax.set_ylabel("% of capacity")
            ax.set_ylim(0, 105)
            ax.set_xlim(left=0)
            if k == len(chunk) - 1:
                ax.set_xlabel(label)
        handles: list[Any] = [
            Line2D([], [], color=_colour(i), lw=2, label=_esc(_wrap(s, 30))) for i, s in enumerate(results)
        ]
        handles.append(Patch(color="#bbbbbb", alpha=0.5, label="whole cluster"))
        fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.79, 0.86), frameon=False)
        pages.append(fig)
    return pages


def _max_t(results: Mapping[str, Mapping[str, Any]]) -> float:
    t_max = 0.0
    for r in results.values():
        t = _array(_timeline(r).get("t"))
        if t.size and math.isfinite(t[-1]):
            t_max = max(t_max, float(t[-1]))
    return t_max


def _grid(n: int) -> tuple[int, int]:
    if n <= 1:
        return 1, 1
    if n <= 2:
        return 2, 1
    if n <= 4:
        return 2, 2
    return 3, 2


def _active_vm_pages(results: Mapping[str, Mapping[str, Any]]) -> list[Figure]:
    parts = group_parts(_vm_type_names(results), lambda n: _vm_cost_total(results, n), "VM types")
    colours = {label: _part_colour(i) if len(m) == 1 else _OTHER_COLOUR for i, (label, m) in enumerate(parts)}
    div, label = _time_unit(_max_t(results))
    # Windowed stacks first: every panel shares the y scale of the tallest (drawn) stack.
    stacks: dict[str, tuple[np.ndarray, list[str], list[np.ndarray]]] = {}
    y_max = 0.0
    for spec, r in results.items():
        tl = _timeline(r)
        t = _array(tl.get("t"))
        active = tl.get("active_vms") or {}
        labels, series = [], []
        for part, members in parts:
            counts = [_array(active[n]) for n in members if n in active]
            counts = [c for c in counts if c.size == t.size]
            if counts:
                labels.append(part)
                series.append(np.sum(counts, axis=0))
        if t.size and series:
            tt, ys = step_windows(t, series, ACTIVE_VM_STEPS)
            stacks[spec] = (tt, labels, ys)
            y_max = max(y_max, float(np.nanmax(np.sum(ys, axis=0))))
    pages = []
    specs = list(results)
    for chunk in _chunks(specs, SCHEDULERS_PER_PAGE):
        fig = _page(
            "Active VMs by type",
            "VMs switched on over time, stacked by type (long runs: mean over time windows)",
        )
        rows, cols = _grid(len(chunk))
        gs = fig.add_gridspec(
            rows, cols, left=0.07, right=0.80, top=0.86, bottom=0.08, hspace=0.45, wspace=0.15
        )
        for k, spec in enumerate(chunk):
            ax = fig.add_subplot(gs[k // cols, k % cols])
            if spec in stacks:
                tt, names, ys = stacks[spec]
                ax.stackplot(tt / div, *ys, colors=[colours[n] for n in names], step="post", lw=0)
            ax.set_title(_esc(_wrap(spec, 45)), loc="left", fontsize=10)
            ax.set_ylim(0, max(1.0, y_max * 1.05))
            ax.set_xlim(left=0)
            if k % cols == 0:
                ax.set_ylabel("VMs on")
            if k // cols == rows - 1 or k + cols >= len(chunk):
                ax.set_xlabel(label)
        handles = [Patch(color=colours[n], label=_esc(_short(n))) for n, _ in parts]
        fig.legend(
            handles=handles, loc="upper left", bbox_to_anchor=(0.82, 0.86), frameon=False, title="VM type"
        )
        pages.append(fig)
    return pages


def _stacked_bars(
    ax: Axes,
    specs: list[str],
    parts: list[str],
    value: Callable[[str, str], float],
    colour: Callable[[int, str], str],
    hatch: Callable[[str], str | None] = lambda _: None,
) -> None:
    x = np.arange(len(specs))
    bottom = np.zeros(len(specs))
    for j, part in enumerate(parts):
        heights = np.array([value(s, part) for s in specs])
        ax.bar(
            x,
            heights,
            0.6,
            bottom=bottom,
            color=colour(j, part),
            hatch=hatch(part),
            edgecolor="white",
            lw=0.5,
        )
        bottom += heights
    for xi, total in zip(x, bottom, strict=True):
        ax.annotate(
            format_money(float(total)),
            (xi, total),
            ha="center",
            va="bottom",
            fontsize=8,
            xytext=(0, 2),
            textcoords="offset points",
        )
    ax.set_xticks(x, [_esc(_wrap(s, 14)) for s in specs])
    ax.set_ylim(0, max(1e-9, float(bottom.max(initial=0.0))) * 1.12)
    ax.grid(axis="x", visible=False)


def _breakdown_page(results: Mapping[str, Mapping[str, Any]]) -> Figure:
    fig = _page(
        "Where the money goes", "Billed cost per VM type and per framework (jobs pay their dominant share)"
    )
    specs = list(results)
    gs = fig.add_gridspec(1, 2, left=0.07, right=0.97, top=0.80, bottom=0.22, wspace=0.3)

    ax1 = fig.add_subplot(gs[0, 0])
    types = group_parts(_vm_type_names(results), lambda n: _vm_cost_total(results, n), "VM types")

    def vm_cost(spec: str, part: str) -> float:
        costs = results[spec].get("cost_by_vm_type") or {}
        return sum(_num(costs.get(n)) or 0.0 for n in dict(types)[part])

    def vm_colour(j: int, part: str) -> str:
        return _part_colour(j) if len(dict(types)[part]) == 1 else _OTHER_COLOUR

    _stacked_bars(ax1, specs, [p for p, _ in types], vm_cost, vm_colour)
    bounds = _lower_bounds(results)
    for b in bounds:
        ax1.axhline(b, color="black", ls="--", lw=1)
    ax1.set_title("Cost per VM type", loc="left")
    ax1.set_ylabel("cost")
    handles: list[Any] = [
        Patch(color=vm_colour(j, p), label=_esc(_short(p))) for j, (p, _) in enumerate(types)
    ]
    if bounds:
        handles.append(Line2D([], [], color="black", ls="--", lw=1, label="lower bound"))
    _legend_below(ax1, handles)

    ax2 = fig.add_subplot(gs[0, 1])
    names: list[str] = []
    for r in results.values():
        for name in r.get("cost_by_framework") or {}:
            if isinstance(name, str) and name not in names and name != UNUSED_CAPACITY:
                names.append(name)

    def fw_total(name: str) -> float:
        return sum(_num((r.get("cost_by_framework") or {}).get(name)) or 0.0 for r in results.values())

    frameworks = group_parts(names, fw_total, "frameworks", keep=MAX_PARTS - 1)
    if any(UNUSED_CAPACITY in (r.get("cost_by_framework") or {}) for r in results.values()):
        frameworks.append((UNUSED_CAPACITY, [UNUSED_CAPACITY]))
    members = dict(frameworks)

    def fw_cost(spec: str, part: str) -> float:
        costs = results[spec].get("cost_by_framework") or {}
        return sum(_num(costs.get(n)) or 0.0 for n in members[part])

    def fw_colour(j: int, part: str) -> str:
        if part == UNUSED_CAPACITY:
            return _UNUSED_COLOUR
        return _PART_COLOURS[(j + 3) % len(_PART_COLOURS)] if len(members[part]) == 1 else _OTHER_COLOUR

    def fw_hatch(part: str) -> str | None:
        return "//" if part == UNUSED_CAPACITY else None

    labels = [p for p, _ in frameworks]
    _stacked_bars(ax2, specs, labels, fw_cost, fw_colour, fw_hatch)
    ax2.set_title("Cost per framework", loc="left")
    ax2.set_ylabel("cost")
    fw_handles = [
        Patch(facecolor=fw_colour(j, p), hatch=fw_hatch(p), label=_esc(_short(p)))
        for j, p in enumerate(labels)
    ]
    _legend_below(ax2, fw_handles)
    return fig


def _legend_below(ax: Axes, handles: list[Any]) -> None:
    ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.16),
        ncol=min(3, len(handles)),
        frameon=False,
    )


def _lower_bounds(results: Mapping[str, Mapping[str, Any]]) -> list[float]:
    """The distinct lower bounds of the results (one for a run: they share a scenario)."""
    return sorted({v for r in results.values() if (v := _num(r.get("lower_bound_cost"))) is not None})


def _vm_cost_total(results: Mapping[str, Mapping[str, Any]], name: str) -> float:
    return sum(_num((r.get("cost_by_vm_type") or {}).get(name)) or 0.0 for r in results.values())


def _outcomes_page(results: Mapping[str, Mapping[str, Any]]) -> Figure:
    fig = _page("Deadlines and completion times", "Completion time = finish - arrival")
    specs = list(results)
    gs = fig.add_gridspec(
        1, 2, left=0.07, right=0.97, top=0.80, bottom=0.22, wspace=0.25, width_ratios=(1, 1.3)
    )

    ax1 = fig.add_subplot(gs[0, 0])
    x = np.arange(len(specs))
    met = np.array([_num(results[s].get("deadline_met")) or 0.0 for s in specs])
    missed = np.array([_num(results[s].get("deadline_missed")) or 0.0 for s in specs])
    total = np.array([_num(results[s].get("jobs_total")) or 0.0 for s in specs])
    none = np.maximum(total - met - missed, 0.0)
    ax1.bar(x, met, 0.6, color=_MET, label="deadline met")
    ax1.bar(x, missed, 0.6, bottom=met, color=_MISSED, label="deadline missed")
    ax1.bar(x, none, 0.6, bottom=met + missed, color=_NO_DEADLINE, label="no deadline")
    for xi, s in zip(x, specs, strict=True):
        pct = _num(results[s].get("deadline_miss_pct"))
        text = f"{int(missed[xi]):,} missed" + (f"\n({pct:.1f} %)" if pct is not None else "")
        ax1.annotate(
            text,
            (xi, total[xi]),
            ha="center",
            va="bottom",
            fontsize=8,
            xytext=(0, 2),
            textcoords="offset points",
        )
    ax1.set_xticks(x, [_esc(_wrap(s, 14)) for s in specs])
    ax1.set_ylim(0, max(1.0, float(total.max(initial=0.0))) * 1.18)
    ax1.set_ylabel("jobs")
    ax1.set_title("Deadline outcomes", loc="left")
    ax1.grid(axis="x", visible=False)
    ax1.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, frameon=False)

    ax2 = fig.add_subplot(gs[0, 1])
    lows = []
    for i, (spec, r) in enumerate(results.items()):
        jobs = r.get("jobs") or []
        c = np.array(
            [
                v
                for j in jobs
                if (v := _num(j.get("completion_s") if isinstance(j, Mapping) else None)) is not None
            ]
        )
        if not c.size:
            continue
        c.sort()
        q = (np.arange(1, c.size + 1)) / c.size
        if c.size > MAX_ECDF_POINTS:
            idx = np.unique(np.linspace(0, c.size - 1, MAX_ECDF_POINTS).round().astype(int))
            c, q = c[idx], q[idx]
        ax2.step(c, q * 100, where="post", color=_colour(i), lw=1.5, label=_esc(_wrap(spec, 30)))
        lows.append(float(c[0]))
    positive = [v for v in lows if v > 0]
    if positive and len(positive) == len(lows):
        ax2.set_xscale("log")
        ax2.set_xlabel("completion time (s, log scale)")
    else:
        ax2.set_xlabel("completion time (s)")
    ax2.set_ylabel("% of jobs completed within")
    ax2.set_ylim(0, 101)
    ax2.set_title("Completion-time distribution", loc="left")
    if lows:
        ax2.legend(loc="lower right", frameon=False)
    return fig


# --------------------------------------------------------------------------- entry point


def run_report_pdf(
    meta: Mapping[str, Any], results: Mapping[str, Mapping[str, Any]], baseline: str | None
) -> bytes:
    """The run's report as PDF bytes; :func:`pdf_page_count` tells how many pages.

    Parameters
    ----------
    meta : mapping
        ``run_name``, ``scenario_name``, ``created_at``, ``run_id`` (all optional).
    results : mapping of str to dict
        Result documents keyed by scheduler spec.
    baseline : str or None
        The scheduler savings are measured against; ``None`` = the first one.

    Raises
    ------
    ValueError
        If ``baseline`` is not one of ``results``.
    """
    table = summary_table(results, baseline)  # validates the baseline
    run_name = str(meta.get("run_name") or "")
    metadata = {
        "Title": f"Run report: {run_name}" if run_name else "Run report",
        "Subject": f"Scenario: {scenario_name(meta, results)}",
        "Keywords": ", ".join(results),
        "Creator": CREATOR,
        "CreationDate": None,
    }
    buf = io.BytesIO()
    with rc_context(_RC):
        figures = _summary_pages(meta, results, baseline, table)
        if results:
            figures.append(_cost_page(results))
            figures += _utilisation_pages(results)
            figures += _active_vm_pages(results)
            figures.append(_breakdown_page(results))
            figures.append(_outcomes_page(results))
        with PdfPages(buf, metadata=metadata) as pdf:
            for n, fig in enumerate(figures, start=1):
                _footer(fig, run_name, n, len(figures))
                pdf.savefig(fig)
    return buf.getvalue()
