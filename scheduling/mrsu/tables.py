"""The MRSU study's tables (paper 002): summaries, the comparison table's metrics, the
detail tables, and one sweep document from single load points.

Pure functions of the documents of :mod:`scheduling.mrsu` (``mrsu``, ``mrsu-advice`` and
``mrsu-sweep``), so the planner's page, its reports and the command line read the same
figures the same way. Every detail table is declared once, as :class:`scheduling.tables.Column`
tuples (``*_COLUMNS``) beside the function that makes its rows; :func:`mrsu_tables` lays them
out (:func:`scheduling.tables.detail_table`) from documents (reports, CLI) or from the
summaries a run stores (the page).

>>> doc = {"study": "mrsu", "mrsu": {"cpu": 5, "mem": 4}, "units_available": 12,
...        "base_units": {"cpu": 0.1, "mem": 1.0}, "misallocation": {"over": 0.1, "under": 0.0},
...        "windows": [{"start": 0, "end": 30, "mrsu": {"cpu": 5, "mem": 4}, "units_available": 12}]}
>>> [t["shown"] for t in mrsu_tables({"gcd-ft": doc})]
[[['gcd-ft', '0-29', 'cpu 0.5, mem 4', '12', '1', 'cpu 0.1, mem 1']]]
>>> [t["shown"] for t in mrsu_tables({"gcd-ft": result_summary(doc)})]
[[['gcd-ft', '0-29', 'cpu 0.5, mem 4', '12', '1', 'cpu 0.1, mem 1']]]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..numbers import finite
from ..tables import Column, DetailTable, Metric, amounts_text, detail_table
from .charts import METHOD_LABELS
from .sweep import METRICS, combine_sweeps  # (combine_sweeps: here too, as it was)

__all__ = [
    "ADVISOR_COLUMNS",
    "APPLICATION_COLUMNS",
    "DIMENSION_COLUMNS",
    "FRAMEWORK_COLUMNS",
    "MRSU_METRICS",
    "SWEEP_COLUMNS",
    "UNIT_COLUMNS",
    "VM_TYPE_COLUMNS",
    "advisor_framework_rows",
    "advisor_rows",
    "advisor_vm_type_rows",
    "application_rows",
    "combine_sweeps",
    "dimension_rows",
    "dissatisfied_tables",
    "in_units",
    "mrsu_tables",
    "result_summary",
    "sweep_rows",
    "unit_rows",
    "units_text",
]

Doc = Mapping[str, Any]


# ------------------------------------------------------------------ the comparison table


def _read(*steps: str) -> Any:
    def value(h: Mapping[str, Any], _base: Mapping[str, Any] | None) -> float | None:
        v: Any = h
        for s in steps:
            v = v.get(s) if isinstance(v, Mapping) else None
        return finite(v)

    return value


def _over(h: Mapping[str, Any], _base: Mapping[str, Any] | None) -> float | None:
    # A summary stored before issue 17 has no ``over_every_cell``: its ``over`` counted every
    # cell, so the paper's figure was not measured for it.
    return finite(h.get("over")) if h.get("over_every_cell") is not None else None


def _over_every_cell(h: Mapping[str, Any], _base: Mapping[str, Any] | None) -> float | None:
    every = h.get("over_every_cell")
    return finite(every if every is not None else h.get("over"))


#: The comparison table's metrics, the paper's headline first: dissatisfied applications
#: (Fig. 5), application-slots short beside it, then the two parts of the misallocation
#: coefficient (Figs. 3-4).
MRSU_METRICS: tuple[Metric, ...] = (
    Metric(
        "dissatisfied_apps_pct",
        "Dissatisfied applications",
        "percent",
        ("dissatisfied_apps_pct",),
        _read("dissatisfied_apps_pct"),
        "lower",
        note="applications short of their requirement in at least one slot (paper 002, Fig. 5)",
    ),
    Metric(
        "dissatisfied_pct",
        "Application-slots short",
        "percent",
        ("dissatisfied_pct",),
        _read("dissatisfied_pct"),
        "lower",
        note="(application, slot) pairs short of their requirement in some dimension",
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
        ("over", "over_every_cell"),
        _over,
        "lower",
        note="mean of max(rho, 0) in the (slot, dimension) cells where some application is short, 0 "
        "elsewhere (paper 002 §IV-B)",
    ),
    Metric(
        "over_every_cell",
        "Over-allocated part, every cell",
        "ratio",
        ("over", "over_every_cell"),
        _over_every_cell,
        detail=True,
        note="mean of max(rho, 0) over every cell, whether anyone is short or not",
    ),
    Metric(
        "units_available",
        "Units available (first window)",
        "count",
        ("units_available",),
        _read("units_available"),
        note="ID: the fewest of any dimension (the unit table lists each)",
    ),
    Metric(
        "vm_static_dissatisfied_apps_pct",
        "VM-static: dissatisfied applications",
        "percent",
        ("vm_static_dissatisfied_apps_pct",),
        _read("vm_static_dissatisfied_apps_pct"),
        detail=True,
    ),
    Metric(
        "vm_static_dissatisfied_pct",
        "VM-static: application-slots short",
        "percent",
        ("vm_static_dissatisfied_pct",),
        _read("vm_static_dissatisfied_pct"),
        detail=True,
    ),
    Metric(
        "optimal_dissatisfied_apps_pct",
        "Optimal: dissatisfied applications",
        "percent",
        ("optimal_dissatisfied_apps_pct",),
        _read("optimal_dissatisfied_apps_pct"),
        detail=True,
    ),
    Metric(
        "optimal_dissatisfied_pct",
        "Optimal: application-slots short",
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
            "mrsu_in_units": in_units(doc.get("mrsu"), doc.get("base_units")),
            "windows": len(doc.get("windows") or []),
            "first_window": _span((doc.get("windows") or [None])[0] or {}),
            "over": doc["misallocation"]["over"],
            "over_every_cell": doc["misallocation"].get("over_every_cell"),
            "under": doc["misallocation"]["under"],
            "dissatisfied_pct": doc.get("dissatisfied_pct"),
            "dissatisfied_apps_pct": doc.get("dissatisfied_apps_pct"),
            "vm_static_dissatisfied_pct": (base.get("vm-static") or {}).get("dissatisfied_pct"),
            "vm_static_dissatisfied_apps_pct": (base.get("vm-static") or {}).get("dissatisfied_apps_pct"),
            "optimal_dissatisfied_pct": (base.get("optimal") or {}).get("dissatisfied_pct"),
            "optimal_dissatisfied_apps_pct": (base.get("optimal") or {}).get("dissatisfied_apps_pct"),
            "by_dimension": _dimension_figures(doc),
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
                "least_waste_vm_type": (
                    f"{mix['count']} x {mix['vm_type']}"
                    + (f" (as good: {', '.join(mix['as_good'])})" if mix.get("as_good") else "")
                    if mix
                    else ""
                ),
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
            "over_allocated": amounts_text(f.get("over_allocated") or {}),
            "misallocation_over": f.get("misallocation_over"),
        }
        for key, c in (doc.get("candidates") or {}).items()
        for name, f in (c.get("frameworks") or {}).items()
    ]


def in_units(unit: Any, base_units: Any) -> dict[str, float]:
    """Amounts of a result document (dimension -> amount: an MRSU tuple, ``over_allocated``) in
    the scenario's own units: each amount times its dimension's base unit (a scenario's amounts
    are scaled to whole base units; an input's base unit is 1). The one conversion: every
    table that shows an amount of the document converts it here.

    >>> in_units({"cpu": 5, "mem": 4}, {"cpu": 0.1}), in_units({"cpu": 2}, None)
    ({'cpu': 0.5, 'mem': 4.0}, {'cpu': 2.0})
    >>> in_units({"cpu": 40, "mem": None}, {"cpu": 0.1})  # 40 tenths of a core; a gap stays out
    {'cpu': 4.0}
    """
    base = base_units if isinstance(base_units, Mapping) else {}
    return {
        str(d): round(float(v) * float(base.get(d, 1)), 9)
        for d, v in (unit.items() if isinstance(unit, Mapping) else ())
        if finite(v) is not None
    }


def _span(window: Mapping[str, Any]) -> str | None:
    """A window's slots, both ends included: ``0-29`` for ``[0, 30)``."""
    start, end = window.get("start"), window.get("end")
    if not isinstance(start, int) or not isinstance(end, int):
        return None
    return str(start) if end - start == 1 else f"{start}-{end - 1}"


def _available(value: Any) -> str:
    return units_text(value) if value is not None else ""


#: Columns of :func:`unit_rows`: the unit of every validity window.
UNIT_COLUMNS: tuple[Column, ...] = (
    Column("variant", "Unit"),
    Column("window", "Window (slots)"),
    Column("mrsu", "MRSU tuple"),
    Column("units_available", "Units available"),
    Column("windows", "Windows", "count"),
    Column("base_units", "Base units"),
)


def unit_rows(docs: Mapping[str, Doc]) -> list[dict[str, Any]]:
    """Per allocation (``gcd-ft``...) and validity window: the MRSU tuple in the scenario's units
    and the units available. From a document every window; from its summary
    (:func:`result_summary`) the first, which is all a summary keeps."""
    rows: list[dict[str, Any]] = []
    for label, doc in docs.items():
        if doc.get("study") != "mrsu":
            continue
        base = doc.get("base_units")
        common = {"variant": str(label), "base_units": units_text(base) or None}
        windows = doc.get("windows")
        if isinstance(windows, list):  # a document
            for w in windows:
                rows.append({
                    **common, "window": _span(w), "mrsu": units_text(in_units(w.get("mrsu"), base)),
                    "units_available": _available(w.get("units_available")), "windows": len(windows),
                })
        else:  # a summary
            rows.append({
                **common, "window": doc.get("first_window"),
                "mrsu": units_text(doc.get("mrsu_in_units") or in_units(doc.get("mrsu"), base)),
                "units_available": doc.get("units_available_text"), "windows": windows,
            })
    return rows


#: Columns of :func:`application_rows`.
APPLICATION_COLUMNS: tuple[Column, ...] = (
    Column("variant", "Unit"),
    Column("application", "Application"),
    Column("over", "Over-allocated part (mean rho)", "ratio"),
    Column("under", "Under-allocated part (mean rho)", "ratio"),
    Column("short_slots", "Slots short", "count"),
)


def application_rows(docs: Mapping[str, Doc]) -> list[dict[str, Any]]:
    """Per allocation and application: the two parts of its misallocation and its slots short
    (documents only: a summary does not keep them)."""
    return [
        {"variant": str(label), "application": app, **{k: a.get(k) for k in ("over", "under", "short_slots")}}
        for label, doc in docs.items()
        if doc.get("study") == "mrsu"
        for app, a in ((doc.get("misallocation") or {}).get("by_application") or {}).items()
    ]


#: The allocations of a document's per-dimension figures: its own unit, then its baselines.
_ALLOCATIONS = ("mrsu", "vm-static", "optimal")


def _dimension_figures(doc: Doc) -> dict[str, Any]:
    """The per-dimension figures of an ``mrsu`` document as its summary keeps them, or a
    summary's own: ``dimensions`` (in order) and, per allocation (``mrsu``, ``vm-static``,
    ``optimal``: those the document has), ``under``, ``over``, ``over_every_cell``,
    ``short_pct``, ``over_allocated`` and ``over_allocated_every_cell`` as lists aligned with
    ``dimensions``, amounts as the document holds them (base units). Lists, not mappings: a
    stored summary need not keep the order of a mapping's keys. Figures from before issue 17
    (no ``over_every_cell``) counted over-allocation in every cell: they are read as such
    (:func:`_as_measured`)."""
    if not isinstance(doc.get("misallocation"), Mapping):  # a summary (or one stored before it had them)
        kept = doc.get("by_dimension")
        if not isinstance(kept, Mapping):
            return {}
        return {k: _as_measured(v) if k in _ALLOCATIONS else v for k, v in kept.items()}
    sources = {"mrsu": doc["misallocation"]}
    for name, b in (doc.get("baselines") or {}).items():
        if name in _ALLOCATIONS and isinstance(b, Mapping) and isinstance(b.get("misallocation"), Mapping):
            sources[name] = b["misallocation"]
    dims = [str(d) for d in doc.get("dimensions") or (sources["mrsu"].get("by_dimension") or {})]
    out: dict[str, Any] = {"dimensions": dims}
    for name, m in sources.items():
        by_dim, amounts = m.get("by_dimension") or {}, m.get("over_allocated") or {}
        if not by_dim and not amounts:
            continue
        every = m.get("over_allocated_every_cell") or {}
        figures = {
            "under": [(by_dim.get(d) or {}).get("under") for d in dims],
            "over": [(by_dim.get(d) or {}).get("over") for d in dims],
            "short_pct": [(by_dim.get(d) or {}).get("short_pct") for d in dims],
            "over_allocated": [amounts.get(d) for d in dims],
        }
        if "over_every_cell" in m:
            figures["over_every_cell"] = [(by_dim.get(d) or {}).get("over_every_cell") for d in dims]
            figures["over_allocated_every_cell"] = [every.get(d) for d in dims]
        out[name] = _as_measured(figures)
    return out


def _as_measured(figures: Any) -> Any:
    """One allocation's per-dimension figures with both over-allocation figures: those from
    before issue 17 (no ``over_every_cell``) counted every cell, so they are the every-cell
    figures, and the paper's (counted where some application is short) are unknown (None)."""
    if not isinstance(figures, Mapping) or "over_every_cell" in figures:
        return figures
    n = max((len(v) for v in figures.values() if isinstance(v, list)), default=0)
    return {
        **figures,
        "over": [None] * n,
        "over_every_cell": figures.get("over"),
        "over_allocated": [None] * n,
        "over_allocated_every_cell": figures.get("over_allocated"),
    }


#: Columns of :func:`dimension_rows`.
DIMENSION_COLUMNS: tuple[Column, ...] = (
    Column("dimension", "Dimension"),
    Column("allocation", "Allocation"),
    Column("under", "Under-allocated part (mean rho)", "ratio"),
    Column("over", "Over-allocated part (mean rho)", "ratio"),
    Column("short_pct", "Application-slots short of it", "percent"),
    Column("over_allocated", "Over-allocated per slot, while others are short", "amount"),
    Column("over_allocated_every_cell", "Over-allocated per slot, every slot", "amount"),
)
DIMENSION_NOTE = (
    "Over-allocated part and amount: counted, as paper 002 counts over-allocation, only in the slots "
    "where some application is short of the dimension (resources held beyond need while another "
    "application suffers). Over-allocated per slot: allocated beyond the requirements, summed over the "
    "applications, mean over the slots, in the dimension's own units (a scenario's cores, GB...); "
    "'every slot' counts it whether anyone is short or not (the unit's rounding)."
)

_DIMENSION_FIGURES = ("under", "over", "short_pct", "over_allocated", "over_allocated_every_cell")


def dimension_rows(docs: Mapping[str, Doc]) -> list[dict[str, Any]]:
    """Per dimension, per allocation (each unit ``gcd-ft``..., then VM-static and optimal): the
    mean under- and over-allocated parts of rho over the applications and slots (the
    over-allocated part counted in the (slot, dimension) cells where some application is
    short), and the over-allocated amount in the dimension's own units (:func:`in_units`),
    counted the same way and in every slot. From documents or their summaries
    (:func:`result_summary`), alike.

    The baselines depend only on the requirements, which every allocation of a run shares:
    each is listed once, and again (labelled with its unit) only where a document's differ.

    >>> doc = {"study": "mrsu", "dimensions": ["cpu"], "base_units": {"cpu": 0.1},
    ...        "misallocation": {"by_dimension": {"cpu": {"over": 0.25, "over_every_cell": 0.5,
    ...                                                   "under": 0.0}}, "over_every_cell": 0.5,
    ...                          "over_allocated": {"cpu": 40}, "over_allocated_every_cell": {"cpu": 80}}}
    >>> dimension_rows({"gcd-ft": doc})
    [{'dimension': 'cpu', 'allocation': 'gcd-ft', 'under': 0.0, 'over': 0.25, 'short_pct': None, \
'over_allocated': 4.0, 'over_allocated_every_cell': 8.0}]
    """
    units: list[tuple[str, dict[str, Any], Any]] = []  # (allocation, dimension -> its figures, base units)
    baselines: list[tuple[str, dict[str, Any], Any]] = []
    dims: list[str] = []
    listed: list[tuple[str, Mapping[str, Any]]] = []  # the baselines listed so far
    for label, doc in docs.items():
        if doc.get("study") != "mrsu":
            continue
        figures = _dimension_figures(doc)
        order = [str(d) for d in figures.get("dimensions") or []]
        dims += [d for d in order if d not in dims]
        for name in _ALLOCATIONS:
            f = figures.get(name)
            if not isinstance(f, Mapping) or (name, f) in listed:
                continue
            shown = str(label)
            if name != "mrsu":
                shown = METHOD_LABELS.get(name, name)
                if any(n == name for n, _ in listed):
                    shown += f" ({label})"
                listed.append((name, f))
            per_dim = {
                d: {key: _at(f.get(key), k) for key in _DIMENSION_FIGURES} for k, d in enumerate(order)
            }
            (units if name == "mrsu" else baselines).append((shown, per_dim, doc.get("base_units")))
    return [
        {
            "dimension": d,
            "allocation": shown,
            "under": per_dim[d]["under"],
            "over": per_dim[d]["over"],
            "short_pct": per_dim[d]["short_pct"],
            "over_allocated": in_units({d: per_dim[d]["over_allocated"]}, base).get(d),
            "over_allocated_every_cell": in_units({d: per_dim[d]["over_allocated_every_cell"]}, base).get(d),
        }
        for d in dims
        for shown, per_dim, base in units + baselines
        if d in per_dim
    ]


def _at(values: Any, k: int) -> Any:
    return values[k] if isinstance(values, list) and k < len(values) else None


#: Columns of :func:`sweep_rows` (the curves of Figs. 3-5 as numbers).
SWEEP_COLUMNS: tuple[Column, ...] = (
    Column("composition", "Composition"),
    Column("method", "Method"),
    Column("load_pct", "Load", "percent"),
    Column("dissatisfied_apps_pct", "Dissatisfied applications", "percent"),
    Column("dissatisfied_pct", "Application-slots short", "percent"),
    Column("under", "Under-allocated part (mean rho)", "ratio"),
    Column("over", "Over-allocated part (mean rho)", "ratio"),
    Column("over_every_cell", "Over-allocated part, every cell (mean rho)", "ratio"),
)
SWEEP_NOTE = (
    "Dissatisfied applications: short of their requirement in at least one slot (paper 002, Fig. 5). "
    "Over-allocated part: counted in the (slot, dimension) cells where some application is short "
    "(paper §IV-B); 'every cell' counts it everywhere."
)


def sweep_rows(sweep: Doc) -> list[dict[str, Any]]:
    """Per composition, method and load: the means over seeds of a sweep document."""
    return [
        {
            "composition": comp.upper(),
            "method": METHOD_LABELS.get(method, method),
            "load_pct": load,
            **{m: curves[m][i] for m in METRICS},
        }
        for comp, methods in sweep["curves"].items()
        for method, curves in methods.items()
        for i, load in enumerate(sweep["loads_pct"])
    ]


def dissatisfied_tables(sweep: Doc, *, composition: str = "gcd") -> list[DetailTable]:
    """Fig. 5 as numbers, a row per method and a column per load: the percentage of
    dissatisfied applications (the paper's measure), then of application-slots short beside
    it. What ``mrsu-sweep`` prints.

    >>> doc = {"loads_pct": [50.0, 100.0], "curves": {"gcd": {"mrsu-ft": {
    ...     "dissatisfied_apps_pct": [0.0, 90.0], "dissatisfied_pct": [0.0, 40.0]}}}}
    >>> [(t["title"], t["shown"]) for t in dissatisfied_tables(doc)]
    [('Dissatisfied applications (%), GCD', [['MRSU-FT', '0.0%', '90.0%']]), \
('Application-slots short (%), GCD', [['MRSU-FT', '0.0%', '40.0%']])]
    """
    loads = list(sweep["loads_pct"])
    columns = [
        Column("method", "Method"),
        *(Column(f"load_{i}", f"{p:g}%", "percent") for i, p in enumerate(loads)),
    ]
    out = []
    for key, title, note in (
        ("dissatisfied_apps_pct", "Dissatisfied applications (%)",
         "Applications short of their requirement in at least one slot, by load (paper 002, Fig. 5)."),
        ("dissatisfied_pct", "Application-slots short (%)",
         "(application, slot) pairs short of their requirement, by load (beside Fig. 5)."),
    ):
        rows = [
            {"method": METHOD_LABELS.get(method, method),
             **{f"load_{i}": v for i, v in enumerate(curves.get(key) or [])}}
            for method, curves in sweep["curves"][composition].items()
        ]
        heading = f"{title}, {composition.upper()}"
        out.append(detail_table(f"fig5-{key}", heading, columns, rows, notes=[note]))
    return out


#: Columns of :func:`advisor_rows`.
ADVISOR_COLUMNS: tuple[Column, ...] = (
    Column("candidate", "Unit"),
    Column("mrsu", "MRSU tuple"),
    Column("units_held", "Units held", "count"),
    Column("units_pooled", "Units if pooled", "count"),
    Column("misallocation_over", "Over-allocation (mean rho)", "ratio"),
    Column("stranded_pct", "Stranded", "percent"),
    Column("stranded", "Stranded capacity"),
    Column("price_per_unit", "Price per unit", "price"),
    Column("least_waste_vm_type", "Least-waste VM type"),
)
#: Columns of :func:`advisor_vm_type_rows`.
VM_TYPE_COLUMNS: tuple[Column, ...] = (
    Column("candidate", "Unit"),
    Column("vm_type", "VM type"),
    Column("units_per_machine", "Units per machine", "count"),
    Column("units", "Units", "count"),
    Column("stranded", "Stranded capacity"),
    Column("stranded_pct", "Stranded", "percent"),
    Column("price_per_unit", "Price per unit", "price"),
)
#: Columns of :func:`advisor_framework_rows`.
FRAMEWORK_COLUMNS: tuple[Column, ...] = (
    Column("candidate", "Unit"),
    Column("framework", "Framework"),
    Column("units_per_executor", "Units per executor", "amount"),
    Column("over_allocated", "Over-allocated per executor"),
    Column("misallocation_over", "Over-allocation (mean rho)", "ratio"),
)


def _advice(doc: Doc, key: str, rows_of: Callable[[Doc], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    # A summary keeps the advisor's rows as lists (result_summary); a document has candidates.
    stored = doc.get(key)
    return [dict(r) for r in stored] if isinstance(stored, list) else rows_of(doc)


def mrsu_tables(docs: Mapping[str, Doc], *, currency: str = "$", detail: bool = False) -> list[DetailTable]:
    """Every detail table of an MRSU run, in display order, from its documents or summaries.

    ``docs``: label -> the ``mrsu`` documents of the allocations, the ``mrsu-advice`` document
    of the advisor (label ``advisor``) and the ``mrsu-sweep`` documents of the load points, or
    their summaries (:func:`result_summary`). Tables without rows are left out. ``detail``
    adds what only files hold: the applications of every allocation and the sweep's numbers
    (documents only).
    """
    tables = [
        detail_table("units", "MRSU tuple and units available", UNIT_COLUMNS, unit_rows(docs),
                     currency=currency),
        detail_table("dimensions", "Misallocation per dimension", DIMENSION_COLUMNS, dimension_rows(docs),
                     currency=currency, notes=[DIMENSION_NOTE]),
    ]
    if detail:
        tables.append(detail_table("applications", "Misallocation per application", APPLICATION_COLUMNS,
                                   application_rows(docs), currency=currency))
    for doc in docs.values():
        if doc.get("study") != "mrsu-advice":
            continue
        recommended = doc.get("recommended")
        tables += [
            detail_table("advisor", "Which unit to sell", ADVISOR_COLUMNS,
                         _advice(doc, "candidates", advisor_rows), currency=currency,
                         notes=[f"Recommended: {recommended} (least over-allocation, then least stranded "
                                "capacity)."],
                         marked=lambda row: bool(row.get("recommended"))),
            detail_table("advisor_vm_types", "Stranded capacity per VM type", VM_TYPE_COLUMNS,
                         _advice(doc, "vm_types", advisor_vm_type_rows), currency=currency),
            detail_table("advisor_frameworks", "Over-allocation per framework", FRAMEWORK_COLUMNS,
                         _advice(doc, "frameworks", advisor_framework_rows), currency=currency),
        ]
    sweep = combine_sweeps([d for d in docs.values() if "curves" in d]) if detail else None
    if sweep is not None:
        tables.append(detail_table("sweep", "Sweep (means over seeds)", SWEEP_COLUMNS, sweep_rows(sweep),
                                   currency=currency, notes=[SWEEP_NOTE]))
    return [t for t in tables if t["rows"]]
