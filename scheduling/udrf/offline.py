"""Offline UDRF (paper 004 Fig. 3) and the DRF baseline, round by round as §III-B runs it.

Within an RDUC, each outer round (Fig. 3 lines 07-27) raises one level ``b`` for every
unsaturated (*active*) user, all of a user's jobs in lockstep (notes §7):

* line 10: ``b = 1 / max_r sum_j dhat_j,r`` over the active users' jobs, where ``dhat`` is a
  job's demand share ``d_j,r = R^j_r / c_r`` normalised by its user's dominant demand share
  ``d_u^max = max_r sum_j d_j,r`` (eqs. 10-11). It is the level at which the active users,
  every job of a user running equally often (their gross demands, as DRF), fill the most
  demanded resource;
* lines 11-22, the inner loop: every job of an active user that is not on a full resource grows,
  a user's growing jobs by one common multiplier (line 15), until a resource it needs fills or
  its user's share of one of its resources reaches ``b`` (eq. 12, "strongly maintained");
  line 14's ``r_u = max_r sum_j dhat_j,r`` is taken over the user's *unsaturated* jobs, so once
  a job stops, the others of its user go on faster (u1's job1 in the hadoop class reaches 28
  after job2 stops at 8 in the standard class: §III-B);
* lines 25-26: a user with a full resource among those it demands is saturated and keeps what
  it holds; the others start the next round, with a ``b`` over fewer users.

A user's job mix is therefore not fixed before its level is raised: its jobs grow together
(as DRF's would) up to the level, then the ones whose resources are still free grow on. The
growth is continuous (progressive filling): where several users' jobs grow on one resource
at once, each user's most used resource among its growing jobs rises at the same pace (line
15's ``b / (r_u d_u^max)`` for every user), so the inner loop's order does not decide who gets
what. Each user's level carries on from the last round (``b`` is a share of the whole capacity,
as eq. 12), so every round fills at least one resource and saturates at least one user.

The DRF baseline (notes §7; paper §II-A) is the same filling with a user's jobs never growing
apart (its gross demand, eq. 1, as one job) and every (machine class, resource) a resource of
its own: DRF's progressive filling.

Counts are fractional, as in the paper (x is how many times each job can run at once). With a
problem built ``exact=True`` every number is a :class:`~fractions.Fraction`, which the tests
use to reproduce the paper's §III-B shares exactly.

>>> from fractions import Fraction as F
>>> two_classes = dict(capacity=[F(10), F(10)], weights=[F(1), F(1)], user_jobs=[(0, 1), (2,)],
...                    demands=[{0: F(1)}, {1: F(2)}, {0: F(1)}])
>>> result = fill(**two_classes)  # u1: job1 on a, job2 on b; u2: one job on a
>>> result.levels, result.counts
([Fraction(2, 3), Fraction(2, 3)], [Fraction(10, 3), Fraction(10, 3), Fraction(20, 3)])
>>> fill(**two_classes, mix="drf").counts == result.counts  # DRF's, here
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["MIXES", "FillResult", "Round", "fill"]

#: ``udrf``: a user's jobs grow in lockstep and each goes on until its resources stop it
#: (paper 004); ``drf``: a user's jobs never grow apart, its gross demand (the baseline).
MIXES = ("udrf", "drf")

#: Relative slack for "a resource is full" and "a share reached the level" in floats (none for
#: fractions).
TOLERANCE = 1e-12


@dataclass
class Round:
    """One round of the outer loop: ``b`` of line 10, the highest level (RDUC-wise dominant
    share over weight) a user reached in it, the resources full and the users saturated at
    its end, and for each user that grew in it the job counts after each inner iteration
    (each step of the filling that ended with a job stopping or a resource filling)."""

    level: Any
    saturated_resources: list[int]
    saturated_users: list[int]
    iterations: dict[int, list[list[Any]]] = field(default_factory=dict)
    b: Any = None


@dataclass
class FillResult:
    """Per user its final level (RDUC-wise dominant share over its weight); per job its
    count; the rounds, in order."""

    levels: list[Any]
    counts: list[Any]
    rounds: list[Round]


def _array(values: Sequence[Any], exact: bool) -> np.ndarray:
    return np.array(list(values), dtype=object if exact else float)


def _reached(value: np.ndarray, bound: np.ndarray | Any, exact: bool) -> np.ndarray:
    """``value >= bound`` elementwise, within :data:`TOLERANCE` for floats."""
    if exact:
        return np.asarray(value >= bound, dtype=bool)
    return np.asarray(value >= bound * (1 - TOLERANCE) - TOLERANCE * 1e-3, dtype=bool)


def fill(
    capacity: Sequence[Any],
    weights: Sequence[Any],
    user_jobs: Sequence[Sequence[int]],
    demands: Sequence[dict[int, Any]],
    *,
    mix: str = "udrf",
    users: Sequence[int] | None = None,
) -> FillResult:
    """Fig. 3's rounds on ``users`` (all by default; one RDUC in the paper's master/slave
    form, since RDUCs share no resource).

    Returns levels per user (0 for users not filled) and counts per job (0 for a job that
    demands nothing). Costs a few vector operations over the users' (job, resource) demands per
    step; there are at most about as many steps as jobs, plus one per round.
    """
    if mix not in MIXES:
        raise ValueError(f"mix must be one of {', '.join(MIXES)}")
    exact = any(isinstance(c, Fraction) for c in capacity)
    zero = capacity[0] * 0
    one = zero + 1
    n_users = len(user_jobs)
    chosen = list(range(n_users)) if users is None else list(users)
    levels: list[Any] = [zero] * n_users
    counts: list[Any] = [zero] * len(demands)

    # Units: what grows as one. UDRF: each job that demands something; DRF: a user's jobs together.
    unit_jobs: list[tuple[int, ...]] = []
    unit_user: list[int] = []
    unit_share: list[dict[int, Any]] = []
    for u in chosen:
        jobs = [j for j in user_jobs[u] if demands[j]]
        groups = [(j,) for j in jobs] if mix == "udrf" else ([tuple(jobs)] if jobs else [])
        for group in groups:
            share: dict[int, Any] = {}
            for j in group:
                for r, d in demands[j].items():
                    share[r] = share.get(r, zero) + d / capacity[r]
            unit_jobs.append(group)
            unit_user.append(u)
            unit_share.append(share)
    if not unit_jobs:
        return FillResult(levels=levels, counts=counts, rounds=[])

    # Local indices: resources the units demand, users with units, (user, resource) pairs.
    resources = sorted({r for s in unit_share for r in s})
    res_at = {r: i for i, r in enumerate(resources)}
    members = sorted(set(unit_user))
    member_at = {u: i for i, u in enumerate(members)}
    pair_at: dict[tuple[int, int], int] = {}
    inc_unit, inc_res, inc_pair, inc_share = [], [], [], []
    for k, (u, s) in enumerate(zip(unit_user, unit_share, strict=True)):
        for r, v in s.items():
            p = pair_at.setdefault((member_at[u], res_at[r]), len(pair_at))
            inc_unit.append(k)
            inc_res.append(res_at[r])
            inc_pair.append(p)
            inc_share.append(v)
    n_units, n_res, n_pairs, n_members = len(unit_jobs), len(resources), len(pair_at), len(members)
    pair_user = np.array([m for m, _ in pair_at], dtype=int)
    pair_res = np.array([r for _, r in pair_at], dtype=int)
    i_unit, i_res, i_pair = (np.array(a, dtype=int) for a in (inc_unit, inc_res, inc_pair))
    i_share = _array(inc_share, exact)
    u_of_unit = np.array([member_at[u] for u in unit_user], dtype=int)
    weight = _array([weights[u] for u in members], exact)

    def zeros(n: int) -> np.ndarray:
        return _array([zero] * n, exact)

    def per_pair(mask: np.ndarray) -> np.ndarray:
        """Per (user, resource): the summed shares of the units in ``mask``."""
        out = zeros(n_pairs)
        m = mask[i_unit]
        np.add.at(out, i_pair[m], i_share[m])
        return out

    def per_user_max(values: np.ndarray) -> np.ndarray:
        out = zeros(n_members)
        np.maximum.at(out, pair_user, values)
        return out

    # Eq. 10: each user's dominant demand share over all its jobs.
    d_max = per_user_max(per_pair(np.ones(n_units, dtype=bool)))
    unit_of_job = {j: k for k, jobs in enumerate(unit_jobs) for j in jobs}
    x = zeros(n_units)  # how many times each unit runs
    held = zeros(n_pairs)  # the user's share of the resource
    used = zeros(n_res)  # the resource's share allocated
    full = np.zeros(n_res, dtype=bool)
    active = np.ones(n_members, dtype=bool)
    rounds: list[Round] = []

    def job_counts(u: int) -> list[Any]:
        return [_plain_number(x[unit_of_job[j]] if j in unit_of_job else zero, exact) for j in user_jobs[u]]

    while active.any():
        growing = active[u_of_unit].copy()  # line 08: every job of an active user
        # Line 10: b over the active users' normalised job shares (eq. 11), weighted.
        on = active[pair_user]
        load = zeros(n_res)
        np.add.at(load, pair_res[on], (per_pair(growing) * weight[pair_user] / d_max[pair_user])[on])
        b = one / load.max()
        target = weight[pair_user] * b  # eq. 12: each user's share of any resource at most w_u b
        this = Round(level=zero, saturated_resources=[], saturated_users=[], b=b)
        growing &= ~_stopped(used, held, target, i_unit, i_res, i_pair, exact, n_units)
        while growing.any():
            g = per_pair(growing)
            # Lines 14-15: a user's growing units rise by one multiplier; its most used resource
            # among them (r_u d_u^max) at pace w_u per unit of the filling, every user alike.
            g_max = per_user_max(g)
            has = np.asarray(g_max > 0, dtype=bool)
            pace = np.where(has, weight / np.where(has, g_max, one), zero)
            pair_rate = pace[pair_user] * g
            res_rate = zeros(n_res)
            np.add.at(res_rate, pair_res, pair_rate)
            fills = np.flatnonzero(np.asarray(res_rate > 0, dtype=bool))
            caps = np.flatnonzero(np.asarray(pair_rate > 0, dtype=bool))
            to_fill = (one - used[fills]) / res_rate[fills]
            to_cap = (target[caps] - held[caps]) / pair_rate[caps]
            # Growing units demand something, so some resource's use rises: to_fill is not empty.
            step = max(min(np.min(to_fill), np.min(to_cap)) if to_cap.size else np.min(to_fill), zero)
            x = x + np.where(growing, pace[u_of_unit] * step, zero)
            held = held + pair_rate * step
            used = used + res_rate * step
            if not exact:  # what the step was computed to reach, exactly
                used[fills[to_fill <= step]] = 1.0
                held[caps[to_cap <= step]] = target[caps[to_cap <= step]]
            stop = _stopped(used, held, target, i_unit, i_res, i_pair, exact, n_units) & growing
            # An inner iteration of a user ends when one of its jobs stops (line 19).
            for u in sorted({unit_user[k] for k in np.flatnonzero(stop)}):
                this.iterations.setdefault(u, []).append(job_counts(u))
            growing &= ~stop
        # Lines 25-26: a user with a full resource it demands is saturated.
        now_full = _reached(used, one, exact)
        saturated = np.zeros(n_members, dtype=bool)
        np.logical_or.at(saturated, pair_user, now_full[pair_res])
        saturated &= active
        if not saturated.any():  # every round fills a resource (module docstring); a guard all the same
            saturated = active.copy()
        level_of = per_user_max(held) / weight
        this.level = _plain_number(max(level_of[m] for m in np.flatnonzero(active)), exact)
        this.b = _plain_number(b, exact)
        this.saturated_resources = [resources[r] for r in np.flatnonzero(now_full & ~full)]
        this.saturated_users = [members[m] for m in np.flatnonzero(saturated)]
        rounds.append(this)
        full = now_full
        active &= ~saturated
    level_of = per_user_max(held) / weight
    for m, u in enumerate(members):
        levels[u] = _plain_number(level_of[m], exact)
    for k, group in enumerate(unit_jobs):
        for j in group:
            counts[j] = _plain_number(x[k], exact)
    return FillResult(levels=levels, counts=counts, rounds=rounds)


def _stopped(
    used: np.ndarray, held: np.ndarray, target: np.ndarray, i_unit: np.ndarray, i_res: np.ndarray,
    i_pair: np.ndarray, exact: bool, n_units: int,
) -> np.ndarray:
    """The units on a full resource or on a resource where their user's share reached its level
    (line 19's saturated jobs)."""
    one = 1 if exact else 1.0
    blocked = _reached(used, one, exact)[i_res] | _reached(held, target, exact)[i_pair]
    out = np.zeros(n_units, dtype=bool)
    np.logical_or.at(out, i_unit, blocked)
    return out


def _plain_number(value: Any, exact: bool) -> Any:
    """A Python number: a fraction stays one, numpy floats become ``float``."""
    return value if exact else float(value)
