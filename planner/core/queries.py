"""Query-string parameters read by one rule: an id is ASCII digits that fit a database id.

``"²".isdigit()`` is true and ``int("²")`` raises, and an id of more than 19 digits overflows
SQLite's integers (``OverflowError``): either was a 500. The API answers a bad parameter with
a 400 naming it (:func:`query_id`, :func:`query_choice`, :func:`query_int`); the pages, whose
parameters come from their own links, treat it as absent (:func:`query_id_or_none`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import InputError

#: The largest id any of the databases stores (a signed 64-bit integer).
MAX_ID = 2**63 - 1
_DIGITS = re.compile(r"[0-9]{1,19}")


def _id_value(raw: str) -> int | None:
    if not _DIGITS.fullmatch(raw):
        return None
    value = int(raw)
    return value if 1 <= value <= MAX_ID else None


def query_id(params: Mapping[str, Any], name: str, *, what: str = "object") -> int | None:
    """``?name=<id>``: ``None`` when absent or empty; a 400 at ``name`` unless it is an id."""
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    value = _id_value(str(raw))
    if value is None:
        raise InputError.single(name, f"must be the id of a {what}: a whole number from 1 to {MAX_ID}")
    return value


def query_id_or_none(params: Mapping[str, Any], name: str) -> int | None:
    """``?name=<id>`` for a page: ``None`` when absent or not an id."""
    raw = params.get(name)
    return None if raw is None else _id_value(str(raw))


def query_choice(params: Mapping[str, Any], name: str, choices: Iterable[str]) -> str | None:
    """``?name=<one of choices>``: ``None`` when absent or empty; a 400 at ``name`` otherwise."""
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    allowed = list(choices)
    if raw not in allowed:
        raise InputError.single(name, f"must be one of: {', '.join(allowed)}")
    return str(raw)


def query_int(params: Mapping[str, Any], name: str, *, default: int, maximum: int) -> int:
    """``?name=<n>`` with ``0 <= n <= maximum``; ``default`` when absent; a 400 otherwise."""
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    text = str(raw)
    if not (_DIGITS.fullmatch(text) and int(text) <= maximum):
        raise InputError.single(name, f"must be a whole number from 0 to {maximum}")
    return int(text)
