from __future__ import annotations

from django.contrib import admin

from .models import Cluster, ClusterEntry, Upload, Workload


class ClusterEntryInline(admin.TabularInline):
    model = ClusterEntry
    extra = 0


@admin.register(Cluster)
class ClusterAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "resources", "updated_at"]
    list_filter = ["team"]
    search_fields = ["name", "team__name"]
    list_select_related = ["team"]
    inlines = [ClusterEntryInline]


@admin.register(Workload)
class WorkloadAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "job_count", "updated_at"]
    list_filter = ["team"]
    search_fields = ["name", "team__name"]
    list_select_related = ["team"]


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "format", "status", "job_count", "created_at"]
    list_filter = ["status", "format"]
    search_fields = ["name", "team__name"]
    list_select_related = ["team"]
    exclude = ["document", "preview_jobs"]  # large; the upload's page shows them
