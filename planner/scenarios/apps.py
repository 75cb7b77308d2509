from __future__ import annotations

from django.apps import AppConfig


class ScenariosConfig(AppConfig):
    name = "planner.scenarios"
    label = "scenarios"
    verbose_name = "Clusters and workloads"
