"""Reading numbers and sections out of JSON documents: one rule for what counts as a number,
and one for walking into a document whose parts may be missing.

Result documents and request bodies are JSON: a value may be missing, ``null``, a string,
a boolean (which Python counts as an int) or, from a careless producer, NaN. Every reader
of such a document goes through :func:`finite` and :func:`integral`, and walks into it with
:func:`section` and :func:`listed`.

>>> [finite(v) for v in (1, 2.5, True, "3", None, float("nan"), float("inf"))]
[1.0, 2.5, None, None, None, None, None]
>>> [integral(v) for v in (3, 3.0, 3.5, False)]
[3, 3, None, None]

Weighted sums (a resource's share times its weight, summed) are computed by
:func:`weighted_sum` and :func:`weighted_rows` in one fixed order, product by product, never
by numpy's matrix products: those call BLAS, whose kernel is chosen by the processor and may
fuse a multiplication with an addition (FMA), so the last bit, and with it an order between
near-equal values, would depend on the machine.

>>> weighted_sum([0.25, 0.5], [0.8, 0.2]), weighted_rows(np.array([[0.25, 0.5]]), [0.8, 0.2]).tolist()
(0.30000000000000004, [0.30000000000000004])
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = [
    "SEED_MAX", "finite", "integral", "listed", "row_numbers", "section", "seed_error", "weighted_rows",
    "weighted_sum",
]

#: The largest seed of any random choice (numpy's generators take any integer from 0).
SEED_MAX = 2**63 - 1


#: What may be a number (bools excepted). A tuple: ``isinstance`` checks one faster than the
#: union ``int | float``, and a scenario's parsing asks six times per job.
_NUMBER_TYPES = (int, float)


def finite(value: Any) -> float | None:
    """``value`` as a float when it is a finite int or float (not a bool), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, _NUMBER_TYPES):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def integral(value: Any) -> int | None:
    """``value`` as an int when it is a finite whole number (``3.0`` counts), else ``None``."""
    number = finite(value)
    return int(number) if number is not None and number == int(number) else None


def seed_error(seed: Any) -> str | None:
    """What is wrong with ``seed`` as the seed of a random choice, or ``None``: one rule for
    the command line, the library and the planner.

    >>> seed_error(7), seed_error(-1), seed_error(True)
    (None, 'must be an integer between 0 and 2**63 - 1', 'must be an integer between 0 and 2**63 - 1')
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        return "must be an integer between 0 and 2**63 - 1"
    return None


def section(doc: Any, *path: str) -> Mapping[str, Any]:
    """The mapping at ``path`` inside ``doc``, or ``{}`` where a step is missing or not a mapping.

    >>> section({"a": {"b": {"c": 1}}}, "a", "b"), section({"a": [1]}, "a"), section(None, "x")
    ({'c': 1}, {}, {})
    """
    node: Any = doc
    for step in path:
        node = node.get(step) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else {}


def listed(value: Any) -> list[Any]:
    """``value`` as a list when it is a list or tuple, else ``[]``.

    >>> listed((1, 2)), listed(None), listed("ab")
    ([1, 2], [], [])
    """
    return list(value) if isinstance(value, list | tuple) else []


def weighted_sum(values: Sequence[float], weights: Sequence[float]) -> float:
    """``sum_r values[r] * weights[r]``, each product rounded, added in index order (as
    :func:`weighted_rows` adds them, row by row: the same floats)."""
    n = len(values)
    if len(weights) != n:
        raise ValueError(f"{n} values and {len(weights)} weights")
    if n == 0:
        return 0.0
    total = values[0] * weights[0]
    for r in range(1, n):
        total = total + values[r] * weights[r]
    return total


def weighted_rows(rows: np.ndarray, weights: Sequence[float] | np.ndarray) -> np.ndarray:
    """:func:`weighted_sum` of each row of a matrix, by columns (numpy's element-wise
    operations are the IEEE ones, the same on every machine)."""
    ws = [float(w) for w in weights]
    if not ws:
        return np.zeros(rows.shape[0])
    out: np.ndarray = rows[:, 0] * ws[0]
    for r in range(1, len(ws)):
        out = out + rows[:, r] * ws[r]
    return out


def row_numbers(rows: np.ndarray) -> tuple[list[int], list[int]]:
    """Each row's number (rows of the same bytes, one number: ``-0.0`` stands apart from
    ``0.0``), in order of first appearance, and each number's first row.

    A row's bytes are its key in a dict: a sort of the rows as raw bytes (``np.unique``)
    compared them byte by byte, a twentieth of a simulation's set-up.

    >>> row_numbers(np.array([[2.0, 1.0], [1.0, 1.0], [2.0, 1.0]]))
    ([0, 1, 0], [0, 1])
    """
    rows = np.ascontiguousarray(rows)
    number: dict[Any, int] = {}
    numbers: list[int] = []
    first: list[int] = []
    if not len(rows):
        return numbers, first
    width = rows.itemsize * (rows.shape[1] if rows.ndim > 1 else 1)
    raw: list[Any] = rows.view(np.dtype((np.void, width))).ravel().tolist()
    for i, row in enumerate(raw):  # each row's bytes (a void item's ``tolist``)
        k = number.get(row)
        if k is None:
            k = number[row] = len(first)
            first.append(i)
        numbers.append(k)
    return numbers, first
