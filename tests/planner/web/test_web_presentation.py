"""The pure functions behind the pages: the run page's doctests and the split of row errors (no database)."""

from __future__ import annotations

import doctest

import pytest

from planner.web import errors
from planner.web.views import runs as run_views


@pytest.mark.parametrize("module", [errors, run_views])
def test_doctests(module):
    failures, _ = doctest.testmod(module)
    assert failures == 0


def test_split_rows():
    from planner.core.errors import InputError
    from scheduling import FieldError

    exc = InputError([FieldError("entries[1].count", "must be >= 0"), FieldError("entries", "too many"),
                      FieldError("name", "taken"), FieldError("entries[9].count", "out of range")])
    rows, whole, rest = errors.split_rows(exc, "entries", 3)
    assert rows == {1: ["count: must be >= 0"]}
    assert whole == ["too many"]
    assert [e.path for e in rest] == ["name", "entries[9].count"]
