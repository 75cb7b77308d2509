"""Serializer fields shared by the apps' APIs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


@extend_schema_field(OpenApiTypes.INT)
class ScopedPrimaryKeyField(serializers.PrimaryKeyRelatedField):
    """An id looked up among the objects the requesting user may see.

    An object of another team is reported exactly like one that does not exist, so the
    API never reveals what other teams have.
    """

    default_error_messages = {
        "does_not_exist": "There is no {label} with id {pk_value} in your teams.",
        "incorrect_type": "Must be an id (an integer), got {data_type}.",
    }

    def __init__(self, *, scope: Callable[[Any], QuerySet[Any]], label_text: str, **kwargs: Any):
        self.scope = scope
        self.label_text = label_text
        super().__init__(**kwargs)

    def get_queryset(self) -> QuerySet[Any]:
        return self.scope(self.context["request"].user)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and data.strip().isdigit():
            data = int(data)
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("incorrect_type", data_type=type(data).__name__)
        queryset = self.get_queryset()
        try:
            return queryset.get(pk=data)
        except queryset.model.DoesNotExist:
            self.fail("does_not_exist", label=self.label_text, pk_value=data)
