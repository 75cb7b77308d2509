"""The MRSU study's presentation (paper 002): summaries, the comparison table's metrics, the
advisor's rows and columns, and one sweep document from single load points.

Pure functions of the documents of :mod:`scheduling.mrsu` (``mrsu``, ``mrsu-advice`` and
``mrsu-sweep``), so the planner's page, its reports and any other front end read the same
figures the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..numbers import finite
from ..presenter import Metric
from .sweep import METRICS

__all__ = [
    "ADVISOR_COLUMNS",
    "FRAMEWORK_COLUMNS",
    "MRSU_METRICS",
    "VM_TYPE_COLUMNS",
    "advisor_framework_rows",
    "advisor_rows",
    "advisor_vm_type_rows",
    "combine_sweeps",
    "result_summary",
    "units_text",
]


def combine_sweeps(docs: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """One sweep document from sweep documents of single load points (in load order).

    The curves are the concatenation of the parts' curves; everything else is the first part's.
    """
    parts = sorted((d for d in docs if d.get("study") == "mrsu-sweep"), key=lambda d: d["loads"][0])
    if not parts:
        return None
    out = {k: v for k, v in parts[0].items() if k != "curves"}
    out["loads"] = [x for d in parts for x in d["loads"]]
    out["loads_pct"] = [x for d in parts for x in d["loads_pct"]]
    curves: dict[str, Any] = {}
    for comp, methods in parts[0]["curves"].items():
        curves[comp] = {}
        for method in methods:
            curves[comp][method] = {
                m: [x for d in parts for x in d["curves"][comp][method][m]] for m in METRICS
            }
            curves[comp][method]["std"] = {
                m: [x for d in parts for x in d["curves"][comp][method]["std"][m]] for m in METRICS
            }
    out["curves"] = curves
    return out


# ------------------------------------------------------------------ the comparison table


def _read(*steps: str) -> Any:
    def value(h: Mapping[str, Any], _base: Mapping[str, Any] | None) -> float | None:
        v: Any = h
        for s in steps:
            v = v.get(s) if isinstance(v, Mapping) else None
        return finite(v)

    return value


MRSU_METRICS: tuple[Metric, ...] = (
    Metric(
        "units_available",
        "Units available (first window)",
        "count",
        ("units_available",),
        _read("units_available"),
        note="ID: the fewest of any dimension (the unit table lists each)",
    ),
    Metric(
        "under",
        "Misallocation: under-allocated part",
        "ratio",
        ("under",),
        _read("under"),
        "lower",
        note="mean over applications, slots and dimensions of max(-rho, 0) (paper eq. 10)",
    ),
    Metric(
        "over",
        "Misallocation: over-allocated part",
        "ratio",
        ("over",),
        _read("over"),
        "lower",
        note="mean of max(rho, 0)",
    ),
    Metric(
        "dissatisfied_pct",
        "Application-slots not fully served",
        "percent",
        ("dissatisfied_pct",),
        _read("dissatisfied_pct"),
        "lower",
    ),
    Metric(
        "dissatisfied_apps_pct",
        "Applications short in some slot",
        "percent",
        ("dissatisfied_apps_pct",),
        _read("dissatisfied_apps_pct"),
        "lower",
    ),
    Metric(
        "vm_static_dissatisfied_pct",
        "VM-static: application-slots not fully served",
        "percent",
        ("vm_static_dissatisfied_pct",),
        _read("vm_static_dissatisfied_pct"),
        detail=True,
    ),
    Metric(
        "optimal_dissatisfied_pct",
        "Optimal: application-slots not fully served",
        "percent",
        ("optimal_dissatisfied_pct",),
        _read("optimal_dissatisfied_pct"),
        detail=True,
    ),
)


def units_text(u: Any) -> str:
    """A dimension -> amount mapping as ``cpu 2, mem 8`` (a number as itself)."""
    if isinstance(u, Mapping):
        return ", ".join(f"{k} {v:g}" for k, v in u.items())
    return "" if u is None else f"{u:g}"


def result_summary(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The headline of one document of the run (allocation, advisor or sweep point)."""
    study = doc.get("study")
    if study == "mrsu":
        avail = doc.get("units_available")
        base = doc.get("baselines") or {}
        return {
            "study": "mrsu",
            "composition": doc.get("composition"),
            "mode": doc.get("mode"),
            "mrsu": doc.get("mrsu"),
            "units_available_text": units_text(avail),
            "units_available": avail
            if isinstance(avail, int | float)
            else (min(avail.values()) if isinstance(avail, Mapping) and avail else None),
            "base_units": doc.get("base_units"),
            # the tuple in the scenario's units (a scenario's amounts are scaled to whole base units)
            "mrsu_in_units": {
                d: round(v * float((doc.get("base_units") or {}).get(d, 1)), 9)
                for d, v in (doc.get("mrsu") or {}).items()
            },
            "windows": len(doc.get("windows") or []),
            "over": doc["misallocation"]["over"],
            "under": doc["misallocation"]["under"],
            "dissatisfied_pct": doc.get("dissatisfied_pct"),
            "dissatisfied_apps_pct": doc.get("dissatisfied_apps_pct"),
            "vm_static_dissatisfied_pct": (base.get("vm-static") or {}).get("dissatisfied_pct"),
            "optimal_dissatisfied_pct": (base.get("optimal") or {}).get("dissatisfied_pct"),
        }
    if study == "mrsu-advice":
        return {
            "study": study,
            "recommended": doc.get("recommended"),
            "candidates": advisor_rows(doc),
            "vm_types": advisor_vm_type_rows(doc),
            "frameworks": advisor_framework_rows(doc),
        }
    return {"study": study, "loads_pct": doc.get("loads_pct")}


def advisor_rows(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The advisor's candidates, one row each (the advisor document's own numbers)."""
    rows = []
    for key, c in (doc.get("candidates") or {}).items():
        mix = c.get("least_waste_vm_type") or {}
        rows.append(
            {
                "candidate": key,
                "mrsu": units_text(c.get("mrsu")),
                "units_held": c.get("units_held"),
                "units_pooled": c.get("units_pooled"),
                "misallocation_over": c.get("misallocation_over"),
                "stranded_pct": c.get("stranded_pct"),
                "stranded": units_text(c.get("stranded")),
                "price_per_unit": c.get("price_per_unit"),
                "least_waste_vm_type": (f"{mix['count']} x {mix['vm_type']}" if mix else ""),
                "recommended": key == doc.get("recommended"),
            }
        )
    return rows


def advisor_vm_type_rows(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per candidate unit and VM type: units per machine, units, stranded capacity, price per unit."""
    return [
        {
            "candidate": key,
            "vm_type": name,
            "units_per_machine": t.get("units_per_machine"),
            "units": t.get("units"),
            "stranded": units_text(t.get("stranded")),
            "stranded_pct": t.get("stranded_pct"),
            "price_per_unit": t.get("price_per_unit"),
        }
        for key, c in (doc.get("candidates") or {}).items()
        for name, t in (c.get("vm_types") or {}).items()
    ]


def advisor_framework_rows(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per candidate unit and framework: units per executor and the over-allocation."""
    return [
        {
            "candidate": key,
            "framework": name,
            "units_per_executor": f.get("units_per_executor"),
            "over_allocated": units_text(f.get("over_allocated")),
            "misallocation_over": f.get("misallocation_over"),
        }
        for key, c in (doc.get("candidates") or {}).items()
        for name, f in (c.get("frameworks") or {}).items()
    ]


VM_TYPE_COLUMNS = (
    ("candidate", "Unit", "text"),
    ("vm_type", "VM type", "text"),
    ("units_per_machine", "Units per machine", "count"),
    ("units", "Units", "count"),
    ("stranded", "Stranded capacity", "text"),
    ("stranded_pct", "Stranded", "percent"),
    ("price_per_unit", "Price per unit", "price"),
)
FRAMEWORK_COLUMNS = (
    ("candidate", "Unit", "text"),
    ("framework", "Framework", "text"),
    ("units_per_executor", "Units per executor", "amount"),
    ("over_allocated", "Over-allocated per executor", "text"),
    ("misallocation_over", "Over-allocation (mean rho)", "ratio"),
)

ADVISOR_COLUMNS = (
    ("candidate", "Unit", "text"),
    ("mrsu", "MRSU tuple", "text"),
    ("units_held", "Units held", "count"),
    ("units_pooled", "Units if pooled", "count"),
    ("misallocation_over", "Over-allocation (mean rho)", "ratio"),
    ("stranded_pct", "Stranded", "percent"),
    ("stranded", "Stranded capacity", "text"),
    ("price_per_unit", "Price per unit", "price"),
    ("least_waste_vm_type", "Least-waste VM type", "text"),
)
