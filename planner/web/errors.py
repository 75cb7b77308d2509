"""Field errors of the services and the library, attached to the fields of a page's form.

The services raise :class:`~planner.core.errors.InputError` (paths into the request:
``name``, ``entries[1].count``) and the library :class:`scheduling.ScenarioError` (paths
into a scenario document: ``jobs[3].executor.cpu``). A page says which form field a path
belongs to; the message keeps the part of the path below the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from django import forms

from planner.core.errors import field_errors
from scheduling import FieldError

__all__ = ["attach_errors", "head", "row_of"]

_HEAD = re.compile(r"[.\[]")
_ROW = re.compile(r"^(?P<list>[A-Za-z_]+)\[(?P<index>\d+)\](?:\.(?P<rest>.*))?$")


def head(path: str) -> str:
    """The first segment of a path: ``head("jobs[3].executor.cpu") == "jobs"``."""
    return _HEAD.split(path, maxsplit=1)[0] if path else ""


def row_of(path: str, list_name: str) -> tuple[int, str] | None:
    """``(3, "executor.cpu")`` for ``jobs[3].executor.cpu`` and ``list_name="jobs"``."""
    m = _ROW.match(path)
    if m is None or m.group("list") != list_name:
        return None
    return int(m.group("index")), m.group("rest") or ""


def attach_errors(
    form: forms.BaseForm,
    exc: BaseException | Iterable[FieldError],
    field_for: Callable[[str], str | tuple[str, bool] | None] | dict[str, str] | None = None,
) -> list[FieldError]:
    """Add each error to the form field ``field_for(path)`` names, else to the whole form.

    ``field_for`` is a function of the path, or a mapping of a path's first segment to a
    field (the default maps a segment to the field of the same name). The message keeps
    the path when the path goes deeper than the field (``line 3, cpu: must be a number``),
    unless ``field_for`` returns ``(field, True)``: the field is exactly what the path names.
    Returns the errors, for a caller that also wants them elsewhere (row highlighting).
    """
    errors = list(exc) if not isinstance(exc, BaseException) else field_errors(exc)
    for e in errors:
        exact = False
        if callable(field_for):
            found = field_for(e.path)
            name, exact = found if isinstance(found, tuple) else (found, False)
        else:
            segment = head(e.path)
            name = (field_for or {}).get(segment, segment)
        if name and name in form.fields:
            form.add_error(name, e.message if exact or e.path in ("", name) else str(e))
        else:
            form.add_error(None, str(e) if e.path else e.message)
    return errors


def split_rows(
    exc: BaseException, list_name: str, n_rows: int
) -> tuple[dict[int, list[str]], list[str], list[FieldError]]:
    """Errors of the rows of a list (``entries[2].count``), of the list itself, and the rest.

    Row messages keep the part of the path below the row (``count: must be >= 0``).
    """
    rows: dict[int, list[str]] = {}
    whole: list[str] = []
    rest: list[FieldError] = []
    for e in field_errors(exc):
        located = row_of(e.path, list_name)
        if located is not None and located[0] < n_rows:
            index, below = located
            rows.setdefault(index, []).append(f"{below}: {e.message}" if below else e.message)
        elif e.path == list_name:
            whole.append(e.message)
        else:
            rest.append(e)
    return rows, whole, rest
