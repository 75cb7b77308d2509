"""Two comparisons side by side: their timelines overlaid ("before" run A, "after" run B).

Pure functions of the two runs' result documents (keyed by scheduler spec): the planner's
run-vs-run page draws them, and so can a notebook with two ``compare`` results. The deltas of
the headline metrics are :func:`scheduling.cost.tables.side_by_side_deltas`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...charts import Figure, Result, scheduler_colours, text, utilisation_figure
from ...tables import format_money
from .timelines import active_vms_figure, cumulative_cost_figure

__all__ = ["RUNS", "side_by_side_figures"]

#: The two runs' prefixes, in the order they are drawn: "before", then "after".
RUNS = ("A", "B")


def _prefixed(results: Mapping[str, Result], prefix: str) -> dict[str, Result]:
    return {f"{prefix} · {name}": r for name, r in results.items()}


def _merge_lower_bounds(
    figure: Figure, results_a: Mapping[str, Result], results_b: Mapping[str, Result], currency: str
) -> None:
    """One dashed lower-bound line per distinct bound, labelled with the runs it belongs to.

    The schedulers of one run share their scenario's bound; drawn per scheduler, two runs
    would give a pile of identical lines.
    """
    bounds: dict[float, list[str]] = {}
    for prefix, results in zip(RUNS, (results_a, results_b), strict=True):
        for r in results.values():
            value = r.get("lower_bound_cost")
            if isinstance(value, int | float) and not isinstance(value, bool):
                runs = bounds.setdefault(round(float(value), 9), [])
                if prefix not in runs:
                    runs.append(prefix)
    data = [t for t in figure["data"] if not str(t.get("name", "")).startswith("Lower bound")]
    layout = figure["layout"]
    x_end = max((max((x for x in t.get("x") or [] if x is not None), default=0.0) for t in data), default=0.0)
    annotations = []
    for value, runs in bounds.items():
        label = f"Lower bound {' and '.join(runs)}: {text(format_money(value, currency))}"
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


def side_by_side_figures(
    results_a: Mapping[str, Result],
    results_b: Mapping[str, Result],
    *,
    max_points: int = 1500,
    currency: str = "$",
) -> dict[str, Figure]:
    """The timelines of two comparisons overlaid: cumulative cost, utilisation and active VMs.

    Trace names are prefixed ``A · `` and ``B · ``; a scheduler keeps its colour in both
    runs and run B's lines are dotted, so "before" and "after" read apart at a glance. The
    lower bound is drawn once per distinct value (``Lower bound A and B`` when the runs share
    their scenario's cluster).

    Parameters
    ----------
    results_a, results_b : mapping of str to dict
        Each run's result documents (or documents with at least their timelines), keyed by
        scheduler spec.
    max_points : int, default 1500
        Points per timeline trace after downsampling.
    currency : str, default "$"
        Symbol of money (display only).

    Returns
    -------
    dict of str to Figure
        ``cumulative_cost``, ``utilisation`` and ``active_vms``.

    Examples
    --------
    >>> from scheduling import compare, parse_scenario
    >>> doc = {"vm_types": [{"name": "s", "capacity": {"cpu": 4, "mem": 8}, "price_per_hour": 1.0,
    ...                      "count": 2}],
    ...        "jobs": [{"id": "a", "arrival_s": 0, "executors": 1, "executor": {"cpu": 2, "mem": 2},
    ...                  "duration_s": 3600}]}
    >>> run = {k: v.to_dict() for k, v in compare(parse_scenario(doc), schedulers=["edf-bfd"]).items()}
    >>> figures = side_by_side_figures(run, run)
    >>> sorted(t["name"] for t in figures["active_vms"]["data"])
    ['A · edf-bfd', 'B · edf-bfd']
    >>> [t["name"] for t in figures["cumulative_cost"]["data"] if t["name"].startswith("Lower")]
    ['Lower bound A and B: $0.5000']
    """
    merged = {**_prefixed(results_a, "A"), **_prefixed(results_b, "B")}
    base_of = {
        text(f"{p} · {n}"): (p, n) for p, rs in zip(RUNS, (results_a, results_b), strict=True) for n in rs
    }
    colours = scheduler_colours(list(dict.fromkeys([*results_a, *results_b])))
    figures = {
        "cumulative_cost": cumulative_cost_figure(merged, max_points=max_points, currency=currency),
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
            line: dict[str, Any] = dict(trace.get("line") or {})
            line["color"] = colours[name]
            if prefix == "B":
                line["dash"] = "dot"
            trace["line"] = line
    _merge_lower_bounds(figures["cumulative_cost"], results_a, results_b, currency)
    figures["cumulative_cost"]["layout"]["title"]["text"] = "Cumulative cost — A solid, B dotted"
    figures["utilisation"]["layout"]["title"]["text"] = "Utilisation — A solid, B dotted"
    figures["active_vms"]["layout"]["title"]["text"] = "Active VMs — A solid, B dotted"
    return figures
