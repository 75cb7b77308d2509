"""JSON text by one rule, for every reader of documents: the CLI, importers, the API, the pages.

* no ``NaN`` or ``Infinity`` literals, and no number too large to be one: a float must be
  finite (``1e400`` is not), an integer must fit in 64 bits (the database's widest),
* nested at most :data:`MAX_DEPTH` levels (1,000 nested brackets would otherwise exhaust
  Python's recursion limit, in the parser or in whatever reads the document later),
* text is valid Unicode: no lone surrogate (``"\\ud800"``), in a value or a key. Such a
  string cannot be encoded as UTF-8, so it could be neither stored nor shown.

Bad syntax raises :class:`JSONSyntaxError`; a value that breaks a rule raises
:class:`~scheduling.errors.ScenarioError` naming its path (``jobs[3].id``).

>>> loads_strict('{"jobs": [{"id": "j1", "cpu": 2.5}]}')
{'jobs': [{'id': 'j1', 'cpu': 2.5}]}
>>> loads_strict('{"jobs": [{"id": "j\\\\ud800"}]}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
scheduling.errors.ScenarioError: jobs[0].id: contains a lone surrogate (\\ud800 at character 2), ...
>>> loads_strict("[NaN]")
Traceback (most recent call last):
...
scheduling.jsontext.JSONSyntaxError: NaN is not allowed; numbers must be finite
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from math import isfinite
from typing import Any

from .collector import collector_paused
from .errors import FieldError, ScenarioError

__all__ = ["INT_MAX", "INT_MIN", "MAX_DEPTH", "JSONSyntaxError", "join_path", "loads_strict", "shown",
           "surrogate_message"]

MAX_DEPTH = 64  # a scenario document needs 4 (jobs[3].executor.cpu)
INT_MIN, INT_MAX = -(2**63), 2**63 - 1

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JSONSyntaxError(ValueError):
    """The text is not JSON (or is nested too deeply to parse)."""


def join_path(prefix: str, key: str | int) -> str:
    """``join_path("jobs", 3) == "jobs[3]"``, ``join_path("jobs[3]", "executor") == "jobs[3].executor"``."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    if not key:
        return prefix
    return f"{prefix}.{key}" if prefix else key


def shown(text: str, limit: int = 40) -> str:
    """``text`` safe to put in a message: surrogates escaped (``\\ud800``), long text cut."""
    cut = text if len(text) <= limit else text[:limit] + "…"
    return cut.encode("utf-8", "backslashreplace").decode("utf-8")


def surrogate_message(text: str) -> str | None:
    """Why ``text`` is not valid Unicode text, or ``None`` when it is.

    >>> surrogate_message("ok") is None
    True
    >>> print(surrogate_message("a\\ud800"))
    contains a lone surrogate (\\ud800 at character 2), which is not a character: text must be valid Unicode
    """
    found = _SURROGATE.search(text)
    if found is None:
        return None
    code = shown(found.group())
    return (f"contains a lone surrogate ({code} at character {found.start() + 1}), which is not a "
            "character: text must be valid Unicode")


def _reject_constant(token: str) -> Any:
    raise JSONSyntaxError(f"{token} is not allowed; numbers must be finite")


@collector_paused()
def loads_strict(text: str | bytes) -> Any:
    """JSON text read by the rules of this module.

    Raises :class:`JSONSyntaxError` for text that is not JSON and :class:`ScenarioError`
    (paths into the document) for values that break a rule. Costs one pass over the parsed
    document, about as long again as ``json.loads`` takes (0.5 s more for 200,000 jobs,
    29 MB), plus a search of the text when it may hold a surrogate.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise JSONSyntaxError(f"the text is not valid UTF-8: {exc}") from None
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise JSONSyntaxError(f"the document is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except JSONSyntaxError:
        raise
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's limit of 4,300 digits
            message = f"a number is too large: integers must be between {INT_MIN} and {INT_MAX}"
            raise JSONSyntaxError(message) from None
        raise JSONSyntaxError(str(exc)) from None
    errors = _check(doc, check_text=_may_hold_surrogates(text))
    if errors:
        raise ScenarioError(errors)
    return doc


def _may_hold_surrogates(text: str) -> bool:
    """A cheap test first (substring searches run at memory speed), the regular expression after."""
    if ("\\ud" in text or "\\uD" in text) and _SURROGATE_ESCAPE.search(text):
        return True
    return not text.isascii() and _SURROGATE.search(text) is not None


def _value_problem(value: Any, check_text: bool) -> str | None:
    kind = type(value)
    if kind is float and not isfinite(value):
        return "is too large: numbers must be finite (at most about 1.8e308)"
    if kind is int and not INT_MIN <= value <= INT_MAX:
        return f"is out of range: integers must be between {INT_MIN} and {INT_MAX}"
    if check_text and kind is str:
        return surrogate_message(value)
    return None


def _path(node: tuple[Any, ...] | None) -> str:
    keys: list[str | int] = []
    while node is not None:
        node, key = node
        keys.append(key)
    path = ""
    for key in reversed(keys):  # a key may itself hold a surrogate: escaped, like the messages
        path = join_path(path, shown(key, 100) if isinstance(key, str) else key)
    return path


def _check(doc: Any, *, check_text: bool, limit: int = 20) -> list[FieldError]:
    """The values of ``doc`` that break a rule, with their paths (at most ``limit``).

    Iterative, so that a deeply nested document cannot exhaust the stack here.
    """
    problem = _value_problem(doc, check_text)
    if problem:
        return [FieldError("", problem)]
    errors: list[FieldError] = []
    # (container, depth, path node): a path node is (parent node, key), joined only on error
    stack: list[tuple[Any, int, tuple[Any, ...] | None]] = [(doc, 1, None)]
    while stack and len(errors) < limit:
        container, depth, node = stack.pop()
        if depth > MAX_DEPTH:
            errors.append(FieldError(_path(node), f"is nested more than {MAX_DEPTH} levels deep"))
            continue
        items: Iterable[tuple[Any, Any]]
        if type(container) is dict:
            items = container.items()
            if check_text:
                for key in container:
                    problem = surrogate_message(key)
                    if problem:
                        errors.append(FieldError(_path(node), f'the key "{shown(key)}" {problem}'))
        elif type(container) is list:
            items = enumerate(container)
        else:
            continue
        for key, value in items:
            kind = type(value)
            if kind is dict or kind is list:
                stack.append((value, depth + 1, (node, key)))
            elif (
                (kind is float and not isfinite(value))
                or (kind is int and not INT_MIN <= value <= INT_MAX)
                or (check_text and kind is str and _SURROGATE.search(value))
            ):  # the common case, a valid scalar, costs no function call
                errors.append(FieldError(_path((node, key)), _value_problem(value, check_text) or ""))
    return errors
