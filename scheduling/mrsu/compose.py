"""MRSU composition (Part I of paper 002's algorithm): the unit tuple and how many units there are.

Every function takes requirements with the dimensions last and any leading axes, so the sweep
composes a whole batch of workloads at once.

>>> import numpy as np
>>> req = np.array([[4, 6], [6, 9], [10, 3]])  # three requirements of (cpu, mem)
>>> cap = np.array([24, 36])
>>> mrsu_gcd(req, cap).tolist(), mrsu_min(req, cap).tolist()
([2, 3], [4, 3])
>>> int(units_available(np.array([2, 3]), cap, "ft")), units_available(np.array([4, 3]), cap, "id").tolist()
(12, [6, 12])
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "COMPOSITIONS",
    "MODES",
    "Composition",
    "Mode",
    "compose",
    "mrsu_gcd",
    "mrsu_min",
    "units_available",
    "units_needed",
]

Composition = Literal["gcd", "min"]
Mode = Literal["ft", "id"]
COMPOSITIONS: tuple[Composition, ...] = ("gcd", "min")
MODES: tuple[Mode, ...] = ("ft", "id")

IntArray = NDArray[np.int64]


def mrsu_gcd(requirements: IntArray, capacity: IntArray) -> IntArray:
    """``Psi_d = GCD(R_1d, ..., R_Nd, C_d)`` (eq. 6 of paper 002) over the second-to-last axis.

    Zero requirements do not change the GCD (``gcd(0, x) = x``), and the capacity is always in
    it, so the unit is positive and divides the capacity exactly.

    >>> mrsu_gcd(np.array([[0, 8], [0, 12]]), np.array([10, 100])).tolist()
    [10, 4]
    """
    g = np.gcd.reduce(np.asarray(requirements, dtype=np.int64), axis=-2)
    return np.gcd(g, np.asarray(capacity, dtype=np.int64))


def mrsu_min(requirements: IntArray, capacity: IntArray) -> IntArray:
    """``Psi_d = min_n R_nd`` (eq. 7 of paper 002) over the second-to-last axis.

    Zero requirements are left out (a unit of 0 allocates nothing); a dimension nobody
    requires gets the whole capacity as its unit. Unlike GCD, the capacity plays no part.

    >>> mrsu_min(np.array([[0, 8], [5, 12]]), np.array([10, 100])).tolist()
    [5, 8]
    >>> mrsu_min(np.array([[0, 8]]), np.array([10, 100])).tolist()
    [10, 8]
    """
    req = np.asarray(requirements, dtype=np.int64)
    cap = np.asarray(capacity, dtype=np.int64)
    big = np.iinfo(np.int64).max
    m = np.where(req > 0, req, big).min(axis=-2)
    return np.where(m == big, np.broadcast_to(cap, m.shape), m)


def compose(requirements: IntArray, capacity: IntArray, composition: Composition) -> IntArray:
    """The unit by ``composition`` (``"gcd"`` or ``"min"``); see :func:`mrsu_gcd`, :func:`mrsu_min`.

    >>> compose(np.array([[4], [6]]), np.array([12]), "min").tolist()
    [4]
    """
    if composition == "gcd":
        return mrsu_gcd(requirements, capacity)
    if composition == "min":
        return mrsu_min(requirements, capacity)
    raise ValueError(f"unknown composition {composition!r} (gcd, min)")


def units_available(unit: IntArray, capacity: IntArray, mode: Mode) -> IntArray:
    """Units the capacity holds: FT ``X = min_d floor(C_d / Psi_d)`` (eq. 8), ID ``X_d`` (eq. 9).

    The paper writes the ratios without a floor; only whole units can be handed out (notes §6).

    >>> int(units_available(np.array([3, 4]), np.array([10, 10]), "ft")), units_available(
    ...     np.array([3, 4]), np.array([10, 10]), "id").tolist()
    (2, [3, 2])
    """
    x = np.asarray(capacity, dtype=np.int64) // np.asarray(unit, dtype=np.int64)
    if mode == "id":
        return x
    if mode == "ft":
        return np.asarray(x.min(axis=-1), dtype=np.int64)
    raise ValueError(f"unknown mode {mode!r} (ft, id)")


def units_needed(requirements: IntArray, unit: IntArray, mode: Mode) -> IntArray:
    """Units that cover a requirement: ``ceil(R_d / Psi_d)`` per dimension (ID), their max (FT).

    >>> units_needed(np.array([7, 2]), np.array([2, 1]), "id").tolist(), int(units_needed(
    ...     np.array([7, 2]), np.array([2, 1]), "ft"))
    ([4, 2], 4)
    """
    req = np.asarray(requirements, dtype=np.int64)
    u = np.asarray(unit, dtype=np.int64)
    need = -(-req // u)
    return need if mode == "id" else need.max(axis=-1)
