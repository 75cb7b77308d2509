"""The allocation document: one static allocation (or many trials of one) described in JSON.

Progressive filling (:mod:`~scheduling.fairness.filling`) and the exact optimisations
(:mod:`~scheduling.fairness.exact`) both end here, so every figure of an allocation (means
and sample standard deviations, totals, task efficiency, criteria, residual and stranded
resources, utilisation, distinct outcomes) is computed once. The shape is documented in
``docs/results.md`` ("The allocation document").

>>> import numpy as np
>>> from scheduling.fairness.model import FairnessProblem
>>> p = FairnessProblem(resources=("cpu", "mem"), machines=("c1#1", "c2#1"), machine_types=("c1", "c2"),
...     capacity=np.array([[100.0, 30.0], [30.0, 100.0]]), frameworks=("f1", "f2"),
...     demand=np.array([[5.0, 1.0], [1.0, 5.0]]), weight=np.ones(2), allowed=np.ones((2, 2), bool))
>>> doc = allocation_document(p, np.array([[[19, 2], [2, 19]]], dtype=float), meta={"label": "rPS-DSF"})
>>> doc["total_tasks"], doc["task_efficiency"], doc["stranded"]["c1#1"]
(42.0, 42.0, {'cpu': 3.0, 'mem': 1.0})
>>> c = doc["criteria"]["f1"]   # PS-DSF 21 * max(5/100, 1/30); rPS-DSF 21 * max(5/3, 1/1) on residual (3, 1)
>>> (round(c["psdsf_min"], 2), c["psdsf_min_machine"]), (round(c["rpsdsf_min"], 2), c["rpsdsf_min_machine"])
((1.05, 'c1#1'), (35.0, 'c1#1'))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..scenario.checks import plain
from . import criteria
from .model import FairnessProblem

__all__ = ["ALLOCATION_FORMAT", "MAX_OUTCOME_CELLS", "allocation_document", "lowest_per_server", "stranded"]

ALLOCATION_FORMAT = 1
#: Distinct outcomes are listed only for problems of at most this many framework x server cells.
MAX_OUTCOME_CELLS = 400
#: At most this many distinct outcomes are listed, most frequent first.
MAX_OUTCOMES = 10

FloatArray = NDArray[np.float64]


def _num(value: float) -> float | int | None:
    """A finite number for JSON (``None`` for inf/NaN); integral floats stay floats."""
    v = float(value)
    return v if np.isfinite(v) else None


def stranded(problem: FairnessProblem, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``(residual, stranded)`` of one allocation ``x`` (N, I), each (I, R).

    A server's residual is stranded when no framework allowed there fits one more whole task.
    """
    used = np.einsum("ni,nr->ir", x, problem.demand)
    residual = np.maximum(problem.capacity - used, 0.0)
    fits = ((problem.demand[:, None, :] <= residual[None, :, :] + 1e-9).all(axis=2) & problem.allowed).any(
        axis=0
    )
    return residual, np.where(fits[:, None], 0.0, residual)


def _matrix(problem: FairnessProblem, values: FloatArray) -> dict[str, dict[str, float | int | None]]:
    return {
        f: {m: _num(values[n, i]) for i, m in enumerate(problem.machines)}
        for n, f in enumerate(problem.frameworks)
    }


def _per_machine(problem: FairnessProblem, values: FloatArray) -> dict[str, dict[str, float | int | None]]:
    return {
        m: {r: _num(values[i, k]) for k, r in enumerate(problem.resources)}
        for i, m in enumerate(problem.machines)
    }


def lowest_per_server(problem: FairnessProblem, values: FloatArray) -> list[tuple[float | None, str | None]]:
    """Per framework, the smallest finite value of a per-server criterion ``values`` (N, I) and
    its server (the first of equals); ``(None, None)`` where no server gives a finite value.

    PS-DSF and rPS-DSF are per server (paper 000, eq. 4 and Section IV); joint selection
    serves a framework on the server where its value is smallest, so this is the number it
    compares (for PS-DSF, the value on the server that suits its tasks best).

    >>> import numpy as np
    >>> p = FairnessProblem(resources=("cpu",), machines=("a", "b"), machine_types=("t", "t"),
    ...     capacity=np.ones((2, 1)), frameworks=("f", "g"), demand=np.ones((2, 1)), weight=np.ones(2),
    ...     allowed=np.ones((2, 2), bool))
    >>> lowest_per_server(p, np.array([[3.0, 2.0], [np.inf, np.inf]]))
    [(2.0, 'b'), (None, None)]
    """
    out: list[tuple[float | None, str | None]] = []
    for row in np.asarray(values, dtype=float):
        finite = np.isfinite(row)
        if not finite.any():
            out.append((None, None))
            continue
        i = int(np.argmin(np.where(finite, row, np.inf)))
        out.append((float(row[i]), problem.machines[i]))
    return out


def allocation_document(
    problem: FairnessProblem, allocations: FloatArray, *, meta: Mapping[str, Any]
) -> dict[str, Any]:
    """The document of ``allocations`` (T trials, N frameworks, I servers) of ``problem``.

    ``meta`` gives the describing fields (``label``, ``method``, ``policy``, ``servers``,
    ``integer``, ``tolerance``, ``trials``, ``seed``); missing ones are ``None``. Means are over
    the trials; standard deviations are sample ones (``ddof=1``), 0 for a single trial.
    """
    x = np.asarray(allocations, dtype=float)
    if x.ndim != 3 or x.shape[1:] != (len(problem.frameworks), len(problem.machines)):
        raise ValueError(f"allocations must be (trials, {len(problem.frameworks)}, {len(problem.machines)})")
    t = x.shape[0]
    mean = x.mean(axis=0)
    std = x.std(axis=0, ddof=1) if t > 1 else np.zeros_like(mean)
    per_fw = x.sum(axis=2)  # (T, N)
    totals = per_fw.sum(axis=1)  # (T,)
    efficiency = (per_fw * problem.weight[None, :]).sum(axis=1)
    residual_t = np.empty((t, *problem.capacity.shape))
    stranded_t = np.empty_like(residual_t)
    for k in range(t):
        residual_t[k], stranded_t[k] = stranded(problem, x[k])
    residual = residual_t.mean(axis=0)
    x_mean = mean.sum(axis=1)
    total_cap = problem.total_capacity
    used = np.einsum("ni,nr->r", mean, problem.demand)
    drf = criteria.drf(problem, x_mean)
    tsf = criteria.tsf(problem, x_mean)
    ps = criteria.psdsf(problem, x_mean)
    rps = criteria.rpsdsf(problem, x_mean, residual)
    ps_min, rps_min = lowest_per_server(problem, ps), lowest_per_server(problem, rps)
    crit = {
        f: {
            "drf": _num(drf[n]),
            "tsf": _num(tsf[n]),
            "psdsf": {m: _num(ps[n, i]) for i, m in enumerate(problem.machines)},
            "rpsdsf": {m: _num(rps[n, i]) for i, m in enumerate(problem.machines)},
            "psdsf_min": ps_min[n][0],
            "psdsf_min_machine": ps_min[n][1],
            "rpsdsf_min": rps_min[n][0],
            "rpsdsf_min_machine": rps_min[n][1],
        }
        for n, f in enumerate(problem.frameworks)
    }
    outcomes: list[dict[str, Any]] = []
    if mean.size <= MAX_OUTCOME_CELLS and np.allclose(x, np.round(x)):
        counts = Counter(tuple(int(v) for v in trial.ravel()) for trial in x)
        shape = mean.shape
        for cells, n_trials in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_OUTCOMES]:
            grid = np.array(cells).reshape(shape)
            outcomes.append(
                {
                    "tasks": {f: [int(v) for v in grid[n]] for n, f in enumerate(problem.frameworks)},
                    "trials": n_trials,
                }
            )
    keys = ("label", "method", "policy", "servers", "integer", "tolerance", "trials", "seed")
    head = {k: meta.get(k) for k in keys}
    head["trials"] = t if meta.get("trials") is None else meta["trials"]
    return {
        "study": "allocation",
        "format": ALLOCATION_FORMAT,
        **head,
        "resources": list(problem.resources),
        "machines": [
            {
                "id": m,
                "vm_type": vm,
                "capacity": {
                    r: plain(float(problem.capacity[i, k])) for k, r in enumerate(problem.resources)
                },
            }
            for i, (m, vm) in enumerate(zip(problem.machines, problem.machine_types, strict=True))
        ],
        "frameworks": [
            {
                "name": f,
                "weight": plain(float(problem.weight[n])),
                "task_demand": {
                    r: plain(float(problem.demand[n, k])) for k, r in enumerate(problem.resources)
                },
            }
            for n, f in enumerate(problem.frameworks)
        ],
        "mean": _matrix(problem, mean),
        "std": _matrix(problem, std),
        "tasks": {
            f: {"mean": float(per_fw[:, n].mean()), "std": float(per_fw[:, n].std(ddof=1)) if t > 1 else 0.0}
            for n, f in enumerate(problem.frameworks)
        },
        "total_tasks": float(totals.mean()),
        "total_std": float(totals.std(ddof=1)) if t > 1 else 0.0,
        "task_efficiency": float(efficiency.mean()),
        "criteria": crit,
        "residual": _per_machine(problem, residual),
        "stranded": _per_machine(problem, stranded_t.mean(axis=0)),
        "utilisation": {
            r: (float(used[k] / total_cap[k]) if total_cap[k] > 0 else None)
            for k, r in enumerate(problem.resources)
        },
        "outcomes": outcomes,
        "pf_inequality": None,
        "solver": meta.get("solver"),
    }
