"""The cheapest-cluster search's figures: pure functions of its answer document (:mod:`.answer`).

* :func:`frontier_figure`: every simulated candidate's cost against its deadlines missed, the
  frontier, the answer, the target and the global lower bound;
* :func:`search_figure`: the search in its order: each candidate's lower bound and simulated
  cost, and the cheapest cost meeting the target so far (the search stops where the bound
  reaches it);
* :func:`candidates_figure`: what became of the candidates (simulated, pruned by each rule).

>>> doc = {"space": {"vm_types": ["a"], "counts": {"a": [0, 2]}}, "global_lower_bound": 1.0,
...        "max_missed": 0, "answer": {"index": 2, "cost": 2.0, "missed": 0, "counts": {"a": 2}},
...        "tried": [{"index": 2, "rank": 0, "counts": [2], "bound": 1.0, "cost": 2.0, "missed": 0,
...                   "meets": True}],
...        "frontier": [{"index": 2, "counts": [2], "cost": 2.0, "missed": 0}], "candidates": 3,
...        "simulated": 1,
...        "pruned": {"bound": 0, "demand_window": 1, "no_fit": 1}, "unexplored": 0}
>>> sorted(all_figures(doc))
['candidates', 'frontier', 'search']
>>> [t["name"] for t in frontier_figure(doc)["data"]]
['Meets the target', 'Frontier', 'The answer']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...charts import D3_NUM, Figure, axis, base_layout, caption, round_sig, text
from ...charts.palettes import GREY, LOWER_BOUND, colours
from .space import counts_text
from .tables import space_of

__all__ = ["all_figures", "candidates_figure", "frontier_figure", "search_figure"]

_OUTCOME = colours("outcome", ["Met", "Missed"])


def _labels(doc: Mapping[str, Any], rows: list[Mapping[str, Any]]) -> list[str]:
    space = space_of(doc)
    return [text(counts_text(space, r["counts"])) for r in rows]


def frontier_figure(doc: Mapping[str, Any], *, currency: str = "$") -> Figure:
    """Cost against deadlines missed of every simulated candidate (met / missed the target), the
    frontier (no other candidate cheaper with no more misses), the answer, the target's most
    misses and the lower bound over every cluster shape."""
    tried = list(doc["tried"])
    layout = base_layout(
        "Cost against deadlines missed",
        hovermode="closest",
        xaxis=axis(f"Cost ({currency})", rangemode="tozero"),
        yaxis=axis("Deadlines missed", rangemode="tozero"),
    )
    data: list[dict[str, Any]] = []
    for meets, name, colour in (
        (True, "Meets the target", _OUTCOME["Met"]),
        (False, "Misses the target", _OUTCOME["Missed"]),
    ):
        rows = [r for r in tried if bool(r["meets"]) is meets]
        if rows:
            data.append(
                {
                    "type": "scatter",
                    "mode": "markers",
                    "name": name,
                    "x": round_sig([r["cost"] for r in rows]),
                    "y": [r["missed"] for r in rows],
                    "text": _labels(doc, rows),
                    "marker": {"color": colour, "size": 7, "opacity": 0.7},
                    "hovertemplate": f"%{{text}}<br>{currency}%{{x:{D3_NUM}}}, %{{y}} missed<extra></extra>",
                }
            )
    front = list(doc.get("frontier") or [])
    if front:
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "name": "Frontier",
                "x": round_sig([r["cost"] for r in front]),
                "y": [r["missed"] for r in front],
                "line": {"shape": "hv", "color": GREY, "width": 2},
                "hoverinfo": "skip",
            }
        )
    answer = doc.get("answer")
    if answer:
        data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": "The answer",
                "x": round_sig([answer["cost"]]),
                "y": [answer["missed"]],
                "text": [text(counts_text(space_of(doc), list(answer["counts"].values())))],
                "marker": {"symbol": "star", "size": 16, "color": LOWER_BOUND},
                "hovertemplate": f"the answer: %{{text}}<br>{currency}%{{x:{D3_NUM}}}<extra></extra>",
            }
        )
    shapes = [
        {
            "type": "line",
            "xref": "x",
            "yref": "paper",
            "x0": doc["global_lower_bound"],
            "x1": doc["global_lower_bound"],
            "y0": 0,
            "y1": 1,
            "line": {"color": LOWER_BOUND, "dash": "dot"},
        },
        {
            "type": "line",
            "xref": "paper",
            "yref": "y",
            "x0": 0,
            "x1": 1,
            "y0": doc["max_missed"],
            "y1": doc["max_missed"],
            "line": {"color": _OUTCOME["Missed"], "dash": "dash"},
        },
    ]
    layout["shapes"] = shapes
    caption(
        layout, "Dotted: the lower bound over every cluster shape; dashed: the most misses the target allows."
    )
    return {"data": data, "layout": layout}


def search_figure(doc: Mapping[str, Any], *, currency: str = "$") -> Figure:
    """The candidates in the order simulated: lower bound, simulated cost, cheapest met so far."""
    tried = sorted(doc["tried"], key=lambda r: (r["bound"], r["rank"]))
    x = list(range(1, len(tried) + 1))
    best: list[float | None] = []
    so_far: float | None = None
    for r in tried:
        if r["meets"] and (so_far is None or r["cost"] < so_far):
            so_far = r["cost"]
        best.append(so_far)
    layout = base_layout(
        "The search, in order of the candidates' lower bounds",
        hovermode="x unified",
        xaxis=axis("Candidates simulated"),
        yaxis=axis(f"Cost ({currency})", rangemode="tozero"),
    )
    data: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "mode": "lines",
            "name": "Lower bound",
            "x": x,
            "y": round_sig([r["bound"] for r in tried]),
            "line": {"shape": "hv", "color": LOWER_BOUND, "dash": "dot"},
        },
        {
            "type": "scatter",
            "mode": "markers",
            "name": "Simulated cost",
            "x": x,
            "y": round_sig([r["cost"] for r in tried]),
            "text": _labels(doc, tried),
            "marker": {
                "size": 5,
                "color": [_OUTCOME["Met"] if r["meets"] else _OUTCOME["Missed"] for r in tried],
            },
            "hovertemplate": f"%{{text}}: {currency}%{{y:{D3_NUM}}}<extra></extra>",
        },
        {
            "type": "scatter",
            "mode": "lines",
            "name": "Cheapest meeting the target so far",
            "x": x,
            "y": round_sig(best),
            "line": {"shape": "hv", "color": _OUTCOME["Met"], "width": 2},
        },
    ]
    caption(layout, "The search stops when the next candidate's lower bound reaches the cheapest cost met.")
    return {"data": data, "layout": layout}


def candidates_figure(doc: Mapping[str, Any]) -> Figure:
    """What became of the candidates: one bar each for simulated and every prune rule."""
    labels = ["Simulated", "Pruned by bound", "Pruned by demand window", "A job does not fit"]
    values = [
        doc["simulated"],
        doc["pruned"]["bound"],
        doc["pruned"]["demand_window"],
        doc["pruned"]["no_fit"],
    ]
    if doc.get("unexplored"):
        labels.append("Not explored (budget)")
        values.append(doc["unexplored"])
    layout = base_layout(
        f"{doc['candidates']:,} candidates", xaxis=axis(""), yaxis=axis("Candidates"), showlegend=False
    )
    data = [
        {
            "type": "bar",
            "x": labels,
            "y": values,
            "marker": {"color": GREY},
            "text": [f"{v:,}" for v in values],
            "textposition": "outside",
            "hovertemplate": "%{x}: %{y:,}<extra></extra>",
        }
    ]
    return {"data": data, "layout": layout}


def all_figures(doc: Mapping[str, Any], *, currency: str = "$") -> dict[str, Figure]:
    """Every figure of an answer document, by key."""
    return {
        "frontier": frontier_figure(doc, currency=currency),
        "search": search_figure(doc, currency=currency),
        "candidates": candidates_figure(doc),
    }
