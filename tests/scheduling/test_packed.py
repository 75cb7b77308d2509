"""Packed numeric columns (scheduling.packed): what goes in comes out, value for value and type
for type, and a packed column is plain JSON."""

from __future__ import annotations

import json
import math

import pytest

from scheduling.packed import MARKER, is_packed, pack, unpack, unpack_tree


@pytest.mark.parametrize(
    "values",
    [
        [],
        [0.0, -0.0, 1.5, 1e-300, 1.7976931348623157e308, -2.5e-7, None, 3.0],
        [None, None],
        [0, -1, 2**63 - 1, -(2**63), 7],
        [0.1 * k for k in range(10_000)],
    ],
)
def test_a_packed_column_unpacks_to_the_same_values_and_types(values: list[object]) -> None:
    column = pack(values)
    assert is_packed(column)
    text = json.dumps(column, allow_nan=False)  # plain JSON: no NaN literal
    back = unpack(json.loads(text))
    assert back == values
    assert [type(x) for x in back] == [type(x) for x in values]
    assert [math.copysign(1.0, x) for x in back if isinstance(x, float)] == [
        math.copysign(1.0, x) for x in values if isinstance(x, float)
    ]


@pytest.mark.parametrize(
    "values",
    [
        [1, 2.5],  # ints and floats mixed: packing would turn 1 into 1.0
        [True, False],  # bools are ints to Python, not to a document
        [1, None],  # an int column with a gap
        [2**63],  # wider than 64 bits
        [math.nan, 1.0],  # NaN already stands for None once packed
        ["a", "b"],
        [[1.0], [2.0]],
    ],
)
def test_a_column_that_cannot_be_packed_exactly_stays_a_list(values: list[object]) -> None:
    kept = pack(values)
    assert isinstance(kept, list) and not is_packed(kept)
    assert all(a is b for a, b in zip(kept, values, strict=True))


def test_only_the_packed_shape_is_unpacked() -> None:
    lookalikes = [
        {MARKER: "float64"},
        {MARKER: "float32", "zlib": "AAAA"},
        {MARKER: "int64", "zlib": 5},
        {MARKER: "int64", "zlib": "", "more": 1},
        {"cpu": [1.0, 2.0]},
    ]
    for value in lookalikes:
        assert not is_packed(value)
        assert unpack(value) is value
    tree = {"timeline": {"t": pack([0.0, 2.0]), "active_vms": {"small": pack([1, 0])}},
            "jobs": [pack([1])], "name": "x"}
    # Objects are walked at any depth; lists are values, not walked.
    assert unpack_tree(tree) == {"timeline": {"t": [0.0, 2.0], "active_vms": {"small": [1, 0]}},
                                 "jobs": [pack([1])], "name": "x"}


def test_a_long_column_packs_smaller_than_its_text() -> None:
    values = [float(17 + 11 * k) for k in range(20_000)]
    assert len(json.dumps(pack(values))) < len(json.dumps(values)) / 3
