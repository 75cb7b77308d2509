from __future__ import annotations

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "planner.core"
    label = "core"
    verbose_name = "Planner core"

    def ready(self) -> None:
        from . import converters

        converters.register()  # <variant:...> in the URLconf: a variant's label may hold a "/"
