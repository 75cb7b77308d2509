"""The sweep's figures, pure functions of its document (:mod:`scheduling.sweep.document`).

* ``cost-misses``: every point's cost against its deadline misses, one colour per scheduler,
  the Pareto front drawn through its points (:func:`front_figure`);
* ``cost-unfairness``: the same against the frameworks' unfairness area, when two or more
  frameworks shared the cluster;
* ``band:<metric>:<axis>``: one line per scheduler over the axis's values, the mean over the
  seeds with its 95 % t-interval shaded (:func:`band_figure`).

>>> doc = {"axes": {"load.jobs": [1.0, 2.0]}, "schedulers": ["edf-bfd"], "seeds": 2,
...        "fronts": {"deadline_miss_pct": [1], "unfairness_area": []},
...        "bands": {"total_cost": [{"axis": "load.jobs", "scheduler": "edf-bfd", "values": [1.0, 2.0],
...                                  "mean": [1.0, 2.0], "low": [0.5, 1.5], "high": [1.5, 2.5],
...                                  "seeds": [2, 2]}],
...                  "deadline_miss_pct": []},
...        "points": [{"point": 1, "scheduler": "edf-bfd", "settings": {"load.jobs": 1.0}, "seed": 0,
...                    "total_cost": 1.0, "deadline_miss_pct": 0.0}]}
>>> sorted(all_figures(doc))
['band:total_cost:load.jobs', 'cost-misses']
>>> [t["name"] for t in all_figures(doc)["cost-misses"]["data"]]
['edf-bfd', 'Pareto front']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..charts import Figure, axis, base_layout, caption, rgba, scheduler_colours, text
from ..numbers import finite
from .axes import axis_label
from .tables import has_unfairness

__all__ = ["LABELS", "all_figures", "band_figure", "front_figure"]

#: What each figure of a point is called on an axis, with its unit.
LABELS: dict[str, str] = {
    "total_cost": "Total cost ({currency})",
    "deadline_miss_pct": "Deadline misses (% of jobs with a deadline)",
    "unfairness_area": "Unfairness area (share·s, all frameworks)",
}


def _label(key: str, currency: str) -> str:
    return LABELS[key].replace("{currency}", currency)


def _hover(p: Mapping[str, Any]) -> str:
    settings = ", ".join(f"{k}={v}" for k, v in (p.get("settings") or {}).items()) or "the scenario as it is"
    return text(f"point {p.get('point')}: {p.get('scheduler')}, seed {p.get('seed')}; {settings}")


def front_figure(doc: Mapping[str, Any], y: str, *, currency: str = "$") -> Figure:
    """Cost against ``y`` for every point, one trace per scheduler, and the Pareto front of the
    two (``doc["fronts"][y]``) as a staircase through its points."""
    points = [p for p in doc.get("points") or []
              if finite(p.get("total_cost")) is not None and finite(p.get(y)) is not None]
    schedulers = list(dict.fromkeys(str(p.get("scheduler")) for p in points))
    colours = scheduler_colours(schedulers)
    data: list[dict[str, Any]] = []
    for spec in schedulers:
        mine = [p for p in points if str(p.get("scheduler")) == spec]
        data.append({
            "type": "scatter", "mode": "markers", "name": text(spec),
            "x": [finite(p["total_cost"]) for p in mine], "y": [finite(p[y]) for p in mine],
            "text": [_hover(p) for p in mine], "hoverinfo": "text+x+y",
            "marker": {"color": colours[spec], "size": 8, "opacity": 0.8},
        })
    by_number = {int(p["point"]): p for p in points}
    front = [by_number[n] for n in (doc.get("fronts") or {}).get(y) or [] if n in by_number]
    if front:
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": "Pareto front",
            "x": [finite(p["total_cost"]) for p in front], "y": [finite(p[y]) for p in front],
            "text": [_hover(p) for p in front], "hoverinfo": "text+x+y",
            "line": {"color": "#222222", "width": 1.5, "shape": "hv"},
            "marker": {"symbol": "circle-open", "size": 13, "color": "#222222", "line": {"width": 2}},
        })
    what = "deadline misses" if y == "deadline_miss_pct" else "unfairness"
    layout = base_layout(f"Cost against {what}: {len(points):,} points", height=460,
                         xaxis=axis(_label("total_cost", currency), rangemode="tozero"),
                         yaxis=axis(_label(y, currency), rangemode="tozero"))
    caption(layout, f"Pareto front: the points no other point beats on both cost and {what} "
                    f"({len(front)} of {len(points)}).")
    return {"data": data, "layout": layout}


def band_figure(doc: Mapping[str, Any], metric: str, axis_key: str, *, currency: str = "$") -> Figure:
    """One line per scheduler of ``metric`` over ``axis_key``'s values: the mean over the seeds,
    its 95 % t-interval shaded (none with one seed)."""
    lines = [line for line in (doc.get("bands") or {}).get(metric) or [] if line["axis"] == axis_key]
    colours = scheduler_colours([str(line["scheduler"]) for line in lines])
    categorical = any(isinstance(v, str | bool) for line in lines for v in line["values"])
    data: list[dict[str, Any]] = []
    for line in lines:
        spec = str(line["scheduler"])
        xs = [str(v) if categorical else v for v in line["values"]]
        if any(h is not None for h in line["high"]):
            data.append({"type": "scatter", "mode": "lines", "x": xs, "y": line["low"], "showlegend": False,
                         "hoverinfo": "skip", "line": {"width": 0, "color": colours[spec]},
                         "name": f"{text(spec)} 95 % low"})
            data.append({"type": "scatter", "mode": "lines", "x": xs, "y": line["high"], "showlegend": False,
                         "fill": "tonexty", "fillcolor": rgba(colours[spec], 0.2), "hoverinfo": "skip",
                         "line": {"width": 0, "color": colours[spec]}, "name": f"{text(spec)} 95 % interval"})
        data.append({"type": "scatter", "mode": "lines+markers", "name": text(spec), "x": xs,
                     "y": line["mean"], "line": {"color": colours[spec], "width": 2},
                     "marker": {"color": colours[spec], "size": 7}})
    seeds = int(doc.get("seeds") or 1)
    shown = axis_label(axis_key)
    in_sentence = shown if shown[1:2].isupper() else shown[:1].lower() + shown[1:]  # "VM count" stays
    title = f"{_label(metric, currency).split(' (')[0]} against {in_sentence}"
    layout = base_layout(text(title),
                         height=400, xaxis=axis(text(axis_label(axis_key)), type="category" if categorical
                                                else "linear"),
                         yaxis=axis(_label(metric, currency), rangemode="tozero"))
    caption(layout, f"Mean of {seeds} seeds (each over the other axes); shaded: 95 % t-interval"
                    if seeds > 1 else "One seed: no interval (run more seeds for a band).")
    return {"data": data, "layout": layout}


def all_figures(doc: Mapping[str, Any], *, currency: str = "$") -> dict[str, Figure]:
    """Every figure of a sweep document, by key, in display order (plain JSON)."""
    figures: dict[str, Figure] = {"cost-misses": front_figure(doc, "deadline_miss_pct", currency=currency)}
    if has_unfairness(doc):
        figures["cost-unfairness"] = front_figure(doc, "unfairness_area", currency=currency)
    for metric, lines in (doc.get("bands") or {}).items():
        for key in dict.fromkeys(str(line["axis"]) for line in lines):
            figures[f"band:{metric}:{key}"] = band_figure(doc, metric, key, currency=currency)
    json.dumps(figures, allow_nan=False)  # plain JSON, or fail here rather than on the page
    return figures
