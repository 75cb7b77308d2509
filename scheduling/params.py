"""Parameters declared once: what a run kind (or a command) takes, read and checked by one rule.

A :class:`Param` says what one parameter is (its kind, label, help, unit, bounds, choices,
default, nested fields), once, in the library beside the algorithm it configures. Everything
else is derived from that declaration:

* :func:`read_params` reads a request's (or a document's) parameters with it, filling the
  defaults and collecting *every* problem with its path (``sweep.loads[2]: must be <= 10``)
  into one :class:`~scheduling.errors.ScenarioError`;
* :func:`add_flags` and :func:`flag_values` turn the parameters that have a command-line
  ``flag`` into ``argparse`` options and back; :func:`read_flags` reads them, errors at the flag;
* :func:`describe` is the one line of help a form, a flag and the API schema show;
* the planner builds its form fields and its API serializer (so the OpenAPI schema) from the
  same objects (``planner.core.params``).

A parameter's further rule, beyond its kind and bounds, is its ``check``: a library function
``check(value, path) -> value`` that raises :class:`~scheduling.errors.ScenarioError` with
paths (a scheduler spec parsed, an MRSU input read). Rules between parameters (a baseline
that must be one of the variants) belong to the function that reads a kind's parameters.

>>> TRIALS = Param("trials", "integer", "Trials", "Repetitions of the randomised policies.",
...                default=1, minimum=1, maximum=100_000)
>>> POLICY = Param("policy", "choice", "Policy", "The criterion.", default="drf", choices=("drf", "tsf"))
>>> read_params((TRIALS, POLICY), {"trials": 20})
{'trials': 20, 'policy': 'drf'}
>>> read_params((TRIALS, POLICY), {"trials": 0, "policy": "x", "colour": 1}, what="a study")
Traceback (most recent call last):
...
scheduling.errors.ScenarioError: colour: unknown field (a study takes trials, policy)
trials: must be a whole number from 1 to 100,000
policy: must be one of drf, tsf
>>> describe(TRIALS)
'Repetitions of the randomised policies. (1 to 100,000; default 1)'
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import FieldError, ScenarioError
from .numbers import SEED_MAX, finite, integral
from .scenario.checks import Problems, shown, text_problem

__all__ = [
    "Param",
    "ParamKind",
    "Preset",
    "TextForm",
    "add_flags",
    "bounds_text",
    "describe",
    "flag_values",
    "param_named",
    "range_message",
    "read_flags",
    "read_params",
    "read_value",
    "seed_param",
    "settings_rows",
    "value_text",
]

ParamKind = Literal[
    "integer", "number", "boolean", "choice", "choices", "text", "list", "object", "mapping", "document"
]


@dataclass(frozen=True)
class TextForm:
    """How a value is written as one line of text: a form's text field, a command-line flag.

    ``parse(text, path)`` returns the value (raising :class:`ScenarioError` with ``path``),
    ``format(value)`` is its inverse; ``example`` is shown as a placeholder.
    """

    parse: Callable[[str, str], Any]
    format: Callable[[Any], str]
    example: str = ""


@dataclass(frozen=True)
class Param:
    """One parameter as declared: enough to read it, check it, document it and build a field.

    Attributes
    ----------
    name : str
        The key in a request or document (``trials``, ``sweep``; ``rut.cpu`` for a per-resource
        option, with ``resource`` naming the resource).
    kind : ParamKind
        ``integer``, ``number``, ``boolean``, ``choice`` (one of ``choices``), ``choices`` (a
        list of them), ``text``, ``list`` (of ``item``), ``object`` (of ``fields``),
        ``mapping`` (names to ``item``) or ``document`` (any JSON value its ``check`` reads).
    label, help, unit : str
        What people read: a form's label, one sentence of help, the unit of a number.
    default : Any
        The value when the parameter is not given (or is ``null``); ``None``: none.
    minimum, maximum, exclusive_minimum
        Bounds of a number (``minimum`` excluded when ``exclusive_minimum``).
    choices, choice_labels
        The values of a ``choice`` or ``choices`` parameter, and how a form shows them.
    item, fields
        A ``list``'s or ``mapping``'s element; an ``object``'s parameters.
    min_items, max_items, unique
        A list's length and whether an item may appear twice.
    variants : bool
        Each item of this list is one variant of a run (the planner caps how many).
    check : callable, optional
        ``check(value, path) -> value``: the library's further rule, raising ScenarioError.
    text : TextForm, optional
        The one-line text form of the value (forms and flags that take text).
    flag : str, optional
        The command-line option (``--interval``) of a command that takes this parameter.
    true_is_defaults : bool
        An ``object`` given as ``true`` is every field at its default.
    max_chars : int, optional
        The longest ``text``.
    resource : str, optional
        The resource of a per-resource option.
    """

    name: str
    kind: ParamKind
    label: str = ""
    help: str = ""
    default: Any = None
    unit: str = ""
    minimum: float | None = None
    exclusive_minimum: bool = False
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    item: Param | None = None
    fields: tuple[Param, ...] = ()
    min_items: int = 0
    max_items: int | None = None
    unique: bool = False
    variants: bool = False
    check: Callable[[Any, str], Any] | None = field(default=None, compare=False)
    text: TextForm | None = field(default=None, compare=False)
    flag: str | None = None
    true_is_defaults: bool = False
    max_chars: int | None = None
    resource: str | None = None

    def labelled_choices(self) -> list[tuple[str, str]]:
        """``(value, label)`` of each choice (the label is the value when none is declared)."""
        labels = self.choice_labels or self.choices
        return list(zip(self.choices, labels, strict=True))

    def default_value(self) -> Any:
        """A fresh copy of the default (lists and objects are never shared between reads)."""
        if self.kind == "object" and self.default is True:
            return {p.name: p.default_value() for p in self.fields}
        return copy.deepcopy(self.default)


@dataclass(frozen=True)
class Preset:
    """A paper's set-up as one click of a start page: a scenario document (``None``: the
    parameters carry their own input) and a kind's parameters."""

    key: str
    title: str
    description: str
    scenario: dict[str, Any] | None
    params: dict[str, Any] = field(default_factory=dict)


def seed_param(help: str = "The seed of every random choice.", *, flag: str | None = "--seed") -> Param:
    """The seed of a run's random choices: one rule (:func:`scheduling.numbers.seed_error`'s bounds)."""
    return Param("seed", "integer", "Seed", help, default=0, minimum=0, maximum=SEED_MAX, flag=flag)


def param_named(params: Sequence[Param], name: str) -> Param:
    """The parameter ``name`` of ``params`` (``KeyError`` when there is none)."""
    for p in params:
        if p.name == name:
            return p
    raise KeyError(name)


# --------------------------------------------------------------------------- describing


def _number_text(value: float) -> str:
    if float(value).is_integer() and abs(value) >= 1000:
        return f"{int(value):,}"
    return f"{value:g}"


def bounds_text(p: Param) -> str:
    """The range of a number or of a list's length in words: ``1 to 1,000``, ``> 0``, ``>= 0``.

    >>> bounds_text(Param("x", "number", minimum=0, exclusive_minimum=True))
    '> 0'
    >>> bounds_text(Param("x", "list", min_items=1, max_items=40))
    '1 to 40 items'
    """
    if p.kind in ("list", "choices"):
        if p.max_items is not None:
            return f"{p.min_items} to {p.max_items} items"
        return "at least 1 item" if p.min_items == 1 else ""
    low, high = p.minimum, p.maximum
    if low is not None and high is not None and not p.exclusive_minimum:
        return f"{_number_text(low)} to {_number_text(high)}"
    words = []
    if low is not None:
        words.append(f"{'>' if p.exclusive_minimum else '>='} {_number_text(low)}")
    if high is not None:
        words.append(f"<= {_number_text(high)}")
    return ", ".join(words)


def _default_text(p: Param) -> str:
    value = p.default
    if value is None or p.kind in ("object", "document"):
        return ""
    if p.item is not None and p.item.kind == "object":  # objects have no one-line text: the help says
        return ""
    if p.text is not None:
        return p.text.format(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float | int):
        return _number_text(value)
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def describe(p: Param) -> str:
    """The parameter's help with its unit, range and default: one text for a form, a flag and the schema.

    >>> describe(Param("interval_s", "number", help="Seconds between decisions.", unit="s", default=1.0,
    ...                minimum=0, exclusive_minimum=True))
    'Seconds between decisions. (s; > 0; default 1)'
    """
    facts = [p.unit, bounds_text(p)]
    default = _default_text(p)
    if default:
        facts.append(f"default {default}")
    facts = [f for f in facts if f]
    return f"{p.help} ({'; '.join(facts)})" if facts else p.help


def value_text(p: Param, value: Any) -> str:
    """A stored value as a settings row shows it: ``30 s``, ``yes``, ``gcd, min``, ``a=1, b=2``.

    >>> value_text(Param("t", "number", unit="s"), 30.0), value_text(Param("b", "boolean"), False)
    ('30 s', 'no')
    >>> value_text(Param("m", "choices", choices=("gcd", "min")), ["gcd", "min"])
    'gcd, min'
    """
    if p.text is not None and not isinstance(value, str):
        return p.text.format(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return f"{_number_text(value)} {p.unit}".strip() if p.unit not in ("slots",) else f"{value:g}"
    if isinstance(value, list | tuple):
        return ", ".join(value_text(p.item, v) if p.item is not None else str(v) for v in value)
    if isinstance(value, Mapping):
        fields = {f.name: f for f in p.fields}
        return ", ".join(
            f"{k}={value_text(fields[k], v) if k in fields else v}" for k, v in value.items() if v is not None
        )
    return str(value)


def settings_rows(params: Sequence[Param], options: Mapping[str, Any]) -> list[tuple[str, str | int | float]]:
    """``(label, value)`` of each declared parameter the stored ``options`` hold (a run's settings
    on its page and in its reports): a number without a unit stays a number (a spreadsheet's
    cell), anything else is its text (:func:`value_text`); documents are left out (they are the
    run's input).

    >>> settings_rows((Param("trials", "integer", "Trials"), Param("seed", "integer", "Seed"),
    ...                Param("interval_s", "number", "Interval", unit="s")),
    ...               {"trials": 20, "seed": None, "interval_s": 1.0})
    [('Trials', 20), ('Interval', '1 s')]
    """
    rows: list[tuple[str, str | int | float]] = []
    for p in params:
        value = options.get(p.name)
        if value is None or p.kind == "document":
            continue
        plain = p.kind in ("integer", "number") and not p.unit and isinstance(value, int | float)
        shown = value if plain and not isinstance(value, bool) else value_text(p, value)
        rows.append((p.label or p.name, shown))
    return rows


# --------------------------------------------------------------------------- reading


def read_params(
    params: Sequence[Param],
    data: Any,
    *,
    path: str = "",
    what: str = "it",
    max_variants: int | None = None,
) -> dict[str, Any]:
    """The parameters of ``data`` read by their declarations, defaults filled in.

    Parameters
    ----------
    params
        The declarations.
    data
        An object of parameter names (``None``: every default).
    path
        Where ``data`` is (error paths are ``<path>.<name>``).
    what
        What takes these parameters, for the message of an unknown field (``an MRSU run``).
    max_variants
        The most items a ``variants`` list may have (the planner's per-run cap), if any.

    Raises
    ------
    ScenarioError
        With every problem, each at its path.
    """
    problems = Problems()
    out = _read_object(params, data, path, problems, what=what, max_variants=max_variants)
    problems.raise_if_any()
    assert out is not None
    return out


def read_value(p: Param, value: Any, path: str, *, max_variants: int | None = None) -> Any:
    """One parameter's value read by its declaration (``ScenarioError`` with its problems)."""
    problems = Problems()
    out = _read(p, value, path, problems, max_variants)
    problems.raise_if_any()
    return out


def _join(path: str, key: Any) -> str:
    return f"{path}.{shown(key)}" if path else shown(key)


def _read_object(
    params: Sequence[Param], data: Any, path: str, problems: Problems, *, what: str,
    max_variants: int | None,
) -> dict[str, Any] | None:
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        problems.add(path, f"must be an object with {', '.join(p.name for p in params)}")
        return None
    names = [p.name for p in params]
    for key in data:
        if key not in names:
            problems.add(_join(path, key), f"unknown field ({what} takes {', '.join(names)})")
    out: dict[str, Any] = {}
    for p in params:
        out[p.name] = _read(p, data.get(p.name), _join(path, p.name), problems, max_variants)
    return out


def _count(problems: Problems) -> int:
    return len(problems.items) + problems.dropped


def _read(p: Param, value: Any, path: str, problems: Problems, max_variants: int | None) -> Any:
    if value is None or (isinstance(value, str) and value == ""):  # an empty form field too
        value = p.default_value()
        if value is None or p.kind not in ("list", "object"):
            return value
        # A default list of objects (or an object) is read too, so its items get their defaults.
    before = _count(problems)
    out = _read_kind(p, value, path, problems, max_variants)
    if _count(problems) > before:
        return p.default_value()
    if p.check is None:
        return out
    try:
        return p.check(out, path)
    except ScenarioError as exc:
        for e in exc.errors:
            problems.add(e.path, e.message)
        return p.default_value()


def _read_kind(p: Param, value: Any, path: str, problems: Problems, max_variants: int | None) -> Any:
    if p.kind in ("integer", "number"):
        return _number(p, value, path, problems)
    if p.kind == "boolean":
        if isinstance(value, bool):
            return value
        problems.add(path, "must be true or false")
        return None
    if p.kind == "choice":
        if not isinstance(value, str) or value not in p.choices:
            problems.add(path, f"must be one of {', '.join(p.choices)}")
            return None
        return value
    if p.kind == "choices":
        return _choices(p, value, path, problems)
    if p.kind == "text":
        if not isinstance(value, str):
            problems.add(path, "must be text")
            return None
        problem = text_problem(value, max_chars=p.max_chars)
        if problem is not None:
            problems.add(path, problem)
            return None
        return value
    if p.kind == "list":
        return _list(p, value, path, problems, max_variants)
    if p.kind == "object":
        if value is True and p.true_is_defaults:
            value = {}
        return _read_object(p.fields, value, path, problems, what=f"{p.name}", max_variants=max_variants)
    if p.kind == "mapping":
        assert p.item is not None
        if not isinstance(value, Mapping):
            problems.add(path, "must be an object")
            return None
        return {str(k): _read(p.item, v, _join(path, k), problems, max_variants) for k, v in value.items()}
    return value  # a document: its check reads it


def range_message(p: Param) -> str:
    """What a number parameter must be, whole: ``must be a number of seconds in (0, 3600]``.

    >>> range_message(Param("queue", "integer", minimum=1, maximum=100_000))
    'must be a whole number from 1 to 100,000'
    >>> range_message(Param("t", "number", unit="s", minimum=0, exclusive_minimum=True))
    'must be a number of seconds > 0'
    """
    what = "a whole number" if p.kind == "integer" else "a number of seconds" if p.unit == "s" else "a number"
    low, high = p.minimum, p.maximum
    if low is not None and high is not None:
        if p.exclusive_minimum:
            return f"must be {what} in ({low:g}, {high:g}]"
        return f"must be {what} from {_number_text(low)} to {_number_text(high)}"
    if low is not None:
        return f"must be {what} {'>' if p.exclusive_minimum else '>='} {_number_text(low)}"
    if high is not None:
        return f"must be {what} <= {_number_text(high)}"
    return f"must be {what}"


def _number(p: Param, value: Any, path: str, problems: Problems) -> float | int | None:
    if p.kind == "integer" and isinstance(value, int) and not isinstance(value, bool):
        read: float | int | None = value  # exact: through a float, a seed beyond 2**53 would change
    else:
        read = integral(value) if p.kind == "integer" else finite(value)
    low, high = p.minimum, p.maximum
    if read is None or (low is not None and (read <= low if p.exclusive_minimum else read < low)) or (
        high is not None and read > high
    ):
        problems.add(path, range_message(p))
        return None
    return int(read) if p.kind == "integer" else float(read)


def _length_problem(p: Param, n: int, max_variants: int | None) -> str | None:
    if n < p.min_items:
        return "must not be empty" if p.min_items == 1 else f"must have at least {p.min_items} items"
    limit = p.max_items
    if p.variants and max_variants is not None:
        limit = max_variants if limit is None else min(limit, max_variants)
    if limit is not None and n > limit:
        return f"lists {n}; the limit is {limit}"
    return None


def _choices(p: Param, value: Any, path: str, problems: Problems) -> list[str] | None:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        problems.add(path, f"must be a list of {', '.join(p.choices)}")
        return None
    problem = _length_problem(p, len(value), None)
    if problem is not None:
        problems.add(path, f"{problem} (choose from {', '.join(p.choices)})")
        return None
    out: list[str] = []
    for i, item in enumerate(value):
        if not isinstance(item, str) or item not in p.choices:
            problems.add(f"{path}[{i}]", f"must be one of {', '.join(p.choices)}")
        elif item not in out:
            out.append(item)
    return out


def _list(p: Param, value: Any, path: str, problems: Problems, max_variants: int | None) -> list[Any] | None:
    assert p.item is not None
    if not isinstance(value, list):
        problems.add(path, "must be a list")
        return None
    problem = _length_problem(p, len(value), max_variants)
    if problem is not None:
        problems.add(path, problem)
        return None
    out: list[Any] = []
    for i, item in enumerate(value):
        where = f"{path}[{i}]"
        if item is None and p.item.default is None:  # a list's null is no value (not "the default")
            problems.add(where, "must not be null")
            continue
        before = _count(problems)
        read = _read(p.item, item, where, problems, max_variants)
        if _count(problems) > before:
            continue
        if p.unique and read in out:
            problems.add(where, f"{read!r} is listed twice")
            continue
        out.append(read)
    return out


# --------------------------------------------------------------------------- the command line


def _flag_type(p: Param) -> Callable[[str], Any] | None:
    if p.text is not None:
        return str
    return {"integer": int, "number": float}.get(p.kind, str if p.kind in ("choice", "text") else None)


def add_flags(parser: argparse.ArgumentParser | Any, params: Sequence[Param]) -> None:
    """One ``argparse`` option for each parameter that declares a ``flag``.

    Every option defaults to ``None`` (not given), so :func:`flag_values` passes on only what
    was typed and :func:`read_params` fills the declared defaults and checks the values.
    A boolean is a switch; a ``choice`` lists its choices; a ``text`` form takes the text (a
    list's text form one or more words: ``--loads 50 80 110``).
    """
    for p in params:
        if p.flag is None:
            continue
        dest = p.name.replace(".", "_")
        if p.kind == "boolean":
            parser.add_argument(p.flag, dest=dest, action="store_true", default=None, help=describe(p))
            continue
        kwargs: dict[str, Any] = {"dest": dest, "default": None, "help": describe(p)}
        if p.kind == "choice" and p.text is None:
            kwargs["choices"] = p.choices
        kwargs["type"] = _flag_type(p) or str
        if p.text is not None and p.text.example:
            kwargs["metavar"] = p.text.example
        elif "choices" not in kwargs:  # --interval INTERVAL (not its parameter's name)
            kwargs["metavar"] = p.flag.lstrip("-").replace("-", "_").upper()
        if p.kind == "list" and p.text is not None:
            kwargs["nargs"] = "+"  # the words are joined again for the text form
            kwargs["metavar"] = p.item.name.upper() if p.item is not None else None
        parser.add_argument(p.flag, **kwargs)


def flag_values(args: argparse.Namespace, params: Sequence[Param]) -> dict[str, Any]:
    """The parameters typed on the command line, as :func:`read_params` reads them.

    A text form is parsed here (its errors name the flag); booleans not given are left out.
    """
    out: dict[str, Any] = {}
    errors: list[FieldError] = []
    for p in params:
        if p.flag is None:
            continue
        value = getattr(args, p.name.replace(".", "_"), None)
        if value is None:
            continue
        if p.text is not None:
            if isinstance(value, list):  # a list typed as several words (nargs="+")
                value = " ".join(value)
            try:
                value = p.text.parse(value, p.flag)
            except ScenarioError as exc:
                errors.extend(exc.errors)
                continue
        out[p.name] = value
    if errors:
        raise ScenarioError(errors)
    return out


def _at_flag(error: FieldError, params: Sequence[Param]) -> FieldError:
    """An error of :func:`read_params` at the flag of the parameter its path starts with."""
    for p in params:
        below = error.path.startswith((f"{p.name}.", f"{p.name}["))
        if p.flag is not None and (error.path == p.name or below):
            return FieldError(p.flag + error.path[len(p.name):], error.message)
    return error


def read_flags(
    args: argparse.Namespace, params: Sequence[Param], *, what: str = "the command"
) -> dict[str, Any]:
    """The values of the flags of ``params`` (:func:`add_flags`) read by their declarations,
    defaults filled in; every problem is reported at its flag (``--seeds``, ``--loads[1]``).

    >>> SEEDS = Param("seeds", "integer", "Seeds", default=100, minimum=1, maximum=1000, flag="--seeds")
    >>> parser = argparse.ArgumentParser()
    >>> add_flags(parser, (SEEDS,))
    >>> read_flags(parser.parse_args([]), (SEEDS,)), read_flags(parser.parse_args(["--seeds", "3"]), (SEEDS,))
    ({'seeds': 100}, {'seeds': 3})
    >>> read_flags(parser.parse_args(["--seeds", "0"]), (SEEDS,))
    Traceback (most recent call last):
    ...
    scheduling.errors.ScenarioError: --seeds: must be a whole number from 1 to 1,000
    """
    flagged = [p for p in params if p.flag is not None]
    try:
        return read_params(flagged, flag_values(args, flagged), what=what)
    except ScenarioError as exc:
        raise ScenarioError([_at_flag(e, flagged) for e in exc.errors]) from None
