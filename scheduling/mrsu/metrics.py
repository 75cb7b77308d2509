"""Metrics of paper 002 (Section IV-A): the misallocation coefficient and application dissatisfaction.

``rho = (Y - Z) / max(Y, Z)`` (eq. 10) for every application, slot and dimension, with ``Y``
allocated and ``Z`` required (0 when both are 0). Positive is over-allocation, negative is
dissatisfaction. The figures of the paper average ``|rho|`` of each part over every cell.

>>> y = np.array([[[4, 2]], [[1, 0]]]); z = np.array([[[2, 2]], [[2, 0]]])  # 2 apps, 1 slot, 2 dims
>>> misallocation(y, z)[:, 0].tolist()
[[0.5, 0.0], [-0.5, 0.0]]
>>> m = misallocation_summary(y, z)
>>> m["over"], m["under"], m["dissatisfied_pct"]
(0.125, 0.125, 50.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "dissatisfied", "misallocation", "misallocation_parts", "misallocation_summary", "over_allocated",
    "short_by_dimension",
]

FloatArray = NDArray[np.float64]


def misallocation(allocated: ArrayLike, required: ArrayLike) -> FloatArray:
    """``rho = (Y - Z) / max(Y, Z)`` (eq. 10 of paper 002), elementwise; 0 where both are 0.

    >>> misallocation(np.array([0, 3, 0]), np.array([0, 0, 4])).tolist()
    [0.0, 1.0, -1.0]
    """
    y = np.asarray(allocated, dtype=np.float64)
    z = np.asarray(required, dtype=np.float64)
    m = np.maximum(y, z)
    return np.divide(y - z, m, out=np.zeros(np.broadcast(y, z).shape), where=m > 0)


def misallocation_parts(rho: FloatArray, axis: Any = (-3, -2, -1)) -> tuple[FloatArray, FloatArray]:
    """Means of the over-allocated part ``max(rho, 0)`` and the under-allocated part ``max(-rho, 0)``.

    Every cell counts in both means (a cell of one part is a 0 of the other), as the paper
    averages "across dimensions and time slots" (Section IV-B).

    >>> over, under = misallocation_parts(np.array([0.5, -1.0, 0.0, 0.0]), axis=-1)
    >>> float(over), float(under)
    (0.125, 0.25)
    """
    return np.maximum(rho, 0.0).mean(axis=axis), np.maximum(-rho, 0.0).mean(axis=axis)


def dissatisfied(allocated: ArrayLike, required: ArrayLike) -> NDArray[np.bool_]:
    """``(..., N, S)``: application ``n`` is not fully served in slot ``t`` (short in some dimension).

    A relative tolerance of 1e-9 keeps the optimal baseline's float scaling from counting as short.

    >>> dissatisfied(np.array([[[2, 1]]]), np.array([[[2, 2]]])).tolist()
    [[True]]
    """
    return np.asarray(short_by_dimension(allocated, required).any(axis=-1))


def short_by_dimension(allocated: ArrayLike, required: ArrayLike) -> NDArray[np.bool_]:
    """``(..., N, S, D)``: application ``n`` gets less than it requires of dimension ``d`` in
    slot ``t`` (the rule of :func:`dissatisfied`, per dimension).

    >>> short_by_dimension(np.array([[[2, 1]]]), np.array([[[2, 2]]])).tolist()
    [[[False, True]]]
    """
    y = np.asarray(allocated, dtype=np.float64)
    z = np.asarray(required, dtype=np.float64)
    return np.asarray(y < z * (1 - 1e-9))


def over_allocated(allocated: ArrayLike, required: ArrayLike) -> FloatArray:
    """``(..., N, S, D) -> (..., D)``: the over-allocated amount per slot, summed over applications,
    averaged over slots, in each dimension's own unit.

    >>> over_allocated(np.array([[[4, 2], [2, 2]]]), np.array([[[2, 2], [2, 1]]])).tolist()
    [1.0, 0.5]
    """
    y = np.asarray(allocated, dtype=np.float64)
    z = np.asarray(required, dtype=np.float64)
    return np.asarray(np.maximum(y - z, 0.0).sum(axis=-3).mean(axis=-2), dtype=np.float64)


def misallocation_summary(allocated: ArrayLike, required: ArrayLike) -> dict[str, Any]:
    """The headline metrics of one ``(N, S, D)`` allocation as plain numbers.

    ``over``/``under``: means of the two parts of ``|rho|``; ``dissatisfied_pct``: percentage
    of application-slots not fully served; ``dissatisfied_apps_pct``: percentage of
    applications short in at least one slot.
    """
    rho = misallocation(allocated, required)
    over, under = misallocation_parts(rho)
    short = dissatisfied(allocated, required)
    return {
        "over": float(over),
        "under": float(under),
        "dissatisfied_pct": float(100.0 * short.mean()) if short.size else 0.0,
        "dissatisfied_apps_pct": float(100.0 * short.any(axis=-1).mean()) if short.size else 0.0,
    }
