from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("runs/new/cheapest/", views.start, name="cheapest-start"),
    path(
        "runs/<int:pk>/candidates/<int:index>/compare/",
        views.candidate_compare,
        name="cheapest-candidate-compare",
    ),
]
