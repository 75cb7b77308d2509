from __future__ import annotations

from django.apps import AppConfig


class RunsConfig(AppConfig):
    name = "planner.runs"
    label = "runs"
    verbose_name = "Runs"

    def ready(self) -> None:
        # The built-in run kinds register themselves on import.
        from .kinds import allocation, compare, mrsu, sharing, udrf  # noqa: F401
