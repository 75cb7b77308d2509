"""API serializers built from the parameters a kind declares in the library (``scheduling.params``).

The OpenAPI schema (``/api/schema/``) documents each kind's parameters from the same
declarations that check them (:func:`scheduling.params.read_params`, through the kind) and
build the start pages' fields: names, types, ranges, choices, defaults and help are never
written twice. The serializers only describe: the values are read by the library, whose
errors carry paths into the request (``sweep.loads[2]: must be <= 10``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework import serializers

from scheduling.params import Param, describe

__all__ = ["param_serializer_field", "params_serializer"]


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").replace(".", "_").split("_"))


def param_serializer_field(p: Param, *, component: str = "", item: bool = False) -> serializers.Field:
    """The serializer field of one parameter (optional, with its declared default and help); an
    ``item`` of a list or mapping is required and not null."""
    common: dict[str, Any] = {"help_text": describe(p) or None, "label": p.label or None}
    if item:
        common["required"] = True
    elif p.default is not None and p.kind not in ("object", "document"):
        common.update(required=False, default=p.default)
    else:
        common.update(required=False, allow_null=True)
    if p.kind == "integer":
        return serializers.IntegerField(
            min_value=None if p.minimum is None else int(p.minimum),
            max_value=None if p.maximum is None else int(p.maximum), **common,
        )
    if p.kind == "number":
        return serializers.FloatField(min_value=p.minimum, max_value=p.maximum, **common)
    if p.kind == "boolean":
        return serializers.BooleanField(**common)
    if p.kind == "choice":
        return serializers.ChoiceField(choices=p.labelled_choices(), **common)
    if p.kind == "choices":
        return serializers.ListField(
            child=serializers.ChoiceField(choices=p.labelled_choices()), min_length=p.min_items or None,
            max_length=p.max_items, **common,
        )
    if p.kind == "text":
        return serializers.CharField(max_length=p.max_chars, allow_blank=True, **common)
    if p.kind == "list":
        assert p.item is not None
        child = param_serializer_field(p.item, component=f"{component}{_camel(p.name)}", item=True)
        return serializers.ListField(child=child, min_length=p.min_items or None, max_length=p.max_items,
                                     **common)
    if p.kind == "object":
        nested = params_serializer(f"{component}{_camel(p.name)}", p.fields)
        return nested(**{k: v for k, v in common.items() if k not in ("default", "label")})
    if p.kind == "mapping":
        assert p.item is not None
        child = param_serializer_field(p.item, component=f"{component}{_camel(p.name)}", item=True)
        return serializers.DictField(child=child, **common)
    return serializers.JSONField(**common)


def params_serializer(
    name: str, params: Sequence[Param], *, base: type[serializers.Serializer] = serializers.Serializer,
    doc: str = "",
) -> type[serializers.Serializer]:
    """A serializer class named ``<name>Parameters`` (its schema component) with one field per
    parameter, over the fields of ``base`` (the request's generic fields)."""
    attrs: dict[str, Any] = {p.name: param_serializer_field(p, component=name) for p in params}
    attrs["__doc__"] = doc or f"The parameters of {name}."
    attrs["__module__"] = __name__
    return type(f"{name}Parameters", (base,), attrs)
