"""The tables of a static allocation study (paper 000, Section IV; one allocation document per
variant): its summary, the rows of its comparison table and its per-framework tables.

* :func:`allocation_summary`: the headline values of one document (what a run stores per
  variant), with :func:`stranded_totals` the stranded capacity per resource;
* :func:`allocation_metrics` (:data:`ALLOCATION_METRICS` for the default resources): the rows
  of the comparison table as :class:`scheduling.tables.Metric` data;
* per-framework detail (:func:`allocation_framework_rows` and its table
  :func:`allocation_framework_table`, :func:`allocation_cell_rows`,
  :func:`allocation_resource_rows`): plain row dicts, their columns declared by the
  ``ALLOCATION_*_COLUMNS`` tuples.

:mod:`scheduling.fairness.tables` is the front door.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..numbers import finite, integral
from ..numbers import section as _section
from ..scenario.limits import DEFAULT_RESOURCES
from ..tables import MISSING, Column, DetailTable, Headline, Metric, detail_table, show
from .tables_common import (
    FRAMEWORK_ROWS_COMPACT,
    Doc,
    _path,
    _pct_of,
    _reads,
    _with_name,
    _worst,
    framework_names,
    resource_names,
)

__all__ = [
    "ALLOCATION_CELL_COLUMNS",
    "ALLOCATION_FRAMEWORK_COLUMNS",
    "ALLOCATION_FRAMEWORK_NOTES",
    "ALLOCATION_METRICS",
    "ALLOCATION_RESOURCE_COLUMNS",
    "allocation_cell_rows",
    "allocation_framework_rows",
    "allocation_framework_table",
    "allocation_metrics",
    "allocation_resource_rows",
    "allocation_summary",
    "stranded_totals",
]

def stranded_totals(doc: Doc) -> dict[str, dict[str, float | None]]:
    """Per resource, the cluster's ``capacity`` and its mean ``residual`` (unallocated) and
    ``stranded`` amounts (summed over the machines) of an allocation document.

    >>> doc = {"resources": ["cpu"], "machines": [{"id": "a", "capacity": {"cpu": 10}},
    ...        {"id": "b", "capacity": {"cpu": 30}}], "residual": {"a": {"cpu": 4}, "b": {"cpu": 1}},
    ...        "stranded": {"a": {"cpu": 4}, "b": {"cpu": 0}}}
    >>> stranded_totals(doc)
    {'cpu': {'capacity': 40.0, 'residual': 5.0, 'stranded': 4.0}}
    """
    out: dict[str, dict[str, float | None]] = {}
    machines = [m for m in doc.get("machines") or [] if isinstance(m, Mapping)]
    residual = _section(doc, "residual")
    stranded = _section(doc, "stranded")
    for r in resource_names(doc):
        cap = sum(finite(_section(m, "capacity").get(r)) or 0.0 for m in machines)
        values: dict[str, float | None] = {"capacity": cap}
        for key, table in (("residual", residual), ("stranded", stranded)):
            amounts = [finite(_section(table, str(m.get("id"))).get(r)) for m in machines]
            values[key] = float(sum(a for a in amounts if a is not None)) if table else None
        out[r] = values
    return out


_ALLOCATION_HEAD = ("label", "method", "policy", "servers", "integer", "tolerance", "trials", "seed")


#: The per-framework criteria a summary keeps (the document's, without its per-server maps).
_CRITERIA_NUMBERS = ("drf", "tsf", "psdsf_min", "rpsdsf_min")
_CRITERIA_MACHINES = ("psdsf_min_machine", "rpsdsf_min_machine")


def _framework_criteria(crit: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {k: finite(crit.get(k)) for k in _CRITERIA_NUMBERS}
    out.update({k: None if crit.get(k) is None else str(crit.get(k)) for k in _CRITERIA_MACHINES})
    return out


def allocation_summary(doc: Doc) -> dict[str, Any]:
    """The headline values of an allocation document (JSON-ready, a few hundred bytes).

    Keeps the describing fields, ``resources``, ``frameworks`` (``name`` and ``weight``),
    ``tasks``, ``total_tasks``, ``total_std``, ``task_efficiency``, ``utilisation``,
    ``pf_inequality`` and the criteria per framework (``criteria``: DRF, TSF and the PS-DSF
    and rPS-DSF minima over the servers with their server, without the per-server maps), and
    adds:

    * ``capacity``, ``unallocated``, ``stranded_total`` (resource -> amount summed over the
      machines) and ``stranded_fraction`` (stranded / capacity);
    * ``lowest_dominant_share`` and ``lowest_dominant_framework``: the smallest DRF criterion
      (dominant share ÷ weight) at the mean allocation, which max-min fairness raises;
    * ``distinct_outcomes`` (how many distinct allocations the trials ended in, ``None``
      when the document lists none), ``outcomes_complete`` (the list holds every trial) and
      ``top_outcome_trials`` (trials of the most frequent one).
    """
    if doc.get("study", "allocation") != "allocation":
        raise ValueError(f"not an allocation document: study is {doc.get('study')!r}")
    frameworks = framework_names(doc)
    totals = stranded_totals(doc)
    criteria = _section(doc, "criteria")
    crit = {fw: _framework_criteria(_section(criteria, fw)) for fw in frameworks}
    weights = _weights(doc)
    lowest, lowest_fw = _worst({fw: c["drf"] for fw, c in crit.items()}, min)
    outcomes = [o for o in doc.get("outcomes") or [] if isinstance(o, Mapping)]
    trials = integral(doc.get("trials"))
    listed = sum(integral(o.get("trials")) or 0 for o in outcomes)
    tasks = _section(doc, "tasks")
    return {
        "study": "allocation",
        **{k: doc.get(k) for k in _ALLOCATION_HEAD},
        "resources": resource_names(doc),
        "frameworks": [{"name": fw, "weight": weights.get(fw)} for fw in frameworks],
        "tasks": {
            fw: {k: finite(_section(tasks, fw).get(k)) for k in ("mean", "std")} for fw in frameworks
        },
        "total_tasks": finite(doc.get("total_tasks")),
        "total_std": finite(doc.get("total_std")),
        "task_efficiency": finite(doc.get("task_efficiency")),
        "utilisation": {r: finite(_section(doc, "utilisation").get(r)) for r in resource_names(doc)},
        "criteria": crit,
        "lowest_dominant_share": lowest,
        "lowest_dominant_framework": lowest_fw,
        "capacity": {r: v["capacity"] for r, v in totals.items()},
        "unallocated": {r: v["residual"] for r, v in totals.items()},
        "stranded_total": {r: v["stranded"] for r, v in totals.items()},
        "stranded_fraction": {
            r: (v["stranded"] / v["capacity"] if v["stranded"] is not None and v["capacity"] else None)
            for r, v in totals.items()
        },
        "distinct_outcomes": len(outcomes) if outcomes else None,
        "outcomes_complete": bool(outcomes) and trials is not None and listed >= trials,
        "top_outcome_trials": integral(outcomes[0].get("trials")) if outcomes else None,
        "pf_inequality": finite(doc.get("pf_inequality")),
    }


def _plus_minus(std_key: str) -> Callable[[float | None, Headline, str], str]:
    """``22.5 ± 2.3``: a mean over trials and its sample standard deviation (several trials)."""

    def text(value: float | None, h: Headline, currency: str) -> str:
        shown = show(value, "tasks", currency)
        std = finite(h.get(std_key))
        trials = integral(h.get("trials"))
        if value is None or std is None or trials is None or trials < 2:
            return shown
        return f"{shown} ± {show(std, 'tasks', currency)}"

    return text


def _stranded_text(resource: str) -> Callable[[float | None, Headline, str], str]:
    def text(value: float | None, h: Headline, currency: str) -> str:
        amount = finite(h.get(f"stranded_total/{resource}"))
        cap = finite(h.get(f"capacity/{resource}"))
        shown = show(value, "percent", currency)
        if value is None or amount is None or cap is None:
            return shown
        return f"{shown} ({show(amount, 'amount')} of {show(cap, 'amount')})"

    return text


def _outcomes_text(value: float | None, h: Headline, _currency: str) -> str:
    if value is None:
        return MISSING
    trials = integral(h.get("trials"))
    top = integral(h.get("top_outcome_trials"))
    shown = f"{value:,.0f}" if h.get("outcomes_complete") else f"{value:,.0f}+"
    if trials and trials > 1 and top is not None:
        shown += f" (most frequent in {top / trials:.0%} of {trials:,} trials)"
    return shown


def _pf_text(value: float | None, _h: Headline, _currency: str) -> str:
    if value is None:
        return MISSING
    verdict = "≤ 0: the PF allocation is not beaten" if value <= 1e-9 else "> 0: beats the PF allocation"
    return f"{show(value, 'ratio', signed=True)} ({verdict})"


def allocation_metrics(
    resources: Sequence[str] = DEFAULT_RESOURCES,
    frameworks: Sequence[str] = (),
    *,
    pf_inequality: bool = True,
) -> tuple[Metric, ...]:
    """The rows of an allocation study's comparison table, in display order.

    One row per resource for the allocated share and the stranded capacity, one row per
    framework for its tasks (in the compact table up to
    :data:`~scheduling.fairness.tables_common.FRAMEWORK_ROWS_COMPACT` frameworks), and the PF
    inequality of eq. (9) when ``pf_inequality``. Values come from :func:`allocation_summary`
    (or the whole document, except the derived ones).

    >>> [m.key for m in allocation_metrics(["gpu"], ["a"], pf_inequality=False)][:6]
    ['total_tasks', 'total_std', 'task_efficiency', 'tasks:a', 'lowest_dominant_share', 'utilisation:gpu']
    """
    per_fw_detail = len(frameworks) > FRAMEWORK_ROWS_COMPACT
    metrics: list[Metric] = [
        Metric("total_tasks", "Tasks allocated", "tasks", ("total_tasks", "total_std", "trials"),
               _path("total_tasks"), "higher", text=_plus_minus("total_std"),
               note="Tasks: the mean over the trials ± the sample standard deviation (randomised policies)."),
        Metric("total_std", "Tasks allocated, standard deviation", "tasks", ("total_std",),
               _path("total_std"), detail=True),
        Metric("task_efficiency", "Task efficiency (eq. 10)", "tasks", ("task_efficiency",),
               _path("task_efficiency"), "higher",
               note="Task efficiency (paper 000, eq. 10): Σ φn·xn, the tasks weighted by their framework's "
                    "weight (the total when every weight is 1)."),
    ]
    for fw in frameworks:
        paths = _reads(("tasks", fw, "mean"), ("tasks", fw, "std"))
        metrics.append(Metric(
            f"tasks:{fw}", f"Tasks of {fw}", "tasks", (*paths["reads"], "trials"), _path("tasks", fw, "mean"),
            text=_plus_minus(f"tasks/{fw}/std"), detail=per_fw_detail, paths=paths["paths"],
        ))
    metrics.append(Metric(
        "lowest_dominant_share", "Lowest dominant share", "percent",
        ("lowest_dominant_share", "lowest_dominant_framework"), _pct_of("lowest_dominant_share"), "higher",
        text=_with_name("percent", "lowest_dominant_framework"),
        note="Lowest dominant share: the least-served framework's DRF share of the cluster (÷ its weight) at "
             "the mean allocation; max-min fairness raises it.",
    ))
    for r in resources:
        paths = _reads(("utilisation", r))
        metrics.append(Metric(
            f"utilisation:{r}", f"{r} allocated", "percent", paths["reads"], _pct_of("utilisation", r),
            "higher", paths=paths["paths"],
        ))
    for r in resources:
        paths = _reads(("stranded_fraction", r), ("stranded_total", r), ("capacity", r))
        metrics.append(Metric(
            f"stranded_pct:{r}", f"Stranded {r}", "percent", paths["reads"], _pct_of("stranded_fraction", r),
            "lower", text=_stranded_text(r), paths=paths["paths"],
            note="Stranded: capacity left on servers where no framework allowed there fits one more whole "
                 "task (mean over the trials), in % of the cluster's capacity.",
        ))
    for r in resources:
        paths = _reads(("stranded_total", r))
        metrics.append(Metric(
            f"stranded:{r}", f"Stranded {r}, amount", "amount", paths["reads"], _path("stranded_total", r),
            "lower", detail=True, paths=paths["paths"],
        ))
    metrics.append(Metric(
        "distinct_outcomes", "Distinct outcomes", "count",
        ("distinct_outcomes", "outcomes_complete", "top_outcome_trials", "trials"),
        _path("distinct_outcomes"), text=_outcomes_text, detail=True,
        note="Distinct outcomes: how many different allocations the trials ended in (a large standard "
             "deviation comes from a few very different ones).",
    ))
    if pf_inequality:
        metrics.append(Metric(
            "pf_inequality", "PF inequality Φ (eq. 9)", "ratio", ("pf_inequality",), _path("pf_inequality"),
            text=_pf_text,
            note="PF inequality (paper 000, eq. 9): Φ(x, x*) = Σ φn (xn − x*n) / x*n against the "
                 "proportional-fair allocation x*; it is ≤ 0 for every allocation when x* is proportionally "
                 "fair.",
        ))
    return tuple(metrics)


#: An allocation study's rows for the default resources, no per-framework rows.
ALLOCATION_METRICS: tuple[Metric, ...] = allocation_metrics()


#: Columns of :func:`allocation_framework_rows`: every criterion of paper 000 (notes §1) per
#: framework, at the mean allocation, in % (:func:`allocation_framework_table` lays them out).
ALLOCATION_FRAMEWORK_COLUMNS: tuple[Column, ...] = (
    Column("variant", "Variant", "text"),
    Column("framework", "Framework", "text"),
    Column("weight", "Weight", "ratio"),
    Column("tasks", "Tasks (mean)", "tasks"),
    Column("tasks_std", "Tasks (std)", "tasks"),
    Column("dominant_share", "Dominant share (DRF)", "percent"),
    Column("tsf", "TSF share", "percent"),
    Column("psdsf_min", "PS-DSF (min over servers)", "percent"),
    Column("psdsf_min_machine", "PS-DSF min on", "text"),
    Column("rpsdsf_min", "rPS-DSF (min over servers)", "percent"),
    Column("rpsdsf_min_machine", "rPS-DSF min on", "text"),
)
#: What :func:`allocation_framework_table` says under its rows.
ALLOCATION_FRAMEWORK_NOTES: tuple[str, ...] = (
    "Criteria of paper 000 (Section III-IV) at the mean allocation, divided by the framework's weight, "
    "in %: DRF x_n max_r d_nr / sum_j c_jr; TSF x_n / T_n (T_n: tasks it could run alone).",
    "PS-DSF (x_n max_r d_nr / c_jr) and rPS-DSF (the same over server j's residual capacity) are per "
    "server j: shown is the smallest over the servers the framework may use, and that server (the first "
    "of equals), the value joint selection compares; — where no server gives one (rPS-DSF: no server "
    "has a needed resource left).",
)
#: Columns of :func:`allocation_cell_rows` (paper 000's Tables I and II).
ALLOCATION_CELL_COLUMNS: tuple[Column, ...] = (
    Column("variant", "Variant", "text"),
    Column("framework", "Framework", "text"),
    Column("machine", "Server", "text"),
    Column("vm_type", "VM type", "text"),
    Column("tasks", "Tasks (mean)", "tasks"),
    Column("tasks_std", "Tasks (std)", "tasks"),
)
#: Columns of :func:`allocation_resource_rows`.
ALLOCATION_RESOURCE_COLUMNS: tuple[Column, ...] = (
    Column("variant", "Variant", "text"),
    Column("resource", "Resource", "text"),
    Column("capacity", "Capacity", "amount"),
    Column("allocated_pct", "Allocated", "percent"),
    Column("unallocated", "Unallocated", "amount"),
    Column("stranded", "Stranded", "amount"),
    Column("stranded_pct", "Stranded", "percent"),
)


def _weights(doc: Doc) -> dict[str, float | None]:
    return {
        str(f.get("name")): finite(f.get("weight"))
        for f in doc.get("frameworks") or [] if isinstance(f, Mapping)
    }


def _pct(value: float | None) -> float | None:
    return None if value is None else value * 100.0


def allocation_framework_rows(docs: Mapping[str, Doc]) -> list[dict[str, Any]]:
    """One row per variant and framework: its weight, mean tasks and their standard
    deviation, and every criterion (in %) at the mean allocation: DRF, TSF, and the PS-DSF
    and rPS-DSF minima over the servers with the server (``docs``: documents or summaries).

    >>> doc = {"frameworks": [{"name": "f1", "weight": 1}], "tasks": {"f1": {"mean": 21.0, "std": 0.0}},
    ...        "criteria": {"f1": {"drf": 0.8, "tsf": 0.5, "psdsf_min": 1.05, "psdsf_min_machine": "c1#1"}}}
    >>> row = allocation_framework_rows({"rPS-DSF": doc})[0]
    >>> row["dominant_share"], row["psdsf_min"], row["psdsf_min_machine"], row["rpsdsf_min"]
    (80.0, 105.0, 'c1#1', None)
    """
    rows: list[dict[str, Any]] = []
    for label, doc in docs.items():
        weights = _weights(doc)
        for fw in framework_names(doc):
            tasks = _section(doc, "tasks", fw)
            crit = _framework_criteria(_section(doc, "criteria", fw))
            rows.append({
                "variant": str(label), "framework": fw, "weight": weights.get(fw),
                "tasks": finite(tasks.get("mean")), "tasks_std": finite(tasks.get("std")),
                "dominant_share": _pct(crit["drf"]), "tsf": _pct(crit["tsf"]),
                "psdsf_min": _pct(crit["psdsf_min"]), "psdsf_min_machine": crit["psdsf_min_machine"],
                "rpsdsf_min": _pct(crit["rpsdsf_min"]), "rpsdsf_min_machine": crit["rpsdsf_min_machine"],
            })
    return rows


def allocation_framework_table(docs: Mapping[str, Doc], *, currency: str = "$") -> DetailTable:
    """The table of every criterion per framework and variant (:func:`allocation_framework_rows`
    laid out by :data:`ALLOCATION_FRAMEWORK_COLUMNS`): the one the CLI prints, the HTML page,
    the planner's run page and its CSV, XLSX and PDF reports show (documents or summaries).

    >>> doc = {"frameworks": [{"name": "f1", "weight": 1}], "tasks": {"f1": {"mean": 21.0, "std": 0.0}},
    ...        "criteria": {"f1": {"drf": 0.8077, "tsf": 0.8077, "rpsdsf_min": 35.0,
    ...                            "rpsdsf_min_machine": "c1#1"}}}
    >>> t = allocation_framework_table({"rPS-DSF": doc})
    >>> t["key"], t["shown"][0][5:]
    ('frameworks', ['80.8%', '80.8%', '—', '—', '3,500.0%', 'c1#1'])
    """
    return detail_table("frameworks", "Fairness criteria per framework", ALLOCATION_FRAMEWORK_COLUMNS,
                        allocation_framework_rows(docs), currency=currency, notes=ALLOCATION_FRAMEWORK_NOTES)


def allocation_cell_rows(docs: Mapping[str, Doc]) -> list[dict[str, Any]]:
    """One row per variant, framework and server: mean tasks ``x[n][i]`` and their standard
    deviation (paper 000's Tables I and II, one cell per row).

    >>> doc = {"frameworks": [{"name": "f1"}], "machines": [{"id": "c1#1", "vm_type": "c1"}],
    ...        "mean": {"f1": {"c1#1": 19.0}}, "std": {"f1": {"c1#1": 0.5}}}
    >>> allocation_cell_rows({"v": doc})
    [{'variant': 'v', 'framework': 'f1', 'machine': 'c1#1', 'vm_type': 'c1', 'tasks': 19.0, 'tasks_std': 0.5}]
    """
    rows: list[dict[str, Any]] = []
    for label, doc in docs.items():
        machines = [m for m in doc.get("machines") or [] if isinstance(m, Mapping)]
        for fw in framework_names(doc):
            mean, std = _section(doc, "mean", fw), _section(doc, "std", fw)
            for m in machines:
                mid = str(m.get("id"))
                rows.append({
                    "variant": str(label), "framework": fw, "machine": mid, "vm_type": m.get("vm_type"),
                    "tasks": finite(mean.get(mid)), "tasks_std": finite(std.get(mid)),
                })
    return rows


def allocation_resource_rows(docs: Mapping[str, Doc]) -> list[dict[str, Any]]:
    """One row per variant and resource: capacity, allocated (%), unallocated and stranded."""
    rows: list[dict[str, Any]] = []
    for label, doc in docs.items():
        utilisation = _section(doc, "utilisation")
        for r, v in stranded_totals(doc).items():
            used = finite(utilisation.get(r))
            cap, stranded = v["capacity"], v["stranded"]
            rows.append({
                "variant": str(label), "resource": r, "capacity": cap,
                "allocated_pct": None if used is None else used * 100.0,
                "unallocated": v["residual"], "stranded": stranded,
                "stranded_pct": stranded / cap * 100.0 if stranded is not None and cap else None,
            })
    return rows
