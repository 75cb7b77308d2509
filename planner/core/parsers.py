"""How every request body is read: JSON by the library's rule, forms without lone surrogates.

One rule for JSON text, :mod:`scheduling.jsontext` (no NaN or Infinity, numbers that fit,
at most 64 levels deep, valid Unicode), used by the API's parser, by the pages that take a
pasted or uploaded document (:func:`loads_strict`) and by the library's own readers; here
a body is also at most ``PLANNER_MAX_BODY_BYTES`` (413 beyond; the parser's part).

Bad syntax is a 400 ``JSON parse error - ...``; a value that breaks a rule is a 400 whose
``errors`` name its path (``jobs[3].id``), like any other invalid input. Form bodies get
the same text rule (:class:`StrictFormParser`, :class:`StrictMultiPartParser`); query
strings and the pages' forms are checked by :class:`planner.core.middleware.ValidTextMiddleware`.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from scheduling import ScenarioError, jsontext
from scheduling.jsontext import MAX_DEPTH, JSONSyntaxError, shown, surrogate_message

from .bodylimits import request_body_limit
from .errors import FieldError, InputError, PayloadTooLarge

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

def body_limit_message(limit: int) -> str:
    return f"The request body is larger than the limit of {limit / 2**20:.0f} MB."


def loads_strict(text: str) -> Any:
    """JSON text by the library's rule (:func:`scheduling.jsontext.loads_strict`).

    Raises :class:`JSONSyntaxError` for text that is not JSON and
    :class:`~planner.core.errors.InputError` (paths into the document) for values that
    break a rule.

    >>> loads_strict('{"jobs": [{"id": "j\\\\ud800"}]}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    planner.core.errors.InputError: jobs[0].id: contains a lone surrogate (\\ud800 at character 2), ...
    """
    try:
        return jsontext.loads_strict(text)
    except ScenarioError as exc:
        raise InputError(exc.errors) from None


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
    """Reads at most the request's limit (413 beyond; :mod:`planner.core.bodylimits`), then
    :func:`loads_strict` (400)."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        parser_context = parser_context or {}
        request = parser_context.get("request")
        limit = request_body_limit(request)
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
