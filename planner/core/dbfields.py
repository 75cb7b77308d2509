"""Model fields shared by the apps."""

from __future__ import annotations

from typing import Any

from django.db import models

from scheduling.packed import pack_tree, unpack_tree


class PackedJSONField(models.JSONField):
    """A JSON document stored with its long numeric lists packed (:mod:`scheduling.packed`).

    A result document is mostly columns of numbers: as JSON text, PostgreSQL turns each one
    into a ``numeric`` on the way in and Python parses each one on the way out. Packed, a
    column is one compressed string, and storing a 10,000-job document costs a fraction of
    what it did. What is read back (the whole value, or a key the database extracts) is the
    same JSON value as was stored: every packed column comes back as its list. Values stored
    before are read as they are (only packed columns are unpacked).

    Only saving packs: a lookup's value is written as it is.
    """

    def get_db_prep_save(self, value: Any, connection: Any) -> Any:
        if isinstance(value, dict):
            value = pack_tree(value)
        return super().get_db_prep_save(value, connection)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return unpack_tree(super().from_db_value(value, expression, connection))
