"""The MRSU result document (docs/mrsu.md, "Result document"): JSON-ready, what the CLI prints.

>>> from scheduling.mrsu.model import parse_mrsu_input
>>> p = parse_mrsu_input({"capacity": {"cpu": 12, "mem": 12}, "applications": [
...     {"name": "a", "priority": 1, "requirements": [{"cpu": 4, "mem": 2}]},
...     {"name": "b", "priority": 1, "requirements": [{"cpu": 2, "mem": 6}]}]})
>>> doc = mrsu_result(p, composition="gcd", mode="ft")
>>> doc["mrsu"], doc["units_available"], doc["allocation"]
({'cpu': 2, 'mem': 2}, 6, {'a': [2], 'b': [3]})
>>> doc["misallocation"]["over"], doc["dissatisfied_pct"]  # nobody is short: no surplus counts
(0.0, 0.0)
>>> round(doc["misallocation"]["over_every_cell"], 4)  # every cell: (0.5 + 4/6) / 4
0.2917
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .allocate import mrsu_allocate, optimal_allocation, vm_static_allocation
from .compose import Composition, Mode
from .metrics import (
    contended,
    dissatisfied,
    misallocation,
    misallocation_parts,
    misallocation_summary,
    over_allocated,
    short_by_dimension,
)
from .model import MrsuProblem

__all__ = ["MAX_COEFFICIENTS", "mrsu_result"]

#: Per-cell coefficients (for the Fig. 2 snapshot) are written up to this many cells.
MAX_COEFFICIENTS = 100_000


def _num(x: float) -> float | int:
    v = round(float(x), 9)
    return int(v) if v.is_integer() and abs(v) < 2**53 else v


def _dims(dims: tuple[str, ...], row: NDArray[Any]) -> dict[str, float | int]:
    return {d: _num(v) for d, v in zip(dims, row.tolist(), strict=True)}


def _metrics(problem: MrsuProblem, allocated: NDArray[Any], *, coefficients: bool) -> dict[str, Any]:
    req = problem.requirements
    rho = misallocation(allocated, req)
    hurt = contended(allocated, req)  # (S, D): the cells where over-allocation counts (paper §IV-B)
    out: dict[str, Any] = misallocation_summary(allocated, req)
    over_a, under_a = misallocation_parts(rho, axis=(1, 2), contended=hurt)
    over_d, under_d = misallocation_parts(rho, axis=(0, 1), contended=hurt)
    every_a, _ = misallocation_parts(rho, axis=(1, 2))
    every_d, _ = misallocation_parts(rho, axis=(0, 1))
    short = dissatisfied(allocated, req)
    out["by_application"] = {
        name: {"over": _num(o), "over_every_cell": _num(e), "under": _num(u), "short_slots": int(s)}
        for name, o, e, u, s in zip(problem.names, over_a, every_a, under_a, short.sum(axis=1), strict=True)
    }
    short_d = short_by_dimension(allocated, req).reshape(-1, len(problem.dimensions))
    short_pct = 100.0 * short_d.mean(axis=0) if short_d.size else np.zeros(len(problem.dimensions))
    out["by_dimension"] = {
        d: {"over": _num(o), "over_every_cell": _num(e), "under": _num(u), "short_pct": _num(p)}
        for d, o, e, u, p in zip(problem.dimensions, over_d, every_d, under_d, short_pct, strict=True)
    }
    out["over_allocated"] = _dims(problem.dimensions, over_allocated(allocated, req, contended=hurt))
    out["over_allocated_every_cell"] = _dims(problem.dimensions, over_allocated(allocated, req))
    if coefficients:
        out["coefficients"] = {name: np.round(rho[n], 6).tolist() for n, name in enumerate(problem.names)}
    return out


def mrsu_result(
    problem: MrsuProblem,
    *,
    composition: Composition = "gcd",
    mode: Mode = "ft",
    slots_valid: int | None = None,
    baselines: bool = True,
    base_units: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """Allocate ``problem`` (:func:`~scheduling.mrsu.allocate.mrsu_allocate`) and build its document.

    ``mrsu`` and ``units_available`` are those of the first validity window; ``windows`` lists
    every window's. ``misallocation`` holds ``over`` and ``under`` (means of the two parts of
    ``|rho|`` over every application, slot and dimension; the over-allocated part counted only
    in the (slot, dimension) cells where some application is short, as paper 002 §IV-B counts
    it, and in every cell as ``over_every_cell``), the same per application and dimension, the
    over-allocated amounts (``over_allocated``, in the contended cells;
    ``over_allocated_every_cell``), and (up to :data:`MAX_COEFFICIENTS` cells) every coefficient
    ``coefficients[app][slot][dim]``. With ``baselines`` the VM-static and optimal allocations
    of the same requirements are summarised alongside.

    Every amount (``capacity``, ``mrsu``, the windows' ``mrsu``, ``over_allocated``) is in the
    problem's integers. ``base_units`` (dimension -> the amount one integer stands for, as
    :func:`~scheduling.mrsu.model.scenario_problem` returns it) is written into the document
    so that a reader can convert (:func:`scheduling.mrsu.tables.in_units`); without it each
    integer is one of the dimension's own units.
    """
    r = mrsu_allocate(problem, composition=composition, mode=mode, slots_valid=slots_valid)
    dims = problem.dimensions
    small = problem.requirements.size <= MAX_COEFFICIENTS

    def avail(x: NDArray[Any]) -> int | dict[str, float | int]:
        return int(x) if mode == "ft" else _dims(dims, x)

    if mode == "ft":
        allocation: dict[str, Any] = {n: r.units[i].tolist() for i, n in enumerate(problem.names)}
    else:
        allocation = {n: [_dims(dims, row) for row in r.units[i]] for i, n in enumerate(problem.names)}
    metrics = _metrics(problem, r.allocated, coefficients=small)
    doc: dict[str, Any] = {
        "study": "mrsu",
        "composition": composition,
        "mode": mode,
        "slots": problem.slots,
        "slots_valid": slots_valid,
        "dimensions": list(dims),
        "capacity": _dims(dims, problem.capacity),
        **({"base_units": {d: float(base_units[d]) for d in dims}} if base_units is not None else {}),
        "applications": [
            {"name": n, "priority": _num(p)} for n, p in zip(problem.names, problem.priorities, strict=True)
        ],
        "mrsu": _dims(dims, r.unit[0]),
        "units_available": avail(r.available[0]),
        "windows": [
            {"start": a, "end": b, "mrsu": _dims(dims, r.unit[k]), "units_available": avail(r.available[k])}
            for k, (a, b) in enumerate(r.windows)
        ],
        "allocation": allocation,
        "misallocation": {k: v for k, v in metrics.items() if not k.startswith("dissatisfied")},
        "dissatisfied_pct": metrics["dissatisfied_pct"],
        "dissatisfied_apps_pct": metrics["dissatisfied_apps_pct"],
    }
    if baselines:
        doc["baselines"] = {}
        for name, alloc in (
            ("vm-static", vm_static_allocation(problem.requirements, problem.capacity, problem.priorities)),
            ("optimal", optimal_allocation(problem.requirements, problem.capacity)),
        ):
            m = _metrics(problem, alloc, coefficients=small)
            doc["baselines"][name] = {
                "misallocation": {k: v for k, v in m.items() if not k.startswith("dissatisfied")},
                "dissatisfied_pct": m["dissatisfied_pct"],
                "dissatisfied_apps_pct": m["dissatisfied_apps_pct"],
            }
    return doc
