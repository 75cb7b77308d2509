"""How every request body is read: JSON with the library's rules, forms without lone surrogates.

One rule for JSON text, used by the API's parser and by the pages that take a pasted or
uploaded document (:func:`loads_strict`):

* at most ``PLANNER_MAX_BODY_BYTES`` (413 beyond; the parser's part),
* no ``NaN`` or ``Infinity`` literals, and no number too large to be one: a float must be
  finite (``1e400`` is not), an integer must fit in 64 bits (the database's widest),
* nested at most :data:`MAX_DEPTH` levels (1,000 nested brackets would otherwise exhaust
  Python's recursion limit, in the parser or in whatever reads the document later),
* text is valid Unicode: no lone surrogate (``"\\ud800"``), in a value or a key. Such a
  string cannot be encoded as UTF-8, so it could be neither stored nor shown.

Bad syntax is a 400 ``JSON parse error - ...``; a value that breaks a rule is a 400 whose
``errors`` name its path (``jobs[3].id``), like any other invalid input. Form bodies get
the same text rule (:class:`StrictFormParser`, :class:`StrictMultiPartParser`); query
strings and the pages' forms are checked by :class:`planner.core.middleware.ValidTextMiddleware`.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable, Mapping
from math import isfinite
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from .errors import FieldError, InputError, PayloadTooLarge, join_path

__all__ = [
    "MAX_DEPTH",
    "JSONSyntaxError",
    "StrictFormParser",
    "StrictJSONParser",
    "StrictMultiPartParser",
    "body_limit_message",
    "check_form_text",
    "loads_strict",
    "shown",
    "surrogate_message",
]

MAX_DEPTH = 64  # a scenario document needs 4 (jobs[3].executor.cpu)
INT_MIN, INT_MAX = -(2**63), 2**63 - 1

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def body_limit_message(limit: int) -> str:
    return f"The request body is larger than the limit of {limit / 2**20:.0f} MB."


class JSONSyntaxError(ValueError):
    """The text is not JSON (or is nested too deeply to parse)."""


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


def loads_strict(text: str) -> Any:
    """JSON text read by the rules above.

    Raises :class:`JSONSyntaxError` for text that is not JSON and
    :class:`~planner.core.errors.InputError` (paths into the document) for values that
    break a rule. Costs one pass over the parsed document, about as long again as
    ``json.loads`` takes (0.5 s more for 200,000 jobs, 29 MB), plus a search of the text
    when it may hold a surrogate.

    >>> loads_strict('{"jobs": [{"id": "j1", "cpu": 2.5}]}')
    {'jobs': [{'id': 'j1', 'cpu': 2.5}]}
    >>> loads_strict('{"jobs": [{"id": "j\\\\ud800"}]}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    planner.core.errors.InputError: jobs[0].id: contains a lone surrogate (\\ud800 at character 2), ...
    """
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
        raise InputError(errors)
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


def check_form_text(data: Any, files: Any = None) -> list[FieldError]:
    """The fields of a decoded form or query string whose name or value is not valid text.

    ``data`` is a ``QueryDict`` (every value of a repeated field is checked), ``files``
    the uploads' ``MultiValueDict``, whose file names are checked.
    """
    pairs = [(key, value) for key, values in data.lists() for value in values]
    if files is not None:
        pairs += [(key, upload.name or "") for key, uploads in files.lists() for upload in uploads]
    errors: list[FieldError] = []
    for name, value in pairs:
        problem = surrogate_message(name)
        if problem:
            errors.append(FieldError("", f'the field name "{shown(name)}" {problem}'))
        elif isinstance(value, str):
            problem = surrogate_message(value)
            if problem:
                errors.append(FieldError(name, problem))
    return errors


class StrictJSONParser(JSONParser):
    """Reads at most ``PLANNER_MAX_BODY_BYTES`` (413 beyond), then :func:`loads_strict` (400)."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        parser_context = parser_context or {}
        limit = int(settings.PLANNER_MAX_BODY_BYTES)
        request = parser_context.get("request")
        if request is not None:
            try:
                declared = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                declared = 0
            if declared > limit:
                raise PayloadTooLarge(body_limit_message(limit))
        raw = stream.read(limit + 1)  # also bounds a body sent without a Content-Length
        if len(raw) > limit:
            raise PayloadTooLarge(body_limit_message(limit))
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.decode(raw, encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - the body is not valid {encoding}: {exc}") from None
        try:
            return loads_strict(text)
        except JSONSyntaxError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None


class StrictFormParser(FormParser):
    """A URL-encoded form, refused (400, the field's path) when its text is not valid Unicode."""

    def parse(self, stream: IO[bytes], media_type: str | None = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        errors = check_form_text(data)
        if errors:
            raise InputError(errors)
        return data


class StrictMultiPartParser(MultiPartParser):
    """A multipart form, refused like :class:`StrictFormParser`; file names are checked too."""

    def parse(self, stream: IO[bytes], media_type: str | None = None, parser_context: Any = None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        errors = check_form_text(parsed.data, parsed.files)
        if errors:
            raise InputError(errors)
        return parsed
