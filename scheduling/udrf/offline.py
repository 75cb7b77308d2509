"""Offline UDRF (paper 004 Fig. 3) and the DRF baseline, by progressive filling of levels.

Within an RDUC every unsaturated user rises at one *level* :math:`L` (times its weight): its
RDUC-wise dominant share (eq. 12), the largest share it holds of any resource. What a user
holds at level :math:`L` is found inside the user, as the paper's inner loop (lines 11-22):
its jobs grow in equal numbers, and a job stops when a resource it needs reaches :math:`L` of
that resource for the user (the constraint of eq. 12) — job1 of the paper's user u1 keeps
growing in the hadoop class after job2 has stopped in the standard class. The outcome is
linear in :math:`L`, so the outer loop (lines 07-27) is the water-filling of DRF on each
user's own mix of jobs: the level rises until a resource saturates; every user with positive
demand for it is then saturated (line 25) and keeps what it holds; the others go on.

The DRF baseline (notes §7; paper §II-A) is the same filling where a user's mix is fixed to one
of each of its jobs (its gross demand, eq. 1) and every (machine class, resource) is a
resource of its own, so a user's jobs all run the same number of times.

Counts are fractional, as in the paper (x is how many times each job can run at once). With a
problem built ``exact=True`` every number is a :class:`~fractions.Fraction`, which the tests
use to reproduce the paper's §III-B shares exactly.

>>> from fractions import Fraction as F
>>> result = fill([F(16), F(10)], [F(1)], [(0,)], [{0: F(1), 1: F(1)}], mix="udrf")
>>> result.levels, result.counts
([Fraction(1, 1)], [Fraction(10, 1)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MIXES", "FillResult", "Round", "fill", "user_mix"]

#: ``udrf``: a user's jobs grow independently up to its level (paper 004); ``drf``: one of each
#: job in lockstep, the user's gross demand (the baseline).
MIXES = ("udrf", "drf")


@dataclass
class Round:
    """One round of the outer loop: the level it reached, the resources it saturated, the
    users it saturated, and for each user that rose in it the job counts after each inner
    iteration (equal growth until a job stops; the paper's lines 11-22)."""

    level: Any
    saturated_resources: list[int]
    saturated_users: list[int]
    iterations: dict[int, list[list[Any]]] = field(default_factory=dict)


@dataclass
class FillResult:
    """Per user its final level; per job its count; the rounds, in order."""

    levels: list[Any]
    counts: list[Any]
    rounds: list[Round]


def user_mix(
    capacity: Sequence[Any], job_demands: Sequence[dict[int, Any]], mix: str
) -> tuple[list[Any], list[list[Any]]]:
    """A user's job counts at level 1 (weight 1) and the counts after each inner iteration.

    ``udrf``: the jobs grow in equal numbers; a job stops once a resource it needs reaches the
    user's whole level (share 1 of that resource); the others go on. ``drf``: one of each job,
    scaled until the first resource reaches share 1.

    >>> user_mix([56.0, 64.0, 16.0, 40.0], [{0: 1, 1: 1}, {2: 1, 3: 2}], "udrf")
    ([56.0, 16.0], [[16.0, 16.0], [56.0, 16.0]])
    >>> user_mix([56.0, 64.0, 16.0, 40.0], [{0: 1, 1: 1}, {2: 1, 3: 2}], "drf")
    ([16.0, 16.0], [[16.0, 16.0]])
    """
    n = len(job_demands)
    zero = capacity[0] * 0
    counts = [zero] * n
    share: dict[int, Any] = {}
    for d in job_demands:
        for r in d:
            share[r] = zero
    share_per_job = [{r: d / capacity[r] for r, d in dem.items()} for dem in job_demands]
    active = [j for j in range(n) if job_demands[j]]
    iterations: list[list[Any]] = []
    t = zero
    while active:
        rate: dict[int, Any] = {}
        for j in active:
            for r, s in share_per_job[j].items():
                rate[r] = rate.get(r, zero) + s
        step = min((1 - share[r]) / v for r, v in rate.items() if v > 0)
        t = t + step
        for r, v in rate.items():
            share[r] = share[r] + v * step
        for j in active:
            counts[j] = t
        if mix == "drf":
            iterations.append(list(counts))
            break
        full = {r for r, v in rate.items() if v > 0 and _at_least(share[r], 1)}
        active = [j for j in active if not full.intersection(share_per_job[j])]
        iterations.append(list(counts))
    if isinstance(zero, float):
        counts = [float(c) for c in counts]
        iterations = [[float(c) for c in it] for it in iterations]
    return counts, iterations


def _at_least(value: Any, bound: Any) -> bool:
    """``value >= bound``, within rounding for floats (exact for fractions)."""
    if isinstance(value, float):
        return bool(value >= bound - 1e-12 * max(1.0, abs(bound)))
    return bool(value >= bound)


def fill(
    capacity: Sequence[Any],
    weights: Sequence[Any],
    user_jobs: Sequence[Sequence[int]],
    demands: Sequence[dict[int, Any]],
    *,
    mix: str = "udrf",
    users: Sequence[int] | None = None,
) -> FillResult:
    """Progressive filling of the levels of ``users`` (all by default; one RDUC in the paper's
    master/slave form, since RDUCs share no resource).

    Returns levels per user (0 for users not filled) and counts per job (count of job j =
    weight x level x its count at level 1).
    """
    if mix not in MIXES:
        raise ValueError(f"mix must be one of {', '.join(MIXES)}")
    zero = capacity[0] * 0
    n_users = len(user_jobs)
    chosen = list(range(n_users)) if users is None else list(users)
    unit: dict[int, tuple[list[Any], list[list[Any]]]] = {}
    use: dict[int, dict[int, Any]] = {}  # per user: resource -> amount at level 1, weight included
    for u in chosen:
        jobs = user_jobs[u]
        unit[u] = user_mix(capacity, [demands[j] for j in jobs], mix)
        amount: dict[int, Any] = {}
        for j, c in zip(jobs, unit[u][0], strict=True):
            for r, d in demands[j].items():
                amount[r] = amount.get(r, zero) + d * c * weights[u]
        use[u] = {r: a for r, a in amount.items() if a > 0}
    users_of: dict[int, list[int]] = {}
    for u in chosen:
        for r in use[u]:
            users_of.setdefault(r, []).append(u)
    rate: dict[int, Any] = {}
    for u in chosen:
        for r, a in use[u].items():
            rate[r] = rate.get(r, zero) + a
    frozen_use: dict[int, Any] = {r: zero for r in rate}
    levels = [zero] * n_users
    active = {u for u in chosen if use[u]}
    level = zero
    rounds: list[Round] = []
    while active:
        # Next saturation: the smallest level at which some resource's use reaches capacity.
        best = None
        for r, v in rate.items():
            if v > 0:
                at = (capacity[r] - frozen_use[r]) / v
                if best is None or at < best:
                    best = at
        assert best is not None
        level = max(level, best)
        saturated = sorted(r for r, v in rate.items()
                           if v > 0 and _at_least(frozen_use[r] + v * level, capacity[r]))
        newly = sorted({u for r in saturated for u in users_of[r] if u in active})
        this = Round(level=level, saturated_resources=saturated, saturated_users=newly)
        for u in sorted(active):
            this.iterations[u] = [[c * weights[u] * level for c in it] for it in unit[u][1]]
        rounds.append(this)
        for u in newly:
            levels[u] = level
            active.discard(u)
            for r, a in use[u].items():
                rate[r] = rate[r] - a
                frozen_use[r] = frozen_use[r] + a * level
        for r in saturated:  # exact zero, against rounding
            if not any(u in active for u in users_of[r]):
                rate[r] = zero
    counts: list[Any] = [zero] * len(demands)
    for u in chosen:
        for j, c in zip(user_jobs[u], unit[u][0], strict=True):
            counts[j] = c * weights[u] * levels[u]
    return FillResult(levels=levels, counts=counts, rounds=rounds)
