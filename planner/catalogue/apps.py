from __future__ import annotations

from django.apps import AppConfig


class CatalogueConfig(AppConfig):
    name = "planner.catalogue"
    label = "catalogue"
    verbose_name = "VM type catalogue"
