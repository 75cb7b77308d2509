"""The offline UDRF document: UDRF against DRF on a scenario's users, classes and RDUCs.

:func:`offline_document` runs :func:`~scheduling.udrf.offline.fill` per RDUC (the paper's
master hands each RDUC to a slave) for UDRF and, unless told not to, for the DRF baseline, and
reports per user and per class what ``docs/results.md`` describes:

* per user: jobs allocated per job, the RDUC-wise dominant share (eq. 12: the largest share of
  any class's resource it holds), the global dominant share (the largest share of a resource
  kind over the whole cluster, classes pooled), the paper's job count :math:`x^u` (how many
  times its gross demand, one of each job, fits in what it holds), what it holds per class,
  and its waste per class: capacity of the resources it demands left unallocated;
* per class: capacity, allocated, and wasted (unallocated capacity of a resource some user
  demands) per resource kind;
* the RDUCs with their users and resources, the graph's edges, and every round of the filling;
* with the DRF baseline, ``versus_drf`` (:func:`drf_comparison`): per user its dominant share
  under UDRF and under DRF and the change, who gets less than under DRF and by how much.

>>> from scheduling.scenario import load_scenario_json
>>> doc = offline_document(load_scenario_json(open("examples/paper004-fig1.json").read()))
>>> [u["jobs"] for u in doc["policies"]["udrf"]["users"]][0], doc["policies"]["drf"]["users"][0]["jobs"]
({'job1': 28.0, 'job2': 8.0}, {'job1': 8.0, 'job2': 8.0})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..scenario import Scenario
from .graph import edges, rducs
from .model import UdrfProblem
from .offline import fill

__all__ = ["BELOW_TOLERANCE", "EDGE_LIMIT", "OFFLINE_POLICIES", "drf_comparison", "offline_document",
           "policy_outcome"]

#: The policies of the comparison, with their labels.
OFFLINE_POLICIES = {"udrf": "UDRF", "drf": "DRF (classes as resources)"}
#: The most dependency-graph edges a document lists (a dense graph has quadratically many).
EDGE_LIMIT = 20_000
#: A user is below (above) DRF when its dominant share under UDRF is lower (higher) than under
#: DRF by more than this fraction of DRF's (floats' rounding; none for fractions).
BELOW_TOLERANCE = 1e-9


def policy_outcome(
    problem: UdrfProblem, groups: list[list[int]], mix: str, *, properties: bool = False
) -> dict[str, Any]:
    """Fill every RDUC with ``mix`` and measure the outcome (numbers stay exact when the
    problem is; :func:`offline_document` turns them into JSON numbers); ``properties`` adds
    the fairness checks of :func:`~scheduling.udrf.properties.allocation_properties`."""
    n_users = len(problem.users)
    levels: list[Any] = [0] * n_users
    counts: list[Any] = [0] * len(problem.jobs)
    rounds = []
    for g, members in enumerate(groups):
        result = fill(problem.capacity, problem.weights, problem.user_jobs, problem.demands, mix=mix,
                      users=members)
        for u in members:
            levels[u] = result.levels[u]
            for j in problem.user_jobs[u]:
                counts[j] = result.counts[j]
        for step in result.rounds:
            rounds.append({
                "rduc": g, "b": step.b, "level": step.level,
                "saturated_resources": [problem.resource_label(x) for x in step.saturated_resources],
                "saturated_users": [problem.users[u] for u in step.saturated_users],
                "iterations": {problem.users[u]: [_named(problem, u, it) for it in its]
                               for u, its in step.iterations.items()},
            })
    n_res = problem.resource_count
    held = [[0] * n_res for _ in range(n_users)]
    for j, job in enumerate(problem.jobs):
        for r, d in problem.demands[j].items():
            held[job.user][r] = held[job.user][r] + d * counts[j]
    used = [sum(held[u][r] for u in range(n_users)) for r in range(n_res)]
    idle = [max(problem.capacity[r] - used[r], 0) for r in range(n_res)]
    demanded = [problem.positive_demand(u) for u in range(n_users)]
    any_demand = set().union(*demanded)
    k = len(problem.kinds)
    pooled = problem.pooled_capacity
    group_of = {u: g for g, members in enumerate(groups) for u in members}
    users: list[dict[str, Any]] = []
    for u, name in enumerate(problem.users):
        gross = problem.gross_demand(u)
        shares = [held[u][r] / problem.capacity[r] for r in gross]
        users.append({
            "name": name,
            "rduc": group_of.get(u),
            "level": levels[u],
            "dominant_share": max(shares, default=0),
            "global_dominant_share": problem.global_dominant_share(held[u]),
            "job_count": min((held[u][r] / d for r, d in gross.items()), default=0),
            "jobs": {problem.jobs[j].id: counts[j] for j in problem.user_jobs[u]},
            "allocation": _per_class(problem, held[u], keep=gross),
            "waste": _per_class(problem, idle, keep=demanded[u]),
        })
    classes: list[dict[str, Any]] = []
    for c, cls in enumerate(problem.classes):
        rs = range(c * k, c * k + k)
        classes.append({
            "name": cls,
            "capacity": {problem.kinds[r % k]: problem.capacity[r] for r in rs},
            "allocated": {problem.kinds[r % k]: used[r] for r in rs},
            "wasted": {problem.kinds[r % k]: idle[r] if r in any_demand else 0 for r in rs},
        })
    out: dict[str, Any] = {
        "users": users,
        "classes": classes,
        "totals": {
            "jobs": sum(counts),
            "allocated": {kind: sum(cl["allocated"][kind] for cl in classes) for kind in problem.kinds},
            "wasted": {kind: sum(cl["wasted"][kind] for cl in classes) for kind in problem.kinds},
            "capacity": dict(zip(problem.kinds, pooled, strict=True)),
        },
        "rounds": rounds,
    }
    if properties:
        from .properties import allocation_properties  # highspy only when asked for

        out["properties"] = allocation_properties(problem, counts, groups)
    return out


def _named(problem: UdrfProblem, u: int, counts: list[Any]) -> dict[str, Any]:
    return {problem.jobs[j].id: c for j, c in zip(problem.user_jobs[u], counts, strict=True)}


def _per_class(problem: UdrfProblem, amounts: list[Any], *, keep: Any) -> dict[str, dict[str, Any]]:
    """``{class: {kind: amount}}`` for the resources in ``keep`` (a user's demanded ones)."""
    k = len(problem.kinds)
    out: dict[str, dict[str, Any]] = {}
    for r in sorted(keep):
        out.setdefault(problem.classes[r // k], {})[problem.kinds[r % k]] = amounts[r]
    return out


def offline_document(
    scenario: Scenario, *, compare_drf: bool = True, exact: bool = False, properties: bool = True
) -> dict[str, Any]:
    """Offline UDRF (and DRF) on the scenario's complex jobs, as a JSON-ready document.

    ``properties`` checks each policy's allocation for Lemma 1, Pareto efficiency,
    envy-freeness and sharing incentive (``policies.<p>.properties``; small problems only).

    ``exact`` computes in fractions and writes every number as a float all the same; use
    :func:`policy_outcome` on an exact problem to see the fractions.
    """
    problem = UdrfProblem.from_scenario(scenario, exact=exact)
    demanded = [problem.positive_demand(u) for u in range(len(problem.users))]
    groups = rducs(demanded)
    k = len(problem.kinds)
    doc: dict[str, Any] = {
        "kind": "udrf-offline",
        "scenario": scenario.name,
        "resources": list(problem.kinds),
        "classes": [{"name": c,
                     "capacity": {problem.kinds[kk]: problem.capacity[i * k + kk] for kk in range(k)},
                     "vm_types": [t.name for t in scenario.machine_classes()[c]]}
                    for i, c in enumerate(problem.classes)],
        "users": [{"name": name, "weight": problem.weights[u],
                   "jobs": [_job_summary(problem, j) for j in problem.user_jobs[u]]}
                  for u, name in enumerate(problem.users)],
        "rducs": [{"users": [problem.users[u] for u in members],
                   "resources": [problem.resource_label(r)
                                 for r in sorted(set().union(*(demanded[u] for u in members)))]}
                  for members in groups],
        "edges": [[problem.users[a], problem.users[b]] for a, b in edges(demanded, limit=EDGE_LIMIT)],
        "policies": {"udrf": policy_outcome(problem, groups, "udrf", properties=properties)},
    }
    if compare_drf:
        doc["policies"]["drf"] = policy_outcome(problem, groups, "drf", properties=properties)
        doc["versus_drf"] = drf_comparison(doc["policies"]["udrf"]["users"], doc["policies"]["drf"]["users"])
    out: dict[str, Any] = _plain(doc)
    return out


def drf_comparison(udrf_users: Sequence[Mapping[str, Any]], drf_users: Sequence[Mapping[str, Any]]
                   ) -> dict[str, Any]:
    """Per user UDRF against DRF: who gets less than under DRF, and by how much.

    ``udrf_users`` and ``drf_users`` are the two policies' ``users`` of an offline document
    (matched by name). Per user: ``dominant_share`` and ``drf_dominant_share`` (RDUC-wise, eq.
    12; the same weight under both, so this compares levels), ``change`` (UDRF's minus DRF's),
    ``change_pct`` (in % of DRF's; ``None`` when DRF's is 0), ``job_count`` and
    ``drf_job_count`` (x^u), ``jobs`` and ``drf_jobs`` (jobs at once, all its jobs), and
    ``verdict``: ``below``, ``equal`` or ``above`` (beyond :data:`BELOW_TOLERANCE`). Users are
    listed by change, the largest loss first. The counts of each verdict and ``largest_loss``
    (DRF's share minus UDRF's for the user who loses most; 0 when nobody does) come with them.

    >>> def user(name, share, jobs):
    ...     return {"name": name, "rduc": 0, "dominant_share": share, "job_count": min(jobs.values()),
    ...             "jobs": jobs}
    >>> udrf = [user("u1", 0.5, {"A": 10.0, "B": 5.0}), user("u2", 0.5, {"j": 5.0})]
    >>> drf = [user("u1", 1.0, {"A": 10.0, "B": 10.0}), user("u2", 0.5, {"j": 5.0})]
    >>> out = drf_comparison(udrf, drf)
    >>> first = out["users"][0]
    >>> out["below"], out["equal"], out["largest_loss"], first["name"], first["change_pct"]
    (1, 1, 0.5, 'u1', -50.0)
    """
    theirs = {str(u.get("name")): u for u in drf_users}
    users: list[dict[str, Any]] = []
    for mine in udrf_users:
        other = theirs.get(str(mine.get("name")))
        if other is None:
            continue
        share, base = mine["dominant_share"], other["dominant_share"]
        change = share - base
        slack = BELOW_TOLERANCE * abs(base) if isinstance(change, float) else 0
        verdict = "below" if change < -slack else "above" if change > slack else "equal"
        users.append({
            "name": mine.get("name"), "rduc": mine.get("rduc"),
            "dominant_share": share, "drf_dominant_share": base,
            "change": change if verdict != "equal" else change - change,
            "change_pct": (change / base * 100 if verdict != "equal" else change - change) if base else None,
            "job_count": mine.get("job_count"), "drf_job_count": other.get("job_count"),
            "jobs": sum(dict(mine.get("jobs") or {}).values()),
            "drf_jobs": sum(dict(other.get("jobs") or {}).values()),
            "verdict": verdict,
        })
    users.sort(key=lambda u: (u["change"], str(u["name"])))
    losses = [-u["change"] for u in users if u["verdict"] == "below"]
    return {
        "tolerance": BELOW_TOLERANCE,
        **{v: sum(u["verdict"] == v for u in users) for v in ("below", "equal", "above")},
        "largest_loss": max(losses, default=0),
        "users": users,
    }


def _job_summary(problem: UdrfProblem, j: int) -> dict[str, Any]:
    job = problem.jobs[j].job
    return {"id": job.id, "classes": list(job.classes), "tasks": sum(t.count for t in job.tasks),
            "runs": job.runs, "duration_s": job.duration_s,
            "demand": {problem.resource_label(r): d for r, d in sorted(problem.demands[j].items())}}


def _plain(value: Any) -> Any:
    """Fractions and numpy numbers as JSON floats; integers (indices) stay integers."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bool | int | str) or value is None:
        return value
    return float(value)
