"""The detail tables of an offline UDRF document (paper 004, ``kind: udrf-offline``): row
functions with their column declarations (``(key, label, unit)``, as
:mod:`scheduling.fairness.tables`).

Per user UDRF against DRF (:func:`user_rows`), the users UDRF gives less than DRF and by how much
(:func:`below_drf_rows`), per job (:func:`job_rows`), per machine class (:func:`class_rows`), the
RDUCs (:func:`rduc_rows`) and the fairness properties of each allocation (:func:`property_rows`,
each verdict in words by :func:`verdict_text`).
:func:`scheduling.udrf.tables.udrf_tables` assembles them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..numbers import finite, integral
from ..numbers import listed as _list
from ..numbers import section as _section
from ..tables import Column, resource_label, show
from .doc_reading import Doc, _amounts_text, per_policy_columns, policies_of, policy_label

__all__ = [
    "BELOW_DRF_COLUMNS",
    "CLASS_COLUMNS",
    "JOB_COLUMNS",
    "RDUC_COLUMNS",
    "below_drf_rows",
    "class_columns",
    "class_rows",
    "job_columns",
    "job_rows",
    "property_columns",
    "property_rows",
    "rduc_rows",
    "user_columns",
    "user_rows",
    "verdict_text",
]

def _jobs_text(jobs: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} {show(finite(v), 'amount')}" for k, v in jobs.items())


def user_columns(policies: Sequence[str]) -> tuple[Column, ...]:
    """Columns of :func:`user_rows` for these policies (UDRF against DRF side by side)."""
    return per_policy_columns([Column("user", "User"), Column("rduc", "RDUC", "count")], (
        ("jobs_total", "Jobs", "amount"),
        ("dominant_share", "Dominant share", "percent"),
        ("global_dominant_share", "Global dominant share", "percent"),
        ("job_count", "Job count x^u", "amount"),
        ("jobs", "Jobs per job", "text"),
        ("waste", "Wasted on its resources", "text"),
    ), policies)


def user_rows(doc: Doc) -> list[dict[str, Any]]:
    """One row per user of an offline document: under each policy its jobs, dominant share
    (RDUC-wise and global, in %), job count x^u, jobs per job and the waste of its resources.

    >>> doc = {"resources": ["cpu"], "policies": {"udrf": {"users": [{"name": "u1", "rduc": 0,
    ...        "jobs": {"a": 28.0, "b": 8.0}, "dominant_share": 0.5, "job_count": 8.0,
    ...        "waste": {"h": {"cpu": 28.0}}}]}}}
    >>> r = user_rows(doc)[0]
    >>> r["jobs_total:udrf"], r["dominant_share:udrf"], r["jobs:udrf"], r["waste:udrf"]
    (36.0, 50.0, 'a 28, b 8', 'cpu 28 cores')
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


#: Columns of :func:`below_drf_rows`.
BELOW_DRF_COLUMNS: tuple[Column, ...] = (
    Column("user", "User", "text"),
    Column("rduc", "RDUC", "count"),
    Column("dominant_share", "Dominant share (UDRF)", "percent"),
    Column("drf_dominant_share", "Dominant share (DRF)", "percent"),
    Column("loss", "Less than under DRF (points)", "percent"),
    Column("loss_pct", "Less than under DRF (% of DRF's)", "percent"),
    Column("job_count", "Job count x^u (UDRF)", "amount"),
    Column("drf_job_count", "Job count x^u (DRF)", "amount"),
    Column("jobs", "Jobs at once (UDRF)", "amount"),
    Column("drf_jobs", "Jobs at once (DRF)", "amount"),
)


def versus_drf(doc: Doc) -> Mapping[str, Any]:
    """An offline document's ``versus_drf`` section, or the same computed from its two
    policies' users (a document written before the section existed); empty without DRF."""
    section = _section(doc, "versus_drf")
    if section or not all(p in _section(doc, "policies") for p in ("udrf", "drf")):
        return section
    from .offline_doc import drf_comparison

    users = {p: [u for u in _list(_section(doc, "policies", p).get("users"))
                 if isinstance(u, Mapping) and finite(u.get("dominant_share")) is not None]
             for p in ("udrf", "drf")}
    return drf_comparison(users["udrf"], users["drf"])


def below_drf_rows(doc: Doc) -> list[dict[str, Any]]:
    """One row per user whose dominant share under UDRF is below its share under DRF, the
    largest loss first: both shares and the loss in points and in % of DRF's (all in %), its job
    count x^u and its jobs at once under each.

    >>> doc = {"versus_drf": {"users": [
    ...     {"name": "u1", "rduc": 0, "dominant_share": 0.5, "drf_dominant_share": 1.0, "change": -0.5,
    ...      "change_pct": -50.0, "job_count": 5.0, "drf_job_count": 10.0, "jobs": 15.0, "drf_jobs": 20.0,
    ...      "verdict": "below"},
    ...     {"name": "u2", "rduc": 0, "dominant_share": 0.5, "drf_dominant_share": 0.5, "change": 0.0,
    ...      "verdict": "equal"}]}}
    >>> [(r["user"], r["rduc"], r["loss"], r["loss_pct"]) for r in below_drf_rows(doc)]
    [('u1', 1, 50.0, 50.0)]
    """
    rows = []
    for u in _list(versus_drf(doc).get("users")):
        if not isinstance(u, Mapping) or u.get("verdict") != "below":
            continue
        rduc = integral(u.get("rduc"))
        share, base = finite(u.get("dominant_share")), finite(u.get("drf_dominant_share"))
        change, change_pct = finite(u.get("change")), finite(u.get("change_pct"))
        rows.append({
            "user": str(u.get("name")),
            "rduc": None if rduc is None else rduc + 1,
            "dominant_share": None if share is None else share * 100.0,
            "drf_dominant_share": None if base is None else base * 100.0,
            "loss": None if change is None else -change * 100.0,
            "loss_pct": None if change_pct is None else -change_pct,
            **{k: finite(u.get(k)) for k in ("job_count", "drf_job_count", "jobs", "drf_jobs")},
        })
    return rows


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
            row: dict[str, Any] = {"class": name, "resource": resource_label(r), "capacity": cap}
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
