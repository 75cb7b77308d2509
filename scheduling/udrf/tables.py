"""The tables of UDRF (paper 004): headlines per policy, the comparison table and the detail tables.

Pure functions of the offline document (:func:`scheduling.udrf.offline_doc.offline_document`,
``kind: udrf-offline``) and the online one (``kind: udrf-online``, one document with every
policy, or one document per policy that :func:`combine_online` joins). The planner's run page,
its CSV, XLSX and PDF reports and the CLI's HTML page read the same numbers the same way:

* :func:`udrf_summary`: what a run stores per document (a few hundred bytes per policy);
* :func:`policy_headlines` and :func:`udrf_table`: the comparison table, one column per policy
  (UDRF, DRF), its rows :func:`udrf_metrics` (:class:`scheduling.tables.Metric` data);
* :func:`udrf_tables`: the detail tables, from the row functions with their column
  declarations (``(key, label, unit)``, as :mod:`scheduling.fairness.tables`) of
  :mod:`scheduling.udrf.offline_tables` (per user UDRF against DRF (:func:`user_rows`), per job
  (:func:`job_rows`), per machine class (:func:`class_rows`), the RDUCs (:func:`rduc_rows`),
  the fairness properties) and of :mod:`scheduling.udrf.online_tables` (the online summary
  (:func:`online_rows`), per user over the online run UDRF against DRF
  (:func:`online_user_rows`) and the completion-time reduction by the machine classes a job
  needs and by its runs (:func:`reduction_rows`, paper 004 Figs. 10b-c)), which this module
  re-exports; :func:`udrf_text` prints both tables for a terminal.

How a document is read (its sections, its policies in column order) is
:mod:`scheduling.udrf.doc_reading`'s.

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

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..numbers import finite, integral
from ..numbers import listed as _list
from ..numbers import section as _section
from ..tables import (
    MISSING,
    Column,
    Comparison,
    DetailTable,
    Metric,
    comparison_table,
    comparison_text,
    detail_table,
    show,
    table_text,
)
from .doc_reading import OFFLINE, ONLINE, POLICY_LABELS, Doc, policies_of, policy_label
from .offline_tables import (
    BELOW_DRF_COLUMNS,
    CLASS_COLUMNS,
    JOB_COLUMNS,
    RDUC_COLUMNS,
    below_drf_rows,
    class_columns,
    class_rows,
    job_columns,
    job_rows,
    property_columns,
    property_rows,
    rduc_rows,
    user_columns,
    user_rows,
    versus_drf,
)
from .online_tables import (
    _ONLINE_KEYS,
    ONLINE_COLUMNS,
    REDUCTION_COLUMNS,
    _merged_by_user,
    combine_online,
    online_columns,
    online_rows,
    online_user_columns,
    online_user_rows,
    reduction_rows,
)

__all__ = [
    "BELOW_DRF_COLUMNS",
    "CLASS_COLUMNS",
    "JOB_COLUMNS",
    "ONLINE_COLUMNS",
    "POLICY_LABELS",
    "RDUC_COLUMNS",
    "REDUCTION_COLUMNS",
    "Column",
    "below_drf_rows",
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
    ``row_counts``: offline ``users``, ``below_drf``, ``classes``, ``rducs``; online ``online``,
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
        versus = versus_drf(doc)
        if versus and "udrf" in out["policies"]:
            out["policies"]["udrf"].update(users_below_drf=finite(versus.get("below")),
                                           largest_loss_vs_drf=finite(versus.get("largest_loss")))
        out.update(
            users=len(_list(doc.get("users"))),
            rducs=len(_list(doc.get("rducs"))),
            classes=len(_list(doc.get("classes"))),
            edges=len(_list(doc.get("edges"))),
        )
        tables = (
            {"users": user_rows(doc), "below_drf": below_drf_rows(doc), "classes": class_rows(doc),
             "rducs": rduc_rows(doc), "properties": property_rows(doc)} if rows else {}
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
    ['offline_jobs', 'jobs_gain_pct', 'lowest_dominant_share', 'mean_dominant_share', 'users_below_drf', \
'largest_loss_vs_drf', 'job_count_total', 'offline_wasted_pct:cpu']
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
            "users_below_drf",
            "Users below their DRF share",
            "count",
            ("users_below_drf",),
            _get("users_below_drf"),
            note="A user below DRF: its dominant share (its level) is lower than under DRF. Fig. 3's line 25 "
            "saturates a user once any resource it demands fills, also one that a job grown past DRF's mix "
            "filled (docs/udrf-properties.md).",
        ),
        Metric(
            "largest_loss_vs_drf",
            "Largest loss against DRF (points of dominant share)",
            "percent",
            ("largest_loss_vs_drf",),
            _get("largest_loss_vs_drf", 100.0),
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








#: What the table of users below DRF shows, and why a user can be there.
BELOW_DRF_NOTE = (
    "Dominant share: RDUC-wise (eq. 12), the largest share of any machine class's resource a user holds (the "
    "same weight under both policies, so this compares levels). Offline UDRF starts every round as DRF "
    "would, then lets a job whose resources are free grow on; Fig. 3's line 25 saturates a user as soon as "
    "any resource it demands fills, also one that such a job filled, where DRF would let the user rise."
)


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
        built = {"users": user_rows, "below_drf": below_drf_rows, "classes": class_rows, "rducs": rduc_rows,
                 "properties": property_rows}
        stored, counts = _section(offline, "rows"), _section(offline, "row_counts")
        for key, title, columns in (
            ("users", "Per user: UDRF against DRF", user_columns(policies)),
            ("below_drf", "Users who get less than under DRF, and by how much", BELOW_DRF_COLUMNS),
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
            if key == "below_drf":
                notes.insert(0, BELOW_DRF_NOTE)
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
