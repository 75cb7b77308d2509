from __future__ import annotations

from django.contrib import admin

from .models import VMType


@admin.register(VMType)
class VMTypeAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "price_per_hour", "capacity", "updated_at"]
    list_filter = ["team"]
    search_fields = ["name", "team__name"]
    list_select_related = ["team"]
