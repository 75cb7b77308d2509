from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "planner.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from . import schema, signals  # noqa: F401  (schema: the token scheme of the OpenAPI schema)

        signals.connect()
