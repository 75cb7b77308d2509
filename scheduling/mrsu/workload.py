"""The synthetic workload of paper 002 (Section IV): independent uniform requirements per dimension.

The paper draws every application's requirement in every dimension and slot from a uniform
distribution whose mean sets the data centre's average load as a percentage of capacity; it
gives no bounds or granularity. We settle them (docs/mrsu.md): requirements are whole
multiples of a per-dimension ``grain`` (1 core, 4 GB, 50 GB, 10 Mbps by default), drawn
uniformly in ``m (1 +- spread)`` grains around the mean ``m = load * C_d / (N * grain_d)``, so
the applications' mean total is ``load`` times the capacity; priorities are uniform in
``[0.1, 1]``. The same seed draws the same uniforms at every load (common random numbers), so
a sweep's curves differ between loads only by the load.

>>> p = synthetic_workload(load=0.5, applications=4, slots=3, seed=1)
>>> p.requirements.shape, p.dimensions
((4, 3, 4), ('cpu', 'mem', 'disk', 'net'))
>>> bool((p.requirements % np.array([1, 4, 50, 10]) == 0).all())
True
>>> again = synthetic_workload(load=0.5, applications=4, slots=3, seed=1)
>>> again.requirements.tolist() == p.requirements.tolist()
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from ..errors import ScenarioError
from .model import MrsuProblem

__all__ = ["DEFAULT_CAPACITY", "DEFAULT_GRAIN", "DEFAULT_SPREAD", "batch_workload", "synthetic_workload"]

#: Capacity of the default data centre: 10,000 grains in every dimension.
DEFAULT_CAPACITY: dict[str, int] = {"cpu": 10_000, "mem": 40_000, "disk": 500_000, "net": 100_000}
#: Granularity of requirements: cores, blocks of 4 GB RAM, 50 GB disk, 10 Mbps.
DEFAULT_GRAIN: dict[str, int] = {"cpu": 1, "mem": 4, "disk": 50, "net": 10}
DEFAULT_SPREAD = 0.5


def _check(
    load: float,
    applications: int,
    slots: int,
    spread: float,
    cap: Mapping[str, int],
    grain: Mapping[str, int],
) -> None:
    problems = []
    if not (isinstance(load, int | float) and 0 < load <= 10):
        problems.append(("load", "must be in (0, 10] (a fraction of capacity)"))
    if applications < 1:
        problems.append(("applications", "must be at least 1"))
    if slots < 1:
        problems.append(("slots", "must be at least 1"))
    if not 0 <= spread <= 1:
        problems.append(("spread", "must be in [0, 1]"))
    for d, c in cap.items():
        g = grain.get(d, 1)
        if g < 1 or c < 1 or c % g:
            problems.append((f"capacity.{d}", f"must be a positive multiple of its grain {g}"))
    if problems:
        from ..errors import FieldError

        raise ScenarioError([FieldError(p, m) for p, m in problems])


def batch_workload(
    loads: Sequence[float],
    seeds: Sequence[int],
    *,
    applications: int = 50,
    slots: int = 30,
    capacity: Mapping[str, int] | None = None,
    grain: Mapping[str, int] | None = None,
    spread: float = DEFAULT_SPREAD,
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Requirements ``(L, B, N, S, D)`` and priorities ``(B, N)`` for every load and seed.

    Seed ``s`` draws with ``numpy.random.default_rng(s)``: its priorities first, then the
    ``N x S x D`` uniforms, the same at every load.
    """
    cap = dict(DEFAULT_CAPACITY if capacity is None else capacity)
    gr = {d: int((grain or DEFAULT_GRAIN).get(d, 1)) for d in cap}
    for load in loads:
        _check(load, applications, slots, spread, cap, gr)
    g = np.array([gr[d] for d in cap], dtype=np.int64)
    c_grains = np.array([cap[d] for d in cap], dtype=np.float64) / g
    prios = np.empty((len(seeds), applications))
    u = np.empty((len(seeds), applications, slots, len(cap)))
    for k, seed in enumerate(seeds):
        rng = np.random.default_rng(seed)
        prios[k] = rng.uniform(0.1, 1.0, applications)
        u[k] = rng.uniform(-1.0, 1.0, (applications, slots, len(cap)))
    out = np.empty((len(loads), len(seeds), applications, slots, len(cap)), dtype=np.int64)
    for i, load in enumerate(loads):
        mean = load * c_grains / applications  # grains
        out[i] = np.rint(mean * (1.0 + spread * u)).astype(np.int64) * g
    return out, prios


def synthetic_workload(
    *,
    load: float,
    applications: int = 50,
    slots: int = 30,
    seed: int = 0,
    capacity: Mapping[str, int] | None = None,
    grain: Mapping[str, int] | None = None,
    spread: float = DEFAULT_SPREAD,
) -> MrsuProblem:
    """One seeded workload at ``load`` (a fraction: 0.5 is 50 % of capacity) as an :class:`MrsuProblem`."""
    cap = dict(DEFAULT_CAPACITY if capacity is None else capacity)
    req, prios = batch_workload(
        [load], [seed], applications=applications, slots=slots, capacity=cap, grain=grain, spread=spread
    )
    return MrsuProblem(
        dimensions=tuple(cap),
        capacity=np.array(list(cap.values()), dtype=np.int64),
        names=tuple(f"app{n + 1}" for n in range(applications)),
        priorities=prios[0],
        requirements=req[0, 0],
    )
