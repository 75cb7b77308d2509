from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("runs/new/allocation/", views.start, name="allocation-start"),
]
