from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("runs/new/reproduce/", views.start, name="reproduce-start"),
]
