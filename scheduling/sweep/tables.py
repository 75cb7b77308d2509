"""The sweep's tables: every point (the run page, the CSV and the XLSX), and the schedulers
compared over the points (the summary of the run page and the PDF).

* :func:`point_columns` and :func:`point_rows` declare and fill the table of every point: its
  number, scheduler, each axis's value, seed, the point's cluster, cost, deadline misses,
  completion, the frameworks' unfairness when two or more share the cluster, and whether it is
  on a Pareto front; :func:`points_table` lays it out (front points marked), :func:`points_csv`
  writes it;
* :data:`SWEEP_METRICS` and :func:`scheduler_summaries`: per scheduler, its points' cheapest and
  mean cost, mean misses and how many points it has on the front, for
  :func:`scheduling.tables.comparison_table`.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..numbers import finite
from ..tables import Column, DetailTable, Metric, detail_table, file_value, labelled
from .axes import axis_label, axis_of

__all__ = [
    "SWEEP_METRICS",
    "has_unfairness",
    "point_columns",
    "point_rows",
    "points_csv",
    "points_table",
    "scheduler_summaries",
    "sweep_metrics",
]


def has_unfairness(doc: Mapping[str, Any]) -> bool:
    """Whether some point measured an unfairness (two or more frameworks shared the cluster)."""
    return any(finite(p.get("unfairness_area")) is not None for p in doc.get("points") or [])


def _axis_unit(key: str) -> str:
    prefix = axis_of(key).prefix
    return "count" if prefix == "counts" else "text" if prefix == "options" else "ratio"


def point_columns(doc: Mapping[str, Any]) -> list[Column]:
    """The columns of the table of every point: one per axis of the sweep, unfairness only when
    two or more frameworks shared the cluster."""
    columns = [Column("point", "Point", "count"), Column("scheduler", "Scheduler")]
    columns += [Column(f"axis:{key}", axis_label(key), _axis_unit(key)) for key in doc.get("axes") or {}]
    columns += [
        Column("seed", "Seed", "count"),
        Column("vms", "VMs", "count"),
        Column("total_cost", "Total cost", "money"),
        Column("lower_bound_cost", "Lower bound", "money"),
        Column("deadline_missed", "Deadlines missed", "count"),
        Column("deadline_miss_pct", "Deadline misses", "percent"),
        Column("mean_completion_s", "Mean completion", "seconds"),
        Column("makespan_s", "Makespan", "seconds"),
    ]
    if has_unfairness(doc):
        columns.append(Column("unfairness_area", "Unfairness area", "share_seconds"))
    columns.append(Column("front", "Pareto front"))
    if any(p.get("error") for p in doc.get("points") or []):
        columns.append(Column("error", "Not run because"))
    return columns


def _front_words(doc: Mapping[str, Any], point: int) -> str:
    fronts = doc.get("fronts") or {}
    words = []
    if point in (fronts.get("deadline_miss_pct") or []):
        words.append("cost vs misses")
    if point in (fronts.get("unfairness_area") or []):
        words.append("cost vs unfairness")
    return ", ".join(words)


def _axis_value(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def point_rows(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row dict per point, in point order, keyed by :func:`point_columns`."""
    rows: list[dict[str, Any]] = []
    for p in doc.get("points") or []:
        row = {k: v for k, v in p.items() if k not in ("settings", "cluster")}
        row.update({f"axis:{k}": _axis_value(v) for k, v in (p.get("settings") or {}).items()})
        row["front"] = _front_words(doc, int(p["point"]))
        rows.append(row)
    return rows


def points_table(doc: Mapping[str, Any], *, currency: str = "$") -> DetailTable:
    """The table of every point, the points on a Pareto front marked.

    >>> doc = {"axes": {"load.jobs": [1.0]}, "fronts": {"deadline_miss_pct": [1]},
    ...        "points": [{"point": 1, "scheduler": "edf-bfd", "seed": 0, "settings": {"load.jobs": 1.0},
    ...                    "total_cost": 2.5, "deadline_miss_pct": 0.0}]}
    >>> t = points_table(doc)
    >>> [c["label"] for c in t["columns"]][:4], t["shown"][0][-1], t["marked"]
    (['Point', 'Scheduler', 'Load factor (more jobs)', 'Seed'], 'cost vs misses', [True])
    """
    return detail_table(
        "sweep-points", "Every point", point_columns(doc), point_rows(doc), currency=currency,
        notes=["Pareto front: no other point costs less and misses fewer deadlines (or is less unfair); "
               "both lower is better."],
        marked=lambda r: bool(r.get("front")),
    )


def points_csv(doc: Mapping[str, Any], *, currency: str = "$") -> str:
    """The table of every point as CSV text: a header of labels with units, raw values rounded
    as files keep them (:func:`scheduling.tables.file_value`)."""
    columns = point_columns(doc)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([labelled(c.label, c.unit, currency) for c in columns])
    for row in point_rows(doc):
        writer.writerow(["" if (v := row.get(c.key)) is None
                         else (v if c.unit == "text" or isinstance(v, str) else file_value(finite(v), c.unit))
                         for c in columns])
    return out.getvalue()


# --------------------------------------------------------------------------- per scheduler


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def scheduler_summaries(doc: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Per scheduler, over its points: ``points``, ``min_cost``, ``mean_cost``,
    ``mean_miss_pct``, ``front_points`` (on the cost-misses front), ``mean_unfairness``.

    >>> doc = {"fronts": {"deadline_miss_pct": [2]}, "points": [
    ...     {"point": 1, "scheduler": "a", "total_cost": 3.0, "deadline_miss_pct": 10.0},
    ...     {"point": 2, "scheduler": "a", "total_cost": 1.0, "deadline_miss_pct": 0.0}]}
    >>> scheduler_summaries(doc)["a"]
    {'points': 2, 'min_cost': 1.0, 'mean_cost': 2.0, 'mean_miss_pct': 5.0, 'front_points': 1, \
'mean_unfairness': None}
    """
    front = set((doc.get("fronts") or {}).get("deadline_miss_pct") or [])
    out: dict[str, dict[str, Any]] = {}
    for spec in dict.fromkeys(str(p.get("scheduler")) for p in doc.get("points") or []):
        mine = [p for p in doc.get("points") or [] if str(p.get("scheduler")) == spec]
        costs = [c for p in mine if (c := finite(p.get("total_cost"))) is not None]
        misses = [m for p in mine if (m := finite(p.get("deadline_miss_pct"))) is not None]
        unfair = [u for p in mine if (u := finite(p.get("unfairness_area"))) is not None]
        out[spec] = {
            "points": len(mine), "min_cost": min(costs) if costs else None, "mean_cost": _mean(costs),
            "mean_miss_pct": _mean(misses), "front_points": sum(int(p["point"]) in front for p in mine),
            "mean_unfairness": _mean(unfair),
        }
    return out


def _field(key: str) -> Any:
    return lambda h, _base: finite(h.get(key))


#: The rows of the schedulers' comparison over a sweep's points.
SWEEP_METRICS: tuple[Metric, ...] = (
    Metric("points", "Points", "count", ("points",), _field("points")),
    Metric("min_cost", "Cheapest point", "money", ("min_cost",), _field("min_cost"), "lower"),
    Metric("mean_cost", "Mean cost", "money", ("mean_cost",), _field("mean_cost"), "lower"),
    Metric("mean_miss_pct", "Mean deadline misses", "percent", ("mean_miss_pct",), _field("mean_miss_pct"),
           "lower"),
    Metric("front_points", "Points on the cost-misses front", "count", ("front_points",),
           _field("front_points"), "higher"),
    Metric("mean_unfairness", "Mean unfairness area", "share_seconds", ("mean_unfairness",),
           _field("mean_unfairness"), "lower",
           note="Unfairness area: share-seconds below the fair line, all frameworks (paper 001 §II)."),
)


def sweep_metrics(doc: Mapping[str, Any]) -> tuple[Metric, ...]:
    """:data:`SWEEP_METRICS` of a sweep document: without unfairness when no point measured one."""
    if has_unfairness(doc):
        return SWEEP_METRICS
    return tuple(m for m in SWEEP_METRICS if m.key != "mean_unfairness")
