"""Names and descriptions of stored objects, checked by the library's own rules.

:func:`scheduling.name_problem` is the one rule for a name, so a cluster, a workload or a team
can never be stored under a name the library would refuse in a scenario document (a lone
surrogate such as ``"\\ud800"``, which no database can encode, among them).

A VM type, a cluster or a workload also has a name of its own in its team: the services
check it before they write (:func:`check_name_free`) and write under :func:`name_kept_free`,
which reports a row stored meanwhile under the same name in the same words.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, models, transaction

from scheduling import LIMITS, name_problem
from scheduling.scenario import text_problem

from .errors import InputError

NAME_MAX_CHARS = int(LIMITS["name_chars"])
DESCRIPTION_MAX_CHARS = int(LIMITS["description_chars"])

#: An argument of an update that was not given (``None`` can be a value).
UNSET: Any = object()


def clean_name(value: Any, path: str = "name", *, max_chars: int = NAME_MAX_CHARS) -> str:
    """A name by the library's rule, stripped of surrounding blanks; :class:`InputError` at ``path``.

    >>> clean_name("  Platform  ")
    'Platform'
    >>> try:
    ...     clean_name("\\ud800")
    ... except InputError as exc:
    ...     print(exc.errors[0].message)
    contains a lone surrogate (\\ud800 at character 1), which is not a character: text must be valid Unicode
    """
    if value is None:
        value = ""
    if isinstance(value, str):
        value = value.strip()
    problem = name_problem(value, max_chars=max_chars)
    if problem is not None:
        raise InputError.single(path, problem)
    assert isinstance(value, str)
    return value


def clean_description(value: Any, path: str = "description") -> str:
    """Free text by the library's rule (any length up to the limit, storable); ``None`` is ``""``."""
    if value is None:
        return ""
    problem = text_problem(value, max_chars=DESCRIPTION_MAX_CHARS)
    if problem is not None:
        raise InputError.single(path, problem)
    assert isinstance(value, str)
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


def name_and_description(obj: Any, name: Any = UNSET, description: Any = UNSET) -> tuple[str, str]:
    """An update's name and description of ``obj``: each given one cleaned, else its current one."""
    return (
        obj.name if name is UNSET else clean_name(name),
        obj.description if description is UNSET else clean_description(description),
    )


def _name_taken(model: type[models.Model], name: str) -> InputError:
    return InputError.single("name", f"the team already has a {model._meta.verbose_name} named {name!r}")


def check_name_free(
    model: type[models.Model], team: Any, name: str, *, exclude_pk: int | None = None
) -> None:
    """:class:`InputError` at ``name`` when ``team`` already has a ``model`` of that name (one query)."""
    taken = model._default_manager.filter(team=team, name=name)
    if exclude_pk is not None:
        taken = taken.exclude(pk=exclude_pk)
    if taken.exists():
        raise _name_taken(model, name)


@contextmanager
def name_kept_free(model: type[models.Model], name: str) -> Iterator[None]:
    """The write inside, in a savepoint; a ``model`` of the same name stored meanwhile in the team
    (the unique constraint's :class:`~django.db.IntegrityError`) is reported as by :func:`check_name_free`.
    """
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise _name_taken(model, name) from None
