"""Form fields built from the parameters a kind declares in the library (``scheduling.params``).

A start page never writes a parameter's label, help, default, bounds or choices: they come
from the kind's :class:`~scheduling.params.Param` declarations, which also check the values
(through ``run_start``), build the API's serializer and the command line's flags. This module
turns a declaration into Django form fields and back:

* :func:`param_field` is the field of one parameter (a number, a box, a choice, boxes of
  choices, a text form such as ``cpu=1,mem=4``, a JSON document);
* :class:`ParamsForm` adds the fields of a list of declarations: an object's fields flattened
  (``sweep_seeds``, with a box ``sweep`` that turns an optional object on), a list of objects
  as rows of small forms (``configurations0-seed``); it reads the request's parameters back
  (:meth:`ParamsForm.param_values`), fills itself from a preset's or an earlier run's
  (:meth:`ParamsForm.fill_params`), and puts an error of the library's path
  (``sweep.loads[2]``, ``configurations[1].overrides.a.refuse_s``) on the field it belongs to
  (:meth:`ParamsForm.place_param_error`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from scheduling import ScenarioError
from scheduling.params import Param, describe

__all__ = ["NumberInput", "ParamRowForm", "ParamsForm", "param_field", "path_steps"]

JSON_MAX_CHARS = 20 * 1024 * 1024


class NumberInput(forms.NumberInput):
    def __init__(self, attrs: dict[str, Any] | None = None):
        super().__init__(attrs={"step": "any", **(attrs or {})})


def _label(p: Param) -> str:
    return f"{p.label or p.name} ({p.unit})" if p.unit and p.kind in ("integer", "number") else (
        p.label or p.name
    )


def _boxes(p: Param) -> bool:
    """A list shown as tick boxes: the declared choices, or the suggested values of a list."""
    return p.kind == "choices" or (p.kind == "list" and bool(p.choices) and p.text is None)


def _rows(p: Param) -> bool:
    return p.kind == "list" and p.item is not None and p.item.kind == "object" and p.text is None


class _TextForm(forms.CharField):
    """A parameter written as one line of text, read by its declared :class:`TextForm`."""

    def __init__(self, param: Param, **kwargs: Any):
        self.param = param
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if text in (None, ""):
            return None
        assert self.param.text is not None
        try:
            return self.param.text.parse(text, self.param.name)
        except ScenarioError as exc:  # an item's error names the item (loads[1]: ...)
            raise forms.ValidationError(
                [e.message if e.path == self.param.name else str(e) for e in exc.errors]
            ) from None

    def prepare_value(self, value: Any) -> Any:
        if value is None or isinstance(value, str):
            return value
        assert self.param.text is not None
        return self.param.text.format(value)


class _JsonDocument(forms.CharField):
    """A JSON document pasted in a text area (the API's strict parser)."""

    def to_python(self, value: Any) -> Any:
        from planner.core.parsers import JSONSyntaxError, loads_strict

        text = super().to_python(value)
        if text in (None, ""):
            return None
        if len(text) > JSON_MAX_CHARS:
            raise forms.ValidationError("is too large")
        try:
            return loads_strict(text)
        except JSONSyntaxError as exc:
            raise forms.ValidationError(f"is not valid JSON: {exc}") from None

    def prepare_value(self, value: Any) -> Any:
        return value if value is None or isinstance(value, str) else json.dumps(value, indent=1)


def param_field(p: Param) -> forms.Field:
    """The form field of one parameter: its label, help (with unit, range and default), bounds,
    choices and initial value are the declaration's. Every field is optional: a value left
    out takes the declared default, and the library says what is missing."""
    common: dict[str, Any] = {"label": _label(p), "help_text": describe(p), "required": False}
    if p.text is not None:
        attrs = {"class": "mono", "placeholder": p.text.example} if p.text.example else {"class": "mono"}
        initial = p.text.format(p.default) if p.default is not None else None
        return _TextForm(p, initial=initial, widget=forms.TextInput(attrs=attrs), **common)
    if p.kind == "integer":
        # The bounds are the browser's hints only: the declaration checks them (through the
        # kind), so a page says every problem at once, in the API's words.
        bounds = {k: int(v) for k, v in (("min", p.minimum), ("max", p.maximum)) if v is not None}
        return forms.IntegerField(initial=p.default, widget=NumberInput(bounds), localize=False, **common)
    if p.kind == "number":
        return forms.FloatField(initial=p.default, widget=NumberInput(), localize=False, **common)
    if p.kind == "boolean":
        return forms.BooleanField(initial=bool(p.default), **common)
    if p.kind == "choice":
        # An optional choice (no default) can be left to the library: an empty first choice.
        empty = [("", "default")] if p.default is None else []
        return forms.ChoiceField(choices=[*empty, *p.labelled_choices()], initial=p.default, **common)
    if _boxes(p):
        return forms.MultipleChoiceField(
            choices=p.labelled_choices(), initial=list(p.default or []), widget=forms.CheckboxSelectMultiple,
            **common,
        )
    if p.kind == "document":
        return _JsonDocument(
            strip=False, widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "mono"}),
            **common,
        )
    if p.kind == "text":
        return forms.CharField(initial=p.default, max_length=p.max_chars, **common)
    raise ValueError(f"{p.name}: a {p.kind} parameter needs a text form or rows to be shown in a form")


def path_steps(path: str) -> list[str | int]:
    """A library path as its steps (``configurations[1].overrides.a``: four steps).

    >>> path_steps("sweep.loads[2]"), path_steps("variants[0]"), path_steps("seed")
    (['sweep', 'loads', 2], ['variants', 0], ['seed'])
    """
    steps: list[str | int] = []
    for part in path.split("."):
        m = re.match(r"^([^\[]*)((?:\[\d+\])*)$", part)
        if m is None:
            steps.append(part)
            continue
        if m.group(1):
            steps.append(m.group(1))
        steps.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
    return steps


def _path_text(steps: Sequence[str | int]) -> str:
    out = ""
    for s in steps:
        out += f"[{s}]" if isinstance(s, int) else (f".{s}" if out else s)
    return out


class ParamRowForm(forms.Form):
    """One row of a list of objects (one configuration of a sharing study): a box that includes it,
    and one field per field of the object."""

    use = forms.BooleanField(required=False, label="Include")

    def __init__(self, *args: Any, item: Param, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.item = item
        for f in item.fields:
            self.fields[f.name] = param_field(f)

    def used(self) -> bool:
        if self.is_bound:
            return bool(self.data.get(f"{self.prefix}-use"))
        return bool(self.initial.get("use"))

    def values(self) -> dict[str, Any]:
        return _given({f.name: self.cleaned_data.get(f.name) for f in self.item.fields}, self.item.fields)


def _given(values: Mapping[str, Any], params: Sequence[Param]) -> dict[str, Any]:
    """The values a person gave: empty fields are left out (the declared default applies);
    booleans and lists always count (an unticked box is a choice too)."""
    out: dict[str, Any] = {}
    for p in params:
        value = values.get(p.name)
        if p.kind == "boolean" or _boxes(p):
            out[p.name] = bool(value) if p.kind == "boolean" else list(value or [])
        elif value not in (None, ""):
            out[p.name] = value
    return out


class ParamsForm(forms.Form):
    """A form with the fields of a kind's declared parameters (see the module's docstring).

    Subclasses (or callers) pass the declarations to :meth:`add_params`; an object parameter
    is flattened into ``<object>_<field>`` fields, preceded by a box ``<object>`` when the
    object is optional (its default is ``None``); a list of objects becomes :attr:`ROWS` rows.
    A subclass that shows a parameter its own way names it in :attr:`OWN_PARAMS`.
    """

    ROWS = 6
    #: Parameters the subclass shows itself (no field here), and reads, fills and places the
    #: errors of in its own methods: the comparison's run options, one RUT weight per resource.
    OWN_PARAMS: tuple[str, ...] = ()

    def add_params(self, params: Sequence[Param], *, rows_data: Any = None,
                   keys: Mapping[str, Sequence[str]] | None = None) -> None:
        """Add the fields of ``params``; a ``mapping`` parameter named in ``keys`` gets one field
        per key (``counts.m1.large``: the count of one VM type), its item's declaration each."""
        self.declared_params: tuple[Param, ...] = tuple(p for p in params if p.name not in self.OWN_PARAMS)
        params = self.declared_params
        self.param_rows: dict[str, list[ParamRowForm]] = {}
        self.param_keys: dict[str, list[str]] = {}
        for p in params:
            if p.kind == "mapping" and p.text is None and keys and p.name in keys:
                assert p.item is not None
                self.param_keys[p.name] = list(keys[p.name])
                for key in self.param_keys[p.name]:
                    field = param_field(p.item)
                    field.label, field.help_text, field.initial = f"{key}: {p.label or p.name}", p.help, None
                    self.fields[f"{p.name}.{key}"] = field
            elif _rows(p):
                assert p.item is not None
                self.param_rows[p.name] = [
                    ParamRowForm(rows_data, prefix=f"{p.name}{k}", item=p.item, initial={"use": k == 0})
                    for k in range(self.ROWS)
                ]
            elif p.kind == "object" and p.text is None:
                if p.default is None:
                    self.fields[p.name] = forms.BooleanField(required=False, label=p.label or p.name,
                                                             help_text=p.help)
                for f in p.fields:
                    self.fields[f"{p.name}_{f.name}"] = param_field(f)
            else:
                self.fields[p.name] = param_field(p)

    # ------------------------------------------------------------------ reading

    def param_bound_fields(self) -> list[forms.BoundField]:
        """The fields of the declared parameters (not the rows of a list of objects), in
        declaration order: what a generic start page renders (``web/_param_fields.html``)."""
        names: list[str] = []
        for p in self.declared_params:
            if p.name in self.param_rows:
                continue
            if p.name in self.param_keys:
                names += [f"{p.name}.{key}" for key in self.param_keys[p.name]]
                continue
            if p.kind == "object" and p.text is None:
                names += [n for n in (p.name, *(f"{p.name}_{f.name}" for f in p.fields)) if n in self.fields]
            else:
                names.append(p.name)
        return [self[name] for name in names]

    def used_rows(self, name: str) -> list[ParamRowForm]:
        return [row for row in self.param_rows.get(name, []) if row.used()]

    def rows_valid(self) -> bool:
        """Whether every included row is valid (call with :meth:`is_valid`)."""
        return all([row.is_valid() for rows in self.param_rows.values() for row in rows if row.used()])

    @property
    def has_row_errors(self) -> bool:
        return any(row.errors for rows in self.param_rows.values() for row in rows)

    def param_values(self) -> dict[str, Any]:
        """The parameters the form gives (call after :meth:`is_valid`): the request's fields."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        for p in self.declared_params:
            if p.name in self.param_keys:
                given = {key: data.get(f"{p.name}.{key}") for key in self.param_keys[p.name]}
                out[p.name] = {key: v for key, v in given.items() if v not in (None, "")}
            elif p.name in self.param_rows:
                out[p.name] = [row.values() for row in self.used_rows(p.name)]
            elif p.kind == "object" and p.text is None:
                if p.default is None and not data.get(p.name):
                    continue
                out[p.name] = _given({f.name: data.get(f"{p.name}_{f.name}") for f in p.fields}, p.fields)
            else:
                out.update(_given({p.name: data.get(p.name)}, [p]))
        return out

    # ------------------------------------------------------------------ filling

    def fill_params(self, values: Mapping[str, Any]) -> None:
        """Start from a preset's (or an earlier run's) parameters; what they do not give keeps
        its declared default."""
        for p in self.declared_params:
            value = values.get(p.name)
            if p.name in self.param_keys:
                for key, v in (value or {}).items() if isinstance(value, Mapping) else ():
                    if key in self.param_keys[p.name]:
                        self.initial[f"{p.name}.{key}"] = v
            elif p.name in self.param_rows:
                given = [v for v in value or [] if isinstance(v, Mapping)][: self.ROWS]
                for k, row in enumerate(self.param_rows[p.name]):
                    row.initial = {"use": True, **given[k]} if k < len(given) else {"use": False}
            elif p.kind == "object" and p.text is None:
                if not value:
                    continue
                if p.default is None:
                    self.initial[p.name] = True
                if isinstance(value, Mapping):
                    for f in p.fields:
                        if value.get(f.name) is not None:
                            self.initial[f"{p.name}_{f.name}"] = value[f.name]
            elif value is not None:
                self.initial[p.name] = list(value) if _boxes(p) else value

    # ------------------------------------------------------------------ errors

    def place_param_error(self, path: str, message: str, text: str) -> bool:
        """Put an error of the library (``path``: its path into the request) on the field of
        the parameter it is about; ``False`` when it is about none of them."""
        steps = path_steps(path)
        if not steps or not isinstance(steps[0], str):
            return False
        p = next((q for q in self.declared_params if q.name == steps[0]), None)
        if p is None:
            return False
        rest = steps[1:]
        if p.name in self.param_keys:
            key = path[len(p.name) + 1:]  # a key may hold dots (m1.large)
            field = f"{p.name}.{key}"
            self.add_error(field if field in self.fields else None, message if field in self.fields else text)
            return True
        if p.name in self.param_rows:
            rows = self.used_rows(p.name)
            if not rest or not isinstance(rest[0], int) or rest[0] >= len(rows):
                self.add_error(None, text)  # "configurations: must not be empty"
                return True
            row, below = rows[rest[0]], rest[1:]
            if below and isinstance(below[0], str) and below[0] in row.fields:
                more = _path_text(below[1:])
                row.add_error(below[0], f"{more}: {message}" if more else message)
            else:
                row.add_error(None, text)
            return True
        if p.kind == "object" and p.text is None:
            if rest and isinstance(rest[0], str) and f"{p.name}_{rest[0]}" in self.fields:
                more = _path_text(rest[1:])
                self.add_error(f"{p.name}_{rest[0]}", f"{more}: {message}" if more else message)
            elif p.name in self.fields:
                self.add_error(p.name, text)
            else:
                self.add_error(None, text)
            return True
        if _boxes(p) and rest and isinstance(rest[0], int):
            # the values as sent, read once: an error placed takes its field out of cleaned_data
            if not hasattr(self, "_sent_values"):
                self._sent_values = self.param_values()
            given = list(self._sent_values.get(p.name) or [])
            more = _path_text(rest[1:])
            item = given[rest[0]] if rest[0] < len(given) else None
            where = f"{item}{'.' + more if more else ''}" if item is not None else _path_text(rest)
            self.add_error(p.name, f"{where}: {message}")
            return True
        self.add_error(p.name, f"{_path_text(rest)}: {message}" if rest else message)
        return True

