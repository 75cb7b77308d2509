"""Numeric columns packed into JSON: a column's 8-byte values, compressed, in one string.

A long list of numbers is the costliest thing to put in a JSON document and take out again:
every number is parsed and printed as text, by Python and by the database (PostgreSQL's
``jsonb`` turns each one into a ``numeric``). Packed, a column is one string: its values as
little-endian ``int64`` or ``float64`` (written and read back by numpy at memory speed, the same
values; ``None`` travels as NaN, which a document never holds otherwise), compressed by zlib at
its fastest level (a simulation's timeline to a quarter of its text) and base64-encoded. A
packed column is the object ``{"$packed": "float64" | "int64", "zlib": "..."}``.

Only a list all of whose items are ``int`` (not ``bool``), or all ``float`` or ``None``, is
packed; any other value is left as it is, so :func:`unpack` gives back exactly what
:func:`pack` was given (ints stay ints, floats floats).

>>> column = pack([0.5, None, 2.0])
>>> column["$packed"], unpack(column)
('float64', [0.5, None, 2.0])
>>> unpack(pack([1, 2, 3])), pack(["a", 1]), pack([True, False])
([1, 2, 3], ['a', 1], [True, False])
>>> unpack_tree({"t": pack([0.0, 1.5]), "by_type": {"small": pack([1, 0])}, "name": "x"})
{'t': [0.0, 1.5], 'by_type': {'small': [1, 0]}, 'name': 'x'}
"""

from __future__ import annotations

import base64
import math
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["MARKER", "Column", "is_packed", "pack", "unpack", "unpack_tree"]

#: The key that marks a packed column (no document's own key starts with ``$``).
MARKER = "$packed"
_DTYPES = {"float64": np.dtype("<f8"), "int64": np.dtype("<i8")}


def pack(values: Sequence[Any]) -> dict[str, str] | list[Any]:
    """``values`` packed (module docstring), or as a plain list when they cannot be.

    >>> sorted(pack([1, 2])), pack([1, 2])["$packed"]
    (['$packed', 'zlib'], 'int64')
    """
    items = list(values)
    kinds = {type(x) for x in items}
    if kinds <= {int}:
        if any(x < -(2**63) or x >= 2**63 for x in items):
            return items
        array = np.array(items, dtype=_DTYPES["int64"])
        name = "int64"
    elif kinds <= {float, type(None)}:
        if any(x is not None and math.isnan(x) for x in items):
            return items  # NaN stands for None once packed
        array = np.array([math.nan if x is None else x for x in items], dtype=_DTYPES["float64"])
        name = "float64"
    else:
        return items
    data = zlib.compress(array.tobytes(), 1)
    return {MARKER: name, "zlib": base64.b64encode(data).decode("ascii")}


def is_packed(value: Any) -> bool:
    """Whether ``value`` is a packed column."""
    return (
        isinstance(value, Mapping)
        and len(value) == 2
        and value.get(MARKER) in _DTYPES
        and isinstance(value.get("zlib"), str)
    )


class Column(list[Any]):
    """An unpacked column: the list of its values, which also hands numpy the array it was
    read from, so ``np.asarray(column, dtype=float)`` copies 8 bytes a value instead of
    converting each one again (numpy asks a list subclass for ``__array__`` first).

    The array is the list's values as they were unpacked: a column is read, not changed (a
    changed list would hand numpy its old values).

    >>> column = unpack(pack([1.0, None, 3.0]))
    >>> column, np.asarray(column, dtype=float).tolist()
    ([1.0, None, 3.0], [1.0, nan, 3.0])
    """

    __slots__ = ("_array",)

    def __init__(self, array: np.ndarray[Any, Any]) -> None:
        items: list[Any] = array.tolist()
        if array.dtype.kind == "f":
            for k in np.flatnonzero(np.isnan(array)).tolist():
                items[k] = None
        super().__init__(items)
        self._array = array

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        if dtype is not None and np.dtype(dtype).kind == "O":
            return np.array(list(self), dtype=object)  # None stays None, as from the list
        # Always a new array: whoever asked may write to it.
        return self._array.astype(self._array.dtype if dtype is None else dtype)


def unpack(value: Any) -> Any:
    """The values a packed column holds, as a :class:`Column` (``None`` where it holds NaN);
    any other value as it is."""
    if not is_packed(value):
        return value
    data = zlib.decompress(base64.b64decode(value["zlib"]))
    return Column(np.frombuffer(data, dtype=_DTYPES[value[MARKER]]))


def unpack_tree(value: Any) -> Any:
    """``value`` with every packed column in it, at any depth of objects, unpacked."""
    if is_packed(value):
        return unpack(value)
    if isinstance(value, Mapping):
        return {k: unpack_tree(v) for k, v in value.items()}
    return value
