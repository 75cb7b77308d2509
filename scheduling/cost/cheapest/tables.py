"""The cheapest-cluster search's tables, from its answer document (:mod:`.answer`).

Declared by :class:`~scheduling.tables.Column` and laid out by
:func:`~scheduling.tables.detail_table`, so the CLI (:func:`~scheduling.tables.table_text`),
the run page and every report show the same rows: the answer with the gap to the global bound
(:func:`answer_table`), what became of the candidates (:func:`candidates_table`), the
candidates simulated (:func:`tried_table`), the frontier of cost against misses
(:func:`frontier_table`), the closest candidates when none met the target
(:func:`closest_table`) and the largest clusters each rule pruned (:func:`pruned_table`).

>>> doc = {"space": {"vm_types": ["a"], "counts": {"a": [0, 3]}}, "candidates": 4, "simulated": 1,
...        "pruned": {"bound": 1, "demand_window": 1, "no_fit": 1}, "unexplored": 0}
>>> candidates_table(doc)["shown"]
[['Simulated', '1'], ['Pruned by bound', '1'], ['Pruned by demand window', '1'], \
['Infeasible: a job does not fit', '1'], ['In the space', '4']]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...tables import Column, DetailTable, Metric, detail_table
from .space import SearchSpace, counts_text

__all__ = [
    "CANDIDATE_COLUMNS",
    "PART_METRICS",
    "answer_rows",
    "answer_table",
    "candidate_rows",
    "candidates_table",
    "closest_table",
    "frontier_table",
    "pruned_table",
    "space_of",
    "tried_table",
]

#: The columns of a table of simulated candidates.
CANDIDATE_COLUMNS = (
    Column("cluster", "Cluster"),
    Column("bound", "Lower bound", "money"),
    Column("cost", "Cost", "money"),
    Column("missed", "Deadlines missed", "count"),
    Column("miss_pct", "Missed", "percent"),
    Column("mean_completion_s", "Mean completion", "seconds"),
    Column("p95_completion_s", "p95 completion", "seconds"),
    Column("verdict", "Target"),
)

#: The rows of the table of a search's parts (each part walks its share of the candidates).
PART_METRICS = (
    Metric("simulated", "Candidates simulated", "count", ("simulated",), lambda h, _b: h.get("simulated")),
    Metric("own", "Its share of the candidates to simulate", "count", ("own",), lambda h, _b: h.get("own")),
    Metric(
        "cheapest_met",
        "Cheapest meeting the target",
        "money",
        ("best",),
        lambda h, _b: (h.get("best") or {}).get("cost"),
        "lower",
    ),
    Metric(
        "next_bound",
        "Lower bound where it stopped",
        "money",
        ("next_bound",),
        lambda h, _b: h.get("next_bound"),
        note="The next candidate of the part's share had this bound, at least the part's cheapest cost met "
        "(empty: the share was exhausted).",
    ),
)

_RULE_LABELS = {
    "bound": "Pruned by bound",
    "demand_window": "Pruned by demand window",
    "no_fit": "Infeasible: a job does not fit",
}


def space_of(doc: Mapping[str, Any]) -> SearchSpace:
    """The search space an answer document describes."""
    names = tuple(doc["space"]["vm_types"])
    counts = doc["space"]["counts"]
    return SearchSpace(names, tuple(counts[t][0] for t in names), tuple(counts[t][1] for t in names))


def candidate_rows(doc: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Simulated candidates of ``doc`` as table rows (their cluster in words, their verdict)."""
    space = space_of(doc)
    answer = doc.get("answer") or {}
    out = []
    for r in rows:
        verdict = "meets" if r["meets"] else "misses"
        if answer and r["index"] == answer.get("index"):
            verdict = "meets: the answer"
        out.append({**r, "cluster": counts_text(space, r["counts"]), "verdict": verdict})
    return out


def answer_rows(doc: Mapping[str, Any], *, certificate: bool = True) -> list[dict[str, Any]]:
    """The answer as ``(what, value, unit)`` rows: the cluster, its cost and outcomes, the gap,
    and the certificate unless a page shows it on its own."""
    answer = doc.get("answer")
    rows: list[dict[str, Any]] = []
    if answer is None:
        rows.append({"what": "Cheapest cluster meeting the target", "value": "none in the space"})
    else:
        space = space_of(doc)
        rows += [
            {
                "what": "Cheapest cluster meeting the target",
                "value": counts_text(space, [answer["counts"][t] for t in space.vm_types]),
            },
            {"what": "Its cost", "value": answer["cost"], "unit": "money"},
            {"what": "Deadlines missed", "value": f"{answer['missed']} of {answer['deadline_jobs']}"},
            {"what": "Mean completion", "value": answer["mean_completion_s"], "unit": "seconds"},
            {"what": "p95 completion", "value": answer["p95_completion_s"], "unit": "seconds"},
        ]
    rows.append(
        {"what": "Lower bound over every cluster shape", "value": doc["global_lower_bound"], "unit": "money"}
    )
    if doc.get("gap_pct") is not None:
        rows.append({"what": "Gap of the answer to it", "value": doc["gap_pct"], "unit": "percent"})
    if certificate:
        rows.append({"what": "Certificate", "value": doc.get("certificate", "")})
    return rows


def answer_table(doc: Mapping[str, Any], *, currency: str = "$", certificate: bool = True) -> DetailTable:
    """The answer, its gap to the global lower bound and (``certificate``) the certificate."""
    from ...tables import cell_text

    rows = [
        {"what": r["what"], "value": cell_text(r["value"], r.get("unit", "text"), currency)}
        for r in answer_rows(doc, certificate=certificate)
    ]
    return detail_table(
        "answer",
        "The cheapest cluster",
        [Column("what", "What"), Column("value", "Value")],
        rows,
        currency=currency,
    )


def candidates_table(doc: Mapping[str, Any]) -> DetailTable:
    """How many candidates were simulated, pruned by each rule, left unexplored, in all."""
    rows = [{"what": "Simulated", "n": doc["simulated"]}]
    rows += [
        {"what": _RULE_LABELS[rule], "n": doc["pruned"][rule]}
        for rule in ("bound", "demand_window", "no_fit")
    ]
    if doc.get("unexplored"):
        rows.append({"what": "Not explored (budget)", "n": doc["unexplored"]})
    rows.append({"what": "In the space", "n": doc["candidates"]})
    return detail_table(
        "candidates", "Candidates", [Column("what", "Candidates"), Column("n", "How many", "count")], rows
    )


def tried_table(doc: Mapping[str, Any], *, currency: str = "$", limit: int | None = None) -> DetailTable:
    """The simulated candidates in the search's order (increasing bound), the answer marked."""
    tried = list(doc["tried"])
    shown = tried if limit is None else tried[:limit]
    notes = (
        []
        if len(shown) == len(tried)
        else [
            f"The first {len(shown):,} of {len(tried):,} candidates simulated (the XLSX report has them all)."
        ]
    )
    answer = doc.get("answer") or {}
    return detail_table(
        "tried",
        "Candidates simulated (in order of their lower bound)",
        CANDIDATE_COLUMNS,
        candidate_rows(doc, shown),
        currency=currency,
        notes=notes,
        marked=lambda r: bool(answer) and r["index"] == answer.get("index"),
    )


def frontier_table(doc: Mapping[str, Any], *, currency: str = "$") -> DetailTable:
    """The simulated candidates no other beats on both cost and deadlines missed."""
    answer = doc.get("answer") or {}
    return detail_table(
        "frontier",
        "Frontier of cost against deadlines missed",
        CANDIDATE_COLUMNS,
        candidate_rows(doc, doc["frontier"]),
        currency=currency,
        marked=lambda r: bool(answer) and r["index"] == answer.get("index"),
    )


def closest_table(doc: Mapping[str, Any], *, currency: str = "$") -> DetailTable:
    """When no candidate meets the target: the simulated ones closest to it (fewest misses)."""
    return detail_table(
        "closest",
        "Closest candidates (none meets the target)",
        CANDIDATE_COLUMNS,
        candidate_rows(doc, doc.get("closest") or []),
        currency=currency,
    )


def pruned_table(doc: Mapping[str, Any]) -> DetailTable:
    """Per rule, the largest clusters it pruned: every smaller cluster was pruned with them."""
    space = space_of(doc)
    rows = [
        {"rule": _RULE_LABELS[rule], "cluster": counts_text(space, counts)}
        for rule in ("no_fit", "demand_window", "bound")
        for counts in (doc.get("maximal_pruned") or {}).get(rule, [])
    ]
    notes = [
        "Each rule, failed by a cluster, is failed by every cluster with no more VMs of any type; the "
        "bound's count also holds the candidates left when the search stopped (their bound was at least "
        "the answer's cost)."
    ]
    return detail_table(
        "pruned",
        "Largest clusters pruned before any simulation, by rule",
        [Column("rule", "Rule"), Column("cluster", "Cluster (and every smaller one)")],
        rows,
        notes=notes,
    )
