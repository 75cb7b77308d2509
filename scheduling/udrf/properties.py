"""The fairness properties of paper 004 §II-D, checked on an allocation (§IV's Lemma 1 and Theorems 1-4).

Every check takes a :class:`~scheduling.udrf.model.UdrfProblem` and the per-job counts of an
allocation (``counts[j]``: how many times job ``j`` runs at once, fractional, as
:func:`~scheduling.udrf.offline.fill` returns them) and returns a :class:`Verdict`: whether the
property holds and, when it does not, a witness naming the user, the job and by how much. The
precise statement of each, as checked, is in ``docs/udrf-properties.md``.

The paper measures a user by :math:`x^u(\\mathbf{A})` (eqs. 7-9): how many times its gross demand
:math:`\\mathbf{R}^u` (eq. 1, one of each of its jobs) fits in an allocation :math:`\\mathbf{A}`,
the least :math:`\\mathbf{A}_{m,k} / \\mathbf{R}^u_{m,k}` over :math:`\\mathcal{P}_u` (eq. 2).
Comparisons are exact when the numbers are fractions (a problem built ``exact=True``) and within
:data:`TOLERANCE` (relative) for floats; Pareto efficiency and strategy-proofness in jobs solve
linear programs in floating point (HiGHS) and allow :data:`LP_TOLERANCE`.

>>> from fractions import Fraction as F
>>> from scheduling.scenario import parse_scenario
>>> problem = UdrfProblem.from_scenario(parse_scenario({
...     "version": 3, "resources": ["cpu", "mem"],
...     "vm_types": [{"name": "a", "capacity": {"cpu": 10, "mem": 10}, "price_per_hour": 0},
...                  {"name": "b", "capacity": {"cpu": 10, "mem": 10}, "price_per_hour": 0}],
...     "frameworks": [
...         {"name": "u1", "complex_jobs": [
...             {"id": "j1", "tasks": [{"machine_class": "a", "demand": {"cpu": 1, "mem": 1}}]},
...             {"id": "j2", "tasks": [{"machine_class": "b", "demand": {"cpu": 1, "mem": 1}}]}]},
...         {"name": "u2", "complex_jobs": [
...             {"id": "j", "tasks": [{"machine_class": "b", "demand": {"cpu": 1, "mem": 1}}]}]}]}),
...     exact=True)
>>> levels, counts = allocate(problem, mix="udrf")
>>> levels, counts
([Fraction(1, 2), Fraction(1, 2)], [Fraction(5, 1), Fraction(5, 1), Fraction(5, 1)])
>>> pareto_efficiency(problem, counts).holds, envy_freeness(problem, counts).holds
(True, True)
>>> round(pareto_efficiency(problem, counts, share_cap=False).witness["most"], 6)  # j1 of u1, class a
10.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import highspy
import numpy as np

from ..errors import ScenarioError
from .graph import rducs
from .model import UdrfProblem
from .offline import MIXES, fill

__all__ = [
    "LP_TOLERANCE",
    "SHARING_SPLITS",
    "TOLERANCE",
    "UTILITIES",
    "Verdict",
    "allocate",
    "dominant_share",
    "envy_freeness",
    "gross_job_count",
    "holdings",
    "pareto_efficiency",
    "saturated_resource_per_user",
    "sharing_incentive",
    "strategy_proofness",
]

#: Relative slack for comparisons of floats (none for fractions).
TOLERANCE = 1e-9
#: Relative slack for a linear program's optimum (HiGHS's feasibility tolerance is 1e-7).
LP_TOLERANCE = 1e-6
#: Strategy-proofness measures a user by its gross demand (eq. 9) or by its job counts.
UTILITIES = ("gross", "jobs")
#: Sharing incentive's equal split: among the users of the user's RDUC, or among all users.
SHARING_SPLITS = ("rduc", "users")


@dataclass(frozen=True)
class Verdict:
    """Whether ``property`` holds on an allocation; ``witness`` describes the first
    counterexample found (``None`` when it holds); ``checked`` counts the cases looked at
    (users, pairs, (user, job) programs)."""

    property: str
    holds: bool
    witness: dict[str, Any] | None
    checked: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: fractions become floats."""
        return {"property": self.property, "holds": self.holds, "witness": _plain(self.witness),
                "checked": self.checked}


# ---------------------------------------------------------------------------- measures


def holdings(problem: UdrfProblem, counts: Sequence[Any]) -> list[dict[int, Any]]:
    """Eq. (5): per user, resource index -> amount it holds (only resources its jobs demand)."""
    out: list[dict[int, Any]] = [{} for _ in problem.users]
    for j, job in enumerate(problem.jobs):
        for r, d in problem.demands[j].items():
            out[job.user][r] = out[job.user].get(r, 0) + d * counts[j]
    return out


def gross_job_count(problem: UdrfProblem, user: int, amounts: dict[int, Any]) -> Any:
    """:math:`x^u(\\mathbf{A})`: how many times the user's gross demand (eq. 1) fits in
    ``amounts`` (resource index -> amount), the least ``A_r / R^u_r`` over :math:`\\mathcal{P}_u`;
    0 for a user that demands nothing."""
    gross = problem.gross_demand(user)
    return min((amounts.get(r, 0) / d for r, d in gross.items()), default=0)


def dominant_share(problem: UdrfProblem, amounts: dict[int, Any]) -> Any:
    """Eq. (12): the RDUC-wise dominant share of a holding, the largest ``A_r / c_r``."""
    return max((a / problem.capacity[r] for r, a in amounts.items()), default=0)


def allocate(problem: UdrfProblem, *, mix: str = "udrf") -> tuple[list[Any], list[Any]]:
    """Offline UDRF (or DRF, ``mix="drf"``) per RDUC, as the paper's master hands each RDUC to a
    slave: ``(levels per user, counts per job)``."""
    levels: list[Any] = [0] * len(problem.users)
    counts: list[Any] = [0] * len(problem.jobs)
    for members in rducs([problem.positive_demand(u) for u in range(len(problem.users))]):
        result = fill(problem.capacity, problem.weights, problem.user_jobs, problem.demands,
                      mix=mix, users=members)
        for u in members:
            levels[u] = result.levels[u]
            for j in problem.user_jobs[u]:
                counts[j] = result.counts[j]
    return levels, counts


# ---------------------------------------------------------------------------- the properties


def saturated_resource_per_user(problem: UdrfProblem, counts: Sequence[Any]) -> Verdict:
    """Lemma 1 (eq. 13): every user with a positive demand has a saturated resource in
    :math:`\\mathcal{P}_u`, one whose whole capacity is allocated.

    The witness of a failure names the user and its least-used resource with the capacity
    left on it.
    """
    held = holdings(problem, counts)
    used: dict[int, Any] = {}
    for amounts in held:
        for r, a in amounts.items():
            used[r] = used.get(r, 0) + a
    checked = 0
    for u, name in enumerate(problem.users):
        demanded = problem.positive_demand(u)
        if not demanded:
            continue
        checked += 1
        if any(_at_least(used.get(r, 0), problem.capacity[r]) for r in demanded):
            continue
        r = min(demanded, key=lambda r: (problem.capacity[r] - used.get(r, 0)) / problem.capacity[r])
        return Verdict("saturated_resource_per_user", False, {
            "user": name, "resource": problem.resource_label(r),
            "left": problem.capacity[r] - used.get(r, 0), "capacity": problem.capacity[r],
        }, checked)
    return Verdict("saturated_resource_per_user", True, None, checked)


def pareto_efficiency(problem: UdrfProblem, counts: Sequence[Any], *, share_cap: bool = True) -> Verdict:
    """Pareto efficiency in the sense UDRF achieves (Theorem 1, with eq. 12's constraint).

    The allocation is Pareto efficient when, with every other user's jobs running at least as
    many times as now and capacities holding (eq. 6),

    1. no user ``u`` can run more of *every* one of its jobs at once (Theorem 1's argument:
       Lemma 1's saturated resource is one its jobs need), and
    2. no user ``u`` can run more of *one* of its jobs ``j`` while its other jobs run at least
       as many times and its share of every resource stays at or below its current RDUC-wise
       dominant share (eq. 12: the largest share of any resource it holds now).

    The second is what UDRF achieves and DRF does not: DRF stops a user's jobs in lockstep, so a
    job that needs only lightly used resources stops below the user's dominant share (the
    paper's u1 runs job1 8 times where 28 fit). The first alone lets a job stop anywhere; the
    second alone holds for the empty allocation (every share 0).

    With ``share_cap=False`` the second drops its share condition: the literal §II-D
    statement ("cannot be increased without decreasing the job allocation of other users"),
    which UDRF does *not* achieve when a user's job stops at its level on a resource nobody
    else wants (u1's job1 in the hadoop class of the paper's example could run 56 times, not
    28).

    Solves one linear program per user and one per (user, job) with HiGHS. The witness names
    the first user that can gain, the job (``None`` for all of them at once), how many times it
    runs, the most it could run, the gain and the user's dominant share (the cap, when used).

    Parameters
    ----------
    problem, counts
        The problem and the per-job counts of the allocation.
    share_cap
        Keep the user's shares at or below its dominant share in the second condition
        (default), or not.

    Raises
    ------
    ScenarioError
        When the allocation exceeds a capacity.
    """
    name = "pareto_efficiency" if share_cap else "pareto_efficiency_unconstrained"
    _check_fits(problem, counts)
    held = holdings(problem, counts)
    checked = 0
    for u, user in enumerate(problem.users):
        mine = [j for j in problem.user_jobs[u] if problem.demands[j]]
        if not mine:
            continue
        level = dominant_share(problem, held[u])
        checked += 1
        gain = _most_growth(problem, counts, mine, None)
        if gain > LP_TOLERANCE * max(1.0, *(float(counts[j]) for j in mine)):
            return Verdict(name, False, {
                "user": user, "job": None, "count": {problem.jobs[j].id: counts[j] for j in mine},
                "most": {problem.jobs[j].id: float(counts[j]) + gain for j in mine},
                "gain": gain, "dominant_share": level,
            }, checked)
        for j in mine:
            checked += 1
            gain = _most_growth(problem, counts, [j], (u, level) if share_cap else None)
            if gain > LP_TOLERANCE * max(1.0, float(counts[j])):
                return Verdict(name, False, {
                    "user": user, "job": problem.jobs[j].id, "count": counts[j],
                    "most": float(counts[j]) + gain, "gain": gain, "dominant_share": level,
                }, checked)
    return Verdict(name, True, None, checked)


def _most_growth(
    problem: UdrfProblem, counts: Sequence[Any], grow: Sequence[int], cap: tuple[int, Any] | None
) -> float:
    """The most ``t`` such that every job in ``grow`` can run ``t`` more times, every job at
    least as many times as now, within capacities and, with ``cap = (u, s)``, user ``u``'s share
    of every resource at most ``s`` (a linear program; ``inf`` when unbounded)."""
    n_jobs = len(problem.jobs)
    h = highspy.Highs()  # type: ignore[no-untyped-call]  # highspy's constructor has no hints
    h.setOptionValue("output_flag", False)
    # No presolve: these programs are small, and an allocation that fills resources exactly
    # (every one UDRF leaves saturated) is tight enough for presolve's tolerances to call it
    # infeasible (seen on a 100-user synthetic trace).
    h.setOptionValue("presolve", "off")
    # Columns: x_0 .. x_{n-1}, then t. Every job at least as many times as now (a hair less,
    # against the rounding of fractions to floats); maximise t (HiGHS minimises).
    lower = np.array([float(c) * (1 - TOLERANCE) for c in counts] + [0.0])
    cost = np.zeros(n_jobs + 1)
    cost[-1] = -1.0
    h.addCols(n_jobs + 1, cost, lower, np.full(n_jobs + 1, highspy.kHighsInf), 0,
              np.zeros(n_jobs + 2, np.int32), np.zeros(0, np.int32), np.zeros(0, float))
    for r in range(problem.resource_count):  # eq. 6: capacities
        cols = [k for k in range(n_jobs) if r in problem.demands[k]]
        if cols:
            h.addRow(-highspy.kHighsInf, float(problem.capacity[r]) * (1 + TOLERANCE), len(cols),
                     np.array(cols, np.int32), np.array([float(problem.demands[k][r]) for k in cols]))
    for j in grow:  # x_j - t >= now_j
        h.addRow(float(counts[j]) * (1 - TOLERANCE), highspy.kHighsInf, 2,
                 np.array([j, n_jobs], np.int32), np.array([1.0, -1.0]))
    if cap is not None:  # eq. 12: the user's share of every resource at most s
        u, share = cap
        for r in problem.positive_demand(u):
            cols = [k for k in problem.user_jobs[u] if r in problem.demands[k]]
            h.addRow(-highspy.kHighsInf, float(share * problem.capacity[r]) * (1 + TOLERANCE), len(cols),
                     np.array(cols, np.int32), np.array([float(problem.demands[k][r]) for k in cols]))
    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        # The allocation fits (checked before): a bounded, feasible program that HiGHS could
        # not solve, e.g. demands so small against a capacity that it drops them as zeros.
        raise SolverTrouble(f"HiGHS answered '{h.modelStatusToString(status)}' for a linear program that has "
                            "an optimum; demands far smaller than their class's capacity (under about 1e-9 "
                            "of it) are beyond its tolerances")
    return float(h.getSolution().col_value[n_jobs])


class SolverTrouble(ValueError):
    """A linear program of a check that HiGHS could not solve although it has an optimum: the
    check cannot say whether the property holds."""


def _check_fits(problem: UdrfProblem, counts: Sequence[Any]) -> None:
    """``ScenarioError`` on ``counts`` when the allocation exceeds a capacity."""
    for r in range(problem.resource_count):
        used = sum(float(problem.demands[k].get(r, 0)) * float(counts[k]) for k in range(len(problem.jobs)))
        if used > float(problem.capacity[r]) * (1 + TOLERANCE) + TOLERANCE:
            label = problem.resource_labels()[r]
            raise ScenarioError.single("counts", f"the allocation uses {used:g} of {label}, "
                                       f"whose capacity is {float(problem.capacity[r]):g}")


def envy_freeness(problem: UdrfProblem, counts: Sequence[Any]) -> Verdict:
    """Eq. (7): no user's gross demand fits more times in another user's allocation than in
    its own, :math:`x^u(\\mathbf{A}^u) \\ge x^u(\\mathbf{A}^v)` for every pair.

    The witness names the envious user ``u``, the envied ``v`` and both job counts.
    """
    held = holdings(problem, counts)
    own = [gross_job_count(problem, u, held[u]) for u in range(len(problem.users))]
    checked = 0
    for u, user in enumerate(problem.users):
        if not problem.positive_demand(u):
            continue
        for v, other in enumerate(problem.users):
            if v == u:
                continue
            checked += 1
            theirs = gross_job_count(problem, u, held[v])
            if not _at_least(own[u], theirs):
                return Verdict("envy_freeness", False, {
                    "user": user, "envies": other, "own": own[u], "in_theirs": theirs,
                    "gain": theirs - own[u],
                }, checked)
    return Verdict("envy_freeness", True, None, checked)


def sharing_incentive(
    problem: UdrfProblem, counts: Sequence[Any], groups: Sequence[Sequence[int]], *, split: str = "rduc"
) -> Verdict:
    """Eq. (8): every user's gross demand fits at least as many times in its allocation as in an
    equal split of every resource, :math:`x^u(\\mathbf{A}^u) \\ge x^u(\\mathbf{C}/n)`.

    ``split="rduc"`` (default) splits among the users of the user's RDUC (``groups``, as
    :func:`~scheduling.udrf.graph.rducs` returns them), ``n = |C|``: what Theorem 3's proof
    shows. ``split="users"`` takes ``n = |U|``, the paper's eq. 8, which follows from it
    (``|C| <= |U|``). The witness names the user, its job count and the split's.
    """
    if split not in SHARING_SPLITS:
        raise ValueError(f"split must be one of {', '.join(SHARING_SPLITS)}")
    held = holdings(problem, counts)
    size = {u: len(members) for members in groups for u in members}
    checked = 0
    for u, user in enumerate(problem.users):
        gross = problem.gross_demand(u)
        if not gross:
            continue
        checked += 1
        n = size[u] if split == "rduc" else len(problem.users)
        share = {r: problem.capacity[r] / n for r in gross}
        own, equal = gross_job_count(problem, u, held[u]), gross_job_count(problem, u, share)
        if not _at_least(own, equal):
            return Verdict(f"sharing_incentive_{split}", False, {
                "user": user, "own": own, "equal_split": equal, "split_among": n,
                "gain": equal - own,
            }, checked)
    return Verdict(f"sharing_incentive_{split}", True, None, checked)


def strategy_proofness(
    problem: UdrfProblem, user: int, misreport_demands: Sequence[dict[int, Any]], *, mix: str = "udrf",
    utility: str = "gross",
) -> Verdict:
    """Eq. (9): a user that misreports its jobs' demands gains nothing.

    Runs the offline algorithm twice (:func:`allocate`; RDUCs found afresh, a misreport can
    join or leave them): once on the true demands, once with ``user``'s job demands replaced
    by ``misreport_demands``. Either way the user keeps what it received: its counts times the
    demands it reported.

    UDRF satisfies neither form in general (docs/udrf-properties.md has the instances, both from
    Fig. 3's line 25, which saturates a user when any resource it demands fills): a user one of
    whose jobs grows past its others and fills a shared resource can report every job as its
    gross demand, so they grow together and that resource stays open (``"gross"`` and
    ``"jobs"``), and a user saturated by one resource can claim that a job also needs a
    resource only it wants (``"jobs"``). Theorem 4's proof assumes that a gain means more of
    every resource, true when allocations are proportional to demands (DRF; UDRF for a user with
    one job), not under UDRF's per-job growth.

    Parameters
    ----------
    problem
        The true problem.
    user
        The index of the user that lies.
    misreport_demands
        One resource index -> amount mapping per job of the user, in the order of
        ``problem.user_jobs[user]``.
    mix
        ``"udrf"`` or ``"drf"`` (the baseline), as :func:`~scheduling.udrf.offline.fill`.
    utility
        ``"gross"``: the lie gains when the user's *true* gross demand fits more times
        (:math:`x^u`) in what it received than in its truthful allocation. ``"jobs"``: the lie
        gains when what it received lets the user run at least its truthful count of every one
        of its jobs (true demands) and more of one (a linear program).

    Returns
    -------
    Verdict
        ``strategy_proofness`` or ``strategy_proofness_jobs``; the witness gives the truthful
        and the lying counts (or the counts the user could run), the gain and the job counts
        either way.
    """
    if mix not in MIXES:
        raise ValueError(f"mix must be one of {', '.join(MIXES)}")
    if utility not in UTILITIES:
        raise ValueError(f"utility must be one of {', '.join(UTILITIES)}")
    jobs = problem.user_jobs[user]
    if len(misreport_demands) != len(jobs):
        raise ScenarioError.single("misreport_demands", f"user {problem.users[user]} has {len(jobs)} jobs, "
                                   f"the misreport {len(misreport_demands)}")
    demands = list(problem.demands)
    for j, reported in zip(jobs, misreport_demands, strict=True):
        demands[j] = {r: d for r, d in reported.items() if d > 0}
    lying = replace(problem, demands=tuple(demands))
    _, truthful_counts = allocate(problem, mix=mix)
    _, lying_counts = allocate(lying, mix=mix)
    received = holdings(lying, lying_counts)[user]
    if utility == "jobs":
        more = _more_jobs(problem, user, [truthful_counts[j] for j in jobs], received)
        if more is None:
            return Verdict("strategy_proofness_jobs", True, None, 1)
        return Verdict("strategy_proofness_jobs", False, {
            "user": problem.users[user], "gain": sum(more) - sum(float(truthful_counts[j]) for j in jobs),
            "could_run": {problem.jobs[j].id: y for j, y in zip(jobs, more, strict=True)},
            "misreport_jobs": {problem.jobs[j].id: lying_counts[j] for j in jobs},
            "truthful_jobs": {problem.jobs[j].id: truthful_counts[j] for j in jobs},
        }, 1)
    truthful = gross_job_count(problem, user, holdings(problem, truthful_counts)[user])
    misreported = gross_job_count(problem, user, received)
    if _at_least(truthful, misreported):
        return Verdict("strategy_proofness", True, None, 1)
    return Verdict("strategy_proofness", False, {
        "user": problem.users[user], "truthful": truthful, "misreport": misreported,
        "gain": misreported - truthful,
        "misreport_jobs": {problem.jobs[j].id: lying_counts[j] for j in jobs},
        "truthful_jobs": {problem.jobs[j].id: truthful_counts[j] for j in jobs},
    }, 1)


# ---------------------------------------------------------------------------- helpers


def _more_jobs(
    problem: UdrfProblem, user: int, now: Sequence[Any], received: dict[int, Any]
) -> list[float] | None:
    """Job counts ``y >= now`` (the user's jobs, true demands) that fit in ``received`` and run
    more jobs in all, or ``None`` when there are none (a linear program)."""
    jobs = problem.user_jobs[user]
    n = len(jobs)
    idle = [i for i, j in enumerate(jobs) if not problem.demands[j]]  # a job that needs nothing
    h = highspy.Highs()  # type: ignore[no-untyped-call]  # highspy's constructor has no hints
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "off")  # as in _most_growth: tight allocations
    lower = np.array([float(c) * (1 - TOLERANCE) for c in now])
    upper = np.full(n, highspy.kHighsInf)
    upper[idle] = lower[idle]  # does not count: it can always run more
    h.addCols(n, -np.ones(n), lower, upper, 0, np.zeros(n + 1, np.int32),
              np.zeros(0, np.int32), np.zeros(0, float))
    for r in problem.positive_demand(user):
        cols = [i for i, j in enumerate(jobs) if r in problem.demands[j]]
        h.addRow(-highspy.kHighsInf, float(received.get(r, 0)) * (1 + TOLERANCE), len(cols),
                 np.array(cols, np.int32), np.array([float(problem.demands[jobs[i]][r]) for i in cols]))
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None  # the truthful counts do not fit in what the misreport received
    y = [float(v) for v in h.getSolution().col_value]
    total = sum(float(c) for c in now)
    return y if sum(y) > total + LP_TOLERANCE * max(1.0, total) else None


def _at_least(value: Any, bound: Any) -> bool:
    """``value >= bound``: exact for fractions, within :data:`TOLERANCE` (relative) otherwise."""
    if isinstance(value, Fraction | int) and isinstance(bound, Fraction | int):
        return bool(value >= bound)
    return bool(value >= bound - TOLERANCE * max(1.0, abs(float(bound))))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, Fraction):
        return float(value)
    return value


#: The checks an offline document reports per policy, in order, with their labels.
DOCUMENT_CHECKS: dict[str, str] = {
    "saturated_resource_per_user": "Every user has a saturated resource (Lemma 1)",
    "pareto_efficiency": "Pareto efficient (no job can grow at its user's dominant share)",
    "envy_freeness": "Envy-free (eq. 7)",
    "sharing_incentive_rduc": "Sharing incentive (eq. 8, equal split within the RDUC)",
}
#: The largest problem whose documents carry the checks: one LP per user and per (user, job).
DOCUMENT_CHECK_LIMITS = {"users": 100, "jobs": 400}


def allocation_properties(
    problem: UdrfProblem, counts: Sequence[Any], groups: Sequence[Sequence[int]]
) -> dict[str, Any]:
    """The :data:`DOCUMENT_CHECKS` of one allocation, for an offline document: ``{"checked":
    True, "verdicts": [Verdict.to_dict(), ...]}``, or ``{"checked": False, "reason": ...}``
    beyond :data:`DOCUMENT_CHECK_LIMITS` (strategy-proofness needs reruns with misreports and
    is left to :func:`strategy_proofness`)."""
    users, jobs = len(problem.users), len(problem.jobs)
    if users > DOCUMENT_CHECK_LIMITS["users"] or jobs > DOCUMENT_CHECK_LIMITS["jobs"]:
        return {"checked": False, "reason": (
            f"checked up to {DOCUMENT_CHECK_LIMITS['users']} users and {DOCUMENT_CHECK_LIMITS['jobs']} jobs; "
            f"this problem has {users:,} users and {jobs:,} jobs")}
    try:
        verdicts = [
            saturated_resource_per_user(problem, counts),
            pareto_efficiency(problem, counts),
            envy_freeness(problem, counts),
            sharing_incentive(problem, counts, groups, split="rduc"),
        ]
    except SolverTrouble as exc:
        return {"checked": False, "reason": str(exc)}
    return {"checked": True, "verdicts": [v.to_dict() for v in verdicts]}
