from __future__ import annotations

from django.urls import path

from .api import RunReplayApi

urlpatterns = [
    path("runs/<int:pk>/replay/<variant:variant>/", RunReplayApi.as_view(), name="run-replay"),
]
