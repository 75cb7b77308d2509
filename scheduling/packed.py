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
import json
import math
import re
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = [
    "MARKER", "PACK_MIN", "Column", "is_packed", "pack", "pack_tree", "unpack", "unpack_text",
    "unpack_text_chunks", "unpack_tree",
]

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
        gaps = items.count(None) if type(None) in kinds else 0
        array = np.array(
            [math.nan if x is None else x for x in items] if gaps else items, dtype=_DTYPES["float64"]
        )
        # Only finite values and gaps: NaN stands for a gap once packed, and an infinity is no
        # JSON number (a document that holds one is refused where it was before).
        if int(np.count_nonzero(np.isfinite(array))) != len(items) - gaps:
            return items
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

    A column that is changed in place (appended to, sorted, an item set) forgets its array:
    numpy then reads its items, as it reads a list's.

    >>> column = unpack(pack([1.0, None, 3.0]))
    >>> column, np.asarray(column, dtype=float).tolist()
    ([1.0, None, 3.0], [1.0, nan, 3.0])
    >>> column[0] = 5.0
    >>> np.asarray(column, dtype=float).tolist()
    [5.0, nan, 3.0]
    """

    __slots__ = ("_array", "_gaps")

    def __init__(self, array: np.ndarray[Any, Any]) -> None:
        items: list[Any] = array.tolist()
        gaps = np.flatnonzero(np.isnan(array)).tolist() if array.dtype.kind == "f" else []
        for k in gaps:
            items[k] = None
        super().__init__(items)
        self._array: np.ndarray[Any, Any] | None = array
        self._gaps = bool(gaps)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        array = self._array
        if array is None or not self._same_as_the_list(dtype):
            return np.array(list(self), dtype=dtype)  # as numpy reads a list
        # Always a new array: whoever asked may write to it.
        return array.astype(array.dtype if dtype is None else dtype)

    def _same_as_the_list(self, dtype: Any) -> bool:
        """Whether the array, as ``dtype``, is what numpy makes of the list's items."""
        if dtype is None:
            return not self._gaps  # a list with None is an object array
        kind = np.dtype(dtype).kind
        return kind != "O" and (not self._gaps or kind in "fc")  # None has no integer form

    # Every way of changing a list in place forgets the array.
    def __setitem__(self, *args: Any) -> None:
        self._array = None
        super().__setitem__(*args)

    def __delitem__(self, *args: Any) -> None:
        self._array = None
        super().__delitem__(*args)

    def __iadd__(self, other: Any) -> Column:  # type: ignore[misc]
        self._array = None
        return super().__iadd__(other)

    def __imul__(self, n: Any) -> Column:  # type: ignore[misc]
        self._array = None
        return super().__imul__(n)

    def append(self, item: Any) -> None:
        self._array = None
        super().append(item)

    def extend(self, items: Any) -> None:
        self._array = None
        super().extend(items)

    def insert(self, index: Any, item: Any) -> None:
        self._array = None
        super().insert(index, item)

    def pop(self, *args: Any) -> Any:
        self._array = None
        return super().pop(*args)

    def remove(self, item: Any) -> None:
        self._array = None
        super().remove(item)

    def clear(self) -> None:
        self._array = None
        super().clear()

    def reverse(self) -> None:
        self._array = None
        super().reverse()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self._array = None
        super().sort(*args, **kwargs)


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


#: The shortest list :func:`pack_tree` packs: a shorter one stays readable (packing it saves little).
PACK_MIN = 64


def pack_tree(value: Any, min_length: int = PACK_MIN) -> Any:
    """``value`` with every list of at least ``min_length`` items in its objects, at any depth,
    packed where it can be (:func:`pack`); the inverse of :func:`unpack_tree`.

    >>> tree = pack_tree({"t": [0.5] * 64, "name": "x", "few": [1, 2]})
    >>> tree["t"]["$packed"], tree["name"], tree["few"], unpack_tree(tree)["t"] == [0.5] * 64
    ('float64', 'x', [1, 2], True)
    """
    if isinstance(value, Mapping):
        return {k: pack_tree(v, min_length) for k, v in value.items()}
    if isinstance(value, list) and len(value) >= min_length:
        return pack(value)
    return value


# A packed column in JSON text, as Python's ``json`` writes it ("$packed" first) or as
# PostgreSQL writes a ``jsonb`` value (shorter keys first: "zlib" first). Neither can start
# inside a JSON string, where every quote is escaped.
_PACKED_TEXT = re.compile(
    r'\{"zlib": ?"([A-Za-z0-9+/=]*)", ?"\$packed": ?"(float64|int64)"\}'
    r'|\{"\$packed": ?"(float64|int64)", ?"zlib": ?"([A-Za-z0-9+/=]*)"\}'
)


def _expanded(match: re.Match[str]) -> str:
    data, dtype = (match[1], match[2]) if match[2] is not None else (match[4], match[3])
    return json.dumps(unpack({MARKER: dtype, "zlib": data}))


def unpack_text_chunks(text: str) -> Iterator[str]:
    """:func:`unpack_text` a piece at a time: the text between packed columns as it is, and each
    packed column written out as its list, in order (a big document is never held written out
    whole).

    >>> list(unpack_text_chunks('[{"$packed": "int64", "zlib": "eAFjZIAAJigNAAAwAAQ="}, 3]'))
    ['[', '[1, 2]', ', 3]']
    """
    start = 0
    for match in _PACKED_TEXT.finditer(text):
        if match.start() > start:
            yield text[start : match.start()]
        yield _expanded(match)
        start = match.end()
    if start < len(text):
        yield text[start:]


def unpack_text(text: str) -> str:
    """The JSON text ``text`` with every packed column in it written out as its list: the
    same JSON value as :func:`unpack_tree` of ``text`` parsed, without parsing the rest.

    >>> unpack_text('{"a": {"$packed": "int64", "zlib": "eAFjZIAAJigNAAAwAAQ="}, "b": "x"}')
    '{"a": [1, 2], "b": "x"}'
    """
    return "".join(unpack_text_chunks(text))
