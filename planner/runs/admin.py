from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import Run, RunPart, RunResult


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "kind", "status", "progress", "created_at", "finished_at"]
    list_filter = ["status", "kind", "team"]
    search_fields = ["name", "scenario_name", "team__name"]
    list_select_related = ["team"]
    readonly_fields = ["started_at", "finished_at", "created_at"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Run]:
        return super().get_queryset(request).defer("scenario", "figures")


@admin.register(RunPart)
class RunPartAdmin(admin.ModelAdmin):
    list_display = ["run", "position", "label", "status", "progress", "attempts", "worker", "lease_until"]
    list_filter = ["status"]
    search_fields = ["run__name", "label"]
    list_select_related = ["run"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[RunPart]:
        return super().get_queryset(request).defer("run__scenario", "run__figures")


@admin.register(RunResult)
class RunResultAdmin(admin.ModelAdmin):
    list_display = ["run", "variant", "position"]
    search_fields = ["run__name", "variant"]
    list_select_related = ["run"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[RunResult]:
        return super().get_queryset(request).defer("result", "run__scenario", "run__figures")
