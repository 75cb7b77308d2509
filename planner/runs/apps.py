from __future__ import annotations

from django.apps import AppConfig


class RunsConfig(AppConfig):
    name = "planner.runs"
    label = "runs"
    verbose_name = "Runs"
