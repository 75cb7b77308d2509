"""Figures of an MRSU study (paper 002): the misallocation snapshot (Fig. 2) and the sweep curves (Figs. 3-5).

Pure functions from the MRSU result document and the sweep document (docs/mrsu.md) to plain
Plotly figure dicts, like every chart of :mod:`scheduling.charts`. Methods (MRSU-FT, MRSU-ID,
VM-static, optimal) are the schedulers being compared and take the ``scheduler`` palette; the
optimal bound is drawn in the lower-bound grey; GCD is a solid line, MIN a dashed one.

Fig. 5 is the percentage of dissatisfied applications (short of their requirement in some
slot; ALGORITHM-NOTES §6); ``fig5-slots`` beside it, the percentage of application-slots short.

>>> doc = {"study": "mrsu-sweep", "loads_pct": [50.0, 100.0], "curves": {c: {m: {
...     "over": [0.1, 0.2], "under": [0.0, 0.3], "dissatisfied_pct": [0.0, 40.0],
...     "dissatisfied_apps_pct": [0.0, 90.0]}
...     for m in ("mrsu-ft", "mrsu-id", "vm-static", "optimal")} for c in ("gcd", "min")}}
>>> list(sweep_figures(doc))
['fig3-under', 'fig3-over', 'fig4-under', 'fig4-over', 'fig5', 'fig5-slots']
>>> [(t["name"], t["y"][1]) for t in dissatisfied_figure(doc)["data"]][:2]
[('MRSU-FT', 90.0), ('MRSU-ID', 90.0)]
>>> dissatisfied_figure(doc, measure="slots")["data"][0]["y"]
[0.0, 40.0]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..charts import Figure, axis, base_layout, caption
from ..charts.downsample import downsample_grid, downsample_linear
from ..charts.palettes import HEAT, LOWER_BOUND, colours
from .sweep import combine_sweeps

__all__ = [
    "ALLOCATION_MAX_COLS",
    "ALLOCATION_MAX_ROWS",
    "METHOD_LABELS",
    "SNAPSHOT_MAX_POINTS",
    "allocation_figure",
    "composition_figure",
    "dissatisfied_figure",
    "method_figure",
    "mrsu_figures",
    "run_figures",
    "snapshot_figure",
    "sweep_figures",
]

Doc = Mapping[str, Any]

METHOD_LABELS = {
    "mrsu-ft": "MRSU-FT",
    "mrsu-id": "MRSU-ID",
    "vm-static": "VM-static",
    "optimal": "Optimal",
    "vm-scaled": "VM-static (scaled)",
}
#: The allocation heatmap draws at most this many rows (applications) and columns (slots); past
#: them a cell is the mean of a block of neighbours.
ALLOCATION_MAX_ROWS = 60
ALLOCATION_MAX_COLS = 200
#: The snapshot (Fig. 2) draws at most about this many points per method.
SNAPSHOT_MAX_POINTS = 4000
_PART = {
    "under": "application dissatisfaction (under-allocated part)",
    "over": "over-allocated part",
    "over_every_cell": "over-allocated part, every cell",
}
_PART_NOTE = {
    "over": "; over-allocation counted in the (slot, dimension) cells where some application is short "
    "(paper §IV-B)",
    "over_every_cell": "; over-allocation counted in every cell (not the paper's measure)",
}
#: Fig. 5's two measures: dissatisfied applications (the paper's), application-slots short (beside it).
_DISSATISFIED = {
    "applications": (
        "dissatisfied_apps_pct",
        "Dissatisfied applications",
        "Dissatisfied applications (% short in some slot)",
        "Paper 002, Fig. 5: applications short of their requirement in at least one slot",
    ),
    "slots": (
        "dissatisfied_pct",
        "Application-slots short",
        "Application-slots not fully served (%)",
        "Beside paper 002's Fig. 5: the share of (application, slot) pairs short of their requirement",
    ),
}


def _method_colours() -> dict[str, str]:
    c = colours("scheduler", [METHOD_LABELS[m] for m in ("mrsu-ft", "mrsu-id", "vm-static", "vm-scaled")])
    c["Optimal"] = LOWER_BOUND
    return c


def _methods(sweep: Doc, composition: str) -> list[str]:
    # The notes' four methods in the paper's order, then any other the sweep holds (vm-scaled).
    held = list(sweep["curves"][composition])
    return [m for m in ("mrsu-ft", "mrsu-id", "vm-static", "optimal") if m in held] + [
        m for m in held if m not in ("mrsu-ft", "mrsu-id", "vm-static", "optimal")
    ]


def _line(x: list[float], y: list[float], name: str, colour: str, dash: str = "solid") -> dict[str, Any]:
    return {
        "type": "scatter",
        "mode": "lines+markers",
        "x": x,
        "y": y,
        "name": name,
        "line": {"color": colour, "dash": dash},
        "marker": {"size": 6},
        "hovertemplate": f"{name}<br>load %{{x}} %<br>%{{y:.4f}}<extra></extra>",
    }


def composition_figure(sweep: Doc, part: str = "under") -> Figure:
    """Fig. 3: mean ``|rho|`` of one part against load, GCD (solid) vs MIN (dashed), MRSU-FT and MRSU-ID."""
    x = list(sweep["loads_pct"])
    col = _method_colours()
    data = [
        _line(
            x,
            list(sweep["curves"][comp][m][part]),
            f"{METHOD_LABELS[m]} {comp.upper()}",
            col[METHOD_LABELS[m]],
            "solid" if comp == "gcd" else "dash",
        )
        for m in ("mrsu-ft", "mrsu-id")
        for comp in ("gcd", "min")
    ]
    layout = base_layout(
        f"GCD vs MIN: {_PART[part]}",
        xaxis=axis("Average load (% of capacity)"),
        yaxis=axis("Mean |misallocation coefficient|", rangemode="tozero"),
    )
    caption(layout, "Paper 002, Fig. 3: means over every application, dimension, slot and seed"
            + _PART_NOTE.get(part, ""))
    return {"data": data, "layout": layout}


def method_figure(sweep: Doc, part: str = "under", composition: str = "gcd") -> Figure:
    """Fig. 4: mean ``|rho|`` of one part against load for MRSU-FT, MRSU-ID, VM-static and optimal."""
    x = list(sweep["loads_pct"])
    col = _method_colours()
    data = [
        _line(
            x,
            list(sweep["curves"][composition][m][part]),
            METHOD_LABELS[m],
            col[METHOD_LABELS[m]],
            {"optimal": "dot", "vm-scaled": "dash"}.get(m, "solid"),
        )
        for m in _methods(sweep, composition)
    ]
    layout = base_layout(
        f"Scheduling methods ({composition.upper()}): {_PART[part]}",
        xaxis=axis("Average load (% of capacity)"),
        yaxis=axis("Mean |misallocation coefficient|", rangemode="tozero"),
    )
    caption(layout, "Paper 002, Fig. 4" + _PART_NOTE.get(part, ""))
    return {"data": data, "layout": layout}


def dissatisfied_figure(sweep: Doc, composition: str = "gcd", *, measure: str = "applications") -> Figure:
    """Fig. 5: the percentage of dissatisfied applications (short in some slot) against load;
    ``measure="slots"``: the percentage of application-slots not fully served, beside it."""
    key, title, y_title, note = _DISSATISFIED[measure]
    x = list(sweep["loads_pct"])
    col = _method_colours()
    data = [
        _line(
            x,
            list(sweep["curves"][composition][m].get(key) or [None] * len(x)),
            METHOD_LABELS[m],
            col[METHOD_LABELS[m]],
            {"optimal": "dot", "vm-scaled": "dash"}.get(m, "solid"),
        )
        for m in _methods(sweep, composition)
    ]
    for trace in data:
        trace["hovertemplate"] = f"{trace['name']}<br>load %{{x}} %<br>%{{y:.1f}} %<extra></extra>"
    layout = base_layout(
        title,
        xaxis=axis("Average load (% of capacity)"),
        yaxis=axis(y_title, rangemode="tozero"),
    )
    caption(layout, note)
    return {"data": data, "layout": layout}


def sweep_figures(sweep: Doc) -> dict[str, Figure]:
    """Every figure of a sweep, keyed in display order."""
    return {
        "fig3-under": composition_figure(sweep, "under"),
        "fig3-over": composition_figure(sweep, "over"),
        "fig4-under": method_figure(sweep, "under"),
        "fig4-over": method_figure(sweep, "over"),
        "fig5": dissatisfied_figure(sweep),
        "fig5-slots": dissatisfied_figure(sweep, measure="slots"),
    }


def _flat(coefficients: Mapping[str, list[list[float]]]) -> list[float]:
    # The paper's index: application, then dimension, then slot (Fig. 2).
    out: list[float] = []
    for rows in coefficients.values():
        for d in range(len(rows[0]) if rows else 0):
            out.extend(row[d] for row in rows)
    return out


def snapshot_figure(result: Doc, *, max_points: int = SNAPSHOT_MAX_POINTS) -> Figure | None:
    """Fig. 2: every misallocation coefficient of an MRSU result next to VM-static's (None if not kept).

    Past ``max_points`` coefficients a trace keeps, per bucket of neighbouring indices, its
    first, last, lowest and highest (:func:`~scheduling.charts.downsample_linear`): the
    envelope the eye sees in a dense cloud, at each point's own index.

    >>> doc = {"mode": "ft", "composition": "gcd", "misallocation": {"coefficients": {"a": [[0.5, 0.0]]}},
    ...        "baselines": {"vm-static": {"misallocation": {"coefficients": {"a": [[1.0, -1.0]]}}}}}
    >>> [t["y"] for t in snapshot_figure(doc)["data"]]
    [[1.0, -1.0], [0.5, 0.0]]
    """
    mine = result.get("misallocation", {}).get("coefficients")
    if mine is None:
        return None
    col = _method_colours()
    label = METHOD_LABELS[f"mrsu-{result.get('mode', 'ft')}"]
    data = []
    vm = result.get("baselines", {}).get("vm-static", {}).get("misallocation", {}).get("coefficients")
    shown = total = 0
    for name, coeff, colour in (("VM-static", vm, col["VM-static"]), (label, mine, col[label])):
        if coeff is None:
            continue
        flat = _flat(coeff)
        x, ys = downsample_linear(range(len(flat)), {"rho": flat}, max_points)
        shown, total = max(shown, len(x)), max(total, len(flat))
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "x": [int(i) for i in x],
                "y": ys["rho"],
                "name": name,
                "marker": {"color": colour, "size": 4},
                "hovertemplate": f"{name}<br>index %{{x}}<br>rho %{{y:.3f}}<extra></extra>",
            }
        )
    # Named by composition and mode, as the allocation heatmap is: a run draws four of these.
    layout = base_layout(
        f"Misallocation coefficient snapshot ({str(result.get('composition', '')).upper()}, "
        f"{str(result.get('mode', '')).upper()})",
        xaxis=axis("Index (application, dimension, slot)"),
        yaxis=axis("Misallocation coefficient rho", range=[-1.05, 1.05]),
    )
    note = "Paper 002, Fig. 2: rho > 0 over-allocated, rho < 0 dissatisfied"
    if shown < total:
        note += f"; {shown:,} of {total:,} points per method (each stretch's extremes)"
    caption(layout, note)
    return {"data": data, "layout": layout}


def _span(names: list[str], a: int, b: int) -> str:
    return names[a] if b - a == 1 else f"{names[a]} … {names[b - 1]} ({b - a})"


def allocation_figure(
    result: Doc, *, max_rows: int = ALLOCATION_MAX_ROWS, max_cols: int = ALLOCATION_MAX_COLS
) -> Figure:
    """Units allocated per application (rows) and slot (columns); ID mode shows the sum over dimensions.

    Past ``max_rows`` applications or ``max_cols`` slots, a cell is the mean over a block of
    neighbouring applications and slots (:func:`~scheduling.charts.downsample.downsample_grid`), so a
    1,000-application result draws at most ``max_rows`` rows; the hover names the block.

    >>> doc = {"composition": "gcd", "mode": "ft",
    ...        "allocation": {f"a{n}": [n, n, 0] for n in range(6)}}
    >>> fig = allocation_figure(doc, max_rows=3, max_cols=2)
    >>> fig["data"][0]["z"], fig["data"][0]["y"]
    ([[0.5, 0.0], [2.5, 0.0], [4.5, 0.0]], ['a0 … a1 (2)', 'a2 … a3 (2)', 'a4 … a5 (2)'])
    """
    names = list(result["allocation"])
    z = [
        [v if isinstance(v, int | float) else sum(v.values()) for v in result["allocation"][n]] for n in names
    ]
    slots = len(z[0]) if z else 0
    grid = np.asarray(z, dtype=float).reshape(len(names), slots)
    rows, cols, cells = downsample_grid(grid, max_rows, max_cols)
    grouped = len(rows) < len(names) or len(cols) < slots
    layout = base_layout(
        f"MRSU allocation ({result.get('composition', '').upper()}, {str(result.get('mode', '')).upper()})",
        height=max(320, 60 + 18 * len(rows)),
        xaxis=axis("Slot"),
        yaxis=axis("Application", autorange="reversed"),
    )
    trace: dict[str, Any] = {
        "type": "heatmap",
        "z": cells if grouped else z,
        "y": [_span(names, a, b) for a, b in rows],
        "x": [a for a, _ in cols],
        "colorscale": [list(s) for s in HEAT],
        "colorbar": {"title": {"text": "Units (mean)" if grouped else "Units"}},
        "hovertemplate": "%{y}, slot %{x}: %{z} units<extra></extra>",
    }
    if grouped:
        trace["customdata"] = [[f"{a}-{b - 1}" if b - a > 1 else str(a) for a, b in cols] for _ in rows]
        trace["hovertemplate"] = "%{y}, slots %{customdata}: mean %{z:.2f} units<extra></extra>"
        caption(
            layout,
            f"{len(names):,} applications x {slots:,} slots shown as {len(rows)} x {len(cols)} blocks "
            "(mean units of each block)",
        )
    return {"data": [trace], "layout": layout}


def mrsu_figures(result: Doc) -> dict[str, Figure]:
    """Every figure of an MRSU result, keyed in display order."""
    out = {"allocation": allocation_figure(result)}
    snap = snapshot_figure(result)
    if snap is not None:
        out["snapshot"] = snap
    return out


def run_figures(docs: Mapping[str, Doc]) -> dict[str, Figure]:
    """Every figure of labelled documents side by side (an MRSU run's units, advice and sweep
    parts): each MRSU result's figures keyed ``<figure>:<label>`` (``allocation:gcd-ft``), then
    the sweep's (Figs. 3-5) of every sweep document joined in load order
    (:func:`~scheduling.mrsu.sweep.combine_sweeps`). Other documents (the advisor's) have none.

    >>> from scheduling.mrsu.sweep import mrsu_sweep
    >>> docs = {f"sweep {p}%": mrsu_sweep(loads=[p / 100], seeds=1, applications=3, slots=2)
    ...         for p in (80, 40)}
    >>> figures = run_figures(docs)
    >>> list(figures), figures["fig5"]["data"][0]["x"]
    (['fig3-under', 'fig3-over', 'fig4-under', 'fig4-over', 'fig5', 'fig5-slots'], [40.0, 80.0])
    """
    figures: dict[str, Figure] = {}
    for label, doc in docs.items():
        if doc.get("study") == "mrsu":
            for key, figure in mrsu_figures(doc).items():
                figures[f"{key}:{label}"] = figure
    sweep = combine_sweeps(list(docs.values()))
    if sweep is not None:
        figures.update(sweep_figures(sweep))
    return figures
