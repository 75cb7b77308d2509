"""Input errors mapped to field paths, in one place.

The library reports bad input as :class:`scheduling.ScenarioError`, a list of
:class:`scheduling.FieldError` (``jobs[3].executor.cpu: must be > 0``). The planner's own
checks (names already taken, objects of another team, ...) raise :class:`InputError`, the
same list with paths into the request. This module turns either, or a DRF validation
error, into

* the API's 400 body ``{"detail": ..., "errors": [{"path": ..., "message": ...}]}``
  (:func:`api_exception_handler`, installed as DRF's ``EXCEPTION_HANDLER``),
* a DRF ``ValidationError`` ``{path: [message, ...]}`` (:func:`to_validation_error`),
* errors on a Django form (:func:`add_to_form`).

Paths of a scenario document stay relative to the document (``jobs[3].executor.cpu``),
whether it was posted on its own or inside a request (``{"scenario": {...}}``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django import forms
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.settings import api_settings

from scheduling import FieldError, ScenarioError
from scheduling.jsontext import join_path

__all__ = [
    "FieldError",
    "InputError",
    "PayloadTooLarge",
    "add_to_form",
    "api_exception_handler",
    "error_list",
    "field_errors",
    "prefix_rewriter",
    "remap_paths",
    "scenario_errors_as_input",
    "to_validation_error",
]


class InputError(Exception):
    """Bad input found by the planner itself; ``errors`` lists each problem with its path."""

    def __init__(self, errors: Iterable[FieldError]):
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors) or "invalid input")

    @classmethod
    def single(cls, path: str, message: str) -> InputError:
        return cls([FieldError(path, message)])


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


_INDEX = re.compile(r"^\d+$")


def _flatten(detail: Any, path: str, out: list[FieldError]) -> None:
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            if key == api_settings.NON_FIELD_ERRORS_KEY:
                sub = path
            elif isinstance(key, int) or (isinstance(key, str) and _INDEX.match(key) and path):
                sub = join_path(path, int(key))  # a ListField's {index: errors}
            else:
                sub = join_path(path, str(key))
            _flatten(value, sub, out)
    elif isinstance(detail, (list, tuple)):
        if all(not isinstance(item, (Mapping, list, tuple)) for item in detail):
            out.extend(FieldError(path, str(item)) for item in detail)
        else:  # a nested serializer with many=True: one entry per item, {} when valid
            for i, item in enumerate(detail):
                if item:
                    _flatten(item, join_path(path, i), out)
    elif detail is not None:
        out.append(FieldError(path, str(detail)))


def field_errors(exc: BaseException) -> list[FieldError]:
    """The field errors an exception carries, whatever layer raised it."""
    if isinstance(exc, (ScenarioError, InputError)):
        return list(exc.errors)
    out: list[FieldError] = []
    if isinstance(exc, exceptions.APIException):  # ValidationError's nested detail included
        _flatten(exc.detail, "", out)
    elif isinstance(exc, DjangoValidationError):
        _flatten(exc.message_dict if hasattr(exc, "error_dict") else exc.messages, "", out)
    else:
        out.append(FieldError("", str(exc)))
    return out


def remap_paths(errors: Iterable[FieldError], mapping: Callable[[str], str]) -> list[FieldError]:
    return [FieldError(mapping(e.path), e.message) for e in errors]


def prefix_rewriter(old: str, new: str) -> Callable[[str], str]:
    """Rewrite a leading path segment: ``prefix_rewriter("vm_types", "entries")``."""

    def rewrite(path: str) -> str:
        if path == old:
            return new
        if path.startswith((old + ".", old + "[")):
            return new + path[len(old) :]
        return path

    return rewrite


@contextmanager
def scenario_errors_as_input(mapping: Callable[[str], str] | None = None) -> Iterator[None]:
    """Re-raise a library :class:`ScenarioError` as :class:`InputError`, rewriting its paths."""
    try:
        yield
    except ScenarioError as exc:
        errors = exc.errors if mapping is None else remap_paths(exc.errors, mapping)
        raise InputError(errors) from None


def error_list(errors: Iterable[FieldError]) -> list[dict[str, str]]:
    return [e.to_dict() for e in errors]


def to_validation_error(exc: BaseException) -> exceptions.ValidationError:
    """``{path: [message, ...]}``; errors without a path go under ``non_field_errors``."""
    grouped: dict[str, list[str]] = {}
    for e in field_errors(exc):
        grouped.setdefault(e.path or api_settings.NON_FIELD_ERRORS_KEY, []).append(e.message)
    return exceptions.ValidationError(grouped)


def add_to_form(
    form: forms.BaseForm, exc: BaseException, *, field_for_path: Mapping[str, str] | None = None
) -> None:
    """Attach each field error to the form field its path starts with, else to the form.

    ``field_for_path`` renames a path's first segment to a form field
    (``{"jobs": "jobs_csv"}``). The message keeps the full path when it goes deeper than
    the field (``jobs[3].executor.cpu: must be > 0`` on the jobs field).
    """
    rename = dict(field_for_path or {})
    for e in field_errors(exc):
        head = re.split(r"[.\[]", e.path, maxsplit=1)[0] if e.path else ""
        name = rename.get(head, head)
        if name and name in form.fields:
            form.add_error(name, e.message if e.path == head else f"{e.path}: {e.message}")
        else:
            form.add_error(None, str(e))


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus: library and planner input errors are 400s, and every 400 or 413
    body lists ``errors`` as ``[{"path": ..., "message": ...}]`` next to DRF's ``detail``."""
    from rest_framework.views import exception_handler  # not at import time: DRF's views import our parsers

    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    if isinstance(exc, (ScenarioError, InputError, DjangoValidationError)):
        errors = field_errors(exc)
        exc = exceptions.ValidationError(error_list(errors))
    elif isinstance(exc, exceptions.APIException):
        errors = field_errors(exc)
    else:
        errors = []
    response = exception_handler(exc, context)
    if response is None:
        return None  # an unexpected error: Django's 500 handling and logging
    if response.status_code in (status.HTTP_400_BAD_REQUEST, status.HTTP_413_REQUEST_ENTITY_TOO_LARGE):
        if isinstance(exc, exceptions.ValidationError):
            detail = "Invalid input."
        else:
            detail = str(exc.detail) if isinstance(exc, exceptions.APIException) else "Bad request."
        response.data = {"detail": detail, "errors": error_list(errors)}
    return response
