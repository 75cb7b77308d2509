"""A JSON parser with the library's rules: a size limit and no NaN or Infinity literals."""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from .errors import PayloadTooLarge


def body_limit_message(limit: int) -> str:
    return f"The request body is larger than the limit of {limit / 2**20:.0f} MB."


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not allowed; numbers must be finite")


class StrictJSONParser(JSONParser):
    """Reads at most ``PLANNER_MAX_BODY_BYTES`` (413 beyond), then parses strictly (400)."""

    def parse(
        self, stream: IO[bytes], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
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
            return json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
