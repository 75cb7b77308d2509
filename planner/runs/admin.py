from __future__ import annotations

from django.contrib import admin

from .models import Run, RunPart, RunResult


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "team", "kind", "status", "progress", "created_at", "finished_at"]
    list_filter = ["status", "kind", "team"]
    search_fields = ["name", "scenario_name", "team__name"]
    list_select_related = ["team"]
    readonly_fields = ["started_at", "finished_at", "created_at"]

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).defer("scenario", "figures")


@admin.register(RunPart)
class RunPartAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["run", "position", "label", "status", "progress", "attempts", "worker", "lease_until"]
    list_filter = ["status"]
    search_fields = ["run__name", "label"]
    list_select_related = ["run"]

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).defer("run__scenario", "run__figures")


@admin.register(RunResult)
class RunResultAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["run", "variant", "position"]
    search_fields = ["run__name", "variant"]
    list_select_related = ["run"]

    def get_queryset(self, request):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).defer("result", "run__scenario", "run__figures")
