"""Two comparison runs side by side: B − A of every headline, and their timelines overlaid.

Pure functions of the runs' summaries and result documents (the view passes in what the
selectors returned).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from scheduling.charts import format_money, scheduler_colours, utilisation_figure
from scheduling.cost.charts import active_vms_figure, cumulative_cost_figure
from scheduling.numbers import finite
from scheduling.tables import show


def escaped(name: str) -> str:
    """A name as the figures write it (:func:`scheduling.charts.text`)."""
    return html.escape(str(name), quote=False)


# --------------------------------------------------------------------------- run summary


# --------------------------------------------------------------------------- compare two runs

#: (headline key, label, unit of :mod:`scheduling.tables`) of the deltas table.
DELTA_METRICS: tuple[tuple[str, str, str], ...] = (
    ("total_cost", "Total cost", "money"),
    ("makespan_s", "Makespan", "seconds"),
    ("deadline_missed", "Deadline misses", "count"),
    ("mean_completion_s", "Mean completion time", "seconds"),
)


def compare_deltas(
    summaries_a: Mapping[str, Mapping[str, Any]], summaries_b: Mapping[str, Mapping[str, Any]], *,
    currency: str = "$",
) -> list[dict[str, Any]]:
    """B − A (and %) of each headline metric, per scheduler present in either run.

    Values are shown by the presenter's units (:func:`scheduling.tables.show`).

    >>> rows = compare_deltas({"edf-bfd": {"total_cost": 2.0}}, {"edf-bfd": {"total_cost": 1.5}})
    >>> [(r["label"], r["a"], r["b"], r["delta"], r["pct"]) for r in rows[0]["metrics"][:1]]
    [('Total cost', '$2.00', '$1.50', '−$0.5000', '−25.0%')]
    """
    names = list(dict.fromkeys([*summaries_a, *summaries_b]))
    out = []
    for name in names:
        a, b = summaries_a.get(name), summaries_b.get(name)
        metrics = []
        for key, label, unit in DELTA_METRICS:
            va = finite(a.get(key)) if a else None
            vb = finite(b.get(key)) if b else None
            delta = vb - va if va is not None and vb is not None else None
            pct = delta / va * 100.0 if delta is not None and va else None
            metrics.append({
                "key": key, "label": label, "a": show(va, unit, currency),
                "b": show(vb, unit, currency),
                "delta": show(delta, unit, currency, signed=True),
                "pct": show(pct, "percent", signed=True),
                "trend": None if not delta else ("better" if delta < 0 else "worse"),
            })
        out.append({"scheduler": name, "in_a": a is not None, "in_b": b is not None, "metrics": metrics})
    return out


def _prefixed(results: Mapping[str, Mapping[str, Any]], prefix: str) -> dict[str, Mapping[str, Any]]:
    return {f"{prefix} · {name}": r for name, r in results.items()}


def _merge_lower_bounds(
    figure: dict[str, Any],
    results_a: Mapping[str, Mapping[str, Any]],
    results_b: Mapping[str, Mapping[str, Any]],
) -> None:
    """One dashed lower-bound line per distinct bound, labelled with the runs it belongs to.

    The schedulers of one run share their scenario's bound; drawn per scheduler, two runs
    would give a pile of identical lines.
    """
    bounds: dict[float, list[str]] = {}
    for prefix, results in (("A", results_a), ("B", results_b)):
        for r in results.values():
            value = r.get("lower_bound_cost")
            if isinstance(value, (int, float)):
                runs = bounds.setdefault(round(float(value), 9), [])
                if prefix not in runs:
                    runs.append(prefix)
    data = [t for t in figure["data"] if not str(t.get("name", "")).startswith("Lower bound")]
    layout = figure["layout"]
    x_end = max((max((x for x in t.get("x") or [] if x is not None), default=0.0) for t in data), default=0.0)
    annotations = []
    for value, runs in bounds.items():
        label = f"Lower bound {' and '.join(runs)}: {format_money(value)}"
        data.append({
            "type": "scatter", "mode": "lines", "name": label, "x": [0.0, x_end], "y": [value, value],
            "line": {"color": "#444444", "dash": "dash" if "A" in runs else "dashdot", "width": 1.5},
            "hovertemplate": f"{label}<extra></extra>",
        })
        annotations.append({"x": x_end, "y": value, "xref": "x", "yref": "y", "text": label,
                            "showarrow": False, "xanchor": "right", "yanchor": "bottom",
                            "font": {"size": 11, "color": "#444444"}})
    figure["data"] = data
    layout["annotations"] = annotations


def compare_figures(
    results_a: Mapping[str, Mapping[str, Any]],
    results_b: Mapping[str, Mapping[str, Any]],
    *,
    max_points: int = 1500,
) -> dict[str, Any]:
    """Timelines of two runs overlaid, built by :mod:`scheduling.charts`.

    Trace names are prefixed ``A · `` and ``B · ``; a scheduler keeps its colour in both
    runs and run B's lines are dotted, so "before" and "after" read apart at a glance.
    """
    merged = {**_prefixed(results_a, "A"), **_prefixed(results_b, "B")}
    base_of = {escaped(f"{p} · {n}"): (p, n) for p, rs in (("A", results_a), ("B", results_b)) for n in rs}
    colours = scheduler_colours(list(dict.fromkeys([*results_a, *results_b])))
    figures = {
        "cumulative_cost": cumulative_cost_figure(merged, max_points=max_points),
        "utilisation": utilisation_figure(merged, max_points=max_points),
        "active_vms": active_vms_figure(merged, mode="total", max_points=max_points),
    }
    for fig in figures.values():
        for trace in fig["data"]:
            key = trace.get("legendgroup") or trace.get("name", "")
            match = base_of.get(key) or next(
                (v for k, v in base_of.items() if str(trace.get("name", "")).startswith(k + " (")), None
            )
            if match is None:
                continue  # a shared trace: the lower bound
            prefix, name = match
            line = dict(trace.get("line") or {})
            line["color"] = colours[name]
            if prefix == "B":
                line["dash"] = "dot"
            trace["line"] = line
    _merge_lower_bounds(figures["cumulative_cost"], results_a, results_b)
    figures["cumulative_cost"]["layout"]["title"]["text"] = "Cumulative cost — A solid, B dotted"
    figures["utilisation"]["layout"]["title"]["text"] = "Utilisation — A solid, B dotted"
    figures["active_vms"]["layout"]["title"]["text"] = "Active VMs — A solid, B dotted"
    return figures
