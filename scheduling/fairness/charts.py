"""Figures of fairness studies (papers 000 and 001): allocations and sharing over time.

Pure functions from the fairness engine's documents (the allocation and the sharing
document, docs/results.md) to plain Plotly figure dicts, like every chart of
:mod:`scheduling.charts`. Colours follow the house palettes:

* a **framework** keeps its colour of the ``framework`` palette in every figure;
* a **variant** of an allocation study and a **configuration** of a sharing study take the
  ``scheduler`` palette (:func:`scheduling.charts.variant_colours`): they are the schedulers being compared
  (paper 000's Table I calls its rows so), so the planner's swatches
  (:func:`~scheduling.charts.scheduler_colours`) match the charts;
* allocations are drawn on the sequential :data:`~scheduling.charts.palettes.HEAT` scale.

Figures of a study are built by :func:`allocation_figures` and :func:`sharing_figures`,
keyed by stable names in display order (``<key>@<view>`` another view of ``<key>``), as
:func:`scheduling.cost.charts.all_figures` does for a cost comparison.

>>> doc = {"study": "allocation", "label": "rPS-DSF", "trials": 1, "resources": ["cpu"],
...        "machines": [{"id": "c1#1", "vm_type": "c1", "capacity": {"cpu": 100}}],
...        "frameworks": [{"name": "f1"}], "mean": {"f1": {"c1#1": 19.0}}, "std": {"f1": {"c1#1": 0.0}},
...        "tasks": {"f1": {"mean": 19.0, "std": 0.0}}, "total_tasks": 19.0, "task_efficiency": 19.0}
>>> list(allocation_figures({"rPS-DSF": doc}))
['heatmap:rPS-DSF', 'totals', 'stranded']
>>> allocation_heatmap_figure(doc)["data"][0]["z"]
[[19.0]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any, Literal

import numpy as np

from ..charts import (
    D3_NUM,
    FAIRNESS_CAPTION,
    Figure,
    axis,
    axis_key,
    axis_ref,
    base_layout,
    caption,
    colour_ticks,
    fmt,
    rgba,
    round_sig,
    short_texts,
    stacked_rows,
    step_trace,
    text,
    time_unit,
    utilisation_figure,
    variant_colours,
)
from ..charts.downsample import downsample_step
from ..charts.palettes import GREY, HEAT, LOWER_BOUND, colours
from ..numbers import finite, integral
from ..numbers import section as _section
from .tables import framework_names, resource_names, stranded_totals
from .tables_common import NO_WINDOW, no_window, paper_window

__all__ = [
    "HEATMAP_MAX_MACHINES",
    "ShareView",
    "allocation_figures",
    "allocation_heatmap_figure",
    "allocation_totals_figure",
    "contention_mask",
    "outcomes_figure",
    "running_tasks_figure",
    "share_timeline_figure",
    "sharing_completion_figure",
    "sharing_figures",
    "sharing_utilisation_figure",
    "stranded_figure",
    "unfairness_figure",
]

#: A fairness document (allocation or sharing, docs/results.md).
Doc = Mapping[str, Any]
#: How a share timeline is drawn: one panel per framework, or every framework in one.
ShareView = Literal["panels", "overlay"]
#: With more servers than this, the heatmap shows VM types instead (``by="auto"``).
HEATMAP_MAX_MACHINES = 60
#: The heatmap writes its numbers in the cells up to this many cells.
HEATMAP_MAX_TEXT_CELLS = 400


def _frameworks(docs: Iterable[Doc]) -> list[str]:
    return list(dict.fromkeys(fw for doc in docs for fw in framework_names(doc)))


def _study(docs: Mapping[str, Doc], study: str) -> None:
    for label, doc in docs.items():
        if doc.get("study") != study:
            raise ValueError(
                f"{label!r} is not a document of a {study} study (study is {doc.get('study')!r})")



def _trials_words(doc: Doc) -> str:
    trials = integral(doc.get("trials"))
    if doc.get("method") == "exact":
        return "exact " + ("integer" if doc.get("integer") else "fractional") + " optimum"
    if trials is None or trials < 2:
        return "one trial"
    return f"mean over {trials:,} trials"


# --------------------------------------------------------------------------- allocation


def allocation_heatmap_figure(
    doc: Doc,
    *,
    by: Literal["auto", "machine", "vm_type"] = "auto",
    max_machines: int = HEATMAP_MAX_MACHINES,
) -> Figure:
    """Mean tasks of each framework (rows) on each server (columns) of one allocation.

    The hover gives the sample standard deviation over the trials. With ``by="vm_type"``
    (or ``"auto"`` and more than ``max_machines`` servers) a column is a VM type: the cell
    holds the framework's tasks on all servers of the type (the sum of their means), and
    the hover the servers' count, the mean per server and the largest per-server standard
    deviation (standard deviations of a sum cannot be recovered from the cells').
    """
    frameworks = framework_names(doc)
    machines = [m for m in doc.get("machines") or [] if isinstance(m, Mapping)]
    ids = [str(m.get("id")) for m in machines]
    mean = _section(doc, "mean")
    std = _section(doc, "std")
    by_type = by == "vm_type" or (by == "auto" and len(machines) > max_machines)

    def cell(table: Mapping[str, Any], fw: str, mid: str) -> float:
        return finite(_section(table, fw).get(mid)) or 0.0

    custom: list[list[Any]] = []
    if by_type:
        groups: dict[str, list[str]] = {}
        for m, mid in zip(machines, ids, strict=True):
            groups.setdefault(str(m.get("vm_type")), []).append(mid)
        columns = list(groups)
        z = [[sum(cell(mean, fw, mid) for mid in groups[c]) for c in columns] for fw in frameworks]
        for n, fw in enumerate(frameworks):
            custom.append([
                [len(groups[c]), round_sig([z[n][k] / len(groups[c])])[0],
                 round_sig([max(cell(std, fw, mid) for mid in groups[c])])[0]]
                for k, c in enumerate(columns)
            ])
        hover = ("%{y} on %{x} (%{customdata[0]} servers): %{z:.4~r} tasks, %{customdata[1]:.4~r} per "
                 "server, largest std %{customdata[2]:.3~r}<extra></extra>")
        xtitle = "VM type"
    else:
        columns = ids
        z = [[cell(mean, fw, mid) for mid in ids] for fw in frameworks]
        custom = [round_sig([cell(std, fw, mid) for mid in ids]) for fw in frameworks]
        hover = "%{y} on %{x}: %{z:.4~r} tasks (std %{customdata:.3~r})<extra></extra>"
        xtitle = "Server"
    trace: dict[str, Any] = {
        "type": "heatmap",
        "x": [text(c) for c in columns],
        "y": [text(fw) for fw in frameworks],
        "z": [round_sig(row) for row in z],
        "customdata": custom,
        "colorscale": [[stop, colour] for stop, colour in HEAT],
        "zmin": 0,
        "colorbar": {"title": {"text": "Tasks"}},
        "hovertemplate": hover,
        "xgap": 1,
        "ygap": 1,
    }
    # Printed in the cells, not only in the hover, so that a report on paper says it too.
    printed = len(columns) * len(frameworks) <= HEATMAP_MAX_TEXT_CELLS
    spread = not by_type and any(v for row in custom for v in row if isinstance(v, int | float))
    if printed:
        trace["texttemplate"] = "%{z:.3~r} ± %{customdata:.2~r}" if spread else "%{z:.3~r}"
    label = text(doc.get("label") or doc.get("policy") or "")
    title = f"Tasks per framework and {'VM type' if by_type else 'server'}: {label}"
    layout = base_layout(
        title, height=max(320, 180 + 48 * len(frameworks)), hovermode="closest",
        xaxis=axis(xtitle, type="category", showgrid=False, zeroline=False),
        yaxis=axis("Framework", type="category", autorange="reversed", showgrid=False, zeroline=False),
    )
    spread_words = " ± their sample standard deviation." if printed and spread else "."
    words = f"Mean tasks ({_trials_words(doc)})" + spread_words
    if by_type:
        words = f"Tasks on all servers of each VM type ({_trials_words(doc)})."
    caption(layout, words)
    return {"data": [trace], "layout": layout}


def allocation_totals_figure(docs: Mapping[str, Doc]) -> Figure:
    """Tasks of each framework per variant (grouped bars, ± the sample standard deviation),
    with each variant's total (± its standard deviation) and, when weights make it differ
    from the total, its task efficiency (paper 000, eq. 10)."""
    names = [text(v) for v in docs]
    frameworks = _frameworks(docs.values())
    fw_colours = colours("framework", frameworks)
    data: list[dict[str, Any]] = []
    for fw in frameworks:
        means = [finite(_section(d, "tasks", fw).get("mean")) for d in docs.values()]
        stds = [finite(_section(d, "tasks", fw).get("std")) or 0.0 for d in docs.values()]
        data.append({
            "type": "bar", "name": text(fw), "x": names, "y": _values(means),
            "marker": {"color": fw_colours[fw]}, "legendgroup": text(fw),
            "error_y": {"type": "data", "array": round_sig(stds), "visible": True, "color": LOWER_BOUND,
                        "thickness": 1.5, "width": 4},
            "customdata": round_sig(stds),
            "hovertemplate": f"{text(fw)}: %{{y:{D3_NUM}}} tasks ± %{{customdata:.3~r}}<extra></extra>",
        })
    totals = [finite(d.get("total_tasks")) for d in docs.values()]
    total_std = [finite(d.get("total_std")) or 0.0 for d in docs.values()]
    data.append({
        "type": "scatter", "mode": "markers", "name": "Total (mean ± std)", "x": names,
        "y": round_sig([np.nan if v is None else v for v in totals]),
        "marker": {"symbol": "line-ew-open", "size": 36, "color": LOWER_BOUND,
                   "line": {"width": 2, "color": LOWER_BOUND}},
        "error_y": {"type": "data", "array": round_sig(total_std), "visible": True, "color": LOWER_BOUND},
        "customdata": round_sig(total_std),
        "hovertemplate": f"total %{{y:{D3_NUM}}} tasks ± %{{customdata:.3~r}}<extra></extra>",
    })
    efficiency = [finite(d.get("task_efficiency")) for d in docs.values()]
    differs = zip(efficiency, totals, strict=True)
    if any(e is not None and t is not None and abs(e - t) > 1e-9 for e, t in differs):
        data.append({
            "type": "scatter", "mode": "markers", "name": "Task efficiency (eq. 10)", "x": names,
            "y": round_sig([np.nan if v is None else v for v in efficiency]),
            "marker": {"symbol": "diamond", "size": 10, "color": GREY,
                       "line": {"width": 1, "color": LOWER_BOUND}},
            "hovertemplate": f"task efficiency Σ φn·xn %{{y:{D3_NUM}}}<extra></extra>",
        })
    layout = base_layout(
        "Tasks allocated per framework", barmode="group", hovermode="x unified",
        xaxis=axis("Variant", type="category"),
        yaxis=axis("Tasks (mean over the trials)", rangemode="tozero"),
    )
    colour_ticks(layout, docs)
    caption(layout, "Bars: each framework's tasks; whiskers: ± one sample standard deviation over the "
                    "trials.")
    return {"data": data, "layout": layout}


def stranded_figure(docs: Mapping[str, Doc]) -> Figure:
    """Stranded capacity per resource, as a fraction of the cluster's, one bar per variant.

    Stranded: capacity left on servers where no framework allowed there fits one more whole
    task (mean over the trials); the hover adds the amount and all unallocated capacity.
    """
    resources = list(dict.fromkeys(r for d in docs.values() for r in resource_names(d)))
    colours_ = variant_colours(docs)
    data: list[dict[str, Any]] = []
    for label, doc in docs.items():
        totals = stranded_totals(doc)
        y: list[float] = []
        custom: list[list[float | None]] = []
        for r in resources:
            v = totals.get(r) or {}
            cap, amount, residual = v.get("capacity"), v.get("stranded"), v.get("residual")
            y.append(amount / cap if amount is not None and cap else np.nan)
            custom.append([
                amount, cap, round_sig([residual / cap])[0] if residual is not None and cap else None,
            ])
        data.append({
            "type": "bar", "name": text(label), "x": [text(r) for r in resources], "y": round_sig(y, 5),
            "customdata": custom,
            "marker": {"color": colours_[label]}, "legendgroup": text(label),
            "hovertemplate": (f"{text(label)}: %{{y:.1%}} stranded (%{{customdata[0]:{D3_NUM}}} of "
                              f"%{{customdata[1]:{D3_NUM}}}); %{{customdata[2]:.1%}} unallocated"
                              "<extra></extra>"),
        })
    layout = base_layout(
        "Stranded capacity", barmode="group", hovermode="x unified",
        xaxis=axis("Resource", type="category"),
        yaxis=axis("Stranded (of the cluster's capacity)", tickformat=".0%", rangemode="tozero"),
    )
    caption(layout, "Stranded: capacity left on servers where no allowed framework fits one more whole task.")
    return {"data": data, "layout": layout}


def outcomes_figure(doc: Doc) -> Figure:
    """The distinct allocations the trials ended in, most frequent first (at most 10 listed).

    One horizontal bar per allocation, split by framework (its tasks), labelled with how
    many trials ended there: a few very different outcomes are why a randomised policy's
    standard deviation is large (RRR-DRF on paper 000's Table I).
    """
    outcomes = [o for o in doc.get("outcomes") or [] if isinstance(o, Mapping)]
    trials = integral(doc.get("trials")) or sum(integral(o.get("trials")) or 0 for o in outcomes)
    machines = [str(m.get("id")) for m in doc.get("machines") or [] if isinstance(m, Mapping)]
    frameworks = framework_names(doc)
    fw_colours = colours("framework", frameworks)
    labels = []
    for k, o in enumerate(outcomes):
        n = integral(o.get("trials")) or 0
        share = f" ({n / trials:.0%})" if trials else ""
        labels.append(f"#{k + 1}: {n:,} trial{'s' if n != 1 else ''}{share}")
    base = np.zeros(len(outcomes))
    data: list[dict[str, Any]] = []
    for fw in frameworks:
        per_machine = [[finite(v) or 0.0 for v in _section(o, "tasks").get(fw) or []] for o in outcomes]
        totals = np.array([sum(row) for row in per_machine], dtype=float)
        detail = [
            ", ".join(f"{fmt(v)} on {text(mid)}" for v, mid in zip(row, machines, strict=False) if v)
            or "none"
            for row in per_machine
        ]
        data.append({
            "type": "bar", "orientation": "h", "name": text(fw), "y": list(range(len(outcomes))),
            "x": round_sig(totals),
            "base": round_sig(base), "width": 0.7, "marker": {"color": fw_colours[fw]},
            "legendgroup": text(fw),
            "text": [fmt(v) for v in totals.tolist()], "textposition": "inside",
            "customdata": detail,
            "hovertemplate": f"{text(fw)}: %{{x}} tasks (%{{customdata}})<extra></extra>",
        })
        base = base + totals
    layout = base_layout(
        f"Distinct outcomes: {text(doc.get('label') or '')}", barmode="overlay", hovermode="closest",
        height=max(320, 200 + 34 * len(outcomes)),
        xaxis=axis("Tasks allocated", rangemode="tozero"),
        # Numbered rows named by tick labels (as the Gantt chart's), which the PDF draws too.
        yaxis=axis("", autorange="reversed", showgrid=False, zeroline=False,
                   tickvals=list(range(len(outcomes))), ticktext=labels),
    )
    listed = sum(integral(o.get("trials")) or 0 for o in outcomes)
    words = "The allocations the trials ended in, most frequent first; each bar is one allocation."
    if trials and listed < trials:
        words += (f"<br>The {len(outcomes)} listed hold {listed:,} of {trials:,} trials; the rest ended "
                  "elsewhere.")
    caption(layout, words)
    return {"data": data, "layout": layout}


def allocation_figures(docs: Mapping[str, Doc]) -> dict[str, Figure]:
    """Every figure of an allocation study, keyed by a stable name, in display order.

    Keys: ``heatmap:<label>`` for each variant (by server, or by VM type beyond
    :data:`HEATMAP_MAX_MACHINES` servers), ``totals``, ``stranded``, and
    ``outcomes:<label>`` for each variant whose trials ended in two or more distinct
    allocations.

    Raises
    ------
    ValueError
        If a document is not an allocation document.
    """
    _study(docs, "allocation")
    builders: dict[str, Callable[[], Figure]] = {}
    for label, doc in docs.items():
        builders[f"heatmap:{label}"] = partial(allocation_heatmap_figure, doc)
    if docs:
        builders["totals"] = partial(allocation_totals_figure, docs)
        builders["stranded"] = partial(stranded_figure, docs)
    for label, doc in docs.items():
        if len(doc.get("outcomes") or []) > 1:
            builders[f"outcomes:{label}"] = partial(outcomes_figure, doc)
    return {key: build() for key, build in builders.items()}


# --------------------------------------------------------------------------- sharing


def _timeline(doc: Doc) -> tuple[np.ndarray, dict[str, dict[str, np.ndarray]]]:
    """Time points and, per series kind (share, fair_share, held, running, pending) and
    framework, the aligned series as float arrays (``None`` read as 0)."""
    tl = _section(doc, "timeline")
    t = np.asarray([finite(v) or 0.0 for v in tl.get("t") or []], dtype=float)
    out: dict[str, dict[str, np.ndarray]] = {}
    for kind in ("share", "fair_share", "held", "running", "pending"):
        out[kind] = {
            str(fw): np.asarray([finite(v) or 0.0 for v in series], dtype=float)
            for fw, series in _section(tl, kind).items()
            if isinstance(series, list) and len(series) == t.size
        }
    return t, out


#: The share charts' caption for paper 001 §II's unfairness (a document whose ``fairness`` says
#: ``definition: paper-001-ii``); older documents keep the pending-work caption.
WINDOW_CAPTION = (
    "Solid: the framework's dominant share of the cluster. Dashed: its fair share, its weight ÷ "
    "the weights of the frameworks that have tasks (paper 001 §II).<br>Contention window: from the "
    "time every framework has started launching to the time the first has launched all its tasks. "
    "Shaded: share below the fair share in the window; its area, in share·s, is the unfairness area."
)

def contention_mask(doc: Doc) -> np.ndarray:
    """Where the timeline is in contention. For paper 001 §II's unfairness: inside the
    document's contention ``window`` (nowhere when it has none). For an older document: two
    or more frameworks have a positive fair share (pending work), as
    :func:`scheduling.metrics.fairness_summary` counts it, inside its ``window`` if any."""
    t, series = _timeline(doc)
    window = [finite(v) for v in _section(doc, "fairness").get("window") or []]
    inside = len(window) == 2 and window[0] is not None and window[1] is not None
    if paper_window(doc):
        if not inside:
            return np.zeros(t.size, dtype=bool)
        mask = np.ones(t.size, dtype=bool)
    else:
        fair = series["fair_share"]
        pending = sum(((f > 0).astype(int) for f in fair.values()), np.zeros(t.size, dtype=int))
        mask = np.asarray(pending) >= 2
    if inside:
        assert window[0] is not None and window[1] is not None
        mask &= (t >= window[0] - 1e-9) & (t < window[1] - 1e-9)
    return mask


def _scaled(t: list[float], divisor: float) -> list[float | None]:
    return round_sig(np.asarray(t, dtype=float) / divisor)


def _values(values: Iterable[float | None]) -> list[float | None]:
    """Numbers for a trace (``None``, a gap, where there is none), rounded for the payload."""
    return round_sig([np.nan if v is None else v for v in values])


def share_timeline_figure(doc: Doc, *, view: ShareView = "panels", max_points: int = 2000) -> Figure:
    """Each framework's dominant share against its fair share over time, one configuration.

    The share is a solid step line, the fair share a dashed one of the same colour, and the
    shortfall in the contention window (share below the fair share, :func:`contention_mask`)
    is shaded between them: its area is the framework's unfairness area (paper 001 §II),
    which the legend gives with its unfairness %, or "no contention window". In offers mode a dotted line
    adds the share held in outstanding offers. ``view="panels"`` draws one panel per
    framework, ``"overlay"`` all in one. Timelines are downsampled to ``max_points`` per
    trace (:func:`~scheduling.charts.downsample_step`), keeping every series on the same
    kept time points, so the shading stays between its two lines.
    """
    t, series = _timeline(doc)
    share, fair, held = series["share"], series["fair_share"], series["held"]
    frameworks = [fw for fw in [*framework_names(doc), *share] if fw in share]
    frameworks = list(dict.fromkeys(frameworks))
    fw_colours = colours("framework", frameworks)
    contention = contention_mask(doc)
    divisor, unit = time_unit(float(t[-1]) if t.size else 0.0)
    summary = _section(doc, "fairness", "frameworks")
    panels: list[str | None] = list(frameworks) if view == "panels" and frameworks else [None]
    rows = stacked_rows(len(panels), gap=0.08)
    any_held = any(bool(np.any(h > 0)) for h in held.values())
    contention_s = finite(_section(doc, "fairness").get("contention_s"))
    title = f"Share of the cluster: {text(doc.get('label') or '')}"
    if contention_s is not None:
        title += f" (contention {fmt(contention_s / divisor)} {unit})"
    elif paper_window(doc):
        title += f" ({NO_WINDOW})"
    layout = base_layout(title, hovermode="x unified", height=max(460, 200 + 190 * len(panels)))
    for row, panel in enumerate(panels):
        last = row == len(panels) - 1
        layout[axis_key("yaxis", row)] = axis(
            "Dominant share" if panel is None else text(panel), tickformat=".0%", range=[0, 1.05],
            domain=list(rows[row]), anchor=axis_ref("xaxis", row),
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Time ({unit})" if last else "", anchor=axis_ref("yaxis", row), showticklabels=last,
            **({"matches": "x"} if row else {}),
        )
    data: list[dict[str, Any]] = []
    for fw in frameworks:
        row = panels.index(fw) if view == "panels" else 0
        refs = {"xaxis": axis_ref("xaxis", row), "yaxis": axis_ref("yaxis", row)}
        s = share[fw]
        f = fair.get(fw, np.zeros(t.size))
        h = held.get(fw, np.zeros(t.size))
        short = contention & (s < f)
        ys_in = {"s": s, "u": np.where(short, f, s), "f": f, "h": s + h}
        kt, ys = downsample_step(t, ys_in, max_points)
        x = _scaled(kt, divisor)
        colour = fw_colours[fw]
        label = text(fw)
        info = _section(summary, fw)
        area, pct = finite(info.get("unfairness_area")), finite(info.get("unfairness_pct"))
        area_txt = (NO_WINDOW if paper_window(doc) else "n/a") if area is None else f"{fmt(area)} share·s"
        if pct is not None:
            area_txt += f", {pct:.1f}%"
        data.append(step_trace(
            x, round_sig(ys["s"], 6), f"{label}: share", colour, legendgroup=label,
            hovertemplate=f"{label}: dominant share %{{y:.1%}}<extra></extra>", **refs,
        ) | {"line": {"shape": "hv", "color": colour, "width": 2.5}})
        data.append(step_trace(
            x, round_sig(ys["u"], 6), f"{label}: below fair share ({area_txt})", colour, legendgroup=label,
            fill="tonexty", fillcolor=rgba(colour, 0.35),
            hovertemplate=(f"{label} below its fair share during contention; unfairness area {area_txt} "
                           "(share × seconds)<extra></extra>"), **refs,
        ) | {"line": {"shape": "hv", "color": colour, "width": 0}})
        data.append(step_trace(
            x, round_sig(ys["f"], 6), f"{label}: fair share", colour, legendgroup=label,
            hovertemplate=f"{label}: fair share %{{y:.1%}}<extra></extra>", **refs,
        ) | {"line": {"shape": "hv", "color": colour, "width": 1.5, "dash": "dash"}})
        if any_held:
            data.append(step_trace(
                x, round_sig(ys["h"], 6), f"{label}: share with offers held", colour, legendgroup=label,
                hovertemplate=f"{label}: share with its outstanding offers %{{y:.1%}}<extra></extra>", **refs,
            ) | {"line": {"shape": "hv", "color": colour, "width": 1.2, "dash": "dot"}})
    words = WINDOW_CAPTION if paper_window(doc) else FAIRNESS_CAPTION
    if any_held:
        words += "<br>Dotted: the share with the resources held in outstanding offers (they count in it)."
    caption(layout, words)
    return {"data": data, "layout": layout}


def _as_docs(docs: Mapping[str, Doc] | Doc) -> Mapping[str, Doc]:
    """A single document as ``{label: doc}``; a mapping of documents as it is."""
    if "study" in docs and isinstance(docs.get("study"), str):
        return {str(docs.get("label") or docs.get("study")): docs}
    return docs


def running_tasks_figure(docs: Mapping[str, Doc] | Doc, *, max_points: int = 2000) -> Figure:
    """Running tasks of each framework over time, one panel per configuration.

    Pending tasks (arrived, not launched) are dotted lines, hidden until picked in the
    legend. ``docs`` is ``{label: sharing document}`` or one document.
    """
    docs = _as_docs(docs)
    frameworks = _frameworks(docs.values())
    fw_colours = colours("framework", frameworks)
    labels = list(docs)
    timelines = {label: _timeline(doc) for label, doc in docs.items()}
    end = max((float(t[-1]) for t, _ in timelines.values() if t.size), default=0.0)
    divisor, unit = time_unit(end)
    shown = short_texts(labels)
    rows = stacked_rows(len(labels), gap=0.08)
    layout = base_layout("Running tasks", hovermode="x unified", height=max(420, 200 + 190 * len(labels)))
    data: list[dict[str, Any]] = []
    for row, label in enumerate(labels):
        last = row == len(labels) - 1
        refs = {"xaxis": axis_ref("xaxis", row), "yaxis": axis_ref("yaxis", row)}
        layout[axis_key("yaxis", row)] = axis(
            shown[label] if len(labels) > 1 else "Running tasks", rangemode="tozero",
            domain=list(rows[row]), anchor=refs["xaxis"],
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Time ({unit})" if last else "", anchor=refs["yaxis"], showticklabels=last,
            **({"matches": "x"} if row else {}),
        )
        t, series = timelines[label]
        running, pending = series["running"], series["pending"]
        names = [fw for fw in frameworks if fw in running]
        if not names:
            continue
        kt, ys = downsample_step(
            t, {**{f"r{k}": running[fw] for k, fw in enumerate(names)},
                **{f"p{k}": pending[fw] for k, fw in enumerate(names) if fw in pending}}, max_points,
        )
        x = _scaled(kt, divisor)
        for k, fw in enumerate(names):
            name = text(fw)
            data.append(step_trace(
                x, round_sig(ys[f"r{k}"]), name, fw_colours[fw], legendgroup=name, showlegend=row == 0,
                hovertemplate=f"{name}: %{{y}} running<extra></extra>", **refs,
            ))
            if f"p{k}" in ys:
                data.append(step_trace(
                    x, round_sig(ys[f"p{k}"]), f"{name}: pending", fw_colours[fw], legendgroup=name,
                    showlegend=row == 0, visible="legendonly",
                    hovertemplate=f"{name}: %{{y}} pending<extra></extra>", **refs,
                ) | {"line": {"shape": "hv", "color": fw_colours[fw], "width": 1.2, "dash": "dot"}})
    return {"data": data, "layout": layout}


def sharing_utilisation_figure(
    docs: Mapping[str, Doc] | Doc, *, view: Literal["mean", "raw", "multiples"] = "mean",
    max_points: int = 2000,
) -> Figure:
    """Utilisation of each resource over time, one line per configuration (the cost
    comparison's :func:`~scheduling.charts.utilisation_figure` on the sharing timelines)."""
    return utilisation_figure(_as_docs(docs), view=view, max_points=max_points)


def unfairness_figure(docs: Mapping[str, Doc]) -> Figure:
    """Each framework's unfairness (%) per configuration, grouped bars (paper 001's measure).

    The hover adds the share of its fair share it received and its unfairness area.
    """
    names = [text(v) for v in docs]
    frameworks = _frameworks(docs.values())
    fw_colours = colours("framework", frameworks)
    data: list[dict[str, Any]] = []
    for fw in frameworks:
        info = [_section(d, "fairness", "frameworks", fw) for d in docs.values()]
        y = [finite(i.get("unfairness_pct")) for i in info]
        data.append({
            "type": "bar", "name": text(fw), "x": names, "y": _values(y),
            "customdata": [[finite(i.get("received_pct")), finite(i.get("unfairness_area"))] for i in info],
            "marker": {"color": fw_colours[fw]}, "legendgroup": text(fw),
            "hovertemplate": (f"{text(fw)}: unfairness %{{y:.1f}}% (received %{{customdata[0]:.1f}}% of its "
                              f"fair share; area %{{customdata[1]:{D3_NUM}}} share·s)<extra></extra>"),
        })
    layout = base_layout(
        "Unfairness per framework", barmode="group", hovermode="x unified",
        xaxis=axis("Configuration", type="category"),
        yaxis=axis("Unfairness (% of the fair share not received)", rangemode="tozero"),
    )
    colour_ticks(layout, docs)
    words = ("Unfairness (paper 001 §II): 100% minus the share of its fair share a framework received "
             "over the contention window.")
    none = [name for name, d in zip(names, docs.values(), strict=True) if no_window(d)]
    if none:  # never a silent 0: say which configurations have no bar, and why
        words += f"<br>{NO_WINDOW.capitalize()} (no bars): " + ", ".join(none) + "."
    caption(layout, words)
    return {"data": data, "layout": layout}


def sharing_completion_figure(docs: Mapping[str, Doc]) -> Figure:
    """When each framework's last task finished (top) and its mean wait (bottom), per
    configuration, with each configuration's makespan as a marker."""
    names = [text(v) for v in docs]
    frameworks = _frameworks(docs.values())
    fw_colours = colours("framework", frameworks)
    finish = {fw: [finite(_section(d, "completion", fw).get("last_finish_s")) for d in docs.values()]
              for fw in frameworks}
    wait = {fw: [finite(_section(d, "completion", fw).get("mean_wait_s")) for d in docs.values()]
            for fw in frameworks}
    makespan = [finite(d.get("makespan_s")) for d in docs.values()]
    ends = [v for vs in finish.values() for v in vs if v is not None]
    top = max(ends + [m for m in makespan if m is not None] + [0.0])
    divisor, unit = time_unit(top)
    longest_wait = max([v for vs in wait.values() for v in vs if v is not None] + [0.0])
    wdiv, wunit = time_unit(longest_wait)
    rows = stacked_rows(2, gap=0.14)
    layout = base_layout(
        "Completion per framework", barmode="group", hovermode="x unified", height=620,
        yaxis=axis(f"Last task finished ({unit})", rangemode="tozero", domain=list(rows[0]), anchor="x"),
        xaxis=axis("", type="category", anchor="y", showticklabels=True),
        yaxis2=axis(f"Mean wait ({wunit})", rangemode="tozero", domain=list(rows[1]), anchor="x2"),
        xaxis2=axis("Configuration", type="category", anchor="y2", matches="x"),
    )
    data: list[dict[str, Any]] = []

    def scaled(values: list[float | None], div: float) -> list[float | None]:
        return round_sig([np.nan if v is None else v / div for v in values])

    for fw in frameworks:
        name = text(fw)
        data.append({
            "type": "bar", "name": name, "x": names, "y": scaled(finish[fw], divisor),
            "marker": {"color": fw_colours[fw]}, "legendgroup": name,
            "hovertemplate": f"{name}: last task finished at %{{y:{D3_NUM}}} {unit}<extra></extra>",
        })
    for fw in frameworks:
        name = text(fw)
        data.append({
            "type": "bar", "name": name, "x": names, "y": scaled(wait[fw], wdiv),
            "xaxis": "x2", "yaxis": "y2",
            "marker": {"color": fw_colours[fw]}, "legendgroup": name, "showlegend": False,
            "hovertemplate": f"{name}: mean wait %{{y:{D3_NUM}}} {wunit}<extra></extra>",
        })
    if any(m is not None for m in makespan):
        data.append({
            "type": "scatter", "mode": "markers", "name": "Makespan", "x": names,
            "y": scaled(makespan, divisor),
            "marker": {"symbol": "line-ew-open", "size": 36, "color": LOWER_BOUND,
                       "line": {"width": 2, "color": LOWER_BOUND}},
            "hovertemplate": f"makespan %{{y:{D3_NUM}}} {unit}<extra></extra>",
        })
    colour_ticks(layout, docs)
    layout["xaxis2"]["tickvals"] = layout["xaxis"]["tickvals"]
    layout["xaxis2"]["ticktext"] = layout["xaxis"]["ticktext"]
    return {"data": data, "layout": layout}


def sharing_figures(docs: Mapping[str, Doc], *, max_points: int | None = None) -> dict[str, Figure]:
    """Every figure of a sharing study, keyed by a stable name, in display order.

    Keys (``<key>@<view>`` another view of ``<key>``):

    * ``share:<label>`` (one panel per framework), ``share:<label>@overlay`` for each
      configuration;
    * ``unfairness``, ``running`` (one panel per configuration);
    * ``utilisation`` (step mean over windows), ``utilisation@raw``, and
      ``utilisation@multiples`` for two configurations or more;
    * ``completion``.

    ``max_points``: points per timeline trace; by default 4,000 shared out between the
    configurations (at least 400, at most 2,000), as :func:`scheduling.cost.charts.all_figures`.

    Raises
    ------
    ValueError
        If a document is not a sharing document.
    """
    _study(docs, "sharing")
    points = max_points or max(400, min(2000, 4000 // max(1, len(docs))))
    builders: dict[str, Callable[[], Figure]] = {}
    for label, doc in docs.items():
        builders[f"share:{label}"] = partial(share_timeline_figure, doc, view="panels", max_points=points)
        builders[f"share:{label}@overlay"] = partial(
            share_timeline_figure, doc, view="overlay", max_points=points)
    if docs:
        builders["unfairness"] = partial(unfairness_figure, docs)
        builders["running"] = partial(running_tasks_figure, docs, max_points=points)
        builders["utilisation"] = partial(sharing_utilisation_figure, docs, view="mean")
        builders["utilisation@raw"] = partial(sharing_utilisation_figure, docs, view="raw", max_points=points)
        if len(docs) > 1:
            builders["utilisation@multiples"] = partial(
                sharing_utilisation_figure, docs, view="multiples", max_points=points)
        builders["completion"] = partial(sharing_completion_figure, docs)
    return {key: build() for key, build in builders.items()}
