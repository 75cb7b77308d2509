"""The online UDRF documents (paper 004, ``kind: udrf-online``) joined and tabled.

:func:`combine_online` joins the online documents of single policies (a run's parts) into one;
the row functions with their column declarations (``(key, label, unit)``, as
:mod:`scheduling.fairness.tables`) table the online summary per policy (:func:`online_rows`),
per user over the online run UDRF against DRF (:func:`online_user_rows`) and the
completion-time reduction by the machine classes a job needs and by its runs
(:func:`reduction_rows`, paper 004 Figs. 10b-c). :func:`scheduling.udrf.tables.udrf_tables`
assembles them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any, cast

import numpy as np

from ..numbers import finite, integral
from ..numbers import listed as _list
from ..numbers import section as _section
from ..tables import Column, resource_label
from .doc_reading import ONLINE, Doc, _amounts_text, per_policy_columns, policies_of, policy_label
from .online import OnlineResult, compare

__all__ = [
    "ONLINE_COLUMNS",
    "REDUCTION_COLUMNS",
    "combine_online",
    "online_columns",
    "online_rows",
    "online_user_columns",
    "online_user_rows",
    "reduction_rows",
]

def combine_online(docs: Iterable[Doc]) -> dict[str, Any] | None:
    """One online document from online documents of single policies (a run's parts).

    The policies are joined; everything else is the first document's. The comparison is the
    documents' own when one of them has every policy, else the online module's
    (:func:`scheduling.udrf.online.compare`) of the joined jobs, so it is defined once.
    ``None`` when there is no online document.
    """
    online = [d for d in docs if d.get("kind") == ONLINE]
    if not online:
        return None
    out = {k: v for k, v in online[0].items() if k not in ("policies", "comparison")}
    policies: dict[str, Any] = {}
    for d in online:
        policies.update(_section(d, "policies"))
    out["policies"] = {p: policies[p] for p in policies_of({"policies": policies})}
    whole = next(
        (d for d in online if set(_section(d, "policies")) >= set(policies) and d.get("comparison")), None
    )
    if whole is not None:
        out["comparison"] = whole["comparison"]
    elif {"udrf", "drf"} <= set(policies):
        out["comparison"] = _compare(
            _list(_section(policies, "udrf").get("jobs")), _list(_section(policies, "drf").get("jobs"))
        )
    return out


def _compare(udrf_jobs: list[Any], drf_jobs: list[Any]) -> dict[str, Any]:
    """The online module's comparison of two policies' jobs as the document lists them (the
    same jobs in the same order under every policy)."""

    def result(jobs: list[Any]) -> OnlineResult:
        done = [finite(j.get("completion_s")) if isinstance(j, Mapping) else None for j in jobs]
        return cast(
            OnlineResult,
            SimpleNamespace(
                completion_s=np.asarray([np.nan if c is None else c for c in done], dtype=float),
                job_classes=tuple(integral(j.get("classes")) or 0 for j in jobs if isinstance(j, Mapping)),
                job_runs=tuple(integral(j.get("runs")) or 1 for j in jobs if isinstance(j, Mapping)),
            ),
        )

    if len(udrf_jobs) != len(drf_jobs):
        return {"by_classes": [], "by_runs": []}
    return compare(result(udrf_jobs), result(drf_jobs))


_ONLINE_KEYS = (
    "completed",
    "jobs",
    "mean_completion_s",
    "p50_completion_s",
    "p95_completion_s",
    "makespan_s",
    "decisions",
)


def online_columns(resources: Sequence[str]) -> tuple[Column, ...]:
    wasted = (Column(f"mean_wasted:{r}", f"Mean wasted {resource_label(r)}", "amount") for r in resources)
    return (*ONLINE_COLUMNS, *wasted)


#: Columns of :func:`online_rows` (mean waste per resource kind is added per kind).
ONLINE_COLUMNS: tuple[Column, ...] = (
    Column("policy", "Policy", "text"),
    Column("completed", "Completed", "count"),
    Column("jobs", "Jobs", "count"),
    Column("mean_completion_s", "Mean completion", "seconds"),
    Column("p50_completion_s", "Median completion", "seconds"),
    Column("p95_completion_s", "95th percentile completion", "seconds"),
    Column("makespan_s", "Makespan", "seconds"),
    Column("decisions", "Decisions", "count"),
)


def online_rows(doc: Doc) -> list[dict[str, Any]]:
    """One row per policy of an online document: its summary."""
    resources = [str(r) for r in _list(doc.get("resources"))]
    rows = []
    for p in policies_of(doc):
        s = _section(doc, "policies", p, "summary")
        row: dict[str, Any] = {"policy": policy_label(p), **{k: finite(s.get(k)) for k in _ONLINE_KEYS}}
        for r in resources:
            row[f"mean_wasted:{r}"] = finite(_section(s, "mean_wasted").get(r))
        rows.append(row)
    return rows


def online_user_columns(policies: Sequence[str]) -> tuple[Column, ...]:
    """Columns of :func:`online_user_rows` for these policies (UDRF against DRF side by side)."""
    return per_policy_columns([Column("user", "User")], (
        ("mean_share", "Mean dominant share", "percent"),
        ("mean_global_share", "Mean global dominant share", "percent"),
        ("mean_running", "Mean runs running", "amount"),
        ("completed", "Jobs completed", "text"),
        ("mean_completion_s", "Mean completion", "seconds"),
        ("allocated", "Mean held", "text"),
        ("wasted", "Mean wasted, its part", "text"),
    ), policies)


def online_user_rows(doc: Doc) -> list[dict[str, Any]]:
    """One row per user of an online document: under each policy the time-weighted means of its
    dominant shares (RDUC-wise and global, in %) and of its runs running, its jobs completed
    and their mean completion time, and what it held and wasted on average (summed over the
    classes per resource kind; its waste is its part of the classes', so the users' add up).

    >>> doc = {"resources": ["cpu"], "policies": {"udrf": {
    ...     "users": [{"name": "u1", "mean_share": 0.5, "mean_global_share": 0.125, "mean_running": 2.0,
    ...                "allocated": {"a": {"cpu": 3.0}, "b": {"cpu": 1.0}}, "wasted": {"a": {"cpu": 0.5}}}],
    ...     "jobs": [{"user": "u1", "completion_s": 60.0}, {"user": "u1", "completion_s": None}]}}}
    >>> r = online_user_rows(doc)[0]
    >>> r["mean_global_share:udrf"], r["completed:udrf"], r["allocated:udrf"], r["wasted:udrf"]
    (12.5, '1 / 2', 'cpu 4 cores', 'cpu 0.5 cores')
    """
    resources = [str(r) for r in _list(doc.get("resources"))]
    rows: dict[str, dict[str, Any]] = {}
    for p in policies_of(doc):
        part = _section(doc, "policies", p)
        done: dict[str, list[float]] = {}
        jobs: dict[str, int] = {}
        for j in _list(part.get("jobs")):
            if isinstance(j, Mapping):
                name = str(j.get("user"))
                jobs[name] = jobs.get(name, 0) + 1
                c = finite(j.get("completion_s"))
                if c is not None:
                    done.setdefault(name, []).append(c)
        for u in _list(part.get("users")):
            if not isinstance(u, Mapping):
                continue
            name = str(u.get("name"))
            row = rows.setdefault(name, {"user": name})
            share, glob = finite(u.get("mean_share")), finite(u.get("mean_global_share"))
            times = done.get(name, [])
            row.update(
                {
                    f"mean_share:{p}": None if share is None else share * 100.0,
                    f"mean_global_share:{p}": None if glob is None else glob * 100.0,
                    f"mean_running:{p}": finite(u.get("mean_running")),
                    f"completed:{p}": f"{len(times):,} / {jobs.get(name, 0):,}",
                    f"mean_completion_s:{p}": sum(times) / len(times) if times else None,
                    f"allocated:{p}": _amounts_text(_section(u, "allocated"), resources),
                    f"wasted:{p}": _amounts_text(_section(u, "wasted"), resources),
                }
            )
    return list(rows.values())


def _merged_by_user(parts: Iterable[list[Any]]) -> list[dict[str, Any]]:
    """Rows of one user from several documents (one per policy) joined, in first-seen order."""
    rows: dict[str, dict[str, Any]] = {}
    for part in parts:
        for r in part:
            if isinstance(r, Mapping):
                rows.setdefault(str(r.get("user")), {}).update(r)
    return list(rows.values())


#: Columns of :func:`reduction_rows`.
REDUCTION_COLUMNS: tuple[Column, ...] = (
    Column("by", "Jobs by", "text"),
    Column("group", "Group", "text"),
    Column("jobs", "Jobs", "count"),
    Column("udrf_mean_s", "Mean completion (UDRF)", "seconds"),
    Column("drf_mean_s", "Mean completion (DRF)", "seconds"),
    Column("reduction_pct", "Reduction", "percent"),
)


def reduction_rows(doc: Doc) -> list[dict[str, Any]]:
    """The completion-time reduction of an online document, by the number of machine classes
    a job needs (Fig. 10c) and by the number of times it runs (Fig. 10b), one row per group.

    >>> doc = {"comparison": {"by_classes": [{"classes": 2, "jobs": 3, "reduction_pct": 25.0}],
    ...                       "by_runs": []}}
    >>> reduction_rows(doc)[0]["group"], reduction_rows(doc)[0]["reduction_pct"]
    ('2 classes', 25.0)
    """
    rows = []
    for by, key, unit in (("machine classes", "classes", "class"), ("runs", "runs", "run")):
        for g in _list(_section(doc, "comparison").get(f"by_{key}")):
            if not isinstance(g, Mapping):
                continue
            value = g.get(key)
            rows.append(
                {
                    "by": by,
                    "group": f"{value} {unit}{'' if str(value) == '1' else 'es' if unit == 'class' else 's'}",
                    "jobs": integral(g.get("jobs")),
                    "udrf_mean_s": finite(g.get("udrf_mean_s")),
                    "drf_mean_s": finite(g.get("drf_mean_s")),
                    "reduction_pct": finite(g.get("reduction_pct")),
                }
            )
    return rows
