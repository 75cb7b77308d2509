"""Presenting fairness studies: headline summaries, comparison rows and per-framework tables.

A fairness study compares *variants*: allocation policies of a static allocation study
(paper 000, Section IV; one allocation document each) or configurations of an online
sharing study (paper 001; one sharing document each). Both documents are described in
docs/results.md and the issue 8 contract. This module turns them into what every view
shows, once:

* :func:`allocation_summary` and :func:`sharing_summary`: the headline values of one
  document (small, JSON-ready: what a run stores per variant). A summary keeps the
  document's own small sections where the document has them (``tasks``, ``utilisation``,
  ``fairness.frameworks``, ``completion``, ``offers``), so a metric reads the same path in a
  summary and in the whole document; the values it derives (stranded capacity in totals,
  the worst unfairness, the mean wait, mean utilisation) sit beside them.
* :data:`ALLOCATION_METRICS` and :data:`SHARING_METRICS`: the rows of the comparison table
  as :class:`scheduling.presenter.Metric` data, for the default resources (cpu, mem);
  :func:`allocation_metrics` and :func:`sharing_metrics` build them for other resources and
  with a row per framework, and :func:`fairness_table` picks them from the summaries, so
  ``fairness_table(summaries)`` is the table of the CLI, the planner's page and the CSV,
  XLSX and PDF reports (:func:`scheduling.presenter.comparison_table` underneath).
* Per-framework detail (:func:`allocation_framework_rows`, :func:`allocation_cell_rows`,
  :func:`allocation_resource_rows`, :func:`sharing_framework_rows`): plain row dicts, their
  columns declared by the ``*_COLUMNS`` tuples of :class:`scheduling.presenter.Column` (key,
  label, unit of :data:`scheduling.presenter.UNITS`) for the reports.

>>> doc = {"study": "allocation", "label": "rPS-DSF", "trials": 1, "resources": ["cpu", "mem"],
...        "machines": [{"id": "c1#1", "vm_type": "c1", "capacity": {"cpu": 100, "mem": 30}}],
...        "frameworks": [{"name": "f1", "weight": 1}], "tasks": {"f1": {"mean": 19.0, "std": 0.0}},
...        "total_tasks": 19.0, "total_std": 0.0, "task_efficiency": 19.0,
...        "stranded": {"c1#1": {"cpu": 5.0, "mem": 11.0}}, "utilisation": {"cpu": 0.95, "mem": 0.63}}
>>> s = allocation_summary(doc)
>>> s["stranded_total"], s["stranded_fraction"]["cpu"]
({'cpu': 5.0, 'mem': 11.0}, 0.05)
>>> rows = {r["key"]: r for r in fairness_table({"rPS-DSF": s})["rows"]}
>>> [rows[k]["cells"][0]["shown"] for k in ("total_tasks", "utilisation:cpu", "stranded_pct:cpu")]
['19.0', '95.0%', '5.0% (5 of 100)']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..numbers import finite, integral
from ..presenter import (
    MISSING,
    Column,
    Comparison,
    DetailTable,
    Headline,
    Metric,
    comparison_table,
    detail_table,
    show,
)
from ..scenario.limits import DEFAULT_RESOURCES

__all__ = [
    "ALLOCATION_CELL_COLUMNS",
    "ALLOCATION_FRAMEWORK_COLUMNS",
    "ALLOCATION_FRAMEWORK_NOTES",
    "ALLOCATION_METRICS",
    "ALLOCATION_RESOURCE_COLUMNS",
    "FRAMEWORK_ROWS_COMPACT",
    "SHARING_FRAMEWORK_COLUMNS",
    "SHARING_METRICS",
    "Column",
    "allocation_cell_rows",
    "allocation_framework_rows",
    "allocation_framework_table",
    "allocation_metrics",
    "allocation_resource_rows",
    "allocation_summary",
    "comparison_text",
    "fairness_metrics",
    "fairness_table",
    "framework_names",
    "mean_utilisation",
    "resource_names",
    "sharing_framework_rows",
    "sharing_metrics",
    "sharing_summary",
    "stranded_totals",
    "study_of",
    "summary",
]

Doc = Mapping[str, Any]

#: With at most this many frameworks, the per-framework rows are in the compact table (the
#: page's); with more, in the files' full table only (``detail``).
FRAMEWORK_ROWS_COMPACT = 6


# --------------------------------------------------------------------------- reading documents


def study_of(doc: Doc) -> str:
    """``"allocation"`` or ``"sharing"``: the document's (or summary's) ``study``.

    >>> study_of({"study": "sharing"})
    'sharing'
    """
    study = doc.get("study")
    if study not in ("allocation", "sharing"):
        raise ValueError(f"not a fairness document: study is {study!r} (expected 'allocation' or 'sharing')")
    return str(study)


def framework_names(doc: Doc) -> list[str]:
    """The frameworks of a document or summary, in its order.

    >>> framework_names({"frameworks": [{"name": "a"}, {"name": "b"}]})
    ['a', 'b']
    >>> framework_names({"frameworks": ["c"]})
    ['c']
    """
    out: list[str] = []
    for f in doc.get("frameworks") or []:
        name = f.get("name") if isinstance(f, Mapping) else f
        if name is not None and str(name) not in out:
            out.append(str(name))
    return out


def resource_names(doc: Doc) -> list[str]:
    """The resources of a document or summary, in its order."""
    return [str(r) for r in doc.get("resources") or []]


def _union(lists: Iterable[Iterable[str]]) -> list[str]:
    return list(dict.fromkeys(name for names in lists for name in names))


def _section(doc: Doc, *path: str) -> Mapping[str, Any]:
    node: Any = doc
    for step in path:
        node = node.get(step) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else {}


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


def mean_utilisation(timeline: Doc) -> dict[str, float | None]:
    """Time-weighted mean of each utilisation step series of a sharing timeline.

    Series hold ``u[k]`` from ``t[k]`` to ``t[k+1]``; the mean runs from the first to the
    last time point (``None`` when the timeline spans no time).

    >>> mean_utilisation({"t": [0, 10, 30], "utilisation": {"cpu": [1.0, 0.25, 0.0]}})
    {'cpu': 0.5}
    """
    t = np.asarray(timeline.get("t") or [], dtype=float)
    out: dict[str, float | None] = {}
    for r, series in (_section(timeline, "utilisation")).items():
        u = np.asarray([finite(v) or 0.0 for v in series or []], dtype=float)
        if t.size < 2 or u.size != t.size or not t[-1] > t[0]:
            out[str(r)] = None
            continue
        out[str(r)] = float((u[:-1] * np.diff(t)).sum() / (t[-1] - t[0]))
    return out


def _mean_utilisation(doc: Doc) -> dict[str, float | None]:
    """The document's own time-weighted mean utilisation (``utilisation_stats``, over the busy
    time) where it gives one, else the mean over its timeline (:func:`mean_utilisation`)."""
    stats = _section(doc, "utilisation_stats")
    out = mean_utilisation(_section(doc, "timeline"))
    for r in resource_names(doc) or list(out):
        mean = finite(_section(stats, r).get("mean"))
        out[r] = mean if mean is not None else out.get(r)
    return out


def _worst(values: Mapping[str, float | None], pick: Callable[..., float]) -> tuple[float | None, str | None]:
    """The extreme value and its name (the first name on a tie), ignoring ``None``."""
    numbers = [(v, k) for k, v in values.items() if v is not None]
    if not numbers:
        return None, None
    target = pick(v for v, _ in numbers)
    return target, next(k for v, k in numbers if v == target)


# --------------------------------------------------------------------------- summaries

_COMPLETION = (
    "tasks", "launched", "finished", "first_start_s", "last_start_s", "last_finish_s", "mean_wait_s",
    "max_wait_s",
)
_ALLOCATION_HEAD = ("label", "method", "policy", "servers", "integer", "tolerance", "trials", "seed")
_SHARING_HEAD = ("label", "mode", "criterion", "servers", "allocation_interval_s", "seed", "stopped")


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


def sharing_summary(doc: Doc) -> dict[str, Any]:
    """The headline values of a sharing document (JSON-ready; no timeline).

    Keeps the describing fields, ``resources``, ``frameworks`` (names), ``makespan_s``,
    ``fairness`` (``contention_s``, ``window``, ``frameworks``), ``completion`` and
    ``offers``, and adds:

    * ``worst_unfairness_pct`` / ``worst_unfairness_framework``: the largest unfairness (%)
      over the frameworks, and ``worst_unfairness_area`` / ``worst_area_framework`` the
      largest unfairness area (share·s); ``total_unfairness_area`` their sum;
    * ``mean_wait_s``: the mean wait over every launched task (each framework's mean weighted
      by its launched tasks; finished, else all, when the document has no count of launched
      ones), ``max_wait_s``, ``tasks``, ``finished``;
    * ``utilisation``: resource -> time-weighted mean utilisation: the document's
      ``utilisation_stats`` mean when it has one, else over the whole timeline;
    * ``offers_made``, ``offers_declined`` (totals; ``None`` without offers) and
      ``offers_declined_pct``.
    """
    if doc.get("study", "sharing") != "sharing":
        raise ValueError(f"not a sharing document: study is {doc.get('study')!r}")
    frameworks = framework_names(doc)
    fairness = _section(doc, "fairness")
    per_fw = _section(fairness, "frameworks")
    unfair = {
        fw: {k: finite(_section(per_fw, fw).get(k)) for k in ("weight", "unfairness_pct", "unfairness_area",
                                                              "received_pct")}
        for fw in [*frameworks, *(str(k) for k in per_fw if str(k) not in frameworks)]
    }
    worst_pct, worst_pct_fw = _worst({fw: v["unfairness_pct"] for fw, v in unfair.items()}, max)
    worst_area, worst_area_fw = _worst({fw: v["unfairness_area"] for fw, v in unfair.items()}, max)
    areas = [v["unfairness_area"] for v in unfair.values() if v["unfairness_area"] is not None]
    completion_doc = _section(doc, "completion")
    completion: dict[str, dict[str, float | None]] = {}
    for fw in frameworks:
        c = _section(completion_doc, fw)
        completion[fw] = {
            k: finite(c.get(k)) for k in _COMPLETION
        }
    # A framework's mean wait is over its launched tasks (finished ones, or all, when the
    # document does not say how many were launched).
    waits = [
        (c["mean_wait_s"], next((c[k] for k in ("launched", "finished", "tasks") if c[k] is not None), 0.0))
        for c in completion.values() if c["mean_wait_s"] is not None
    ]
    weight = sum(w or 0.0 for _, w in waits)
    mean_wait = sum(m * (w or 0.0) for m, w in waits) / weight if weight > 0 else None
    max_wait, _ = _worst({fw: c["max_wait_s"] for fw, c in completion.items()}, max)
    offers_doc = _section(doc, "offers")
    offers = {
        fw: {k: finite(_section(offers_doc, fw).get(k)) for k in ("made", "accepted", "declined")}
        for fw in frameworks if fw in offers_doc
    }
    made = sum(v["made"] or 0.0 for v in offers.values()) if offers else None
    declined = sum(v["declined"] or 0.0 for v in offers.values()) if offers else None
    tasks = [c["tasks"] for c in completion.values() if c["tasks"] is not None]
    finished = [c["finished"] for c in completion.values() if c["finished"] is not None]
    return {
        "study": "sharing",
        **{k: doc.get(k) for k in _SHARING_HEAD},
        "resources": resource_names(doc),
        "frameworks": frameworks,
        "makespan_s": finite(doc.get("makespan_s")),
        "fairness": {
            "contention_s": finite(fairness.get("contention_s")),
            "window": [finite(v) for v in fairness.get("window") or []] or None,
            "frameworks": unfair,
        },
        "worst_unfairness_pct": worst_pct,
        "worst_unfairness_framework": worst_pct_fw,
        "worst_unfairness_area": worst_area,
        "worst_area_framework": worst_area_fw,
        "total_unfairness_area": float(sum(areas)) if areas else None,
        "completion": completion,
        "mean_wait_s": mean_wait,
        "max_wait_s": max_wait,
        "tasks": float(sum(tasks)) if tasks else None,
        "finished": float(sum(finished)) if finished else None,
        "utilisation": _mean_utilisation(doc),
        "offers": offers or None,
        "offers_made": made,
        "offers_declined": declined,
        "offers_declined_pct": (declined / made * 100.0) if made and declined is not None else None,
    }


def summary(doc: Doc) -> dict[str, Any]:
    """The summary of either study's document (:func:`allocation_summary` or :func:`sharing_summary`)."""
    return allocation_summary(doc) if study_of(doc) == "allocation" else sharing_summary(doc)


# --------------------------------------------------------------------------- metrics


def _path(*steps: str) -> Callable[[Headline, Headline | None], float | None]:
    key = "/".join(steps)
    return lambda h, _base: finite(h.get(key))


def _reads(*paths: tuple[str, ...]) -> dict[str, Any]:
    """``reads`` and ``paths`` of a metric reading nested values: keys are the joined paths."""
    keys = tuple("/".join(p) for p in paths)
    return {"reads": keys, "paths": {k: p for k, p in zip(keys, paths, strict=True) if len(p) > 1}}


def _pct_of(*steps: str) -> Callable[[Headline, Headline | None], float | None]:
    get = _path(*steps)

    def value(h: Headline, base: Headline | None) -> float | None:
        v = get(h, base)
        return None if v is None else v * 100.0

    return value


def _with_name(unit: str, name_key: str) -> Callable[[float | None, Headline, str], str]:
    """``38.0% (scylla)``: the value and the framework it belongs to (none for a zero)."""

    def text(value: float | None, h: Headline, currency: str) -> str:
        shown = show(value, unit, currency)
        name = h.get(name_key)
        return f"{shown} ({name})" if value and name is not None else shown

    return text


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


def _finished_text(value: float | None, h: Headline, _currency: str) -> str:
    tasks = finite(h.get("tasks"))
    if value is None:
        return MISSING
    return f"{value:,.0f} / {tasks:,.0f}" if tasks is not None else f"{value:,.0f}"


def _declined_text(value: float | None, h: Headline, _currency: str) -> str:
    made, declined = finite(h.get("offers_made")), finite(h.get("offers_declined"))
    if value is None or made is None or declined is None:
        return MISSING if value is None else show(value, "percent")
    return f"{declined:,.0f} / {made:,.0f} ({show(value, 'percent')})"


def allocation_metrics(
    resources: Sequence[str] = DEFAULT_RESOURCES,
    frameworks: Sequence[str] = (),
    *,
    pf_inequality: bool = True,
) -> tuple[Metric, ...]:
    """The rows of an allocation study's comparison table, in display order.

    One row per resource for the allocated share and the stranded capacity, one row per
    framework for its tasks (in the compact table up to :data:`FRAMEWORK_ROWS_COMPACT`
    frameworks), and the PF inequality of eq. (9) when ``pf_inequality``. Values come from
    :func:`allocation_summary` (or the whole document, except the derived ones).

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


def sharing_metrics(
    resources: Sequence[str] = DEFAULT_RESOURCES, frameworks: Sequence[str] = ()
) -> tuple[Metric, ...]:
    """The rows of a sharing study's comparison table, in display order.

    The worst unfairness (and its framework), then each framework's (in the compact table up
    to :data:`FRAMEWORK_ROWS_COMPACT` frameworks), the largest unfairness area, makespan,
    waits, mean utilisation per resource, tasks finished and offers declined. Values come
    from :func:`sharing_summary`; the per-framework ones read the same paths in the whole
    document.

    >>> [m.key for m in sharing_metrics(["cpu"], ["a"])][:4]
    ['worst_unfairness_pct', 'unfairness_pct:a', 'worst_unfairness_area', 'unfairness_area:a']
    """
    per_fw_detail = len(frameworks) > FRAMEWORK_ROWS_COMPACT
    metrics: list[Metric] = [
        Metric("worst_unfairness_pct", "Worst unfairness", "percent",
               ("worst_unfairness_pct", "worst_unfairness_framework"), _path("worst_unfairness_pct"), "lower",
               text=_with_name("percent", "worst_unfairness_framework"),
               note="Unfairness (paper 001): how much of its fair share a framework did not receive over "
                    "the contention time (two or more frameworks with work waiting), in %; the worst "
                    "framework's."),
    ]
    for fw in frameworks:
        paths = _reads(("fairness", "frameworks", fw, "unfairness_pct"))
        metrics.append(Metric(
            f"unfairness_pct:{fw}", f"Unfairness of {fw}", "percent", paths["reads"],
            _path("fairness", "frameworks", fw, "unfairness_pct"), "lower", detail=per_fw_detail,
            paths=paths["paths"],
        ))
    metrics.append(Metric(
        "worst_unfairness_area", "Largest unfairness area", "share_seconds",
        ("worst_unfairness_area", "worst_area_framework"), _path("worst_unfairness_area"), "lower",
        text=_with_name("share_seconds", "worst_area_framework"),
        note="Unfairness area: the area between a framework's share and its fair share where it is below, "
             "in share·s (share × seconds), the shaded area of the share charts.",
    ))
    for fw in frameworks:
        paths = _reads(("fairness", "frameworks", fw, "unfairness_area"))
        metrics.append(Metric(
            f"unfairness_area:{fw}", f"Unfairness area of {fw}", "share_seconds", paths["reads"],
            _path("fairness", "frameworks", fw, "unfairness_area"), "lower", detail=True,
            paths=paths["paths"],
        ))
    contention = _reads(("fairness", "contention_s"))
    metrics += [
        Metric("contention_s", "Contention time", "seconds", contention["reads"],
               _path("fairness", "contention_s"), detail=True, paths=contention["paths"]),
        Metric("makespan_s", "Makespan", "seconds", ("makespan_s",), _path("makespan_s"), "lower"),
    ]
    for fw in frameworks:
        paths = _reads(("completion", fw, "last_finish_s"))
        metrics.append(Metric(
            f"last_finish:{fw}", f"Last task of {fw} finished", "seconds", paths["reads"],
            _path("completion", fw, "last_finish_s"), "lower", detail=True, paths=paths["paths"],
        ))
    metrics += [
        Metric("mean_wait_s", "Mean wait", "seconds", ("mean_wait_s",), _path("mean_wait_s"), "lower",
               note="Wait: from a task's arrival to its launch; the mean is over every task."),
        Metric("max_wait_s", "Longest wait", "seconds", ("max_wait_s",), _path("max_wait_s"), "lower",
               detail=True),
    ]
    for r in resources:
        paths = _reads(("utilisation", r))
        metrics.append(Metric(
            f"utilisation:{r}", f"Mean {r} utilisation", "percent", paths["reads"], _pct_of("utilisation", r),
            "higher", paths=paths["paths"],
        ))
    metrics += [
        Metric("finished", "Tasks finished", "count", ("finished", "tasks"), _path("finished"), "higher",
               text=_finished_text, detail=True),
        Metric("offers_declined_pct", "Offers declined", "percent",
               ("offers_declined_pct", "offers_made", "offers_declined"), _path("offers_declined_pct"),
               text=_declined_text, detail=True),
    ]
    return tuple(metrics)


#: An allocation study's rows for the default resources, no per-framework rows.
ALLOCATION_METRICS: tuple[Metric, ...] = allocation_metrics()
#: A sharing study's rows for the default resources, no per-framework rows.
SHARING_METRICS: tuple[Metric, ...] = sharing_metrics()


def fairness_metrics(summaries: Mapping[str, Doc]) -> tuple[Metric, ...]:
    """The metrics of these summaries (or documents): their study's, for their resources and
    frameworks (united, in order); the PF inequality row only when one of them has a value.

    >>> m = fairness_metrics({"a": {"study": "sharing", "resources": ["gpu"], "frameworks": ["x"]}})
    >>> [k.key for k in m if ":" in k.key]
    ['unfairness_pct:x', 'unfairness_area:x', 'last_finish:x', 'utilisation:gpu']
    """
    docs = list(summaries.values())
    studies = {study_of(d) for d in docs}
    if len(studies) > 1:
        raise ValueError("a table compares one study: allocation and sharing documents are mixed")
    resources = _union(resource_names(d) for d in docs) or list(DEFAULT_RESOURCES)
    frameworks = _union(framework_names(d) for d in docs)
    if studies == {"sharing"}:
        return sharing_metrics(resources, frameworks)
    pf = any(finite(d.get("pf_inequality")) is not None for d in docs)
    return allocation_metrics(resources, frameworks, pf_inequality=pf)


def fairness_table(
    summaries: Mapping[str, Doc], *, baseline: str | None = None, currency: str = "$", detail: bool = False
) -> Comparison:
    """The comparison table of a fairness study (:func:`scheduling.presenter.comparison_table`).

    ``summaries``: per variant (column order), its summary (:func:`summary`) or its document
    (a document is summarised first). ``detail=True`` gives the files' full table.
    """
    heads = {
        str(k): (summary(v) if "timeline" in v or "mean" in v else v) for k, v in summaries.items()
    }
    if not heads:
        return comparison_table({}, metrics=ALLOCATION_METRICS)
    return comparison_table(
        heads, baseline=baseline, currency=currency, metrics=fairness_metrics(heads), detail=detail
    )


def comparison_text(table: Comparison, *, corner: str = "variant") -> str:
    """A comparison table as aligned plain text, for a terminal (the fairness subcommands).

    >>> t = fairness_table({"rPS-DSF": {"study": "allocation", "total_tasks": 42.0, "trials": 1}})
    >>> lines = comparison_text(t).splitlines()
    >>> lines[0].split(), lines[1].rsplit(None, 1), len({len(line) for line in lines[:2]})
    (['variant', 'rPS-DSF'], ['Tasks allocated', '42.0'], 1)
    """
    rows = [[corner, *table["variants"]]]
    rows += [[row["label"], *(cell["shown"] for cell in row["cells"])] for row in table["rows"]]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = [
        "  ".join([r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True))])
        for r in rows
    ]
    return "\n".join(line.rstrip() for line in lines)


# --------------------------------------------------------------------------- per-framework tables

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
#: Columns of :func:`sharing_framework_rows`.
SHARING_FRAMEWORK_COLUMNS: tuple[Column, ...] = (
    Column("configuration", "Configuration", "text"),
    Column("framework", "Framework", "text"),
    Column("weight", "Weight", "ratio"),
    Column("policy", "Offer policy", "text"),
    Column("tasks", "Tasks", "count"),
    Column("launched", "Launched", "count"),
    Column("finished", "Finished", "count"),
    Column("received_pct", "Fair share received", "percent"),
    Column("unfairness_pct", "Unfairness", "percent"),
    Column("unfairness_area", "Unfairness area", "share_seconds"),
    Column("first_start_s", "First start", "seconds"),
    Column("last_finish_s", "Last finish", "seconds"),
    Column("mean_wait_s", "Mean wait", "seconds"),
    Column("max_wait_s", "Longest wait", "seconds"),
    Column("offers_made", "Offers made", "count"),
    Column("offers_declined", "Offers declined", "count"),
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


def sharing_framework_rows(docs: Mapping[str, Doc]) -> list[dict[str, Any]]:
    """One row per configuration and framework: its unfairness, completion and offers.

    >>> doc = {"frameworks": [{"name": "s", "weight": 1, "policy": "first-fit", "tasks": 4}],
    ...        "fairness": {"frameworks": {"s": {"unfairness_pct": 38.0}}}}
    >>> row = sharing_framework_rows({"c": doc})[0]
    >>> row["unfairness_pct"], row["tasks"], row["mean_wait_s"]
    (38.0, 4.0, None)
    """
    rows: list[dict[str, Any]] = []
    for label, doc in docs.items():
        described = {
            str(f.get("name")): f for f in doc.get("frameworks") or [] if isinstance(f, Mapping)
        }
        for fw in framework_names(doc):
            f = described.get(fw, {})
            fair = _section(doc, "fairness", "frameworks", fw)
            done = _section(doc, "completion", fw)
            offers = _section(doc, "offers", fw)
            tasks = finite(done.get("tasks"))
            rows.append({
                "configuration": str(label), "framework": fw, "weight": finite(f.get("weight")),
                "policy": f.get("policy"), "tasks": tasks if tasks is not None else finite(f.get("tasks")),
                "launched": finite(done.get("launched")),
                "finished": finite(done.get("finished")),
                **{k: finite(fair.get(k)) for k in ("received_pct", "unfairness_pct", "unfairness_area")},
                **{k: finite(done.get(k)) for k in ("first_start_s", "last_finish_s", "mean_wait_s",
                                                    "max_wait_s")},
                "offers_made": finite(offers.get("made")), "offers_declined": finite(offers.get("declined")),
            })
    return rows
