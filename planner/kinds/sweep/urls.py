from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("runs/new/sweep/", views.start, name="sweep-start"),
    path("runs/<int:pk>/points/<int:point>/compare/", views.point_compare, name="sweep-point-compare"),
]
