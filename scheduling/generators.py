"""Synthetic workloads: Poisson arrivals, executor sizes, durations and deadlines from ranges.

Every draw comes from ``numpy.random.default_rng(seed)``, so the same arguments always
give the same jobs.

>>> jobs = synthetic_jobs(jobs=3, arrival_rate_per_s=0.1, seed=7)
>>> [j["id"] for j in jobs], jobs == synthetic_jobs(jobs=3, arrival_rate_per_s=0.1, seed=7)
(['job-0', 'job-1', 'job-2'], True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import FieldError, ScenarioError


@dataclass(frozen=True)
class WorkloadSpec:
    """What :func:`synthetic_jobs` draws from; ranges are inclusive ``(low, high)``."""

    jobs: int = 100
    arrival_rate_per_s: float = 0.05  # Poisson process: exponential gaps with this rate
    executors: tuple[int, int] = (1, 8)
    executor: Mapping[str, tuple[float, float]] = field(
        default_factory=lambda: {"cpu": (1, 6), "mem": (2, 12)}
    )
    integer_sizes: bool = True
    duration_s: tuple[float, float] = (10, 300)  # 10 s + exponential, truncated (as RM-Simulator)
    deadline_fraction: float = 0.5  # share of jobs that get a deadline
    deadline_slack: tuple[float, float] = (1.2, 3.0)  # deadline = duration x slack
    frameworks: Sequence[str] = ()
    start_s: float = 0.0


def _check(spec: WorkloadSpec) -> None:
    errs: list[FieldError] = []

    def rng_ok(path: str, lo: float, hi: float, minimum: float, exclusive: bool = False) -> None:
        bad_lo = lo <= minimum if exclusive else lo < minimum
        if not (np.isfinite(lo) and np.isfinite(hi)) or bad_lo or hi < lo:
            op = ">" if exclusive else ">="
            errs.append(FieldError(path, f"must be a range low..high with low {op} {minimum:g} and high >= low"))

    if not 1 <= spec.jobs <= 200_000:
        errs.append(FieldError("jobs", "must be between 1 and 200,000"))
    if not (np.isfinite(spec.arrival_rate_per_s) and spec.arrival_rate_per_s > 0):
        errs.append(FieldError("arrival_rate_per_s", "must be > 0"))
    rng_ok("executors", spec.executors[0], spec.executors[1], 1)
    for r, (lo, hi) in spec.executor.items():
        rng_ok(f"executor.{r}", lo, hi, 0)
    if not any(hi > 0 for lo, hi in spec.executor.values()):
        errs.append(FieldError("executor", "must demand some resource > 0"))
    rng_ok("duration_s", spec.duration_s[0], spec.duration_s[1], 0, exclusive=True)
    if not 0 <= spec.deadline_fraction <= 1:
        errs.append(FieldError("deadline_fraction", "must be between 0 and 1"))
    rng_ok("deadline_slack", spec.deadline_slack[0], spec.deadline_slack[1], 0, exclusive=True)
    if errs:
        raise ScenarioError(errs)


def synthetic_jobs(seed: int = 0, **kwargs: Any) -> list[dict[str, Any]]:
    """Draw jobs (scenario-document dicts) from a :class:`WorkloadSpec` given as keywords."""
    spec = WorkloadSpec(**kwargs)
    _check(spec)
    rng = np.random.default_rng(seed)
    n = spec.jobs
    arrivals = spec.start_s + np.cumsum(rng.exponential(1.0 / spec.arrival_rate_per_s, n))
    execs = rng.integers(spec.executors[0], spec.executors[1] + 1, n)
    sizes = {}
    for r, (lo, hi) in spec.executor.items():
        if spec.integer_sizes:
            sizes[r] = rng.integers(int(np.ceil(lo)), int(np.floor(hi)) + 1, n).astype(float)
        else:
            sizes[r] = np.round(rng.uniform(lo, hi, n), 3)
    lo, hi = spec.duration_s
    scale = max((hi - lo) / 3.0, 1e-9)
    durations = np.minimum(lo + rng.exponential(scale, n), hi).round(0 if spec.integer_sizes else 3)
    durations = np.maximum(durations, lo)
    has_deadline = rng.random(n) < spec.deadline_fraction
    slack = rng.uniform(spec.deadline_slack[0], spec.deadline_slack[1], n)
    fws = list(spec.frameworks)
    fw_pick = rng.integers(0, len(fws), n) if fws else None
    out: list[dict[str, Any]] = []
    for i in range(n):
        executor = {r: _plain(sizes[r][i]) for r in spec.executor}
        if not any(v > 0 for v in executor.values()):
            first = next(iter(spec.executor))
            executor[first] = _plain(max(spec.executor[first][1], 1))
        job: dict[str, Any] = {"id": f"job-{i}"}
        if fw_pick is not None:
            job["framework"] = fws[int(fw_pick[i])]
        job.update(
            arrival_s=_plain(round(float(arrivals[i]), 3)),
            executors=int(execs[i]),
            executor=executor,
            duration_s=_plain(float(durations[i])),
        )
        if has_deadline[i]:
            job["deadline_s"] = _plain(round(float(durations[i] * slack[i]), 3))
        out.append(job)
    return out


def _plain(x: float) -> int | float:
    x = float(x)
    return int(x) if x.is_integer() else x
