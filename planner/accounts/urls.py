from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("sign-out-everywhere/", views.sign_out_everywhere, name="sign-out-everywhere"),
]
