"""A synthetic trace with the shape of paper 004's evaluation (§V, Figs. 6-8).

Paper 004 drives its simulations with the Google cluster trace: 580 users, 700 machine classes,
users with several jobs, about 65 % of jobs needing one or two machine classes (Fig. 8), users
with many jobs needing a wide range of classes, a handful of RDUCs (one to eight, Fig. 7),
running times drawn between 10 and 100 s, and a number of times to run drawn per job. This
module draws a version-3 scenario with that shape:

* classes of varied machines (cpu 8-64, memory 2-8 GB per cpu, any other kind 8-64) and
  machine counts (1-8, most small), cut into ``groups`` disjoint sets: a user prefers classes of
  one group only, so the RDUCs are at most the groups (a handful);
* users' job counts skewed (Zipf weights, every user at least one job); a user prefers a few
  classes of its group, more of them the more jobs it has: always the group's most popular
  class, then others by popularity (so some classes are contended and a group is about one
  RDUC);
* a job needs 1-6 of its user's classes (:data:`CLASS_COUNT_WEIGHTS`: 65 % need one or two),
  one task per class, ``count`` 1-4 (mostly 1), each task's demand a fraction of one machine
  of the class, never more than the class holds;
* durations uniform in whole seconds over ``duration_s``; runs 1 with probability 0.35, else
  log-uniform up to ``max_runs``; arrivals uniform in whole seconds over ``arrival_span_s``.

Every draw comes from ``numpy.random.default_rng(seed)``.

>>> doc = synthetic_document(users=5, jobs=12, classes=6, seed=1)
>>> doc["version"], len(doc["vm_types"]), sum(len(f["complex_jobs"]) for f in doc["frameworks"])
(3, 6, 12)
>>> synthetic_document(users=5, jobs=12, classes=6, seed=1) == doc
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import FieldError, ScenarioError
from ..numbers import SEED_MAX
from ..scenario import Scenario, parse_scenario

__all__ = [
    "CLASS_COUNT_WEIGHTS", "SYNTHETIC_LIMITS", "check_synthetic", "synthetic_document", "synthetic_scenario",
]

#: The largest trace :func:`synthetic_document` draws (within the scenario's own limits).
SYNTHETIC_LIMITS = {
    "users": 1_000, "jobs": 200_000, "classes": 1_000, "max_runs": 1_000_000, "seed": SEED_MAX,
}


def check_synthetic(
    *, users: Any, jobs: Any, classes: Any, max_runs: Any, seed: Any, paths: dict[str, str] | None = None
) -> list[FieldError]:
    """The errors of a synthetic trace's sizes, each on its path (``paths`` renames them: the
    command line's ``--max-runs``); one rule for every caller.

    >>> for e in check_synthetic(users=10, jobs=5, classes=0, max_runs=10**9, seed=-1):
    ...     print(e)
    jobs: must be >= users (10): every user has a job
    classes: must be a whole number from 1 to 1,000
    max_runs: must be a whole number from 1 to 1,000,000
    seed: must be a whole number from 0 to 9,223,372,036,854,775,807
    """
    at = paths or {}
    errors = []
    for key, value in (("users", users), ("jobs", jobs), ("classes", classes), ("max_runs", max_runs),
                       ("seed", seed)):
        low, top = (0 if key == "seed" else 1), SYNTHETIC_LIMITS[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
            errors.append(FieldError(at.get(key, key), f"must be a whole number from {low} to {top:,}"))
        elif key == "jobs" and isinstance(users, int) and value < users:
            users_at = at.get("users", "users")
            message = f"must be >= {users_at} ({users}): every user has a job"
            errors.append(FieldError(at.get(key, key), message))
    return errors


#: Probability that a job needs 1, 2, ... 6 machine classes (Fig. 8: ~65 % need one or two).
CLASS_COUNT_WEIGHTS = (0.42, 0.23, 0.13, 0.10, 0.07, 0.05)
#: Probability that a task is 1, 2, 3 or 4 copies.
TASK_COUNT_WEIGHTS = (0.55, 0.25, 0.12, 0.08)


def synthetic_document(
    *,
    users: int = 50,
    jobs: int = 200,
    classes: int = 20,
    kinds: Sequence[str] = ("cpu", "mem"),
    seed: int = 0,
    groups: int | None = None,
    max_runs: int = 20,
    duration_s: tuple[int, int] = (10, 100),
    arrival_span_s: float | None = None,
    demand_fraction: tuple[float, float] = (0.1, 0.6),
    breadth_noise: float | None = 1.0,
) -> dict[str, Any]:
    """A version-3 scenario document with the shape of paper 004's trace.

    Parameters
    ----------
    users, jobs, classes : int
        How many users, complex jobs (at least one per user) and machine classes.
    kinds : sequence of str
        The resource kinds; ``cpu`` and ``mem`` are drawn as machines are (memory per cpu).
    seed : int
        Seeds every draw.
    groups : int, optional
        Disjoint sets of classes users prefer (an upper bound on the RDUCs); by default
        ``min(6, max(1, classes // 4))``.
    max_runs : int, default 20
        The most times a job must run.
    duration_s : (int, int), default (10, 100)
        A run's duration, uniform in whole seconds (paper 004 §V).
    arrival_span_s : float, optional
        Arrivals are uniform over ``[0, arrival_span_s)``; by default 6 s per job.
    demand_fraction : (float, float), default (0.1, 0.6)
        A task's demand of each kind, as a fraction of one machine of its class.
    breadth_noise : float or None, default 1.0
        How loosely a job's number of classes follows its user's number of jobs ("users
        requesting to execute a large number of jobs often have demands on a wide range of
        machine classes", §V): the class counts drawn for all jobs are handed out in the order
        of log(jobs of the user) plus this much Gaussian noise; ``None`` hands them out at
        random. Either way the counts' distribution is :data:`CLASS_COUNT_WEIGHTS`.

    Returns
    -------
    dict
        The document, ready for :func:`scheduling.scenario.parse_scenario`.

    Raises
    ------
    ScenarioError
        If ``jobs < users``, a size is out of :data:`SYNTHETIC_LIMITS`, or no kind is given.
    """
    errors = check_synthetic(users=users, jobs=jobs, classes=classes, max_runs=max_runs, seed=seed)
    if not kinds:
        errors.append(FieldError("kinds", "at least one resource kind"))
    if errors:
        raise ScenarioError(errors)
    rng = np.random.default_rng(seed)
    kinds = tuple(kinds)
    n_groups = groups if groups is not None else min(6, max(1, classes // 4))
    n_groups = max(1, min(n_groups, classes))

    # Classes: one VM type each, varied machines and counts.
    machine: list[dict[str, float]] = []
    counts: list[int] = []
    vm_types = []
    for c in range(classes):
        cpu = float(rng.choice([8, 16, 32, 64]))
        cap = {}
        for k in kinds:
            if k == "cpu":
                cap[k] = cpu
            elif k == "mem":
                cap[k] = cpu * float(rng.choice([2, 4, 8]))
            else:
                cap[k] = float(rng.choice([8, 16, 32, 64]))
        count = int(min(8, 1 + rng.geometric(0.35) - 1))
        machine.append(cap)
        counts.append(count)
        vm_types.append({"name": f"mc{c:03d}-node", "machine_class": f"mc{c:03d}",
                         "capacity": cap, "price_per_hour": 0, "count": count})
    order = rng.permutation(classes)
    group_classes = [sorted(int(c) for c in order[g::n_groups]) for g in range(n_groups)]
    # Within a group, classes are popular in Zipf order (a random one first).
    popularity = [rng.permutation(gc) for gc in group_classes]

    # Users: skewed job counts, a group each (some groups busier), preferred classes.
    zipf = 1.0 / np.arange(1, users + 1) ** 0.9
    weights = rng.permutation(zipf / zipf.sum())
    per_user = np.ones(users, dtype=int) + rng.multinomial(jobs - users, weights)
    group_weights = rng.dirichlet(np.full(n_groups, 2.0))
    user_group = rng.choice(n_groups, size=users, p=group_weights)

    # Classes per job: drawn for all jobs, then handed out by the user's breadth.
    job_user = np.repeat(np.arange(users), per_user)
    drawn = np.sort(1 + rng.choice(len(CLASS_COUNT_WEIGHTS), size=jobs, p=CLASS_COUNT_WEIGHTS))
    if breadth_noise is None:
        key = rng.random(jobs)
    else:
        key = np.log(per_user[job_user]) + breadth_noise * rng.standard_normal(jobs)
    job_classes = np.empty(jobs, dtype=int)
    job_classes[np.argsort(key, kind="stable")] = drawn
    first_job = np.concatenate(([0], np.cumsum(per_user)[:-1]))

    duration_lo, duration_hi = duration_s
    span = float(arrival_span_s) if arrival_span_s is not None else 6.0 * jobs
    frameworks = []
    for u in range(users):
        pop = popularity[int(user_group[u])]
        mine = job_classes[first_job[u]:first_job[u] + per_user[u]]
        size = min(len(pop), max(3, 2 + int(2 * math.log2(1 + int(per_user[u]))), int(mine.max())))
        p = 1.0 / np.arange(1, len(pop) + 1) ** 1.1
        # The group's most popular class first: most users touch it, so a group is about one RDUC.
        prefer = [int(pop[0])]
        if size > 1:
            rest = rng.choice(pop[1:], size=size - 1, replace=False, p=p[1:] / p[1:].sum())
            prefer += [int(c) for c in rest]
        near = 1.0 / np.arange(1, size + 1)  # a job picks its user's first-preferred classes more often
        complex_jobs = []
        for i in range(int(per_user[u])):
            n_classes = min(size, int(mine[i]))
            chosen = rng.choice(prefer, size=n_classes, replace=False, p=near / near.sum())
            tasks = []
            for c in (int(x) for x in chosen):
                count = 1 + int(rng.choice(len(TASK_COUNT_WEIGHTS), p=TASK_COUNT_WEIGHTS))
                top = min(demand_fraction[1], counts[c] / count)  # one run fits its class
                demand = {}
                for k in kinds:
                    frac = float(rng.uniform(demand_fraction[0], max(demand_fraction[0], top)))
                    demand[k] = max(0.1, math.floor(frac * machine[c][k] * 10) / 10)
                tasks.append({"machine_class": f"mc{c:03d}", "demand": demand, "count": count})
            runs = 1 if rng.random() < 0.35 else int(math.exp(rng.uniform(0, math.log(max_runs + 1))))
            complex_jobs.append({
                "id": f"j{i}", "tasks": tasks, "runs": max(1, min(max_runs, runs)),
                "duration_s": int(rng.integers(duration_lo, duration_hi + 1)),
                "arrival_s": int(rng.integers(0, max(1, int(span)))),
            })
        frameworks.append({"name": f"user{u:03d}", "complex_jobs": complex_jobs})
    return {
        "version": 3,
        "name": f"UDRF synthetic trace ({users} users, {jobs} jobs, {classes} classes, seed {seed})",
        "description": "Drawn by scheduling.udrf.synthetic with the shape of paper 004's Google-trace "
                       "evaluation (§V): skewed jobs per user, 65% of jobs on one or two machine "
                       "classes, runs of 10-100 s, a handful of RDUCs.",
        "resources": list(kinds),
        "vm_types": vm_types,
        "frameworks": frameworks,
    }


def synthetic_scenario(
    *,
    users: int = 50,
    jobs: int = 200,
    classes: int = 20,
    kinds: Sequence[str] = ("cpu", "mem"),
    seed: int = 0,
    **options: Any,
) -> Scenario:
    """:func:`synthetic_document` parsed and validated (the same arguments).

    >>> s = synthetic_scenario(users=4, jobs=10, classes=5, seed=3)
    >>> len(s.class_capacity()), sum(len(f.complex_jobs) for f in s.frameworks)
    (5, 10)
    """
    return parse_scenario(synthetic_document(users=users, jobs=jobs, classes=classes, kinds=kinds,
                                             seed=seed, **options))
