"""Presenting UDRF (paper 004): headlines per policy, the comparison table and the detail tables.

Pure functions of the offline document (:func:`scheduling.udrf.offline_doc.offline_document`,
``kind: udrf-offline``) and the online one (``kind: udrf-online``, one document with every
policy, or one document per policy that :func:`combine_online` joins). The planner's run page,
its CSV, XLSX and PDF reports and the CLI's HTML page read the same numbers the same way:

* :func:`udrf_summary`: what a run stores per document (a few hundred bytes per policy);
* :func:`policy_headlines` and :func:`udrf_table`: the comparison table, one column per policy
  (UDRF, DRF), its rows :func:`udrf_metrics` (:class:`scheduling.presenter.Metric` data);
* row functions with their column declarations (``(key, label, unit)``, as
  :mod:`scheduling.fairness.present`): per user UDRF against DRF (:func:`user_rows`), per job
  (:func:`job_rows`), per machine class (:func:`class_rows`), the RDUCs (:func:`rduc_rows`),
  the online summary (:func:`online_rows`), per user over the online run UDRF against DRF
  (:func:`online_user_rows`) and the completion-time reduction by the machine classes a job
  needs and by its runs (:func:`reduction_rows`, paper 004 Figs. 10b-c).

>>> doc = {"kind": "udrf-offline", "resources": ["cpu"], "users": [{"name": "u1", "jobs": []}],
...        "rducs": [{"users": ["u1"], "resources": ["a/cpu"]}],
...        "classes": [{"name": "a", "capacity": {"cpu": 10.0}}],
...        "policies": {p: {"users": [{"name": "u1", "dominant_share": s, "global_dominant_share": s,
...                                    "job_count": 5 * s, "jobs": {"j": 10 * s}, "waste": {}}],
...                         "classes": [], "totals": {"jobs": 10 * s, "wasted": {"cpu": 10 - 10 * s},
...                                                   "capacity": {"cpu": 10.0}}}
...                      for p, s in (("udrf", 0.8), ("drf", 0.5))}}
>>> rows = {r["key"]: r for r in udrf_table({"offline": doc})["rows"]}
>>> [c["shown"] for c in rows["offline_jobs"]["cells"]], [c["shown"] for c in rows["jobs_gain_pct"]["cells"]]
(['8', '5'], ['+60.0%', 'baseline'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any, cast

import numpy as np

from ..fairness.present import comparison_text
from ..numbers import finite, integral
from ..presenter import (
    MISSING,
    Column,
    Comparison,
    DetailTable,
    Metric,
    comparison_table,
    detail_table,
    show,
    table_text,
)
from .online import OnlineResult, compare

__all__ = [
    "CLASS_COLUMNS",
    "JOB_COLUMNS",
    "ONLINE_COLUMNS",
    "POLICY_LABELS",
    "RDUC_COLUMNS",
    "REDUCTION_COLUMNS",
    "Column",
    "class_rows",
    "combine_online",
    "job_rows",
    "online_rows",
    "online_user_columns",
    "online_user_rows",
    "policies_of",
    "policy_headlines",
    "rduc_rows",
    "reduction_rows",
    "udrf_metrics",
    "udrf_summary",
    "udrf_table",
    "udrf_tables",
    "udrf_text",
    "user_columns",
    "user_rows",
]

Doc = Mapping[str, Any]

#: The policies a UDRF study compares, in column order, with the names tables and charts show.
POLICY_LABELS: dict[str, str] = {"udrf": "UDRF", "drf": "DRF"}
OFFLINE = "udrf-offline"
ONLINE = "udrf-online"


def _section(doc: Any, *path: str) -> Mapping[str, Any]:
    node: Any = doc
    for step in path:
        node = node.get(step) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def policies_of(doc: Doc) -> list[str]:
    """The policies of a document or summary, in :data:`POLICY_LABELS` order (then any other).

    >>> policies_of({"policies": {"drf": {}, "udrf": {}}})
    ['udrf', 'drf']
    """
    present = list(_section(doc, "policies"))
    return [p for p in POLICY_LABELS if p in present] + [p for p in present if p not in POLICY_LABELS]


def policy_label(policy: str) -> str:
    """``UDRF``, ``DRF``: the column a policy is shown in."""
    return POLICY_LABELS.get(policy, policy)


# --------------------------------------------------------------------------- online: joining parts


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


# --------------------------------------------------------------------------- headlines


def _offline_headline(outcome: Mapping[str, Any], resources: Sequence[str]) -> dict[str, Any]:
    users = [u for u in _list(outcome.get("users")) if isinstance(u, Mapping)]
    shares = [s for s in (finite(u.get("dominant_share")) for u in users) if s is not None]
    totals = _section(outcome, "totals")
    capacity = _section(totals, "capacity")
    out: dict[str, Any] = {
        "offline_jobs": finite(totals.get("jobs")),
        "lowest_dominant_share": min(shares) if shares else None,
        "mean_dominant_share": sum(shares) / len(shares) if shares else None,
        "job_count_total": sum(finite(u.get("job_count")) or 0.0 for u in users) if users else None,
    }
    for r in resources:
        cap = finite(capacity.get(r))
        wasted = finite(_section(totals, "wasted").get(r))
        out[f"offline_wasted/{r}"] = wasted
        out[f"offline_wasted_pct/{r}"] = wasted / cap * 100.0 if wasted is not None and cap else None
    return out


_ONLINE_KEYS = (
    "completed",
    "jobs",
    "mean_completion_s",
    "p50_completion_s",
    "p95_completion_s",
    "makespan_s",
    "decisions",
)


def _online_headline(outcome: Mapping[str, Any], resources: Sequence[str]) -> dict[str, Any]:
    summary = _section(outcome, "summary")
    out: dict[str, Any] = {k: finite(summary.get(k)) for k in _ONLINE_KEYS}
    for r in resources:
        out[f"mean_wasted/{r}"] = finite(_section(summary, "mean_wasted").get(r))
    return out


def udrf_summary(doc: Doc, *, rows: int = 0) -> dict[str, Any]:
    """The headline of one document (offline or online): per policy the values the comparison
    table reads, with the document's kind, resources, users and RDUCs counted.

    ``rows``: keep the first ``rows`` rows of the detail tables too (``rows`` and
    ``row_counts``: offline ``users``, ``classes``, ``rducs``; online ``online``,
    ``online_users``), for a page
    that shows them without loading the document. A summary given back returns unchanged, so
    callers may pass either.
    """
    if doc.get("summary_of") in (OFFLINE, ONLINE):
        return dict(doc)
    kind = doc.get("kind")
    resources = [str(r) for r in _list(doc.get("resources"))]
    read = _offline_headline if kind == OFFLINE else _online_headline if kind == ONLINE else None
    if read is None:
        raise ValueError(f"not a UDRF document: kind is {kind!r} (expected {OFFLINE!r} or {ONLINE!r})")
    out: dict[str, Any] = {
        "summary_of": kind,
        "resources": resources,
        "policies": {p: read(_section(doc, "policies", p), resources) for p in policies_of(doc)},
    }
    if kind == OFFLINE:
        out.update(
            users=len(_list(doc.get("users"))),
            rducs=len(_list(doc.get("rducs"))),
            classes=len(_list(doc.get("classes"))),
            edges=len(_list(doc.get("edges"))),
        )
        tables = (
            {"users": user_rows(doc), "classes": class_rows(doc), "rducs": rduc_rows(doc),
             "properties": property_rows(doc)} if rows else {}
        )
    else:
        jobs = {p: len(_list(_section(doc, "policies", p).get("jobs"))) for p in policies_of(doc)}
        out.update(
            jobs=max(jobs.values(), default=0),
            interval_s=finite(doc.get("interval_s")),
            horizon_s=finite(doc.get("horizon_s")),
        )
        tables = {"online": online_rows(doc), "online_users": online_user_rows(doc)} if rows else {}
    if tables:
        out["rows"] = {k: v[:rows] for k, v in tables.items()}
        out["row_counts"] = {k: len(v) for k, v in tables.items()}
    return out


def policy_headlines(docs: Mapping[str, Doc]) -> dict[str, dict[str, Any]]:
    """Per policy label (``UDRF``, ``DRF``), one headline joining the offline and the online
    documents (or their summaries) of a run, in column order."""
    out: dict[str, dict[str, Any]] = {}
    for doc in docs.values():
        s = udrf_summary(doc)
        for policy, head in _section(s, "policies").items():
            out.setdefault(str(policy), {"resources": []})
            out[str(policy)].update(head)
            resources = [*out[str(policy)]["resources"], *(s.get("resources") or [])]
            out[str(policy)]["resources"] = list(dict.fromkeys(resources))
    ordered = policies_of({"policies": out})
    return {policy_label(p): out[p] for p in ordered}


# --------------------------------------------------------------------------- metrics


def _get(
    key: str, scale: float = 1.0
) -> Callable[[Mapping[str, Any], Mapping[str, Any] | None], float | None]:
    def value(h: Mapping[str, Any], _base: Mapping[str, Any] | None) -> float | None:
        v = finite(h.get(key))
        return None if v is None else v * scale

    return value


def _gain(
    key: str, *, lower_is_better: bool = False
) -> Callable[[Mapping[str, Any], Mapping[str, Any] | None], float | None]:
    """This variant's change against the baseline's, in % of the baseline's (a reduction when
    ``lower_is_better``)."""

    def value(h: Mapping[str, Any], base: Mapping[str, Any] | None) -> float | None:
        mine, theirs = finite(h.get(key)), finite((base or {}).get(key))
        if mine is None or not theirs:
            return None
        change = (theirs - mine) if lower_is_better else (mine - theirs)
        return change / theirs * 100.0

    return value


def _signed_pct(value: float | None, _h: Mapping[str, Any], _currency: str) -> str:
    return show(value, "percent", signed=True)


def _wasted_text(resource: str) -> Callable[[float | None, Mapping[str, Any], str], str]:
    def text(value: float | None, h: Mapping[str, Any], _currency: str) -> str:
        amount = finite(h.get(f"offline_wasted/{resource}"))
        shown = show(value, "percent")
        return shown if value is None or amount is None else f"{shown} ({show(amount, 'amount')})"

    return text


def _completed_text(value: float | None, h: Mapping[str, Any], _currency: str) -> str:
    jobs = finite(h.get("jobs"))
    if value is None:
        return MISSING
    return f"{value:,.0f} / {jobs:,.0f}" if jobs is not None else f"{value:,.0f}"


def udrf_metrics(resources: Sequence[str] = ("cpu", "mem"), *, online: bool = True) -> tuple[Metric, ...]:
    """The rows of a UDRF study's comparison table, in display order: the offline allocation
    (jobs, their gain against the baseline, dominant shares, waste per resource kind) and, when
    ``online``, the simulation (completion times, their reduction, makespan, waste over time).

    >>> [m.key for m in udrf_metrics(["cpu"], online=False)]
    ['offline_jobs', 'jobs_gain_pct', 'lowest_dominant_share', 'mean_dominant_share', 'job_count_total', \
'offline_wasted_pct:cpu']
    """
    metrics: list[Metric] = [
        Metric(
            "offline_jobs",
            "Jobs allocated at once (offline)",
            "count",
            ("offline_jobs",),
            _get("offline_jobs"),
            "higher",
            note="Offline (paper 004 Fig. 3): how many jobs run at once, summed over every user's jobs.",
        ),
        Metric(
            "jobs_gain_pct",
            "More jobs than {baseline}",
            "percent",
            ("offline_jobs",),
            _gain("offline_jobs"),
            "higher",
            text=_signed_pct,
            relative=True,
        ),
        Metric(
            "lowest_dominant_share",
            "Lowest dominant share",
            "percent",
            ("lowest_dominant_share",),
            _get("lowest_dominant_share", 100.0),
            "higher",
            note="Dominant share: RDUC-wise (eq. 12), the largest share of any machine class's resource "
            "a user holds.",
        ),
        Metric(
            "mean_dominant_share",
            "Mean dominant share",
            "percent",
            ("mean_dominant_share",),
            _get("mean_dominant_share", 100.0),
            detail=True,
        ),
        Metric(
            "job_count_total",
            "Job count Σ x^u",
            "tasks",
            ("job_count_total",),
            _get("job_count_total"),
            "higher",
            detail=True,
            note="x^u: how many times a user's gross demand (one of each of its jobs) fits in what it holds.",
        ),
    ]
    for r in resources:
        metrics.append(
            Metric(
                f"offline_wasted_pct:{r}",
                f"Wasted {r} (offline)",
                "percent",
                (f"offline_wasted_pct/{r}", f"offline_wasted/{r}"),
                _get(f"offline_wasted_pct/{r}"),
                "lower",
                text=_wasted_text(r),
                note="Wasted: capacity of a resource some user demands left unallocated, in % of the "
                "cluster's.",
            )
        )
    if online:
        metrics += [
            Metric(
                "completed",
                "Jobs completed (online)",
                "count",
                ("completed", "jobs"),
                _get("completed"),
                "higher",
                text=_completed_text,
            ),
            Metric(
                "mean_completion_s",
                "Mean completion time",
                "seconds",
                ("mean_completion_s",),
                _get("mean_completion_s"),
                "lower",
                note="Completion time: from a job's arrival to the end of its last run (Fig. 10a).",
            ),
            Metric(
                "completion_reduction_pct",
                "Completion time reduced vs {baseline}",
                "percent",
                ("mean_completion_s",),
                _gain("mean_completion_s", lower_is_better=True),
                "higher",
                text=_signed_pct,
                relative=True,
            ),
            Metric(
                "p50_completion_s",
                "Median completion time",
                "seconds",
                ("p50_completion_s",),
                _get("p50_completion_s"),
                "lower",
                detail=True,
            ),
            Metric(
                "p95_completion_s",
                "95th percentile completion time",
                "seconds",
                ("p95_completion_s",),
                _get("p95_completion_s"),
                "lower",
            ),
            Metric("makespan_s", "Makespan", "seconds", ("makespan_s",), _get("makespan_s"), "lower"),
        ]
        for r in resources:
            metrics.append(
                Metric(
                    f"mean_wasted:{r}",
                    f"Mean wasted {r} over time",
                    "amount",
                    (f"mean_wasted/{r}",),
                    _get(f"mean_wasted/{r}"),
                    "lower",
                    note="Wasted over time (Fig. 9): demanded capacity left idle at each decision, averaged.",
                )
            )
        metrics.append(
            Metric("decisions", "Decisions", "count", ("decisions",), _get("decisions"), detail=True)
        )
    return tuple(metrics)


def udrf_table(
    docs: Mapping[str, Doc], *, baseline: str | None = None, currency: str = "$", detail: bool = False
) -> Comparison:
    """The comparison table of a UDRF study: one column per policy (UDRF, DRF), from a run's
    documents or summaries (offline and online); DRF is the baseline when present."""
    heads = policy_headlines(docs)
    resources = list(dict.fromkeys(r for h in heads.values() for r in h.get("resources") or []))
    online = any(udrf_summary(d).get("summary_of") == ONLINE for d in docs.values())
    if baseline not in heads:
        baseline = POLICY_LABELS["drf"] if POLICY_LABELS["drf"] in heads else next(iter(heads), None)
    return comparison_table(
        heads,
        baseline=baseline,
        currency=currency,
        metrics=udrf_metrics(resources or ("cpu", "mem"), online=online),
        detail=detail,
    )


def udrf_text(docs: Mapping[str, Doc] | Sequence[Doc]) -> str:
    """The comparison table and the detail tables (:func:`udrf_tables`) as aligned plain text,
    for a terminal (``python -m scheduling udrf`` prints it on stderr).

    ``docs``: the command's output (``{"offline": ..., "online": ...}``) or any documents.
    """
    items = dict(docs) if isinstance(docs, Mapping) else {str(k): d for k, d in enumerate(docs)}
    parts = [comparison_text(udrf_table(items), corner="policy")]
    parts += [table_text(t) for t in udrf_tables(items)]
    return "\n\n".join(parts)


# --------------------------------------------------------------------------- detail tables


def _jobs_text(jobs: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} {show(finite(v), 'amount')}" for k, v in jobs.items())


def _amounts_text(per_class: Mapping[str, Any], resources: Sequence[str]) -> str:
    """A user's amounts per class summed per resource kind: ``cpu 28, mem 36``."""
    sums = {r: sum(finite(_section(per_class, c).get(r)) or 0.0 for c in per_class) for r in resources}
    return ", ".join(f"{r} {show(v, 'amount')}" for r, v in sums.items())


def user_columns(policies: Sequence[str]) -> tuple[Column, ...]:
    """Columns of :func:`user_rows` for these policies (UDRF against DRF side by side)."""
    cols: list[Column] = [Column("user", "User"), Column("rduc", "RDUC", "count")]
    for what, label, unit in (
        ("jobs_total", "Jobs", "amount"),
        ("dominant_share", "Dominant share", "percent"),
        ("global_dominant_share", "Global dominant share", "percent"),
        ("job_count", "Job count x^u", "amount"),
        ("jobs", "Jobs per job", "text"),
        ("waste", "Wasted on its resources", "text"),
    ):
        cols += [Column(f"{what}:{p}", f"{label} ({policy_label(p)})", unit) for p in policies]
    return tuple(cols)


def user_rows(doc: Doc) -> list[dict[str, Any]]:
    """One row per user of an offline document: under each policy its jobs, dominant share
    (RDUC-wise and global, in %), job count x^u, jobs per job and the waste of its resources.

    >>> doc = {"resources": ["cpu"], "policies": {"udrf": {"users": [{"name": "u1", "rduc": 0,
    ...        "jobs": {"a": 28.0, "b": 8.0}, "dominant_share": 0.5, "job_count": 8.0,
    ...        "waste": {"h": {"cpu": 28.0}}}]}}}
    >>> r = user_rows(doc)[0]
    >>> r["jobs_total:udrf"], r["dominant_share:udrf"], r["jobs:udrf"], r["waste:udrf"]
    (36.0, 50.0, 'a 28, b 8', 'cpu 28')
    """
    resources = [str(r) for r in _list(doc.get("resources"))]
    rows: dict[str, dict[str, Any]] = {}
    for p in policies_of(doc):
        for u in _list(_section(doc, "policies", p).get("users")):
            if not isinstance(u, Mapping):
                continue
            rduc = integral(u.get("rduc"))
            row = rows.setdefault(
                str(u.get("name")), {"user": str(u.get("name")), "rduc": None if rduc is None else rduc + 1}
            )
            jobs = _section(u, "jobs")
            share, glob = finite(u.get("dominant_share")), finite(u.get("global_dominant_share"))
            row.update(
                {
                    f"jobs_total:{p}": sum(finite(v) or 0.0 for v in jobs.values()),
                    f"dominant_share:{p}": None if share is None else share * 100.0,
                    f"global_dominant_share:{p}": None if glob is None else glob * 100.0,
                    f"job_count:{p}": finite(u.get("job_count")),
                    f"jobs:{p}": _jobs_text(jobs),
                    f"waste:{p}": _amounts_text(_section(u, "waste"), resources),
                }
            )
    return list(rows.values())


#: Columns of :func:`job_rows` (the per-policy counts are added per policy).
JOB_COLUMNS: tuple[Column, ...] = (
    Column("user", "User", "text"),
    Column("job", "Job", "text"),
    Column("classes", "Machine classes", "text"),
    Column("tasks", "Tasks", "count"),
    Column("runs", "Runs", "count"),
    Column("duration_s", "Duration", "seconds"),
)


def job_columns(policies: Sequence[str]) -> tuple[Column, ...]:
    return (
        *JOB_COLUMNS,
        *(Column(f"allocated:{p}", f"Allocated ({policy_label(p)})", "amount") for p in policies),
    )


def job_rows(doc: Doc) -> list[dict[str, Any]]:
    """One row per user and job of an offline document: its classes, tasks, runs, duration and
    how many of it each policy runs at once."""
    counts = {
        p: {
            str(u.get("name")): _section(u, "jobs")
            for u in _list(_section(doc, "policies", p).get("users"))
            if isinstance(u, Mapping)
        }
        for p in policies_of(doc)
    }
    rows = []
    for u in _list(doc.get("users")):
        if not isinstance(u, Mapping):
            continue
        name = str(u.get("name"))
        for j in _list(u.get("jobs")):
            if not isinstance(j, Mapping):
                continue
            row: dict[str, Any] = {
                "user": name,
                "job": str(j.get("id")),
                "classes": ", ".join(str(c) for c in _list(j.get("classes"))),
                "tasks": integral(j.get("tasks")),
                "runs": integral(j.get("runs")),
                "duration_s": finite(j.get("duration_s")),
            }
            for p, per_user in counts.items():
                row[f"allocated:{p}"] = finite(_section(per_user, name).get(str(j.get("id"))))
            rows.append(row)
    return rows


#: Columns of :func:`class_rows`.
CLASS_COLUMNS: tuple[Column, ...] = (
    Column("class", "Machine class", "text"),
    Column("resource", "Resource", "text"),
    Column("capacity", "Capacity", "amount"),
)


def class_columns(policies: Sequence[str]) -> tuple[Column, ...]:
    cols = list(CLASS_COLUMNS)
    for p in policies:
        cols += [
            Column(f"allocated:{p}", f"Allocated ({policy_label(p)})", "amount"),
            Column(f"wasted:{p}", f"Wasted ({policy_label(p)})", "amount"),
            Column(f"wasted_pct:{p}", f"Wasted ({policy_label(p)}, % of capacity)", "percent"),
        ]
    return tuple(cols)


def class_rows(doc: Doc) -> list[dict[str, Any]]:
    """One row per machine class and resource kind: capacity, and under each policy what is
    allocated and what is wasted (capacity some user demands, left unallocated).

    >>> doc = {"resources": ["cpu"], "classes": [{"name": "h", "capacity": {"cpu": 56.0}}],
    ...        "policies": {"drf": {"classes": [
    ...            {"name": "h", "allocated": {"cpu": 8.0}, "wasted": {"cpu": 48.0}}]}}}
    >>> class_rows(doc)[0]["wasted_pct:drf"]
    85.71428571428571
    """
    resources = [str(r) for r in _list(doc.get("resources"))]
    per_policy = {
        p: {
            str(c.get("name")): c
            for c in _list(_section(doc, "policies", p).get("classes"))
            if isinstance(c, Mapping)
        }
        for p in policies_of(doc)
    }
    rows = []
    for c in _list(doc.get("classes")):
        if not isinstance(c, Mapping):
            continue
        name = str(c.get("name"))
        for r in resources:
            cap = finite(_section(c, "capacity").get(r))
            row: dict[str, Any] = {"class": name, "resource": r, "capacity": cap}
            for p, classes in per_policy.items():
                held = classes.get(name, {})
                wasted = finite(_section(held, "wasted").get(r))
                row[f"allocated:{p}"] = finite(_section(held, "allocated").get(r))
                row[f"wasted:{p}"] = wasted
                row[f"wasted_pct:{p}"] = wasted / cap * 100.0 if wasted is not None and cap else None
            rows.append(row)
    return rows


#: Columns of :func:`rduc_rows`.
RDUC_COLUMNS: tuple[Column, ...] = (
    Column("rduc", "RDUC", "count"),
    Column("users_count", "Users", "count"),
    Column("users", "Who", "text"),
    Column("resources_count", "Resources", "count"),
    Column("resources", "Machine class / resource", "text"),
)


def rduc_rows(doc: Doc, *, max_names: int = 30) -> list[dict[str, Any]]:
    """One row per RDUC (connected component of the dependency graph): its users and the
    resources they demand (at most ``max_names`` of each written out).

    >>> rduc_rows({"rducs": [{"users": ["u1", "u2"], "resources": ["a/cpu"]}]})[0]["users"]
    'u1, u2'
    """

    def names(items: list[Any]) -> str:
        head = ", ".join(str(x) for x in items[:max_names])
        return head + (f", … ({len(items) - max_names:,} more)" if len(items) > max_names else "")

    rows = []
    for k, g in enumerate(_list(doc.get("rducs"))):
        users, resources = _list(_section(g).get("users")), _list(_section(g).get("resources"))
        rows.append(
            {
                "rduc": k + 1,
                "users_count": len(users),
                "users": names(users),
                "resources_count": len(resources),
                "resources": names(resources),
            }
        )
    return rows


def online_columns(resources: Sequence[str]) -> tuple[Column, ...]:
    return (*ONLINE_COLUMNS, *(Column(f"mean_wasted:{r}", f"Mean wasted {r}", "amount") for r in resources))


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
    cols: list[Column] = [Column("user", "User")]
    for what, label, unit in (
        ("mean_share", "Mean dominant share", "percent"),
        ("mean_global_share", "Mean global dominant share", "percent"),
        ("mean_running", "Mean runs running", "amount"),
        ("completed", "Jobs completed", "text"),
        ("mean_completion_s", "Mean completion", "seconds"),
        ("allocated", "Mean held", "text"),
        ("wasted", "Mean wasted, its part", "text"),
    ):
        cols += [Column(f"{what}:{p}", f"{label} ({policy_label(p)})", unit) for p in policies]
    return tuple(cols)


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
    (12.5, '1 / 2', 'cpu 4', 'cpu 0.5')
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


def property_columns(policies: Sequence[str]) -> tuple[Column, ...]:
    return (Column("property", "Property", "text"),
            *(Column(f"verdict:{p}", policy_label(p), "text") for p in policies))


def _fmt(x: Any) -> str:
    value = finite(x)
    return "?" if value is None else f"{value:,.3g}"


def verdict_text(verdict: Mapping[str, Any]) -> str:
    """One verdict of :func:`~scheduling.udrf.properties.allocation_properties` in words: ``holds``,
    or ``fails:`` and its witness.

    >>> verdict_text({"property": "pareto_efficiency", "holds": False, "witness": {
    ...     "user": "u1", "job": "job1", "count": 8.0, "most": 28.00000004, "dominant_share": 0.5}})
    'fails: u1 could run job1 28 times instead of 8 at the same dominant share (50%)'
    """
    if verdict.get("holds"):
        return "holds"
    w = _section(verdict, "witness")
    kind = str(verdict.get("property"))
    if kind == "saturated_resource_per_user":
        text = f"{w.get('user')} has no saturated resource ({w.get('resource')}: {_fmt(w.get('left'))} left)"
    elif kind.startswith("pareto_efficiency") and w.get("job") is not None:
        share = finite(w.get("dominant_share"))
        text = (f"{w.get('user')} could run {w.get('job')} {_fmt(w.get('most'))} times instead of "
                f"{_fmt(w.get('count'))} at the same dominant share"
                + (f" ({share * 100:.0f}%)" if share is not None else ""))
    elif kind.startswith("pareto_efficiency"):
        text = f"{w.get('user')} could run every one of its jobs {_fmt(w.get('gain'))} more times"
    elif kind == "envy_freeness":
        text = (f"{w.get('user')} fits its jobs {_fmt(w.get('in_theirs'))} times in {w.get('envies')}'s "
                f"allocation, {_fmt(w.get('own'))} in its own")
    elif kind.startswith("sharing_incentive"):
        text = (f"{w.get('user')} runs its jobs {_fmt(w.get('own'))} times, {_fmt(w.get('equal_split'))} "
                f"in an equal split among {w.get('split_among')}")
    else:
        text = ", ".join(f"{k} {v}" for k, v in w.items())
    return f"fails: {text}"


def property_rows(doc: Doc) -> list[dict[str, Any]]:
    """One row per fairness check of an offline document, a column per policy (its verdict in
    words); none when the document's problem was too large to check."""
    from .properties import DOCUMENT_CHECKS

    per_policy = {p: _section(doc, "policies", p, "properties") for p in policies_of(doc)}
    if not any(v.get("checked") for v in per_policy.values()):
        return []
    rows = []
    for key, label in DOCUMENT_CHECKS.items():
        row: dict[str, Any] = {"property": label}
        for p, checks in per_policy.items():
            found = next((v for v in _list(checks.get("verdicts"))
                          if isinstance(v, Mapping) and v.get("property") == key), None)
            row[f"verdict:{p}"] = verdict_text(found) if found is not None else None
        rows.append(row)
    return rows


def _offline_of(items: list[Doc]) -> Doc | None:
    return next((d for d in items if OFFLINE in (d.get("kind"), d.get("summary_of"))), None)


def udrf_tables(
    docs: Mapping[str, Doc] | Sequence[Doc], *, currency: str = "$", detail: bool = False
) -> list[DetailTable]:
    """Every detail table of a UDRF study, in display order, from its documents or their
    summaries (:func:`udrf_summary` with ``rows``, whose first rows a page shows).

    Per user UDRF against DRF, per machine class, the RDUCs, the online simulation's summary per
    policy and, from documents, the completion-time reduction by machine classes and by runs;
    ``detail`` adds the files' per-job table. Tables without rows are left out.

    >>> from scheduling.scenario import load_scenario_json
    >>> from scheduling.udrf.offline_doc import offline_document
    >>> doc = offline_document(load_scenario_json(open("examples/paper004-fig1.json").read()))
    >>> [t["key"] for t in udrf_tables([udrf_summary(doc, rows=2)])], udrf_tables([doc])[0]["shown"][0][:3]
    (['users', 'classes', 'rducs', 'properties'], ['u1', '1', '36'])
    """
    items = list(docs.values()) if isinstance(docs, Mapping) else list(docs)
    tables: list[DetailTable] = []
    offline = _offline_of(items)
    if offline is not None:
        policies = policies_of(offline)
        built = {"users": user_rows, "classes": class_rows, "rducs": rduc_rows, "properties": property_rows}
        stored, counts = _section(offline, "rows"), _section(offline, "row_counts")
        for key, title, columns in (
            ("users", "Per user: UDRF against DRF", user_columns(policies)),
            ("classes", "Per machine class", class_columns(policies)),
            ("rducs", "RDUCs (connected components of the dependency graph)", RDUC_COLUMNS),
            ("properties", "Fairness properties of each allocation (paper 004 §IV)",
             property_columns(policies)),
        ):
            rows = _list(stored.get(key)) if offline.get("summary_of") else built[key](offline)
            total = integral(counts.get(key)) or len(rows)
            notes = (
                [f"The first {len(rows):,} of {total:,} rows; the downloads have them all."]
                if total > len(rows)
                else []
            )
            tables.append(detail_table(key, title, columns, rows, currency=currency, notes=notes))
        if detail and not offline.get("summary_of"):
            tables.append(
                detail_table("jobs", "Per job", job_columns(policies), job_rows(offline), currency=currency)
            )
    online_docs = [d for d in items if d.get("kind") == ONLINE]
    online_summaries = [d for d in items if d.get("summary_of") == ONLINE]
    joined = combine_online(online_docs)
    resources = list(
        dict.fromkeys(str(r) for d in [*online_docs, *online_summaries] for r in _list(d.get("resources")))
    )
    online = (
        online_rows(joined)
        if joined is not None
        else [r for s in online_summaries for r in _list(_section(s, "rows").get("online"))]
    )
    tables.append(
        detail_table("online", "Online simulation", online_columns(resources), online, currency=currency)
    )
    policies = policies_of(
        {"policies": {p: 1 for d in [*online_docs, *online_summaries] for p in policies_of(d)}}
    )
    if joined is not None:
        users, total = online_user_rows(joined), 0
    else:
        users = _merged_by_user(_list(_section(s, "rows").get("online_users")) for s in online_summaries)
        total = max((integral(_section(s, "row_counts").get("online_users")) or 0 for s in online_summaries),
                    default=0)
    tables.append(
        detail_table(
            "online_users",
            "Per user over the online run: UDRF against DRF",
            online_user_columns(policies),
            users,
            currency=currency,
            notes=[
                "Time-weighted means over the simulated span. Global dominant share: the largest share "
                "of a resource kind over the whole cluster, classes pooled. A user's waste: its part of "
                "the idle capacity its waiting jobs demand, in proportion to their demand.",
                *([f"The first {len(users):,} of {total:,} rows; the downloads have them all."]
                  if total > len(users) else []),
            ],
        )
    )
    if joined is not None:
        tables.append(
            detail_table(
                "reduction",
                "Completion time reduced by UDRF",
                REDUCTION_COLUMNS,
                reduction_rows(joined),
                currency=currency,
            )
        )
    return [t for t in tables if t["rows"]]
