"""Figures of a UDRF study (paper 004): the dependency graph, allocations, waste, and online runs.

Pure functions from the UDRF documents (the offline document, ``kind: udrf-offline``, and the
online one, ``kind: udrf-online``; :mod:`scheduling.udrf.tables`) to plain Plotly figure
dicts, like every chart of :mod:`scheduling.charts`. Colours follow the house palettes:

* the **policies** UDRF and DRF are the variants being compared and take the ``scheduler``
  palette (:func:`~scheduling.charts.variant_colours`, as every fairness study);
* **users** are the scenario's frameworks and keep their ``framework`` colour;
* the **RDUCs** of the dependency graph take the ``rduc`` palette.

Big studies stay drawable: the graph draws at most :data:`GRAPH_MAX_NODES` users and
:data:`GRAPH_MAX_EDGES` edges (whole RDUCs, in the document's order), the per-user bars at
most :data:`MAX_USERS` users (those UDRF changes most), the waste bars at most
:data:`MAX_CLASSES` classes (the most wasted under any policy), the share timelines
:data:`MAX_TIMELINE_USERS` users; every figure says in its caption when it leaves some out.

>>> doc = {"kind": "udrf-offline", "resources": ["cpu"], "users": [{"name": "a"}, {"name": "b"}],
...        "rducs": [{"users": ["a", "b"], "resources": ["x/cpu"]}], "edges": [["a", "b"]],
...        "classes": [{"name": "x", "capacity": {"cpu": 4.0}}], "policies": {}}
>>> fig = dependency_graph_figure(doc)
>>> [t["name"] for t in fig["data"]], fig["data"][1]["text"]
(['dependencies', 'RDUC 1 (2 users)'], ['a', 'b'])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np

from ..charts import (
    D3_NUM,
    Figure,
    axis,
    axis_key,
    axis_ref,
    base_layout,
    caption,
    round_sig,
    stacked_rows,
    step_trace,
    text,
    variant_colours,
)
from ..charts import time_unit as _time_unit
from ..charts.downsample import downsample_step
from ..charts.palettes import GREY, LOWER_BOUND, colours
from ..numbers import finite
from ..numbers import listed as _list
from ..numbers import section as _section
from .doc_reading import ONLINE, POLICY_LABELS, policies_of, policy_label
from .online_tables import combine_online

__all__ = [
    "GRAPH_MAX_EDGES",
    "GRAPH_MAX_NODES",
    "MAX_CLASSES",
    "MAX_TIMELINE_USERS",
    "MAX_USERS",
    "SHARE_MEASURES",
    "allocation_bars_figure",
    "completion_cdf_figure",
    "dependency_graph_figure",
    "graph_layout",
    "policy_colours",
    "reduction_figure",
    "share_timelines_figure",
    "udrf_figures",
    "waste_figure",
    "wasted_timeline_figure",
]

Doc = Mapping[str, Any]

#: The most users (nodes) the dependency graph draws.
GRAPH_MAX_NODES = 400
#: The most dependencies (edges) it draws.
GRAPH_MAX_EDGES = 3000
#: Users (nodes) up to which their names are written beside the nodes.
GRAPH_LABELS = 40
#: Marker shapes of the RDUCs, in turn for RDUCs that share a colour (more RDUCs than the
#: ``rduc`` palette has colours); every one reads at 8 px and in grey print.
RDUC_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "x", "star", "hexagon")
#: The most users of the per-user bars.
MAX_USERS = 40
#: The most machine classes of the waste bars.
MAX_CLASSES = 40
#: The most users of a share timeline.
MAX_TIMELINE_USERS = 12
#: Points of the completion-time CDF per policy.
CDF_POINTS = 1000




def policy_colours(policies: Sequence[str]) -> dict[str, str]:
    """The colour of each policy (by its key, ``udrf``/``drf``), that of its label's column;
    the same in every figure, whichever policies a figure draws.

    >>> policy_colours(["udrf"]) == {"udrf": policy_colours(["udrf", "drf"])["udrf"]}
    True
    """
    every = list(dict.fromkeys([*POLICY_LABELS, *policies]))
    by_label = variant_colours([policy_label(p) for p in every])
    return {p: by_label[policy_label(p)] for p in policies}


def _names(doc: Doc) -> list[str]:
    return [str(u.get("name")) for u in _list(doc.get("users")) if isinstance(u, Mapping)]


# --------------------------------------------------------------------------- the dependency graph


def graph_layout(
    groups: Sequence[Sequence[str]], *, width: float | None = None
) -> dict[str, tuple[float, float]]:
    """A position for every user: each RDUC on a circle of its own, circles placed in rows.

    Deterministic: RDUCs in the given order, users in their order around their circle
    (starting at the top, clockwise); a circle's radius grows with the square root of its
    users, so its nodes keep their spacing. Rows are filled left to right up to ``width``
    (by default about the side of a square holding every circle).

    >>> graph_layout([["a", "b"], ["c"]])
    {'a': (1.1, -0.5), 'b': (1.1, -1.7), 'c': (2.7, -0.5)}
    """
    radii = [0.0 if len(g) == 1 else max(0.6, 0.32 * len(g) / math.pi) for g in groups]
    cells = [2 * r + 1.0 for r in radii]
    if width is None:
        width = max(max(cells, default=1.0), math.sqrt(sum(c * c for c in cells)) * 1.5)
    pos: dict[str, tuple[float, float]] = {}
    x = y = row_height = 0.0
    for g, r, cell in zip(groups, radii, cells, strict=True):
        if x > 0 and x + cell > width:
            x, y, row_height = 0.0, y - row_height, 0.0
        cx, cy = x + cell / 2, y - cell / 2
        for k, user in enumerate(g):
            angle = math.pi / 2 - 2 * math.pi * k / max(1, len(g))
            pos[user] = (round(cx + r * math.cos(angle), 6), round(cy + r * math.sin(angle), 6))
        x += cell
        row_height = max(row_height, cell)
    return pos


def dependency_graph_figure(
    doc: Doc, *, max_nodes: int = GRAPH_MAX_NODES, max_edges: int = GRAPH_MAX_EDGES
) -> Figure:
    """The user dependency graph of an offline document (paper 004 Definition 1): users as
    nodes coloured by their RDUC, an edge where two users demand a common resource.

    Whole RDUCs are drawn, in the document's order, as long as they fit in ``max_nodes`` users
    (one that does not is left out; a first RDUC larger than that is cut); at most ``max_edges``
    edges among the drawn users. The caption
    says what is left out. The hover gives each user's RDUC and its dominant share and jobs
    under each policy.
    """
    groups = [[str(u) for u in _list(_section(g).get("users"))] for g in _list(doc.get("rducs"))]
    known = {u for g in groups for u in g}
    loners = [u for u in _names(doc) if u not in known]  # users that demand nothing
    all_users = sum(len(g) for g in groups) + len(loners)
    drawn: list[list[str]] = []
    numbers: list[int] = []  # each drawn RDUC's number in the document (1-based, as the tables)
    count = 0
    for k, g in enumerate(groups):  # whole RDUCs while they fit (a first one larger than the cap is cut)
        if count + len(g) > max_nodes:
            if not drawn:
                drawn.append(g[:max_nodes])
                numbers.append(k + 1)
                count = max_nodes
            continue
        drawn.append(g)
        numbers.append(k + 1)
        count += len(g)
    pos = graph_layout(drawn)
    index = {u: k for k, g in enumerate(drawn) for u in g}
    all_edges = [e for e in _list(doc.get("edges")) if isinstance(e, list | tuple) and len(e) == 2]
    edges = [(str(a), str(b)) for a, b in all_edges if str(a) in index and str(b) in index][:max_edges]
    ex: list[float | None] = []
    ey: list[float | None] = []
    for a, b in edges:
        ex += [pos[a][0], pos[b][0], None]
        ey += [pos[a][1], pos[b][1], None]
    data: list[dict[str, Any]] = [
        {
            "type": "scatter",
            "mode": "lines",
            "name": "dependencies",
            "x": ex,
            "y": ey,
            "line": {"color": GREY, "width": 1},
            "hoverinfo": "skip",
            "showlegend": False,
        }
    ]
    policies = policies_of(doc)
    per_user = {
        p: {
            str(u.get("name")): u
            for u in _list(_section(doc, "policies", p).get("users"))
            if isinstance(u, Mapping)
        }
        for p in policies
    }
    rduc_colours = colours("rduc", [f"RDUC {k}" for k in numbers])
    # More RDUCs than colours: an RDUC whose colour an earlier one has takes the next marker
    # shape, so that no two drawn RDUCs look alike.
    seen: dict[str, int] = {}
    symbols: dict[str, str] = {}
    for k in numbers:
        c = rduc_colours[f"RDUC {k}"]
        symbols[f"RDUC {k}"] = RDUC_SYMBOLS[seen.get(c, 0) % len(RDUC_SYMBOLS)]
        seen[c] = seen.get(c, 0) + 1
    labels = count <= GRAPH_LABELS
    for k, g in zip(numbers, drawn, strict=True):
        name = f"RDUC {k}"
        hover = []
        for u in g:
            lines = [f"<b>{text(u)}</b> · {name}"]
            for p in policies:
                info = per_user[p].get(u, {})
                share = finite(info.get("dominant_share"))
                jobs = sum(finite(v) or 0.0 for v in _section(info, "jobs").values())
                lines.append(
                    f"{policy_label(p)}: dominant share "
                    f"{'—' if share is None else f'{share:.1%}'}, {jobs:,.4g} jobs"
                )
            hover.append("<br>".join(lines))
        data.append(
            {
                "type": "scatter",
                "mode": "markers+text" if labels else "markers",
                "name": f"{name} ({len(g):,} user{'s' if len(g) != 1 else ''})",
                "x": [pos[u][0] for u in g],
                "y": [pos[u][1] for u in g],
                "text": [text(u) for u in g],
                "textposition": "top center",
                "marker": {
                    "color": rduc_colours[name],
                    "symbol": symbols[name],
                    "size": 14 if labels else 8,
                    "line": {"color": LOWER_BOUND, "width": 1},
                },
                "hovertext": hover,
                "hovertemplate": "%{hovertext}<extra></extra>",
            }
        )
    xs = [p[0] for p in pos.values()] or [0.0]
    ys = [p[1] for p in pos.values()] or [0.0]
    pad = 0.8  # room for the names above the nodes
    layout = base_layout(
        "User dependency graph and its RDUCs",
        height=max(420, min(900, 260 + 14 * int(math.sqrt(max(1, count)) * 3))),
        hovermode="closest",
        xaxis=axis(
            "",
            showgrid=False,
            zeroline=False,
            showticklabels=False,
            showline=False,
            ticks="",
            range=[min(xs) - pad, max(xs) + pad],
        ),
        yaxis=axis(
            "",
            showgrid=False,
            zeroline=False,
            showticklabels=False,
            showline=False,
            ticks="",
            range=[min(ys) - pad, max(ys) + pad],
            scaleanchor="x",
        ),
    )
    words = (
        f"{len(groups):,} RDUCs (connected components): users that demand a common machine class's "
        "resource depend on each other, and each RDUC is filled on its own."
    )
    left_out = []
    if count < all_users:
        left_out.append(f"{count:,} of {all_users:,} users (whole RDUCs)")
    total_edges = sum(1 for _ in all_edges)
    if len(edges) < total_edges:
        left_out.append(f"{len(edges):,} of the {total_edges:,} edges listed")
    if left_out:
        words += "<br>Drawn: " + "; ".join(left_out) + " (the tables list every user)."
    caption(layout, words)
    return {"data": data, "layout": layout}


# --------------------------------------------------------------------------- offline bars


def _users_by_gain(doc: Doc, limit: int) -> tuple[list[str], int]:
    """The users to draw: all, or the ``limit`` whose jobs UDRF changes most against DRF."""
    names = _names(doc) or [
        str(u.get("name")) for p in policies_of(doc) for u in _list(_section(doc, "policies", p).get("users"))
    ]
    names = list(dict.fromkeys(names))
    if len(names) <= limit:
        return names, len(names)
    totals = {
        p: {
            str(u.get("name")): sum(finite(v) or 0.0 for v in _section(u, "jobs").values())
            for u in _list(_section(doc, "policies", p).get("users"))
            if isinstance(u, Mapping)
        }
        for p in policies_of(doc)
    }
    udrf, drf = totals.get("udrf", {}), totals.get("drf", {})
    ranked = sorted(names, key=lambda u: (-abs(udrf.get(u, 0.0) - drf.get(u, 0.0)), names.index(u)))
    chosen = set(ranked[:limit])
    return [u for u in names if u in chosen], len(names)


def allocation_bars_figure(doc: Doc, *, max_users: int = MAX_USERS) -> Figure:
    """Per user, UDRF against DRF (grouped bars): its RDUC-wise dominant share (top) and the
    jobs it runs at once (bottom), with its job count x^u as a marker."""
    policies = policies_of(doc)
    users, total = _users_by_gain(doc, max_users)
    col = policy_colours(policies)
    rows = stacked_rows(2, gap=0.14)
    x = [text(u) for u in users]
    layout = base_layout(
        "Allocation per user: UDRF against DRF",
        barmode="group",
        hovermode="x unified",
        height=620,
        yaxis=axis(
            "Dominant share (RDUC-wise)",
            tickformat=".0%",
            rangemode="tozero",
            domain=list(rows[0]),
            anchor="x",
        ),
        xaxis=axis("", type="category", anchor="y", showticklabels=False),
        yaxis2=axis("Jobs running at once", rangemode="tozero", domain=list(rows[1]), anchor="x2"),
        xaxis2=axis("User", type="category", anchor="y2", matches="x"),
    )
    data: list[dict[str, Any]] = []
    for p in policies:
        info = {
            str(u.get("name")): u
            for u in _list(_section(doc, "policies", p).get("users"))
            if isinstance(u, Mapping)
        }
        name = policy_label(p)
        shares = [finite(info.get(u, {}).get("dominant_share")) for u in users]
        jobs = [sum(finite(v) or 0.0 for v in _section(info.get(u, {}), "jobs").values()) for u in users]
        xu = [finite(info.get(u, {}).get("job_count")) for u in users]
        data.append(
            {
                "type": "bar",
                "name": name,
                "x": x,
                "y": round_sig([np.nan if s is None else s for s in shares], 6),
                "marker": {"color": col[p]},
                "legendgroup": name,
                "hovertemplate": f"{name}: dominant share %{{y:.1%}}<extra></extra>",
            }
        )
        data.append(
            {
                "type": "bar",
                "name": name,
                "x": x,
                "y": round_sig(jobs),
                "xaxis": "x2",
                "yaxis": "y2",
                "marker": {"color": col[p]},
                "legendgroup": name,
                "showlegend": False,
                "customdata": round_sig([np.nan if v is None else v for v in xu]),
                "hovertemplate": (
                    f"{name}: %{{y:{D3_NUM}}} jobs (x^u %{{customdata:{D3_NUM}}})<extra></extra>"
                ),
            }
        )
    words = (
        "Top: each user's dominant share of the machine classes it uses; bottom: the jobs it runs at "
        "once (DRF runs one of each of a user's jobs in lockstep, UDRF lets them grow apart)."
    )
    if total > len(users):
        words += f"<br>Showing the {len(users):,} of {total:,} users whose jobs UDRF changes most."
    caption(layout, words)
    return {"data": data, "layout": layout}


def waste_figure(doc: Doc, *, max_classes: int = MAX_CLASSES) -> Figure:
    """Wasted capacity per machine class, UDRF against DRF, one panel per resource kind:
    capacity of a class's resource that some user demands, left unallocated (paper 004 §II-A).

    From an offline document, the waste of each policy's allocation; from an online one, each
    policy's time-weighted mean waste over the simulation (``policies.<p>.classes``)."""
    online = doc.get("kind") == "udrf-online"
    policies = policies_of(doc)
    resources = [str(r) for r in _list(doc.get("resources"))]
    classes = [c for c in _list(doc.get("classes")) if isinstance(c, Mapping)]
    wasted = {
        p: {
            str(c.get("name")): _section(c, "wasted")
            for c in _list(_section(doc, "policies", p).get("classes"))
            if isinstance(c, Mapping)
        }
        for p in policies
    }
    names = [str(c.get("name")) for c in classes]
    capacity = {str(c.get("name")): _section(c, "capacity") for c in classes}

    def worst(name: str) -> float:
        return (
            max(
                (finite(_section(wasted[p], name).get(r)) or 0.0) / (finite(capacity[name].get(r)) or 1.0)
                for p in policies
                for r in resources
            )
            if policies and resources
            else 0.0
        )

    total = len(names)
    if total > max_classes:
        keep = set(sorted(names, key=lambda n: (-worst(n), names.index(n)))[:max_classes])
        names = [n for n in names if n in keep]
    col = policy_colours(policies)
    rows = stacked_rows(max(1, len(resources)), gap=0.12)
    layout = base_layout(
        "Mean wasted capacity per machine class over the simulation" if online
        else "Wasted capacity per machine class",
        barmode="group",
        hovermode="x unified",
        height=max(420, 180 + 230 * len(resources)),
    )
    data: list[dict[str, Any]] = []
    x = [text(n) for n in names]
    for row, r in enumerate(resources):
        last = row == len(resources) - 1
        refs = {"xaxis": axis_ref("xaxis", row), "yaxis": axis_ref("yaxis", row)}
        layout[axis_key("yaxis", row)] = axis(
            f"{'Mean wasted' if online else 'Wasted'} {text(r)}", rangemode="tozero", domain=list(rows[row]),
            anchor=refs["xaxis"]
        )
        layout[axis_key("xaxis", row)] = axis(
            "Machine class" if last else "",
            type="category",
            anchor=refs["yaxis"],
            showticklabels=last,
            **({"matches": "x"} if row else {}),
        )
        for p in policies:
            name = policy_label(p)
            y = [finite(_section(wasted[p], n).get(r)) for n in names]
            cap = [finite(capacity[n].get(r)) for n in names]
            data.append(
                {
                    "type": "bar",
                    "name": name,
                    "x": x,
                    "y": round_sig([np.nan if v is None else v for v in y]),
                    "marker": {"color": col[p]},
                    "legendgroup": name,
                    "showlegend": row == 0,
                    "customdata": round_sig([np.nan if v is None else v for v in cap]),
                    "hovertemplate": (
                        f"{name}: %{{y:{D3_NUM}}} {text(r)} wasted of %{{customdata:{D3_NUM}}}<extra></extra>"
                    ),
                    **refs,
                }
            )
    words = "Wasted: capacity of a class's resource that some user demands, left unallocated" + (
        " (online: by jobs waiting in the queue), averaged over time." if online else ".")
    if total > len(names):
        words += (
            f"<br>Showing the {len(names):,} of {total:,} classes with the most waste (share of capacity)."
        )
    caption(layout, words)
    return {"data": data, "layout": layout}


# --------------------------------------------------------------------------- online


def _times(doc: Doc, policy: str) -> np.ndarray:
    return np.asarray(
        [finite(v) or 0.0 for v in _list(_section(doc, "policies", policy).get("times"))], dtype=float
    )


def _end(doc: Doc) -> float:
    return max((float(t[-1]) for p in policies_of(doc) if (t := _times(doc, p)).size), default=0.0)


def _series(values: Any, n: int) -> np.ndarray:
    arr = np.asarray([np.nan if finite(v) is None else finite(v) for v in _list(values)][:n], dtype=float)
    return np.concatenate([arr, np.full(n - arr.size, np.nan)]) if arr.size < n else arr


#: The share timelines' views: the document's series, its axis title and the caption's words.
SHARE_MEASURES: dict[str, tuple[str, str, str]] = {
    "rduc": ("share", "dominant share",
             "Each user's dominant share of the machine classes it uses (RDUC-wise, eq. 12), "
             "at every decision."),
    "global": ("global_share", "global dominant share",
               "Each user's global dominant share: the largest share of a resource kind over the whole "
               "cluster, classes pooled (as the offline document's), at every decision."),
}


def share_timelines_figure(
    doc: Doc, *, max_users: int = MAX_TIMELINE_USERS, max_points: int = 2000, measure: str = "rduc"
) -> Figure:
    """Each user's dominant share over time, one panel per policy (an online document):
    RDUC-wise (``measure="rduc"``) or global (``"global"``, :data:`SHARE_MEASURES`).

    At most ``max_users`` users: those with the largest mean RDUC-wise share under any policy,
    the same users (and colours) in both views."""
    if measure not in SHARE_MEASURES:
        raise ValueError(f"measure must be one of {', '.join(SHARE_MEASURES)}, got {measure!r}")
    key, what, words = SHARE_MEASURES[measure]
    hover = ".1%" if measure == "rduc" else ".2%"  # global shares are small
    policies = policies_of(doc)
    divisor, unit = _time_unit(_end(doc))
    means: dict[str, float] = {}
    for p in policies:
        for u in _list(_section(doc, "policies", p).get("users")):
            if isinstance(u, Mapping):
                s = _series(u.get("share"), len(_list(u.get("share"))))
                m = float(np.nanmean(s)) if s.size and np.isfinite(s).any() else 0.0
                means[str(u.get("name"))] = max(means.get(str(u.get("name")), 0.0), m)
    users = list(means)
    total = len(users)
    if total > max_users:
        keep = set(sorted(users, key=lambda u: (-means[u], users.index(u)))[:max_users])
        users = [u for u in users if u in keep]
    user_colours = colours("framework", users)
    rows = stacked_rows(max(1, len(policies)), gap=0.1)
    layout = base_layout(
        f"{what[0].upper()}{what[1:]} per user over time", hovermode="x unified",
        height=max(420, 200 + 210 * len(policies)),
    )
    data: list[dict[str, Any]] = []
    for row, p in enumerate(policies):
        last = row == len(policies) - 1
        refs = {"xaxis": axis_ref("xaxis", row), "yaxis": axis_ref("yaxis", row)}
        layout[axis_key("yaxis", row)] = axis(
            f"{policy_label(p)}: {what}",
            tickformat=".0%" if measure == "rduc" else ".2~%",  # global shares are small
            rangemode="tozero",
            domain=list(rows[row]),
            anchor=refs["xaxis"],
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Time ({unit})" if last else "",
            anchor=refs["yaxis"],
            showticklabels=last,
            **({"matches": "x"} if row else {}),
        )
        t = _times(doc, p)
        info = {
            str(u.get("name")): u
            for u in _list(_section(doc, "policies", p).get("users"))
            if isinstance(u, Mapping)
        }
        names = [u for u in users if u in info]
        if not names or not t.size:
            continue
        kt, ys = downsample_step(
            t, {str(k): _series(info[u].get(key), t.size) for k, u in enumerate(names)}, max_points
        )
        x = round_sig(np.asarray(kt) / divisor)
        for k, u in enumerate(names):
            data.append(
                step_trace(
                    x,
                    round_sig(ys[str(k)], 6),
                    text(u),
                    user_colours[u],
                    legendgroup=text(u),
                    showlegend=row == 0,
                    hovertemplate=f"{text(u)} ({policy_label(p)}): %{{y:{hover}}}<extra></extra>",
                    **refs,
                )
            )
    if total > len(users):
        words += f"<br>Showing the {len(users):,} of {total:,} users with the largest mean share."
    caption(layout, words)
    return {"data": data, "layout": layout}


def wasted_timeline_figure(doc: Doc, *, max_points: int = 2000) -> Figure:
    """Wasted capacity over time, UDRF against DRF, one panel per resource kind (paper 004 Fig. 9)."""
    policies = policies_of(doc)
    resources = [str(r) for r in _list(doc.get("resources"))]
    col = policy_colours(policies)
    divisor, unit = _time_unit(_end(doc))
    rows = stacked_rows(max(1, len(resources)), gap=0.1)
    layout = base_layout(
        "Wasted resources over time", hovermode="x unified", height=max(420, 200 + 200 * len(resources))
    )
    data: list[dict[str, Any]] = []
    for row, r in enumerate(resources):
        last = row == len(resources) - 1
        refs = {"xaxis": axis_ref("xaxis", row), "yaxis": axis_ref("yaxis", row)}
        layout[axis_key("yaxis", row)] = axis(
            f"Wasted {text(r)}", rangemode="tozero", domain=list(rows[row]), anchor=refs["xaxis"]
        )
        layout[axis_key("xaxis", row)] = axis(
            f"Time ({unit})" if last else "",
            anchor=refs["yaxis"],
            showticklabels=last,
            **({"matches": "x"} if row else {}),
        )
        for p in policies:
            t = _times(doc, p)
            if not t.size:
                continue
            kt, ys = downsample_step(
                t, {"w": _series(_section(doc, "policies", p, "wasted").get(r), t.size)}, max_points
            )
            name = policy_label(p)
            data.append(
                step_trace(
                    round_sig(np.asarray(kt) / divisor),
                    round_sig(ys["w"]),
                    name,
                    col[p],
                    legendgroup=name,
                    showlegend=row == 0,
                    hovertemplate=f"{name}: %{{y:{D3_NUM}}} {text(r)} wasted<extra></extra>",
                    **refs,
                )
            )
    caption(layout, "Paper 004 Fig. 9: capacity some waiting job demands, left idle at each decision.")
    return {"data": data, "layout": layout}


def completion_cdf_figure(doc: Doc, *, max_points: int = CDF_POINTS) -> Figure:
    """The distribution of job completion times, UDRF against DRF (paper 004 Fig. 10a):
    the fraction of completed jobs done within each time."""
    policies = policies_of(doc)
    col = policy_colours(policies)
    done = {
        p: np.sort(
            np.asarray(
                [
                    c
                    for j in _list(_section(doc, "policies", p).get("jobs"))
                    if isinstance(j, Mapping) and (c := finite(j.get("completion_s"))) is not None
                ],
                dtype=float,
            )
        )
        for p in policies
    }
    divisor, unit = _time_unit(max((float(v[-1]) for v in done.values() if v.size), default=0.0))
    data: list[dict[str, Any]] = []
    for p in policies:
        times = done[p]
        if not times.size:
            continue
        idx = np.unique(np.linspace(0, times.size - 1, min(times.size, max_points)).round().astype(int))
        name = policy_label(p)
        data.append(
            {
                "type": "scatter",
                "mode": "lines",
                "name": f"{name} ({times.size:,} jobs)",
                "x": round_sig(times[idx] / divisor),
                "y": round_sig((idx + 1) / times.size, 6),
                "line": {"shape": "hv", "color": col[p], "width": 2},
                "legendgroup": name,
                "hovertemplate": (
                    f"{name}: %{{y:.1%}} of jobs done within %{{x:{D3_NUM}}} {unit}<extra></extra>"
                ),
            }
        )
    layout = base_layout(
        "Job completion time (CDF)",
        hovermode="closest",
        xaxis=axis(f"Completion time ({unit})", rangemode="tozero"),
        yaxis=axis("Fraction of jobs", tickformat=".0%", range=[0, 1.02]),
    )
    caption(
        layout, "Paper 004 Fig. 10a: from a job's arrival to the end of its last run; completed jobs only."
    )
    return {"data": data, "layout": layout}


def reduction_figure(doc: Doc, by: str = "classes") -> Figure:
    """UDRF's reduction of the mean completion time against DRF, per group of jobs: by the
    machine classes a job needs (``by="classes"``, Fig. 10c) or the times it runs (``"runs"``, Fig. 10b)."""
    groups = [g for g in _list(_section(doc, "comparison").get(f"by_{by}")) if isinstance(g, Mapping)]
    x = [text(g.get(by)) for g in groups]
    col = policy_colours(["udrf"])["udrf"]
    data = [
        {
            "type": "bar",
            "name": "Reduction",
            "x": x,
            "y": round_sig(
                [np.nan if finite(g.get("reduction_pct")) is None else g["reduction_pct"] for g in groups], 5
            ),
            "marker": {"color": col},
            "customdata": [
                [finite(g.get("jobs")), finite(g.get("udrf_mean_s")), finite(g.get("drf_mean_s"))]
                for g in groups
            ],
            "hovertemplate": (
                "%{y:.1f}% shorter (%{customdata[0]:,} jobs: UDRF %{customdata[1]:,.1f} s, "
                "DRF %{customdata[2]:,.1f} s)<extra></extra>"
            ),
        }
    ]
    what = "Machine classes a job needs" if by == "classes" else "Times a job runs"
    figure_no = "10c" if by == "classes" else "10b"
    layout = base_layout(
        f"Completion time reduced by UDRF, by {'machine classes' if by == 'classes' else 'runs'}",
        xaxis=axis(what, type="category"),
        yaxis=axis("Mean completion time reduced (%)", rangemode="tozero"),
    )
    caption(layout, f"Paper 004 Fig. {figure_no}: (DRF mean − UDRF mean) ÷ DRF mean, per group of jobs.")
    return {"data": data, "layout": layout}


# --------------------------------------------------------------------------- every figure


def udrf_figures(
    docs: Sequence[Doc] | Mapping[str, Doc], *, max_points: int | None = None
) -> dict[str, Figure]:
    """Every figure of a UDRF study's documents (offline, online, or an online per policy),
    keyed in display order:

    * offline: ``graph``, ``allocation``, ``waste``;
    * online: ``shares`` and ``shares:global`` (the global dominant share), ``wasted`` (Fig. 9),
      ``waste:online`` (mean waste per class), ``cdf`` (Fig. 10a), and with both policies
      ``reduction:classes`` (Fig. 10c) and ``reduction:runs`` (Fig. 10b).

    >>> sorted(udrf_figures([]))
    []
    """
    items = list(docs.values()) if isinstance(docs, Mapping) else list(docs)
    offline = next((d for d in items if d.get("kind") == "udrf-offline"), None)
    online = combine_online(items)
    points = max_points or 2000
    builders: dict[str, Callable[[], Figure]] = {}
    if offline is not None:
        builders["graph"] = partial(dependency_graph_figure, offline)
        builders["allocation"] = partial(allocation_bars_figure, offline)
        builders["waste"] = partial(waste_figure, offline)
    if online is not None and online.get("kind") == ONLINE:
        builders["shares"] = partial(share_timelines_figure, online, max_points=points)
        if any(u.get("global_share") for p in policies_of(online)
               for u in _list(_section(online, "policies", p).get("users")) if isinstance(u, Mapping)):
            builders["shares:global"] = partial(share_timelines_figure, online, max_points=points,
                                                measure="global")
        builders["wasted"] = partial(wasted_timeline_figure, online, max_points=points)
        if all(_section(online, "policies", p).get("classes") for p in policies_of(online)):
            builders["waste:online"] = partial(waste_figure, online)
        builders["cdf"] = partial(completion_cdf_figure, online)
        if online.get("comparison"):
            builders["reduction:classes"] = partial(reduction_figure, online, "classes")
            builders["reduction:runs"] = partial(reduction_figure, online, "runs")
    return {key: build() for key, build in builders.items()}
