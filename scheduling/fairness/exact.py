"""Exact fair allocations (paper 000, Section III; notes §3): U-MMF and proportional fairness.

Both optimise over the capacity constraints (1) of paper 000: on every server ``i`` and resource
``r``, ``sum_n x[n][i] d[n][r] <= c[i][r]``, with ``x[n][i] = 0`` where ``delta[n][i] = 0``.

* :func:`mmf_allocation`, weighted U-MMF (Definition 1, computed as the leximin of notes §3)
  with ``U_n = x_n / phi_n`` (eq. 2 with ``u[n][i] = 1``: tasks per unit of weight, so one server
  of one resource is split in proportion to the weights), by water-filling: a sequence of linear
  programs, each maximising the common level ``t`` of the frameworks still growing, then freezing
  the ones that cannot rise above it. With ``integer=True``, whole tasks: the lexicographic
  max-min (leximin) of the ``U_n`` over integer allocations, by a sequence of mixed-integer
  programs.
* :func:`pf_allocation`, weighted proportional fairness (eq. 8 with ``a = 1``): maximise
  ``sum_n phi_n log(x_n)``, ``log`` replaced by tangent (fractional) or chord (integer) cutting
  planes added until the approximation is within ``tolerance``.
* :func:`pf_inequality`, paper 000's inequality (9) of an allocation against a PF allocation.

Frameworks whose task fits on no server they allow (not even a fraction of one, when
fractional) get nothing and are left out of the max-min and of the log objective: with them,
the smallest level and the sum of logs would be ``0`` and ``-inf`` whatever the others get.
``meta["excluded"]`` names them.

The solver is HiGHS, driven through ``highspy`` in-process, not through PuLP: water-filling and
cutting planes solve the same model many times with a few rows or bounds changed, and PuLP's
HiGHS interface rebuilds the whole model, one Python call per row and column, for every solve
(notes, "Solver facts"); highspy keeps the model and re-optimises from the previous basis. The
solver prints nothing (``output_flag`` off).

For fractional allocations, servers with the same capacity and the same set of frameworks
allowed on them are interchangeable, so they are pooled into one server with their summed
capacity, solved, and each gets an even share of the pool's allocation back: an exact
reformulation (any allocation of the pool split evenly is feasible on every member, and any
allocation of the members sums to one of the pool), which makes 1,000 servers of 10 types a
problem of at most 10 pools. A scenario's problem always pools by VM type (frameworks allow VM
types, not single machines), so only hand-built problems that allow single servers stay large.
Whole tasks do not pool (a pool's capacity may fit tasks that its servers, each alone, cannot),
so integer models have a variable per framework and server.

This module is the front door and holds inequality (9); U-MMF is
:mod:`scheduling.fairness.exact_mmf`'s, proportional fairness :mod:`scheduling.fairness.exact_pf`'s,
and the solver model, the pooled layout of the variables and :class:`ExactResult` are
:mod:`scheduling.fairness.exact_model`'s (where :data:`INTEGER_TIME_LIMIT_S` is read).

Paper 000's Table I set-up (servers ``c1 = (100, 30)``, ``c2 = (30, 100)``; demands
``d1 = (5, 1)``, ``d2 = (1, 5)``):

>>> from scheduling.fairness.model import FairnessProblem
>>> p = FairnessProblem(resources=("cpu", "mem"), machines=("c1#1", "c2#1"), machine_types=("c1", "c2"),
...     capacity=np.array([[100.0, 30.0], [30.0, 100.0]]), frameworks=("f1", "f2"),
...     demand=np.array([[5.0, 1.0], [1.0, 5.0]]), weight=np.ones(2), allowed=np.ones((2, 2), bool))
>>> mmf = mmf_allocation(p, integer=False)
>>> np.round(mmf.x, 4).tolist()   # c1 full in both resources: 5a + b = 100, a + 5b = 30
[[19.5833, 2.0833], [2.0833, 19.5833]]
>>> {f: round(v, 6) for f, v in mmf.meta["levels"].items()}   # 520/24 tasks each
{'f1': 21.666667, 'f2': 21.666667}
>>> mmf_allocation(p, integer=True).x.tolist()
[[19.0, 2.0], [2.0, 19.0]]
>>> pf = pf_allocation(p, integer=False)
>>> np.round(pf.x.sum(axis=1), 3).tolist()   # symmetric, so PF is MMF here
[21.667, 21.667]
>>> pf_inequality(p, np.array([[19.0, 2.0], [2.0, 19.0]]), pf.x)["holds"]
True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .exact_mmf import DEFAULT_MMF_TOLERANCE, MMF_CRITERIA, criterion_factor, mmf_allocation
from .exact_model import INTEGER_TIME_LIMIT_S, ExactResult, _tolerance
from .exact_pf import DEFAULT_PF_INTEGER_TOLERANCE, DEFAULT_PF_TOLERANCE, pf_allocation
from .model import FairnessProblem

__all__ = [
    "DEFAULT_MMF_TOLERANCE",
    "DEFAULT_PF_INTEGER_TOLERANCE",
    "DEFAULT_PF_TOLERANCE",
    "INTEGER_TIME_LIMIT_S",
    "MMF_CRITERIA",
    "ExactResult",
    "criterion_factor",
    "mmf_allocation",
    "pf_allocation",
    "pf_inequality",
]

FloatArray = NDArray[np.float64]


# ---------------------------------------------------------------------------- inequality (9)


def pf_inequality(
    problem: FairnessProblem, x: FloatArray, x_pf: FloatArray, *, tolerance: float | None = None
) -> dict[str, Any]:
    """Paper 000's inequality (9) (``a = 1``) of allocation ``x`` against the PF allocation ``x_pf``.

    ``Phi(x, x*) = sum_n phi_n (x_n - x*_n) / x*_n``, which is ``<= 0`` for every feasible ``x``
    when ``x*`` is proportional-fair (Proposition 2). Frameworks with ``x*_n = 0`` (excluded
    from PF: they fit nowhere) are left out of the sum. ``holds`` allows the slack that a PF
    allocation found to within ``tolerance`` guarantees (see :func:`pf_allocation`):
    ``1.1 sqrt(2 tolerance) sum_n phi_n |x_n - x*_n| / x*_n`` plus ``1e-9 sum_n phi_n``.

    Returns
    -------
    dict
        ``value`` (float), ``holds`` (bool), ``slack`` (float), ``reference`` ("pf"),
        ``per_framework`` (framework -> its term, ``None`` for a framework left out).

    Examples
    --------
    >>> p = FairnessProblem(resources=("cpu",), machines=("s#1",), machine_types=("s",),
    ...     capacity=np.array([[12.0]]), frameworks=("a", "b"), demand=np.array([[1.0], [2.0]]),
    ...     weight=np.array([2.0, 1.0]), allowed=np.ones((2, 1), bool))
    >>> d = pf_inequality(p, np.array([[6.0], [3.0]]), np.array([[8.0], [2.0]]))
    >>> d["value"], d["holds"], d["per_framework"]   # 2 (6 - 8) / 8 + (3 - 2) / 2
    (0.0, True, {'a': -0.5, 'b': 0.5})
    """
    tol = _tolerance(tolerance, DEFAULT_PF_TOLERANCE)
    xn = np.asarray(x, float).reshape(problem.allowed.shape).sum(axis=1)
    star = np.asarray(x_pf, float).reshape(problem.allowed.shape).sum(axis=1)
    phi = problem.weight
    counted = star > 0
    terms = np.zeros_like(xn)
    terms[counted] = phi[counted] * (xn[counted] - star[counted]) / star[counted]
    value = float(terms.sum())
    slack = 1.1 * math.sqrt(2 * tol) * float(np.abs(terms).sum()) + 1e-9 * float(phi.sum())
    return {
        "value": value,
        "holds": bool(value <= slack),
        "slack": slack,
        "reference": "pf",
        "per_framework": {
            f: (float(terms[n]) if counted[n] else None) for n, f in enumerate(problem.frameworks)
        },
    }
