"""The sweep of paper 002's Figs. 3-5: load from 10 % to 125 % of capacity, many seeds, four methods.

For every load and seed, :func:`~scheduling.mrsu.workload.batch_workload` draws a workload;
MRSU-FT and MRSU-ID (each by GCD and by MIN), VM-static and optimal allocate it; the curves
are the means over seeds of the over- and under-allocated parts of the misallocation
coefficient (the over-allocated part counted where some application is short, as the paper
counts it, and in every cell as ``over_every_cell``), of the percentage of dissatisfied
applications (short in some slot: Fig. 5) and of the percentage of application-slots not
fully served. All seeds of a load are allocated at once (numpy, batched), so 12 loads x 100
seeds takes seconds.

>>> doc = mrsu_sweep(loads=[0.5, 1.2], seeds=2, applications=5, slots=4)
>>> sorted(doc["curves"]), sorted(doc["curves"]["gcd"])
(['gcd', 'min'], ['mrsu-ft', 'mrsu-id', 'optimal', 'vm-scaled', 'vm-static'])
>>> doc["curves"]["gcd"]["optimal"]["under"][0], doc["curves"]["gcd"]["optimal"]["over"]
(0.0, [0.0, 0.0])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import FieldError, ScenarioError
from .allocate import optimal_allocation, vm_scaled_allocation, vm_static_allocation, weighted_fair, windows
from .compose import COMPOSITIONS, Composition, Mode, compose, units_available, units_needed
from .metrics import contended, dissatisfied, misallocation, misallocation_parts
from .workload import DEFAULT_CAPACITY, DEFAULT_GRAIN, DEFAULT_SPREAD, batch_workload

__all__ = [
    "CHUNK_CELLS",
    "DEFAULT_LOADS",
    "METHODS",
    "METRICS",
    "batch_mrsu",
    "combine_sweeps",
    "merge_chunks",
    "mrsu_sweep",
    "seed_chunks",
    "sweep_chunk",
    "sweep_load",
]

#: The 12 load points (fractions of capacity) of the default sweep, 10 % to 125 %.
DEFAULT_LOADS: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25)
METHODS: tuple[str, ...] = ("mrsu-ft", "mrsu-id", "vm-static", "optimal", "vm-scaled")
#: The curves' metrics: ``over`` (the over-allocated part of rho where some application is short,
#: paper 002 §IV-B), ``under``, ``dissatisfied_pct`` (application-slots short),
#: ``dissatisfied_apps_pct`` (applications short in some slot: Fig. 5's measure) and
#: ``over_every_cell`` (the over-allocated part counted in every cell; sweeps before issue 17
#: called it ``over``).
METRICS: tuple[str, ...] = ("over", "under", "dissatisfied_pct", "dissatisfied_apps_pct", "over_every_cell")

Progress = Callable[[float], None]


def batch_mrsu(
    req: NDArray[np.int64],
    prios: NDArray[np.float64],
    capacity: NDArray[np.int64],
    composition: Composition,
    mode: Mode,
    slots_valid: int | None = None,
) -> NDArray[np.int64]:
    """MRSU allocation of a batch of workloads ``(B, N, S, D)`` (priorities ``(B, N)``), in resources."""
    b, _, s, d = req.shape
    out = np.zeros_like(req)
    for a, e in windows(s, slots_valid):
        chunk = req[:, :, a:e]
        unit = compose(chunk.reshape(b, -1, d), capacity, composition)  # (B, D)
        x = units_available(unit, capacity, mode)  # (B,) or (B, D)
        need = units_needed(chunk, unit[:, None, None, :], mode)
        if mode == "ft":
            got = weighted_fair(
                need.transpose(0, 2, 1), prios[:, None, :], np.broadcast_to(x[:, None], (b, e - a))
            )
            out[:, :, a:e] = got.transpose(0, 2, 1)[..., None] * unit[:, None, None, :]
        else:
            got = weighted_fair(
                need.transpose(0, 2, 3, 1),
                prios[:, None, None, :],
                np.broadcast_to(x[:, None, :], (b, e - a, d)),
            )
            out[:, :, a:e] = got.transpose(0, 3, 1, 2) * unit[:, None, None, :]
    return out


#: Per metric, one value per seed of a chunk: ``{composition: {method: {metric: (B,) array}}}``.
SeedValues = dict[str, dict[str, dict[str, NDArray[np.float64]]]]
#: ``{composition: {method: {metric: (mean, std over seeds)}}}``.
LoadStats = dict[str, dict[str, dict[str, tuple[float, float]]]]

#: Workload cells (seeds x applications x slots x dimensions) allocated in one batch. Seeds go
#: in chunks of this size so that the sweep reports progress (and can be stopped) several
#: times per load point and its memory stays flat; numpy batching pays fully well below it
#: (the paper's set-up: 10 seeds a chunk, 10 chunks a load, no slower than one batch of 100;
#: benchmarks/mrsu.py). Results do not depend on it: every seed is allocated on its own.
CHUNK_CELLS = 64_000


def _per_seed(allocated: NDArray[Any], req: NDArray[np.int64]) -> dict[str, NDArray[np.float64]]:
    rho = misallocation(allocated, req)
    over, under = misallocation_parts(rho, contended=contended(allocated, req))
    every, _ = misallocation_parts(rho)
    short = dissatisfied(allocated, req)  # (B, N, S)
    return {
        "over": np.asarray(over, dtype=np.float64),
        "under": np.asarray(under, dtype=np.float64),
        "dissatisfied_pct": 100.0 * short.mean(axis=(-2, -1)),
        "dissatisfied_apps_pct": 100.0 * short.any(axis=-1).mean(axis=-1),
        "over_every_cell": np.asarray(every, dtype=np.float64),
    }


def seed_chunks(seeds: Sequence[int], applications: int, slots: int, dimensions: int) -> list[list[int]]:
    """``seeds`` in chunks of at most :data:`CHUNK_CELLS` workload cells (at least one seed each).

    >>> [len(c) for c in seed_chunks(range(100), 50, 30, 4)]
    [10, 10, 10, 10, 10, 10, 10, 10, 10, 10]
    >>> seed_chunks([7, 8], 1000, 100, 4)
    [[7], [8]]
    """
    size = max(1, CHUNK_CELLS // max(1, applications * slots * dimensions))
    seeds = list(seeds)
    return [seeds[k : k + size] for k in range(0, len(seeds), size)]


def sweep_chunk(
    load: float,
    seeds: Sequence[int],
    *,
    applications: int = 50,
    slots: int = 30,
    capacity: Mapping[str, int] | None = None,
    grain: Mapping[str, int] | None = None,
    spread: float = DEFAULT_SPREAD,
    slots_valid: int | None = None,
) -> SeedValues:
    """One load point for a few seeds, allocated in one batch: every metric per seed."""
    cap_map = dict(DEFAULT_CAPACITY if capacity is None else capacity)
    cap = np.array(list(cap_map.values()), dtype=np.int64)
    reqs, prios = batch_workload(
        [load], seeds, applications=applications, slots=slots, capacity=cap_map, grain=grain, spread=spread
    )
    req = reqs[0]
    shared = {
        "vm-static": _per_seed(vm_static_allocation_batch(req, cap, prios), req),
        "optimal": _per_seed(optimal_allocation(req, cap), req),
        "vm-scaled": _per_seed(vm_scaled_allocation(req, cap), req),
    }
    out: SeedValues = {}
    for comp in COMPOSITIONS:
        out[comp] = {
            "mrsu-ft": _per_seed(batch_mrsu(req, prios, cap, comp, "ft", slots_valid), req),
            "mrsu-id": _per_seed(batch_mrsu(req, prios, cap, comp, "id", slots_valid), req),
            **shared,
        }
    return out


def merge_chunks(parts: Sequence[SeedValues]) -> LoadStats:
    """The mean and standard deviation over every seed of a load point's chunks."""
    return {
        comp: {
            method: {
                metric: (float(v.mean()), float(v.std()))
                for metric in METRICS
                for v in [np.concatenate([p[comp][method][metric] for p in parts])]
            }
            for method in methods
        }
        for comp, methods in parts[0].items()
    }


def sweep_load(
    load: float,
    seeds: Sequence[int],
    *,
    applications: int = 50,
    slots: int = 30,
    capacity: Mapping[str, int] | None = None,
    grain: Mapping[str, int] | None = None,
    spread: float = DEFAULT_SPREAD,
    slots_valid: int | None = None,
    progress: Progress | None = None,
) -> LoadStats:
    """One load point: ``{composition: {method: {metric: (mean, std over seeds)}}}``.

    The seeds are allocated in chunks (:func:`seed_chunks`); ``progress`` gets the fraction
    of the load point done after each and may raise to stop.
    """
    kw: dict[str, Any] = dict(
        applications=applications, slots=slots, capacity=capacity, grain=grain, spread=spread,
        slots_valid=slots_valid,
    )
    dims = len(DEFAULT_CAPACITY if capacity is None else capacity)
    chunks = seed_chunks(seeds, applications, slots, dims)
    parts = []
    for k, chunk in enumerate(chunks):
        parts.append(sweep_chunk(load, chunk, **kw))
        if progress is not None:
            progress((k + 1) / len(chunks))
    return merge_chunks(parts)


def vm_static_allocation_batch(
    req: NDArray[np.int64], capacity: NDArray[np.int64], prios: NDArray[np.float64]
) -> NDArray[np.int64]:
    """:func:`~scheduling.mrsu.allocate.vm_static_allocation` with different priorities per workload."""
    out = np.empty_like(req)
    # Put every workload's applications in its own priority order, allocate, and put them back.
    order = np.argsort(-prios, axis=1, kind="stable")
    inv = np.argsort(order, axis=1)
    ranked = np.take_along_axis(req, order[:, :, None, None], axis=1)
    got = vm_static_allocation(ranked, capacity, -np.arange(req.shape[1], dtype=np.float64))
    out[:] = np.take_along_axis(got, inv[:, :, None, None], axis=1)
    return out


def parse_loads(items: str | Sequence[str], *, path: str = "loads") -> list[float]:
    """Loads typed as percentages of capacity (``"50 80 110%"``, commas or spaces between, a
    ``%`` allowed) as fractions; one rule for the command line and the planner's page.

    >>> parse_loads("10, 50 125%")
    [0.1, 0.5, 1.25]
    >>> parse_loads(["50", "abc"], path="--loads")
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: --loads[1]: 'abc' is not a number (percentages of capacity, e.g. 50)
    """
    text = items if isinstance(items, str) else " ".join(items)
    out: list[float] = []
    errors = []
    for i, part in enumerate(text.replace(",", " ").split()):
        try:
            value = float(part.rstrip("%"))
        except ValueError:
            errors.append(
                FieldError(f"{path}[{i}]", f"{part!r} is not a number (percentages of capacity, e.g. 50)")
            )
            continue
        if not (math.isfinite(value) and 0 < value <= 1000):
            errors.append(FieldError(f"{path}[{i}]", "must be a percentage of capacity in (0, 1000]"))
            continue
        out.append(round(value / 100, 12))
    if errors:
        raise ScenarioError(errors)
    return out


def _check(
    loads: Sequence[float], seeds: int, applications: int, slots: int, workers: int, spread: float,
    slots_valid: int | None,
) -> None:
    errors = []
    if not math.isfinite(spread) or not 0 <= spread <= 1:
        errors.append(FieldError("spread", "must be in [0, 1]: requirements uniform in mean x (1 +- spread)"))
    if slots_valid is not None and not 1 <= slots_valid <= 10_000:
        errors.append(FieldError("slots_valid", "must be 1..10000 slots, or none (one MRSU for the horizon)"))
    if not loads:
        errors.append(FieldError("loads", "at least one load"))
    for i, load in enumerate(loads):
        if not 0 < load <= 10:
            errors.append(
                FieldError(f"loads[{i}]", "must be in (0, 10] (a fraction of capacity: 0.5 is 50 %)")
            )
    for name, v, hi in (
        ("seeds", seeds, 100_000),
        ("applications", applications, 10_000),
        ("slots", slots, 10_000),
        ("workers", workers, 256),
    ):
        if not 1 <= v <= hi:
            errors.append(FieldError(name, f"must be in 1..{hi}"))
    if errors:
        raise ScenarioError(errors)


def mrsu_sweep(
    *,
    loads: Sequence[float] = DEFAULT_LOADS,
    seeds: int = 100,
    applications: int = 50,
    slots: int = 30,
    seed: int = 0,
    capacity: Mapping[str, int] | None = None,
    grain: Mapping[str, int] | None = None,
    spread: float = DEFAULT_SPREAD,
    slots_valid: int | None = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run the sweep and return its document (docs/mrsu.md, "Sweep document").

    Parameters
    ----------
    loads : sequence of float
        Average loads as fractions of capacity (default 10 % ... 125 %, 12 points).
    seeds : int
        Workloads per load; seed ``k`` is ``seed + k``, the same at every load.
    workers : int
        Processes; the chunks of seeds of every load point are shared out between them.
    progress : callable, optional
        Called with the fraction done after every chunk of seeds (:func:`seed_chunks`: ten a
        load point in the paper's set-up); it may raise to stop the sweep (the exception
        propagates, so a Celery task can cancel it).

    Costs: ``len(loads) x seeds`` workloads of ``applications x slots x dimensions``; the
    default (12 x 100 x 50 x 30 x 4) takes a few seconds on one worker (benchmarks/mrsu.py).
    """
    loads = [float(x) for x in loads]
    _check(loads, seeds, applications, slots, workers, float(spread), slots_valid)
    seed_list = [seed + k for k in range(seeds)]
    cap_map = dict(DEFAULT_CAPACITY if capacity is None else capacity)
    kw: dict[str, Any] = dict(
        applications=applications,
        slots=slots,
        capacity=cap_map,
        grain=grain,
        spread=spread,
        slots_valid=slots_valid,
    )
    results: list[LoadStats] = []
    if workers == 1:
        for i, load in enumerate(loads):
            report = None if progress is None else (lambda f, i=i: progress((i + f) / len(loads)))
            results.append(sweep_load(load, seed_list, progress=report, **kw))
    else:
        chunks = seed_chunks(seed_list, applications, slots, len(cap_map))
        done, total = 0, len(loads) * len(chunks)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [[pool.submit(sweep_chunk, load, c, **kw) for c in chunks] for load in loads]
            try:
                for per_load in futures:
                    parts = []
                    for f in per_load:
                        parts.append(f.result())
                        done += 1
                        if progress is not None:
                            progress(done / total)
                    results.append(merge_chunks(parts))
            except BaseException:
                # Stopped (progress raised) or failed: drop the chunks not yet started.
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    curves: dict[str, Any] = {}
    for comp in COMPOSITIONS:
        curves[comp] = {}
        for method in METHODS:
            curves[comp][method] = {m: [r[comp][method][m][0] for r in results] for m in METRICS}
            curves[comp][method]["std"] = {m: [r[comp][method][m][1] for r in results] for m in METRICS}
    return {
        "study": "mrsu-sweep",
        "loads": loads,
        "loads_pct": [round(100 * x, 6) for x in loads],
        "seeds": seeds,
        "seed": seed,
        "applications": applications,
        "slots": slots,
        "slots_valid": slots_valid,
        "spread": spread,
        "capacity": cap_map,
        "grain": {d: int((grain or DEFAULT_GRAIN).get(d, 1)) for d in cap_map},
        "methods": list(METHODS),
        "compositions": list(COMPOSITIONS),
        "curves": curves,
    }


def _as_measured(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A sweep document's curves with every metric of :data:`METRICS`, read as they were measured.

    A document from before issue 17 (a stored planner run) has no ``over_every_cell``: its
    ``over`` counted the over-allocated part in every cell, so it is that figure, and the
    over-allocated part as the paper counts it was not measured (``None`` at every load).
    """
    n = len(doc["loads"])
    curves: dict[str, Any] = {}
    for comp, methods in doc["curves"].items():
        curves[comp] = {}
        for method, c in methods.items():
            values = {m: list(c[m]) for m in METRICS if m in c}
            std = {m: list(v) for m, v in (c.get("std") or {}).items() if m in METRICS}
            if "over_every_cell" not in values and "over" in values:
                values["over_every_cell"], values["over"] = values["over"], [None] * n
                if "over" in std:
                    std["over_every_cell"], std["over"] = std["over"], [None] * n
            for m in METRICS:
                values.setdefault(m, [None] * n)
                std.setdefault(m, [None] * n)
            curves[comp][method] = {**values, "std": std}
    return curves


def combine_sweeps(docs: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """One sweep document from sweep documents of single load points (in load order).

    The curves are the concatenation of the parts' curves; everything else is the first part's.
    A part from before issue 17 keeps its every-cell figure as ``over_every_cell`` and has no
    ``over`` (``None``: :func:`_as_measured`).
    """
    parts = sorted((d for d in docs if d.get("study") == "mrsu-sweep"), key=lambda d: d["loads"][0])
    if not parts:
        return None
    measured = [_as_measured(d) for d in parts]
    out = {k: v for k, v in parts[0].items() if k != "curves"}
    out["loads"] = [x for d in parts for x in d["loads"]]
    out["loads_pct"] = [x for d in parts for x in d["loads_pct"]]
    curves: dict[str, Any] = {}
    for comp, methods in measured[0].items():
        curves[comp] = {}
        for method in methods:
            curves[comp][method] = {m: [x for c in measured for x in c[comp][method][m]] for m in METRICS}
            curves[comp][method]["std"] = {
                m: [x for c in measured for x in c[comp][method]["std"][m]] for m in METRICS
            }
    out["curves"] = curves
    return out
