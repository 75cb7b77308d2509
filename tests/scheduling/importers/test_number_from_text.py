"""A file's cell read as a number: the digits-only shortcut gives what the general rule gives."""

from __future__ import annotations

import math

import pytest

from scheduling.importers.registry import number_from_text


def _general(text: str) -> int | float:
    """The rule without the shortcut: ``float``, whole numbers below 2**53 as ``int``."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


@pytest.mark.parametrize(
    "text",
    ["0", "7", "000123", "999999999999999", "1234567890123456", "12345678901234567890", " 4 ", "+5", "-3",
     "1_000", "2.5", "1e3", "\u0663", "\u0663\u0663", "\u00b2", "\u2460", "", "abc", "inf", "nan"],
)
def test_every_cell_reads_as_the_general_rule_reads_it(text: str) -> None:
    try:
        expected: int | float | None = _general(text)
    except ValueError:
        expected = None
    try:
        got: int | float | None = number_from_text(text)
    except ValueError:
        got = None
    assert got == expected and type(got) is type(expected)
