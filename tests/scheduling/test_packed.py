"""Packed numeric columns (scheduling.packed): what goes in comes out, value for value and type
for type, and a packed column is plain JSON."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from scheduling.packed import MARKER, is_packed, pack, pack_tree, unpack, unpack_text, unpack_tree


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


def test_a_tree_packs_its_long_lists_and_unpacks_to_the_same_value() -> None:
    tree = {
        "t": [0.5 * k for k in range(100)],
        "few": [1.0, 2.0],
        "ids": [f"j{k}" for k in range(100)],
        "nested": {"n": list(range(100)), "gaps": [None, 1.5] * 50},
        "rows": [{"x": list(range(100))}],  # lists are values: not walked
        "mixed": [1, 2.5] * 50,
    }
    packed = pack_tree(tree)
    assert is_packed(packed["t"]) and is_packed(packed["nested"]["n"]) and is_packed(packed["nested"]["gaps"])
    assert packed["few"] == [1.0, 2.0] and packed["ids"] == tree["ids"] and packed["mixed"] == tree["mixed"]
    assert packed["rows"] == tree["rows"]
    assert unpack_tree(json.loads(json.dumps(packed))) == tree
    assert pack_tree(tree, min_length=1000) == tree


def test_infinities_are_not_packed() -> None:
    """An infinity is no JSON number: the list is left as it is (and refused where it was)."""
    for values in ([1.0, math.inf], [-math.inf, None]):
        assert pack(values) == values and not is_packed(pack(values))


@pytest.mark.parametrize("first", ["$packed", "zlib"])
def test_the_text_of_a_document_unpacks_as_the_document(first: str) -> None:
    """Written out as Python writes a packed column ("$packed" first) or as PostgreSQL writes
    jsonb (shorter keys first), with or without spaces."""
    tree = {"a": [0.1 * k for k in range(70)], "b": {"c": list(range(-35, 35))}, "s": '{"$packed": "x"}',
            "gaps": [None] * 70}
    packed = pack_tree(tree)

    def reorder(value: object) -> object:
        if is_packed(value):
            return dict(sorted(value.items(), key=lambda kv: kv[0] != first))  # type: ignore[union-attr]
        if isinstance(value, dict):
            return {k: reorder(v) for k, v in value.items()}
        return value

    for separators in ((", ", ": "), (",", ":")):
        text = json.dumps(reorder(packed), separators=separators)
        assert '"$packed"' in text
        out = unpack_text(text)
        assert "$packed" not in out.replace('"{\\"$packed\\": \\"x\\"}"', "")
        assert json.loads(out) == tree


def test_a_column_changed_in_place_hands_numpy_its_new_values() -> None:
    changes = [
        lambda c: c.append(9.0), lambda c: c.extend([9.0]), lambda c: c.insert(0, 9.0),
        lambda c: c.pop(), lambda c: c.remove(1.0), lambda c: c.clear(), lambda c: c.reverse(),
        lambda c: c.sort(reverse=True), lambda c: c.__setitem__(0, 9.0), lambda c: c.__delitem__(0),
        lambda c: c.__iadd__([9.0]), lambda c: c.__imul__(2),
    ]
    for change in changes:
        column = unpack(pack([1.0, 2.0, 3.0]))
        change(column)
        np.testing.assert_array_equal(np.asarray(column, dtype=float), np.asarray(list(column), dtype=float))
    column = unpack(pack([1.0, None, 3.0]))
    column.append(None)
    np.testing.assert_array_equal(np.asarray(column, dtype=float), [1.0, np.nan, 3.0, np.nan])
    column = unpack(pack([1, 2, 3]))
    assert np.asarray(column).dtype == np.int64 and np.asarray(column, dtype=object).tolist() == [1, 2, 3]


@pytest.mark.parametrize("values", [[1.0, None, 3.0], [1.0, 2.5], [1, 2, 3], [None, None]])
@pytest.mark.parametrize("dtype", [None, float, "float32", int, object, bool])
def test_numpy_makes_of_a_column_what_it_makes_of_its_list(values: list[object], dtype: object) -> None:
    column = unpack(pack(values))
    try:
        expected = np.array(values, dtype=dtype)
    except TypeError:  # None as an integer
        with pytest.raises(TypeError):
            np.asarray(column, dtype=dtype)
        return
    got = np.asarray(column, dtype=dtype)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
