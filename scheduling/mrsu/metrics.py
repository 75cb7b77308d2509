"""Metrics of paper 002 (Section IV-A): the misallocation coefficient and application dissatisfaction.

``rho = (Y - Z) / max(Y, Z)`` (eq. 10) for every application, slot and dimension, with ``Y``
allocated and ``Z`` required (0 when both are 0). Positive is over-allocation, negative is
dissatisfaction. The figures of the paper average ``|rho|`` of each part over every cell, and
count over-allocation only where it hurts: "rho accounts for over-allocation only when a
application is not meeting its requirements" (§IV-B; ALGORITHM-NOTES §6), that is in the
(slot, dimension) cells where some application is short (:func:`contended`). Elsewhere a
positive rho is rounding no one suffers from; the every-cell mean is kept as
``over_every_cell``.

Two applications, one slot, two dimensions: ``a`` gets 4 cpu of the 2 it needs and ``b`` 1 of
its 2, so the cpu cell is contended and ``a``'s surplus counts; the mem cell is exact.

>>> y = np.array([[[4, 2]], [[1, 0]]]); z = np.array([[[2, 2]], [[2, 0]]])  # 2 apps, 1 slot, 2 dims
>>> misallocation(y, z)[:, 0].tolist()
[[0.5, 0.0], [-0.5, 0.0]]
>>> m = misallocation_summary(y, z)
>>> m["over"], m["over_every_cell"], m["under"], m["dissatisfied_pct"], m["dissatisfied_apps_pct"]
(0.125, 0.125, 0.125, 50.0, 50.0)

With ``b`` served in full, nobody is short: ``a``'s surplus no longer counts.

>>> m = misallocation_summary(np.array([[[4, 2]], [[2, 0]]]), z)
>>> m["over"], m["over_every_cell"], m["under"]
(0.0, 0.125, 0.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "contended", "dissatisfied", "misallocation", "misallocation_parts", "misallocation_summary",
    "over_allocated", "short_by_dimension",
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


def misallocation_parts(
    rho: FloatArray, axis: Any = (-3, -2, -1), *, contended: NDArray[np.bool_] | None = None
) -> tuple[FloatArray, FloatArray]:
    """Means of the over-allocated part ``max(rho, 0)`` and the under-allocated part ``max(-rho, 0)``.

    Every cell counts in both means (a cell of one part is a 0 of the other), as the paper
    averages "across dimensions and time slots" (Section IV-B). ``rho`` is ``(..., N, S, D)``;
    with ``contended`` (``(..., S, D)``, :func:`contended`) the over-allocated part counts only
    in the (slot, dimension) cells where some application is short, as the paper counts it
    (a 0 elsewhere); without it, in every cell.

    >>> over, under = misallocation_parts(np.array([0.5, -1.0, 0.0, 0.0]), axis=-1)
    >>> float(over), float(under)
    (0.125, 0.25)

    One application over-allocated in two slots of one dimension; another short in slot 1 only:

    >>> rho = np.array([[[0.5], [0.5]], [[0.0], [-0.5]]])  # (N=2, S=2, D=1)
    >>> short = np.array([[False], [True]])  # (S, D): slot 1 is contended
    >>> [float(x) for x in misallocation_parts(rho, contended=short)]
    [0.125, 0.125]
    >>> [float(x) for x in misallocation_parts(rho)]
    [0.25, 0.125]
    """
    over = np.maximum(rho, 0.0)
    if contended is not None:
        over = np.where(np.expand_dims(contended, -3), over, 0.0)
    return over.mean(axis=axis), np.maximum(-rho, 0.0).mean(axis=axis)


def contended(allocated: ArrayLike, required: ArrayLike) -> NDArray[np.bool_]:
    """``(..., N, S, D) -> (..., S, D)``: some application gets less than it requires of dimension
    ``d`` in slot ``t``: the cells where paper 002 counts over-allocation (§IV-B: resources held
    beyond need while another application suffers; ALGORITHM-NOTES §6).

    >>> contended(np.array([[[4, 2]], [[1, 0]]]), np.array([[[2, 2]], [[2, 0]]])).tolist()
    [[True, False]]
    """
    return np.asarray(short_by_dimension(allocated, required).any(axis=-3))


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


def over_allocated(
    allocated: ArrayLike, required: ArrayLike, *, contended: NDArray[np.bool_] | None = None
) -> FloatArray:
    """``(..., N, S, D) -> (..., D)``: the over-allocated amount per slot, summed over applications,
    averaged over slots, in each dimension's own unit; with ``contended`` (``(..., S, D)``) only
    what is held in the cells where some application is short (0 elsewhere), as
    :func:`misallocation_parts` counts the over-allocated part.

    >>> over_allocated(np.array([[[4, 2], [2, 2]]]), np.array([[[2, 2], [2, 1]]])).tolist()
    [1.0, 0.5]
    >>> over_allocated(np.array([[[4, 2], [2, 2]]]), np.array([[[2, 2], [2, 1]]]),
    ...                contended=np.array([[True, False], [False, False]])).tolist()
    [1.0, 0.0]
    """
    y = np.asarray(allocated, dtype=np.float64)
    z = np.asarray(required, dtype=np.float64)
    extra = np.maximum(y - z, 0.0)
    if contended is not None:
        extra = np.where(np.expand_dims(contended, -3), extra, 0.0)
    return np.asarray(extra.sum(axis=-3).mean(axis=-2), dtype=np.float64)


def misallocation_summary(allocated: ArrayLike, required: ArrayLike) -> dict[str, Any]:
    """The headline metrics of one ``(N, S, D)`` allocation as plain numbers.

    ``over``/``under``: means of the two parts of ``|rho|``, the over-allocated part counted in
    the contended cells only (:func:`contended`); ``over_every_cell``: the over-allocated part
    counted in every cell; ``dissatisfied_apps_pct``: percentage of applications short in at
    least one slot (dissatisfied applications, paper 002's Fig. 5); ``dissatisfied_pct``:
    percentage of application-slots not fully served.
    """
    rho = misallocation(allocated, required)
    over, under = misallocation_parts(rho, contended=contended(allocated, required))
    over_every_cell, _ = misallocation_parts(rho)
    short = dissatisfied(allocated, required)
    return {
        "over": float(over),
        "over_every_cell": float(over_every_cell),
        "under": float(under),
        "dissatisfied_pct": float(100.0 * short.mean()) if short.size else 0.0,
        "dissatisfied_apps_pct": float(100.0 * short.any(axis=-1).mean()) if short.size else 0.0,
    }
