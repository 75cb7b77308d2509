from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("runs/new/ladder/", views.start, name="ladder-start"),
]
