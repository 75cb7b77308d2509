from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("runs/new/", views.start, name="compare-start"),
    path("runs/compare/", views.side_by_side, name="compare-side-by-side"),
    path("runs/<int:pk>/what-if/", views.what_if, name="compare-what-if"),
]
