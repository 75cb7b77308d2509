"""Field errors of the services and the library, attached to the fields of a page's form.

The services raise :class:`~planner.core.errors.InputError` (paths into the request:
``name``, ``entries[1].count``) and the library :class:`scheduling.ScenarioError` (paths
into a scenario document: ``jobs[3].executor.cpu``). A page says which form field a path
belongs to; the message keeps the part of the path below the field.

Pages count jobs as the workload editor's grid does: :func:`grid_path` is the one place that
turns ``jobs[3].executor.cpu`` into ``job 4 (id j-17): executor.cpu`` (rows from 1, and the
job's id). The API keeps the document's paths; only what a page shows is translated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django import forms

from planner.core.errors import field_errors
from scheduling import FieldError
from scheduling.scenario.checks import shown

__all__ = ["attach_errors", "grid_errors", "grid_path", "grid_problems", "head", "row_of"]

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


_ITEM = re.compile(r"^(?P<list>jobs|frameworks)\[(?P<index>\d+)\](?:\.(?P<rest>.*))?$")


def grid_path(path: str, jobs: Sequence[Any] = (), frameworks: Sequence[Any] = ()) -> str:
    """A document path as the editor's grid counts: rows from 1, with the job's id.

    ``jobs`` and ``frameworks`` are the lists the path points into (the ids come from
    them); a row beyond them is shown by its number alone. Other paths are unchanged.

    >>> grid_path("jobs[3].executor.cpu", [{"id": f"j-{k}"} for k in range(14, 18)])
    'job 4 (id j-17): executor.cpu'
    >>> grid_path("frameworks[0]", frameworks=[{"name": "etl"}]), grid_path("jobs[9]"), grid_path("name")
    ('framework 1 (etl)', 'job 10', 'name')
    """
    m = _ITEM.match(path)
    if m is None:
        return path
    index = int(m.group("index"))
    items, key, noun = (jobs, "id", "job") if m.group("list") == "jobs" else (frameworks, "name", "framework")
    item = items[index] if index < len(items) else None
    label = item.get(key) if isinstance(item, Mapping) else None
    if label is None or isinstance(label, bool) or not isinstance(label, str | int) or label == "":
        where = f"{noun} {index + 1}"
    elif noun == "job":
        where = f"job {index + 1} (id {shown(label)})"
    else:
        where = f"framework {index + 1} ({shown(label)})"
    return f"{where}: {m.group('rest')}" if m.group("rest") else where


def grid_errors(
    errors: Iterable[FieldError], jobs: Sequence[Any] = (), frameworks: Sequence[Any] = ()
) -> list[FieldError]:
    """``errors`` with their paths as the grid counts (:func:`grid_path`), for a page to show."""
    return [FieldError(grid_path(e.path, jobs, frameworks), e.message) for e in errors]


def grid_problems(
    errors: Iterable[FieldError], jobs: Sequence[Any] = (), frameworks: Sequence[Any] = ()
) -> list[dict[str, str]]:
    """Errors or warnings for the editor: the document ``path`` (to find the cell), the
    ``message``, and the ``text`` to show (``job 4 (id j-17): executor.cpu: must be > 0``)."""
    return [
        {
            "path": e.path,
            "message": e.message,
            "text": str(FieldError(grid_path(e.path, jobs, frameworks), e.message)),
        }
        for e in errors
    ]
