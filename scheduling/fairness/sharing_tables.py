"""The tables of an online sharing study (paper 001; one sharing document per configuration): its
summary, the rows of its comparison table and its per-framework table.

* :func:`sharing_summary`: the headline values of one document (what a run stores per
  configuration), with :func:`mean_utilisation` the time-weighted mean of a timeline;
* :func:`sharing_metrics` (:data:`SHARING_METRICS` for the default resources): the rows of the
  comparison table as :class:`scheduling.tables.Metric` data;
* :func:`sharing_framework_rows`: one row per configuration and framework, its columns
  declared by :data:`SHARING_FRAMEWORK_COLUMNS`.

:mod:`scheduling.fairness.tables` is the front door.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..numbers import finite
from ..numbers import section as _section
from ..scenario.limits import DEFAULT_RESOURCES
from ..tables import MISSING, Column, Headline, Metric, show
from .tables_common import (
    FRAMEWORK_ROWS_COMPACT,
    NO_WINDOW,
    UNFAIRNESS_DEFINITION,
    Doc,
    _path,
    _pct_of,
    _reads,
    _with_name,
    _worst,
    framework_names,
    no_window,
    resource_names,
)

__all__ = [
    "SHARING_FRAMEWORK_COLUMNS",
    "SHARING_METRICS",
    "mean_utilisation",
    "sharing_framework_rows",
    "sharing_metrics",
    "sharing_summary",
]

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


_COMPLETION = (
    "tasks", "launched", "finished", "first_start_s", "last_start_s", "last_finish_s", "mean_wait_s",
    "max_wait_s",
)


_SHARING_HEAD = ("label", "mode", "criterion", "servers", "allocation_interval_s", "seed", "stopped")


def sharing_summary(doc: Doc) -> dict[str, Any]:
    """The headline values of a sharing document (JSON-ready; no timeline).

    Keeps the describing fields, ``resources``, ``frameworks`` (names), ``makespan_s``,
    ``fairness`` (``contention_s``, ``window``, ``frameworks``), ``completion`` and
    ``offers``, and adds:

    * ``worst_unfairness_pct`` / ``worst_unfairness_framework``: the largest unfairness (%)
      over the frameworks, and ``worst_unfairness_area`` / ``worst_area_framework`` the
      largest unfairness area (share·s); ``total_unfairness_area`` their sum;
      ``no_contention_window``: whether paper 001 §II's window is empty (the figures are then
      ``None``, shown as "no contention window");
    * ``worst_pending_unfairness_pct`` / ``worst_pending_framework``: the largest unfairness
      of the pending-work reading (``fairness.pending_work``), where the document has it;
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
    pending_doc = _section(fairness, "pending_work")
    pending = {fw: finite(_section(pending_doc, "frameworks", fw).get("unfairness_pct"))
               for fw in _section(pending_doc, "frameworks")}
    worst_pending, worst_pending_fw = _worst(pending, max)
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
            **({"definition": UNFAIRNESS_DEFINITION} if fairness.get("definition") == UNFAIRNESS_DEFINITION
               else {}),
            "contention_s": finite(fairness.get("contention_s")),
            "window": [finite(v) for v in fairness.get("window") or []] or None,
            "frameworks": unfair,
        },
        "no_contention_window": no_window(doc),
        "worst_pending_unfairness_pct": worst_pending,
        "worst_pending_framework": worst_pending_fw,
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


def _or_no_window(unit: str, name_key: str | None = None) -> Callable[[float | None, Headline, str], str]:
    """A value in ``unit`` (with its framework's name, from ``name_key``), or "no contention window"
    where paper 001 §II's window is empty: never a silent 0 or a bare dash."""
    named = _with_name(unit, name_key) if name_key else None

    def text(value: float | None, h: Headline, currency: str) -> str:
        if value is None and h.get("no_contention_window"):
            return NO_WINDOW
        return named(value, h, currency) if named else show(value, unit, currency)

    return text


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


def sharing_metrics(
    resources: Sequence[str] = DEFAULT_RESOURCES, frameworks: Sequence[str] = ()
) -> tuple[Metric, ...]:
    """The rows of a sharing study's comparison table, in display order.

    The worst unfairness (and its framework), then each framework's (in the compact table up to
    :data:`~scheduling.fairness.tables_common.FRAMEWORK_ROWS_COMPACT` frameworks), the largest
    unfairness area, makespan, waits, mean utilisation per resource, tasks finished and offers
    declined. Values come from :func:`sharing_summary`; the per-framework ones read the same
    paths in the whole document.

    >>> [m.key for m in sharing_metrics(["cpu"], ["a"])][:4]
    ['worst_unfairness_pct', 'unfairness_pct:a', 'worst_unfairness_area', 'unfairness_area:a']
    """
    per_fw_detail = len(frameworks) > FRAMEWORK_ROWS_COMPACT
    window = ("no_contention_window",)
    metrics: list[Metric] = [
        Metric("worst_unfairness_pct", "Worst unfairness", "percent",
               ("worst_unfairness_pct", "worst_unfairness_framework", *window), _path("worst_unfairness_pct"),
               "lower", text=_or_no_window("percent", "worst_unfairness_framework"),
               note="Unfairness (paper 001 §II): how much of its fair share (its weight over the weights of "
                    "the frameworks that have tasks) a framework did not receive over the contention window, "
                    "from the time every framework has started launching to the time the first has launched "
                    "all its tasks, in %; the worst framework's. No window: no figure."),
    ]
    for fw in frameworks:
        paths = _reads(("fairness", "frameworks", fw, "unfairness_pct"))
        metrics.append(Metric(
            f"unfairness_pct:{fw}", f"Unfairness of {fw}", "percent", (*paths["reads"], *window),
            _path("fairness", "frameworks", fw, "unfairness_pct"), "lower", detail=per_fw_detail,
            text=_or_no_window("percent"), paths=paths["paths"],
        ))
    metrics.append(Metric(
        "worst_unfairness_area", "Largest unfairness area", "share_seconds",
        ("worst_unfairness_area", "worst_area_framework", *window), _path("worst_unfairness_area"), "lower",
        text=_or_no_window("share_seconds", "worst_area_framework"),
        note="Unfairness area: the area between a framework's share and its fair share where it is below, "
             "in share·s (share × seconds), the shaded area of the share charts.",
    ))
    for fw in frameworks:
        paths = _reads(("fairness", "frameworks", fw, "unfairness_area"))
        metrics.append(Metric(
            f"unfairness_area:{fw}", f"Unfairness area of {fw}", "share_seconds", (*paths["reads"], *window),
            _path("fairness", "frameworks", fw, "unfairness_area"), "lower", detail=True,
            text=_or_no_window("share_seconds"), paths=paths["paths"],
        ))
    contention = _reads(("fairness", "contention_s"))
    metrics += [
        Metric("worst_pending_unfairness_pct", "Worst unfairness while work is pending", "percent",
               ("worst_pending_unfairness_pct", "worst_pending_framework"),
               _path("worst_pending_unfairness_pct"), "lower",
               text=_with_name("percent", "worst_pending_framework"), detail=True,
               note="Unfairness while work is pending (a second reading, not paper 001's): the fair share "
                    "is the weight over the weights of the frameworks with tasks waiting, over the time two "
                    "or more have some."),
        Metric("contention_s", "Contention window", "seconds", (*contention["reads"], *window),
               _path("fairness", "contention_s"), detail=True, text=_or_no_window("seconds"),
               paths=contention["paths"]),
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


#: A sharing study's rows for the default resources, no per-framework rows.
SHARING_METRICS: tuple[Metric, ...] = sharing_metrics()


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
    Column("pending_unfairness_pct", "Unfairness while work is pending", "percent"),
    Column("first_start_s", "First start", "seconds"),
    Column("last_finish_s", "Last finish", "seconds"),
    Column("mean_wait_s", "Mean wait", "seconds"),
    Column("max_wait_s", "Longest wait", "seconds"),
    Column("offers_made", "Offers made", "count"),
    Column("offers_declined", "Offers declined", "count"),
)


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
            figures: dict[str, Any] = {k: finite(fair.get(k)) for k in ("received_pct", "unfairness_pct",
                                                                         "unfairness_area")}
            if no_window(doc) and (tasks or 0) > 0:  # undefined, never a silent 0 or a bare dash
                figures = {k: NO_WINDOW for k in figures}
            pending = _section(doc, "fairness", "pending_work", "frameworks", fw)
            rows.append({
                "configuration": str(label), "framework": fw, "weight": finite(f.get("weight")),
                "policy": f.get("policy"), "tasks": tasks if tasks is not None else finite(f.get("tasks")),
                "launched": finite(done.get("launched")),
                "finished": finite(done.get("finished")),
                **figures,
                "pending_unfairness_pct": finite(pending.get("unfairness_pct")),
                **{k: finite(done.get(k)) for k in ("first_start_s", "last_finish_s", "mean_wait_s",
                                                    "max_wait_s")},
                "offers_made": finite(offers.get("made")), "offers_declined": finite(offers.get("declined")),
            })
    return rows
