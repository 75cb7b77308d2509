"""Names and descriptions of stored objects, checked like the scenario document's names."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from scheduling import LIMITS

from .errors import InputError

NAME_MAX_CHARS = int(LIMITS["name_chars"])
DESCRIPTION_MAX_CHARS = 10_000


def clean_name(value: Any, path: str = "name", *, max_chars: int = NAME_MAX_CHARS) -> str:
    """A non-empty name without control characters, stripped of surrounding blanks."""
    if not isinstance(value, str) or not value.strip():
        raise InputError.single(path, "must not be empty")
    value = value.strip()
    if len(value) > max_chars:
        raise InputError.single(path, f"must be at most {max_chars} characters")
    if any(ord(c) < 32 for c in value):
        raise InputError.single(path, "must not contain control characters")
    return value


def clean_description(value: Any, path: str = "description") -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError.single(path, "must be a string")
    if len(value) > DESCRIPTION_MAX_CHARS:
        raise InputError.single(path, f"must be at most {DESCRIPTION_MAX_CHARS:,} characters")
    return value


def free_name(base: str, taken: Collection[str], *, max_chars: int = NAME_MAX_CHARS) -> str:
    """``base``, or ``base (2)``, ``base (3)``, ... : the first one not in ``taken``.

    >>> free_name("m1.large", {"m1.large", "m1.large (2)"})
    'm1.large (3)'
    """
    if base not in taken:
        return base
    k = 2
    while True:
        suffix = f" ({k})"
        candidate = base[: max_chars - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        k += 1
