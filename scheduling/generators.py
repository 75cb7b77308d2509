"""Synthetic workloads: Poisson arrivals, executor sizes, durations, deadlines from ranges, and
optionally a share of network-bound jobs (notes §8).

Every draw comes from ``numpy.random.default_rng(seed)``, so the same arguments always
give the same jobs. Given a cluster's VM types, the generator proposes only executors that
fit a VM type the job's framework may use, and no more executors than those VMs hold at
once. :func:`parse_generator_spec` checks settings that come as JSON (a request, a form),
with the path of each problem.

>>> jobs = synthetic_jobs(jobs=3, arrival_rate_per_s=0.1, seed=7)
>>> [j["id"] for j in jobs], jobs == synthetic_jobs(jobs=3, arrival_rate_per_s=0.1, seed=7)
(['job-0', 'job-1', 'job-2'], True)
>>> small = [{"name": "small", "capacity": {"cpu": 4, "mem": 16}, "count": 2}]
>>> fitted = synthetic_jobs(jobs=50, seed=7, executor={"cpu": (1, 8), "mem": (1, 8)}, vm_types=small)
>>> max(j["executor"]["cpu"] for j in fitted), max(j["executor"]["cpu"] * j["executors"] for j in fitted) <= 8
(4, True)
>>> network = synthetic_jobs(jobs=3, arrival_rate_per_s=0.1, seed=7, network_fraction=1,
...                          network_sensitivity=0.4)
>>> [j.pop("network_sensitivity") for j in network], network == jobs  # the same jobs, network-bound
([0.4, 0.4, 0.4], True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import ScenarioError
from .numbers import seed_error
from .scenario import LIMITS, executors_that_fit, name_problem
from .scenario.checks import Problems, plain, shown

__all__ = ["WorkloadSpec", "generate_jobs", "parse_generator_spec", "synthetic_jobs"]



@dataclass(frozen=True)
class WorkloadSpec:
    """What :func:`generate_jobs` draws from; ranges are inclusive ``(low, high)``."""

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
    # Network-bound jobs (notes §8): this share of the jobs gets this network sensitivity. Drawn
    # after everything else, and only when the share is above 0, so that the same seed gives
    # the same jobs as before with the share at 0.
    network_fraction: float = 0.0
    network_sensitivity: float = 0.0
    frameworks: Sequence[str] = ()
    start_s: float = 0.0
    seed: int = 0


_PAIR_KEYS = ("executors", "duration_s", "deadline_slack")
_SPEC_KEYS = (
    "jobs",
    "arrival_rate_per_s",
    "executors",
    "executor",
    "integer_sizes",
    "duration_s",
    "deadline_fraction",
    "deadline_slack",
    "network_fraction",
    "network_sensitivity",
    "frameworks",
    "start_s",
    "seed",
)


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _pair(value: Any, path: str, problems: Problems, *, integer: bool = False) -> tuple[Any, Any] | None:
    kind = int if integer else int | float
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, kind) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    problems.add(path, f"must be a [low, high] pair of {'integers' if integer else 'numbers'}")
    return None


def parse_generator_spec(data: Any) -> WorkloadSpec:
    """The generator's settings from JSON (pairs as ``[low, high]`` lists), every field checked.

    Keys are :class:`WorkloadSpec`'s fields, all optional (its defaults), ``seed`` included.

    Raises
    ------
    ScenarioError
        Naming each bad setting by its key (``executor.cpu``, ``deadline_fraction``).

    Examples
    --------
    >>> parse_generator_spec({"jobs": 20, "executor": {"cpu": [1, 2]}, "seed": 5}).executor
    {'cpu': (1, 2)}
    >>> try:
    ...     parse_generator_spec({"executors": [3, 1], "colour": "red"})
    ... except ScenarioError as exc:
    ...     print([e.path for e in exc.errors])
    ['colour', 'executors']
    """
    problems = Problems()
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ScenarioError.single("", "the generator's settings must be an object")
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _SPEC_KEYS:
            problems.add(shown(key), f"unknown field (expected one of: {', '.join(sorted(_SPEC_KEYS))})")
        elif key in ("jobs", "seed"):
            if isinstance(value, int) and not isinstance(value, bool):
                values[key] = value
            else:
                problems.add(key, "must be an integer")
        elif key in ("arrival_rate_per_s", "deadline_fraction", "start_s", "network_fraction",
                     "network_sensitivity"):
            if _is_number(value):
                values[key] = float(value)
            else:
                problems.add(key, "must be a number")
        elif key == "integer_sizes":
            if isinstance(value, bool):
                values[key] = value
            else:
                problems.add(key, "must be true or false")
        elif key in _PAIR_KEYS:
            parsed = _pair(value, key, problems, integer=key == "executors")
            if parsed is not None:
                values[key] = parsed
        elif key == "executor":
            ranges = _executor_ranges(value, problems)
            if ranges is not None:
                values[key] = ranges
        elif key == "frameworks":
            if isinstance(value, list) and len(value) <= LIMITS["frameworks"]:
                named = [(i, name_problem(fw)) for i, fw in enumerate(value)]
                for i, problem in named:
                    if problem is not None:
                        problems.add(f"frameworks[{i}]", problem)
                if all(problem is None for _, problem in named):  # names, hence hashable
                    values[key] = tuple(dict.fromkeys(value))
            else:
                problems.add(key, f"must be a list of at most {int(LIMITS['frameworks']):,} framework names")
    spec = WorkloadSpec(**values)  # the values are of their types; their rules are checked below
    _check(spec, problems)
    problems.raise_if_any()
    return spec


def _executor_ranges(value: Any, problems: Problems) -> dict[str, tuple[float, float]] | None:
    if not isinstance(value, Mapping) or not value or len(value) > LIMITS["resources"]:
        problems.add(
            "executor",
            f"must map each of 1 to {int(LIMITS['resources'])} resources to a [low, high] range, "
            '(e.g. {"cpu": [1, 4]})',
        )
        return None
    ranges = {}
    for r, rng in value.items():
        problem = name_problem(r)
        if problem is not None:
            problems.add(f"executor.{shown(r)}", f"is not a resource name: {problem}")
            continue
        parsed = _pair(rng, f"executor.{r}", problems)
        if parsed is not None:
            ranges[r] = parsed
    return ranges


def _check(spec: WorkloadSpec, problems: Problems) -> None:
    """The value rules of the settings, whatever they were read from."""

    def range_ok(
        path: str, lo: float, hi: float, minimum: float, maximum: float, exclusive: bool = False
    ) -> None:
        bad_lo = lo <= minimum if exclusive else lo < minimum
        if not (np.isfinite(lo) and np.isfinite(hi)) or bad_lo or hi < lo:
            op = ">" if exclusive else ">="
            problems.add(path, f"must be a range low..high with low {op} {minimum:g} and high >= low")
        elif hi > maximum:
            problems.add(path, f"must be a range with high <= {maximum:g}")

    if not 1 <= spec.jobs <= LIMITS["jobs"]:
        problems.add("jobs", f"must be between 1 and {int(LIMITS['jobs']):,}")
    if not (np.isfinite(spec.arrival_rate_per_s) and spec.arrival_rate_per_s > 0):
        problems.add("arrival_rate_per_s", "must be > 0")
    range_ok("executors", spec.executors[0], spec.executors[1], 1, LIMITS["executors_per_job"])
    for r, (lo, hi) in spec.executor.items():
        range_ok(f"executor.{r}", lo, hi, 0, LIMITS["capacity"])
    if not any(hi > 0 for lo, hi in spec.executor.values()):
        problems.add("executor", "must demand some resource > 0")
    range_ok("duration_s", spec.duration_s[0], spec.duration_s[1], 0, LIMITS["time_s"], exclusive=True)
    if not 0 <= spec.deadline_fraction <= 1:
        problems.add("deadline_fraction", "must be between 0 and 1")
    range_ok("deadline_slack", spec.deadline_slack[0], spec.deadline_slack[1], 0, 1e6, exclusive=True)
    if not 0 <= spec.network_fraction <= 1:
        problems.add("network_fraction", "must be between 0 and 1")
    if not 0 <= spec.network_sensitivity <= LIMITS["network_sensitivity"]:
        problems.add("network_sensitivity", f"must be between 0 and {LIMITS['network_sensitivity']:g}")
    if not (np.isfinite(spec.start_s) and 0 <= spec.start_s <= LIMITS["time_s"]):
        problems.add("start_s", f"must be between 0 and {LIMITS['time_s']:g}")
    if seed_error(spec.seed) is not None:
        problems.add("seed", str(seed_error(spec.seed)))


# --------------------------------------------------------------------------- fitting a cluster


@dataclass(frozen=True)
class _Host:
    name: str
    capacity: tuple[float, ...]  # in the order of the spec's executor resources
    count: int


class _Fit:
    """The VM types each framework may use, and how to bring an executor onto one of them."""

    def __init__(
        self,
        spec: WorkloadSpec,
        vm_types: Sequence[Mapping[str, Any]],
        allowed_vm_types: Mapping[str, Sequence[str]],
    ) -> None:
        self.resources = list(spec.executor)
        self.integer = spec.integer_sizes
        hosts = [
            _Host(
                str(t["name"]),
                tuple(float(t.get("capacity", {}).get(r, 0)) for r in self.resources),
                int(t.get("count", 1)),
            )
            for t in vm_types
        ]
        if not hosts:
            raise ScenarioError.single("vm_types", "the cluster has no VM types to fit the executors to")
        lows = [math.ceil(lo) if self.integer else lo for lo, _ in spec.executor.values()]
        self.scale = [max(hi - lo, 1.0) for lo, hi in spec.executor.values()]
        #: Per resource, the highest size worth drawing: the range's high, or the largest VM's.
        self.high = {
            r: min(hi, max(h.capacity[k] for h in hosts))
            for k, (r, (_, hi)) in enumerate(spec.executor.items())
        }
        problems = Problems()
        self.hosts: dict[str | None, list[_Host]] = {}
        groups: list[str | None] = list(spec.frameworks) or [None]
        for fw in groups:
            allowed = allowed_vm_types.get(fw) if fw is not None else None
            usable = [h for h in hosts if allowed is None or h.name in allowed]
            fitting = [h for h in usable if all(c >= lo for c, lo in zip(h.capacity, lows, strict=True))]
            if not fitting:
                smallest = ", ".join(f"{lo:g} {r}" for r, lo in zip(self.resources, lows, strict=True))
                whose = f" framework {fw!r} may use" if fw is not None and allowed is not None else ""
                problems.add(
                    "executor",
                    f"the smallest executor of these ranges ({smallest}) "
                    f"fits no VM type{whose} of the cluster",
                )
            self.hosts[fw] = fitting
        problems.raise_if_any()

    def executor(self, framework: str | None, drawn: tuple[float, ...]) -> tuple[float, ...]:
        """``drawn``, or its nearest executor that fits a VM type the framework may use."""
        hosts = self.hosts[framework]
        if any(all(x <= c + 1e-9 for x, c in zip(drawn, h.capacity, strict=True)) for h in hosts):
            return drawn

        def excess(h: _Host) -> float:
            return sum(max(0.0, x - c) / s for x, c, s in zip(drawn, h.capacity, self.scale, strict=True))

        best = min(hosts, key=excess)
        room = [math.floor(c) if self.integer else c for c in best.capacity]
        fitted = [min(x, c) for x, c in zip(drawn, room, strict=True)]
        if not any(v > 0 for v in fitted):  # every range started at 0: demand one unit of the roomiest
            k = max(range(len(room)), key=lambda i: room[i])
            fitted[k] = min(room[k], 1.0)
        return tuple(fitted)

    def executors(self, framework: str | None, executor: tuple[float, ...], drawn: int) -> int:
        """``drawn``, or as many executors as the framework's VM types hold at once."""
        holdable = sum(executors_that_fit(h.capacity, executor) * h.count for h in self.hosts[framework])
        return max(1, min(drawn, holdable))


# --------------------------------------------------------------------------- drawing


def generate_jobs(
    spec: WorkloadSpec,
    *,
    vm_types: Sequence[Mapping[str, Any]] | None = None,
    allowed_vm_types: Mapping[str, Sequence[str]] | None = None,
) -> list[dict[str, Any]]:
    """Draw jobs (scenario-document dicts) from ``spec``, with ``spec.seed``.

    Parameters
    ----------
    spec
        The ranges and the seed.
    vm_types
        Optional: the cluster's VM types as scenario-document entries (``name``,
        ``capacity``, ``count``). Executors are then drawn no larger than the largest VM
        type, one that still fits no VM type the job's framework may use is brought down to
        the nearest one that does, and a job gets no more executors than those VMs hold.
    allowed_vm_types
        Framework name -> the VM types it may use (the workload's ``allowed_vm_types``);
        frameworks not in it may use every VM type.

    Raises
    ------
    ScenarioError
        When the settings break a rule, or no executor of the ranges fits the cluster.

    Examples
    --------
    >>> jobs = generate_jobs(WorkloadSpec(jobs=2, seed=3, executor={"cpu": (1, 2)}))
    >>> [sorted(j["executor"]) for j in jobs]
    [['cpu'], ['cpu']]
    """
    problems = Problems()
    _check(spec, problems)
    problems.raise_if_any()
    fit = _Fit(spec, vm_types, allowed_vm_types or {}) if vm_types is not None else None
    rng = np.random.default_rng(spec.seed)
    n = spec.jobs
    arrivals = spec.start_s + np.cumsum(rng.exponential(1.0 / spec.arrival_rate_per_s, n))
    execs = rng.integers(spec.executors[0], spec.executors[1] + 1, n)
    sizes = {}
    for r, (lo, hi) in spec.executor.items():
        top = fit.high[r] if fit is not None else hi
        if spec.integer_sizes:
            sizes[r] = rng.integers(int(np.ceil(lo)), int(np.floor(top)) + 1, n).astype(float)
        else:
            sizes[r] = np.round(rng.uniform(lo, top, n), 3)
    lo, hi = spec.duration_s
    scale = max((hi - lo) / 3.0, 1e-9)
    durations = np.minimum(lo + rng.exponential(scale, n), hi).round(0 if spec.integer_sizes else 3)
    durations = np.maximum(durations, lo)
    has_deadline = rng.random(n) < spec.deadline_fraction
    slack = rng.uniform(spec.deadline_slack[0], spec.deadline_slack[1], n)
    fws = list(spec.frameworks)
    fw_pick = rng.integers(0, len(fws), n) if fws else None
    # Last, and only when asked for: earlier draws (so the jobs of a seed) are as they were.
    network = rng.random(n) < spec.network_fraction if spec.network_fraction > 0 else np.zeros(n, bool)
    out: list[dict[str, Any]] = []
    for i in range(n):
        executor = {r: float(sizes[r][i]) for r in spec.executor}
        if not any(v > 0 for v in executor.values()):
            first = next(iter(spec.executor))
            executor[first] = float(max(spec.executor[first][1], 1))
        framework = fws[int(fw_pick[i])] if fw_pick is not None else None
        executors = int(execs[i])
        if fit is not None:
            fitted = fit.executor(framework, tuple(executor.values()))
            executor = dict(zip(executor, fitted, strict=True))
            executors = fit.executors(framework, fitted, executors)
        job: dict[str, Any] = {"id": f"job-{i}"}
        if framework is not None:
            job["framework"] = framework
        job.update(
            arrival_s=plain(round(float(arrivals[i]), 3)),
            executors=executors,
            executor={r: plain(v) for r, v in executor.items()},
            duration_s=plain(float(durations[i])),
        )
        if has_deadline[i]:
            job["deadline_s"] = plain(round(float(durations[i] * slack[i]), 3))
        if network[i]:
            job["network_sensitivity"] = plain(spec.network_sensitivity)
        out.append(job)
    return out


def synthetic_jobs(
    seed: int = 0,
    *,
    vm_types: Sequence[Mapping[str, Any]] | None = None,
    allowed_vm_types: Mapping[str, Sequence[str]] | None = None,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """Draw jobs from a :class:`WorkloadSpec` given as keywords (see :func:`generate_jobs`)."""
    return generate_jobs(
        WorkloadSpec(seed=seed, **kwargs), vm_types=vm_types, allowed_vm_types=allowed_vm_types
    )
