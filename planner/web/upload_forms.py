"""The forms of an upload: its files, format and the format's options; then its prices.

The formats are the library's importer registry (:data:`scheduling.importers.IMPORTERS`), so a
format registered there appears here with no change. Each format's options get a field
(``option_<format>_<name>``) from its declarations, either run-option style
(:class:`scheduling.scenario.OptionField`) or parameter style (:class:`scheduling.params.Param`);
a format that declares none takes its options as ``key=value`` text. Only the chosen format's
options are passed on, and the importer checks them (errors at ``options.<name>``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django import forms

from planner.core.errors import InputError
from scheduling import OptionField
from scheduling.importers import IMPORTERS, Importer
from scheduling.params import Param
from scheduling.price_lists import PRICE_LISTS

from .forms import option_form_field
from .param_forms import NumberInput, param_field

__all__ = ["UploadForm", "UploadPricesForm", "parse_option_text"]


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """One or more files (the multi-table trace formats take several)."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(d, initial) for d in data]
        return [single(data, initial)] if data else []


def parse_option_text(text: str, path: str = "options") -> dict[str, str]:
    """``a=1, b=x`` as ``{"a": "1", "b": "x"}`` (the importer reads the values);
    :class:`InputError` at ``path`` for an item without ``=``.

    >>> parse_option_text("with_deadlines=false, scale = 2")
    {'with_deadlines': 'false', 'scale': '2'}
    """
    out: dict[str, str] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError.single(path, f"write key=value, not {item!r}")
        out[key.strip()] = value.strip()
    return out


def _option_field(option: Any, label: str) -> forms.Field:
    if isinstance(option, Param):
        field = param_field(option)
        field.label = f"{label}: {field.label}"
        field.required = False
        return field
    assert isinstance(option, OptionField)
    return option_form_field(option, label=f"{label}: {option.label}")


class UploadForm(forms.Form):
    name = forms.CharField(max_length=200, label="Workload name")
    format = forms.ChoiceField(
        choices=[(i.name, i.label) for i in IMPORTERS.values()],
        help_text=" ".join(f"{i.label}: {i.help}" for i in IMPORTERS.values()),
    )
    upload = MultipleFileField(
        label="File(s)",
        help_text="One file, or a trace's files (each table known by the name in its file's name).",
    )
    options_text = forms.CharField(
        required=False, label="Options (key=value, comma separated)",
        help_text="For a format that declares no options of its own.",
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for importer in IMPORTERS.values():
            for option in importer.options:
                self.fields[self._option_field(importer.name, option.name)] = _option_field(
                    option, importer.label.split(" (")[0]
                )

    @staticmethod
    def _option_field(fmt: str, name: str) -> str:
        return f"option_{fmt}_{name}".replace("-", "_").replace(".", "_")

    def option_groups(self) -> list[tuple[Importer, list[forms.BoundField]]]:
        """Each format with the fields of its declared options (the page shows the chosen one's)."""
        return [
            (i, [self[self._option_field(i.name, o.name)] for o in i.options]) for i in IMPORTERS.values()
        ]

    def importer_options(self) -> dict[str, Any]:
        """The chosen format's options as its importer reads them."""
        importer = IMPORTERS[self.cleaned_data["format"]]
        if not importer.options:
            return parse_option_text(self.cleaned_data.get("options_text") or "")
        out = {}
        for option in importer.options:
            value = self.cleaned_data.get(self._option_field(importer.name, option.name))
            if value is not None and value != "":
                out[option.name] = value
        return out

    def field_for(self) -> Callable[[str], str | tuple[str, bool] | None]:
        """Where an error of the service goes: its option's field, the files, else the form."""
        fmt = (getattr(self, "cleaned_data", None) or {}).get("format", "")

        def where(path: str) -> str | tuple[str, bool] | None:
            if path.startswith("options."):
                name = self._option_field(fmt, path.split(".", 1)[1])
                return (name, True) if name in self.fields else "options_text"
            if path == "options":
                return ("options_text", True)
            if path.startswith("files"):
                return "upload"
            return path if path in ("name", "format") else None

        return where


class UploadPricesForm(forms.Form):
    """The workload's name and an hourly price per machine type of a ready upload.

    A price starts as the files' own (when they give one); the page offers each price list's
    price by capacity (:data:`scheduling.price_lists.PRICE_LISTS`) to fill them in.
    """

    name = forms.CharField(max_length=200, label="Workload name")

    def __init__(self, *args: Any, vm_types: Sequence[Mapping[str, Any]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.vm_types = list(vm_types)
        for k, entry in enumerate(self.vm_types):
            self.fields[f"price_{k}"] = forms.FloatField(
                label=f"{entry['name']} (per hour)", required=False, min_value=0, localize=False,
                initial=entry.get("price_per_hour"), widget=NumberInput(),
            )

    def price_rows(self) -> list[tuple[Mapping[str, Any], forms.BoundField]]:
        return [(entry, self[f"price_{k}"]) for k, entry in enumerate(self.vm_types)]

    @staticmethod
    def price_lists() -> list[tuple[str, str]]:
        return [(name, p.label) for name, p in PRICE_LISTS.items()]

    def prices(self) -> dict[str, float]:
        return {
            entry["name"]: value
            for k, entry in enumerate(self.vm_types)
            if (value := self.cleaned_data.get(f"price_{k}")) is not None
        }

    def field_for(self, path: str) -> str | None:
        if path.startswith("prices."):
            name = path.split(".", 1)[1]
            for k, entry in enumerate(self.vm_types):
                if entry["name"] == name:
                    return f"price_{k}"
        return "name" if path == "name" else None
