"""The rules every field of a document is read by: names, numbers, lists, per-resource amounts.

Readers add a :class:`~scheduling.errors.FieldError` to a :class:`Problems` collector and
return ``None`` instead of raising, so that one pass finds *every* problem. The name rule
is public (:func:`name_problem`): the planner checks the names it stores with it, so a
name the library refuses can never be stored.

>>> name_problem("m1.large") is None
True
>>> print(name_problem("\\ud800"))
contains a lone surrogate (\\ud800 at character 1), which is not a character: text must be valid Unicode
>>> name_problem("   ")
'must not be empty'
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..errors import FieldError, ScenarioError
from ..jsontext import surrogate_message
from ..numbers import finite, integral
from .limits import LIMITS

__all__ = ["Problems", "name_problem", "shown", "text_problem"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: Unicode categories no name may hold: controls (Cc: C0, DEL, C1 such as U+0085), format
#: characters (Cf: the bidirectional overrides and isolates U+202A-202E, U+2066-2069, zero-width
#: spaces and joiners, U+FEFF), and the line and paragraph separators (Zl U+2028, Zp U+2029).
#: Each can make a name look like another one, or reorder the text around it.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def _invisible_character(value: str) -> str | None:
    """The message for the first control or format character of ``value``, or ``None``."""
    if value.isascii():
        if value.isprintable():  # of ASCII: everything but the controls _CONTROL finds
            return None
        found = _CONTROL.search(value)
        if found is None:
            return None
        index, char = found.start(), found.group()
    else:
        found_at = next(
            (i for i, c in enumerate(value) if unicodedata.category(c) in _INVISIBLE_CATEGORIES), None
        )
        if found_at is None:
            return None
        index, char = found_at, value[found_at]
    return f"must not contain control or format characters (U+{ord(char):04X} at character {index + 1})"


class Problems:
    """Collects errors and warnings; stops *collecting* (not checking) past the report limit.

    Errors make a document invalid (:meth:`raise_if_any`); warnings do not block anything
    and come back with a valid parse.
    """

    def __init__(self) -> None:
        self.items: list[FieldError] = []
        self.dropped = 0
        self.warned: list[FieldError] = []
        self.warnings_dropped = 0

    def add(self, path: str, message: str) -> None:
        if len(self.items) < LIMITS["errors_reported"]:
            self.items.append(FieldError(path, message))
        else:
            self.dropped += 1

    def warn(self, path: str, message: str) -> None:
        if len(self.warned) < LIMITS["errors_reported"]:
            self.warned.append(FieldError(path, message))
        else:
            self.warnings_dropped += 1

    def raise_if_any(self) -> None:
        if self.items:
            items = list(self.items)
            if self.dropped:
                items.append(FieldError("", f"... and {self.dropped} more errors"))
            raise ScenarioError(items)

    def warnings(self) -> tuple[FieldError, ...]:
        extra = (
            [FieldError("", f"... and {self.warnings_dropped} more warnings")]
            if self.warnings_dropped
            else []
        )
        return (*self.warned, *extra)


def _encoding_problem(value: str) -> str | None:
    # The only text a Python string holds that UTF-8 cannot write: lone surrogates (jsontext),
    # which ASCII text cannot hold.
    return None if value.isascii() else surrogate_message(value)


def name_problem(value: Any, *, max_chars: int | None = None) -> str | None:
    """What is wrong with ``value`` as a name, or ``None`` if it is a good one.

    The one rule for every name: VM types, frameworks, job ids, resources, scenarios, and
    the planner's clusters, workloads and teams. A name is a non-blank string of at most
    ``max_chars`` characters (default ``LIMITS["name_chars"]``) without control or format
    characters (Unicode categories Cc, Cf, Zl and Zp: no bidirectional override, no zero-width
    space, no line separator, no DEL) that can be written as UTF-8 (so no lone surrogate such
    as ``"\\ud800"``, which JSON can carry but no database or file can store).

    Parameters
    ----------
    value
        The candidate name, as read from a document or a request.
    max_chars
        The longest name allowed.

    Returns
    -------
    str or None
        The message to show after the field's path (``must not be empty``), or ``None``.

    Examples
    --------
    >>> [name_problem(v) for v in ("etl", "", 3)]
    [None, 'must not be empty', 'must be a string']
    >>> name_problem("x" * 101)
    'must be at most 100 characters'
    >>> name_problem("invoice\u202egpj.exe")
    'must not contain control or format characters (U+202E at character 8)'
    """
    limit = int(LIMITS["name_chars"]) if max_chars is None else max_chars
    if not isinstance(value, str):
        return "must be a string"
    if not value.strip():
        return "must not be empty"
    if len(value) > limit:
        return f"must be at most {limit} characters"
    invisible = _invisible_character(value)
    if invisible is not None:
        return invisible
    return _encoding_problem(value)


def text_problem(value: Any, *, max_chars: int | None = None) -> str | None:
    """What is wrong with ``value`` as free text (a description), or ``None``.

    Free text may be empty and may hold line breaks, but it must be a string of at most
    ``max_chars`` characters (default ``LIMITS["description_chars"]``) that can be
    written as UTF-8.

    >>> text_problem("two\\nlines") is None, text_problem("\\udfff")[:25]
    (True, 'contains a lone surrogate')
    """
    limit = int(LIMITS["description_chars"]) if max_chars is None else max_chars
    if not isinstance(value, str):
        return "must be a string"
    if len(value) > limit:
        return f"must be at most {limit:,} characters"
    return _encoding_problem(value)


def shown(key: Any) -> str:
    """A key of the input as it may appear in a path: escaped if it cannot be printed or stored.

    >>> shown("cpu"), shown("\\ud800"), shown(7)
    ('cpu', '\\\\ud800', '7')
    """
    text = str(key)
    if _CONTROL.search(text) or _encoding_problem(text) is not None or _invisible_character(text):
        return repr(text)[1:-1]
    return text


# --------------------------------------------------------------------------- readers


def field_path(path: str, field: str) -> str:
    """``<path>.<field>``, or ``path`` without a field: where the readers below report a problem
    when given a ``field`` (a workload's fields are read by the hundred thousand, and their
    paths are written only for a problem).

    >>> field_path("jobs[3]", "executors"), field_path("jobs[3]", "")
    ('jobs[3].executors', 'jobs[3]')
    """
    return f"{path}.{field}" if field else path


def entries(
    items: list[Any], path: str, known: Iterable[str], problems: Problems
) -> Iterator[tuple[str, Mapping[Any, Any]]]:
    """Each entry of the list ``items`` at ``path`` that is an object, with its own path.

    An entry that is not an object is a problem and is skipped; an object's keys that are not
    ``known`` are problems, and the object is still read.

    >>> problems = Problems()
    >>> [p for p, _ in entries([{"name": "a"}, 3, {"nme": "b"}], "vm_types", ["name"], problems)]
    ['vm_types[0]', 'vm_types[2]']
    >>> [str(e) for e in problems.items]
    ['vm_types[1]: must be an object', 'vm_types[2].nme: unknown field (expected one of: name)']
    """
    expected = frozenset(known)
    for i, item in enumerate(items):
        item_path = entry(item, i, path, expected, problems)
        if item_path is not None:
            yield item_path, item


def entry(item: Any, i: int, path: str, expected: frozenset[str], problems: Problems) -> str | None:
    """What :func:`entries` does with entry ``i`` of the list at ``path``: its path when it is
    an object (its keys not in ``expected`` are problems), else a problem and ``None``. (A
    loop over a hundred thousand jobs calls it without a generator's resumptions.)

    >>> problems = Problems()
    >>> entry({"name": "a"}, 0, "vm_types", frozenset(["name"]), problems)
    'vm_types[0]'
    >>> entry(3, 1, "vm_types", frozenset(), problems) is None, [str(e) for e in problems.items]
    (True, ['vm_types[1]: must be an object'])
    """
    item_path = f"{path}[{i}]"
    if type(item) is not dict and not isinstance(item, Mapping):
        problems.add(item_path, "must be an object")
        return None
    if not expected.issuperset(item):
        unknown_keys(item, expected, item_path, problems)
    return item_path


def paths_with_key(section: str, key: str, items: Any) -> list[str]:
    """The paths (``<section>[i].<key>``) of the objects in the list ``items`` that have ``key``
    (none when ``items`` is not a list): compiled, for a workload's every job.

    >>> paths_with_key("jobs", "deadline_s", [{"deadline_s": 1}, {}, 3, {"deadline_s": None}])
    ['jobs[0].deadline_s', 'jobs[3].deadline_s']
    """
    out: list[str] = []
    if isinstance(items, list):
        for i, x in enumerate(items):
            if (type(x) is dict or isinstance(x, Mapping)) and key in x:
                out.append(f"{section}[{i}].{key}")
    return out


def first_of_its_name(
    value: str | None, seen: set[str], path: str, what: str, problems: Problems, *, field: str = ""
) -> str | None:
    """``value`` when no earlier entry of its list had it (it is then remembered in ``seen``).

    A repeated name is a problem, ``duplicate <what> <value>``, at ``path`` (or
    ``<path>.<field>``, as :func:`number`), and gives ``None``.

    >>> problems, seen = Problems(), set()
    >>> first_of_its_name("a", seen, "jobs[0].id", "job id", problems)
    'a'
    >>> first_of_its_name("a", seen, "jobs[1].id", "job id", problems) is None
    True
    >>> [str(e) for e in problems.items]
    ["jobs[1].id: duplicate job id 'a'"]
    """
    if value is None:
        return None
    if value in seen:
        problems.add(field_path(path, field), f"duplicate {what} {value!r}")
        return None
    seen.add(value)
    return value


def unknown_keys(data: Mapping[Any, Any], known: Iterable[str], path: str, problems: Problems) -> None:
    expected = set(known)
    for key in data:
        if key not in expected:
            where = f"{path}.{shown(key)}" if path else shown(key)
            problems.add(where, f"unknown field (expected one of: {', '.join(sorted(expected))})")


def _plain_number(
    value: Any, minimum: float | None, exclusive: bool, maximum: float | None, integer: bool
) -> float | None:
    """:func:`number` of a plain ``int`` or ``float`` that it accepts, else ``None`` (then
    :func:`number` reads it the general way, which reports what is wrong): without the general
    path's boxed comparisons, for a workload's every field."""
    kind = type(value)
    if kind is not float and kind is not int:
        return None
    x = float(value)
    # A finite number (x - x is 0 for no other), whole if it must be, within the bounds.
    if (
        x - x == 0.0
        and (not integer or float(int(x)) == x)
        and (minimum is None or (x > minimum if exclusive else x >= minimum))
        and (maximum is None or x <= maximum)
    ):
        return int(x) if integer else x
    return None


def number(
    value: Any,
    path: str,
    problems: Problems,
    *,
    minimum: float | None = None,
    exclusive: bool = False,
    maximum: float | None = None,
    integer: bool = False,
    field: str = "",
) -> float | None:
    """A finite number within the bounds (an ``int`` when ``integer``), else ``None``.

    What counts as a number is :mod:`scheduling.numbers`' rule (no booleans, no NaN). A problem
    is reported at ``path``, or at ``<path>.<field>`` when ``field`` is given (a workload's
    fields are read by the hundred thousand: their paths are written only for a problem).
    """
    fast = _plain_number(value, minimum, exclusive, maximum, integer)
    if fast is not None:
        return fast
    kind = type(value)
    if kind is float or kind is int:  # the common case, as finite() and integral() read it
        as_float = float(value)
        if not math.isfinite(as_float):
            read: float | None = None
        elif integer:
            read = int(as_float) if as_float == int(as_float) else None
        else:
            read = as_float
    else:
        read = integral(value) if integer else finite(value)
    path = field_path(path, field)
    if read is None:
        non_finite = isinstance(value, float) and not math.isfinite(value)
        problems.add(
            path,
            "must be a finite number"
            if non_finite
            else "must be an integer"
            if integer
            else "must be a number",
        )
        return None
    value = read
    if minimum is not None:
        if exclusive and value <= minimum:
            problems.add(path, f"must be > {minimum:g}")
            return None
        if not exclusive and value < minimum:
            problems.add(path, f"must be >= {minimum:g}")
            return None
    if maximum is not None and value > maximum:
        problems.add(path, f"must be <= {maximum:g}")
        return None
    return read


def name(
    value: Any, path: str, problems: Problems, *, allow_int: bool = False, field: str = ""
) -> str | None:
    """A name by :func:`name_problem`; job ids may also be integers (``17`` reads as ``"17"``).
    A problem is reported at ``path``, or ``<path>.<field>`` (as :func:`number`)."""
    if allow_int and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    problem = name_problem(value)
    if problem is not None:
        problems.add(field_path(path, field), problem)
        return None
    assert isinstance(value, str)
    return value


@functools.cache
def _resource_set(resources: tuple[str, ...]) -> frozenset[str]:
    return frozenset(resources)


def vector(
    value: Any, resources: tuple[str, ...], path: str, problems: Problems, *, positive: bool, field: str = ""
) -> tuple[float, ...] | None:
    """A per-resource amount such as ``{"cpu": 2, "mem": 4}``; every resource is required.
    Problems are reported under ``path``, or ``<path>.<field>`` (as :func:`number`)."""
    if type(value) is dict and len(value) == len(resources):
        # The common case, one finite amount per resource within the bounds, read without
        # writing a path; anything else is read again below, which reports it.
        capacity = LIMITS["capacity"]
        amounts: list[float] = []
        for r in resources:
            amount = _plain_number(value.get(r), 0.0, positive, capacity, False)
            if amount is None:
                break
            amounts.append(amount)
        else:
            return tuple(amounts)
    path = field_path(path, field)
    if type(value) is not dict and not isinstance(value, Mapping):
        problems.add(path, f"must be an object with {', '.join(resources)}")
        return None
    ok = True
    if not value.keys() <= _resource_set(resources):
        for key in value:
            if key not in resources:
                problems.add(
                    f"{path}.{shown(key)}", f"unknown resource (resources are {', '.join(resources)})"
                )
                ok = False
    out = []
    for r in resources:
        if r not in value:
            problems.add(f"{path}.{r}", "is required")
            ok = False
            continue
        v = number(
            value[r], path, problems, minimum=0, exclusive=positive, maximum=LIMITS["capacity"], field=r
        )
        if v is None:
            ok = False
        else:
            out.append(v)
    return tuple(out) if ok else None


def listed(value: Any, path: str, problems: Problems, limit_key: str) -> list[Any] | None:
    """A JSON list of at most ``LIMITS[limit_key]`` entries, else ``None``."""
    if not isinstance(value, list):
        problems.add(path, "must be a list")
        return None
    if len(value) > LIMITS[limit_key]:
        problems.add(path, f"has {len(value)} entries; the limit is {int(LIMITS[limit_key]):,}")
        return None
    return value


def plain(x: float) -> float | int:
    """Integers stay integers in JSON (``4`` rather than ``4.0``).

    >>> plain(4.0), plain(2.5)
    (4, 2.5)
    """
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else float(x)
